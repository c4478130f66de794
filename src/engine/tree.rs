//! Recording the search tree: the [`SearchObserver`] the search reports to, a zero-cost
//! [`NoopObserver`] for normal play, and the bounded [`TreeRecorder`].

use serde::{Deserialize, Serialize};

use super::result::SearchResult;
use super::{Game, Player};

/// What kind of value a node returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    /// The true value (it fell strictly inside the window).
    Exact,
    /// A lower bound: a move reached beta and the rest were cut off.
    Lower,
    /// An upper bound: no move beat alpha.
    Upper,
}

impl Bound {
    /// The kind of a fail-soft `value` returned from the window `[alpha, beta]`: a lower
    /// bound at or above beta, an upper bound at or below alpha, else exact.
    #[inline]
    pub fn of(value: i32, alpha: i32, beta: i32) -> Self {
        if value >= beta {
            Self::Lower
        } else if value <= alpha {
            Self::Upper
        } else {
            Self::Exact
        }
    }
}

/// What a recorded node was, beyond a plain visit: the full engine's refinements label the
/// nodes they make (a null-window test and its re-search, aspiration windows, table and
/// proven cut-offs), and the skipped moves of a cut-off are added as nodes of their own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    /// A node searched with the window its parent gave it.
    #[default]
    Search,
    /// Principal variation search's null-window test of a later move: "is it better than
    /// the best so far?" (only a bound comes back).
    NullWindow,
    /// The same move searched again with the full window after its null-window test said
    /// it is better.
    ReSearch,
    /// A late move of a playing search tested first with a null window two or more plies
    /// shallower (late move reductions): only if it beats the best so far is it searched
    /// again to the full depth.
    Reduced,
    /// The root searched with a narrow aspiration window around the last iteration's value.
    Aspiration,
    /// The root searched again with a wider window after the aspiration window failed.
    AspirationRetry,
    /// The root searched with an MTD(f) null-window test (exact solving).
    NullTest,
    /// Cut off by the points still to be won: the whole range lies outside the window, so
    /// the value is proven without a search.
    RangeCut,
    /// Cut off by its static value (reverse futility pruning, a playing search's null-window
    /// test near the horizon): the evaluation was so far above beta that a search was not
    /// expected to fall below it, so the node failed high without one.
    FutilityCut,
    /// Not searched: a cut-off at its parent made it unnecessary (added after the search).
    Skipped,
    /// A forced reply searched past the horizon (a quiescence search): at the horizon the
    /// side to move had to answer a threat (Gomoku: block a four), so its forced replies
    /// were searched instead of evaluating a position whose threat would decide it.
    Quiescence,
    /// A singular test (a playing search's node far from the horizon): the parent's own
    /// position searched without its table move (the move shown), at half the parent's
    /// depth, with a null window just below the table's value of that move less a margin.
    /// Its children are the parent's other moves. If it stays below, the table's move is
    /// the only good one and is searched one ply deeper ([`NodeKind::Extended`]); if it
    /// reaches the window and that is at least the parent's beta, the parent fails high
    /// without searching a move (multi-cut).
    SingularTest,
    /// The table's move of a node whose singular test found it singular, searched one ply
    /// deeper than its siblings (a singular extension).
    Extended,
    /// An aspiration pass over the root whose value fell outside its window (a child of the
    /// root, before the pass that followed it; no move). Its children are that pass's root
    /// moves, with their values; their own subtrees are not kept.
    AspirationFailed,
}

/// Receives the search's walk through the tree. Every method defaults to nothing, so an
/// observer that records nothing compiles away.
pub trait SearchObserver<M> {
    /// Whether this observer records anything. A recording search runs on one thread, so
    /// that the record is the whole search and not one thread's share of it.
    const RECORDS: bool = true;

    /// A node is entered by playing `mv` (`None` at the root), with `depth` moves left,
    /// `to_move` to play and the window `[alpha, beta]` (from `to_move`'s point of view).
    #[inline]
    fn enter(&mut self, mv: Option<M>, depth: u32, to_move: Player, alpha: i32, beta: i32) {
        let _ = (mv, depth, to_move, alpha, beta);
    }

    /// The node entered last returns `value` of kind `bound`; `skipped` sibling moves of its
    /// children were not searched because of a cut-off at this node.
    #[inline]
    fn leave(&mut self, value: i32, bound: Bound, skipped: u32) {
        let _ = (value, bound, skipped);
    }

