//! What the search-tree pane shows, as data and plain text: the recorded trees (one, or one
//! per algorithm of a comparison) with their view states, the position a selected node
//! stands for, the one-line explanation of a node and the comparison's verdict. No drawing
//! and no terminal here; the pane and the app both read it.

use std::fmt::Write as _;

use ratatui::layout::{Position, Rect};

use super::action::TreeAction;
use super::boards::PathMove;
use super::layout::{self, TreeParts};
use super::tree_view::TreeViewState;
use super::worker::MinimaxEstimate;
use crate::engine::api::{Algorithm, EngineSettings, SearchResult};
use crate::engine::clock::match_time_text;
use crate::engine::score;
use crate::engine::score::INFINITY;
use crate::engine::stats::{approximate_count, group_digits};
use crate::engine::tree::{Bound, NodeKind, SearchTree, TreeNode};
pub use crate::export::{bound_text, kind_text, whole, window_text};
use crate::games::Playable;

/// The label of a tree recorded by `t` ([`Recorded::label`]).
pub const TREE_SEARCH_LABEL: &str = "search";

/// One recorded search and how it is being browsed.
#[derive(Clone, Debug)]
pub struct Recorded<G: Playable> {
    /// What it was: `engine move`, `hint`, [`TREE_SEARCH_LABEL`] (`t`), or the comparison's
    /// name for it.
    pub label: String,
    /// The position searched.
    pub root: G,
    /// How it searched.
    pub settings: EngineSettings,
    /// What it found.
    pub result: SearchResult<G::Move>,
    /// The recorded tree.
    pub tree: SearchTree<G::Move>,
    /// Plain minimax was stopped at the comparison's node budget.
    pub gave_up: bool,
    /// Then: the size of its whole tree, estimated from the depths that fitted the budget.
    pub estimate: Option<MinimaxEstimate>,
    /// Expansion, selection and scroll.
    pub view: TreeViewState,
    /// The guided mode's place in the search, while it is on.
    pub step: Option<Guide>,
}

/// The guided mode: the search's steps in the order they happened, and the one shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guide {
    /// Each step: a node, and whether it is entered (`false`) or returns (`true`).
    pub steps: Vec<(u32, bool)>,
    /// The step shown.
    pub at: usize,
}

/// The order a search ran in: each searched node entered, then its children, then its
/// value returned (the recorder numbers nodes in the order they were entered, and children
/// in the order they were searched; skipped moves are not steps).
pub fn search_steps<M>(tree: &SearchTree<M>) -> Vec<(u32, bool)> {
    let mut steps = Vec::new();
    if tree.nodes.is_empty() {
        return steps;
    }
    let mut stack = vec![(0u32, false)];
    while let Some((id, done)) = stack.pop() {
        let Some(node) = tree.nodes.get(id as usize) else {
            continue;
        };
        if node.kind == NodeKind::Skipped {
            continue;
        }
        if done {
            steps.push((id, true));
            continue;
        }
        steps.push((id, false));
        stack.push((id, true));
        stack.extend(node.children.iter().rev().map(|&c| (c, false)));
    }
    steps
}

impl<G: Playable> Recorded<G> {
    /// A recorded search, opened at the root's children.
    pub fn new(
        label: impl Into<String>,
        root: G,
        settings: EngineSettings,
        result: SearchResult<G::Move>,
        tree: SearchTree<G::Move>,
        gave_up: bool,
    ) -> Self {
        let view = TreeViewState::new(&tree);
        Self {
            label: label.into(),
            root,
            settings,
            result,
            tree,
            gave_up,
            estimate: None,
            view,
            step: None,
        }
    }

    /// The same, with the size of plain minimax's whole tree when it gave up.
    #[must_use]
    pub fn with_estimate(mut self, estimate: Option<MinimaxEstimate>) -> Self {
        self.estimate = estimate;
        self
    }

    /// Moves the guided mode `forward` (or back) one step, starting it at the root if it is
    /// off, and selects the step's node in a list `height` rows tall.
    pub fn step(&mut self, forward: bool, height: usize) {
        let starting = self.step.is_none();
        let guide = self.step.get_or_insert_with(|| Guide {
            steps: search_steps(&self.tree),
            at: 0,
        });
        if guide.steps.is_empty() {
            self.step = None;
            return;
        }
        // Starting shows the first step; after that each key moves one.
        if !starting {
            guide.at = if forward {
                (guide.at + 1).min(guide.steps.len() - 1)
            } else {
                guide.at.saturating_sub(1)
            };
        }
        let (node, _) = guide.steps[guide.at];
        self.view.reveal(&self.tree, node, height);
    }

    /// The guided mode's text for the step shown: `Step 12 of 340: O enters b3 ...`.
    pub fn step_text(&self) -> Option<String> {
        let guide = self.step.as_ref()?;
        let &(id, leaves) = guide.steps.get(guide.at)?;
        let node = self.tree.nodes.get(id as usize)?;
        let name = move_name(self, id);
        let head = format!("Step {} of {}:", guide.at + 1, guide.steps.len());
        let window = window_text::<G>(node.alpha, node.beta);
        let kind = kind_text(node.kind);
        let kind = if kind.is_empty() || node.kind == NodeKind::SingularTest {
            String::new()
        } else {
            format!(" ({kind})")
        };
        if !leaves {
            return Some(format!(
                "{head} enter {name}{kind}, {} to move, window {window}, {} left.",
                G::side_name(node.to_move),
                plural(node.depth, "move", "moves")
            ));
        }
        let value = score::format::<G>(node.value);
        let what = match node.bound {
            Bound::Exact => format!("exact value {value}"),
            Bound::Lower => format!("{value} ≥ beta: a cut-off"),
            Bound::Upper => format!("{value} ≤ alpha: an upper bound"),
        };
        let skipped = if node.skipped > 0 {
            format!(", {} skipped", plural(node.skipped, "move", "moves"))
        } else {
            String::new()
        };
        Some(format!("{head} {name} returns {what}{skipped}."))
    }

