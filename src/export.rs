//! The recorded search tree as text (an indented tree), JSON (nodes with ids and parent ids,
//! every recorded field) and Graphviz DOT (cut-off nodes dashed, the principal variation
//! bold). Used by `gametree tree` and its tests.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::engine::score::{self, INFINITY};
use crate::engine::tree::{Bound, SearchTree, TreeNode};
use crate::engine::{Game, Player};

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
    /// On the principal variation.
    pub pv: bool,
    /// The value came from the transposition table (the node was not expanded).
    #[serde(default)]
    pub tt_hit: bool,
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
        pv: n.on_pv,
        tt_hit: n.tt_hit,
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

/// A one-line description of a node (the text format and the TUI share it).
pub fn describe<G: Game>(node: &ExportNode) -> String {
    let name = node.mv.as_deref().unwrap_or("root");
    let cut = match node.bound {
        Bound::Lower if node.skipped > 0 => format!("  cut-off, {} moves skipped", node.skipped),
        Bound::Lower => "  cut-off".to_string(),
        Bound::Upper => "  fail-low".to_string(),
        Bound::Exact => String::new(),
    };
    format!(
        "{}{name}  value {}  [{}, {}]{cut}",
        if node.pv { "*" } else { "" },
        score::format::<G>(node.value),
        bound_text::<G>(node.alpha),
        bound_text::<G>(node.beta)
    )
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
        let label = format!(
            "{}\\n{} [{}, {}]",
            node.mv.as_deref().unwrap_or("root"),
            score::format::<G>(node.value),
            bound_text::<G>(node.alpha),
            bound_text::<G>(node.beta)
        );
        let mut style = Vec::new();
        if node.bound == Bound::Lower {
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
