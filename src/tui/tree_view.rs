//! The tree browser's view state: which nodes are open, the rows that are visible, the
//! selection and the scroll offset. Kept apart from the recorded tree (gitui's
//! `filetreelist`): the tree is only read, so one tree can have several views and a
//! 200,000-node tree costs a flag per node, while drawing takes only the rows on screen.

use crate::engine::tree::SearchTree;

/// One visible row: a node and how many levels it lies below the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// Index into [`SearchTree::nodes`].
    pub node: u32,
    /// 0 for the root.
    pub level: u16,
}

/// Expansion, visible rows, selection and scroll of one recorded tree.
///
/// The rows are the open part of the tree in depth-first order; opening or closing a node
/// splices only its own visible descendants in or out. Every method taking `height` keeps
/// the selection inside a list of that many rows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TreeViewState {
    expanded: Vec<bool>,
    rows: Vec<Row>,
    selected: usize,
    offset: usize,
}

fn children<M>(tree: &SearchTree<M>, node: u32) -> &[u32] {
    tree.nodes
        .get(node as usize)
        .map_or(&[][..], |n| n.children.as_slice())
}

impl TreeViewState {
    /// The first view of `tree`: the root open, showing its children, the root selected.
    pub fn new<M>(tree: &SearchTree<M>) -> Self {
        let mut view = Self {
            expanded: vec![false; tree.nodes.len()],
            ..Self::default()
        };
        if let Some(root) = view.expanded.first_mut() {
            *root = true;
        }
        view.rebuild(tree);
        view
    }

    /// The visible rows, top to bottom.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The selected row's index.
    pub fn selected(&self) -> usize {
        self.selected
    }

    /// The selected node, if the tree has any.
    pub fn selected_node(&self) -> Option<u32> {
        self.rows.get(self.selected).map(|r| r.node)
    }

    /// True when `node` is open.
    pub fn is_expanded(&self, node: u32) -> bool {
        self.expanded.get(node as usize).copied().unwrap_or(false)
    }

    /// The first row shown in a list `height` rows tall (drawing and mouse hits agree on it).
    pub fn offset(&self, height: usize) -> usize {
        self.offset
            .min(self.rows.len().saturating_sub(height.max(1)))
    }

    /// The rows below `node` that are visible given the current expansion, in order.
    fn visible_below<M>(&self, tree: &SearchTree<M>, node: u32, level: u16) -> Vec<Row> {
        let mut out = Vec::new();
        if !self.is_expanded(node) {
            return out;
        }
        let mut stack: Vec<Row> = children(tree, node)
            .iter()
            .rev()
            .map(|&c| Row {
                node: c,
                level: level + 1,
            })
            .collect();
        while let Some(row) = stack.pop() {
            out.push(row);
            if self.is_expanded(row.node) {
                stack.extend(children(tree, row.node).iter().rev().map(|&c| Row {
                    node: c,
                    level: row.level + 1,
                }));
            }
        }
        out
    }

    /// Recomputes every row from the expansion, keeping the selected node selected or, when
    /// it is hidden now, its nearest visible ancestor.
    fn rebuild<M>(&mut self, tree: &SearchTree<M>) {
        let keep = self.selected_node();
        self.rows.clear();
        if tree.nodes.is_empty() {
            self.selected = 0;
            return;
        }
        self.rows.push(Row { node: 0, level: 0 });
        let below = self.visible_below(tree, 0, 0);
        self.rows.extend(below);
        self.selected = 0;
        let mut wanted = keep;
        while let Some(node) = wanted {
            if let Some(row) = self.rows.iter().position(|r| r.node == node) {
                self.selected = row;
                break;
            }
            wanted = tree.nodes.get(node as usize).and_then(|n| n.parent);
        }
    }

    /// The end (exclusive) of the visible descendants of row `row`.
    fn subtree_end(&self, row: usize) -> usize {
        let Some(level) = self.rows.get(row).map(|r| r.level) else {
            return row;
        };
        self.rows[row + 1..]
            .iter()
            .position(|r| r.level <= level)
            .map_or(self.rows.len(), |i| row + 1 + i)
    }

