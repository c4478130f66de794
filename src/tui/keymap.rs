//! The game screen's one key table, [`BINDINGS`]: each entry names its keys, where they
//! apply, the [`Action`] they ask for, its line in the help overlay and its hints in the
//! status bar. [`action`], [`help`] and [`hints`] are all read from it.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::action::{Action, Dir, Pane, TreeAction};
use super::worker::Purpose;
use Action as A;
use KeyCode::{BackTab, Down, End, Enter, Esc, F, Home, Left, PageDown, PageUp, Right, Tab, Up};
use Scope::{Ctrl, CtrlAnywhere, EnginesOnly, Focus, Global};
use Section::{Keys, Tree as TreeKeys};
use TreeAction as T;

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

/// Where a binding applies. [`action`] tries the scopes that apply in a fixed order, so a
/// narrower one shadows a wider one (the tree pane's arrows before the global keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// With Ctrl held, whatever is open.
    CtrlAnywhere,
    /// A question is open: nothing else applies.
    Dialog,
    /// The help overlay is open: nothing else applies.
    Help,
    /// With Ctrl held, no overlay open.
    Ctrl,
    /// The search-tree pane has the focus.
    Tree,
    /// Anywhere on the game screen.
    Global,
    /// Anywhere, while the engine plays both sides.
    EnginesOnly,
    /// This pane has the focus (after the global keys).
    Focus(Pane),
}

/// The help overlay's section of a binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// The game's keys.
    Keys,
    /// The search tree's keys.
    Tree,
}

/// A binding's line in the help overlay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HelpLine {
    /// Its section.
    pub section: Section,
    /// The keys, as shown (often for several bindings).
    pub keys: &'static str,
    /// What they do.
    pub text: &'static str,
}

/// Where a status-bar hint is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum On {
    /// While a question is open.
    Dialog,
    /// While the help overlay is open.
    Help,
    /// While the tree pane has the focus.
    Tree,
    /// While the board, the move log or the engine pane has the focus.
    Panes,
    /// While the board has the focus.
    Board,
    /// While the move log has the focus.
    Moves,
    /// While the engine pane has the focus.
    Engine,
    /// While any pane has the focus (no overlay open).
    Screen,
}

/// When a status-bar hint is worth showing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// Always.
    Always,
    /// The engine is thinking about its move.
    EngineMoving,
    /// The engine plays both sides, the game goes on and is not paused.
    EnginesRunning,
    /// The engine plays both sides, the game goes on and is paused.
    EnginesPaused,
    /// A human plays against the engine and is to move.
    HumanToMove,
    /// Later moves are kept after the position on view.
    NotAtEnd,
    /// The position on view is after the start.
    AfterStart,
    /// The game on view is over.
    GameOver,
    /// A tree search (`t` or `v`) runs.
    TreeSearching,
    /// No tree search runs.
    NotTreeSearching,
    /// The tree pane has a tree to browse.
    TreeShown,
    /// The tree pane holds several trees (a comparison).
    SeveralTrees,
}

/// A hint in the status bar: `keys text`, where and when it is shown, and its place among
/// the others shown with it (lower first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hint {
    /// Where.
    pub on: On,
    /// When.
    pub when: When,
    /// Its place.
    pub rank: u8,
    /// The keys, as shown.
    pub keys: &'static str,
    /// What they do, in a word or two.
    pub text: &'static str,
}

/// One entry of the key table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Binding {
    /// Where it applies.
    pub scope: Scope,
    /// The keys (any of them).
    pub keys: &'static [KeyCode],
    /// What they ask for.
    pub action: Action,
    /// Its line in the help overlay (one line often covers several bindings).
    pub help: Option<HelpLine>,
    /// Its hints in the status bar.
    pub hints: &'static [Hint],
}

impl Binding {
    const fn new(scope: Scope, keys: &'static [KeyCode], action: Action) -> Self {
        Self {
            scope,
            keys,
            action,
            help: None,
            hints: &[],
        }
    }

