//! Keys to [`Action`]s for the game screen, depending on focus and open overlays, plus the
//! help text: every binding is listed here once, next to the code that decides it.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::action::{Action, Dir, Pane, TreeAction};

/// What decides the meaning of a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyContext {
    /// The focused pane.
    pub focus: Pane,
    /// The help overlay is open.
    pub help: bool,
    /// A confirmation dialog is open.
    pub dialog: bool,
    /// Both sides are engines (Space pauses instead of playing).
    pub engines_only: bool,
}

/// The action for a key press, if any.
pub fn action(key: KeyEvent, ctx: KeyContext) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    if ctrl && matches!(key.code, KeyCode::Char('c' | 'C')) {
        return Some(Action::ForceQuit);
    }
    if ctx.dialog {
        return match key.code {
            KeyCode::Char('y' | 'Y') | KeyCode::Enter => Some(Action::Yes),
            KeyCode::Char('n' | 'N' | 'q') | KeyCode::Esc => Some(Action::No),
            _ => None,
        };
    }
    if ctx.help {
        return match key.code {
            KeyCode::Esc | KeyCode::Enter | KeyCode::Char('?' | 'q') => Some(Action::Close),
            KeyCode::Up | KeyCode::Char('k') => Some(Action::HelpScroll(-1)),
            KeyCode::Down | KeyCode::Char('j') => Some(Action::HelpScroll(1)),
            KeyCode::PageUp => Some(Action::HelpScroll(-10)),
            KeyCode::PageDown | KeyCode::Char(' ') => Some(Action::HelpScroll(10)),
            _ => None,
        };
    }
    if ctrl {
        return match key.code {
            KeyCode::Char('r') => Some(Action::Redo),
            _ => None,
        };
    }
    // The tree pane's keys come before the common ones they shadow there: arrows, Home,
    // End, Esc and `p` (pause stays on Space).
    if ctx.focus == Pane::Tree
        && let Some(tree) = tree_key(key.code)
    {
        return Some(Action::Tree(tree));
    }
    let common = match key.code {
        KeyCode::Char('q') => Some(Action::Quit),
        KeyCode::Char('?') | KeyCode::F(1) => Some(Action::ToggleHelp),
        KeyCode::Tab => Some(Action::FocusNext),
        KeyCode::BackTab => Some(Action::FocusPrev),
        KeyCode::Char('u') => Some(Action::Undo),
        KeyCode::Char('r') => Some(Action::Redo),
        KeyCode::Char('[' | '<') => Some(Action::StepBack),
        KeyCode::Char(']' | '>') => Some(Action::StepForward),
        KeyCode::Home => Some(Action::First),
        KeyCode::End => Some(Action::Last),
        KeyCode::Esc | KeyCode::Char('m') => Some(Action::MoveNow),
        KeyCode::Char('p') => Some(Action::Pause),
        KeyCode::Char('.') => Some(Action::StepOnce),
        KeyCode::Char('H') => Some(Action::Hint),
        KeyCode::Char('n') => Some(Action::NewGame),
        KeyCode::Char('s') => Some(Action::Save),
        KeyCode::Char('o') => Some(Action::Setup),
        KeyCode::Char('t') => Some(Action::RecordTree),
        KeyCode::Char('v') => Some(Action::Compare),
        KeyCode::Char(' ') if ctx.engines_only => Some(Action::Pause),
        _ => None,
    };
    if common.is_some() {
        return common;
    }
    match ctx.focus {
        Pane::Board => match key.code {
            KeyCode::Up | KeyCode::Char('k') => Some(Action::Cursor(Dir::Up)),
            KeyCode::Down | KeyCode::Char('j') => Some(Action::Cursor(Dir::Down)),
            KeyCode::Left | KeyCode::Char('h') => Some(Action::Cursor(Dir::Left)),
            KeyCode::Right | KeyCode::Char('l') => Some(Action::Cursor(Dir::Right)),
            KeyCode::Enter | KeyCode::Char(' ') => Some(Action::Play),
            _ => None,
        },
        Pane::Moves => match key.code {
            KeyCode::Up | KeyCode::Left | KeyCode::Char('k' | 'h') => Some(Action::StepBack),
            KeyCode::Down | KeyCode::Right | KeyCode::Char('j' | 'l') => Some(Action::StepForward),
            KeyCode::PageUp => Some(Action::Scroll(-10)),
            KeyCode::PageDown => Some(Action::Scroll(10)),
            _ => None,
        },
        Pane::Engine => match key.code {
            KeyCode::Up | KeyCode::Char('k') => Some(Action::EngineScroll(-1)),
            KeyCode::Down | KeyCode::Char('j') => Some(Action::EngineScroll(1)),
            KeyCode::PageUp => Some(Action::EngineScroll(-5)),
            KeyCode::PageDown => Some(Action::EngineScroll(5)),
            _ => None,
        },
        Pane::Tree => None,
    }
}

