//! The full engine: iterative deepening with aspiration windows, principal variation search,
//! a shared transposition table, move ordering (TT move, static evaluation, killers,
//! history), time control and Lazy SMP threads. Every technique is switchable
//! ([`SearchSettings`]) so its effect can be measured, and none of them changes the value a
//! fixed-depth search returns: that equals plain minimax's, which the tests check.
//!
//! Two rules keep the table exact:
//! - An entry is used for a cut-off only at the depth it was searched to, unless its value is
//!   *proven*: no horizon evaluation influenced it, and it relied on lines at most `depth`
//!   moves long (its "height"), so it holds for every search at least that deep. A solve
//!   therefore reuses everything the earlier iterations proved, and iterative deepening stops
//!   as soon as the root itself is proven.
//! - Stored values are node-relative: win/loss scores carry the distance from the node, not
//!   from the root, and margin games store the *remaining* margin (the value minus the points
//!   the side to move has already banked, [`Game::banked`]). Their hashes leave the banked
//!   points out, so positions that differ only in banked points share one entry.
//!
//! Ties among root moves stay exact as in plain alpha-beta: after the first root move, each
//! sibling gets a null window just below the best value, and one that reaches it is searched
//! again with a window that still separates "equal" from "worse". When time runs out in the
//! middle of an iteration, the answer is the last completed iteration's, unless the partial
//! one has already searched the previous best move and then found a move that beats it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};

use super::limits::StopFlag;
use super::ordering::{OrderingSwitches, OrderingTables, move_key};
use super::score::{self, INFINITY, MARGIN_UNIT, WIN_THRESHOLD};
use super::search::{Reporter, SearchResult, SearchSettings, search_child};
use super::stats::SearchStats;
use super::tree::{Bound, NoopObserver, SearchObserver};
use super::tt::{Entry, TranspositionTable};
use super::{Evaluator, Game, Scoring};

/// How often (in nodes, a power of two) the stop flag and the clock are read.
const POLL_INTERVAL: u64 = 256;
/// First aspiration half-width, in score units (half a stone or box in margin games).
const ASPIRATION_DELTA: i32 = MARGIN_UNIT / 2;
/// Past this half-width the window opens fully.
const ASPIRATION_MAX: i32 = 64 * MARGIN_UNIT;
/// An iteration is not started once this share of the time is spent (the next one would
/// most likely not finish: each iteration costs more than all earlier ones together).
const SOFT_TIME_SHARE: f64 = 0.5;

/// When to stop: the caller's flag, the deadline, and (for helper threads) the main thread
/// being done; and, with several threads, which positions some thread is searching now.
struct Control<'a> {
    stop: &'a StopFlag,
    deadline: Option<Instant>,
    main_done: AtomicBool,
    /// Hashes of positions being searched, indexed by their low bits; empty with one thread.
    /// A thread reaching a position another one is searching defers it behind its siblings
    /// (the idea of ABDADA, Weill 1996): the threads spread over the tree instead of all
    /// searching the same first moves, and the deferred move is then often answered from
    /// the table. Only the order changes, never a value.
    busy: Box<[AtomicU64]>,
}

/// Positions at least this deep are marked busy and checked (shallower ones cost more to
/// check than they save).
const BUSY_DEPTH: u32 = 3;
/// Slots of [`Control::busy`].
const BUSY_SLOTS: usize = 1 << 14;

