//! The single owner of terminal setup and restore: raw mode, the alternate screen, mouse
//! capture and the cursor. Restored on drop, on every error path, through a panic hook when
//! the main thread panics, and by a signal thread on SIGTERM, SIGHUP, SIGINT and SIGQUIT.
//! SIGTSTP and Ctrl-Z suspend: the terminal is given back, the process stops, and on SIGCONT
//! full-screen mode comes back and the runner redraws everything.

use std::io::{Stdout, stdout};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::cursor::{Hide, Show};
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use signal_hook::consts::signal::{SIGCONT, SIGHUP, SIGINT, SIGQUIT, SIGSTOP, SIGTERM, SIGTSTP};
use signal_hook::iterator::Signals;
use signal_hook::low_level;

/// The terminal type the program draws on.
pub type Term = Terminal<CrosstermBackend<Stdout>>;

/// Holds the terminal in full-screen mode; dropping it gives the terminal back.
pub struct TerminalGuard {
    terminal: Term,
}

/// Threads whose panics are caught and reported in the UI (their panic message would only
/// scribble over the screen).
const QUIET_THREADS: [&str; 3] = ["gametree-engine", "gametree-input", "gametree-tick"];

static HOOK: Once = Once::new();
static SIGNALS: Once = Once::new();

/// Whether a guard holds the terminal in full-screen mode: signals that arrive after it was
/// given back must not switch it on again.
static FULL_SCREEN: AtomicBool = AtomicBool::new(false);
/// Whether full-screen mode was entered with mouse capture (to enter it the same way again).
static MOUSE: AtomicBool = AtomicBool::new(false);
/// Set when full-screen mode came back after a suspension: the screen must be drawn afresh.
static RESUMED: AtomicBool = AtomicBool::new(false);

fn install_panic_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let thread = std::thread::current();
            let name = thread.name().unwrap_or("");
            if QUIET_THREADS.contains(&name) {
                return;
            }
            restore();
            previous(info);
        }));
    });
}

/// Handles signals on an ordinary thread (signal-hook's iterator), where restoring the
/// terminal may write and lock freely. Without it, a kill leaves the shell in raw mode on the
/// alternate screen with the cursor hidden.
fn install_signal_thread() {
    SIGNALS.call_once(|| {
        let Ok(mut signals) = Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGTSTP, SIGCONT])
        else {
            // Without handlers the default actions stay: the program still ends, only the
            // terminal is left as it was.
            return;
        };
        let _ = std::thread::Builder::new()
            .name("gametree-signals".to_string())
            .spawn(move || {
                for signal in signals.forever() {
                    match signal {
                        SIGTSTP => suspend(),
                        SIGCONT => resume(),
                        _ => terminate(signal),
                    }
                }
            });
    });
}

/// Gives the terminal back and ends the process the way the signal would have.
fn terminate(signal: i32) -> ! {
    FULL_SCREEN.store(false, Ordering::SeqCst);
    restore();
    let _ = low_level::emulate_default_handler(signal);
    // Reached only if the default action could not be re-raised.
    std::process::exit(128 + signal);
}

/// Gives the terminal back and stops the process (as the shell expects of Ctrl-Z); returns
/// once it is continued, with full-screen mode back and [`take_resumed`] set.
pub fn suspend() {
    let was_full_screen = FULL_SCREEN.load(Ordering::SeqCst);
    if was_full_screen {
        restore();
    }
    // SIGSTOP, not SIGTSTP: SIGTSTP is caught here and would only come back to this function.
    let _ = low_level::raise(SIGSTOP);
    if was_full_screen {
        resume();
    }
}

/// Enters full-screen mode again after the process was stopped (the shell may have reset the
/// terminal meanwhile), and asks for a full redraw.
fn resume() {
    if !FULL_SCREEN.load(Ordering::SeqCst) {
        return;
    }
    // Raw mode is switched off first: crossterm does nothing when it believes raw mode is on,
    // but a shell may have restored cooked mode while the process was stopped.
    let _ = disable_raw_mode();
    if enter_modes(MOUSE.load(Ordering::SeqCst)).is_ok() {
        RESUMED.store(true, Ordering::SeqCst);
    }
}

/// Whether full-screen mode came back after a suspension since the last call: the screen
/// must then be cleared and drawn afresh.
pub fn take_resumed() -> bool {
    RESUMED.swap(false, Ordering::SeqCst)
}

fn enter_modes(mouse: bool) -> std::io::Result<()> {
    enable_raw_mode()?;
    execute!(stdout(), EnterAlternateScreen, Hide)?;
    if mouse {
        execute!(stdout(), EnableMouseCapture)?;
    }
    Ok(())
}

/// Leaves full-screen mode. Safe to call more than once and when it was never entered.
pub fn restore() {
    let _ = execute!(stdout(), DisableMouseCapture, LeaveAlternateScreen, Show);
    let _ = disable_raw_mode();
}

impl TerminalGuard {
    /// Enters full-screen mode, with mouse capture when `mouse` is true.
    pub fn enter(mouse: bool) -> std::io::Result<Self> {
        use std::io::IsTerminal;
        // Refused before anything is written: escape codes would only garble a file or pipe.
        if !stdout().is_terminal() {
            return Err(std::io::Error::other(
                "the full-screen program needs a terminal, and standard output is not one; \
                 `gametree play GAME --text` plays line by line, `gametree serve` speaks JSON \
                 lines to programs",
            ));
        }
        install_panic_hook();
        MOUSE.store(mouse, Ordering::SeqCst);
        FULL_SCREEN.store(true, Ordering::SeqCst);
        install_signal_thread();
        let entered = (|| -> std::io::Result<Term> {
            enter_modes(mouse)?;
            let mut terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
            terminal.clear()?;
            Ok(terminal)
        })();
        match entered {
            Ok(terminal) => Ok(Self { terminal }),
            Err(e) => {
                FULL_SCREEN.store(false, Ordering::SeqCst);
                restore();
                Err(std::io::Error::new(
                    e.kind(),
                    format!(
                        "cannot use the terminal ({e}); `gametree play GAME --text` plays line \
                         by line without one"
                    ),
                ))
            }
        }
    }

    /// The terminal to draw on.
    pub fn terminal(&mut self) -> &mut Term {
        &mut self.terminal
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        FULL_SCREEN.store(false, Ordering::SeqCst);
        restore();
    }
}
