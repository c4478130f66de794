//! Fixed-depth searches over any [`Game`]: plain minimax (the reference) and alpha-beta in
//! negamax form (fail-soft), with optional move ordering, exact root ties and statistics.
//!
//! The sign rule lives here and only here: after a move, if the side to move is unchanged
//! (an extra turn) the child is searched with the same window and its value kept as is;
//! otherwise the window is negated and swapped and the value negated.

use std::time::{Duration, Instant};

use rand::Rng;

use super::limits::StopFlag;
use super::score::{self, INFINITY};
pub use super::settings::{Algorithm, EngineSettings};
use super::stats::SearchStats;
use super::tree::{Bound, SearchObserver};
use super::{Evaluator, Game};

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The chosen move; `None` when the game is already over.
    pub best: Option<M>,
    /// Its value from the side to move's point of view (see [`score`]).
    pub value: i32,
    /// The principal variation starting with `best`.
    pub pv: Vec<M>,
    /// Every root move whose exact value equals `value` (`best` among them).
    pub ties: Vec<M>,
    /// Counters.
    pub stats: SearchStats,
    /// False when a stop request cut the search short; `best` is then the best of the root
    /// moves searched completely.
    pub completed: bool,
}

/// How often a running search reports its progress.
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// Hands a running search's progress to the caller: the best answer so far, with the
/// counters as they are now, at most every [`PROGRESS_INTERVAL`] while the search runs, and
/// at once when a better answer is ready (an iteration completed).
pub(crate) struct Reporter<'p, M> {
    sink: &'p mut dyn FnMut(&SearchResult<M>),
    started: Instant,
    last: Instant,
    best: Option<SearchResult<M>>,
}

impl<'p, M: Clone> Reporter<'p, M> {
    pub(crate) fn new(sink: &'p mut dyn FnMut(&SearchResult<M>), started: Instant) -> Self {
        Self {
            sink,
            started,
            last: started,
            best: None,
        }
    }

    /// Reports `result` now and keeps it as the answer shown by later reports.
    pub(crate) fn answer(&mut self, result: SearchResult<M>) {
        (self.sink)(&result);
        self.best = Some(result);
        self.last = Instant::now();
    }

    /// Reports the answer so far with `stats` as they are now, if the interval has passed.
    /// Before any answer, the report has no move, depth 0 and only the counters.
    pub(crate) fn tick(&mut self, stats: &SearchStats) {
        let now = Instant::now();
        if now.duration_since(self.last) < PROGRESS_INTERVAL {
            return;
        }
        self.last = now;
        let mut result = self.best.clone().unwrap_or(SearchResult {
            best: None,
            value: 0,
            pv: Vec::new(),
            ties: Vec::new(),
            stats: SearchStats::default(),
            completed: false,
        });
        let (depth, iteration_nodes) = (result.stats.depth, result.stats.iteration_nodes);
        result.stats = *stats;
        result.stats.depth = depth;
        result.stats.iteration_nodes = iteration_nodes;
        result.stats.elapsed = now.duration_since(self.started);
        (self.sink)(&result);
    }
}

/// Searches `game` with `settings`, reporting every node to `observer` (the full engine with
/// a table of its own: see [`search_with_table`]).
///
/// `rng` breaks exact ties among root moves when `settings.random_ties` is on. `progress`
/// hears intermediate results (every 100 ms while the search runs, and after each completed
/// iteration of the full engine). Raising `stop` ends the search
/// promptly with the best move found so far.
pub fn search<G, E, O>(
    game: &G,
    evaluator: &E,
    settings: &EngineSettings,
    rng: &mut impl Rng,
    observer: &mut O,
    stop: &StopFlag,
    progress: &mut dyn FnMut(&SearchResult<G::Move>),
) -> SearchResult<G::Move>
where
    G: Game,
    E: Evaluator<G>,
    O: SearchObserver<G::Move>,
{
    search_with_table(
        game, evaluator, settings, rng, observer, stop, progress, None,
    )
}

