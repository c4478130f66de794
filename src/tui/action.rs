//! Semantic intents: what a key or a click asks for, independent of which key it was.
//! The keymap produces them; `App::update` carries them out.

/// A direction for the board cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Towards the top of the screen.
    Up,
    /// Towards the bottom of the screen.
    Down,
    /// Towards the left.
    Left,
    /// Towards the right.
    Right,
}

/// The panes of the game screen, in focus order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Pane {
    /// The board.
    #[default]
    Board,
    /// The move log.
    Moves,
    /// The engine statistics.
    Engine,
    /// The search tree browser.
    Tree,
}

impl Pane {
    /// Every pane, in focus order.
    pub const ALL: [Self; 4] = [Self::Board, Self::Moves, Self::Engine, Self::Tree];

    /// The next pane in focus order.
    pub fn next(self) -> Self {
        let i = Self::ALL.iter().position(|&p| p == self).unwrap_or(0);
        Self::ALL[(i + 1) % Self::ALL.len()]
    }

    /// The previous pane in focus order.
    pub fn prev(self) -> Self {
        let i = Self::ALL.iter().position(|&p| p == self).unwrap_or(0);
        Self::ALL[(i + Self::ALL.len() - 1) % Self::ALL.len()]
    }

    /// The pane's title.
    pub fn title(self) -> &'static str {
        match self {
            Self::Board => "Board",
            Self::Moves => "Moves",
            Self::Engine => "Engine",
            Self::Tree => "Search tree",
        }
    }
}

/// What a key asks of the search-tree pane (while it has the focus).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeAction {
    /// Select the row above.
    Up,
    /// Select the row below.
    Down,
    /// Select a page up.
    PageUp,
    /// Select a page down.
    PageDown,
    /// Select the first row (the root).
    Top,
    /// Select the last row.
    Bottom,
    /// Open the selected node; on an open one, step to its first child.
    Expand,
    /// Open or close the selected node.
    Toggle,
    /// Close the selected node, or select its parent when it is closed.
    CollapseOrParent,
    /// Open the principal variation down to its end.
    ExpandPv,
    /// Open the selected node's whole subtree.
    ExpandSubtree,
    /// Close everything below the root's children.
    CollapseAll,
    /// Browse tree `n` (from 0) of a comparison.
    Show(usize),
    /// Guided mode: the next step of the search in the order it ran (a node entered with
    /// its window, or a node's value returned).
    StepForward,
    /// Guided mode: the step before.
    StepBack,
    /// Turn the recording of the engine's own searches on or off.
    ToggleRecording,
    /// Switch `t` and `v` between plain alpha-beta and the full engine.
    ToggleEngine,
    /// `t` and `v` search one ply deeper (and the search on show runs again).
    Deeper,
    /// `t` and `v` search one ply shallower (and the search on show runs again).
    Shallower,
    /// Stop a running tree search; without one, leave the pane (the board shows the live
    /// position again).
    Leave,
}

/// What the user asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Quit, asking first when an unsaved game is in progress.
    Quit,
    /// Quit at once (Ctrl-C).
    ForceQuit,
    /// Open or close the help overlay.
    ToggleHelp,
    /// Close whatever overlay is open.
    Close,
    /// Focus the next pane.
    FocusNext,
    /// Focus the previous pane.
    FocusPrev,
    /// Move the board cursor.
    Cursor(Dir),
    /// Play the move under the board cursor.
    Play,
    /// Take back the last turn (a human's move together with the engine's reply).
    Undo,
    /// Replay a taken-back turn.
    Redo,
    /// View the position one move earlier, keeping the later moves.
    StepBack,
    /// View the position one move later.
    StepForward,
    /// View the starting position.
    First,
    /// View the latest position.
    Last,
    /// Scroll the move log by this many rows.
    Scroll(i32),
    /// Scroll the engine pane by this many lines.
    EngineScroll(i32),
    /// Make the engine move now with the best move found so far.
    MoveNow,
    /// Pause or resume engine-vs-engine play.
    Pause,
    /// While paused, let the engine play one move.
    StepOnce,
    /// Ask the engine for a hint for the human to move.
    Hint,
    /// Start a new game with the same settings.
    NewGame,
    /// Save the game to a file.
    Save,
    /// Go back to the setup screen.
    Setup,
    /// Answer yes in a dialog.
    Yes,
    /// Answer no in a dialog.
    No,
    /// Scroll the help overlay by this many lines.
    HelpScroll(i32),
    /// Browse the search tree.
    Tree(TreeAction),
    /// Search the position on the board, recording the tree (`t`).
    RecordTree,
    /// Search the position on the board with every algorithm and compare the trees (`v`).
    Compare,
}
