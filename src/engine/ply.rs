//! Scaffolding both searches share ([`super::reference`] and [`super::full`]): the sign rule
//! ([`search_child`]), the static ordering key of a child, and the per-ply buffers with the
//! principal-variation table, made once per search so that no node allocates.
//!
//! The sign rule lives here and only here: after a move, if the side to move is unchanged
//! (an extra turn) the child is searched with the same window and its value kept as is;
//! otherwise the window is negated and swapped and the value negated.

use super::score;
use super::stats::SearchStats;
use super::{Evaluator, Game};

/// The static ordering key of `mv` at `ply`: the value of the position it leads to, from the
/// mover's side (the outcome if the game ends there, else the evaluation, counted in
/// `stats.order_evals`).
pub(crate) fn child_key<G: Game, E: Evaluator<G>>(
    game: &mut G,
    mv: G::Move,
    ply: usize,
    evaluator: &E,
    stats: &mut SearchStats,
) -> i32 {
    let mover = game.to_move();
    let undo = game.play(mv);
    let child = if let Some(outcome) = game.outcome() {
        score::terminal::<G>(outcome, game.to_move(), ply as u32 + 1)
    } else {
        stats.order_evals += 1;
        score::evaluate(evaluator, game)
    };
    let extra_turn = game.to_move() == mover;
    game.undo(mv, undo);
    if extra_turn { child } else { -child }
}

/// Plays `mv`, searches the child with `search(child, alpha, beta, kept_turn)` and takes the
/// move back, applying the sign rule: the one place it lives, shared by every search here.
/// When the side to move is unchanged (an extra turn, `kept_turn`) the child is searched
/// with the same window and its value kept; otherwise the window is negated and swapped and
/// the value negated. Returns the child's value from the mover's side.
#[inline]
pub fn search_child<G: Game>(
    game: &mut G,
    mv: G::Move,
    alpha: i32,
    beta: i32,
    mut search: impl FnMut(&mut G, i32, i32, bool) -> i32,
) -> i32 {
    let mover = game.to_move();
    let undo = game.play(mv);
    let value = if game.to_move() == mover {
        search(game, alpha, beta, true)
    } else {
        -search(game, -beta, -alpha, false)
    };
    game.undo(mv, undo);
    value
}

/// The depth left below a move made `depth` moves from the horizon: one ply less, or two
/// after a move that kept the turn when `count_passes` (the move and the opponent's skipped
/// turn; see [`super::settings::EngineSettings::count_passes`]).
#[inline]
pub(crate) fn child_depth(depth: u32, kept_turn: bool, count_passes: bool) -> u32 {
    if kept_turn && count_passes {
        depth.saturating_sub(2)
    } else {
        depth - 1
    }
}

/// The triangular principal-variation table of a search: line `ply` is the best line found
/// from the node at that ply, built from the line below it whenever a move improves.
#[derive(Debug)]
pub(crate) struct PvTable<M> {
    lines: Vec<Vec<M>>,
}

impl<M> Default for PvTable<M> {
    fn default() -> Self {
        Self { lines: Vec::new() }
    }
}

impl<M: Copy> PvTable<M> {
    /// Makes room for lines up to `ply`.
    pub(crate) fn grow(&mut self, ply: usize) {
        while self.lines.len() <= ply {
            self.lines.push(Vec::new());
        }
    }

    /// The line at `ply` becomes `mv` followed by the line below it.
    #[inline]
    pub(crate) fn update(&mut self, ply: usize, mv: M) {
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        if let Some(child) = tail.first() {
            line.extend_from_slice(child);
        }
    }
}

impl<M> std::ops::Index<usize> for PvTable<M> {
    type Output = Vec<M>;

    fn index(&self, ply: usize) -> &Vec<M> {
        &self.lines[ply]
    }
}

impl<M> std::ops::IndexMut<usize> for PvTable<M> {
    fn index_mut(&mut self, ply: usize) -> &mut Vec<M> {
        &mut self.lines[ply]
    }
}

/// The buffers of every ply of one search: a move list, a list of (ordering key, move) pairs
/// and the principal-variation table. A node takes its ply's lists, fills them and puts them
/// back, so each is allocated once and reused by every node at that ply.
#[derive(Debug)]
pub(crate) struct PlyStack<M, K> {
    /// One move buffer per ply.
    pub(crate) moves: Vec<Vec<M>>,
    /// One (ordering key, move) buffer per ply.
    pub(crate) keyed: Vec<Vec<(K, M)>>,
    /// Triangular principal-variation table: `pv[ply]` is the best line from that ply.
    pub(crate) pv: PvTable<M>,
    /// A spare buffer for [`crate::engine::Game::forced_replies`].
    pub(crate) forced: Vec<M>,
    /// Whether the node at each ply is an expected cut node: a null-window node expected
    /// to fail high (the full engine's late move reductions reduce its late moves more).
    pub(crate) cut: Vec<bool>,
}

impl<M, K> Default for PlyStack<M, K> {
    fn default() -> Self {
        Self {
            moves: Vec::new(),
            keyed: Vec::new(),
            pv: PvTable::default(),
            forced: Vec::new(),
            cut: Vec::new(),
        }
    }
}

impl<M: Copy, K> PlyStack<M, K> {
    /// Makes room for every ply up to `ply`.
    pub(crate) fn ensure(&mut self, ply: usize) {
        while self.moves.len() <= ply {
            self.moves.push(Vec::new());
            self.keyed.push(Vec::new());
            self.cut.push(false);
        }
        self.pv.grow(ply);
    }
}