/// [`search`], with the full engine using `table` when one is given (an engine player keeps
/// one from move to move); the other algorithms have no table and ignore it.
#[allow(clippy::too_many_arguments)]
pub fn search_with_table<G, E, O>(
    game: &G,
    evaluator: &E,
    settings: &EngineSettings,
    rng: &mut impl Rng,
    observer: &mut O,
    stop: &StopFlag,
    progress: &mut dyn FnMut(&SearchResult<G::Move>),
    table: Option<&super::tt::TranspositionTable>,
) -> SearchResult<G::Move>
where
    G: Game,
    E: Evaluator<G>,
    O: SearchObserver<G::Move>,
{
    if settings.algorithm == Algorithm::Full {
        return super::full::search(
            game, evaluator, settings, rng, observer, stop, progress, table,
        );
    }
    let started = Instant::now();
    let mut searcher = Searcher {
        evaluator,
        settings,
        observer,
        stop,
        reporter: Reporter::new(progress, started),
        stats: SearchStats::default(),
        stopped: false,
        move_buffers: Vec::new(),
        order_buffers: Vec::new(),
        pv: PvTable::default(),
    };
    // Buffers for every ply, made once: the nodes never check.
    searcher.ensure_ply(settings.limits.max_depth().max(1) as usize + 2);
    let mut position = game.clone();
    let mut result = searcher.root(&mut position, rng);
    let searched = result.completed || result.stats.depth > 0;
    result.stats = searcher.stats;
    result.stats.depth = if searched {
        settings.limits.max_depth().max(1)
    } else {
        0
    };
    result.stats.iteration_nodes = result.stats.nodes;
    result.stats.elapsed = started.elapsed();
    searcher.reporter.answer(result.clone());
    result
}

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

/// Plays `mv`, searches the child with `search(child, alpha, beta)` and takes the move back,
/// applying the sign rule: the one place it lives, shared by every search here. When the
/// side to move is unchanged (an extra turn) the child is searched with the same window and
/// its value kept; otherwise the window is negated and swapped and the value negated.
/// Returns the child's value from the mover's side.
#[inline]
pub fn search_child<G: Game>(
    game: &mut G,
    mv: G::Move,
    alpha: i32,
    beta: i32,
    mut search: impl FnMut(&mut G, i32, i32) -> i32,
) -> i32 {
    let mover = game.to_move();
    let undo = game.play(mv);
    let value = if game.to_move() == mover {
        search(game, alpha, beta)
    } else {
        -search(game, -beta, -alpha)
    };
    game.undo(mv, undo);
    value
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

struct Searcher<'a, G: Game, E, O> {
    evaluator: &'a E,
    settings: &'a EngineSettings,
    observer: &'a mut O,
    stop: &'a StopFlag,
    reporter: Reporter<'a, G::Move>,
    stats: SearchStats,
    stopped: bool,
    /// One move buffer per ply, reused across nodes.
    move_buffers: Vec<Vec<G::Move>>,
    /// One (ordering key, move) buffer per ply.
    order_buffers: Vec<Vec<(i32, G::Move)>>,
    /// Triangular principal-variation table: `pv[ply]` is the best line from that ply.
    pv: PvTable<G::Move>,
}

/// How often (in nodes) the stop flag is read.
const STOP_CHECK_INTERVAL: u64 = 1024;