    /// The selected node.
    pub fn selected(&self) -> Option<(u32, &TreeNode<G::Move>)> {
        let id = self.view.selected_node()?;
        self.tree.nodes.get(id as usize).map(|n| (id, n))
    }

    /// The search's name: algorithm, ordering, and the depth its tree comes from (an
    /// iterative search's last iteration).
    pub fn settings_text(&self) -> String {
        let mut settings = self.settings.clone();
        let depth = match self.tree.nodes.first() {
            Some(root) if self.tree.unfinished => root.depth,
            _ => self.result.stats.depth,
        };
        if depth > 0 {
            settings.limits.depth = Some(depth);
        }
        settings_text(&settings)
    }

    /// Why the tree is incomplete, if it is: an unfinished iteration, truncated, stopped, or
    /// given up.
    pub fn notice(&self) -> Option<String> {
        // A comparison's header already says that minimax gave up; the root explains it.
        if self.gave_up {
            return None;
        }
        if self.tree.unfinished && self.settings.algorithm == Algorithm::Full {
            let depth = self.tree.nodes.first().map_or(0, |root| root.depth);
            return Some(format!(
                "unfinished depth-{depth} iteration: stopped inside it, values partial"
            ));
        }
        if self.tree.truncated {
            return Some(format!(
                "recording budget {} nodes: {} more searched, not recorded",
                group_digits(self.tree.budget as u64),
                group_digits(self.tree.unrecorded)
            ));
        }
        if !self.result.completed {
            return Some("stopped early: the tree is partial".to_string());
        }
        // An iterative search keeps only its last iteration's tree.
        let recorded = self.tree.searched_count() as u64;
        (recorded < self.result.stats.nodes).then(|| {
            format!(
                "the last iteration's tree: {} of the {} nodes searched",
                group_digits(recorded),
                group_digits(self.result.stats.nodes)
            )
        })
    }

    /// The position of node `id`, with the moves that lead there from the root.
    pub fn preview(&self, id: u32) -> Preview<G> {
        let mut position = self.root.clone();
        let mut before = None;
        let mut path = Vec::new();
        let mut line = String::new();
        for step in TreeViewState::path(&self.tree, id).into_iter().skip(1) {
            let Some(node) = self.tree.nodes.get(step as usize) else {
                break;
            };
            // A failed aspiration pass is a row of the root: its moves are the root's.
            let Some(mv) = node.mv else {
                continue;
            };
            let mover = position.to_move();
            let text = position.format_move(mv);
            let previous = position.clone();
            if position.try_play(mv).is_err() {
                break;
            }
            before = Some(previous);
            path.push(PathMove { mv, mover });
            let _ = write!(
                line,
                "{}{}.{text}",
                if line.is_empty() { "" } else { " " },
                path.len()
            );
        }
        Preview {
            position,
            before,
            path,
            line,
        }
    }

    /// The explanation of the selected node, after whose view its values are from (empty
    /// without a node).
    pub fn explanation(&self) -> String {
        let text = self
            .selected()
            .map(|(id, node)| {
                let text = explain(self, id, node);
                if node.parent.is_none() || node.kind == NodeKind::Skipped {
                    text
                } else {
                    format!("{} to move · {text}", G::side_name(node.to_move))
                }
            })
            .unwrap_or_default();
        let leaving = self
            .step
            .as_ref()
            .and_then(|g| g.steps.get(g.at))
            .map(|&(id, leaves)| (id, leaves));
        match (leaving, self.step_text()) {
            // Entering, the node's explanation would tell what is not known yet.
            (Some((_, false)), Some(step)) => step,
            (Some((id, true)), Some(_)) => {
                let head = self.step.as_ref().map_or(String::new(), |g| {
                    format!("Step {} of {}:", g.at + 1, g.steps.len())
                });
                let node = self.tree.nodes.get(id as usize);
                let explained = node.map_or(String::new(), |n| explain(self, id, n));
                format!("{head} {} returns: {explained}", move_name(self, id))
            }
            _ => text,
        }
    }
}

/// A node's position on the board.
#[derive(Clone, Debug)]
pub struct Preview<G: Playable> {
    /// The position after the path.
    pub position: G,
    /// The position before the path's last move.
    pub before: Option<G>,
    /// The moves from the root, in order (numbered from 1 on the board).
    pub path: Vec<PathMove<G::Move>>,
    /// The path in notation: `1.b2 2.a1`.
    pub line: String,
}

/// The recorded trees on show.
#[derive(Clone, Debug)]
pub struct TreeBrowser<G: Playable> {
    /// One tree, or the comparison's trees in the order they finished.
    pub trees: Vec<Recorded<G>>,
    /// The comparison's searches, named (empty for a single tree); longer than `trees`
    /// while it runs.
    pub compare: Vec<(String, EngineSettings)>,
    /// Which tree is browsed.
    pub shown: usize,
    /// A comparison is still searching.
    pub running: bool,
}

impl<G: Playable> Default for TreeBrowser<G> {
    fn default() -> Self {
        Self {
            trees: Vec::new(),
            compare: Vec::new(),
            shown: 0,
            running: false,
        }
    }
}

/// The most rows the explanation takes.
const FOOTER_MAX: usize = 6;

impl<G: Playable> TreeBrowser<G> {
    /// The tree being browsed.
    pub fn shown(&self) -> Option<&Recorded<G>> {
        self.trees.get(self.shown)
    }

    /// The tree being browsed, to change its view.
    pub fn shown_mut(&mut self) -> Option<&mut Recorded<G>> {
        self.trees.get_mut(self.shown)
    }

    /// Shows one recorded search, replacing whatever was shown.
    pub fn set_single(&mut self, recorded: Recorded<G>) {
        self.trees = vec![recorded];
        self.compare.clear();
        self.shown = 0;
    }