    /// Keeps the selected row inside a list `height` rows tall.
    fn follow(&mut self, height: usize) {
        let height = height.max(1);
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + height {
            self.offset = self.selected + 1 - height;
        }
        self.offset = self.offset(height);
    }

    /// Selects row `row` (clamped to the rows there are).
    pub fn select(&mut self, row: usize, height: usize) {
        self.selected = row.min(self.rows.len().saturating_sub(1));
        self.follow(height);
    }

    /// Moves the selection by `delta` rows (a page with `±height`).
    pub fn move_by(&mut self, delta: isize, height: usize) {
        let row = self.selected.saturating_add_signed(delta);
        self.select(row, height);
    }

    /// Selects the last row.
    pub fn select_last(&mut self, height: usize) {
        self.select(self.rows.len().saturating_sub(1), height);
    }

    /// Scrolls the list by `delta` rows without moving the selection (the mouse wheel).
    pub fn scroll(&mut self, delta: isize, height: usize) {
        self.offset = self.offset(height).saturating_add_signed(delta);
        self.offset = self.offset(height);
    }

    fn has_children<M>(tree: &SearchTree<M>, node: u32) -> bool {
        !children(tree, node).is_empty()
    }

    /// Opens the selected node; on an open one, steps to its first child. Returns false
    /// when there was nothing to do (a leaf).
    pub fn expand<M>(&mut self, tree: &SearchTree<M>, height: usize) -> bool {
        let Some(row) = self.rows.get(self.selected).copied() else {
            return false;
        };
        if !Self::has_children(tree, row.node) {
            return false;
        }
        if self.is_expanded(row.node) {
            self.select(self.selected + 1, height);
        } else {
            self.open(tree, self.selected);
        }
        true
    }

    fn open<M>(&mut self, tree: &SearchTree<M>, at: usize) {
        let Some(row) = self.rows.get(at).copied() else {
            return;
        };
        if let Some(flag) = self.expanded.get_mut(row.node as usize) {
            *flag = true;
        }
        let below = self.visible_below(tree, row.node, row.level);
        let after = at + 1;
        self.rows.splice(after..after, below);
    }

    fn close(&mut self, at: usize) {
        let Some(row) = self.rows.get(at).copied() else {
            return;
        };
        if let Some(flag) = self.expanded.get_mut(row.node as usize) {
            *flag = false;
        }
        let end = self.subtree_end(at);
        self.rows.drain(at + 1..end);
        if self.selected > at && self.selected < end {
            self.selected = at;
        } else if self.selected >= end {
            self.selected -= end - at - 1;
        }
    }

    /// Opens a closed node or closes an open one (Enter, a click on the selected row).
    pub fn toggle<M>(&mut self, tree: &SearchTree<M>, height: usize) {
        let Some(row) = self.rows.get(self.selected).copied() else {
            return;
        };
        if self.is_expanded(row.node) {
            self.close(self.selected);
        } else if Self::has_children(tree, row.node) {
            self.open(tree, self.selected);
        }
        self.follow(height);
    }

    /// Closes the selected node if it is open, else selects its parent.
    pub fn collapse_or_parent<M>(&mut self, tree: &SearchTree<M>, height: usize) {
        let Some(row) = self.rows.get(self.selected).copied() else {
            return;
        };
        if self.is_expanded(row.node) && Self::has_children(tree, row.node) {
            self.close(self.selected);
        } else if let Some(parent) = self.rows[..self.selected]
            .iter()
            .rposition(|r| r.level < row.level)
        {
            self.selected = parent;
        }
        self.follow(height);
    }

