//! The full engine: iterative deepening with aspiration windows, principal variation search,
//! a shared transposition table, move ordering (TT move, static evaluation, killers,
//! history), time control and threads that share the work. Every technique is switchable
//! ([`EngineSettings`]) so its effect can be measured, and none of them changes the value a
//! fixed-depth search returns: that equals plain minimax's, which the tests check (except in
//! playing searches with a candidate limit, which skip moves by design; see below).
//!
//! Two rules keep the table exact:
//! - An entry is used for a cut-off only at the depth it was searched to, unless its value is
//!   *proven*: no horizon evaluation influenced it, and it relied on lines at most `depth`
//!   moves long (its "height"), so it holds for every search at least that deep. A solve
//!   therefore reuses everything the earlier iterations proved, and iterative deepening stops
//!   as soon as the root itself is proven. A playing search that limits its candidates
//!   (Gomoku) is not exact anyway: there an entry searched deeper answers as well.
//! - Stored values are node-relative: win/loss scores carry the distance from the node, not
//!   from the root, and margin games store the *remaining* margin (the value minus the points
//!   the side to move has already banked, [`Game::banked`]). Their hashes leave the banked
//!   points out, so positions that differ only in banked points share one entry.
//!
//! Late move reductions apply only in such playing searches too: a node's later moves are
//! first tested with a null window one or more plies shallower (more the further the node is
//! from its horizon and the later the move, and one more at an expected cut node: a
//! null-window node expected to fail high, [`CUT_NODE_REDUCTION`], and more for a move that
//! neglects a threat far from the play, [`neglect_plies`]), and searched to the full depth
//! only when the test says they beat the best so far. So do late move pruning (and
//! distraction pruning, [`DISTRACTION_DEPTH`]), reverse futility pruning and singular
//! extensions: a node at least [`SINGULAR_FROM_DEPTH`]
//! moves from the horizon whose table move has a good lower bound is first searched without
//! that move, at half the depth, against the table's value less a margin; if no other move
//! reaches it, the table move is the only good one and is searched one ply deeper; if one
//! does and that is at least beta, the node fails high at once (multi-cut). The test is a
//! node of its own (the same position, no move;
//! [`NodeKind::SingularTest`](crate::engine::tree::NodeKind::SingularTest) in a recorded
//! tree) that neither reads nor writes the table.
//!
//! Ties among root moves stay exact as in plain alpha-beta: after the first root move, each
//! sibling gets a null window just below the best value, and one that reaches it is searched
//! again with a window that still separates "equal" from "worse". When time runs out in the
//! middle of an iteration, the answer is the last completed iteration's, unless the partial
//! one has already searched the previous best move and then found a move that beats it.
//!
//! Threads split nodes (the "young brothers wait" rule of parallel alpha-beta, Feldmann et
//! al. 1990): a node at least `PARALLEL_DEPTH` (5) moves from the horizon searches its first
//! move alone; if that does not cut off, the other moves are dealt out to all free threads,
//! each taking the next move not yet taken with a floor at the best value any thread has
//! found. Any thread splits while another waits for work, and a waiting thread joins a split
//! (the one that opened a split and has nothing left of it joins only splits below its own;
//! see `split`), so that no thread waits long; a split that cuts off stops the work below it.
//! A move that fails low under a floor another thread raised is only known to be at most that
//! floor, so it never displaces a move that reached the same value. The value is the one a
//! single thread finds; only the number of nodes changes.
//!
//! The search is one `Searcher` per thread, its work split by concern: `iterate` (iterative
//! deepening, aspiration windows, MTD(f) and time control), `root` (the passes over the root
//! moves and their exact ties), `node` (the node search: PVS, the table and move ordering)
//! and `split` (sharing a node's moves among the threads).

mod iterate;
mod node;
mod root;
mod split;

use split::{CloseOnDrop, SplitPoint, SplitPool};

use std::sync::Arc;

use std::time::Instant;

use rand::Rng;

use super::limits::StopFlag;
use super::ordering::{OrderingSwitches, OrderingTables};
use super::ply::PlyStack;
use super::result::{Reporter, SearchResult};
use super::settings::EngineSettings;
use super::stats::SearchStats;
use super::tree::SearchObserver;
use super::tt::TranspositionTable;
use super::{Evaluator, Game, score};