impl<G, E, O> Searcher<'_, G, E, O>
where
    G: Game,
    E: Evaluator<G>,
    O: SearchObserver<G::Move>,
{
    fn ensure_ply(&mut self, ply: usize) {
        while self.move_buffers.len() <= ply {
            self.move_buffers.push(Vec::new());
            self.order_buffers.push(Vec::new());
        }
        self.pv.grow(ply);
    }

    /// Fills the move buffer of `ply`, ordered best-first when ordering is on.
    fn generate(&mut self, game: &mut G, ply: usize, ordered: bool) -> Vec<G::Move> {
        let mut moves = std::mem::take(&mut self.move_buffers[ply]);
        if self.settings.candidates > 0 {
            game.candidate_moves(&mut moves, self.settings.candidates);
        } else {
            game.legal_moves(&mut moves);
        }
        if ordered && moves.len() > 1 {
            let mut keyed = std::mem::take(&mut self.order_buffers[ply]);
            keyed.clear();
            for &mv in &moves {
                let key = child_key(game, mv, ply, self.evaluator, &mut self.stats);
                keyed.push((key, mv));
            }
            // Stable: equal keys keep move-generation order, so searches stay reproducible.
            keyed.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
            moves.clear();
            moves.extend(keyed.iter().map(|&(_, mv)| mv));
            self.order_buffers[ply] = keyed;
        }
        moves
    }

    #[inline]
    fn poll_stop(&mut self) {
        if self.stats.nodes.is_multiple_of(STOP_CHECK_INTERVAL) {
            if self.stop.is_raised() {
                self.stopped = true;
            }
            self.reporter.tick(&self.stats);
        }
    }

    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        self.pv.update(ply, mv);
    }

    /// Searches the child reached by `mv` with the window `[alpha, beta]` seen from the
    /// mover. Returns the child's value from the mover's side.
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
            self.node(game, Some(mv), depth - 1, ply + 1, alpha, beta)
        })
    }

    fn root(&mut self, game: &mut G, rng: &mut impl Rng) -> SearchResult<G::Move> {
        let depth = self.settings.limits.max_depth().max(1);
        let prune = self.settings.algorithm.prunes();
        self.stats.nodes += 1;
        self.observer
            .enter(None, depth, game.to_move(), -INFINITY, INFINITY);
        self.pv[0].clear();
        if let Some(outcome) = game.outcome() {
            self.stats.terminals += 1;
            let value = score::terminal::<G>(outcome, game.to_move(), 0);
            self.observer.leave(value, Bound::Exact, 0);
            return SearchResult {
                best: None,
                value,
                pv: Vec::new(),
                ties: Vec::new(),
                stats: SearchStats::default(),
                completed: true,
            };
        }
        let moves = self.generate(game, 0, prune && self.settings.ordering);
        let mut best = -INFINITY;
        // Each tied move with its own principal variation.
        let mut ties: Vec<(G::Move, Vec<G::Move>)> = Vec::new();
        for &mv in &moves {
            // Alpha one below the best so far keeps a sibling of equal value exact (it
            // returns inside the window) while anything worse fails low: the exact-tie rule.
            let alpha = if !prune || best == -INFINITY {
                -INFINITY
            } else if self.settings.random_ties {
                best - 1
            } else {
                best
            };
            let value = self.child(game, mv, depth, 0, alpha, INFINITY);
            if self.stopped {
                break;
            }
            if value > best {
                best = value;
                self.update_pv(0, mv);
                ties.clear();
                ties.push((mv, self.pv[0].clone()));
                // The best root move so far, for a caller watching the search.
                let mut stats = self.stats;
                stats.depth = depth;
                self.reporter.answer(SearchResult {
                    best: Some(mv),
                    value,
                    pv: self.pv[0].clone(),
                    ties: vec![mv],
                    stats,
                    completed: false,
                });
            } else if value == best && (!prune || self.settings.random_ties) {
                self.update_pv(0, mv);
                ties.push((mv, self.pv[0].clone()));
            }
        }
        self.move_buffers[0] = moves;
        let completed = !self.stopped;
        if ties.is_empty() {
            // Stopped before the first root move finished: any legal move beats none. Its
            // depth stays 0: the value means nothing.
            let first = self.move_buffers[0].first().copied();
            self.observer.leave(0, Bound::Exact, 0);
            return SearchResult {
                best: first,
                value: 0,
                pv: first.into_iter().collect(),
                ties: first.into_iter().collect(),
                stats: SearchStats::default(),
                completed,
            };
        }
        let pick = if self.settings.random_ties && ties.len() > 1 {
            rng.random_range(0..ties.len())
        } else {
            0
        };
        self.observer.leave(best, Bound::Exact, 0);
        let (best_move, pv) = ties[pick].clone();
        SearchResult {
            best: Some(best_move),
            value: best,
            pv,
            ties: ties.into_iter().map(|(mv, _)| mv).collect(),
            // A nonzero depth: at least one root move was searched, so the value holds.
            stats: SearchStats {
                depth,
                ..SearchStats::default()
            },
            completed,
        }
    }

    /// Negamax node: the value of `game` for its side to move, `depth` moves deep.
    /// Plain minimax when pruning is off (the window is then ignored).
    fn node(
        &mut self,
        game: &mut G,
        mv: Option<G::Move>,
        depth: u32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.stats.nodes += 1;
        self.poll_stop();
        if self.stopped {
            return 0;
        }
        let prune = self.settings.algorithm.prunes();
        let (alpha, beta) = if prune {
            (alpha, beta)
        } else {
            (-INFINITY, INFINITY)
        };
        self.observer.enter(mv, depth, game.to_move(), alpha, beta);
        self.pv[ply].clear();
        if let Some(outcome) = game.outcome() {
            self.stats.terminals += 1;
            let value = score::terminal::<G>(outcome, game.to_move(), ply as u32);
            self.observer.leave(value, Bound::Exact, 0);
            return value;
        }
        if depth == 0 {
            self.stats.leaf_evals += 1;
            let value = score::evaluate(self.evaluator, game);
            self.observer.leave(value, Bound::Exact, 0);
            return value;
        }
        let moves = self.generate(game, ply, prune && self.settings.ordering);
        let mut best = -INFINITY;
        let mut window_low = alpha;
        let mut skipped = 0;
        for (i, &child_move) in moves.iter().enumerate() {
            let value = self.child(game, child_move, depth, ply, window_low, beta);
            if self.stopped {
                break;
            }
            if value > best {
                best = value;
                self.update_pv(ply, child_move);
                if value > window_low {
                    window_low = value;
                }
            }
            if prune && window_low >= beta {
                self.stats.cutoffs += 1;
                skipped = (moves.len() - i - 1) as u32;
                break;
            }
        }
        self.move_buffers[ply] = moves;
        let bound = if !prune {
            Bound::Exact
        } else if best >= beta {
            Bound::Lower
        } else if best <= alpha {
            Bound::Upper
        } else {
            Bound::Exact
        };
        self.observer.leave(best, bound, skipped);
        best
    }
}
