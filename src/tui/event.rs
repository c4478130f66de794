//! The one event channel of a screen: terminal input from the input thread, a steady tick from
//! the tick thread, and engine reports from the worker's sink, all on one `mpsc` channel read by the runner.

use std::fs::File;
use std::io::{IsTerminal, Read};
use std::os::fd::AsFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use ratatui::crossterm::event as ct;
use ratatui::crossterm::terminal::size as crossterm_size;

use super::input::Decoder;

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

/// The threads that decode terminal input and keep time. Dropping it stops and joins them
/// within one tick.
///
/// The bytes come from one reader thread for the whole process (a blocking read cannot be
/// interrupted, so that thread is never stopped; each screen's input thread borrows its
/// channel and gives it back). The decoder ([`super::input::Decoder`]) settles an
/// unfinished escape sequence after a short timeout, so nothing waits on the rest of it; the
/// tick has a thread of its own all the same, so the clock, engine-against-engine play and
/// the quit timer never depend on input. Resizes are noticed by asking the terminal's size
/// whenever input arrives: a `SIGWINCH` (the terminal changed size) arrives as an empty chunk
/// of input (see [`spawn_resize_waker`]), so a resize is drawn at once; the size is asked at
/// every tick as well, for terminals that send no signal.
pub struct InputThread {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

/// What the reader thread sends: bytes as they were read (none: the terminal's size may
/// have changed), or why reading ended.
pub type Chunk = Result<Vec<u8>, String>;

/// The reader thread's channel while no input thread holds it.
static BYTES: Mutex<Option<Receiver<Chunk>>> = Mutex::new(None);
/// Whether the reader thread was started.
static READER: AtomicBool = AtomicBool::new(false);

/// The terminal to read: standard input when it is one, else the controlling terminal (as
/// crossterm does).
fn open_terminal() -> std::io::Result<File> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        Ok(File::from(stdin.as_fd().try_clone_to_owned()?))
    } else {
        File::open("/dev/tty")
    }
}

/// Takes the reader thread's channel, starting the thread on first use.
fn take_bytes() -> std::io::Result<Receiver<Chunk>> {
    let mut slot = BYTES.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(rx) = slot.take() {
        return Ok(rx);
    }
    let (tx, rx) = mpsc::channel();
    if !READER.swap(true, Ordering::SeqCst) {
        let mut tty = open_terminal()?;
        // Without the signal a resize is still seen within a tick.
        let _ = spawn_resize_waker(tx.clone());
        std::thread::Builder::new()
            .name("gametree-reader".to_string())
            .spawn(move || read_loop(&mut tty, &tx))?;
    }
    // A second call after the thread ended gets a channel that says so at once.
    Ok(rx)
}

fn read_loop(tty: &mut File, tx: &Sender<Chunk>) {
    let mut buf = [0u8; 4096];
    loop {
        let chunk = match tty.read(&mut buf) {
            Ok(0) => Err("the terminal was closed".to_string()),
            Ok(n) => Ok(buf[..n].to_vec()),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => Err(e.to_string()),
        };
        let last = chunk.is_err();
        if tx.send(chunk).is_err() || last {
            return;
        }
    }
}

/// Sends an empty chunk to `tx` whenever the process gets `SIGWINCH`, so the input thread
/// wakes and asks the terminal's size at once instead of at the next tick. The thread ends
/// when `tx`'s receiver is gone.
pub fn spawn_resize_waker(tx: Sender<Chunk>) -> std::io::Result<()> {
    let mut signals = signal_hook::iterator::Signals::new([signal_hook::consts::signal::SIGWINCH])?;
    std::thread::Builder::new()
        .name("gametree-resize".to_string())
        .spawn(move || {
            for _ in signals.forever() {
                if tx.send(Ok(Vec::new())).is_err() {
                    return;
                }
            }
        })?;
    Ok(())
}

/// Gives the reader's channel back for the next screen.
struct Borrowed(Option<Receiver<Chunk>>);

impl Drop for Borrowed {
    fn drop(&mut self) {
        if let Some(rx) = self.0.take() {
            *BYTES.lock().unwrap_or_else(PoisonError::into_inner) = Some(rx);
        }
    }
}

impl InputThread {
    /// Starts decoding terminal input into `tx`, with a [`Event::Tick`] every [`TICK`].
    pub fn spawn<R: Send + 'static>(tx: Sender<Event<R>>) -> std::io::Result<Self> {
        let stop = Arc::new(AtomicBool::new(false));
        let mut this = Self {
            stop,
            threads: Vec::with_capacity(2),
        };
        let bytes = Borrowed(Some(take_bytes()?));
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
                .spawn(move || input_loop(&bytes, &tx, &flag))?,
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

fn input_loop<R>(bytes: &Borrowed, tx: &Sender<Event<R>>, stop: &AtomicBool) {
    let Some(rx) = &bytes.0 else { return };
    let mut decoder = Decoder::new();
    let mut size = crossterm_size().ok();
    let mut events = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let now = Instant::now();
        let wait = decoder
            .deadline()
            .map_or(TICK, |d| d.saturating_duration_since(now).min(TICK));
        match rx.recv_timeout(wait) {
            Ok(Ok(chunk)) => decoder.feed(&chunk, Instant::now(), &mut events),
            Ok(Err(reason)) => {
                let _ = tx.send(Event::InputFailed(reason));
                return;
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                let _ = tx.send(Event::InputFailed("the terminal was closed".to_string()));
                return;
            }
        }
        decoder.expire(Instant::now(), &mut events);
        if let Ok(now_size) = crossterm_size()
            && size != Some(now_size)
        {
            size = Some(now_size);
            events.push(ct::Event::Resize(now_size.0, now_size.1));
        }
        for event in events.drain(..) {
            if tx.send(Event::Input(event)).is_err() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_resize_signal_wakes_the_input_thread_with_an_empty_chunk() {
        let (tx, rx) = mpsc::channel();
        spawn_resize_waker(tx).unwrap();
        signal_hook::low_level::raise(signal_hook::consts::signal::SIGWINCH).unwrap();
        // Only a lost signal reaches this limit.
        let chunk = rx.recv_timeout(Duration::from_secs(60)).unwrap();
        assert_eq!(chunk, Ok(Vec::new()));
        // An empty chunk decodes to nothing: the wake-up itself is no input.
        let mut events = Vec::new();
        Decoder::new().feed(&[], Instant::now(), &mut events);
        assert!(events.is_empty());
    }
}
