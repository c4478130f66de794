//! The full-screen terminal program: a setup screen, then a game screen with board, move log,
//! engine and search-tree panes. This module picks the game type (via `with_game!`) and moves
//! between screens; the terminal guard stays alive across them.
//!
//! Data flows one way: terminal and engine events arrive on one channel, `App::update` turns
//! them into state changes and effects, the runner carries out the effects and redraws.

pub mod action;
pub mod app;
pub mod boards;
pub mod event;
pub mod keymap;
pub mod layout;
pub mod panes;
pub mod runner;
pub mod setup;
pub mod terminal;
pub mod theme;
pub mod tree_browser;
pub mod tree_view;
pub mod ui;
pub mod view_state;
pub mod worker;

use std::path::{Path, PathBuf};
use std::sync::mpsc;

use anyhow::Result;

use self::app::App;
use self::boards::HasBoard;
use self::event::{Event, InputThread};
use self::runner::GameExit;
use self::setup::{SetupOutcome, SetupState};
use self::terminal::{Term, TerminalGuard};
use self::worker::Worker;
use crate::config::Config;
use crate::engine::Player;
use crate::games::GameKind;
use crate::player::EnginePlayer;
use crate::session::{SaveError, Session, parse_saved, peek_saved, read_save_file};

/// What the TUI opens with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The setup screen (`gametree` with no arguments).
    Setup,
    /// A new game of this kind with the settings in the config (`gametree play GAME`),
    /// starting from the position the whitespace-separated `moves` reach (`--moves`).
    Play {
        /// The game.
        game: GameKind,
        /// Moves in notation to play first (checked by the caller; a refused one sends the
        /// user to the setup screen with the reason).
        moves: String,
    },
    /// A saved game (`gametree play --load FILE`).
    Load(PathBuf),
}

/// A save file read and checked, ready to play.
#[derive(Clone, Debug)]
pub struct SavedFile {
    /// Which game it holds.
    pub kind: GameKind,
    /// Its text.
    pub text: String,
    /// Its name, for messages.
    pub source: String,
}

/// Reads a save file and checks that it replays, without touching the terminal.
pub fn read_saved(path: &Path) -> Result<SavedFile, SaveError> {
    let text = read_save_file(path)?;
    let kind = peek_saved(&text)?;
    let source = path.display().to_string();
    crate::with_game!(kind, G => parse_saved::<G>(&text, &source).map(|_| ()))?;
    Ok(SavedFile { kind, text, source })
}

enum Screen {
    Setup(Option<String>),
    New(GameKind, String),
    Saved(SavedFile),
    Quit,
}

/// Runs the full-screen program until the user quits. Restores the terminal on every exit
/// path (panics included).
pub fn run(config: Config, start: Start) -> Result<()> {
    // A bad save file is refused before the terminal changes, so the message stays readable.
    let mut screen = match start {
        Start::Setup => Screen::Setup(None),
        Start::Play { game, moves } => Screen::New(game, moves),
        Start::Load(path) => Screen::Saved(read_saved(&path)?),
    };
    let mut config = config;
    let mut guard = TerminalGuard::enter(config.ui.mouse)?;
    let mut setup: Option<SetupState> = None;
    loop {
        screen = match screen {
            Screen::Quit => break,
            Screen::Setup(message) => {
                let state = setup.get_or_insert_with(|| {
                    let mut s = SetupState::new(config.clone());
                    s.load_path = setup::newest_save().unwrap_or_default();
                    s
                });
                state.message = message;
                state.config.players = config.players.clone();
                match setup_screen(guard.terminal(), state)? {
                    SetupOutcome::Start => {
                        config = state.config.clone();
                        Screen::New(config.game, String::new())
                    }
                    SetupOutcome::Load(path) => match read_saved(&path) {
                        Ok(saved) => Screen::Saved(saved),
                        Err(e) => Screen::Setup(Some(format!("{}: {e}", path.display()))),
                    },
                    SetupOutcome::Quit | SetupOutcome::Stay => Screen::Quit,
                }
            }
            Screen::New(kind, moves) => {
                config.game = kind;
                crate::with_game!(kind, G => match new_session::<G>(&config, &moves) {
                    Ok(session) => game_screen::<G>(guard.terminal(), &config, session)?,
                    Err(e) => Screen::Setup(Some(e)),
                })
            }
            Screen::Saved(saved) => {
                crate::with_game!(saved.kind, G => match parse_saved::<G>(&saved.text, &saved.source) {
                    Ok((session, players)) => {
                        config.game = saved.kind;
                        config.players = players;
                        game_screen::<G>(guard.terminal(), &config, session)?
                    }
                    Err(e) => Screen::Setup(Some(e.to_string())),
                })
            }
        };
    }
    drop(guard);
    Ok(())
}

/// A new game from the config's options, with `moves` played first.
fn new_session<G: HasBoard>(config: &Config, moves: &str) -> Result<Session<G>, String> {
    let options = config.game_options::<G>().map_err(|e| e.to_string())?;
    let mut session = Session::<G>::new(options);
    for (i, text) in moves.split_whitespace().enumerate() {
        let mv = session
            .current()
            .parse_move(text)
            .map_err(|e| format!("--moves: move {} ({text}): {e}", i + 1))?;
        session
            .play(mv, None)
            .map_err(|e| format!("--moves: move {} ({text}): {e}", i + 1))?;
    }
    Ok(session)
}

fn setup_screen(terminal: &mut Term, state: &mut SetupState) -> Result<SetupOutcome> {
    let (tx, rx) = mpsc::channel::<Event<std::convert::Infallible>>();
    let _input = InputThread::spawn(tx)?;
    runner::run_setup(terminal, &rx, state)
}

/// The engines of both sides, as the config says.
pub fn engines<G: HasBoard>(
    config: &Config,
    options: &G::Options,
) -> Result<[EnginePlayer<G>; 2], crate::error::ConfigError> {
    let make = |p: Player| {
        EnginePlayer::<G>::new(
            config.players.side(p),
            options,
            &config.source,
            &format!("players.{p}"),
        )
    };
    Ok([make(Player::First)?, make(Player::Second)?])
}

fn game_screen<G: HasBoard>(
    terminal: &mut Term,
    config: &Config,
    session: Session<G>,
) -> Result<Screen> {
    let engines = match engines::<G>(config, &session.options) {
        Ok(engines) => engines,
        Err(e) => return Ok(Screen::Setup(Some(e.to_string()))),
    };
    let (tx, rx) = mpsc::channel();
    let sink = tx.clone();
    let mut worker = Worker::spawn(engines, move |report| {
        // The receiver is gone only while the screen closes; the report no longer matters.
        let _ = sink.send(Event::Engine(report));
    })?;
    let _input = InputThread::spawn(tx)?;
    let mut app = App::new(config, session);
    let size = terminal.size()?;
    app.resize(size.width, size.height);
    Ok(
        match runner::run_game(terminal, &rx, &mut app, &mut worker)? {
            GameExit::Quit => Screen::Quit,
            GameExit::Setup => Screen::Setup(None),
        },
    )
}
