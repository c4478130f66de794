//! The recorded search tree as text (an indented tree), JSON (nodes with ids and parent ids,
//! every recorded field) and Graphviz DOT (cut-off nodes dashed, the principal variation
//! bold). Used by `gametree tree` and its tests.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::engine::score::{self, INFINITY, MARGIN_UNIT};
use crate::engine::tree::{Bound, NodeKind, SearchTree, TreeNode};
use crate::engine::{Game, Player, Scoring};

/// One node in the exported form: the move in notation, the window and value as numbers from
/// the side to move's point of view (score units).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportNode {
    /// Index in `nodes`; the root is 0.
    pub id: u32,
    /// The parent's id; `null` for the root.
    pub parent: Option<u32>,
    /// The move that led here in the game's notation; `null` for the root.
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// Moves left to search below this node.
    pub depth: u32,
    /// `first` or `second`: the side to move here.
    pub to_move: Player,
    /// Alpha on entry (`-1000001` stands for minus infinity).
    pub alpha: i32,
    /// Beta on entry (`1000001` stands for plus infinity).
    pub beta: i32,
    /// The value returned.
    pub value: i32,
    /// `exact`, `lower` (a cut-off: value >= beta) or `upper` (value <= alpha).
    pub bound: Bound,
    /// Sibling moves not searched because of a cut-off at this node.
    pub skipped: u32,
    /// Moves left out by late move pruning at this node (its last candidates).
    #[serde(default, skip_serializing_if = "crate::engine::tree::is_zero")]
    pub pruned: u32,
    /// Moves left out by distraction pruning at this node: they neglected the opponent's
    /// threat far from the play.
    #[serde(default, skip_serializing_if = "crate::engine::tree::is_zero")]
    pub distracted: u32,
    /// On the principal variation.
    pub pv: bool,
    /// The value came from the transposition table (the node was not expanded).
    #[serde(default)]
    pub tt_hit: bool,
    /// For a table cut-off: the depth of the search that stored the entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stored_depth: Option<u32>,
    /// What the node was: `search`, `null_window` (a test of a later move), `re_search`
    /// (that move again with the full window), `aspiration` and `aspiration_retry` (the
    /// root's windows), `null_test` (an MTD(f) pass), `range_cut` (proven by the points
    /// still open), `futility_cut` (failed high on its static value), `skipped` (a move a
    /// cut-off made unnecessary; not searched) or `aspiration_failed` (an earlier pass over
    /// the root whose aspiration window failed: a child of the root without a move, its
    /// children that pass's root moves).
    #[serde(default)]
    pub kind: NodeKind,
}

/// A whole exported tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportTree {
    /// Every recorded node, parents before children.
    pub nodes: Vec<ExportNode>,
    /// True when the node budget ran out.
    pub truncated: bool,
    /// Nodes the search visited past the budget.
    pub unrecorded: u64,
}

/// The tree with moves in `game`'s notation (`game` is the root position; notation does not
/// depend on the position in any game here).
pub fn export<G: Game>(game: &G, tree: &SearchTree<G::Move>) -> ExportTree {
    ExportTree {
        nodes: tree
            .nodes
            .iter()
            .enumerate()
            .map(|(id, n)| export_node(game, id, n))
            .collect(),
        truncated: tree.truncated,
        unrecorded: tree.unrecorded,
    }
}

fn export_node<G: Game>(game: &G, id: usize, n: &TreeNode<G::Move>) -> ExportNode {
    ExportNode {
        id: id as u32,
        parent: n.parent,
        mv: n.mv.map(|m| game.format_move(m)),
        depth: n.depth,
        to_move: n.to_move,
        alpha: n.alpha,
        beta: n.beta,
        value: n.value,
        bound: n.bound,
        skipped: n.skipped,
        pruned: n.pruned,
        distracted: n.distracted,
        pv: n.on_pv,
        tt_hit: n.tt_hit,
        stored_depth: n.stored_depth,
        kind: n.kind,
    }
}

/// Writes the JSON form of [`export`] followed by the `extra` fields, one node at a time:
/// building the whole document first cost about 2.6 KB a node (1.7 GB for 633k nodes).
pub fn write_json<G: Game, W: std::io::Write>(
    out: &mut W,
    game: &G,
    tree: &SearchTree<G::Move>,
    extra: &[(&str, serde_json::Value)],
) -> std::io::Result<()> {
    out.write_all(b"{\"nodes\":[")?;
    for (id, node) in tree.nodes.iter().enumerate() {
        if id > 0 {
            out.write_all(b",")?;
        }
        serde_json::to_writer(&mut *out, &export_node(game, id, node))?;
    }
    write!(
        out,
        "],\"truncated\":{},\"unrecorded\":{}",
        tree.truncated, tree.unrecorded
    )?;
    for (key, value) in extra {
        out.write_all(b",")?;
        serde_json::to_writer(&mut *out, key)?;
        out.write_all(b":")?;
        serde_json::to_writer(&mut *out, value)?;
    }
    out.write_all(b"}\n")
}