    const fn help(self, section: Section, keys: &'static str, text: &'static str) -> Self {
        Self {
            help: Some(HelpLine {
                section,
                keys,
                text,
            }),
            ..self
        }
    }

    const fn hints(self, hints: &'static [Hint]) -> Self {
        Self { hints, ..self }
    }
}

const fn hint(on: On, when: When, rank: u8, keys: &'static str, text: &'static str) -> Hint {
    Hint {
        on,
        when,
        rank,
        keys,
        text,
    }
}

/// A character key, short enough for the table.
const fn ch(c: char) -> KeyCode {
    KeyCode::Char(c)
}

const fn tree(keys: &'static [KeyCode], action: TreeAction) -> Binding {
    Binding::new(Scope::Tree, keys, Action::Tree(action))
}

/// Every binding of the game screen. Those with a help line come in the help overlay's
/// order; a hint's rank orders it among the hints shown with it.
#[rustfmt::skip]
pub const BINDINGS: &[Binding] = &[
    Binding::new(Focus(Pane::Board), &[Up, ch('k')], A::Cursor(Dir::Up))
        .help(Keys, "←↑↓→ hjkl", "move the board cursor over legal moves (board focused)")
        .hints(&[hint(On::Board, When::HumanToMove, 30, "←↑↓→", "move")]),
    Binding::new(Focus(Pane::Board), &[Down, ch('j')], A::Cursor(Dir::Down)),
    Binding::new(Focus(Pane::Board), &[Left, ch('h')], A::Cursor(Dir::Left)),
    Binding::new(Focus(Pane::Board), &[Right, ch('l')], A::Cursor(Dir::Right)),
    Binding::new(Focus(Pane::Board), &[Enter, ch(' ')], A::Play)
        .help(Keys, "Enter Space", "play the move under the cursor")
        .hints(&[hint(On::Board, When::HumanToMove, 31, "⏎", "play")]),
    Binding::new(Global, &[ch('H')], A::Hint)
        .help(Keys, "H", "hint: the engine's best move for you (h is left, as in vi)")
        .hints(&[hint(On::Board, When::HumanToMove, 32, "H", "hint")]),
    Binding::new(Global, &[ch('u')], A::Undo)
        .help(Keys, "u", "undo your turn (the engine's reply goes back with it)")
        .hints(&[hint(On::Panes, When::AfterStart, 50, "u", "undo")]),
    Binding::new(Global, &[ch('r')], A::Redo)
        .help(Keys, "r  Ctrl-r", "redo a taken-back turn")
        .hints(&[hint(On::Panes, When::NotAtEnd, 40, "r", "redo")]),
    Binding::new(Ctrl, &[ch('r')], A::Redo),
    Binding::new(Global, &[ch('['), ch('<')], A::StepBack)
        .help(Keys, "[ ]  < >", "step back / forward through the game, keeping later moves"),
    Binding::new(Global, &[ch(']'), ch('>')], A::StepForward),
    Binding::new(Focus(Pane::Moves), &[Up, Left, ch('k'), ch('h')], A::StepBack)
        .help(Keys, "←→ ↑↓ hjkl", "the same, only while Moves has the focus (Tab)")
        .hints(&[hint(On::Moves, When::Always, 30, "↑↓", "step")]),
    Binding::new(Focus(Pane::Moves), &[Down, Right, ch('j'), ch('l')], A::StepForward),
    Binding::new(Focus(Pane::Moves), &[PageUp], A::Scroll(-10))
        .help(Keys, "PgUp PgDn", "in Moves: scroll the list; in Engine: scroll it")
        .hints(&[hint(On::Moves, When::Always, 31, "PgUp PgDn", "scroll")]),
    Binding::new(Focus(Pane::Moves), &[PageDown], A::Scroll(10)),
    Binding::new(Focus(Pane::Engine), &[PageUp], A::EngineScroll(-5)),
    Binding::new(Focus(Pane::Engine), &[PageDown], A::EngineScroll(5)),
    Binding::new(Focus(Pane::Engine), &[Up, ch('k')], A::EngineScroll(-1))
        .help(Keys, "↑↓ in Engine", "scroll the engine pane (a long principal variation)")
        .hints(&[hint(On::Engine, When::Always, 30, "↑↓ PgUp PgDn", "scroll")]),
    Binding::new(Focus(Pane::Engine), &[Down, ch('j')], A::EngineScroll(1)),
    Binding::new(Global, &[Home], A::First)
        .help(Keys, "Home End", "view the start / go back to the latest position")
        .hints(&[hint(On::Moves, When::Always, 32, "Home", "start")]),
    Binding::new(Global, &[End], A::Last)
        .hints(&[hint(On::Panes, When::NotAtEnd, 41, "End", "latest")]),
    Binding::new(Global, &[Esc, ch('m')], A::MoveNow)
        .help(Keys, "Esc m", "make the thinking engine move now (in the tree: m only)")
        .hints(&[
            hint(On::Panes, When::EngineMoving, 10, "Esc", "move now"),
            hint(On::Tree, When::EngineMoving, 60, "m", "move now"),
        ]),
    Binding::new(Global, &[ch('p')], A::Pause)
        .help(Keys, "Space p  .", "engine vs engine: pause or resume; one move while paused"),
    Binding::new(EnginesOnly, &[ch(' ')], A::Pause)
        .hints(&[
            hint(On::Panes, When::EnginesRunning, 20, "Space", "pause"),
            hint(On::Panes, When::EnginesPaused, 20, "Space", "resume"),
            hint(On::Tree, When::EnginesRunning, 70, "Space", "pause"),
            hint(On::Tree, When::EnginesPaused, 70, "Space", "resume"),
        ]),
    Binding::new(Global, &[ch('.')], A::StepOnce)
        .hints(&[hint(On::Panes, When::EnginesPaused, 21, ".", "one move")]),
    Binding::new(Global, &[ch('n')], A::NewGame)
        .help(Keys, "n  s", "new game (same settings); save to a file")
        .hints(&[hint(On::Panes, When::GameOver, 60, "n", "new game")]),
    Binding::new(Global, &[ch('s')], A::Save)
        .hints(&[hint(On::Panes, When::Always, 70, "s", "save")]),
    Binding::new(Global, &[ch('o')], A::Setup)
        .help(Keys, "o", "setup screen; the game is kept there (Esc returns to it)")
        .hints(&[hint(On::Panes, When::Always, 72, "o", "setup")]),
    Binding::new(Global, &[Tab], A::FocusNext)
        .help(Keys, "Tab Shift-Tab", "focus the next / previous pane")
        .hints(&[hint(On::Screen, When::Always, 80, "Tab", "focus")]),
    Binding::new(Global, &[BackTab], A::FocusPrev),
    Binding::new(Global, &[ch('?'), F(1)], A::ToggleHelp)
        .help(Keys, "? F1", "this help (↑↓ PgUp PgDn scroll it; ? or Esc closes)")
        .hints(&[hint(On::Screen, When::Always, 90, "?", "help")]),
    Binding::new(Global, &[ch('q')], A::Quit)
        .help(Keys, "q  Ctrl-c", "quit (asks if unsaved); quit now")
        .hints(&[hint(On::Screen, When::Always, 91, "q", "quit")]),
    Binding::new(CtrlAnywhere, &[ch('c'), ch('C')], A::ForceQuit)
        .hints(&[hint(On::Dialog, When::Always, 2, "Ctrl-c", "quit now")]),
    // The search tree: `t` and `v` anywhere, the rest while the tree pane has the focus.
    Binding::new(Global, &[ch('t')], A::RecordTree)
        .help(TreeKeys, "t", "search the position on the board, record the tree, browse it")
        .hints(&[
            hint(On::Panes, When::Always, 71, "t", "tree"),
            hint(On::Tree, When::Always, 40, "t", "search"),
        ]),
    Binding::new(Global, &[ch('v')], A::Compare)
        .help(TreeKeys, "v", "compare minimax, alpha-beta unordered and ordered, and more")
        .hints(&[hint(On::Tree, When::Always, 41, "v", "compare")]),
    tree(&[Up, ch('k')], T::Up)
        .help(TreeKeys, "↑↓ PgUp PgDn", "select a node (these keys while the tree is focused)")
        .hints(&[hint(On::Tree, When::TreeShown, 20, "↑↓", "select")]),
    tree(&[Down, ch('j')], T::Down),
    tree(&[PageUp], T::PageUp),
    tree(&[PageDown], T::PageDown),
    tree(&[Home], T::Top)
        .help(TreeKeys, "Home End", "the root / the last row"),
    tree(&[End], T::Bottom),
    tree(&[Right, ch('l')], T::Expand)
        .help(TreeKeys, "→ l  Enter", "open (on an open node: its first child); Enter toggles")
        .hints(&[hint(On::Tree, When::TreeShown, 21, "←→", "close/open")]),
    tree(&[Enter], T::Toggle),
    tree(&[Left, ch('h')], T::CollapseOrParent)
        .help(TreeKeys, "← h", "close, or go to the parent"),
    tree(&[ch('p')], T::ExpandPv)
        .help(TreeKeys, "p  *  c", "open the principal variation; the whole subtree; close all")
        .hints(&[hint(On::Tree, When::TreeShown, 22, "p", "PV")]),
    tree(&[ch('*')], T::ExpandSubtree)
        .hints(&[hint(On::Tree, When::TreeShown, 23, "*", "subtree")]),
    tree(&[ch('c')], T::CollapseAll)
        .hints(&[hint(On::Tree, When::TreeShown, 24, "c", "collapse")]),
    tree(&[ch('f')], T::StepForward)
        .help(TreeKeys, "f b", "guided: step through the search as it ran, forwards / back")
        .hints(&[hint(On::Tree, When::TreeShown, 25, "f b", "step")]),
    tree(&[ch('b')], T::StepBack),
    tree(&[ch('1')], T::Show(0))
        .help(TreeKeys, "1-9", "browse that tree of a comparison")
        .hints(&[hint(On::Tree, When::SeveralTrees, 30, "1-9", "tree")]),
    tree(&[ch('2')], T::Show(1)),
    tree(&[ch('3')], T::Show(2)),
    tree(&[ch('4')], T::Show(3)),
    tree(&[ch('5')], T::Show(4)),
    tree(&[ch('6')], T::Show(5)),
    tree(&[ch('7')], T::Show(6)),
    tree(&[ch('8')], T::Show(7)),
    tree(&[ch('9')], T::Show(8)),
    tree(&[ch('R')], T::ToggleRecording)
        .help(TreeKeys, "R", "record the engine's own searches on/off (on once used)"),
    tree(&[ch('E')], T::ToggleEngine)
        .help(TreeKeys, "E", "t and v search with plain alpha-beta / with the full engine"),
    tree(&[ch('+'), ch('=')], T::Deeper)
        .help(TreeKeys, "+ -", "t and v one ply deeper / shallower (searches again)"),
    tree(&[ch('-')], T::Shallower),
    tree(&[Esc], T::Leave)
        .help(TreeKeys, "Esc", "stop a tree search; else back to the live board")
        .hints(&[
            hint(On::Tree, When::TreeSearching, 10, "Esc", "stop"),
            hint(On::Tree, When::NotTreeSearching, 50, "Esc", "live board"),
        ]),
    // Overlays: only their own keys (and Ctrl-c) answer while they are open.
    Binding::new(Scope::Dialog, &[ch('y'), ch('Y'), Enter], A::Yes)
        .hints(&[hint(On::Dialog, When::Always, 0, "y ⏎", "yes")]),
    Binding::new(Scope::Dialog, &[ch('n'), ch('N'), ch('q'), Esc], A::No)
        .hints(&[hint(On::Dialog, When::Always, 1, "n Esc", "no")]),
    Binding::new(Scope::Help, &[Esc, Enter, ch('?'), ch('q')], A::Close)
        .hints(&[hint(On::Help, When::Always, 1, "? Esc", "close")]),
    Binding::new(Scope::Help, &[Up, ch('k')], A::HelpScroll(-1))
        .hints(&[hint(On::Help, When::Always, 0, "↑↓ PgUp PgDn", "scroll")]),
    Binding::new(Scope::Help, &[Down, ch('j')], A::HelpScroll(1)),
    Binding::new(Scope::Help, &[PageUp], A::HelpScroll(-10)),
    Binding::new(Scope::Help, &[PageDown, ch(' ')], A::HelpScroll(10)),
];