    /// Opens every node along the principal variation and selects its last node.
    pub fn expand_pv<M>(&mut self, tree: &SearchTree<M>, height: usize) {
        let mut node = 0u32;
        let mut last = None;
        while let Some(n) = tree.nodes.get(node as usize) {
            if !n.on_pv {
                break;
            }
            last = Some(node);
            let next = n
                .children
                .iter()
                .copied()
                .find(|&c| tree.nodes.get(c as usize).is_some_and(|c| c.on_pv));
            let Some(next) = next else {
                break;
            };
            if let Some(flag) = self.expanded.get_mut(node as usize) {
                *flag = true;
            }
            node = next;
        }
        self.rebuild(tree);
        if let Some(row) = last.and_then(|l| self.rows.iter().position(|r| r.node == l)) {
            self.selected = row;
        }
        self.follow(height);
    }

    /// Opens the selected node and everything below it.
    pub fn expand_subtree<M>(&mut self, tree: &SearchTree<M>, height: usize) {
        let Some(row) = self.rows.get(self.selected).copied() else {
            return;
        };
        let mut stack = vec![row.node];
        while let Some(node) = stack.pop() {
            let kids = children(tree, node);
            if !kids.is_empty() {
                if let Some(flag) = self.expanded.get_mut(node as usize) {
                    *flag = true;
                }
                stack.extend_from_slice(kids);
            }
        }
        let end = self.subtree_end(self.selected);
        let below = self.visible_below(tree, row.node, row.level);
        self.rows.splice(self.selected + 1..end, below);
        self.follow(height);
    }

    /// Closes everything but the root, as the tree first opened; the selection moves up to
    /// the root's child it lay under.
    pub fn collapse_all<M>(&mut self, tree: &SearchTree<M>, height: usize) {
        self.expanded.fill(false);
        if let Some(root) = self.expanded.first_mut() {
            *root = true;
        }
        self.rebuild(tree);
        self.follow(height);
    }

    /// Opens every ancestor of `node` and selects it (the guided mode's steps).
    pub fn reveal<M>(&mut self, tree: &SearchTree<M>, node: u32, height: usize) {
        let path = Self::path(tree, node);
        for &ancestor in &path[..path.len().saturating_sub(1)] {
            if let Some(flag) = self.expanded.get_mut(ancestor as usize) {
                *flag = true;
            }
        }
        let keep = self.rows.iter().position(|r| r.node == node);
        if keep.is_none() {
            self.rebuild(tree);
        }
        if let Some(row) = self.rows.iter().position(|r| r.node == node) {
            self.selected = row;
        }
        self.follow(height);
    }

