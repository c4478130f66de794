//! The terminal UI without a terminal: screens rendered on ratatui's `TestBackend` and
//! checked for content and colour, key and mouse sequences fed to `App::update`, the engine
//! worker's cancelling, the runner on a channel while a search never ends, the setup screen,
//! the search-tree and engine panes, and the tmux end-to-end script where tmux exists.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod brains;
mod e2e;
mod engine_pane;
mod helpers;
mod keys;
mod mouse;
mod render;
mod setup;
mod tree_pane;
mod worker;