/// A window bound as text: `-inf` and `+inf` for the open ends, else a score.
pub fn bound_text<G: Game>(v: i32) -> String {
    if v >= INFINITY {
        "+inf".to_string()
    } else if v <= -INFINITY {
        "-inf".to_string()
    } else {
        score::format::<G>(v)
    }
}

/// The score unit of margin games (a window edge one unit off a whole stone or box is a
/// tie-separating edge), `None` for win/loss games.
fn margin_unit<G: Game>() -> Option<i32> {
    (G::SCORING == Scoring::Margin).then_some(MARGIN_UNIT)
}

/// True when `v` is a whole number of stones or boxes (or any win/loss score).
pub fn whole<G: Game>(v: i32) -> bool {
    margin_unit::<G>().is_none_or(|unit| v.rem_euclid(unit) == 0)
}

/// The low edge of a window: `≥+8` when the edge sits one unit below a whole value (the
/// window that separates a tie from a worse move), else the edge itself.
fn low_text<G: Game>(alpha: i32) -> String {
    if alpha > -INFINITY
        && alpha < INFINITY
        && !whole::<G>(alpha)
        && whole::<G>(alpha + 1)
        && !score::is_decisive(alpha)
    {
        format!("≥{}", score::format::<G>(alpha + 1))
    } else {
        bound_text::<G>(alpha)
    }
}

/// The high edge of a window: `≤+8` one unit above a whole value, else the edge itself.
fn high_text<G: Game>(beta: i32) -> String {
    if beta > -INFINITY
        && beta < INFINITY
        && !whole::<G>(beta)
        && whole::<G>(beta - 1)
        && !score::is_decisive(beta)
    {
        format!("≤{}", score::format::<G>(beta - 1))
    } else {
        bound_text::<G>(beta)
    }
}

/// A window as a student reads it, in the game's units: `[-inf, +inf]`, `[+7.50, +8.50]`,
/// `[≥+8, +8.50]` (one unit below a whole value, the tie-separating floor), and a null
/// window as the question it asks: `test >+7?` or `test ≥+8?`.
pub fn window_text<G: Game>(alpha: i32, beta: i32) -> String {
    if alpha > -INFINITY && beta < INFINITY && beta == alpha + 1 {
        if score::is_decisive(beta) || (!whole::<G>(alpha) && whole::<G>(beta)) {
            return format!("test ≥{}?", score::format::<G>(beta));
        }
        return format!("test >{}?", score::format::<G>(alpha));
    }
    format!("[{}, {}]", low_text::<G>(alpha), high_text::<G>(beta))
}

/// What a node kind adds to a node's line (empty for a plain search).
pub fn kind_text(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::Search => "",
        NodeKind::NullWindow => "null-window test",
        NodeKind::ReSearch => "re-search",
        NodeKind::Reduced => "reduced test",
        NodeKind::Aspiration => "aspiration window",
        NodeKind::AspirationRetry => "aspiration re-search",
        NodeKind::NullTest => "MTD(f) test",
        NodeKind::RangeCut => "proven by open points",
        NodeKind::FutilityCut => "cut on its static value",
        NodeKind::Skipped => "not searched",
        NodeKind::Quiescence => "forced reply past the horizon",
        NodeKind::AspirationFailed => "failed aspiration pass",
        NodeKind::SingularTest => "without its table move (the next row), half as deep",
        NodeKind::Extended => "singular extension",
    }
}

/// What kind of value a node returned, in words: `exact`, `lower bound` (a cut-off),
/// `upper bound` (no move beat alpha).
fn bound_words(bound: Bound) -> &'static str {
    match bound {
        Bound::Exact => "exact",
        Bound::Lower => "lower bound",
        Bound::Upper => "upper bound",
    }
}

