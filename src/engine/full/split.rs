//! Sharing a node's moves among the threads: the "young brothers wait" rule (see the module
//! docs of [`super`]). The first move is searched alone; the others are then dealt out, each
//! thread taking the next move not yet taken.
//!
//! A split publishes a [`SplitPoint`] (the position, the moves, the window) in the pool,
//! where any thread with nothing to do joins it: an idle helper joins any open split point;
//! a thread that has taken the last move of its own split point and waits for the others to
//! finish theirs (the "helpful master" of Crafty and older Stockfish) joins only split
//! points below its own, whose work it is waiting for anyway, and keeps the progress
//! reports going. Every thread splits, helpers too, whenever some thread waits: so a thread
//! left alone with a large subtree shares it, instead of the others idling until it is done.
//! A split point that cuts off ends the work still going on below it: its threads see the
//! cut at their next poll and give up their moves, whose values nobody needs.
//!
//! The helper threads are started once per search ([`SplitPool::serve`]), each with its own
//! searcher (ordering tables and per-ply buffers kept from split to split).

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

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

/// Nodes shallower than this are not split: sharing them would cost more than it saves.
const PARALLEL_DEPTH: u32 = 5;

/// The longest a waiting thread sleeps before it looks again for work, for a stop and (on
/// the main thread) to report progress. A wake-up normally comes first.
const WAIT: Duration = Duration::from_millis(5);

/// A node whose moves the threads share, open to any thread that comes to help.
pub(super) struct SplitPoint<G: Game> {
    position: G,
    moves: Vec<G::Move>,
    depth: u32,
    state: SplitState,
    /// The owner's [`Searcher::ply_limit`], which the helpers keep too.
    ply_limit: usize,
    /// The split point its owner was working for when it split; `None` for a split made
    /// outside any other.
    parent: Option<Arc<SplitPoint<G>>>,
    /// Threads working on it, the owner included. Changed only under the pool's lock.
    workers: AtomicUsize,
    /// What the threads other than the owner found, and their counters.
    gathered: Mutex<Gathered<G::Move>>,
}

/// The work of a split point's helping threads, for its owner.
struct Gathered<M> {
    found: Vec<RootResult<M>>,
    stats: SearchStats,
}

impl<M> Default for Gathered<M> {
    fn default() -> Self {
        Self {
            found: Vec::new(),
            stats: SearchStats::default(),
        }
    }
}

impl<G: Game> SplitPoint<G> {
    /// Some move reached the window's top: the node cuts off.
    fn cut(&self) -> bool {
        self.state.best.load(Ordering::Relaxed) >= self.state.high
    }

    /// Whether a thread that joined now would find a move to take.
    fn open(&self) -> bool {
        !self.cut() && self.state.next.load(Ordering::Relaxed) < self.moves.len()
    }

    /// Whether `ancestor` is a split point above this one.
    fn descends_from(&self, ancestor: &Arc<Self>) -> bool {
        let mut point = self.parent.as_ref();
        while let Some(p) = point {
            if Arc::ptr_eq(p, ancestor) {
                return true;
            }
            point = p.parent.as_ref();
        }
        false
    }
}

/// Whether `point` or a split point above it has cut off: work for it is no longer needed.
fn cut_above<G: Game>(mut point: Option<&Arc<SplitPoint<G>>>) -> bool {
    while let Some(p) = point {
        if p.cut() {
            return true;
        }
        point = p.parent.as_ref();
    }
    false
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A thread that panicked holding the lock left consistent data (a list, counters).
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The split points of one search and the threads that wait for work in them.
pub(super) struct SplitPool<G: Game> {
    /// The split points still open to helpers.
    open: Mutex<Vec<Arc<SplitPoint<G>>>>,
    /// Woken when a split point opens, a thread leaves one, or the pool closes.
    wake: Condvar,
    /// Threads waiting for work: idle helpers, and owners waiting for their split's helpers.
    waiting: AtomicUsize,
    /// The search is over: the helpers return.
    closed: AtomicBool,
    /// A helper panicked: its moves are lost, so the search stops as on a stop request.
    broken: AtomicBool,
    /// Nodes the helpers searched that the main thread's counters do not have yet.
    in_flight: AtomicU64,
}

/// On the way out of a scope (a panic included): closes the pool, so that its helpers return
/// and the scope that started them can end.
pub(super) struct CloseOnDrop<'p, G: Game>(pub(super) &'p SplitPool<G>);

