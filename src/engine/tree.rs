//! Recording the search tree: the [`SearchObserver`] the search reports to, a zero-cost
//! [`NoopObserver`] for normal play, and the bounded [`TreeRecorder`].

use serde::{Deserialize, Serialize};

use super::Player;

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

    /// The node entered last was answered by the transposition table (its value came from
    /// a stored entry; it has no children).
    #[inline]
    fn tt_hit(&mut self) {}

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
    /// On the principal variation.
    pub on_pv: bool,
    /// The value came from the transposition table (the node was not expanded).
    pub tt_hit: bool,
    /// Children in the order they were searched.
    pub children: Vec<u32>,
}

/// A recorded search tree.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SearchTree<M> {
    /// Every recorded node; index 0 is the root.
    pub nodes: Vec<TreeNode<M>>,
    /// True when the node budget ran out and deeper nodes were not recorded.
    pub truncated: bool,
    /// Nodes the search visited that were not recorded.
    pub unrecorded: u64,
}

impl<M> Default for SearchTree<M> {
    fn default() -> Self {
        Self {
            nodes: Vec::new(),
            truncated: false,
            unrecorded: 0,
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

    /// Number of recorded cut-offs (in alpha-beta a node returns a lower bound exactly when
    /// one of its moves reached beta).
    pub fn cutoffs(&self) -> u64 {
        self.nodes
            .iter()
            .filter(|n| n.bound == Bound::Lower)
            .count() as u64
    }
}

/// Records every node up to a budget.
#[derive(Clone, Debug)]
pub struct TreeRecorder<M> {
    tree: SearchTree<M>,
    stack: Vec<u32>,
    budget: usize,
    /// Nesting depth of nodes entered past the budget (not recorded).
    skipping: u32,
}

impl<M: Copy> TreeRecorder<M> {
    /// A recorder keeping at most `budget` nodes.
    pub fn new(budget: usize) -> Self {
        Self {
            tree: SearchTree::default(),
            stack: Vec::new(),
            budget,
            skipping: 0,
        }
    }

    /// The recorded tree.
    pub fn finish(self) -> SearchTree<M> {
        self.tree
    }
}

impl<M: Copy> SearchObserver<M> for TreeRecorder<M> {
    fn enter(&mut self, mv: Option<M>, depth: u32, to_move: Player, alpha: i32, beta: i32) {
        if self.skipping > 0 || self.tree.nodes.len() >= self.budget {
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
        self.tree.nodes.push(TreeNode {
            parent,
            mv,
            depth,
            to_move,
            alpha,
            beta,
            value: 0,
            bound: Bound::Exact,
            skipped: 0,
            on_pv: false,
            tt_hit: false,
            children: Vec::new(),
        });
        self.stack.push(index);
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

    fn tt_hit(&mut self) {
        if self.skipping > 0 {
            return;
        }
        if let Some(&index) = self.stack.last() {
            self.tree.nodes[index as usize].tt_hit = true;
        }
    }

    fn begin_iteration(&mut self, depth: u32) {
        let _ = depth;
        self.tree = SearchTree::default();
        self.stack.clear();
        self.skipping = 0;
    }
}