    /// Starts a comparison of the named searches (their trees arrive one by one).
    pub fn start_comparison(&mut self, searches: Vec<(String, EngineSettings)>) {
        self.trees.clear();
        self.compare = searches;
        self.shown = 0;
        self.running = true;
    }

    /// The next search of a comparison has answered.
    pub fn add_compared(&mut self, recorded: Recorded<G>) {
        if self.trees.len() < self.compare.len() {
            self.trees.push(recorded);
        }
    }

    /// Carries out a navigation key on the shown tree, whose list is `height` rows tall.
    pub fn navigate(&mut self, action: TreeAction, height: usize) {
        let Some(shown) = self.shown_mut() else {
            return;
        };
        match action {
            TreeAction::StepForward | TreeAction::StepBack => {
                shown.step(action == TreeAction::StepForward, height);
                return;
            }
            // Any other move through the tree ends the guided mode.
            _ => shown.step = None,
        }
        let Recorded { tree, view, .. } = shown;
        let page = height.max(1) as isize;
        match action {
            TreeAction::Up => view.move_by(-1, height),
            TreeAction::Down => view.move_by(1, height),
            TreeAction::PageUp => view.move_by(-page, height),
            TreeAction::PageDown => view.move_by(page, height),
            TreeAction::Top => view.select(0, height),
            TreeAction::Bottom => view.select_last(height),
            TreeAction::Expand => {
                view.expand(tree, height);
            }
            TreeAction::Toggle => view.toggle(tree, height),
            TreeAction::CollapseOrParent => view.collapse_or_parent(tree, height),
            TreeAction::ExpandPv => view.expand_pv(tree, height),
            TreeAction::ExpandSubtree => view.expand_subtree(tree, height),
            TreeAction::CollapseAll => view.collapse_all(tree, height),
            TreeAction::Show(_)
            | TreeAction::StepForward
            | TreeAction::StepBack
            | TreeAction::Leave
            | TreeAction::ToggleRecording
            | TreeAction::ToggleEngine
            | TreeAction::Deeper
            | TreeAction::Shallower => {}
        }
    }

    /// Scrolls the shown tree by `delta` rows, the selection staying where it is.
    pub fn scroll(&mut self, delta: isize, height: usize) {
        if let Some(shown) = self.shown_mut() {
            shown.view.scroll(delta, height);
        }
    }

    /// A click at `at` in the pane's inside `inner`: on a row it selects the node, and
    /// toggles it when it was selected already (in a focused pane) or the click hit its
    /// ▸/▾; on a compared search's line it shows that tree. `height` is the list's height
    /// after the click (the focused pane may be taller).
    pub fn click(&mut self, inner: Rect, at: Position, was_focused: bool, height: usize) {
        let parts = self.parts(inner);
        if parts.header.contains(at) && !self.compare.is_empty() {
            self.show(usize::from(at.y - parts.header.y));
            return;
        }
        if !parts.list.contains(at) {
            return;
        }
        let list_h = usize::from(parts.list.height);
        let Some(Recorded {
            tree, view, step, ..
        }) = self.shown_mut()
        else {
            return;
        };
        *step = None;
        let row = view.offset(list_h) + usize::from(at.y - parts.list.y);
        let Some(&hit) = view.rows().get(row) else {
            return;
        };
        let marker = parts.list.x + row_indent(hit.level, parts.list.width);
        let on_marker = (marker..marker + 2).contains(&at.x);
        let again = was_focused && row == view.selected();
        view.select(row, list_h);
        if again || on_marker {
            view.toggle(tree, list_h);
        }
        view.select(view.selected(), height);
    }

    /// Browses tree `index` of a comparison, if it has arrived.
    pub fn show(&mut self, index: usize) -> bool {
        if index < self.trees.len() {
            self.shown = index;
            true
        } else {
            false
        }
    }

    /// The header's lines: the search shown, or the comparison table and its verdict.
    pub fn header(&self, width: u16) -> Vec<String> {
        self.header_lines(width)
            .into_iter()
            .map(|(text, _)| text)
            .collect()
    }

    /// The header's lines, each with the comparison's search it belongs to (`None` for the
    /// title and the verdict). A search whose line would not fit takes two.
    pub fn header_lines(&self, width: u16) -> Vec<(String, Option<usize>)> {
        if self.compare.is_empty() {
            return self
                .shown()
                .map(|r| {
                    let text = format!(
                        "{} · {} · {} nodes · best {} {}",
                        r.label,
                        r.settings_text(),
                        group_digits(r.result.stats.nodes),
                        best_text(r),
                        score::format::<G>(r.result.value)
                    );
                    wrap(&text, width).into_iter().map(|l| (l, None)).collect()
                })
                .unwrap_or_default();
        }
        let mut lines: Vec<(String, Option<usize>)> = Vec::new();
        let name_w = self
            .compare
            .iter()
            .map(|(n, _)| n.chars().count())
            .max()
            .unwrap_or(0);
        let count_w = self
            .trees
            .iter()
            .map(|r| group_digits(r.result.stats.nodes).len())
            .max()
            .unwrap_or(0);
        // Plain minimax's count, when it finished: the others' counts as a share of it.
        let minimax = self
            .trees
            .iter()
            .find(|r| {
                r.settings.algorithm == Algorithm::Minimax && !r.gave_up && r.result.completed
            })
            .map(|r| r.result.stats.nodes);
        for (i, (name, _)) in self.compare.iter().enumerate() {
            let what = match self.trees.get(i) {
                Some(r) if r.gave_up => {
                    let whole = r.estimate.map_or(String::new(), |e| {
                        format!(
                            " (about {} in all)",
                            approximate_count(e.nodes_to(r.settings.limits.max_depth()))
                        )
                    });
                    format!(
                        "gave up past its {}-node budget{whole}",
                        group_digits(super::worker::MINIMAX_COUNT_BUDGET)
                    )
                }
                Some(r) => {
                    let share = match minimax {
                        Some(all) if all > 0 && r.settings.algorithm != Algorithm::Minimax => {
                            format!(" {}", share_text(r.result.stats.nodes, all))
                        }
                        _ => String::new(),
                    };
                    format!(
                        "{:>count_w$} nodes{share}  {} {}{}",
                        group_digits(r.result.stats.nodes),
                        best_text(r),
                        score::format::<G>(r.result.value),
                        if r.result.completed { "" } else { "  stopped" }
                    )
                }
                None if !self.running => "not searched (stopped)".to_string(),
                None if i == self.trees.len() => "searching...".to_string(),
                None => "waiting".to_string(),
            };
            let one = format!("{} {name:<name_w$} {what}", i + 1);
            if one.chars().count() <= usize::from(width) {
                lines.push((one, Some(i)));
            } else {
                lines.push((format!("{} {name}", i + 1), Some(i)));
                for part in wrap(&what, width.saturating_sub(2)) {
                    lines.push((format!("  {part}"), Some(i)));
                }
            }
        }
        if let Some((text, _)) = self.verdict() {
            lines.extend(wrap(&text, width).into_iter().map(|l| (l, None)));
        }
        lines
    }