/// How often (in nodes, a power of two) the stop flag and the clock are read.
const POLL_INTERVAL: u64 = 256;

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
    if let Some(result) = threat_win(game, settings, started, stop) {
        Reporter::new(progress, started).answer(result.clone());
        return result;
    }
    let mut root_only = defences(game, settings, started, stop);
    // A recorded search runs on one thread: the record is then the whole search.
    let threads = if O::RECORDS {
        1
    } else {
        thread_count(settings.threads)
    };
    let mut run = |pool: Option<&SplitPool<G>>| {
        let reporter = Reporter::new(progress, started);
        let mut main = Searcher::new(
            game,
            (evaluator, settings),
            observer,
            table,
            &control,
            Some(reporter),
        );
        main.pool = pool;
        main.root_only = root_only.take();
        let mut position = game.clone();
        evaluator.prepare(&mut position);
        main.iterate(&mut position, rng, started)
    };
    let mut result = if threads > 1 {
        let pool = SplitPool::new();
        std::thread::scope(|scope| {
            // Closed however `run` ends (a panic too): the helpers then return.
            let closing = CloseOnDrop(&pool);
            let helpers: Vec<_> = (1..threads)
                .map(|_| {
                    let (pool, control) = (&pool, &control);
                    scope.spawn(move || pool.serve(game, (evaluator, settings), table, control))
                })
                .collect();
            let result = run(Some(&pool));
            drop(closing);
            // A helper that panicked has already stopped the search (the pool is broken).
            for helper in helpers {
                let _ = helper.join();
            }
            result
        })
    } else {
        run(None)
    };
    result.stats.elapsed = started.elapsed();
    result
}

/// Whether the root searches only the moves that stop a threatened forced win (on since a
/// threat search cut short by its budget no longer rules a move out: 34.5 - 25.5 in 60 games
/// against the same engine without it; counting those as unsafe lost 42.5 - 77.5), and whether leaves look for a short forced win (on: it won
/// 67 - 53 in 120 games against the same engine without it). See docs/performance.md,
/// "Gomoku threat search".
pub(crate) const ROOT_DEFENCE: bool = true;
pub(crate) const LEAF_THREATS: bool = true;
/// Whether a horizon node with no threat to answer looks for a quick forced win only when
/// its static value is below beta, as PentaZen's leaves do: where the value already fails
/// high, a win would only fail high further. The leaf search was a third of a timed
/// Gomoku search; with this, 20 - 30 % more nodes a second and 0.8 plies more at 300 ms
/// (docs/performance.md, "Wave 18").
pub(crate) const LEAF_WIN_BELOW_BETA: bool = true;
/// Plies a playing search may look past its horizon along forced replies
/// ([`Game::forced_replies`]; see docs/performance.md, "Gomoku threat search").
pub(crate) const QUIESCENCE_PLIES: u32 = 4;

/// Late move reductions (playing searches with a candidate limit, [`Searcher::reduction`]):
/// nodes at least this many moves from the horizon try their later moves shallower first.
const REDUCE_FROM_DEPTH: u32 = 3;
/// The first moves of a node (in search order) are never reduced. Two since wave 21: the
/// third move's test one ply shallower found 39 % fewer nodes at depth 14 on a middle-game
/// position and scored better against PentaZen (docs/performance.md, "Wave 21"); three
/// was chosen with two-ply steps.
const UNREDUCED_MOVES: usize = 2;
/// The step of a late move's reduction, in plies. One: Gomoku's evaluation used to swing
/// with the side to move at the horizon, so a test one ply shallower failed high so often
/// that it searched more nodes than none, and steps of two plies kept that side (one ply,
/// two from the ninth move, lost 35.5 - 84.5 against two, docs/performance.md "Wave 6").
/// The tempo for the side to move (wave 19) took most of that swing away, and single-ply
/// steps at twice the rate ([`LMR_SCALE`] halved) reach half a ply deeper at 300 ms a move
/// (docs/performance.md, "Wave 20").
const REDUCTION: u32 = 1;
/// A late move's test is [`REDUCTION`] plies shallower for each `LMR_SCALE` of
/// `ln(depth) * ln(index)` (at least one step): the further a node is from its horizon and
/// the later the move in its order, the shallower (the rule of Stockfish-like engines;
/// PentaZen's is `ln(depth) * ln(index) / 2` single plies). 1.5 with steps of two plies
/// until wave 20; the same rate in single plies is 0.75.
const LMR_SCALE: f64 = 0.75;