/// The scopes that apply, in the order they are tried.
fn scopes(ctx: KeyContext, ctrl: bool) -> Vec<Scope> {
    let mut scopes = Vec::with_capacity(5);
    if ctrl {
        scopes.push(Scope::CtrlAnywhere);
    }
    if ctx.dialog {
        scopes.push(Scope::Dialog);
    } else if ctx.help {
        scopes.push(Scope::Help);
    } else if ctrl {
        scopes.push(Scope::Ctrl);
    } else {
        // The tree pane's keys come before the common ones they shadow there: arrows,
        // Home, End, Esc and `p` (pause stays on Space).
        if ctx.focus == Pane::Tree {
            scopes.push(Scope::Tree);
        }
        scopes.push(Scope::Global);
        if ctx.engines_only {
            scopes.push(Scope::EnginesOnly);
        }
        scopes.push(Scope::Focus(ctx.focus));
    }
    scopes
}

/// The action for a key press, if any.
pub fn action(key: KeyEvent, ctx: KeyContext) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    scopes(ctx, ctrl).into_iter().find_map(|scope| {
        BINDINGS
            .iter()
            .find(|b| b.scope == scope && b.keys.contains(&key.code))
            .map(|b| b.action)
    })
}

/// The notes under the search tree's keys in the help overlay.
const TREE_NOTES: &[(&str, &str)] = &[
    (
        "",
        "The board shows a selected node's position, with its moves numbered.",
    ),
    (
        "",
        "Once the tree pane is used, the engine records its own searches as well.",
    ),
];