    /// The comparison's verdict once it has ended: the text, and whether the searches agree
    /// as they must.
    pub fn verdict(&self) -> Option<(String, bool)> {
        if self.compare.is_empty() || self.running {
            return None;
        }
        if self.trees.len() < self.compare.len() {
            return Some((
                "stopped before every search ended: no verdict".to_string(),
                false,
            ));
        }
        verdict(&self.trees)
    }

    /// The depth a comparison searches to (none for a single tree).
    pub fn compared_depth(&self) -> Option<u32> {
        self.compare.first().map(|(_, s)| s.limits.max_depth())
    }

    /// The layout of the pane's inside `inner` (drawing and mouse hits share it).
    pub fn parts(&self, inner: Rect) -> TreeParts {
        let header = self.header(text_width(inner.width)).len() as u16;
        let notice =
            self.shown()
                .and_then(Recorded::notice)
                .map_or(0, |n| wrap(&n, text_width(inner.width)).len().min(2)) as u16;
        let footer = self.shown().map_or(0, |r| {
            wrap(&r.explanation(), text_width(inner.width))
                .len()
                .min(FOOTER_MAX)
        }) as u16;
        layout::tree_parts(inner, header, notice, footer)
    }

    /// Rows of the tree list in the pane's inside `inner`.
    pub fn list_height(&self, inner: Rect) -> usize {
        usize::from(self.parts(inner).list.height)
    }
}

/// The width text is wrapped to in a pane `width` wide inside: one column is kept free
/// before the right border, so a word never touches it (and a test can tell that no word
/// was cut by it).
pub fn text_width(width: u16) -> u16 {
    width.saturating_sub(1).max(1)
}

/// Columns a row at `level` is indented by in a list `width` wide (two per level, at most
/// half the width, so deep lines still show their text).
pub fn row_indent(level: u16, width: u16) -> u16 {
    level.saturating_mul(2).min(width / 2)
}

/// The name of a bound kind, as rows show it.
pub fn bound_name(bound: Bound) -> &'static str {
    match bound {
        Bound::Exact => "exact",
        Bound::Lower => "lower",
        Bound::Upper => "upper",
    }
}

/// `alphabeta, ordered · depth 4`.
pub fn settings_text(settings: &EngineSettings) -> String {
    // Ordering is alpha-beta's switch; the full engine orders by its own settings.
    let ordering = match (
        settings.algorithm == Algorithm::AlphaBeta,
        settings.ordering,
    ) {
        (false, _) => "",
        (true, true) => ", ordered",
        (true, false) => ", unordered",
    };
    format!(
        "{}{ordering} · {}",
        settings.algorithm,
        depth_text(settings)
    )
}

/// `depth 4`; for the full engine with a time limit `1000 ms/move` (as deep as the time
/// allows) or `depth 12, 1000 ms/move`, on a match clock `1 min/game` (and its time a move,
/// when it has one as well).
pub fn depth_text(settings: &EngineSettings) -> String {
    let depth = settings.limits.max_depth();
    let mut time = Vec::new();
    if let Some(game) = settings.match_time {
        time.push(format!("{}/game", match_time_text(game)));
    }
    if settings.limits.time.is_some() {
        time.push(format!("{} ms/move", settings.limits.time_ms()));
    }
    let time = time.join(", ");
    match (settings.timed(), settings.limits.depth) {
        (false, _) => format!("depth {depth}"),
        (true, None) => time,
        (true, Some(_)) => format!("depth {depth}, {time}"),
    }
}

fn best_text<G: Playable>(r: &Recorded<G>) -> String {
    r.result
        .best
        .map_or_else(|| "-".to_string(), |m| r.root.format_move(m))
}

/// `nodes` as a share of `all`: `8.6%`, `<0.1%`.
fn share_text(nodes: u64, all: u64) -> String {
    let percent = nodes as f64 * 100.0 / all as f64;
    if percent < 0.1 {
        "<0.1%".to_string()
    } else if percent < 10.0 {
        format!("{percent:.1}%")
    } else {
        format!("{percent:.0}%")
    }
}

fn plural(n: u32, one: &str, many: &str) -> String {
    format!(
        "{} {}",
        crate::engine::stats::group_digits(u64::from(n)),
        if n == 1 { one } else { many }
    )
}

/// `node`'s value from `side`'s point of view (negamax values are the side to move's).
fn value_for<M>(node: &TreeNode<M>, side: crate::engine::Player) -> i32 {
    if node.to_move == side {
        node.value
    } else {
        -node.value
    }
}