/// A one-line description of a node (the text format and the TUI share it).
pub fn describe<G: Game>(node: &ExportNode) -> String {
    let name = node_name(node);
    let pv = if node.pv { "*" } else { "" };
    if node.kind == NodeKind::Skipped {
        return format!("{pv}{name}  not searched (skipped by the cut-off above)");
    }
    let mut parts = vec![
        format!("{pv}{name}"),
        format!("value {}", score::format::<G>(node.value)),
        window_text::<G>(node.alpha, node.beta),
        bound_words(node.bound).to_string(),
    ];
    if node.bound == Bound::Lower {
        parts.push(if node.skipped > 0 {
            format!("cut-off, {} moves skipped", node.skipped)
        } else {
            "cut-off".to_string()
        });
    }
    if node.pruned > 0 {
        parts.push(format!("late move pruning, {} moves left out", node.pruned));
    }
    if node.distracted > 0 {
        parts.push(format!(
            "distraction pruning, {} moves left out",
            node.distracted
        ));
    }
    if node.tt_hit {
        parts.push(format!(
            "table cut-off (stored {}{})",
            bound_words(node.bound),
            stored_by(node.stored_depth)
        ));
    }
    let kind = kind_text(node.kind);
    if !kind.is_empty() {
        parts.push(kind.to_string());
    }
    parts.join("  ")
}

/// ", from a depth-5 search" for a table cut-off whose entry's depth is known.
fn stored_by(depth: Option<u32>) -> String {
    depth.map_or_else(String::new, |d| format!(" from a depth-{d} search"))
}

/// A node's name: its move, `root`, `aspiration pass` for a failed pass over the root, or
/// `singular test` for a node searched again without its table move.
fn node_name(node: &ExportNode) -> &str {
    match (&node.mv, node.kind) {
        (Some(mv), _) => mv,
        (None, NodeKind::AspirationFailed) => "aspiration pass",
        (None, NodeKind::SingularTest) => "singular test",
        (None, _) => "root",
    }
}

fn children(tree: &ExportTree) -> Vec<Vec<u32>> {
    let mut children = vec![Vec::new(); tree.nodes.len()];
    for node in &tree.nodes {
        if let Some(list) = node.parent.and_then(|p| children.get_mut(p as usize)) {
            list.push(node.id);
        }
    }
    children
}

/// The indented text form: one node per line, `*` marking the principal variation.
pub fn to_text<G: Game>(tree: &ExportTree) -> String {
    let children = children(tree);
    let mut out = String::new();
    let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
    while let Some((id, indent)) = stack.pop() {
        let Some(node) = tree.nodes.get(id as usize) else {
            continue;
        };
        let _ = writeln!(out, "{}{}", "  ".repeat(indent), describe::<G>(node));
        if let Some(kids) = children.get(id as usize) {
            stack.extend(kids.iter().rev().map(|&c| (c, indent + 1)));
        }
    }
    if tree.truncated {
        let _ = writeln!(
            out,
            "(truncated: {} more nodes were searched but not recorded)",
            tree.unrecorded
        );
    }
    out
}

/// Graphviz DOT: a node per position labelled with move, value and window; cut-off nodes
/// and the edges into them dashed; the principal variation bold.
pub fn to_dot<G: Game>(tree: &ExportTree) -> String {
    let mut out = String::from(
        "digraph search {\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n",
    );
    for node in &tree.nodes {
        let mut label = if node.kind == NodeKind::Skipped {
            format!("{}\\nnot searched", node_name(node))
        } else {
            format!(
                "{}\\n{} {}",
                node_name(node),
                score::format::<G>(node.value),
                window_text::<G>(node.alpha, node.beta)
            )
        };
        let kind = kind_text(node.kind);
        if node.tt_hit {
            let _ = write!(
                label,
                "\\ntable cut-off ({}{})",
                bound_words(node.bound),
                stored_by(node.stored_depth)
            );
        } else if !kind.is_empty() && node.kind != NodeKind::Skipped {
            let _ = write!(label, "\\n{kind}");
        }
        let mut style = Vec::new();
        if node.kind == NodeKind::Skipped {
            style.push("dotted");
        } else if node.bound == Bound::Lower {
            style.push("dashed");
        }
        if node.pv {
            style.push("bold");
        }
        let _ = writeln!(
            out,
            "  n{} [label=\"{}\"{}];",
            node.id,
            label.replace('"', "'"),
            if style.is_empty() {
                String::new()
            } else {
                format!(", style=\"{}\"", style.join(","))
            }
        );
        if let Some(p) = node.parent {
            let _ = writeln!(
                out,
                "  n{p} -> n{}{};",
                node.id,
                if node.pv {
                    " [style=bold]"
                } else if node.bound == Bound::Lower {
                    " [style=dashed]"
                } else {
                    ""
                }
            );
        }
    }
    out.push_str("}\n");
    out
}