    /// The next node entered is of this kind (the full engine's refinements label their
    /// nodes before searching them).
    #[inline]
    fn label_next(&mut self, kind: NodeKind) {
        let _ = kind;
    }

    /// The node entered last was cut off by the points still to be won.
    #[inline]
    fn range_cut(&mut self) {}

    /// The node entered last failed high on its static value (reverse futility pruning).
    #[inline]
    fn futility_cut(&mut self) {}

    /// The node entered last left its last `count` moves unsearched (late move pruning).
    #[inline]
    fn pruned(&mut self, count: u32) {
        let _ = count;
    }

    /// The node entered last left out `count` moves that neglected a threat far from the
    /// play (distraction pruning, [`crate::engine::Neglect::is_distraction`]).
    #[inline]
    fn distracted(&mut self, count: u32) {
        let _ = count;
    }

    /// The node entered last was answered by the transposition table (its value came from
    /// an entry stored by a search `stored_depth` moves deep; it has no children).
    #[inline]
    fn tt_hit(&mut self, stored_depth: u32) {
        let _ = stored_depth;
    }

    /// An iterative-deepening search starts the iteration to `depth`. A recorder keeps only
    /// the last iteration's tree, which is the one the answer comes from.
    #[inline]
    fn begin_iteration(&mut self, depth: u32) {
        let _ = depth;
    }
}

/// Records nothing; the search with it runs as fast as one without any observer.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoopObserver;

impl<M> SearchObserver<M> for NoopObserver {
    const RECORDS: bool = false;
}

/// One recorded node.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TreeNode<M> {
    /// Index of the parent in [`SearchTree::nodes`]; `None` for the root.
    pub parent: Option<u32>,
    /// The move that led here; `None` for the root.
    pub mv: Option<M>,
    /// Moves left to search below this node.
    pub depth: u32,
    /// Side to move here.
    pub to_move: Player,
    /// Window on entry, from `to_move`'s point of view.
    pub alpha: i32,
    /// Window on entry, from `to_move`'s point of view.
    pub beta: i32,
    /// Value returned, from `to_move`'s point of view.
    pub value: i32,
    /// Kind of the value.
    pub bound: Bound,
    /// Moves not searched because of a cut-off here.
    pub skipped: u32,
    /// Moves left out by late move pruning here (the last of its candidates).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pruned: u32,
    /// Moves left out by distraction pruning here: they neglected the opponent's threat far
    /// from the play ([`crate::engine::Neglect::is_distraction`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub distracted: u32,
    /// On the principal variation.
    pub on_pv: bool,
    /// The value came from the transposition table (the node was not expanded).
    pub tt_hit: bool,
    /// For a table cut-off: the depth of the search that stored the entry (this node's
    /// depth, or less for a proven value).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stored_depth: Option<u32>,
    /// What the node was (a plain search, a null-window test, a skipped move...).
    #[serde(default)]
    pub kind: NodeKind,
    /// Children in the order they were searched.
    pub children: Vec<u32>,
}