/// Where a window edge came from: `owner` can already get `value`, below `start`'s parent.
/// Walks up to the ancestor where `owner` was to move and an earlier child of it reached
/// `value` (the line already found); returns that ancestor and child. `None` when the edge
/// is the root's own window.
pub fn bound_origin<M: Copy + PartialEq>(
    tree: &SearchTree<M>,
    start: u32,
    owner: crate::engine::Player,
    value: i32,
) -> Option<(u32, u32)> {
    let mut cur = start;
    loop {
        let parent_id = tree.nodes.get(cur as usize)?.parent?;
        if parent_id >= cur {
            return None;
        }
        let parent = tree.nodes.get(parent_id as usize)?;
        if parent.to_move == owner {
            let this_move = tree.nodes.get(cur as usize).and_then(|n| n.mv);
            let earlier: Vec<u32> = parent
                .children
                .iter()
                .copied()
                .take_while(|&c| c != cur)
                .filter(|&c| {
                    tree.nodes
                        .get(c as usize)
                        .is_some_and(|n| n.kind != NodeKind::Skipped && n.mv != this_move)
                })
                .collect();
            let reached = |exact: bool| {
                earlier.iter().copied().find(|&c| {
                    tree.nodes.get(c as usize).is_some_and(|n| {
                        let v = value_for(n, owner);
                        if exact { v == value } else { v >= value }
                    })
                })
            };
            if let Some(child) = reached(true).or_else(|| reached(false)) {
                return Some((parent_id, child));
            }
            if parent.alpha < value {
                return None;
            }
        }
        cur = parent_id;
    }
}

/// A value someone can already get, in words: the tie-separating floor one unit below a
/// whole value reads as that value (`+8`, not `+7.99`).
fn got_text<G: Playable>(v: i32) -> String {
    if v.abs() < INFINITY && !whole::<G>(v) && whole::<G>(v + 1) {
        score::format::<G>(v + 1)
    } else {
        bound_text::<G>(v)
    }
}

/// `≥ beta` in words: `≥ +0`, or `> -8` for the edge one unit above a whole value.
fn reaches_text<G: Playable>(beta: i32) -> String {
    if beta.abs() < INFINITY && !whole::<G>(beta) && whole::<G>(beta - 1) {
        format!("> {}", score::format::<G>(beta - 1))
    } else {
        format!("≥ {}", bound_text::<G>(beta))
    }
}

/// `≤ alpha` in words: `≤ +0`, or `< +8` for the edge one unit below a whole value.
fn stays_below_text<G: Playable>(alpha: i32) -> String {
    if alpha.abs() < INFINITY && !whole::<G>(alpha) && whole::<G>(alpha + 1) {
        format!("< {}", score::format::<G>(alpha + 1))
    } else {
        format!("≤ {}", bound_text::<G>(alpha))
    }
}

/// Where node `at` lies, in words: `at the root` or `after 1.b2 2.a1`.
fn place_text<G: Playable>(rec: &Recorded<G>, at: u32) -> String {
    if at == 0 {
        "at the root".to_string()
    } else {
        format!("after {}", rec.preview(at).line)
    }
}

/// The move of node `id` in notation (`root` for the root).
fn move_name<G: Playable>(rec: &Recorded<G>, id: u32) -> String {
    let node = rec.tree.nodes.get(id as usize);
    match node.and_then(|n| n.mv) {
        Some(m) => rec.root.format_move(m),
        None if node.is_some_and(|n| n.kind == NodeKind::AspirationFailed) => {
            "the aspiration pass".to_string()
        }
        None if node.is_some_and(|n| n.kind == NodeKind::SingularTest) => {
            format!("the singular test without {}", singular_move_name(rec, id))
        }
        None => "root".to_string(),
    }
}

/// The table move a singular test (node `id`) left out: the row after the test, which
/// searches that move (as `h8`, or `its table move` when the test cut the node off).
pub fn singular_move_name<G: Playable>(rec: &Recorded<G>, id: u32) -> String {
    singular_move(rec, id).map_or_else(
        || "its table move".to_string(),
        |mv| rec.root.format_move(mv),
    )
}

/// The move a singular test (node `id`) left out, when the search went on to it: the test's
/// next sibling.
fn singular_move<G: Playable>(rec: &Recorded<G>, id: u32) -> Option<G::Move> {
    let parent = rec.tree.nodes.get(id as usize)?.parent?;
    let siblings = &rec.tree.nodes.get(parent as usize)?.children;
    let at = siblings.iter().position(|&c| c == id)?;
    rec.tree.nodes.get(*siblings.get(at + 1)? as usize)?.mv
}

/// The side that played the move leading to `node`: its parent's side to move (the other
/// side of `node`'s when the parent is not recorded).
fn mover_of<G: Playable>(rec: &Recorded<G>, node: &TreeNode<G::Move>) -> crate::engine::Player {
    parent_of(rec, node).map_or(node.to_move.other(), |p| p.to_move)
}

/// The node `node` was entered from; `None` at the root.
fn parent_of<'a, G: Playable>(
    rec: &'a Recorded<G>,
    node: &TreeNode<G::Move>,
) -> Option<&'a TreeNode<G::Move>> {
    node.parent.and_then(|p| rec.tree.nodes.get(p as usize))
}

/// Where `owner`'s `value` came from, as a clause: `B can already get +0 with b1 at the
/// root`, or `B is held to +0 by the root's window`.
fn origin_text<G: Playable>(
    rec: &Recorded<G>,
    start: u32,
    owner: crate::engine::Player,
    value: i32,
) -> String {
    let side = G::side_name(owner);
    let value_text = got_text::<G>(value);
    match bound_origin(&rec.tree, start, owner, value) {
        Some((at, child)) => format!(
            "{side} can already get {value_text} with {} {}",
            move_name(rec, child),
            place_text(rec, at)
        ),
        None => format!(
            "the root's window {} already promises {side} {value_text}",
            window_text::<G>(
                rec.tree.nodes.first().map_or(-INFINITY, |r| r.alpha),
                rec.tree.nodes.first().map_or(INFINITY, |r| r.beta)
            )
        ),
    }
}