/// The help overlay after the keys: the mouse, the setup screen, branching.
const MORE_HELP: &[(&str, &str)] = &[
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

/// The help overlay: (keys, what they do), one line each; `""` keys start a heading or
/// carry a note. The keys come from [`BINDINGS`].
pub fn help() -> Vec<(&'static str, &'static str)> {
    let mut lines = Vec::with_capacity(BINDINGS.len() + MORE_HELP.len());
    for (section, heading) in [(Section::Keys, "Keys"), (Section::Tree, "Search tree")] {
        lines.push(("", heading));
        lines.extend(
            BINDINGS
                .iter()
                .filter_map(|b| b.help)
                .filter(|h| h.section == section)
                .map(|h| (h.keys, h.text)),
        );
    }
    lines.extend_from_slice(TREE_NOTES);
    lines.extend_from_slice(MORE_HELP);
    lines
}

/// What decides which hints the status bar shows.
// Independent facts about the screen, each read by its own `When`.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Situation {
    /// Focus and overlays.
    pub keys: KeyContext,
    /// What the running search is for, if one runs.
    pub searching: Option<Purpose>,
    /// Engine-vs-engine play is paused.
    pub paused: bool,
    /// The game on view is over.
    pub game_over: bool,
    /// A human plays the side to move.
    pub human_to_move: bool,
    /// The position on view is the latest.
    pub at_end: bool,
    /// The position on view is after the start.
    pub after_start: bool,
    /// The tree pane has a tree to browse.
    pub tree_shown: bool,
    /// The tree pane holds several trees.
    pub several_trees: bool,
}

