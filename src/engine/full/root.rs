//! The root: its moves in the order the iterations search them, and one pass over them with
//! a window, folded into one answer that keeps exact ties (see the module docs of
//! [`super`]).

use super::Searcher;
use super::split::split_floor;
use crate::engine::score::INFINITY;
use crate::engine::tree::{Bound, SearchObserver};
use crate::engine::{Evaluator, Game};

/// A root move with what the last iteration learnt about it.
#[derive(Clone, Debug)]
pub(super) struct RootMove<M> {
    pub(super) mv: M,
    /// Its place in move-generation order: ties are listed and picked in this order, so the
    /// choice does not depend on what the table or other threads did to the search order.
    pub(super) order: usize,
    /// The value returned in the last pass (a bound for moves that failed low).
    pub(super) value: i32,
    /// The principal variation starting with `mv` (filled for the best and tied moves).
    pub(super) pv: Vec<M>,
}

/// The root moves folded into one answer, in move order (see [`Searcher::root_pass`]).
struct RootFold {
    low: i32,
    high: i32,
    ties_on: bool,
    /// The best value so far (a bound while it is outside the window).
    best: i32,
    /// `best` came from a move that failed low (it is only an upper bound on that move).
    best_is_upper: bool,
    /// Indexes of the moves with exactly the best value.
    ties: Vec<usize>,
    /// The root's height so far, `None` once a horizon influenced it.
    height: Option<u32>,
    /// The first move (the last iteration's best) was searched completely.
    first_done: bool,
    /// The best move with an exact value, and that value.
    exact_best: Option<(usize, i32)>,
}

impl RootFold {
    /// The window floor of the next sibling: just below an exact best (an equal move then
    /// comes back exact, a worse one fails low: the exact-tie rule), or at it.
    fn floor(&self) -> i32 {
        split_floor(self.best, self.low, self.ties_on)
    }

    /// Adds root move `i`, which came back `value` from a window with floor `floor`.
    fn add<M: Clone>(
        &mut self,
        root: &mut [RootMove<M>],
        i: usize,
        value: i32,
        floor: i32,
        pv: &[M],
        child_height: Option<u32>,
    ) {
        self.first_done |= i == 0;
        self.height = self.height.zip(child_height).map(|(h, c)| h.max(c + 1));
        root[i].value = value;
        // Inside its own window: a true value, not a bound.
        let exact = Bound::of(value, floor.max(self.low), self.high) == Bound::Exact;
        let is_upper = i > 0 && value <= floor.max(self.low);
        // A move that failed low under a floor raised by another thread may equal the best
        // value without being as good: it never displaces a move that reached the value.
        if value > self.best || (value == self.best && self.best_is_upper && !is_upper) {
            self.best = value;
            self.best_is_upper = is_upper;
            root[i].pv.clear();
            root[i].pv.extend_from_slice(pv);
            self.ties.clear();
            self.ties.push(i);
            if exact {
                self.exact_best = Some((i, value));
            }
        } else if value == self.best && exact && self.ties_on {
            root[i].pv.clear();
            root[i].pv.extend_from_slice(pv);
            self.ties.push(i);
        }
    }
}

/// How one pass over the root moves ended.
pub(super) enum RootPass {
    /// Every move searched; the value is exact.
    Done {
        value: i32,
        /// Indexes (into the root moves) of the moves with exactly that value.
        ties: Vec<usize>,
        /// The root's height when proven (see the docs of [`super`]).
        height: Option<u32>,
    },
    /// Every move was at most the window's low end (this fail-soft value): search again
    /// with a lower one.
    FailLow(i32),
    /// A move reached the window's high end (this fail-soft value): search again with a
    /// higher one.
    FailHigh(i32),
    /// Stopped; `best` is the best fully searched move with an exact value, if the first
    /// move (the previous iteration's best) was completed.
    Stopped { best: Option<(usize, i32)> },
}