/// How many plies shallower the test of the move at `index` (0-based, in search order, at
/// least [`UNREDUCED_MOVES`]) of a node `depth` moves from the horizon is: a multiple of
/// [`REDUCTION`] growing with both ([`LMR_SCALE`]), leaving the test at least one move deep.
fn reduction_plies(depth: u32, index: usize) -> u32 {
    let steps = (f64::from(depth).ln() * (index as f64).ln() / LMR_SCALE) as u32;
    (REDUCTION * steps.max(1)).min(depth.saturating_sub(1))
}

/// How many plies more a late move that neglects a threat ([`super::Game::neglect`]) is
/// reduced: two when it is far from the opponent's last move, one more when far from the
/// mover's own (Rapfi's "useless defend move"; its search.cpp, step 15). Against Rapfi at
/// 300 ms with distraction pruning: docs/performance.md, "Wave 35"; 1 + 1 plies scored no
/// better ("Wave 36").
fn neglect_plies(neglect: Option<super::Neglect>) -> u32 {
    neglect.map_or(0, |n| {
        2 * u32::from(n.far_from_theirs) + u32::from(n.far_from_own)
    })
}

/// How many plies more a late move of an expected cut node is reduced ([`PlyStack::cut`]):
/// a null-window node expected to fail high, as a PVS search's sibling of a principal
/// variation move is and each node below it is in turn (Stockfish's `cutNode`). Its first
/// moves are searched in full and usually one of them cuts; when none has, its later moves
/// are tested a ply shallower than at other nodes: 9 % fewer nodes at depth 14 on a
/// middle-game position, and 237 of 480 against PentaZen where the search without scored
/// 222.5 on the same seeds, ahead on each (docs/performance.md, "Wave 26").
const CUT_NODE_REDUCTION: u32 = 1;

/// Late move pruning (playing searches with a candidate limit, [`Searcher::late_moves_kept`]):
/// how many moves a null-window test searches, by its distance from the horizon (index 0
/// is the horizon itself; past the end, every move). Four at one move from the horizon and
/// seven at two won 63 - 57 and 66.5 - 53.5 against the same engine without pruning
/// (docs/performance.md, "Wave 9"); nine at three moves (of 12 to 14 candidates there)
/// since wave 22: 285.5 of 600 against PentaZen, +22 of 360 where a base ran beside it
/// (docs/performance.md, "Wave 22"). Keeping 11 four moves from the horizon (Rapfi's
/// move-count pruning goes on at every depth) lost clearly (docs/performance.md, "Wave 36").
const PRUNING_KEEPS: [usize; 4] = [usize::MAX, 4, 7, 9];

/// Distraction pruning (playing searches with a candidate limit, switched with late move
/// pruning, [`Searcher::distraction`]): below this distance from the horizon a null-window
/// test leaves out the moves that ignore a threat far from the play
/// ([`super::Neglect::is_distraction`]). Rapfi prunes them below 6 of its plies; below 5
/// and 6 of ours scored no better against Rapfi (docs/performance.md, "Wave 36").
const DISTRACTION_DEPTH: u32 = 4;

/// Singular extensions (playing searches with a candidate limit, [`Searcher::singular`]):
/// a node at least this many moves from the horizon whose table move has a lower bound
/// (or exact value) from a search at most [`SINGULAR_TABLE_SLACK`] plies shallower tests
/// whether that move is the only good one, and if so searches it one ply deeper.
const SINGULAR_FROM_DEPTH: u32 = 8;
/// How far shallower the table's value of the move may have been searched.
const SINGULAR_TABLE_SLACK: u32 = 3;
/// The singular test's margin below the table's value, per move of depth: a node `depth`
/// moves out searches its other moves, at half its depth, against the table's value less
/// `depth * SINGULAR_MARGIN` (a fifth of an open three's weight at depth 8 with Gomoku's
/// default pattern table). 8 and 20 against PentaZen: +9.5 of 840 games over the search
/// without; 6 and 30: even on a screen of 240; so [`EngineSettings::singular`] is off by
/// default (docs/performance.md, "Wave 24").
pub const SINGULAR_MARGIN: i32 = 20;