/// Runs the full engine on `game`. `table` is reused when given (an engine player keeps one
/// across moves); otherwise a table of `settings.tt_mb` MiB is made for this search.
#[allow(clippy::too_many_arguments)]
pub fn search<G, E, O>(
    game: &G,
    evaluator: &E,
    settings: &SearchSettings,
    rng: &mut impl Rng,
    observer: &mut O,
    stop: &StopFlag,
    progress: &mut dyn FnMut(&SearchResult<G::Move>),
    table: Option<&TranspositionTable>,
) -> SearchResult<G::Move>
where
    G: Game,
    E: Evaluator<G>,
    O: SearchObserver<G::Move>,
{
    let started = Instant::now();
    let own_table;
    let table = match (settings.tt, table) {
        (false, _) => None,
        (true, Some(t)) => Some(t),
        (true, None) => {
            own_table = TranspositionTable::new(settings.tt_mb);
            Some(&own_table)
        }
    };
    if let Some(t) = table {
        t.new_search();
    }
    let control = Control {
        stop,
        deadline: (settings.time_ms > 0).then(|| started + Duration::from_millis(settings.time_ms)),
        main_done: AtomicBool::new(false),
        busy: if thread_count(settings.threads) > 1 {
            (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect()
        } else {
            Box::new([])
        },
    };
    let threads = thread_count(settings.threads);
    let mut result = std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads)
            .map(|index| {
                let control = &control;
                scope.spawn(move || {
                    let mut observer = NoopObserver;
                    let mut helper = Searcher::new(
                        game,
                        (evaluator, settings),
                        &mut observer,
                        table,
                        control,
                        None,
                    );
                    helper.helper_index = index;
                    let mut position = game.clone();
                    let mut rng = rand::rngs::SmallRng::seed_from_u64(index as u64);
                    helper.iterate(&mut position, &mut rng, started);
                    helper.stats
                })
            })
            .collect();
        let reporter = Reporter::new(progress, started);
        let mut main = Searcher::new(
            game,
            (evaluator, settings),
            observer,
            table,
            &control,
            Some(reporter),
        );
        let mut position = game.clone();
        let mut result = main.iterate(&mut position, rng, started);
        control.main_done.store(true, Ordering::Relaxed);
        for helper in helpers {
            // A helper that panicked contributed nothing; the main thread's answer stands.
            if let Ok(stats) = helper.join() {
                result.stats.merge_counts(&stats);
            }
        }
        result
    });
    result.stats.elapsed = started.elapsed();
    result
}

/// The number of threads for a `threads` setting (0 = one per core).
pub fn thread_count(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    } else {
        threads
    }
}

/// A root move with what the last iteration learnt about it.
#[derive(Clone, Debug)]
struct RootMove<M> {
    mv: M,
    /// Its place in move-generation order: ties are listed and picked in this order, so the
    /// choice does not depend on what the table or other threads did to the search order.
    order: usize,
    /// The value returned in the last pass (a bound for moves that failed low).
    value: i32,
    /// The principal variation starting with `mv` (filled for the best and tied moves).
    pv: Vec<M>,
}

/// How one pass over the root moves ended.
enum RootPass {
    /// Every move searched; the value is exact.
    Done {
        value: i32,
        /// Indexes (into the root moves) of the moves with exactly that value.
        ties: Vec<usize>,
        /// The root's height when proven (see the module docs).
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

struct Searcher<'a, G: Game, E, O> {
    evaluator: &'a E,
    settings: &'a SearchSettings,
    observer: &'a mut O,
    table: Option<&'a TranspositionTable>,
    control: &'a Control<'a>,
    /// The main thread's progress reports (helpers have none).
    reporter: Option<Reporter<'a, G::Move>>,
    switches: OrderingSwitches,
    ordering: OrderingTables,
    stats: SearchStats,
    stopped: bool,
    /// 0 for the main thread; helpers vary their root move order by it.
    helper_index: usize,
    /// Height of the subtree searched last, `None` when a horizon evaluation influenced it.
    height: Option<u32>,
    move_buffers: Vec<Vec<G::Move>>,
    key_buffers: Vec<Vec<(i64, G::Move)>>,
    pv: Vec<Vec<G::Move>>,
}

impl<'a, G, E, O> Searcher<'a, G, E, O>
where
    G: Game,
    E: Evaluator<G>,
    O: SearchObserver<G::Move>,
{
    fn new(
        game: &G,
        (evaluator, settings): (&'a E, &'a SearchSettings),
        observer: &'a mut O,
        table: Option<&'a TranspositionTable>,
        control: &'a Control<'a>,
        reporter: Option<Reporter<'a, G::Move>>,
    ) -> Self {
        Self {
            evaluator,
            settings,
            observer,
            table,
            control,
            reporter,
            switches: OrderingSwitches {
                static_eval: settings.ordering,
                tt_move: settings.tt,
                killers: settings.killers,
                history: settings.history,
            },
            ordering: OrderingTables::new(game.move_space()),
            stats: SearchStats::default(),
            stopped: false,
            helper_index: 0,
            height: None,
            move_buffers: Vec::new(),
            key_buffers: Vec::new(),
            pv: Vec::new(),
        }
    }

    fn ensure_ply(&mut self, ply: usize) {
        while self.move_buffers.len() <= ply {
            self.move_buffers.push(Vec::new());
            self.key_buffers.push(Vec::new());
            self.pv.push(Vec::new());
        }
    }

    fn poll(&mut self) {
        let control = self.control;
        if control.stop.is_raised()
            || (self.helper_index > 0 && control.main_done.load(Ordering::Relaxed))
            || control.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.stopped = true;
        }
        if let Some(reporter) = &mut self.reporter {
            reporter.tick(&self.stats);
        }
    }