impl<G, E, O> Searcher<'_, G, E, O>
where
    G: Game,
    E: Evaluator<G>,
    O: SearchObserver<G::Move>,
{
    /// Orders the root moves for the first iteration: the table's move, then static keys.
    pub(super) fn initial_root_moves(&mut self, game: &mut G) -> Vec<RootMove<G::Move>> {
        let tt_move = self
            .table
            .and_then(|t| t.probe(game.hash()))
            .and_then(|e| e.best);
        // Depth 2 asks for static ordering even when the search is one move deep (the root's
        // candidates do not depend on the depth).
        let mut generated = Vec::new();
        self.generate(game, 0, 2, &mut generated);
        let mut moves = self.ordered_moves(game, 0, 2, tt_move);
        if let Some(only) = &self.root_only {
            // The defences, in this ordering where it has them, the others after.
            moves.retain(|m| only.contains(m));
            for &m in only {
                if !moves.contains(&m) {
                    moves.push(m);
                    generated.push(m);
                }
            }
        }
        let root: Vec<RootMove<G::Move>> = moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                order: generated
                    .iter()
                    .position(|&g| g == mv)
                    .unwrap_or(usize::MAX),
                value: -INFINITY,
                pv: Vec::new(),
            })
            .collect();
        self.plies.moves[0] = moves;
        root
    }

    /// One pass over the root moves at `depth` with the window `[low, high]`. With several
    /// threads (and a pass deep enough to be worth it), the first move, the principal
    /// variation, is searched alone, and the others are then shared out among the threads,
    /// each taking the next unsearched move (root splitting).
    pub(super) fn root_pass(
        &mut self,
        game: &mut G,
        depth: u32,
        low: i32,
        high: i32,
        root: &mut [RootMove<G::Move>],
    ) -> RootPass {
        self.stats.nodes += 1;
        self.observer.begin_iteration(depth);
        self.observer.enter(None, depth, game.to_move(), low, high);
        let ties_on = self.settings.random_ties;
        let mut fold = RootFold {
            low,
            high,
            ties_on,
            best: -INFINITY,
            best_is_upper: false,
            ties: Vec::new(),
            height: (self.settings.candidates == 0).then_some(0),
            first_done: false,
            exact_best: None,
        };
        let parallel = self.can_split(depth, root.len());
        let alone = if parallel { 1 } else { root.len() };
        for i in 0..alone {
            let mv = root[i].mv;
            let floor = fold.floor();
            let value = if i == 0 {
                self.child(game, mv, depth, 0, floor, high)
            } else {
                self.sibling(game, mv, depth, 0, floor, high)
            };
            if self.stopped {
                break;
            }
            self.plies.pv.update(0, mv);
            let pv = std::mem::take(&mut self.plies.pv[0]);
            fold.add(root, i, value, floor, &pv, self.height);
            self.plies.pv[0] = pv;
            if fold.best >= high {
                break;
            }
        }
        if parallel && !self.stopped && fold.best < high {
            let moves: Vec<G::Move> = root.iter().map(|r| r.mv).collect();
            let window = (fold.best, fold.low, fold.high, fold.ties_on);
            let mut results = self.split(game, depth, 0, &moves, window);
            results.sort_by_key(|r| r.index);
            for r in &results {
                fold.add(root, r.index, r.value, r.floor, &r.pv, r.height);
            }
        }
        let best = fold.best;
        let bound = Bound::of(best, low, high);
        self.observer.leave(best, bound, 0);
        if self.stopped {
            return RootPass::Stopped {
                best: fold.exact_best.filter(|_| fold.first_done),
            };
        }
        match bound {
            Bound::Upper => RootPass::FailLow(best),
            Bound::Lower => RootPass::FailHigh(best),
            Bound::Exact => RootPass::Done {
                value: best,
                ties: fold.ties,
                height: fold.height,
            },
        }
    }
}

/// Sorts root moves by their last value, best first; stable, so the leader stays first
/// among equals.
pub(super) fn sort_root<M>(root: &mut [RootMove<M>]) {
    root.sort_by_key(|r| std::cmp::Reverse(r.value));
}