impl Situation {
    fn is_on(&self, on: On) -> bool {
        let keys = self.keys;
        let panes = !keys.dialog && !keys.help;
        match on {
            On::Dialog => keys.dialog,
            On::Help => !keys.dialog && keys.help,
            On::Tree => panes && keys.focus == Pane::Tree,
            On::Panes => panes && keys.focus != Pane::Tree,
            On::Board => panes && keys.focus == Pane::Board,
            On::Moves => panes && keys.focus == Pane::Moves,
            On::Engine => panes && keys.focus == Pane::Engine,
            On::Screen => panes,
        }
    }

    fn holds(&self, when: When) -> bool {
        let engines_play = self.keys.engines_only && !self.game_over;
        let tree_search = matches!(self.searching, Some(Purpose::Tree | Purpose::Compare));
        match when {
            When::Always => true,
            When::EngineMoving => self.searching == Some(Purpose::Move),
            When::EnginesRunning => engines_play && !self.paused,
            When::EnginesPaused => engines_play && self.paused,
            When::HumanToMove => !self.keys.engines_only && !self.game_over && self.human_to_move,
            When::NotAtEnd => !self.at_end,
            When::AfterStart => self.after_start,
            When::GameOver => self.game_over,
            When::TreeSearching => tree_search,
            When::NotTreeSearching => !tree_search,
            When::TreeShown => self.tree_shown,
            When::SeveralTrees => self.several_trees,
        }
    }
}