impl<G: Game> Drop for CloseOnDrop<'_, G> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// Leaves a joined split point even when the search of its moves panics, so that its owner
/// does not wait forever; a panic also marks the pool broken (the search then stops).
struct Leave<'p, G: Game> {
    pool: &'p SplitPool<G>,
    point: &'p SplitPoint<G>,
}

impl<G: Game> Drop for Leave<'_, G> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.pool.broken.store(true, Ordering::Relaxed);
        }
        let _open = lock(&self.pool.open);
        self.point.workers.fetch_sub(1, Ordering::SeqCst);
        self.pool.wake.notify_all();
    }
}

impl<G: Game> SplitPool<G> {
    pub(super) fn new() -> Self {
        Self {
            open: Mutex::new(Vec::new()),
            wake: Condvar::new(),
            waiting: AtomicUsize::new(0),
            closed: AtomicBool::new(false),
            broken: AtomicBool::new(false),
            in_flight: AtomicU64::new(0),
        }
    }

    /// Nodes the helper threads searched that have not reached the main thread's counters
    /// yet (they do when a split ends), for progress reports.
    pub(super) fn helper_nodes(&self) -> u64 {
        self.in_flight.load(Ordering::Relaxed)
    }

    /// Ends the search's helper threads once they finish what they are doing.
    pub(super) fn close(&self) {
        let _open = lock(&self.open);
        self.closed.store(true, Ordering::SeqCst);
        self.wake.notify_all();
    }

    /// A helper thread's life: joins open split points until the pool closes.
    pub(super) fn serve<E: Evaluator<G>>(
        &self,
        game: &G,
        (evaluator, settings): (&E, &EngineSettings),
        table: Option<&TranspositionTable>,
        control: &Control<'_>,
    ) {
        let mut observer = NoopObserver;
        let mut worker = Searcher::new(
            game,
            (evaluator, settings),
            &mut observer,
            table,
            control,
            None,
        );
        worker.pool = Some(self);
        loop {
            let mut open = lock(&self.open);
            let point = loop {
                if self.closed.load(Ordering::SeqCst) {
                    return;
                }
                if let Some(point) = Self::take_point(&open, None) {
                    break point;
                }
                open = self.wait_for_work(open);
            };
            drop(open);
            worker.join(&point);
        }
    }

    /// Waits, counted among the threads waiting for work (so that searching threads split
    /// for it), until woken or for [`WAIT`]; returns the lock again.
    fn wait_for_work<'a>(
        &self,
        open: MutexGuard<'a, Vec<Arc<SplitPoint<G>>>>,
    ) -> MutexGuard<'a, Vec<Arc<SplitPoint<G>>>> {
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let open = self
            .wake
            .wait_timeout(open, WAIT)
            .unwrap_or_else(PoisonError::into_inner)
            .0;
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        open
    }

    /// Under the lock: the open split point with the most work left (the deepest search),
    /// below `under` when given, counted as joined.
    fn take_point(
        open: &[Arc<SplitPoint<G>>],
        under: Option<&Arc<SplitPoint<G>>>,
    ) -> Option<Arc<SplitPoint<G>>> {
        let point = open
            .iter()
            .filter(|p| p.open() && !cut_above(Some(p)))
            .filter(|p| under.is_none_or(|u| p.descends_from(u)))
            .max_by_key(|p| p.depth)?;
        point.workers.fetch_add(1, Ordering::SeqCst);
        Some(Arc::clone(point))
    }
}