/// Why node `id` (a lower bound) was cut off, by cause: which line the other side already
/// has, which reply refuted the move, and how many replies were skipped.
pub fn cut_text<G: Playable>(rec: &Recorded<G>, id: u32, node: &TreeNode<G::Move>) -> String {
    let side = node.to_move;
    let other = side.other();
    let refuter = node.children.iter().copied().rfind(|&c| {
        rec.tree
            .nodes
            .get(c as usize)
            .is_some_and(|n| n.kind != NodeKind::Skipped)
    });
    let this = move_name(rec, id);
    let origin = origin_text(rec, id, other, -node.beta);
    let mover = mover_of(rec, node);
    let reply = match refuter.and_then(|c| rec.tree.nodes.get(c as usize).map(|n| (c, n))) {
        Some((c, n)) => format!(
            "{}'s {} {} gives {} {}",
            G::side_name(side),
            if mover == side { "next move" } else { "reply" },
            move_name(rec, c),
            score::format::<G>(value_for(n, side)),
            reaches_text::<G>(node.beta)
        ),
        None => format!(
            "{} gets {} {}",
            G::side_name(side),
            score::format::<G>(node.value),
            reaches_text::<G>(node.beta)
        ),
    };
    let skipped = if node.skipped > 0 {
        format!(": {} skipped", plural(node.skipped, "reply", "replies"))
    } else {
        ": the last reply, nothing skipped".to_string()
    };
    format!(
        "cut-off: {origin}; {reply}, so {} will not play {this}{skipped}",
        G::side_name(mover)
    )
}

/// "high" for a pass whose value reached its beta (a lower bound), else "low".
pub fn failed_side(bound: Bound) -> &'static str {
    if bound == Bound::Lower { "high" } else { "low" }
}

/// The one-line explanation of node `id` of a recorded search: what it is, and what late
/// move pruning and distraction pruning left out of it, if anything.
pub fn explain<G: Playable>(rec: &Recorded<G>, id: u32, node: &TreeNode<G::Move>) -> String {
    let mut text = explain_node(rec, id, node);
    if node.kind == NodeKind::Extended {
        text = format!(
            "singular extension: searched {} deep, one more than its siblings, because the \
             singular test before it found no other move near it. {text}",
            plural(node.depth, "move", "moves")
        );
    }
    if node.distracted > 0 {
        text = format!(
            "{text}. Distraction pruning: {} not searched at all ({} from the horizon, in a \
             null-window test facing {}'s open three or four: {} neither blocked it nor came \
             within four points of the last two stones, and such a move rarely holds)",
            plural(node.distracted, "move was", "moves were"),
            plural(node.depth, "move", "moves"),
            G::side_name(node.to_move.other()),
            if node.distracted == 1 { "it" } else { "they" },
        );
    }
    if node.pruned == 0 {
        return text;
    }
    format!(
        "{text}. Late move pruning: {} not searched at all ({} from the horizon, in a \
         null-window test with no four to answer: the candidates come best first, none of \
         the first ones reached beta, and later ones rarely do)",
        plural(node.pruned, "last candidate was", "last candidates were"),
        plural(node.depth, "move", "moves"),
    )
}

fn explain_node<G: Playable>(rec: &Recorded<G>, id: u32, node: &TreeNode<G::Move>) -> String {
    let value = score::format::<G>(node.value);
    let window = window_text::<G>(node.alpha, node.beta);
    if node.kind == NodeKind::Skipped && rec.gave_up && node.parent == Some(0) {
        return "not searched: minimax gave up at its node budget before it reached this move"
            .to_string();
    }
    if node.kind == NodeKind::Skipped {
        let why = node
            .parent
            .and_then(|p| rec.tree.nodes.get(p as usize).map(|n| (p, n)))
            .map(|(p, parent)| cut_text(rec, p, parent))
            .unwrap_or_default();
        return format!("not searched. {why}");
    }
    if node.tt_hit {
        let stored = match node.bound {
            Bound::Exact => format!("the exact value {value}"),
            Bound::Lower => format!(
                "a lower bound: at least {value}, {} (beta)",
                reaches_text::<G>(node.beta)
            ),
            Bound::Upper => format!(
                "an upper bound: at most {value}, {} (alpha)",
                stays_below_text::<G>(node.alpha)
            ),
        };
        let (searcher, proven) = match node.stored_depth {
            Some(d) if d < node.depth => (
                format!("a depth-{d} search"),
                format!(
                    " (proven: exact at any depth, so it serves this depth-{} node too)",
                    node.depth
                ),
            ),
            Some(d) => (format!("a depth-{d} search"), String::new()),
            None => ("an earlier search".to_string(), String::new()),
        };
        return format!(
            "table cut-off: {searcher} stored {stored}{proven}; enough for the window \
             {window}, so it is not searched again"
        );
    }
    if node.kind == NodeKind::SingularTest {
        return singular_text(rec, id, node);
    }
    if node.kind == NodeKind::AspirationFailed {
        return format!(
            "aspiration pass with the window {window}: it failed {}, so the root was searched \
             again with a wider window (the rows after this one). Its root moves are kept \
             below, their subtrees not",
            failed_side(node.bound)
        );
    }
    if let Some(pass) = parent_of(rec, node).filter(|p| p.kind == NodeKind::AspirationFailed) {
        return format!(
            "searched in the aspiration pass {} that failed: {} {value}; its subtree is not \
             kept",
            window_text::<G>(pass.alpha, pass.beta),
            value_words(node.bound)
        );
    }
    if let Some(text) = quiescence_text(rec, id, node, &value) {
        return text;
    }
    if node.kind == NodeKind::RangeCut {
        return format!(
            "proven without a search: even winning or losing every point still open gives \
             {value}, outside the window {window}"
        );
    }
    if node.kind == NodeKind::FutilityCut {
        return format!(
            "cut on its static value (reverse futility pruning): the evaluation {value} is so \
             far above the window {window}, {} from the horizon, that a search is not \
             expected to fall below it; failed high without one",
            plural(node.depth, "move", "moves")
        );
    }
    if node.parent.is_none() && rec.gave_up {
        return format!(
            "root: minimax gave up at its node budget; this partial tree of {} is what it \
             searched",
            plural(rec.tree.searched_count() as u32, "node", "nodes")
        );
    }
    if node.parent.is_none() && !rec.result.completed {
        return format!(
            "root: {} to move; the search stopped early: best so far {}, value {value}",
            G::side_name(rec.root.to_move()),
            best_text(rec)
        );
    }
    if node.parent.is_none() {
        let best = best_text(rec);
        let how = match node.kind {
            NodeKind::Aspiration => format!(
                " Searched with the aspiration window {window} around the last iteration's \
                 value, and the value fell inside."
            ),
            NodeKind::AspirationRetry => format!(
                " The aspiration window around the last iteration's value failed; this is \
                 the search again with the wider window {window}."
            ),
            NodeKind::NullTest => {
                format!(" The last MTD(f) pass: {window} around the value, to find the exact ties.")
            }
            _ => String::new(),
        };
        return format!(
            "root: {} to move; best {best}, exact value {value}{}. Each value is for the side \
             to move at its node.{how}",
            G::side_name(rec.root.to_move()),
            if rec.result.ties.len() > 1 {
                format!(" ({} moves tie)", rec.result.ties.len())
            } else {
                String::new()
            }
        );
    }
    if node.children.is_empty() {
        let position = rec.preview(id).position;
        if position.outcome().is_some() {
            return format!("game over here: exact value {value}");
        }
        if node.depth == 0 {
            return at_horizon(
                rec,
                id,
                node,
                format!("search horizon: the evaluation, exact value {value}"),
            );
        }
        if rec.tree.truncated || rec.gave_up {
            return "its moves were searched but not recorded (the tree is truncated)".to_string();
        }
        return "not searched: the search was stopped".to_string();
    }
    if rec.settings.algorithm == Algorithm::Minimax {
        return format!("exact value {value}: plain minimax searches every move, no window");
    }
    let this = move_name(rec, id);
    match (node.kind, node.bound) {
        (NodeKind::NullWindow | NodeKind::Reduced, _) => test_text(rec, id, node),
        (NodeKind::ReSearch, bound) => format!(
            "re-search of {this} with the window {window}, after its null-window test said \
             it is better: {} {value}",
            if bound == Bound::Exact {
                "exact value"
            } else {
                "value"
            }
        ),
        (_, Bound::Lower) => cut_text(rec, id, node),
        (_, Bound::Upper) => format!(
            "value {value} {} (alpha): no move here beats what {}, so this is an upper bound",
            stays_below_text::<G>(node.alpha),
            origin_text(rec, id, node.to_move, node.alpha)
                .replace(" can already get ", " already has ")
        ),
        (_, Bound::Exact) => format!("exact value {value} inside the window {window}"),
    }
}