/// A recorded search tree.
impl<M> TreeNode<M> {
    /// A node as it is opened: its window, no value yet, no cut-off or table hit, no
    /// children.
    pub fn opened(
        parent: Option<u32>,
        mv: Option<M>,
        depth: u32,
        to_move: Player,
        (alpha, beta): (i32, i32),
        kind: NodeKind,
    ) -> Self {
        Self {
            parent,
            mv,
            depth,
            to_move,
            alpha,
            beta,
            value: 0,
            bound: Bound::Exact,
            skipped: 0,
            pruned: 0,
            distracted: 0,
            on_pv: false,
            tt_hit: false,
            stored_depth: None,
            kind,
            children: Vec::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchTree<M> {
    /// Every recorded node; index 0 is the root.
    pub nodes: Vec<TreeNode<M>>,
    /// True when the node budget ran out and deeper nodes were not recorded.
    pub truncated: bool,
    /// Nodes the search visited that were not recorded.
    pub unrecorded: u64,
    /// The recorder's node budget (0 when unknown): a limit, not a count.
    pub budget: usize,
    /// The tree is of an iteration (a pass over the root moves) that was stopped before it
    /// finished, not of the completed iteration the answer came from: a timed search ran out
    /// of time in it, and it was the only tree to show. Its depth is the root's.
    pub unfinished: bool,
}

impl<M> Default for SearchTree<M> {
    fn default() -> Self {
        Self {
            nodes: Vec::new(),
            truncated: false,
            unrecorded: 0,
            budget: 0,
            unfinished: false,
        }
    }
}

impl<M: Copy + PartialEq> SearchTree<M> {
    /// Marks the nodes along `pv` (from the root) as the principal variation.
    pub fn mark_pv(&mut self, pv: &[M]) {
        let Some(root) = self.nodes.first_mut() else {
            return;
        };
        root.on_pv = true;
        let mut at = 0usize;
        for &mv in pv {
            let next = self.nodes[at]
                .children
                .iter()
                .copied()
                .find(|&c| self.nodes[c as usize].mv == Some(mv));
            match next {
                Some(child) => {
                    at = child as usize;
                    self.nodes[at].on_pv = true;
                }
                None => break,
            }
        }
    }

    /// Number of nodes the search visited and recorded (the skipped moves added after it
    /// are not counted).
    pub fn searched_count(&self) -> usize {
        self.nodes
            .iter()
            .filter(|n| n.kind != NodeKind::Skipped)
            .count()
    }

    /// Adds the moves a cut-off skipped as nodes of kind [`NodeKind::Skipped`] (appended,
    /// after the searched children of their parent), so they can be shown and selected.
    /// `root` is the searched position. A node gets them only when its searched moves and
    /// the skipped count add up to its legal moves (so a node whose moves were limited to
    /// candidates, or whose children were not all recorded, gets none). At most `limit`
    /// nodes are added, the cut-offs nearest the root first (a Gomoku cut-off can skip
    /// two hundred moves).
    pub fn add_skipped<G: Game<Move = M>>(&mut self, root: &G, limit: usize) {
        let mut cut: Vec<u32> = (0..self.nodes.len() as u32)
            .filter(|&i| {
                let n = &self.nodes[i as usize];
                n.skipped > 0
                    && !n.children.is_empty()
                    && !matches!(n.kind, NodeKind::Skipped | NodeKind::AspirationFailed)
            })
            .collect();
        cut.sort_by_key(|&i| std::cmp::Reverse(self.nodes[i as usize].depth));
        let mut room = limit;
        let mut moves = Vec::new();
        for id in cut {
            if room < self.nodes[id as usize].skipped as usize {
                continue;
            }
            let mut path = Vec::new();
            let mut at = id;
            while let Some(node) = self.nodes.get(at as usize) {
                match (node.parent, node.mv) {
                    (Some(parent), Some(mv)) if parent < at => {
                        path.push(mv);
                        at = parent;
                    }
                    _ => break,
                }
            }
            let mut position = root.clone();
            for &mv in path.iter().rev() {
                position.play(mv);
            }
            position.legal_moves(&mut moves);
            let node = &self.nodes[id as usize];
            let searched: Vec<M> = node
                .children
                .iter()
                .filter_map(|&c| self.nodes.get(c as usize).and_then(|n| n.mv))
                .collect();
            let unsearched: Vec<M> = moves
                .iter()
                .copied()
                .filter(|m| !searched.contains(m))
                .collect();
            if unsearched.len() != node.skipped as usize {
                continue;
            }
            room -= unsearched.len();
            for mv in unsearched {
                self.add_unsearched(id, &position, mv);
            }
        }
    }

    /// Adds `mv`, played from `position` (node `parent`'s), as a child of `parent` of kind
    /// [`NodeKind::Skipped`].
    fn add_unsearched<G: Game<Move = M>>(&mut self, parent: u32, position: &G, mv: M) {
        let Some(depth) = self.nodes.get(parent as usize).map(|p| p.depth) else {
            return;
        };
        let mut child = position.clone();
        child.play(mv);
        let index = self.nodes.len() as u32;
        self.nodes.push(TreeNode::opened(
            Some(parent),
            Some(mv),
            depth.saturating_sub(1),
            child.to_move(),
            (0, 0),
            NodeKind::Skipped,
        ));
        self.nodes[parent as usize].children.push(index);
    }

    /// Adds the root moves of `root` that the search never reached (it was stopped, say a
    /// minimax that gave up at its node budget) as nodes of kind [`NodeKind::Skipped`]
    /// after the root's searched children, so the tree shows every root move. A plain
    /// minimax root has no cut-off, so its skipped moves are exactly these.
    pub fn add_unreached_root_moves<G: Game<Move = M>>(&mut self, root: &G) {
        let Some(root_node) = self.nodes.first() else {
            return;
        };
        let reached: Vec<M> = root_node
            .children
            .iter()
            .filter_map(|&c| self.nodes.get(c as usize).and_then(|n| n.mv))
            .collect();
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        for mv in moves.into_iter().filter(|m| !reached.contains(m)) {
            self.add_unsearched(0, root, mv);
        }
    }

    /// Number of recorded cut-offs (in alpha-beta a node returns a lower bound exactly when
    /// one of its moves reached beta).
    pub fn cutoffs(&self) -> u64 {
        self.nodes
            .iter()
            .filter(|n| n.bound == Bound::Lower && n.kind != NodeKind::Skipped)
            .count() as u64
    }
}

/// Records every node up to a budget. The root's children are recorded even past the
/// budget (only their subtrees are dropped), so every root move is in the tree.
#[derive(Clone, Debug)]
pub struct TreeRecorder<M> {
    tree: SearchTree<M>,
    /// The last tree of an earlier pass whose root returned an exact value: the completed
    /// iteration an answer comes from when the pass after it is stopped.
    completed: Option<SearchTree<M>>,
    stack: Vec<u32>,
    budget: usize,
    /// Nesting depth of nodes entered past the budget (not recorded).
    skipping: u32,
    /// The kind of the next node entered.
    next_kind: NodeKind,
    /// Root rows of this iteration's failed aspiration passes, each a failed root with its
    /// children (no deeper nodes), to be kept under the next pass's root.
    failed: Vec<Vec<TreeNode<M>>>,
}

impl<M: Copy + PartialEq> TreeRecorder<M> {
    /// A recorder keeping at most `budget` nodes (plus the root's children).
    pub fn new(budget: usize) -> Self {
        Self {
            tree: Self::empty(budget),
            completed: None,
            stack: Vec::new(),
            budget,
            skipping: 0,
            next_kind: NodeKind::Search,
            failed: Vec::new(),
        }
    }

    fn empty(budget: usize) -> SearchTree<M> {
        SearchTree {
            budget,
            ..SearchTree::default()
        }
    }

    /// The tree of the last pass over the root, as recorded.
    pub fn finish(self) -> SearchTree<M> {
        self.tree
    }

    /// The tree `result` comes from, its principal variation marked: the last pass when its
    /// root value and depth are the answer's; else the last completed iteration when they
    /// are its (a timed search stopped in the next one); else the last pass, marked
    /// [`SearchTree::unfinished`] when the search was stopped (say, in an iteration whose
    /// better move the answer took).
    pub fn finish_for(self, result: &SearchResult<M>) -> SearchTree<M> {
        let answers = |tree: &SearchTree<M>| {
            tree.nodes.first().is_some_and(|root| {
                root.depth == result.stats.depth
                    && root.value == result.value
                    && root.bound == Bound::Exact
            })
        };
        let mut tree = if answers(&self.tree) {
            self.tree
        } else if let Some(completed) = self.completed.filter(|t| answers(t)) {
            completed
        } else {
            let mut last = self.tree;
            last.unfinished = !result.completed;
            last
        };
        tree.mark_pv(&result.pv);
        tree
    }
}

impl<M: Copy + PartialEq> TreeRecorder<M> {
    /// Adds this iteration's failed aspiration passes under the root just entered, each as
    /// an [`NodeKind::AspirationFailed`] node with its root rows.
    fn keep_failed_passes(&mut self) {
        for pass in std::mem::take(&mut self.failed) {
            let base = self.tree.nodes.len() as u32;
            for (i, mut node) in pass.into_iter().enumerate() {
                if i == 0 {
                    node.parent = Some(0);
                    node.kind = NodeKind::AspirationFailed;
                    for child in &mut node.children {
                        *child += base;
                    }
                    self.tree.nodes[0].children.push(base);
                } else {
                    node.parent = Some(base);
                }
                self.tree.nodes.push(node);
            }
        }
    }

    /// The node entered last, if it is being recorded (not past the budget).
    fn entered_last(&mut self) -> Option<&mut TreeNode<M>> {
        if self.skipping > 0 {
            return None;
        }
        let &index = self.stack.last()?;
        self.tree.nodes.get_mut(index as usize)
    }

    /// Gives the node entered last a new kind (it was cut without a search).
    fn relabel(&mut self, kind: NodeKind) {
        if let Some(node) = self.entered_last() {
            node.kind = kind;
        }
    }
}

/// A pass's root and its children (the root moves), renumbered 0, 1, 2...: the children
/// lose their own children.
fn root_rows<M: Copy>(tree: &SearchTree<M>) -> Vec<TreeNode<M>> {
    let Some(root) = tree.nodes.first() else {
        return Vec::new();
    };
    let children: Vec<TreeNode<M>> = root
        .children
        .iter()
        .filter_map(|&c| tree.nodes.get(c as usize))
        .map(|child| TreeNode {
            parent: Some(0),
            children: Vec::new(),
            ..child.clone()
        })
        .collect();
    let mut rows = vec![TreeNode {
        children: (1..=children.len() as u32).collect(),
        ..root.clone()
    }];
    rows.extend(children);
    rows
}

impl<M: Copy + PartialEq> SearchObserver<M> for TreeRecorder<M> {
    fn enter(&mut self, mv: Option<M>, depth: u32, to_move: Player, alpha: i32, beta: i32) {
        // A root move is kept past the budget (the stack holds just the root then).
        let root_move = self.stack.len() == 1;
        let kind = std::mem::take(&mut self.next_kind);
        if self.skipping > 0 || (self.tree.nodes.len() >= self.budget && !root_move) {
            self.skipping += 1;
            self.tree.truncated = true;
            self.tree.unrecorded += 1;
            return;
        }
        let index = self.tree.nodes.len() as u32;
        let parent = self.stack.last().copied();
        if let Some(p) = parent {
            self.tree.nodes[p as usize].children.push(index);
        }
        self.tree.nodes.push(TreeNode::opened(
            parent,
            mv,
            depth,
            to_move,
            (alpha, beta),
            kind,
        ));
        self.stack.push(index);
        if parent.is_none() {
            self.keep_failed_passes();
        }
    }

    fn leave(&mut self, value: i32, bound: Bound, skipped: u32) {
        if self.skipping > 0 {
            self.skipping -= 1;
            return;
        }
        if let Some(index) = self.stack.pop() {
            let node = &mut self.tree.nodes[index as usize];
            node.value = value;
            node.bound = bound;
            node.skipped = skipped;
        }
    }

    fn label_next(&mut self, kind: NodeKind) {
        self.next_kind = kind;
    }

    fn range_cut(&mut self) {
        self.relabel(NodeKind::RangeCut);
    }

    fn futility_cut(&mut self) {
        self.relabel(NodeKind::FutilityCut);
    }

    fn pruned(&mut self, count: u32) {
        if let Some(node) = self.entered_last() {
            node.pruned = count;
        }
    }

    fn distracted(&mut self, count: u32) {
        if let Some(node) = self.entered_last() {
            node.distracted = count;
        }
    }

    fn tt_hit(&mut self, stored_depth: u32) {
        if let Some(node) = self.entered_last() {
            node.tt_hit = true;
            node.stored_depth = Some(stored_depth);
        }
    }

    fn begin_iteration(&mut self, depth: u32) {
        let previous = std::mem::replace(&mut self.tree, Self::empty(self.budget));
        let root = previous.nodes.first();
        let finished = self.stack.is_empty() && root.is_some_and(|root| root.bound == Bound::Exact);
        let failed_aspiration = self.stack.is_empty()
            && root.is_some_and(|root| {
                root.depth == depth
                    && root.bound != Bound::Exact
                    && matches!(root.kind, NodeKind::Aspiration | NodeKind::AspirationRetry)
            });
        if failed_aspiration {
            self.failed.push(root_rows(&previous));
        } else {
            self.failed.clear();
        }
        if finished {
            self.completed = Some(previous);
        }
        self.stack.clear();
        self.skipping = 0;
    }
}

/// For serde: a count of 0 is left out of the JSON (`skip_serializing_if` passes a
/// reference).
#[allow(clippy::trivially_copy_pass_by_ref)]
pub(crate) fn is_zero(n: &u32) -> bool {
    *n == 0
}