    /// The nodes from the root down to `node`, both included.
    pub fn path<M>(tree: &SearchTree<M>, node: u32) -> Vec<u32> {
        let mut path = vec![node];
        let mut at = node;
        while let Some(parent) = tree.nodes.get(at as usize).and_then(|n| n.parent) {
            // A parent index not below its child would mean a cycle; the recorder never
            // makes one, but a loop here must not hang the UI.
            if parent >= at {
                break;
            }
            path.push(parent);
            at = parent;
        }
        path.reverse();
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Player;
    use crate::engine::tree::{Bound, TreeNode};

    /// A tree from (parent, `on_pv`) pairs in depth-first order; node 0 is the root.
    fn tree(shape: &[(Option<u32>, bool)]) -> SearchTree<u8> {
        let mut nodes: Vec<TreeNode<u8>> = shape
            .iter()
            .enumerate()
            .map(|(i, &(parent, on_pv))| TreeNode {
                parent,
                mv: parent.map(|_| i as u8),
                depth: 0,
                to_move: Player::First,
                alpha: 0,
                beta: 0,
                value: 0,
                bound: Bound::Exact,
                skipped: 0,
                pruned: 0,
                distracted: 0,
                on_pv,
                tt_hit: false,
                stored_depth: None,
                kind: crate::engine::tree::NodeKind::Search,
                children: Vec::new(),
            })
            .collect();
        for i in 0..nodes.len() {
            if let Some(p) = nodes[i].parent {
                nodes[p as usize].children.push(i as u32);
            }
        }
        SearchTree {
            nodes,
            ..SearchTree::default()
        }
    }

    ///        0
    ///    1       4
    ///   2 3    5   7
    ///          6
    fn sample() -> SearchTree<u8> {
        tree(&[
            (None, true),
            (Some(0), false),
            (Some(1), false),
            (Some(1), false),
            (Some(0), true),
            (Some(4), true),
            (Some(5), true),
            (Some(4), false),
        ])
    }

    fn nodes(view: &TreeViewState) -> Vec<u32> {
        view.rows().iter().map(|r| r.node).collect()
    }

    #[test]
    fn opens_at_the_root_children_and_expands_and_collapses() {
        let t = sample();
        let mut v = TreeViewState::new(&t);
        assert_eq!(nodes(&v), [0, 1, 4]);
        v.select(2, 10);
        assert!(v.expand(&t, 10));
        assert_eq!(nodes(&v), [0, 1, 4, 5, 7]);
        // Expanding an open node steps into it.
        assert!(v.expand(&t, 10));
        assert_eq!(v.selected_node(), Some(5));
        // Left on a closed node goes to the parent, then closes it.
        v.collapse_or_parent(&t, 10);
        assert_eq!(v.selected_node(), Some(4));
        v.collapse_or_parent(&t, 10);
        assert_eq!(nodes(&v), [0, 1, 4]);
        // A leaf does not expand.
        v.select(1, 10);
        v.expand(&t, 10);
        v.select(2, 10);
        assert!(!v.expand(&t, 10));
    }

    #[test]
    fn reopening_restores_inner_expansion_and_selection_survives_collapse() {
        let t = sample();
        let mut v = TreeViewState::new(&t);
        v.select(2, 10);
        v.expand_subtree(&t, 10);
        assert_eq!(nodes(&v), [0, 1, 4, 5, 6, 7]);
        v.select(4, 10); // node 6
        v.collapse_all(&t, 10);
        assert_eq!(nodes(&v), [0, 1, 4]);
        assert_eq!(
            v.selected_node(),
            Some(4),
            "the root child above the old selection"
        );
        v.select(0, 10);
        v.toggle(&t, 10);
        assert_eq!(nodes(&v), [0]);
        v.toggle(&t, 10);
        assert_eq!(nodes(&v), [0, 1, 4]);
    }

    #[test]
    fn principal_variation_opens_to_its_end() {
        let t = sample();
        let mut v = TreeViewState::new(&t);
        v.expand_pv(&t, 10);
        assert_eq!(nodes(&v), [0, 1, 4, 5, 6, 7]);
        assert_eq!(v.selected_node(), Some(6));
    }

    #[test]
    fn selection_and_scrolling_stay_in_range() {
        let t = sample();
        let mut v = TreeViewState::new(&t);
        v.select(0, 2);
        v.expand_subtree(&t, 2);
        assert_eq!(v.rows().len(), 8);
        v.move_by(5, 2);
        assert_eq!(v.selected(), 5);
        assert_eq!(v.offset(2), 4, "the selection is the bottom row");
        v.move_by(100, 2);
        assert_eq!(v.selected(), 7);
        v.move_by(-100, 2);
        assert_eq!((v.selected(), v.offset(2)), (0, 0));
        v.scroll(100, 2);
        assert_eq!(v.offset(2), 6);
        assert_eq!(v.selected(), 0, "the wheel does not move the selection");
        v.select_last(3);
        assert_eq!(v.selected(), 7);
        // Closing a node above the selection keeps the same node selected.
        v.select(3, 3); // node 3
        v.select(1, 3);
        v.toggle(&t, 3);
        assert_eq!(nodes(&v), [0, 1, 4, 5, 6, 7]);
    }

    #[test]
    fn empty_trees_are_harmless() {
        let t = tree(&[]);
        let mut v = TreeViewState::new(&t);
        assert!(v.rows().is_empty());
        assert_eq!(v.selected_node(), None);
        v.move_by(3, 5);
        v.expand_pv(&t, 5);
        v.expand_subtree(&t, 5);
        v.collapse_or_parent(&t, 5);
        assert!(!v.expand(&t, 5));
        assert_eq!(TreeViewState::path(&t, 0), [0]);
    }

    #[test]
    fn paths_run_from_the_root() {
        assert_eq!(TreeViewState::path(&sample(), 6), [0, 4, 5, 6]);
    }
}
