//! The one event channel of a screen: terminal input and a steady tick from the input thread,
//! and engine reports from the worker's sink, all on one `mpsc` channel read by the runner.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use ratatui::crossterm::event as ct;

/// The tick interval: the spinner's frame rate and the engine pace's resolution.
pub const TICK: Duration = Duration::from_millis(100);

/// Milliseconds per tick; the app measures time in ticks so tests can play the clock.
pub const TICK_MS: u64 = 100;

/// Something that happened. `R` is what the engine reports (nothing on the setup screen).
#[derive(Clone, Debug, PartialEq)]
pub enum Event<R> {
    /// A key, mouse, resize or paste event from the terminal.
    Input(ct::Event),
    /// Time passed ([`TICK`]).
    Tick,
    /// A message from the engine worker.
    Engine(R),
    /// The terminal can no longer be read; the program must end.
    InputFailed(String),
}

/// The thread that reads the terminal. Dropping it stops and joins it within one tick.
pub struct InputThread {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl InputThread {
    /// Starts reading terminal events into `tx`, with a [`Event::Tick`] every [`TICK`].
    pub fn spawn<R: Send + 'static>(tx: Sender<Event<R>>) -> std::io::Result<Self> {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("gametree-input".to_string())
            .spawn(move || input_loop(&tx, &flag))?;
        Ok(Self {
            stop,
            thread: Some(thread),
        })
    }
}

impl Drop for InputThread {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn input_loop<R>(tx: &Sender<Event<R>>, stop: &AtomicBool) {
    let mut next_tick = Instant::now() + TICK;
    while !stop.load(Ordering::Relaxed) {
        let timeout = next_tick.saturating_duration_since(Instant::now());
        let event = match ct::poll(timeout) {
            Ok(true) => match ct::read() {
                Ok(event) => Some(Event::Input(event)),
                Err(e) => Some(Event::InputFailed(e.to_string())),
            },
            Ok(false) => None,
            Err(e) => Some(Event::InputFailed(e.to_string())),
        };
        let failed = matches!(event, Some(Event::InputFailed(_)));
        if let Some(event) = event
            && tx.send(event).is_err()
        {
            return;
        }
        if failed {
            return;
        }
        if Instant::now() >= next_tick {
            next_tick += TICK;
            if tx.send(Event::Tick).is_err() {
                return;
            }
        }
    }
}