impl<G, E, O> Searcher<'_, G, E, O>
where
    G: Game,
    E: Evaluator<G>,
    O: SearchObserver<G::Move>,
{
    /// Whether a node `depth` moves from the horizon with `moves` moves is worth sharing
    /// among the threads and some thread is waiting for work.
    pub(super) fn can_split(&self, depth: u32, moves: usize) -> bool {
        depth >= PARALLEL_DEPTH
            && moves > 2
            && self
                .pool
                .is_some_and(|pool| pool.waiting.load(Ordering::Relaxed) > 0)
    }

    /// The search must stop: the caller asked, the deadline passed, or a helper panicked.
    pub(super) fn halted(&self) -> bool {
        let control = self.control;
        control.stop.is_raised()
            || control.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .pool
                .is_some_and(|pool| pool.broken.load(Ordering::Relaxed))
    }

    /// Whether the split point this thread works for, or one above it, has cut off: what
    /// the thread is searching is no longer needed.
    pub(super) fn abandoned(&self) -> bool {
        cut_above(self.within.as_ref())
    }

    /// On a helper thread: adds the nodes counted since the last call to the pool's count
    /// for progress reports.
    pub(super) fn flush_nodes(&mut self) {
        if let Some(pool) = self.pool {
            pool.in_flight
                .fetch_add(self.stats.nodes - self.flushed, Ordering::Relaxed);
            self.flushed = self.stats.nodes;
        }
    }

    /// Searches the moves of a split point another thread opened, then leaves it with what
    /// it found (and, on a helper thread, its counters: the main thread keeps its own, which
    /// its progress reports show).
    fn join(&mut self, point: &Arc<SplitPoint<G>>) {
        let Some(pool) = self.pool else {
            return;
        };
        let leave = Leave { pool, point };
        let outer = self.within.replace(Arc::clone(point));
        self.stopped = self.halted() || self.abandoned();
        let own_limit = std::mem::replace(&mut self.ply_limit, point.ply_limit);
        self.plies
            .ensure((point.state.ply + point.depth as usize).max(point.ply_limit) + 2);
        let mut position = point.position.clone();
        let found = self.take_moves(&mut position, point.depth, &point.moves, &point.state);
        self.ply_limit = own_limit;
        self.within = outer;
        {
            let mut gathered = lock(&point.gathered);
            gathered.found.extend(found);
            if self.reporter.is_none() {
                self.flush_nodes();
                self.flushed = 0;
                gathered
                    .stats
                    .merge_counts(&std::mem::take(&mut self.stats));
            }
        }
        drop(leave);
        self.stopped = self.halted() || self.abandoned();
    }

    /// Searches `moves[1..]` of the node at `ply` on every thread that joins: each takes the
    /// next move not yet taken, searched with a floor at (or, for exact root ties, just below)
    /// the best value any thread has found so far, starting from `best`. `(best, low, high,
    /// ties_on)` is the window: `low` the node's alpha, `high` its beta. Returns what each
    /// move searched completely came to, in no particular order; the threads stop taking
    /// moves once some move reached `high`.
    pub(super) fn split(
        &mut self,
        game: &mut G,
        depth: u32,
        ply: usize,
        moves: &[G::Move],
        (best, low, high, ties_on): (i32, i32, i32, bool),
    ) -> Vec<RootResult<G::Move>> {
        let state = SplitState {
            next: AtomicUsize::new(1),
            best: AtomicI32::new(best),
            low,
            high,
            ties_on,
            ply,
        };
        let Some(pool) = self.pool else {
            return self.take_moves(game, depth, moves, &state);
        };
        let point = Arc::new(SplitPoint {
            position: game.clone(),
            moves: moves.to_vec(),
            depth,
            state,
            ply_limit: self.ply_limit,
            parent: self.within.clone(),
            workers: AtomicUsize::new(1),
            gathered: Mutex::new(Gathered::default()),
        });
        {
            let mut open = lock(&pool.open);
            open.push(Arc::clone(&point));
            pool.wake.notify_all();
        }
        let outer = self.within.replace(Arc::clone(&point));
        let mut found = self.take_moves(game, depth, moves, &point.state);
        // Nothing is left to take: no one joins any more.
        lock(&pool.open).retain(|p| !Arc::ptr_eq(p, &point));
        // The split point's own cut is how it ends, not a reason to stop.
        self.stopped = self.halted() || cut_above(outer.as_ref());
        // The other threads still search their moves: help with the splits below this one
        // (their work is this split's), and report progress meanwhile.
        loop {
            let mut open = lock(&pool.open);
            if point.workers.load(Ordering::SeqCst) == 1 {
                break;
            }
            if !self.stopped
                && let Some(below) = SplitPool::take_point(&open, Some(&point))
            {
                drop(open);
                self.join(&below);
                continue;
            }
            open = pool.wait_for_work(open);
            drop(open);
            self.poll();
        }
        self.within = outer;
        let gathered = std::mem::take(&mut *lock(&point.gathered));
        self.stats.merge_counts(&gathered.stats);
        // The helpers' nodes, which the pool counts until they reach the main thread.
        if self.reporter.is_some() {
            pool.in_flight
                .fetch_sub(gathered.stats.nodes, Ordering::Relaxed);
        } else {
            self.flushed += gathered.stats.nodes;
        }
        found.extend(gathered.found);
        self.stopped = self.halted() || self.abandoned();
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
            let value = if ply == 0 {
                self.sibling(game, mv, depth, ply, floor, shared.high)
            } else {
                self.late_sibling(game, mv, (depth, ply, index), floor, shared.high)
            };
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
