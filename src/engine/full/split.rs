//! Sharing a node's moves among the threads: the "young brothers wait" rule (see the module
//! docs of [`super`]). The first move is searched alone; the others are then dealt out, each
//! thread taking the next move not yet taken.

use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

use super::Searcher;
use crate::engine::ordering::OrderingTables;
use crate::engine::tree::{NoopObserver, SearchObserver};
use crate::engine::{Evaluator, Game};

/// The floor of a sibling's window given the best value so far (see [`RootFold::floor`](super::root::RootFold::floor)).
pub(super) fn split_floor(best: i32, low: i32, ties_on: bool) -> i32 {
    if ties_on && best > low {
        best - 1
    } else {
        best.max(low)
    }
}

/// What the threads of a split node share.
struct SplitState {
    /// The next root move to take.
    next: AtomicUsize,
    /// The best value any thread has found.
    best: AtomicI32,
    low: i32,
    high: i32,
    ties_on: bool,
    /// The ply of the node whose moves are shared.
    ply: usize,
}

/// A move a thread of a split searched completely.
pub(super) struct RootResult<M> {
    pub(super) index: usize,
    pub(super) value: i32,
    /// The floor of the window it was searched with.
    pub(super) floor: i32,
    pub(super) pv: Vec<M>,
    pub(super) height: Option<u32>,
}

/// Nodes shallower than this are not split: starting the threads would cost more.
const PARALLEL_DEPTH: u32 = 5;

impl<G, E, O> Searcher<'_, G, E, O>
where
    G: Game,
    E: Evaluator<G>,
    O: SearchObserver<G::Move>,
{
    /// Whether a node `depth` moves from the horizon with `moves` moves is worth sharing
    /// among the threads (only the thread that owns the others splits, and not twice at once).
    pub(super) fn can_split(&self, depth: u32, moves: usize) -> bool {
        !self.workers.is_empty() && depth >= PARALLEL_DEPTH && moves > 2
    }

    /// Searches `moves[1..]` of the node at `ply` on every thread: each thread takes the next
    /// move not yet taken, searched with a floor at (or, for exact root ties, just below) the
    /// best value any thread has found so far, starting from `best`. `(best, low, high,
    /// ties_on)` is the window: `low` the node's alpha, `high` its beta. Returns what each
    /// move searched completely came to, in no particular order; a thread stops taking moves
    /// once some move reached `high`.
    pub(super) fn split(
        &mut self,
        game: &mut G,
        depth: u32,
        ply: usize,
        moves: &[G::Move],
        (best, low, high, ties_on): (i32, i32, i32, bool),
    ) -> Vec<RootResult<G::Move>> {
        let shared = SplitState {
            next: AtomicUsize::new(1),
            best: AtomicI32::new(best),
            low,
            high,
            ties_on,
            ply,
        };
        let (evaluator, settings, table, control) =
            (self.evaluator, self.settings, self.table, self.control);
        let position = game.clone();
        let mut tables = std::mem::take(&mut self.workers);
        let results = std::thread::scope(|scope| {
            let handles: Vec<_> = tables
                .drain(..)
                .map(|ordering| {
                    let (shared, position) = (&shared, &position);
                    scope.spawn(move || {
                        let mut observer = NoopObserver;
                        let mut worker = Searcher::new(
                            position,
                            (evaluator, settings),
                            &mut observer,
                            table,
                            control,
                            None,
                        );
                        worker.ordering = ordering;
                        worker.plies.ensure(ply + depth as usize + 2);
                        let mut own = position.clone();
                        let found = worker.take_moves(&mut own, depth, moves, shared);
                        (worker.ordering, worker.stats, worker.stopped, found)
                    })
                })
                .collect();
            let mut found = self.take_moves(game, depth, moves, &shared);
            for handle in handles {
                // A worker that panicked took its moves with it: they count as unsearched,
                // which only a stop would otherwise cause.
                match handle.join() {
                    Ok((ordering, stats, stopped, more)) => {
                        tables.push(ordering);
                        self.stats.merge_counts(&stats);
                        self.stopped |= stopped;
                        found.extend(more);
                    }
                    Err(_) => self.stopped = true,
                }
            }
            found
        });
        while tables.len() < self.workers_wanted {
            tables.push(OrderingTables::new(game.move_space()));
        }
        self.workers = tables;
        results
    }

    /// The loop of one thread in [`Searcher::split`].
    fn take_moves(
        &mut self,
        game: &mut G,
        depth: u32,
        moves: &[G::Move],
        shared: &SplitState,
    ) -> Vec<RootResult<G::Move>> {
        let ply = shared.ply;
        let mut found = Vec::new();
        loop {
            let best = shared.best.load(Ordering::Relaxed);
            if best >= shared.high || self.stopped {
                break;
            }
            let index = shared.next.fetch_add(1, Ordering::Relaxed);
            let Some(&mv) = moves.get(index) else {
                break;
            };
            let floor = split_floor(best, shared.low, shared.ties_on);
            let value = self.sibling(game, mv, depth, ply, floor, shared.high);
            if self.stopped {
                break;
            }
            self.plies.pv.update(ply, mv);
            found.push(RootResult {
                index,
                value,
                floor,
                pv: self.plies.pv[ply].clone(),
                height: self.height,
            });
            shared.best.fetch_max(value, Ordering::Relaxed);
        }
        found
    }
}
