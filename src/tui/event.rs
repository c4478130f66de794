//! The one event channel of a screen: terminal input from the input thread, a steady tick from
//! the tick thread, and engine reports from the worker's sink, all on one `mpsc` channel read by the runner.

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

/// The threads that read the terminal and keep time. Dropping it stops and joins them within
/// one tick.
///
/// The tick has a thread of its own: crossterm's reader holds back every key after an
/// unfinished escape sequence (a paste start without its end, say) until the sequence is
/// complete, and the clock, engine-against-engine play and the quit timer must not wait on
/// that.
pub struct InputThread {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl InputThread {
    /// Starts reading terminal events into `tx`, with a [`Event::Tick`] every [`TICK`].
    pub fn spawn<R: Send + 'static>(tx: Sender<Event<R>>) -> std::io::Result<Self> {
        let stop = Arc::new(AtomicBool::new(false));
        let mut this = Self {
            stop,
            threads: Vec::with_capacity(2),
        };
        let (flag, ticks) = (Arc::clone(&this.stop), tx.clone());
        this.threads.push(
            std::thread::Builder::new()
                .name("gametree-tick".to_string())
                .spawn(move || tick_loop(&ticks, &flag))?,
        );
        let flag = Arc::clone(&this.stop);
        this.threads.push(
            std::thread::Builder::new()
                .name("gametree-input".to_string())
                .spawn(move || input_loop(&tx, &flag))?,
        );
        Ok(this)
    }
}

impl Drop for InputThread {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

fn tick_loop<R>(tx: &Sender<Event<R>>, stop: &AtomicBool) {
    let mut next_tick = Instant::now() + TICK;
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(next_tick.saturating_duration_since(Instant::now()));
        // A late tick is not made up for: after a suspension, one tick, not a burst.
        next_tick = (next_tick + TICK).max(Instant::now());
        if tx.send(Event::Tick).is_err() {
            return;
        }
    }
}

fn input_loop<R>(tx: &Sender<Event<R>>, stop: &AtomicBool) {
    while !stop.load(Ordering::Relaxed) {
        let event = match ct::poll(TICK) {
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
    }
}