/// The explanation of a null-window test or a reduced late move (`node.kind` one of the
/// two): the question it asks from its mover's side, and the answer.
/// What a singular test found ([`NodeKind::SingularTest`]).
fn singular_text<G: Playable>(rec: &Recorded<G>, id: u32, node: &TreeNode<G::Move>) -> String {
    let table = singular_move_name(rec, id);
    let parent = parent_of(rec, node);
    let depth = parent.map_or(node.depth, |p| p.depth);
    // The test's window is a null window just below its bar.
    let bar = node.beta;
    let margin = crate::engine::full::SINGULAR_MARGIN * depth as i32;
    let question = format!(
        "singular test: this position searched again without its table move {table}, {} \
         deep (about half of its {depth}), to see whether any other move reaches {}, the table's value \
         of {table} ({}) less a margin of {margin}",
        plural(node.depth, "move", "moves"),
        score::format::<G>(bar),
        score::format::<G>(bar + margin),
    );
    let value = score::format::<G>(node.value);
    let answer = if node.value < bar {
        format!(
            "None does ({value}): {table} is the only good move here, so it is searched one \
             move deeper than the others (a singular extension, next row)"
        )
    } else if singular_move(rec, id).is_none() && parent.is_some_and(|p| p.value == bar) {
        format!(
            "Another move does ({value}), and {} is at least beta {}: with {table} two moves \
             would cut off, so the node fails high without searching a move (multi-cut)",
            score::format::<G>(bar),
            score::format::<G>(parent.map_or(bar, |p| p.beta))
        )
    } else {
        format!(
            "Another move does ({value}): {table} is not singular and is searched as usual \
             (next row)"
        )
    };
    format!("{question}. {answer}")
}

fn test_text<G: Playable>(rec: &Recorded<G>, id: u32, node: &TreeNode<G::Move>) -> String {
    let mover = mover_of(rec, node);
    let mover_name = G::side_name(mover);
    let this = move_name(rec, id);
    // The test asks from the mover's side: is the move better than the best so far?
    let (low, got) = if mover == node.to_move {
        (node.alpha, node.value)
    } else {
        (-node.beta, -node.value)
    };
    let answer = if got > low && node.kind == NodeKind::Reduced {
        "Yes, so it is searched again to the full depth (next rows)"
    } else if got > low {
        "Yes, so it is searched again with the full window (next row)"
    } else {
        "No, so it is not searched further"
    };
    // One unit below a whole value is the tie-separating floor: the question is
    // then whether the move reaches that value.
    let question = if window_text::<G>(low, low + 1).starts_with("test ≥") {
        format!(
            "reach {}, as much as the best so far",
            score::format::<G>(low + 1)
        )
    } else {
        format!("beat {}, the best so far", score::format::<G>(low))
    };
    let test = if node.kind == NodeKind::Reduced {
        format!(
            "late move, tested {} {} deep instead of {} (a reduction)",
            node.depth,
            if node.depth == 1 { "move" } else { "moves" },
            parent_of(rec, node).map_or(0, |p| p.depth.saturating_sub(1))
        )
    } else {
        "null-window test".to_string()
    };
    format!(
        "{test} of {this} for {mover_name}: does it {question}? {answer} \
             ({mover_name} gets {})",
        score::format::<G>(got)
    )
}

