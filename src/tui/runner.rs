//! The loops that drive a screen: receive events, let the state handle them, carry out the
//! effects (engine, saving), redraw when something changed. Generic over the ratatui
//! backend so tests run them on a `TestBackend` with a channel they fill themselves.

use std::path::PathBuf;
use std::sync::mpsc::Receiver;

use anyhow::{Context, Result};
use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::crossterm::event::{Event as CtEvent, KeyCode, KeyEventKind, KeyModifiers};

use super::app::{App, Effect};
use super::boards::HasBoard;
use super::event::Event;
use super::setup::{KeptGame, SetupOutcome, SetupState};
use super::terminal;
use super::theme::Theme;
use super::worker::{Report, Worker};
use super::{SavedFile, read_saved};
use super::{panes, ui};
use crate::error::quote;
use crate::games::GameKind;
use crate::session::{Existing, SaveError, write_atomically};

/// How a game screen ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameExit {
    /// The user quit.
    Quit,
    /// The user asked for the setup screen.
    Setup,
}

fn draw_error<E: std::error::Error + Send + Sync + 'static>(e: E) -> anyhow::Error {
    anyhow::Error::new(e).context("cannot draw on the terminal")
}

/// Ctrl-Z: in raw mode the terminal sends it as a key instead of stopping the process.
fn is_suspend_key<R>(event: &Event<R>) -> bool {
    matches!(event, Event::Input(CtEvent::Key(key))
        if key.kind == KeyEventKind::Press
            && key.modifiers.contains(KeyModifiers::CONTROL)
            && matches!(key.code, KeyCode::Char('z' | 'Z')))
}

/// After a suspension the screen holds whatever the shell left: forget what ratatui believes
/// is on it. True when the whole screen must be drawn again.
fn resumed<B>(terminal: &mut Terminal<B>) -> Result<bool>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
{
    if !terminal::take_resumed() {
        return Ok(false);
    }
    terminal.clear().map_err(draw_error)?;
    Ok(true)
}

/// Runs the game screen until the user quits or asks for the setup screen.
pub fn run_game<G, B>(
    terminal: &mut Terminal<B>,
    rx: &Receiver<Event<Report<G::Move>>>,
    app: &mut App<G>,
    worker: &mut Worker<G>,
) -> Result<GameExit>
where
    G: HasBoard,
    B: Backend,
    B::Error: Send + Sync + 'static,
{
    let effects = app.start();
    if let Some(exit) = apply(app, worker, effects) {
        return Ok(exit);
    }
    let mut redraw = true;
    loop {
        if redraw {
            terminal.draw(|f| ui::draw(f, app)).map_err(draw_error)?;
        }
        let first = rx.recv().context("the input and engine threads are gone")?;
        redraw = resumed(terminal)?;
        // Handle everything already waiting before drawing again: bursts of progress
        // reports or mouse moves cost one frame, not one each.
        for event in std::iter::once(first).chain(rx.try_iter()) {
            if is_suspend_key(&event) {
                terminal::suspend();
                redraw |= resumed(terminal)?;
                continue;
            }
            let tick = matches!(event, Event::Tick);
            let effects = app.update(event);
            redraw |= !tick || app.is_animating() || !effects.is_empty();
            if let Some(exit) = apply(app, worker, effects) {
                return Ok(exit);
            }
        }
    }
}

fn apply<G: HasBoard>(
    app: &mut App<G>,
    worker: &mut Worker<G>,
    effects: Vec<Effect<G>>,
) -> Option<GameExit> {
    for effect in effects {
        match effect {
            Effect::Search {
                id,
                root,
                side,
                job,
                clock,
                ..
            } => worker.run(id, root, side, job, clock),
            Effect::Stop => worker.stop(),
            Effect::Save => {
                let result = save_in_current_dir(app);
                app.saved(result);
            }
            Effect::Quit => return Some(GameExit::Quit),
            Effect::Setup => return Some(GameExit::Setup),
        }
    }
    None
}

/// `YYYYMMDD-HHMMSS` in UTC for a time in seconds since 1970 (Hinnant's civil-from-days).
pub fn utc_stamp(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let rest = seconds % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}{month:02}{day:02}-{:02}{:02}{:02}",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// The name of the `attempt`th try (from 1) at a save file: `gametree-<game>-<UTC time>.json`,
/// then `-2`, `-3`...
pub fn save_path(dir: &std::path::Path, kind: GameKind, seconds: u64, attempt: u32) -> PathBuf {
    let stem = format!("gametree-{}-{}", kind.name(), utc_stamp(seconds));
    if attempt <= 1 {
        dir.join(format!("{stem}.json"))
    } else {
        dir.join(format!("{stem}-{attempt}.json"))
    }
}

/// How many names a save tries before it gives up (many saves in one second, or a directory
/// full of planted names).
const SAVE_ATTEMPTS: u32 = 1000;