    fn generate(&self, game: &G, out: &mut Vec<G::Move>) {
        if self.settings.candidates > 0 {
            game.candidate_moves(out, self.settings.candidates);
        } else if self.settings.solve {
            game.solver_moves(out);
        } else {
            game.legal_moves(out);
        }
    }

    /// The value of `game` after `mv`, from the mover's side, for ordering: the child's
    /// outcome or static evaluation.
    fn static_key(&mut self, game: &mut G, mv: G::Move, ply: usize) -> i32 {
        let mover = game.to_move();
        let undo = game.play(mv);
        let child = if let Some(outcome) = game.outcome() {
            score::terminal::<G>(outcome, game.to_move(), ply as u32 + 1)
        } else {
            self.stats.order_evals += 1;
            score::evaluate(self.evaluator, game)
        };
        let key = if game.to_move() == mover {
            child
        } else {
            -child
        };
        game.undo(mv, undo);
        key
    }

    /// The moves of the node at `ply`, best-looking first. The static part is the game's
    /// cheap hint where it has one, else the evaluation of each child; the latter is skipped
    /// one move above the horizon, where the children are evaluated as leaves anyway and
    /// sorting them first would evaluate each twice without saving a single leaf.
    fn ordered_moves(
        &mut self,
        game: &mut G,
        ply: usize,
        depth: u32,
        tt_move: Option<u16>,
    ) -> Vec<G::Move> {
        let mut moves = std::mem::take(&mut self.move_buffers[ply]);
        self.generate(game, &mut moves);
        let mut switches = self.switches;
        switches.static_eval &= G::ORDER_HINTS || depth > 1;
        let any = switches.static_eval
            || (switches.tt_move && tt_move.is_some())
            || switches.killers
            || switches.history;
        if moves.len() < 2 || !any {
            return moves;
        }
        let killers = self.ordering.killers(ply);
        let mover = game.to_move();
        let mut keyed = std::mem::take(&mut self.key_buffers[ply]);
        keyed.clear();
        for &mv in &moves {
            let index = game.move_index(mv);
            let static_key = if !switches.static_eval {
                0
            } else if G::ORDER_HINTS {
                game.order_hint(mv)
            } else {
                self.static_key(game, mv, ply)
            };
            let is_tt_move = tt_move.is_some_and(|t| usize::from(t) == game.table_move_index(mv));
            keyed.push((
                move_key(
                    switches,
                    is_tt_move,
                    index,
                    killers,
                    static_key,
                    self.ordering.history(mover, index),
                ),
                mv,
            ));
        }
        // Stable: equal keys keep move-generation order, so searches stay reproducible.
        keyed.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        moves.clear();
        moves.extend(keyed.iter().map(|&(_, mv)| mv));
        self.key_buffers[ply] = keyed;
        moves
    }

    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        if let Some(child) = tail.first() {
            line.extend_from_slice(child);
        }
    }

    fn child(
        &mut self,
        game: &mut G,
        mv: G::Move,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        search_child(game, mv, alpha, beta, |game, alpha, beta| {
            self.node(game, mv, depth - 1, ply + 1, alpha, beta)
        })
    }

    /// Searches `mv` after a first move: with PVS a null window at `low` first, and the
    /// window `[low, beta]` only when the move reaches above `low`.
    fn sibling(
        &mut self,
        game: &mut G,
        mv: G::Move,
        depth: u32,
        ply: usize,
        low: i32,
        beta: i32,
    ) -> i32 {
        if !self.settings.pvs {
            return self.child(game, mv, depth, ply, low, beta);
        }
        let value = self.child(game, mv, depth, ply, low, low + 1);
        if value > low && value < beta && !self.stopped {
            self.child(game, mv, depth, ply, low, beta)
        } else {
            value
        }
    }

    /// Negamax with a window: the value of `game` for its side to move, `depth` moves deep.
    fn node(
        &mut self,
        game: &mut G,
        mv: G::Move,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.stats.nodes += 1;
        if self.stats.nodes.is_multiple_of(POLL_INTERVAL) {
            self.poll();
        }
        if self.stopped {
            self.height = None;
            return 0;
        }
        self.observer
            .enter(Some(mv), depth, game.to_move(), alpha, beta);
        self.pv[ply].clear();
        if let Some(outcome) = game.outcome() {
            self.stats.terminals += 1;
            let value = score::terminal::<G>(outcome, game.to_move(), ply as u32);
            self.height = Some(0);
            self.observer.leave(value, Bound::Exact, 0);
            return value;
        }
        if depth == 0 {
            // Nothing is stored at depth 0 (a proven entry there would be a finished game).
            self.stats.leaf_evals += 1;
            let value = score::evaluate(self.evaluator, game);
            self.height = None;
            self.observer.leave(value, Bound::Exact, 0);
            return value;
        }
        if let Some((lowest, highest)) = score::margin_range(game) {
            // Every unbanked point to one side or the other bounds the value: prune when the
            // whole range lies outside the window. Proven: it holds at any depth.
            let cut = if highest <= alpha {
                Some((highest, Bound::Upper))
            } else if lowest >= beta {
                Some((lowest, Bound::Lower))
            } else {
                None
            };
            if let Some((value, bound)) = cut {
                self.stats.bound_cutoffs += 1;
                self.height = Some(0);
                self.observer.leave(value, bound, 0);
                return value;
            }
        }
        let hash = game.hash();
        let mut tt_move = None;
        if let Some(table) = self.table
            && let Some(entry) = table.probe(hash)
        {
            self.stats.tt_hits += 1;
            tt_move = entry.best;
            let applies = if entry.proven {
                entry.depth <= depth
            } else {
                entry.depth == depth
            };
            if applies {
                let value = value_from_table(entry.value, game, ply);
                let cuts = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= alpha,
                };
                if cuts {
                    self.stats.tt_cutoffs += 1;
                    self.height = entry.proven.then_some(entry.depth);
                    self.observer.tt_hit();
                    self.observer.leave(value, entry.bound, 0);
                    return value;
                }
            }
        }
        let mut moves = self.ordered_moves(game, ply, depth, tt_move);
        let busy_slot = self.mark_busy(hash, depth);
        if busy_slot.is_some() {
            self.defer_busy(game, &mut moves);
        }
        let mover = game.to_move();
        let mut best = -INFINITY;
        let mut best_index = None;
        let mut low = alpha;
        let mut skipped = 0;
        // Candidate limits skip legal moves: nothing searched with them is proven.
        let mut height = (self.settings.candidates == 0).then_some(0);
        for (i, &child_move) in moves.iter().enumerate() {
            let value = if i == 0 {
                self.child(game, child_move, depth, ply, low, beta)
            } else {
                self.sibling(game, child_move, depth, ply, low, beta)
            };
            if self.stopped {
                break;
            }
            height = height.zip(self.height).map(|(h, c)| h.max(c + 1));
            if value > best {
                best = value;
                best_index = Some(game.table_move_index(child_move));
                self.update_pv(ply, child_move);
                low = low.max(value);
            }
            if low >= beta {
                self.stats.cutoffs += 1;
                if self.settings.killers || self.settings.history {
                    let index = game.move_index(child_move);
                    self.ordering.record_cutoff(mover, index, ply, depth);
                }
                skipped = (moves.len() - i - 1) as u32;
                break;
            }
        }
        self.move_buffers[ply] = moves;
        if let Some(slot) = busy_slot {
            // Unmark, unless another thread has marked its own position there since.
            let _ = slot.compare_exchange(hash, 0, Ordering::Relaxed, Ordering::Relaxed);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best <= alpha {
            Bound::Upper
        } else {
            Bound::Exact
        };
        if self.stopped {
            self.height = None;
        } else {
            if let Some(table) = self.table {
                table.store(
                    hash,
                    Entry {
                        value: value_to_table(best, game, ply),
                        bound,
                        depth: height.unwrap_or(depth),
                        proven: height.is_some(),
                        best: best_index.map(|i| i as u16),
                    },
                );
            }
            self.height = height;
        }
        self.observer.leave(best, bound, skipped);
        best
    }

    /// With several threads, marks the position `hash` as being searched (if deep enough)
    /// and returns its slot.
    #[inline]
    fn mark_busy(&self, hash: u64, depth: u32) -> Option<&'a AtomicU64> {
        let busy = &self.control.busy;
        if busy.is_empty() || depth < BUSY_DEPTH {
            return None;
        }
        let slot = &busy[hash as usize & (BUSY_SLOTS - 1)];
        slot.store(hash, Ordering::Relaxed);
        Some(slot)
    }

    /// Moves every move but the first whose position another thread is searching now to
    /// the end, keeping the order otherwise.
    fn defer_busy(&self, game: &mut G, moves: &mut [G::Move]) {
        let busy = &self.control.busy;
        let mut deferred = [false; 64];
        let mut any = false;
        for (k, &mv) in moves.iter().enumerate().skip(1).take(deferred.len()) {
            let undo = game.play(mv);
            let hash = game.hash();
            game.undo(mv, undo);
            if busy[hash as usize & (BUSY_SLOTS - 1)].load(Ordering::Relaxed) == hash {
                deferred[k] = true;
                any = true;
            }
        }
        if any {
            // Stable: the free moves first, then the deferred ones, each in their order.
            let mut order: Vec<(bool, G::Move)> = moves
                .iter()
                .enumerate()
                .map(|(k, &mv)| (deferred.get(k).copied().unwrap_or(false), mv))
                .collect();
            order.sort_by_key(|&(is_deferred, _)| is_deferred);
            for (slot, (_, mv)) in moves.iter_mut().zip(order) {
                *slot = mv;
            }
        }
    }

    /// Orders the root moves for the first iteration: the table's move, then static keys.
    fn initial_root_moves(&mut self, game: &mut G) -> Vec<RootMove<G::Move>> {
        let tt_move = self
            .table
            .and_then(|t| t.probe(game.hash()))
            .and_then(|e| e.best);
        // Depth 2 asks for static ordering even when the search is one move deep.
        let mut generated = Vec::new();
        self.generate(game, &mut generated);
        let moves = self.ordered_moves(game, 0, 2, tt_move);
        let mut root: Vec<RootMove<G::Move>> = moves
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
        self.move_buffers[0] = moves;
        // Helpers start from a rotated order, so that threads spread over the root moves
        // and fill the shared table with different subtrees first.
        if self.helper_index > 0 && !root.is_empty() {
            let shift = self.helper_index % root.len();
            root.rotate_left(shift);
        }
        root
    }

    /// One pass over the root moves at `depth` with the window `[low, high]`.
    fn root_pass(
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
        let ties_on = self.settings.random_ties && self.helper_index == 0;
        let mut best = -INFINITY;
        let mut alpha = low;
        let mut ties = Vec::new();
        let mut height = (self.settings.candidates == 0).then_some(0);
        let mut first_done = false;
        let mut exact_best: Option<(usize, i32)> = None;
        for (i, entry) in root.iter_mut().enumerate() {
            let mv = entry.mv;
            let value = if i == 0 {
                self.child(game, mv, depth, 0, alpha, high)
            } else {
                // Just below an exact best: an equal move comes back exact, a worse one
                // fails low. The exact-tie rule.
                let floor = if ties_on && best > low {
                    best - 1
                } else {
                    alpha
                };
                self.sibling(game, mv, depth, 0, floor, high)
            };
            if self.stopped {
                break;
            }
            first_done = true;
            height = height.zip(self.height).map(|(h, c)| h.max(c + 1));
            entry.value = value;
            let exact = value > low && value < high;
            if value > best {
                best = value;
                self.update_pv(0, mv);
                entry.pv.clone_from(&self.pv[0]);
                ties.clear();
                ties.push(i);
                alpha = alpha.max(value);
                if exact {
                    exact_best = Some((i, value));
                }
            } else if value == best && exact && ties_on {
                self.update_pv(0, mv);
                entry.pv.clone_from(&self.pv[0]);
                ties.push(i);
            }
            if best >= high {
                break;
            }
        }
        let bound = if best >= high {
            Bound::Lower
        } else if best <= low {
            Bound::Upper
        } else {
            Bound::Exact
        };
        self.observer.leave(best, bound, 0);
        if self.stopped {
            return RootPass::Stopped {
                best: exact_best.filter(|_| first_done),
            };
        }
        match bound {
            Bound::Upper => RootPass::FailLow(best),
            Bound::Lower => RootPass::FailHigh(best),
            Bound::Exact => RootPass::Done {
                value: best,
                ties,
                height,
            },
        }
    }

    /// Iterative deepening from depth 1 to the depth limit, the time limit or a proven root.
    fn iterate(
        &mut self,
        game: &mut G,
        rng: &mut impl Rng,
        started: Instant,
    ) -> SearchResult<G::Move> {
        self.ordering.new_search();
        // Buffers for every ply the deepest iteration can reach, made once: no node checks.
        self.ensure_ply(self.settings.depth.max(1) as usize + 2);
        if let Some(outcome) = game.outcome() {
            self.stats.nodes += 1;
            self.stats.terminals += 1;
            self.observer.begin_iteration(0);
            self.observer
                .enter(None, 0, game.to_move(), -INFINITY, INFINITY);
            let value = score::terminal::<G>(outcome, game.to_move(), 0);
            self.observer.leave(value, Bound::Exact, 0);
            return SearchResult {
                best: None,
                value,
                pv: Vec::new(),
                ties: Vec::new(),
                stats: self.stats,
                completed: true,
            };
        }
        let mut root = self.initial_root_moves(game);
        let max_depth = self.settings.depth.max(1);
        let mut answer: Option<SearchResult<G::Move>> = None;
        let mut previous = 0;
        // A solve goes straight to the end: shallow iterations would only estimate values
        // at horizons that the exact search never has.
        let first_depth = if self.settings.solve { max_depth } else { 1 };
        for depth in first_depth..=max_depth {
            let nodes_before = self.stats.nodes;
            let pass = if self.settings.solve {
                self.converge(game, depth, previous, &mut root)
            } else {
                self.aspirate(game, depth, previous, &mut root)
            };
            match pass {
                RootPass::Done {
                    value,
                    ties,
                    height,
                } => {
                    let mut ties = ties;
                    ties.sort_by_key(|&i| root[i].order);
                    let pick = if ties.len() > 1 {
                        ties[rng.random_range(0..ties.len())]
                    } else {
                        ties.first().copied().unwrap_or(0)
                    };
                    let tied: Vec<G::Move> = ties.iter().map(|&i| root[i].mv).collect();
                    let mut pv = root[pick].pv.clone();
                    self.extend_pv(game, &mut pv, depth as usize);
                    let mut stats = self.stats;
                    stats.depth = depth;
                    stats.iteration_nodes = self.stats.nodes - nodes_before;
                    stats.elapsed = started.elapsed();
                    let result = SearchResult {
                        best: Some(root[pick].mv),
                        value,
                        pv,
                        ties: tied,
                        stats,
                        completed: true,
                    };
                    // The chosen move leads the next iteration; the rest by this one's values.
                    let chosen = root.remove(pick);
                    root.insert(0, chosen);
                    sort_root(&mut root);
                    previous = value;
                    if let Some(reporter) = &mut self.reporter {
                        reporter.answer(result.clone());
                    }
                    answer = Some(result);
                    if height.is_some() {
                        // Proven: deeper iterations would return the same value.
                        break;
                    }
                    if score::is_decisive(value)
                        && (score::WIN - value.abs()) as u32 <= depth
                        && G::SCORING == Scoring::WinLoss
                    {
                        // A forced win or loss found within this depth stays one at every
                        // greater depth of the same tree (also with a candidate limit,
                        // which the proof above does not count as proven).
                        break;
                    }
                    if let Some(limit) = self.time_limit()
                        && started.elapsed().as_secs_f64() > limit.as_secs_f64() * SOFT_TIME_SHARE
                    {
                        break;
                    }
                }
                RootPass::Stopped { best } => {
                    // A partial iteration counts only with a fully searched better move.
                    if let Some((i, value)) = best {
                        let improves = answer.as_ref().is_none_or(|a| {
                            a.best != Some(root[i].mv) && i > 0 && value > root[0].value
                        });
                        if improves {
                            let mut pv = root[i].pv.clone();
                            self.extend_pv(game, &mut pv, depth as usize);
                            let mut stats = self.stats;
                            stats.depth = depth - 1;
                            answer = Some(SearchResult {
                                best: Some(root[i].mv),
                                value,
                                pv,
                                ties: vec![root[i].mv],
                                stats,
                                completed: false,
                            });
                        }
                    }
                    break;
                }
                RootPass::FailLow(_) | RootPass::FailHigh(_) => break,
            }
        }
        let mut result = answer.unwrap_or_else(|| {
            // Stopped before any root move was searched: any legal move beats none. Its depth
            // stays 0: the value means nothing.
            let first = root.first().map(|r| r.mv);
            SearchResult {
                best: first,
                value: 0,
                pv: first.into_iter().collect(),
                ties: first.into_iter().collect(),
                stats: self.stats,
                completed: false,
            }
        });
        let (depth, iteration_nodes) = (result.stats.depth, result.stats.iteration_nodes);
        result.stats = self.stats;
        result.stats.depth = depth;
        result.stats.iteration_nodes = iteration_nodes;
        if self.stopped && self.control.stop.is_raised() {
            result.completed = false;
        }
        result
    }

    /// One iteration with aspiration windows: a narrow window around the previous value,
    /// widened on the side that failed, until the value falls inside.
    fn aspirate(
        &mut self,
        game: &mut G,
        depth: u32,
        previous: i32,
        root: &mut [RootMove<G::Move>],
    ) -> RootPass {
        let (mut low, mut high) = (-INFINITY, INFINITY);
        let mut delta = ASPIRATION_DELTA;
        if self.settings.aspiration && depth > 1 && !score::is_decisive(previous) {
            low = previous - delta;
            high = previous + delta;
        }
        loop {
            let pass = self.root_pass(game, depth, low, high, root);
            delta = delta.saturating_mul(4);
            let open = delta > ASPIRATION_MAX;
            match pass {
                RootPass::FailLow(_) => {
                    low = if open { -INFINITY } else { previous - delta };
                }
                RootPass::FailHigh(_) => {
                    high = if open { INFINITY } else { previous + delta };
                    // The move that failed high goes first in the next pass.
                    sort_root(root);
                }
                other => return other,
            }
        }
    }

    /// One iteration by null-window tests (MTD(f), Plaat et al. 1996): each pass asks "is
    /// the value at least `beta`?" and moves a bound to the fail-soft answer, until the
    /// bounds meet; a last pass with a window around the value then finds the exact ties.
    fn converge(
        &mut self,
        game: &mut G,
        depth: u32,
        guess: i32,
        root: &mut [RootMove<G::Move>],
    ) -> RootPass {
        let (mut lower, mut upper) = score::margin_range(game).unwrap_or((-INFINITY, INFINITY));
        let mut guess = guess.clamp(lower, upper);
        while lower < upper {
            let beta = if guess == lower { guess + 1 } else { guess };
            match self.root_pass(game, depth, beta - 1, beta, root) {
                RootPass::FailLow(value) => {
                    upper = value;
                    guess = value;
                }
                RootPass::FailHigh(value) => {
                    lower = value;
                    guess = value;
                    sort_root(root);
                }
                other => return other,
            }
        }
        self.root_pass(game, depth, lower - 1, lower + 1, root)
    }

    fn time_limit(&self) -> Option<Duration> {
        (self.settings.time_ms > 0).then(|| Duration::from_millis(self.settings.time_ms))
    }

    /// Lengthens a principal variation cut short by table hits, following the table's best
    /// moves while they are legal, up to `limit` moves.
    fn extend_pv(&self, game: &G, pv: &mut Vec<G::Move>, limit: usize) {
        let Some(table) = self.table else {
            return;
        };
        let mut position = game.clone();
        for &mv in pv.iter() {
            position.play(mv);
        }
        let mut moves = Vec::new();
        while pv.len() < limit {
            let Some(index) = table.probe(position.hash()).and_then(|e| e.best) else {
                break;
            };
            position.legal_moves(&mut moves);
            let Some(&mv) = moves
                .iter()
                .find(|&&m| position.table_move_index(m) == usize::from(index))
            else {
                break;
            };
            position.play(mv);
            pv.push(mv);
        }
    }
}

