//! The full engine: iterative deepening with aspiration windows, principal variation search,
//! a shared transposition table, move ordering (TT move, static evaluation, killers,
//! history), time control and threads that share the work. Every technique is switchable
//! ([`EngineSettings`]) so its effect can be measured, and none of them changes the value a
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
//!
//! Threads split nodes (the "young brothers wait" rule of parallel alpha-beta, Feldmann et
//! al. 1990): a node at least `PARALLEL_DEPTH` (5) moves from the horizon searches its first
//! move alone; if that does not cut off, the other moves are dealt out to all threads, each
//! taking the next move not yet taken with a floor at the best value any thread has found.
//! A move that fails low under a floor another thread raised is only known to be at most that
//! floor, so it never displaces a move that reached the same value. The value is the one a
//! single thread finds; only the number of nodes changes.

use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rand::Rng;

use super::limits::StopFlag;
use super::ordering::{OrderingSwitches, OrderingTables, move_key};
use super::score::{self, INFINITY, MARGIN_UNIT, WIN_THRESHOLD};
use super::search::{EngineSettings, PvTable, Reporter, SearchResult, child_key, search_child};
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

/// When to stop: the caller's flag or the deadline. Shared by the threads of a search.
struct Control<'a> {
    stop: &'a StopFlag,
    deadline: Option<Instant>,
}

/// Runs the full engine on `game`. `table` is reused when given (an engine player keeps one
/// across moves); otherwise a table of `settings.tt_mb` MiB is made for this search.
#[allow(clippy::too_many_arguments)]
pub fn search<G, E, O>(
    game: &G,
    evaluator: &E,
    settings: &EngineSettings,
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
        deadline: settings.limits.time.map(|time| started + time),
    };
    let reporter = Reporter::new(progress, started);
    let mut main = Searcher::new(
        game,
        (evaluator, settings),
        observer,
        table,
        &control,
        Some(reporter),
    );
    // A recorded search runs on one thread: the record is then the whole search.
    let threads = if O::RECORDS {
        1
    } else {
        thread_count(settings.threads)
    };
    main.workers_wanted = threads - 1;
    main.workers = (0..main.workers_wanted)
        .map(|_| OrderingTables::new(game.move_space()))
        .collect();
    let mut position = game.clone();
    let mut result = main.iterate(&mut position, rng, started);
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
        let exact = value > floor.max(self.low) && value < self.high;
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

/// The floor of a sibling's window given the best value so far (see [`RootFold::floor`]).
fn split_floor(best: i32, low: i32, ties_on: bool) -> i32 {
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
struct RootResult<M> {
    index: usize,
    value: i32,
    /// The floor of the window it was searched with.
    floor: i32,
    pv: Vec<M>,
    height: Option<u32>,
}

/// Nodes shallower than this are not split: starting the threads would cost more.
const PARALLEL_DEPTH: u32 = 5;

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
    settings: &'a EngineSettings,
    observer: &'a mut O,
    table: Option<&'a TranspositionTable>,
    control: &'a Control<'a>,
    /// The main thread's progress reports (helpers have none).
    reporter: Option<Reporter<'a, G::Move>>,
    switches: OrderingSwitches,
    ordering: OrderingTables,
    stats: SearchStats,
    stopped: bool,
    /// The ordering tables of the other threads that split the root with this one, kept
    /// from pass to pass (empty on one thread, and in those threads themselves).
    workers: Vec<OrderingTables>,
    /// How many such threads there are.
    workers_wanted: usize,
    /// Height of the subtree searched last, `None` when a horizon evaluation influenced it.
    height: Option<u32>,
    move_buffers: Vec<Vec<G::Move>>,
    key_buffers: Vec<Vec<(i64, G::Move)>>,
    pv: PvTable<G::Move>,
}