/// The keys worth showing now, as (keys, what they do): for an open dialog or the help its
/// answers, else for the focused pane and the state of the game.
pub fn hints(situation: &Situation) -> Vec<(&'static str, &'static str)> {
    let mut shown: Vec<&Hint> = BINDINGS
        .iter()
        .flat_map(|b| b.hints)
        .filter(|h| situation.is_on(h.on) && situation.holds(h.when))
        .collect();
    shown.sort_by_key(|h| h.rank);
    shown.into_iter().map(|h| (h.keys, h.text)).collect()
}

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

    #[test]
    fn no_key_is_bound_twice_where_it_applies() {
        for (i, a) in BINDINGS.iter().enumerate() {
            for b in &BINDINGS[i + 1..] {
                if a.scope == b.scope {
                    for k in a.keys {
                        assert!(!b.keys.contains(k), "{k:?} twice in {:?}", a.scope);
                    }
                }
            }
        }
    }

    /// A context where `scope` applies.
    fn context_of(scope: Scope) -> (KeyContext, KeyModifiers) {
        let board = ctx(Pane::Board);
        match scope {
            Scope::CtrlAnywhere | Scope::Ctrl => (board, KeyModifiers::CONTROL),
            Scope::Dialog => (
                KeyContext {
                    dialog: true,
                    ..board
                },
                KeyModifiers::NONE,
            ),
            Scope::Help => (
                KeyContext {
                    help: true,
                    ..board
                },
                KeyModifiers::NONE,
            ),
            Scope::Tree => (ctx(Pane::Tree), KeyModifiers::NONE),
            Scope::Global => (board, KeyModifiers::NONE),
            Scope::EnginesOnly => (
                KeyContext {
                    engines_only: true,
                    ..board
                },
                KeyModifiers::NONE,
            ),
            Scope::Focus(pane) => (ctx(pane), KeyModifiers::NONE),
        }
    }

    #[test]
    fn every_binding_answers_where_it_applies() {
        for binding in BINDINGS {
            let (context, modifiers) = context_of(binding.scope);
            for &code in binding.keys {
                assert_eq!(
                    action(KeyEvent::new(code, modifiers), context),
                    Some(binding.action),
                    "{code:?} in {:?}",
                    binding.scope
                );
            }
        }
    }

    #[test]
    fn help_lists_the_table_under_headings_then_the_mouse() {
        let help = help();
        let at = |line: (&str, &str)| help.iter().position(|&l| l == line).unwrap();
        let keys = at(("", "Keys"));
        let tree = at(("", "Search tree"));
        let mouse = at(("", "Mouse"));
        assert!(keys == 0 && keys < tree && tree < mouse);
        assert_eq!(
            at((
                "H",
                "hint: the engine's best move for you (h is left, as in vi)"
            )),
            3
        );
        assert!(at(("1-9", "browse that tree of a comparison")) > tree);
        let listed = BINDINGS.iter().filter(|b| b.help.is_some()).count();
        let mouse_and_setup = MORE_HELP.iter().filter(|(k, _)| !k.is_empty()).count();
        assert_eq!(mouse_and_setup, 11);
        assert_eq!(
            help.iter().filter(|(k, _)| !k.is_empty()).count(),
            listed + mouse_and_setup
        );
    }

    fn situation(focus: Pane) -> Situation {
        Situation {
            keys: ctx(focus),
            searching: None,
            paused: false,
            game_over: false,
            human_to_move: true,
            at_end: true,
            after_start: false,
            tree_shown: false,
            several_trees: false,
        }
    }

    fn hint_keys(situation: &Situation) -> Vec<&'static str> {
        hints(situation).into_iter().map(|(keys, _)| keys).collect()
    }

    #[test]
    fn hints_follow_focus_and_state_in_their_order() {
        let board = situation(Pane::Board);
        assert_eq!(
            hint_keys(&board),
            ["←↑↓→", "⏎", "H", "s", "t", "o", "Tab", "?", "q"]
        );
        let moves = Situation {
            keys: ctx(Pane::Moves),
            at_end: false,
            after_start: true,
            searching: Some(Purpose::Move),
            ..board
        };
        assert_eq!(
            hint_keys(&moves),
            [
                "Esc",
                "↑↓",
                "PgUp PgDn",
                "Home",
                "r",
                "End",
                "u",
                "s",
                "t",
                "o",
                "Tab",
                "?",
                "q"
            ]
        );
        let engines = Situation {
            keys: KeyContext {
                engines_only: true,
                ..ctx(Pane::Engine)
            },
            paused: true,
            ..board
        };
        assert_eq!(
            hints(&engines)[..3],
            [
                ("Space", "resume"),
                (".", "one move"),
                ("↑↓ PgUp PgDn", "scroll")
            ]
        );
        let tree = Situation {
            keys: KeyContext {
                engines_only: true,
                ..ctx(Pane::Tree)
            },
            tree_shown: true,
            several_trees: true,
            searching: Some(Purpose::Compare),
            ..board
        };
        assert_eq!(
            hint_keys(&tree),
            [
                "Esc", "↑↓", "←→", "p", "*", "c", "f b", "1-9", "t", "v", "Space", "Tab", "?", "q"
            ]
        );
        let over = Situation {
            game_over: true,
            ..engines
        };
        assert_eq!(
            hint_keys(&over),
            ["↑↓ PgUp PgDn", "n", "s", "t", "o", "Tab", "?", "q"]
        );
    }

    #[test]
    fn overlays_hint_only_their_answers() {
        let dialog = Situation {
            keys: KeyContext {
                dialog: true,
                help: true,
                ..ctx(Pane::Tree)
            },
            ..situation(Pane::Tree)
        };
        assert_eq!(hint_keys(&dialog), ["y ⏎", "n Esc", "Ctrl-c"]);
        let help = Situation {
            keys: KeyContext {
                help: true,
                ..ctx(Pane::Board)
            },
            ..situation(Pane::Board)
        };
        assert_eq!(
            hints(&help),
            [("↑↓ PgUp PgDn", "scroll"), ("? Esc", "close")]
        );
    }
}