/// Sorts root moves by their last value, best first; stable, so the leader stays first
/// among equals.
fn sort_root<M>(root: &mut [RootMove<M>]) {
    root.sort_by_key(|r| std::cmp::Reverse(r.value));
}

/// A value as the table keeps it: relative to the node (see the module docs).
#[inline]
fn value_to_table<G: Game>(value: i32, game: &G, ply: usize) -> i32 {
    match G::SCORING {
        Scoring::Margin => value - game.banked() * game.to_move().sign() * MARGIN_UNIT,
        Scoring::WinLoss => {
            if value > WIN_THRESHOLD {
                value + ply as i32
            } else if value < -WIN_THRESHOLD {
                value - ply as i32
            } else {
                value
            }
        }
    }
}

/// The inverse of [`value_to_table`] at the node where the entry is used.
#[inline]
fn value_from_table<G: Game>(stored: i32, game: &G, ply: usize) -> i32 {
    match G::SCORING {
        Scoring::Margin => stored + game.banked() * game.to_move().sign() * MARGIN_UNIT,
        Scoring::WinLoss => {
            if stored > WIN_THRESHOLD {
                stored - ply as i32
            } else if stored < -WIN_THRESHOLD {
                stored + ply as i32
            } else {
                stored
            }
        }
    }
}