impl<'a, G, E, O> Searcher<'a, G, E, O>
where
    G: Game,
    E: Evaluator<G>,
    O: SearchObserver<G::Move>,
{
    fn new(
        game: &G,
        (evaluator, settings): (&'a E, &'a EngineSettings),
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
                killers: settings.killers && G::CUTOFF_ORDERING,
                history: settings.history && G::CUTOFF_ORDERING,
            },
            ordering: OrderingTables::new(game.move_space()),
            stats: SearchStats::default(),
            stopped: false,
            workers: Vec::new(),
            workers_wanted: 0,
            height: None,
            move_buffers: Vec::new(),
            key_buffers: Vec::new(),
            pv: PvTable::default(),
        }
    }

    fn ensure_ply(&mut self, ply: usize) {
        while self.move_buffers.len() <= ply {
            self.move_buffers.push(Vec::new());
            self.key_buffers.push(Vec::new());
        }
        self.pv.grow(ply);
    }

    fn poll(&mut self) {
        let control = self.control;
        if control.stop.is_raised() || control.deadline.is_some_and(|d| Instant::now() >= d) {
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
        child_key(game, mv, ply, self.evaluator, &mut self.stats)
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
        let mut keyed = std::mem::take(&mut self.key_buffers[ply]);
        keyed.clear();
        let mut switches = self.switches;
        switches.static_eval &= G::ORDER_HINTS || depth > 1;
        let any = switches.static_eval
            || (switches.tt_move && tt_move.is_some())
            || switches.killers
            || switches.history;
        if moves.len() < 2 || !any {
            self.key_buffers[ply] = keyed;
            return moves;
        }
        let killers = self.ordering.killers(ply);
        let mover = game.to_move();
        let orientation = game.table_orientation();
        let mut top = 0;
        for (i, &mv) in moves.iter().enumerate() {
            let index = game.move_index(mv);
            let static_key = if !switches.static_eval {
                0
            } else if G::ORDER_HINTS {
                game.order_hint(mv)
            } else {
                self.static_key(game, mv, ply)
            };
            let is_tt_move = tt_move
                .is_some_and(|t| usize::from(t) == game.table_move_index_in(orientation, mv));
            let key = move_key(
                switches,
                is_tt_move,
                index,
                killers,
                static_key,
                self.ordering.history(mover, index),
            );
            if key > keyed.get(top).map_or(i64::MIN, |&(k, _)| k) {
                top = i;
            }
            keyed.push((key, mv));
        }
        // Only the first move is placed now (most cut-offs come from it); the others are
        // sorted when they are needed (`order_rest`). Rotating it to the front keeps the
        // others in generation order, so the final order is that of a stable sort.
        keyed[..=top].rotate_right(1);
        moves.clear();
        moves.extend(keyed.iter().map(|&(_, mv)| mv));
        self.key_buffers[ply] = keyed;
        moves
    }

    /// Sorts the moves after the first of the node at `ply` by their keys (stable: equal keys
    /// keep generation order, so searches stay reproducible), once the first has not cut off.
    fn order_rest(&mut self, ply: usize, moves: &mut [G::Move]) {
        let keyed = &mut self.key_buffers[ply];
        if keyed.len() != moves.len() || keyed.len() < 3 {
            return;
        }
        keyed[1..].sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        for (slot, &(_, mv)) in moves.iter_mut().zip(keyed.iter()).skip(1) {
            *slot = mv;
        }
    }

    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        self.pv.update(ply, mv);
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
        let mover = game.to_move();
        let mut best = -INFINITY;
        let mut best_index = None;
        let mut low = alpha;
        let mut skipped = 0;
        // Candidate limits skip legal moves: nothing searched with them is proven.
        let mut height = (self.settings.candidates == 0).then_some(0);
        // With several threads, the moves after the first are shared among them once the
        // first has not cut off.
        let split = self.can_split(depth, moves.len());
        let alone = if split { 1 } else { moves.len() };
        let mut cut_at = None;
        for i in 0..alone {
            if i == 1 {
                self.order_rest(ply, &mut moves);
            }
            let child_move = moves[i];
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
                cut_at = Some(i);
                break;
            }
        }
        if split && cut_at.is_none() && !self.stopped {
            self.order_rest(ply, &mut moves);
            let start = best.max(alpha);
            let mut results = self.split(game, depth, ply, &moves, (start, alpha, beta, false));
            results.sort_by_key(|r| r.index);
            // The first move's value is exact or a lower bound; so far nothing is only an
            // upper bound.
            let mut best_is_upper = false;
            for r in results {
                height = height.zip(r.height).map(|(h, c)| h.max(c + 1));
                // A move that failed low under a floor raised by another thread is at most
                // that floor: it may equal the best value without being as good, so it never
                // displaces a move that reached the value.
                let is_upper = r.value <= r.floor;
                if r.value > best || (r.value == best && best_is_upper && !is_upper) {
                    best_is_upper = is_upper;
                    best = r.value;
                    best_index = Some(game.table_move_index(moves[r.index]));
                    self.pv[ply].clone_from(&r.pv);
                    low = low.max(r.value);
                }
                if low >= beta {
                    cut_at = Some(r.index);
                    break;
                }
            }
        }
        if let Some(i) = cut_at {
            self.stats.cutoffs += 1;
            if self.switches.killers || self.switches.history {
                let index = game.move_index(moves[i]);
                self.ordering.record_cutoff(mover, index, ply, depth);
            }
            skipped = (moves.len() - i - 1) as u32;
        }
        self.move_buffers[ply] = moves;
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

    /// Orders the root moves for the first iteration: the table's move, then static keys.
    fn initial_root_moves(&mut self, game: &mut G) -> Vec<RootMove<G::Move>> {
        let tt_move = self
            .table
            .and_then(|t| t.probe(game.hash()))
            .and_then(|e| e.best);
        // Depth 2 asks for static ordering even when the search is one move deep.
        let mut generated = Vec::new();
        self.generate(game, &mut generated);
        let mut moves = self.ordered_moves(game, 0, 2, tt_move);
        self.order_rest(0, &mut moves);
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
        self.move_buffers[0] = moves;
        root
    }

    /// One pass over the root moves at `depth` with the window `[low, high]`. With several
    /// threads (and a pass deep enough to be worth it), the first move, the principal
    /// variation, is searched alone, and the others are then shared out among the threads,
    /// each taking the next unsearched move (root splitting).
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
            self.update_pv(0, mv);
            let pv = std::mem::take(&mut self.pv[0]);
            fold.add(root, i, value, floor, &pv, self.height);
            self.pv[0] = pv;
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

    /// Whether a node `depth` moves from the horizon with `moves` moves is worth sharing
    /// among the threads (only the thread that owns the others splits, and not twice at once).
    fn can_split(&self, depth: u32, moves: usize) -> bool {
        !self.workers.is_empty() && depth >= PARALLEL_DEPTH && moves > 2
    }

    /// Searches `moves[1..]` of the node at `ply` on every thread: each thread takes the next
    /// move not yet taken, searched with a floor at (or, for exact root ties, just below) the
    /// best value any thread has found so far, starting from `best`. `(best, low, high,
    /// ties_on)` is the window: `low` the node's alpha, `high` its beta. Returns what each
    /// move searched completely came to, in no particular order; a thread stops taking moves
    /// once some move reached `high`.
    fn split(
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
                        worker.ensure_ply(ply + depth as usize + 2);
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
            self.update_pv(ply, mv);
            found.push(RootResult {
                index,
                value,
                floor,
                pv: self.pv[ply].clone(),
                height: self.height,
            });
            shared.best.fetch_max(value, Ordering::Relaxed);
        }
        found
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
        self.ensure_ply(self.settings.limits.max_depth().max(1) as usize + 2);
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
        let max_depth = self.settings.limits.max_depth().max(1);
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
        self.settings.limits.time
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
