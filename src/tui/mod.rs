//! The full-screen terminal program: a setup screen, then a game screen with board, move log,
//! engine and search-tree panes. This module picks the game type (via `with_game!`) and moves
//! between screens; the terminal guard stays alive across them.
//!
//! Data flows one way: terminal and engine events arrive on one channel, `App::update` turns
//! them into state changes and effects, the runner carries out the effects and redraws.

pub mod action;
pub mod app;
pub mod boards;
pub mod driver;
pub mod event;
pub mod input;
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
use self::runner::SetupExit;
use self::setup::SetupState;
use self::terminal::{Term, TerminalGuard};
use self::worker::Worker;
use crate::brain::client::BrainPlayer;
use crate::config::Config;
use crate::engine::Player;
use crate::error::quote;
use crate::games::GameKind;
use crate::player::{EnginePlayer, SidePlayer};
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
    /// Start a new game with the setup screen's settings.
    Start,
    New(GameKind, String),
    Saved(SavedFile),
    Quit,
}

impl From<SetupExit> for Screen {
    fn from(exit: SetupExit) -> Self {
        match exit {
            SetupExit::Start => Self::Start,
            SetupExit::Loaded(saved) => Self::Saved(saved),
            // Back needs a game to go back to; without one the setup screen stays.
            SetupExit::Back => Self::Setup(None),
            SetupExit::Quit => Self::Quit,
        }
    }
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
                let state = setup_state(&mut setup, &config);
                state.message = message;
                state.kept = None;
                let (tx, rx) = mpsc::channel::<Event<std::convert::Infallible>>();
                let _input = InputThread::spawn(tx)?;
                runner::run_setup(guard.terminal(), &rx, state)?.into()
            }
            Screen::Start => {
                let state = setup_state(&mut setup, &config);
                config = state.config.clone();
                Screen::New(config.game, String::new())
            }
            Screen::New(kind, moves) => {
                config.game = kind;
                crate::with_game!(kind, G => match new_session::<G>(&config, &moves) {
                    Ok(session) => {
                        let state = setup_state(&mut setup, &config);
                        game_screen::<G>(guard.terminal(), &config, session, state)?
                    }
                    Err(e) => Screen::Setup(Some(e)),
                })
            }
            Screen::Saved(saved) => {
                crate::with_game!(saved.kind, G => match parse_saved::<G>(&saved.text, &saved.source) {
                    Ok((session, players)) => {
                        config.game = saved.kind;
                        config.players = players;
                        // The setup screen shows what is being played, so that Start there
                        // plays the same again.
                        let state = setup_state(&mut setup, &config);
                        state.config.players = config.players.clone();
                        state.config.game = saved.kind;
                        // Options that validated once still serialise.
                        state.config.games.set::<G>(session.options.clone());
                        game_screen::<G>(guard.terminal(), &config, session, state)?
                    }
                    Err(e) => Screen::Setup(Some(e.to_string())),
                })
            }
        };
    }
    drop(guard);
    Ok(())
}

/// The setup screen's state, made from `config` on first use and kept from then on (so edits
/// survive a game, a failed load or a failed start).
fn setup_state<'a>(setup: &'a mut Option<SetupState>, config: &Config) -> &'a mut SetupState {
    setup.get_or_insert_with(|| {
        let mut s = SetupState::new(config.clone());
        s.load_path = setup::newest_save().unwrap_or_default();
        s
    })
}

/// A new game from the config's options, with `moves` played first.
fn new_session<G: HasBoard>(config: &Config, moves: &str) -> Result<Session<G>, String> {
    let options = config.game_options::<G>().map_err(|e| e.to_string())?;
    let mut session = Session::<G>::new(options);
    for (i, text) in moves.split_whitespace().enumerate() {
        let mv = session
            .current()
            .parse_move(text)
            .map_err(|e| format!("--moves: move {} ({}): {e}", i + 1, quote(text)))?;
        session
            .play(mv, None)
            .map_err(|e| format!("--moves: move {} ({}): {e}", i + 1, quote(text)))?;
    }
    Ok(session)
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

/// The external brains of the sides the config gives one (Gomoku only).
pub fn brains<G: HasBoard>(
    config: &Config,
    options: &G::Options,
) -> Result<[Option<BrainPlayer>; 2], crate::error::ConfigError> {
    let make = |p: Player| {
        SidePlayer::<G>::new(
            config.players.side(p),
            options,
            &config.source,
            &format!("players.{p}"),
        )
        .map(|player| match player {
            SidePlayer::Brain(brain) => Some(brain),
            SidePlayer::Engine(_) => None,
        })
    };
    Ok([make(Player::First)?, make(Player::Second)?])
}

fn game_screen<G: HasBoard>(
    terminal: &mut Term,
    config: &Config,
    session: Session<G>,
    setup: &mut SetupState,
) -> Result<Screen> {
    let engines = match engines::<G>(config, &session.options) {
        Ok(engines) => engines,
        Err(e) => return Ok(Screen::Setup(Some(e.to_string()))),
    };
    let brains = match brains::<G>(config, &session.options) {
        Ok(brains) => brains,
        Err(e) => return Ok(Screen::Setup(Some(e.to_string()))),
    };
    let names = brains
        .each_ref()
        .map(|b| b.as_ref().map(|b| b.name().to_string()));
    // What the searches use beyond the rules (Kalah's endgame database) is loaded or built
    // in the background: the engine searches without it until it is ready, and the engine
    // pane shows the build's progress. Quitting the program ends the build.
    let options = session.options.clone();
    let _ = std::thread::Builder::new()
        .name("prepare-search".to_string())
        .spawn(move || {
            let _ = G::prepare_search(
                &options,
                &mut |_, _| {},
                &crate::engine::limits::StopFlag::new(),
            );
        });
    let (tx, rx) = mpsc::channel();
    let sink = tx.clone();
    let mut worker = Worker::spawn_with_brains(engines, brains, move |report| {
        // The receiver is gone only while the screen closes; the report no longer matters.
        let _ = sink.send(Event::Engine(report));
    })?;
    // One input thread for the game and any setup screen opened from it.
    let _input = InputThread::spawn(tx)?;
    let mut app = App::new(config, session);
    app.engine.brain_names = names;
    Ok(runner::run_game_and_setup(terminal, &rx, &mut app, &mut worker, setup)?.into())
}
