//! UI-only state of the game screen: focus, board cursor, overlays, log scroll, the last
//! known frame size and the status message. The game itself lives in the session.

use ratatui::layout::Rect;

use super::action::Pane;

/// A question the user must answer before something is lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialog<M> {
    /// Quit with an unsaved game in progress?
    Quit,
    /// Start a new game, dropping an unsaved one?
    NewGame,
    /// Play `mv` at an earlier position, dropping the `dropped` later moves?
    Branch {
        /// The move to play.
        mv: M,
        /// How many later moves it drops.
        dropped: usize,
    },
}

impl<M> Dialog<M> {
    /// The question, as shown.
    pub fn question(&self) -> String {
        match self {
            Self::Quit => "The game is not saved. Quit anyway?".to_string(),
            Self::NewGame => "The game is not saved. Start a new game anyway?".to_string(),
            Self::Branch { dropped, .. } => format!(
                "Playing here drops the {dropped} later move{}. Play anyway?",
                if *dropped == 1 { "" } else { "s" }
            ),
        }
    }
}

/// A line for the status bar. It goes at the next action, or after [`MESSAGE_TICKS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// The text.
    pub text: String,
    /// Shown as an error.
    pub is_error: bool,
    /// The tick it was set at.
    pub since: u64,
}

/// How long a status message stays without a new action: 5 s of ticks.
pub const MESSAGE_TICKS: u64 = 50;

/// Everything the game screen shows that is not the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewState<C, M> {
    /// The pane keys go to.
    pub focus: Pane,
    /// The board cursor.
    pub cursor: C,
    /// The help overlay is open.
    pub help: bool,
    /// Lines the help overlay is scrolled by.
    pub help_scroll: usize,
    /// A confirmation dialog is open.
    pub dialog: Option<Dialog<M>>,
    /// First row shown in the move log (row 0 is the starting position).
    pub log_offset: usize,
    /// First line shown in the engine pane (a long principal variation scrolls).
    pub engine_scroll: usize,
    /// The whole terminal, as last reported (for layout and mouse hit-testing).
    pub frame: Rect,
    /// The status message, until the next action or [`MESSAGE_TICKS`] ticks.
    pub message: Option<Message>,
    /// Ticks since the screen opened (drives the spinner and the thinking clock).
    pub tick: u64,
}

impl<C: Default, M> Default for ViewState<C, M> {
    fn default() -> Self {
        Self {
            focus: Pane::Board,
            cursor: C::default(),
            help: false,
            help_scroll: 0,
            dialog: None,
            log_offset: 0,
            engine_scroll: 0,
            frame: Rect::new(0, 0, 80, 24),
            message: None,
            tick: 0,
        }
    }
}