/// The explanation `horizon` of a node at the search horizon, after the test's when the
/// node is also a null-window test or a reduced late move (a late move one move from the
/// horizon is reduced to it): the row is labelled as the test, and both are what happened.
fn at_horizon<G: Playable>(
    rec: &Recorded<G>,
    id: u32,
    node: &TreeNode<G::Move>,
    horizon: String,
) -> String {
    if matches!(node.kind, NodeKind::NullWindow | NodeKind::Reduced)
        && rec.settings.algorithm != Algorithm::Minimax
    {
        format!(
            "{}. At the {horizon} (for {})",
            test_text(rec, id, node),
            G::side_name(node.to_move)
        )
    } else {
        horizon
    }
}

/// "exact value", "at least" or "at most": how a value of kind `bound` reads before it.
fn value_words(bound: Bound) -> &'static str {
    match bound {
        Bound::Exact => "exact value",
        Bound::Lower => "at least",
        Bound::Upper => "at most",
    }
}

/// The explanation of a node of the quiescence search past the horizon: a forced reply
/// searched there, or the horizon node whose side to move had to answer a threat. `None`
/// for every other node.
fn quiescence_text<G: Playable>(
    rec: &Recorded<G>,
    id: u32,
    node: &TreeNode<G::Move>,
    value: &str,
) -> Option<String> {
    let words = value_words(node.bound);
    if node.kind == NodeKind::Quiescence {
        let mover = mover_of(rec, node);
        let then = if rec.preview(id).position.outcome().is_some() {
            "the game is over here"
        } else if node.children.is_empty() {
            "the position after it is evaluated"
        } else {
            "the threat that follows is answered the same way (rows below)"
        };
        return Some(format!(
            "forced reply past the horizon: {} had to answer a threat, so {} was searched \
             instead of evaluating a position the threat would decide; {then}: {words} {value}",
            G::side_name(mover),
            move_name(rec, id),
        ));
    }
    if node.depth == 0 && !node.children.is_empty() {
        return Some(at_horizon(
            rec,
            id,
            node,
            format!(
                "search horizon, but {} must answer a threat here: only its forced replies \
                 are searched (a quiescence search, rows below), not an evaluation that would \
                 miss the threat; {words} {value}",
                G::side_name(node.to_move),
            ),
        ));
    }
    None
}

/// Whether compared searches agree: alpha-beta (and every refinement) must find the value
/// plain minimax finds, and choose one of the moves minimax rates that high.
pub fn verdict<G: Playable>(trees: &[Recorded<G>]) -> Option<(String, bool)> {
    if trees.iter().any(|r| !r.result.completed && !r.gave_up) {
        return Some(("a search was stopped early: no verdict".to_string(), false));
    }
    let reference = trees
        .iter()
        .find(|r| r.settings.algorithm == Algorithm::Minimax && !r.gave_up);
    let judged: Vec<&Recorded<G>> = trees.iter().filter(|r| !r.gave_up).collect();
    let first = judged.first()?;
    let gave_up = trees
        .iter()
        .find(|r| r.gave_up)
        .map(|r| format!("{} gave up: nothing to compare", r.label));
    let value = first.result.value;
    if judged.iter().any(|r| r.result.value != value) {
        let values: Vec<String> = judged
            .iter()
            .map(|r| format!("{} {}", r.label, score::format::<G>(r.result.value)))
            .collect();
        return Some((format!("the values DISAGREE: {}", values.join(", ")), false));
    }
    let value_text = score::format::<G>(value);
    let mut moves: Vec<G::Move> = Vec::new();
    for r in &judged {
        if let Some(m) = r.result.best
            && !moves.contains(&m)
        {
            moves.push(m);
        }
    }
    let names: Vec<String> = moves.iter().map(|&m| first.root.format_move(m)).collect();
    if let Some(gave_up) = gave_up {
        // Without minimax's answer there is no check; what the others found is still worth
        // saying, but not as agreement.
        return Some((
            format!(
                "{gave_up} (the others chose {}, value {value_text})",
                names.join(", ")
            ),
            true,
        ));
    }
    let what = if judged.len() == 1 {
        "it chooses"
    } else {
        "all choose"
    };
    if moves.len() <= 1 {
        return Some((
            format!(
                "{what} {} with value {value_text}",
                names.first().map_or("no move", String::as_str)
            ),
            true,
        ));
    }
    let Some(reference) = reference else {
        return Some((
            format!(
                "the values agree ({value_text}); the moves differ ({}): equal moves picked at random",
                names.join(", ")
            ),
            true,
        ));
    };
    if let Some(odd) = judged.iter().find(|r| {
        r.result
            .best
            .is_some_and(|m| !reference.result.ties.contains(&m))
    }) {
        let mv = odd
            .result
            .best
            .map(|m| first.root.format_move(m))
            .unwrap_or_default();
        return Some((
            format!(
                "the values agree ({value_text}) but {} chose {mv}, which minimax rates lower",
                odd.label
            ),
            false,
        ));
    }
    Some((
        format!(
            "the values agree ({value_text}); the moves differ ({}) but each is one of the {} \
             moves minimax rates {value_text}: ties broken at random",
            names.join(", "),
            reference.result.ties.len()
        ),
        true,
    ))
}

/// `text` broken into lines of at most `width` characters, at spaces where possible.
pub fn wrap(text: &str, width: u16) -> Vec<String> {
    let width = usize::from(width.max(1));
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let needed = line.chars().count() + usize::from(!line.is_empty()) + word.chars().count();
        if !line.is_empty() && needed > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
        while line.chars().count() > width {
            let head: String = line.chars().take(width).collect();
            let rest: String = line.chars().skip(width).collect();
            lines.push(head);
            line = rest;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_breaks_at_spaces_and_splits_long_words() {
        assert_eq!(wrap("one two three", 7), ["one two", "three"]);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 5), Vec::<String>::new());
    }
}
