//! Sharing a node's moves among the threads: the "young brothers wait" rule (see the module
//! docs of [`super`]). The first move is searched alone; the others are then dealt out, each
//! thread taking the next move not yet taken.
//!
//! The helper threads are started once per search ([`SplitPool::start`]) and wait for work,
//! each with its own searcher (ordering tables and per-ply buffers kept from split to split):
//! a split sends each of them the position and the moves, and collects what they found.
//! (Starting threads for every split cost each split a thread creation per helper, which in
//! short searches took as long as the split saved.)

use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::{Scope, ScopedJoinHandle};

use super::{Control, Searcher};
use crate::engine::settings::EngineSettings;
use crate::engine::stats::SearchStats;
use crate::engine::tree::{NoopObserver, SearchObserver};
use crate::engine::tt::TranspositionTable;
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

/// One split's work for a helper thread.
struct Job<G: Game> {
    position: G,
    moves: Arc<[G::Move]>,
    depth: u32,
    shared: Arc<SplitState>,
    /// Which split it belongs to (see [`SplitPool::next_split`]).
    split: u64,
}

/// What a helper thread did with a [`Job`].
struct Done<M> {
    stats: SearchStats,
    stopped: bool,
    found: Vec<RootResult<M>>,
    split: u64,
}

/// A helper thread: where its jobs go and where its answers come from.
struct Helper<G: Game> {
    jobs: Sender<Job<G>>,
    done: Receiver<Done<G::Move>>,
    /// The split whose job it is working on, if any (as far as the owner has seen: a helper
    /// that has finished but whose answer is not yet read still counts as busy).
    busy: Cell<Option<u64>>,
    /// Answers read early (while looking for an idle helper), until their split collects.
    early: RefCell<Vec<Done<G::Move>>>,
}

/// The helper threads of one search, waiting for splits. Only the thread that owns it (the
/// main searcher) splits; it may split again, deeper, while an earlier split is under way,
/// with the helpers that have finished their share of that one: so a helper is not left
/// idle while the owner searches a large move of its own.
pub(super) struct SplitPool<G: Game> {
    helpers: Vec<Helper<G>>,
    next_split: Cell<u64>,
}

impl<G: Game> SplitPool<G> {
    /// Reads the answers of helpers that have finished, without waiting, and says whether
    /// any helper is free for a new split.
    fn any_idle(&self) -> bool {
        let mut idle = false;
        for helper in &self.helpers {
            if helper.busy.get().is_some()
                && let Ok(done) = helper.done.try_recv()
            {
                helper.busy.set(None);
                helper.early.borrow_mut().push(done);
            }
            idle |= helper.busy.get().is_none();
        }
        idle
    }
}

impl<G: Game> Helper<G> {
    /// Its answer for split `split`: read early, or waited for. `None` when the helper is
    /// gone (it panicked).
    fn collect(&self, split: u64) -> Option<Done<G::Move>> {
        let mut early = self.early.borrow_mut();
        if let Some(i) = early.iter().position(|d| d.split == split) {
            return Some(early.swap_remove(i));
        }
        drop(early);
        // A helper works on one job at a time, and only free helpers get jobs: the next
        // answer on the channel is this split's.
        let done = self.done.recv().ok()?;
        self.busy.set(None);
        Some(done)
    }
}

impl<G: Game> SplitPool<G> {
    /// Starts `count` helper threads in `scope` for a search of `game`. Returns the pool and
    /// the threads' handles: drop the pool (the threads then finish) before joining them.
    pub(super) fn start<'scope, 'env, E: Evaluator<G>>(
        scope: &'scope Scope<'scope, 'env>,
        count: usize,
        game: &'env G,
        (evaluator, settings): (&'env E, &'env EngineSettings),
        table: Option<&'env TranspositionTable>,
        control: &'env Control<'env>,
    ) -> (Self, Vec<ScopedJoinHandle<'scope, ()>>) {
        let mut helpers = Vec::with_capacity(count);
        let mut handles = Vec::with_capacity(count);
        for _ in 0..count {
            let (jobs, job_rx) = channel::<Job<G>>();
            let (done_tx, done) = channel();
            handles.push(scope.spawn(move || {
                let mut observer = NoopObserver;
                let mut worker = Searcher::new(
                    game,
                    (evaluator, settings),
                    &mut observer,
                    table,
                    control,
                    None,
                );
                while let Ok(job) = job_rx.recv() {
                    worker.stopped = false;
                    worker.plies.ensure(job.shared.ply + job.depth as usize + 2);
                    let mut own = job.position;
                    let found = worker.take_moves(&mut own, job.depth, &job.moves, &job.shared);
                    let done = Done {
                        stats: std::mem::take(&mut worker.stats),
                        stopped: worker.stopped,
                        found,
                        split: job.split,
                    };
                    if done_tx.send(done).is_err() {
                        break;
                    }
                }
            }));
            helpers.push(Helper {
                jobs,
                done,
                busy: Cell::new(None),
                early: RefCell::new(Vec::new()),
            });
        }
        (
            Self {
                helpers,
                next_split: Cell::new(0),
            },
            handles,
        )
    }
}

impl<G, E, O> Searcher<'_, G, E, O>
where
    G: Game,
    E: Evaluator<G>,
    O: SearchObserver<G::Move>,
{
    /// Whether a node `depth` moves from the horizon with `moves` moves is worth sharing
    /// among the threads and a helper is free to share it (only the thread that owns the
    /// pool splits; inside a split, with the helpers that have finished their share).
    pub(super) fn can_split(&self, depth: u32, moves: usize) -> bool {
        depth >= PARALLEL_DEPTH && moves > 2 && self.pool.is_some_and(SplitPool::any_idle)
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
        let shared = Arc::new(SplitState {
            next: AtomicUsize::new(1),
            best: AtomicI32::new(best),
            low,
            high,
            ties_on,
            ply,
        });
        let Some(pool) = self.pool else {
            return self.take_moves(game, depth, moves, &shared);
        };
        let split = pool.next_split.get();
        pool.next_split.set(split + 1);
        let shared_moves: Arc<[G::Move]> = Arc::from(moves);
        // The free helpers join; a helper that panicked has dropped its end: its job cannot
        // be sent, and whatever it took counts as unsearched, which only a stop would
        // otherwise cause.
        let mut joined = Vec::with_capacity(pool.helpers.len());
        for helper in &pool.helpers {
            if helper.busy.get().is_some() {
                continue;
            }
            let sent = helper
                .jobs
                .send(Job {
                    position: game.clone(),
                    moves: Arc::clone(&shared_moves),
                    depth,
                    shared: Arc::clone(&shared),
                    split,
                })
                .is_ok();
            if sent {
                helper.busy.set(Some(split));
                joined.push(helper);
            }
        }
        // The pool stays: a helper that finishes its share first may join a split below.
        let mut found = self.take_moves(game, depth, moves, &shared);
        for helper in joined {
            match helper.collect(split) {
                Some(done) => {
                    self.stats.merge_counts(&done.stats);
                    self.stopped |= done.stopped;
                    found.extend(done.found);
                }
                None => self.stopped = true,
            }
        }
        found
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
