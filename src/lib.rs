//! gametree: a game-tree search engine for Tic-tac-toe, Gomoku, Kalah and Dots and Boxes,
//! a command line to drive it, and a terminal UI to play against it and watch it think.
//!
//! - [`engine`]: the game-agnostic search (knows no game, no terminal);
//! - [`games`]: the rules, notation and evaluators of each game;
//! - [`config`]: `config.toml`, validated with messages that name file, key and range;
//! - [`player`]: an engine player built from the config;
//! - [`session`]: a game in progress: the step list, undo/redo, save/load;
//! - [`tournament`]: tournaments between engine settings, and tuning evaluator weights by them;
//! - [`export`]: the recorded search tree as text, JSON and Graphviz DOT;
//! - [`flags`]: command-line flags shared by the commands and tournaments;
//! - [`cli`]: the commands (thin: parse, then call the library);
//! - [`tui`]: the full-screen terminal program (setup, board, log, engine panes);
//! - [`brain`]: the Gomocup brain protocol on stdin/stdout (`gametree brain`);
//! - [`serve`]: JSON lines on stdin/stdout for every game (`gametree serve`);
//! - [`error`]: the library's error types.

pub mod bench;
pub mod brain;
pub mod cli;
pub mod config;
pub mod engine;
pub mod error;
pub mod export;
pub mod files;
pub mod flags;
pub mod games;
pub mod player;
pub mod serve;
pub mod session;
pub mod tournament;
pub mod tui;