/// Saves the app's game into `dir` under a fresh name: written whole to a temporary file
/// first, and given a name nothing else has (a file or link already there is never replaced
/// or followed).
pub fn save_game<G: HasBoard>(app: &App<G>, dir: &std::path::Path) -> Result<PathBuf, SaveError> {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let text = app.session.to_json(&app.players)?;
    for attempt in 1..=SAVE_ATTEMPTS {
        let path = save_path(dir, G::KIND, seconds, attempt);
        match write_atomically(&path, text.as_bytes(), Existing::Refuse) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => {
                return Err(SaveError::Io(format!(
                    "cannot write {}: {e}",
                    path.display()
                )));
            }
        }
    }
    Err(SaveError::Io(format!(
        "cannot write in {}: {SAVE_ATTEMPTS} names for this second are taken",
        dir.display()
    )))
}

fn save_in_current_dir<G: HasBoard>(app: &App<G>) -> Result<PathBuf, SaveError> {
    save_game(app, std::path::Path::new("."))
        .map(|p| p.strip_prefix(".").map(PathBuf::from).unwrap_or(p))
}

/// How the setup screen ended.
#[derive(Debug)]
pub enum SetupExit {
    /// Start a new game with the form's settings.
    Start,
    /// This saved game was read and replays.
    Loaded(SavedFile),
    /// Esc: back to the game the screen was opened from.
    Back,
    /// Leave the program.
    Quit,
}

/// Runs the setup screen until the user starts, loads a file that replays, quits or goes
/// back. A file that cannot be loaded is refused in place, with the reason under the row;
/// the form keeps its edits and a kept game stays. `rx` may be a game's channel (the setup
/// screen opened from a game): engine reports are ignored here.
pub fn run_setup<B, R>(
    terminal: &mut Terminal<B>,
    rx: &Receiver<Event<R>>,
    state: &mut SetupState,
) -> Result<SetupExit>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
{
    loop {
        match setup_outcome(terminal, rx, state)? {
            SetupOutcome::Start => return Ok(SetupExit::Start),
            SetupOutcome::Load(path) => match read_saved(&path) {
                Ok(saved) => return Ok(SetupExit::Loaded(saved)),
                Err(e) => {
                    state.message = Some(format!("{}: {e}", quote(&path.display().to_string())));
                }
            },
            SetupOutcome::Back if state.kept.is_some() => return Ok(SetupExit::Back),
            SetupOutcome::Back | SetupOutcome::Stay => {}
            SetupOutcome::Quit => return Ok(SetupExit::Quit),
        }
    }
}

/// Runs the game screen and any setup screen opened from it (`o`), until the user quits,
/// starts another game or loads one. The game stays alive behind the setup screen: Esc
/// there comes back to it, a failed load leaves it as it was. Never returns
/// [`SetupExit::Back`].
pub fn run_game_and_setup<G, B>(
    terminal: &mut Terminal<B>,
    rx: &Receiver<Event<Report<G::Move>>>,
    app: &mut App<G>,
    worker: &mut Worker<G>,
    setup: &mut SetupState,
) -> Result<SetupExit>
where
    G: HasBoard,
    B: Backend,
    B::Error: Send + Sync + 'static,
{
    loop {
        let size = terminal.size().map_err(draw_error)?;
        app.resize(size.width, size.height);
        match run_game(terminal, rx, app, worker)? {
            GameExit::Quit => return Ok(SetupExit::Quit),
            GameExit::Setup => {
                setup.message = None;
                setup.kept = Some(KeptGame {
                    unsaved: app.is_unsaved_game_in_progress(),
                });
                let exit = run_setup(terminal, rx, setup);
                setup.kept = None;
                setup.confirm = None;
                match exit? {
                    SetupExit::Back => app.back_from_setup(),
                    other => return Ok(other),
                }
            }
        }
    }
}

/// The setup screen until its state asks for something other than a redraw.
fn setup_outcome<B, R>(
    terminal: &mut Terminal<B>,
    rx: &Receiver<Event<R>>,
    state: &mut SetupState,
) -> Result<SetupOutcome>
where
    B: Backend,
    B::Error: Send + Sync + 'static,
{
    let theme = Theme::default();
    let size = terminal.size().map_err(draw_error)?;
    state.frame = ratatui::layout::Rect::new(0, 0, size.width, size.height);
    let mut redraw = true;
    loop {
        if redraw {
            terminal
                .draw(|f| panes::setup::draw(f, state, &theme))
                .map_err(draw_error)?;
        }
        let event = rx.recv().context("the input thread is gone")?;
        redraw = resumed(terminal)? || matches!(event, Event::Input(_));
        if is_suspend_key(&event) {
            terminal::suspend();
            continue;
        }
        match event {
            Event::Input(input) => match state.update(&input) {
                SetupOutcome::Stay => {}
                outcome => return Ok(outcome),
            },
            Event::InputFailed(reason) => anyhow::bail!("cannot read the terminal: {reason}"),
            Event::Tick | Event::Engine(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_are_utc_calendar_times() {
        assert_eq!(utc_stamp(0), "19700101-000000");
        assert_eq!(utc_stamp(951_782_400), "20000229-000000");
        assert_eq!(utc_stamp(1_700_000_000), "20231114-221320");
    }
}