/// The share of a timed search's time the root threat search may use when the clock
/// decides the depth (see [`threat_deadline`]).
const THREAT_TIME_SHARE: f64 = 0.1;
/// Nodes the root threat search may visit.
const THREAT_NODES: u64 = 100_000;

/// The answer of a playing search (one with a candidate limit) when the game's threat search
/// proves a forced win for the side to move at the root: its first move, at once, valued as
/// a win in as many moves as the line has, with the line as the principal variation.
fn threat_win<G: Game>(
    game: &G,
    settings: &EngineSettings,
    started: Instant,
    stop: &StopFlag,
) -> Option<SearchResult<G::Move>> {
    if !G::THREATS || settings.candidates == 0 || settings.solve || game.outcome().is_some() {
        return None;
    }
    let (line, nodes) = game.forced_win(
        THREAT_NODES,
        threat_deadline(settings, started, Instant::now()),
        stop,
    );
    let line = line?;
    let best = *line.first()?;
    let stats = SearchStats {
        nodes,
        iteration_nodes: nodes,
        depth: line.len() as u32,
        elapsed: started.elapsed(),
        ..SearchStats::default()
    };
    Some(SearchResult {
        best: Some(best),
        value: score::WIN - line.len() as i32,
        pv: line,
        ties: vec![best],
        stats,
        completed: true,
    })
}

/// For a playing search: the root moves that stop a forced win the opponent threatens (see
/// [`Game::threat_defences`]), or `None` to search the usual ones.
fn defences<G: Game>(
    game: &G,
    settings: &EngineSettings,
    started: Instant,
    stop: &StopFlag,
) -> Option<Vec<G::Move>> {
    if !ROOT_DEFENCE
        || !G::THREATS
        || settings.candidates == 0
        || settings.solve
        || game.outcome().is_some()
    {
        return None;
    }
    game.threat_defences(
        settings.candidates,
        THREAT_NODES,
        threat_deadline(settings, started, Instant::now()),
        stop,
    )
}

/// When a root threat search that starts `now` gives up, besides its node budget. With only
/// a time limit, the clock decides the depth, and each of the two root threat searches (the
/// forced win, then the defence) gets its own share of the time from its own start: with one
/// deadline for both, a forced-win search that used the share up left the defence none, and
/// the root then searched moves that lose to a threat it had not looked for. With a depth
/// limit, their nodes should decide (a share of the time cut them at a point that changed
/// with the machine's load, and with it the moves searched at the root: the same depth gave
/// other trees from run to run), so a time limit beside it only keeps both to the first half
/// of it, which leaves the main search time even when the turn is short (the whole time
/// once gave a depth-1 answer at `--depth 6 --time-ms 300`).
fn threat_deadline(settings: &EngineSettings, started: Instant, now: Instant) -> Option<Instant> {
    let time = settings.limits.time?;
    Some(if settings.limits.depth.is_some() {
        started + time / 2
    } else {
        // With a target (a match clock) the share is of the time the move aims for.
        now + settings
            .limits
            .target
            .unwrap_or(time)
            .min(time)
            .mul_f64(THREAT_TIME_SHARE)
    })
}

/// The number of threads for a `threads` setting (0 = one per core).
pub fn thread_count(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    } else {
        threads
    }
}