/// The tree pane's own keys.
fn tree_key(code: KeyCode) -> Option<TreeAction> {
    Some(match code {
        KeyCode::Up | KeyCode::Char('k') => TreeAction::Up,
        KeyCode::Down | KeyCode::Char('j') => TreeAction::Down,
        KeyCode::Right | KeyCode::Char('l') => TreeAction::Expand,
        KeyCode::Enter => TreeAction::Toggle,
        KeyCode::Left | KeyCode::Char('h') => TreeAction::CollapseOrParent,
        KeyCode::PageUp => TreeAction::PageUp,
        KeyCode::PageDown => TreeAction::PageDown,
        KeyCode::Home => TreeAction::Top,
        KeyCode::End => TreeAction::Bottom,
        KeyCode::Char('p') => TreeAction::ExpandPv,
        KeyCode::Char('*') => TreeAction::ExpandSubtree,
        KeyCode::Char('c') => TreeAction::CollapseAll,
        KeyCode::Char('R') => TreeAction::ToggleRecording,
        KeyCode::Esc => TreeAction::Leave,
        KeyCode::Char(c @ '1'..='9') => TreeAction::Show(c as usize - '1' as usize),
        _ => return None,
    })
}

/// The help overlay: (keys, what they do), one binding per line; `""` keys start a heading.
pub const HELP: &[(&str, &str)] = &[
    ("", "Keys"),
    (
        "←↑↓→ hjkl",
        "move the board cursor over legal moves (board focused)",
    ),
    ("Enter Space", "play the move under the cursor"),
    (
        "H",
        "hint: the engine's best move for you (h is left, as in vi)",
    ),
    ("u", "undo your turn (the engine's reply goes back with it)"),
    ("r  Ctrl-r", "redo a taken-back turn"),
    (
        "[ ]  < >",
        "step back / forward through the game, keeping later moves",
    ),
    (
        "←→ ↑↓ hjkl",
        "the same, only while Moves has the focus (Tab)",
    ),
    (
        "PgUp PgDn",
        "in Moves: scroll the list; in Engine: scroll it",
    ),
    (
        "↑↓ in Engine",
        "scroll the engine pane (a long principal variation)",
    ),
    (
        "Home End",
        "view the start / go back to the latest position",
    ),
    (
        "Esc m",
        "make the thinking engine move now (in the tree: m only)",
    ),
    (
        "Space p  .",
        "engine vs engine: pause or resume; one move while paused",
    ),
    ("n  s", "new game (same settings); save to a file"),
    (
        "o",
        "setup screen; the game is kept there (Esc returns to it)",
    ),
    ("Tab Shift-Tab", "focus the next / previous pane"),
    (
        "? F1",
        "this help (↑↓ PgUp PgDn scroll it; ? or Esc closes)",
    ),
    ("q  Ctrl-c", "quit (asks if unsaved); quit now"),
    ("", "Search tree"),
    (
        "t",
        "search the position on the board, record the tree, browse it",
    ),
    (
        "v",
        "compare minimax, alpha-beta unordered and ordered, and more",
    ),
    (
        "↑↓ PgUp PgDn",
        "select a node (these keys while the tree is focused)",
    ),
    ("Home End", "the root / the last row"),
    (
        "→ l  Enter",
        "open (on an open node: its first child); Enter toggles",
    ),
    ("← h", "close, or go to the parent"),
    (
        "p  *  c",
        "open the principal variation; the whole subtree; close all",
    ),
    ("1-9", "browse that tree of a comparison"),
    (
        "R",
        "record the engine's own searches on/off (on once used)",
    ),
    ("Esc", "stop a tree search; else back to the live board"),
    (
        "",
        "The board shows a selected node's position, with its moves numbered.",
    ),
    (
        "",
        "Once the tree pane is used, the engine records its own searches as well.",
    ),
    ("", "Mouse"),
    (
        "click the board",
        "play there (or move the cursor when it is not your turn)",
    ),
    (
        "hover the board",
        "moves the cursor to the move under the pointer",
    ),
    ("click a move", "view the position after it"),
    (
        "wheel",
        "scrolls the pane under the pointer: Moves, Engine, tree",
    ),
    (
        "click a tree row",
        "select it; click again (or on ▸ ▾) to open or close it",
    ),
    ("click a search", "in a comparison: browse its tree"),
    ("click a pane", "focus it"),
    ("click a button", "answer a question (Yes / No)"),
    ("", "Setup screen"),
    (
        "↑↓ ←→ Space",
        "choose a row, a side or a value; Enter starts",
    ),
    (
        "type",
        "on a text row every key types (q, hjkl too); Ctrl-c quits",
    ),
    ("Esc", "back to the game it was opened from (o)"),
    ("", "Branching"),
    (
        "",
        "Playing at an earlier position drops the later moves. After stepping",
    ),
    (
        "",
        "back with [ ] or a click it asks first; after u it does not (as an",
    ),
    ("", "editor drops its redo list)."),
    (
        "",
        "A saved file keeps the whole move list and the position on view.",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx(focus: Pane) -> KeyContext {
        KeyContext {
            focus,
            help: false,
            dialog: false,
            engines_only: false,
        }
    }

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn arrows_depend_on_focus() {
        assert_eq!(
            action(key(KeyCode::Left), ctx(Pane::Board)),
            Some(Action::Cursor(Dir::Left))
        );
        assert_eq!(
            action(key(KeyCode::Left), ctx(Pane::Moves)),
            Some(Action::StepBack)
        );
    }

    #[test]
    fn dialogs_take_only_answers() {
        let c = KeyContext {
            dialog: true,
            ..ctx(Pane::Board)
        };
        assert_eq!(action(key(KeyCode::Char('y')), c), Some(Action::Yes));
        assert_eq!(action(key(KeyCode::Esc), c), Some(Action::No));
        assert_eq!(action(key(KeyCode::Char('u')), c), None);
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(action(ctrl_c, c), Some(Action::ForceQuit));
    }

    #[test]
    fn the_tree_pane_takes_its_keys_and_leaves_the_rest() {
        let tree = ctx(Pane::Tree);
        for (code, want) in [
            (KeyCode::Up, TreeAction::Up),
            (KeyCode::Right, TreeAction::Expand),
            (KeyCode::Enter, TreeAction::Toggle),
            (KeyCode::Left, TreeAction::CollapseOrParent),
            (KeyCode::Home, TreeAction::Top),
            (KeyCode::End, TreeAction::Bottom),
            (KeyCode::Char('p'), TreeAction::ExpandPv),
            (KeyCode::Char('*'), TreeAction::ExpandSubtree),
            (KeyCode::Char('c'), TreeAction::CollapseAll),
            (KeyCode::Esc, TreeAction::Leave),
            (KeyCode::Char('2'), TreeAction::Show(1)),
        ] {
            assert_eq!(
                action(key(code), tree),
                Some(Action::Tree(want)),
                "{code:?}"
            );
        }
        // Elsewhere the same keys keep their old meanings.
        let board = ctx(Pane::Board);
        assert_eq!(action(key(KeyCode::Char('p')), board), Some(Action::Pause));
        assert_eq!(action(key(KeyCode::Home), board), Some(Action::First));
        assert_eq!(action(key(KeyCode::Esc), board), Some(Action::MoveNow));
        // Global keys still work in the tree.
        assert_eq!(action(key(KeyCode::Char('u')), tree), Some(Action::Undo));
        assert_eq!(action(key(KeyCode::Char('m')), tree), Some(Action::MoveNow));
        assert_eq!(
            action(key(KeyCode::Char('t')), board),
            Some(Action::RecordTree)
        );
        assert_eq!(action(key(KeyCode::Char('v')), tree), Some(Action::Compare));
        let engines = KeyContext {
            engines_only: true,
            ..tree
        };
        assert_eq!(
            action(key(KeyCode::Char(' ')), engines),
            Some(Action::Pause)
        );
    }

    #[test]
    fn space_pauses_engine_games() {
        let c = KeyContext {
            engines_only: true,
            ..ctx(Pane::Board)
        };
        assert_eq!(action(key(KeyCode::Char(' ')), c), Some(Action::Pause));
        assert_eq!(
            action(key(KeyCode::Char(' ')), ctx(Pane::Board)),
            Some(Action::Play)
        );
    }
}
