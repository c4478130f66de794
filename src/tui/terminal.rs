//! The single owner of terminal setup and restore: raw mode, the alternate screen, mouse
//! capture and the cursor. Restored on drop, on every error path and, through a panic hook,
//! when the main thread panics.

use std::io::{Stdout, stdout};
use std::sync::Once;

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::cursor::{Hide, Show};
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

/// The terminal type the program draws on.
pub type Term = Terminal<CrosstermBackend<Stdout>>;

/// Holds the terminal in full-screen mode; dropping it gives the terminal back.
pub struct TerminalGuard {
    terminal: Term,
}

/// Threads whose panics are caught and reported in the UI (their panic message would only
/// scribble over the screen).
const QUIET_THREADS: [&str; 2] = ["gametree-engine", "gametree-input"];

static HOOK: Once = Once::new();

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

/// Leaves full-screen mode. Safe to call more than once and when it was never entered.
pub fn restore() {
    let _ = execute!(stdout(), DisableMouseCapture, LeaveAlternateScreen, Show);
    let _ = disable_raw_mode();
}

impl TerminalGuard {
    /// Enters full-screen mode, with mouse capture when `mouse` is true.
    pub fn enter(mouse: bool) -> std::io::Result<Self> {
        install_panic_hook();
        let entered = (|| {
            enable_raw_mode()?;
            execute!(stdout(), EnterAlternateScreen, Hide)?;
            if mouse {
                execute!(stdout(), EnableMouseCapture)?;
            }
            let mut terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
            terminal.clear()?;
            Ok(terminal)
        })();
        match entered {
            Ok(terminal) => Ok(Self { terminal }),
            Err(e) => {
                restore();
                Err(e)
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
        restore();
    }
}