/// One thread's search: what it reads (shared with the other threads) and what it keeps
/// for itself (counters, ordering tables, per-ply buffers). Its methods live in the
/// submodules, one concern each.
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
    /// The threads this searcher shares split nodes with (none on one thread).
    pool: Option<&'a SplitPool<G>>,
    /// The innermost split point this thread is searching moves of, if any.
    within: Option<Arc<SplitPoint<G>>>,
    /// On a helper thread: how many of `stats.nodes` the pool already counts for progress
    /// reports (see [`SplitPool::helper_nodes`]).
    flushed: u64,
    /// Height of the subtree searched last, `None` when a horizon evaluation influenced it.
    height: Option<u32>,
    /// Move lists keyed by [`super::ordering::move_key`], and the PV table.
    plies: PlyStack<G::Move, i64>,
    /// The only root moves to search (the defences against a threatened forced win).
    root_only: Option<Vec<G::Move>>,
    /// The node whose table move a singular test leaves out (its ply), and that move.
    excluded: Option<(usize, G::Move)>,
    /// Extensions stop at this ply (twice the iteration's depth), so that no line grows
    /// past the move buffers.
    ply_limit: usize,
    /// Whether the next node entered is an expected cut node ([`PlyStack::cut`]): set by
    /// its parent just before it searches the child, taken by the child on entry.
    next_cut: bool,
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
            pool: None,
            within: None,
            flushed: 0,
            height: None,
            plies: PlyStack::default(),
            root_only: None,
            excluded: None,
            ply_limit: 0,
            next_cut: false,
        }
    }

    /// Stops the search once the caller asks, the deadline passes or the split point it works
    /// for cuts off, and reports progress.
    fn poll(&mut self) {
        if self.halted() || self.abandoned() {
            self.stopped = true;
        }
        if let Some(reporter) = &mut self.reporter {
            let mut stats = self.stats;
            stats.nodes += self.pool.map_or(0, SplitPool::helper_nodes);
            reporter.tick(&stats);
        } else {
            self.flush_nodes();
        }
    }

    /// The moves the node at `ply`, `depth` moves from the horizon, searches: the game's
    /// candidates when limited (more at the root and far from the horizon:
    /// [`EngineSettings::candidates_at`]), its value-preserving subset when solving, else
    /// every legal move.
    fn generate(&self, game: &G, ply: usize, depth: u32, out: &mut Vec<G::Move>) {
        if self.settings.candidates > 0 {
            game.candidate_moves(out, self.settings.candidates_at(ply, depth));
        } else if self.settings.solve {
            game.solver_moves(out);
        } else {
            game.legal_moves(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::engine::settings::Algorithm;

    #[test]
    fn a_depth_limit_gives_the_root_threat_searches_half_the_time() {
        let started = Instant::now();
        let later = started + Duration::from_secs(3);
        let mut settings = EngineSettings::to_depth(Algorithm::Full, 8);
        assert_eq!(threat_deadline(&settings, started, later), None);
        settings.limits.time = Some(Duration::from_secs(10));
        // Both searches share the first half of the time.
        assert_eq!(
            threat_deadline(&settings, started, later),
            Some(started + Duration::from_secs(5))
        );
        settings.limits.depth = None;
        // Each search gets its share from its own start.
        assert_eq!(
            threat_deadline(&settings, started, started),
            Some(started + Duration::from_secs(1))
        );
        assert_eq!(
            threat_deadline(&settings, started, later),
            Some(later + Duration::from_secs(1))
        );
    }

    #[test]
    fn late_moves_are_reduced_more_far_from_the_horizon_and_late_in_the_order() {
        // The first reduced move of the shallowest reducing node: one step.
        assert_eq!(
            reduction_plies(REDUCE_FROM_DEPTH, UNREDUCED_MOVES),
            REDUCTION
        );
        // ln 10 * ln 10 / 0.75 = 7.07: seven steps.
        assert_eq!(reduction_plies(10, 10), 7 * REDUCTION);
        for depth in REDUCE_FROM_DEPTH..40 {
            for index in UNREDUCED_MOVES..64 {
                let plies = reduction_plies(depth, index);
                // At least one step (or all but one ply), and the test keeps a ply.
                assert!(plies >= REDUCTION.min(depth - 1), "{depth} {index}");
                assert!(plies < depth, "{depth} {index}");
                assert!(
                    plies <= reduction_plies(depth + 1, index),
                    "{depth} {index}"
                );
                assert!(
                    plies <= reduction_plies(depth, index + 1),
                    "{depth} {index}"
                );
            }
        }
    }
}
