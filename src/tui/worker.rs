//! The engine on a background thread: one search at a time, each with an id and its own
//! stop flag. Reports go out through an injected sink, so the worker never sees the TUI's
//! event type; the app drops reports whose id it no longer waits for.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::brain::client::{BrainError, BrainLine, BrainPlayer};
use crate::engine::api::{Algorithm, EngineSettings, SearchResult};
use crate::engine::clock::ClockReading;
use crate::engine::limits::{Limits, StopFlag};
use crate::engine::settings::candidates_at;
use crate::engine::tree::{
    Bound, NodeKind, NoopObserver, SearchObserver, SearchTree, TreeRecorder,
};
use crate::engine::{Game, Player};
use crate::games::Playable;
use crate::player::EnginePlayer;

/// Identifies one search; the app waits for one id at a time.
pub type SearchId = u64;

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The engine's own move.
    Move,
    /// A suggestion for the human to move.
    Hint,
    /// A search the user asked for, to browse its tree (`t`).
    Tree,
    /// The same position searched by every algorithm, to compare the trees (`v`).
    Compare,
}

/// How the worker runs a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// The side's engine searches and records nothing: the no-op observer, full speed.
    Think,
    /// The side's engine searches and records the tree, up to `max_nodes` nodes
    /// ([`Report::Recorded`] comes just before `Finished`).
    Record {
        /// The recorder's node budget.
        max_nodes: usize,
        /// With the side's own settings, or as the tree pane's `t` asks.
        how: TreeSearch,
    },
    /// Every search of [`comparison`] in turn, each recorded ([`Report::Compared`] for each,
    /// then `Finished`); plain minimax stops after [`MINIMAX_COUNT_BUDGET`] nodes.
    Compare {
        /// The recorder's node budget per search.
        max_nodes: usize,
        /// The depth every search goes to ([`comparison_depth`]).
        depth: u32,
        /// The full engine is compared too ([`comparison`]).
        full_engine: bool,
    },
}

/// A message from the worker.
#[derive(Clone, Debug, PartialEq)]
pub enum Report<M> {
    /// Intermediate result (an iteration finished, or at most every 100 ms).
    Progress {
        /// The search.
        id: SearchId,
        /// The best so far.
        result: SearchResult<M>,
    },
    /// The search ended, completed or stopped.
    Finished {
        /// The search.
        id: SearchId,
        /// Its answer.
        result: SearchResult<M>,
    },
    /// After a pruning search that was not stopped: the nodes plain minimax visits to the
    /// depth the answer came from (`stats.depth`), counted after `Finished`.
    MinimaxNodes {
        /// The search this belongs to.
        id: SearchId,
        /// The count; `None` when it passed [`MINIMAX_COUNT_BUDGET`] and was given up.
        nodes: Option<u64>,
        /// When it was given up: the deepest shallower count that fitted the budget, from
        /// which the pane estimates the whole.
        estimate: Option<MinimaxEstimate>,
    },
    /// The tree a [`Job::Record`] search recorded (sent just before its `Finished`).
    Recorded {
        /// The search.
        id: SearchId,
        /// The tree, its principal variation marked.
        tree: Box<SearchTree<M>>,
    },
    /// One search of a [`Job::Compare`] ended (they come in the order of [`comparison`]).
    Compared {
        /// The comparison.
        id: SearchId,
        /// Which search of [`comparison`].
        index: usize,
        /// Its answer.
        result: SearchResult<M>,
        /// Its tree, the principal variation marked.
        tree: Box<SearchTree<M>>,
        /// It was plain minimax, stopped at [`MINIMAX_COUNT_BUDGET`] nodes.
        gave_up: bool,
        /// When it gave up: the size of its whole tree by [`minimax_estimate`].
        estimate: Option<MinimaxEstimate>,
    },
    /// A line an external brain printed while it thought (`MESSAGE`, `DEBUG`).
    BrainSaid {
        /// The search (the brain's move) it belongs to.
        id: SearchId,
        /// The brain's side.
        side: Player,
        /// The brain's name (from `ABOUT` once it answered).
        name: String,
        /// The line; `None` only names the brain (sent once its move is in).
        line: Option<BrainLine>,
    },
    /// An external brain gave no move (it crashed, hung, said `ERROR` or played an illegal
    /// move), or a side's search took it past its match time: it loses the game.
    Forfeit {
        /// The search (the side's move).
        id: SearchId,
        /// Why, in words.
        reason: String,
    },
    /// The search panicked; the message says why.
    Failed {
        /// The search.
        id: SearchId,
        /// The panic message.
        reason: String,
    },
}

/// The least time between two progress reports passed on to the app. A little under the
/// search's own 100 ms, so that its regular reports are not dropped for a few
/// microseconds of jitter.
const PROGRESS_GAP: Duration = Duration::from_millis(80);

/// Minimax trees bigger than this are not counted (the count would cost more than it tells).
pub const MINIMAX_COUNT_BUDGET: u64 = 3_000_000;

/// The depth a comparison searches to: the side's depth, or `game_depth` (the game's own
/// default) when the side's depth only stands for "as deep as the time allows" (the full
/// engine under a time limit), which a fixed-depth search would never finish.
pub fn comparison_depth(base: &EngineSettings, game_depth: u32) -> u32 {
    base.limits.depth.unwrap_or(game_depth)
}

/// How a recorded search runs: the engine's own moves and hints with the side's settings,
/// `t` as the tree pane is set (`E` for the engine, `+`/`-` for the depth).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TreeSearch {
    /// The side's own engine settings (a time limit stays one).
    Own,
    /// Plain alpha-beta to this depth ([`lesson_settings`]): `t` unless the pane is switched
    /// to the full engine.
    Lesson(u32),
    /// The side's own engine to this depth with no time limit or clock: `t` with the full engine
    /// after the depth was set with `+`/`-`.
    FullTo(u32),
}

impl TreeSearch {
    /// The settings this search runs with, `None` for the side's own (`base`).
    pub fn settings(self, base: &EngineSettings) -> Option<EngineSettings> {
        match self {
            Self::Own => None,
            Self::Lesson(depth) => Some(lesson_settings(base, depth)),
            Self::FullTo(depth) => Some(to_depth(base, depth)),
        }
    }
}

/// The search `t` runs by default, the algorithm of the lesson: plain alpha-beta with move
/// ordering to `depth`, on one thread, with the side's evaluator and candidate moves.
pub fn lesson_settings(base: &EngineSettings, depth: u32) -> EngineSettings {
    EngineSettings {
        algorithm: Algorithm::AlphaBeta,
        ordering: true,
        threads: 1,
        ..to_depth(base, depth)
    }
}

/// `base` searching to exactly `depth`: no time limit and no match clock.
fn to_depth(base: &EngineSettings, depth: u32) -> EngineSettings {
    EngineSettings {
        limits: Limits::depth(depth),
        match_time: None,
        ..base.clone()
    }
}

/// The searches a comparison runs on one position, all to `depth`, named: plain minimax,
/// alpha-beta without and with move ordering, then, with `full_engine`, every further
/// algorithm of [`Algorithm::ALL`] with the side's own settings but no time limit and no
/// match clock (so that it, too, reaches `depth`).
pub fn comparison(
    base: &EngineSettings,
    depth: u32,
    full_engine: bool,
) -> Vec<(String, EngineSettings)> {
    let mut out = Vec::new();
    for algorithm in Algorithm::ALL {
        if !full_engine && !matches!(algorithm, Algorithm::Minimax | Algorithm::AlphaBeta) {
            continue;
        }
        let settings = EngineSettings {
            algorithm,
            ..to_depth(base, depth)
        };
        if algorithm == Algorithm::Minimax {
            out.push((
                algorithm.name().to_string(),
                EngineSettings {
                    ordering: false,
                    ..settings
                },
            ));
        } else if algorithm == Algorithm::AlphaBeta {
            for ordering in [false, true] {
                let name = if ordering { "ordered" } else { "unordered" };
                out.push((
                    format!("{algorithm} {name}"),
                    EngineSettings {
                        ordering,
                        ..settings.clone()
                    },
                ));
            }
        } else {
            out.push((algorithm.name().to_string(), settings));
        }
    }
    out
}

enum Command<G: Game> {
    Search {
        id: SearchId,
        root: G,
        side: Player,
        stop: StopFlag,
        job: Job,
        clock: Option<ClockReading>,
    },
    Quit,
}

/// A handle to the engine thread. Dropping it stops the search and joins the thread.
pub struct Worker<G: Playable> {
    tx: Sender<Command<G>>,
    current: Option<StopFlag>,
    thread: Option<JoinHandle<()>>,
}

impl<G: Playable> Worker<G> {
    /// Starts the thread with one engine per side (index [`Player::index`]); every report is
    /// passed to `sink`.
    pub fn spawn(
        engines: [EnginePlayer<G>; 2],
        sink: impl Fn(Report<G::Move>) + Send + 'static,
    ) -> std::io::Result<Self> {
        Self::spawn_with_brains(engines, [None, None], sink)
    }

    /// [`Worker::spawn`], with the sides that have an external brain playing their moves
    /// (their engine still runs tree searches and comparisons).
    pub fn spawn_with_brains(
        engines: [EnginePlayer<G>; 2],
        brains: [Option<BrainPlayer>; 2],
        sink: impl Fn(Report<G::Move>) + Send + 'static,
    ) -> std::io::Result<Self> {
        let (tx, rx) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("gametree-engine".to_string())
            .spawn(move || worker_loop(engines, brains, &rx, &sink))?;
        Ok(Self {
            tx,
            current: None,
            thread: Some(thread),
        })
    }

    /// Starts searching `root` for `side`'s engine, stopping any search still running.
    pub fn start(&mut self, id: SearchId, root: G, side: Player) {
        self.run(id, root, side, Job::Think, None);
    }

    /// Starts `job` on `root` with `side`'s engine, stopping any search still running; with
    /// `clock`, the side's own move on its match clock (see [`EnginePlayer::think_on_clock`]).
    pub fn run(
        &mut self,
        id: SearchId,
        root: G,
        side: Player,
        job: Job,
        clock: Option<ClockReading>,
    ) {
        self.stop();
        let stop = StopFlag::new();
        self.current = Some(stop.clone());
        // A send error means the thread is gone; the app then never hears back, and shows
        // the search as running until the user undoes or quits, which both still work.
        let _ = self.tx.send(Command::Search {
            id,
            root,
            side,
            stop,
            job,
            clock,
        });
    }

    /// Asks the running search (if any) to stop; it answers with `Finished` promptly.
    pub fn stop(&mut self) {
        if let Some(stop) = self.current.take() {
            stop.raise();
        }
    }
}

impl<G: Playable> Drop for Worker<G> {
    fn drop(&mut self) {
        self.stop();
        let _ = self.tx.send(Command::Quit);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn worker_loop<G: Playable>(
    mut engines: [EnginePlayer<G>; 2],
    mut brains: [Option<BrainPlayer>; 2],
    rx: &Receiver<Command<G>>,
    sink: &dyn Fn(Report<G::Move>),
) {
    while let Ok(command) = rx.recv() {
        let Command::Search {
            id,
            root,
            side,
            stop,
            job,
            clock,
        } = command
        else {
            break;
        };
        let engine = &mut engines[side.index()];
        let brain = brains[side.index()].as_mut();
        let outcome = catch_unwind(AssertUnwindSafe(|| match (brain, job) {
            // The brain plays the side's moves; the tree pane's searches stay the engine's.
            (
                Some(brain),
                Job::Think
                | Job::Record {
                    how: TreeSearch::Own,
                    ..
                },
            ) => {
                run_brain(brain, side, &root, id, &stop, sink);
            }
            _ => run_job(engine, &root, id, job, clock, &stop, sink),
        }));
        if let Err(panic) = outcome {
            let reason = panic
                .downcast_ref::<&str>()
                .map(ToString::to_string)
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "the search panicked".to_string());
            sink(Report::Failed { id, reason });
        }
    }
}

/// An external brain's move: its lines as they come, then its answer, or its forfeit.
fn run_brain<G: Playable>(
    brain: &mut BrainPlayer,
    side: Player,
    root: &G,
    id: SearchId,
    stop: &StopFlag,
    sink: &dyn Fn(Report<G::Move>),
) {
    let Some(gomoku) = root.as_gomoku() else {
        sink(Report::Forfeit {
            id,
            reason: format!("brain {} plays only Gomoku", brain.name()),
        });
        return;
    };
    let started = Instant::now();
    let name = brain.name().to_string();
    let answer = brain.choose(gomoku, stop, &mut |line| {
        sink(Report::BrainSaid {
            id,
            side,
            name: name.clone(),
            line: Some(line),
        });
    });
    if brain.name() != name {
        sink(Report::BrainSaid {
            id,
            side,
            name: brain.name().to_string(),
            line: None,
        });
    }
    match answer {
        Ok(cell) => {
            let mut result = SearchResult::fallback(G::move_from_gomoku(cell), true);
            result.stats.elapsed = started.elapsed();
            sink(Report::Finished { id, result });
        }
        Err(BrainError::Stopped) => sink(Report::Finished {
            id,
            result: SearchResult::fallback(None, false),
        }),
        Err(BrainError::Forfeit(reason)) => sink(Report::Forfeit { id, reason }),
    }
}

fn run_job<G: Playable>(
    engine: &mut EnginePlayer<G>,
    root: &G,
    id: SearchId,
    job: Job,
    clock: Option<ClockReading>,
    stop: &StopFlag,
    sink: &dyn Fn(Report<G::Move>),
) {
    // The search reports at most every 100 ms and at once after an iteration; pass those on,
    // but not the bursts of quick iterations (a few ms apart at the start of a search).
    let mut last_progress: Option<Instant> = None;
    let mut progress = |result: &SearchResult<G::Move>| {
        if last_progress.is_none_or(|t| t.elapsed() >= PROGRESS_GAP) {
            last_progress = Some(Instant::now());
            sink(Report::Progress {
                id,
                result: result.clone(),
            });
        }
    };
    let mut asked = None;
    let result = match job {
        Job::Think => {
            let reading = clock.unwrap_or_default();
            engine.think_on_clock(root, reading, &mut NoopObserver, stop, &mut progress)
        }
        Job::Record { max_nodes, how } => {
            let mut recorder = TreeRecorder::new(max_nodes);
            let engine = match how.settings(&engine.settings) {
                Some(settings) => {
                    let mut player = engine.clone();
                    player.settings = settings;
                    asked.insert(player)
                }
                None => &mut *engine,
            };
            let reading = clock.unwrap_or_default();
            let result = engine.think_on_clock(root, reading, &mut recorder, stop, &mut progress);
            let mut tree = recorder.finish_for(&result);
            tree.add_skipped(root, skipped_room(max_nodes, &tree));
            sink(Report::Recorded {
                id,
                tree: Box::new(tree),
            });
            result
        }
        Job::Compare {
            max_nodes,
            depth,
            full_engine,
        } => {
            let mut last = None;
            // Every search sees the tree plain minimax sees: an endgame database's exact
            // values past the depth would make the full engine's value differ from
            // minimax's for a reason that is no error.
            let plain = root.without_exact_values();
            let root = &plain;
            let searches = comparison(&engine.settings, depth, full_engine);
            for (index, (_, settings)) in searches.into_iter().enumerate() {
                if stop.is_raised() {
                    break;
                }
                let mut player = engine.clone();
                player.settings = settings;
                let budget = (player.settings.algorithm == Algorithm::Minimax)
                    .then_some(MINIMAX_COUNT_BUDGET);
                let own_stop = StopFlag::new();
                let mut observer = Budgeted {
                    recorder: TreeRecorder::new(max_nodes),
                    nodes: 0,
                    budget,
                    cancel: stop,
                    stop: &own_stop,
                    gave_up: false,
                };
                let result = player.think_observed(root, &mut observer, &own_stop, &mut progress);
                let gave_up = observer.gave_up;
                let mut tree = observer.recorder.finish_for(&result);
                tree.add_skipped(root, skipped_room(max_nodes, &tree));
                let mut estimate = None;
                if gave_up {
                    tree.add_unreached_root_moves(root);
                    estimate = minimax_estimate(
                        root,
                        depth,
                        player.settings.candidates,
                        MINIMAX_COUNT_BUDGET,
                        stop,
                    );
                }
                sink(Report::Compared {
                    id,
                    index,
                    result: result.clone(),
                    tree: Box::new(tree),
                    gave_up,
                    estimate,
                });
                last = Some(result);
            }
            sink(Report::Finished {
                id,
                result: last.unwrap_or_else(|| SearchResult {
                    best: None,
                    value: 0,
                    pv: Vec::new(),
                    ties: Vec::new(),
                    stats: crate::engine::stats::SearchStats::default(),
                    completed: false,
                }),
            });
            return;
        }
    };
    let engine = asked.as_ref().unwrap_or(engine);
    // The depth the answer comes from: the full engine's last iteration.
    let depth = match engine.settings.algorithm {
        Algorithm::Full => result.stats.depth,
        _ => engine.settings.limits.max_depth(),
    };
    // The app charges the search's own time to the clock (the step list keeps it), so the
    // check does too; the command line charges the time around the whole call, a
    // millisecond or so more.
    if let Some(reason) =
        clock.and_then(|reading| engine.lost_on_time(reading, result.stats.elapsed, &result))
    {
        sink(Report::Forfeit { id, reason });
        return;
    }
    sink(Report::Finished { id, result });
    if engine.settings.algorithm.prunes() && !stop.is_raised() && depth > 0 {
        let candidates = engine.settings.candidates;
        let nodes = minimax_nodes(root, depth, candidates, MINIMAX_COUNT_BUDGET, stop);
        let estimate = if nodes.is_none() && !stop.is_raised() {
            minimax_estimate(root, depth, candidates, MINIMAX_COUNT_BUDGET, stop)
        } else {
            None
        };
        // Stopped while counting: the app has moved on and no longer waits for the count.
        if nodes.is_some() || !stop.is_raised() {
            sink(Report::MinimaxNodes {
                id,
                nodes,
                estimate,
            });
        }
    }
}

/// A recorder that also stops its search: past `budget` nodes (plain minimax in a
/// comparison), or when the user cancels the whole comparison.
struct Budgeted<'a, M> {
    recorder: TreeRecorder<M>,
    nodes: u64,
    budget: Option<u64>,
    /// The comparison's flag, raised by the user.
    cancel: &'a StopFlag,
    /// This search's own flag, so stopping one search leaves the next ones to run.
    stop: &'a StopFlag,
    gave_up: bool,
}

impl<M: Copy + PartialEq> SearchObserver<M> for Budgeted<'_, M> {
    fn enter(&mut self, mv: Option<M>, depth: u32, to_move: Player, alpha: i32, beta: i32) {
        self.nodes += 1;
        if !self.gave_up && self.budget.is_some_and(|b| self.nodes > b) {
            self.gave_up = true;
            self.stop.raise();
        }
        if self.nodes.is_multiple_of(1024) && self.cancel.is_raised() {
            self.stop.raise();
        }
        self.recorder.enter(mv, depth, to_move, alpha, beta);
    }

    fn leave(&mut self, value: i32, bound: Bound, skipped: u32) {
        self.recorder.leave(value, bound, skipped);
    }

    fn label_next(&mut self, kind: NodeKind) {
        self.recorder.label_next(kind);
    }

    fn range_cut(&mut self) {
        self.recorder.range_cut();
    }

    fn futility_cut(&mut self) {
        self.recorder.futility_cut();
    }

    fn tt_hit(&mut self, stored_depth: u32) {
        self.recorder.tt_hit(stored_depth);
    }

    fn pruned(&mut self, count: u32) {
        self.recorder.pruned(count);
    }

    fn distracted(&mut self, count: u32) {
        self.recorder.distracted(count);
    }

    fn begin_iteration(&mut self, depth: u32) {
        self.recorder.begin_iteration(depth);
    }
}

/// The nodes plain minimax visits searching `game` to `depth` (the root included, as
/// [`crate::engine::stats::SearchStats::nodes`] counts them), or `None` past `budget` or
/// when `stop` is raised.
pub fn minimax_nodes<G: Game>(
    game: &G,
    depth: u32,
    candidates: usize,
    budget: u64,
    stop: &StopFlag,
) -> Option<u64> {
    /// Counts the nodes below `game`, one move deeper per buffer left (`depth` buffers at
    /// the root, so the ply is `depth` less the buffers left).
    fn walk<G: Game>(
        game: &mut G,
        candidates: usize,
        depth: usize,
        buffers: &mut [Vec<G::Move>],
        count: &mut u64,
        budget: u64,
        stop: &StopFlag,
    ) -> bool {
        *count += 1;
        if *count > budget || (count.is_multiple_of(4096) && stop.is_raised()) {
            return false;
        }
        let ply = depth - buffers.len();
        let moves_left = buffers.len() as u32;
        if game.outcome().is_some() {
            return true;
        }
        let Some((moves, rest)) = buffers.split_first_mut() else {
            return true;
        };
        if candidates > 0 {
            // The moves the compared searches consider at this node.
            game.candidate_moves(moves, candidates_at(candidates, ply, moves_left));
        } else {
            game.legal_moves(moves);
        }
        for &mv in moves.iter() {
            let undo = game.play(mv);
            let ok = walk(game, candidates, depth, rest, count, budget, stop);
            game.undo(mv, undo);
            if !ok {
                return false;
            }
        }
        true
    }
    let mut position = game.clone();
    let mut buffers = vec![Vec::new(); depth as usize];
    let mut count = 0;
    walk(
        &mut position,
        candidates,
        depth as usize,
        &mut buffers,
        &mut count,
        budget,
        stop,
    )
    .then_some(count)
}

/// Plain minimax's node count to a shallower depth than the one asked, and to the depth
/// before that: what a tree too big to count grows like, one ply at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MinimaxEstimate {
    /// The deepest depth whose whole tree was counted.
    pub depth: u32,
    /// Its nodes.
    pub nodes: u64,
    /// The nodes of the tree one ply shallower.
    pub previous: u64,
}

impl MinimaxEstimate {
    /// How many times as many nodes each ply more takes, by the last two counts.
    pub fn growth(&self) -> f64 {
        self.nodes as f64 / self.previous.max(1) as f64
    }

    /// The nodes of the tree to `depth`, at [`Self::growth`] a ply past the counted depth.
    pub fn nodes_to(&self, depth: u32) -> f64 {
        let plies = depth.saturating_sub(self.depth);
        self.nodes as f64 * self.growth().powi(i32::try_from(plies).unwrap_or(i32::MAX))
    }
}

/// For a tree to `depth` that [`minimax_nodes`] gave up on: minimax counted to one depth
/// after another from 1, within `budget` nodes in all, until a depth does not fit; `None`
/// when fewer than two depths fit (no growth to go by) or `stop` was raised.
pub fn minimax_estimate<G: Game>(
    game: &G,
    depth: u32,
    candidates: usize,
    budget: u64,
    stop: &StopFlag,
) -> Option<MinimaxEstimate> {
    let mut left = budget;
    let mut counts: Vec<u64> = Vec::new();
    for shallower in 1..depth {
        let Some(nodes) = minimax_nodes(game, shallower, candidates, left, stop) else {
            break;
        };
        left -= nodes;
        counts.push(nodes);
    }
    if stop.is_raised() {
        return None;
    }
    match counts[..] {
        [.., previous, nodes] => Some(MinimaxEstimate {
            depth: counts.len() as u32,
            nodes,
            previous,
        }),
        _ => None,
    }
}

/// How many skipped moves a recorded tree gets as rows: what is left of the budget, and at
/// least 10,000 (so a tree that filled its budget still shows the cut-offs near the root).
fn skipped_room<M>(budget: usize, tree: &crate::engine::tree::SearchTree<M>) -> usize {
    budget.saturating_sub(tree.nodes.len()).max(10_000)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    use super::*;
    use crate::engine::api::search;
    use crate::games::kalah::{Kalah, StoreEval};

    /// The seeded search both recorders watch.
    fn solve<O: SearchObserver<<Kalah as Game>::Move>>(
        game: &Kalah,
        settings: &EngineSettings,
        observer: &mut O,
    ) -> SearchResult<<Kalah as Game>::Move> {
        let never = StopFlag::new();
        let mut rng = SmallRng::seed_from_u64(1);
        search(
            game,
            &StoreEval,
            settings,
            &mut rng,
            observer,
            &never,
            &mut |_| {},
        )
    }

    /// The comparison's recorder hands every event on to the recorder it wraps: its tree is
    /// the one a plain recorder keeps of the same search, node kinds and range cuts too
    /// (each a default no-op of the observer trait that a wrapper must forward itself).
    #[test]
    fn the_comparison_recorder_records_what_a_plain_recorder_does() {
        // A small Kalah solved, with no endgame database: the null-window tests cut nodes
        // off by the points still to be won (range cuts).
        let options = crate::games::kalah::KalahOptions {
            pits: 3,
            stones: 2,
            endgame_stones: 0,
            ..Default::default()
        };
        let game = Kalah::new_game(&options);
        let settings = EngineSettings {
            random_ties: false,
            threads: 1,
            solve: true,
            ..EngineSettings::to_depth(Algorithm::Full, 64)
        };
        let mut plain = TreeRecorder::new(1_000_000);
        let result = solve(&game, &settings, &mut plain);
        let (never, own) = (StopFlag::new(), StopFlag::new());
        let mut budgeted = Budgeted {
            recorder: TreeRecorder::new(1_000_000),
            nodes: 0,
            budget: None,
            cancel: &never,
            stop: &own,
            gave_up: false,
        };
        let again = solve(&game, &settings, &mut budgeted);
        let (plain, budgeted) = (
            plain.finish_for(&result),
            budgeted.recorder.finish_for(&again),
        );
        for kind in [NodeKind::NullWindow, NodeKind::RangeCut] {
            assert!(
                plain.nodes.iter().any(|n| n.kind == kind),
                "the search has no {kind:?} node to compare"
            );
        }
        assert_eq!(budgeted.nodes, plain.nodes);
    }

    #[test]
    fn a_tree_too_big_to_count_is_estimated_from_the_depths_that_fit() {
        let game = Kalah::new(6, 4);
        let never = StopFlag::new();
        let count = |depth| minimax_nodes(&game, depth, 0, u64::MAX, &never).unwrap();
        let (one, two, three) = (count(1), count(2), count(3));
        // Room for depths 1 and 2 together, not for 3 as well.
        let budget = one + two + three / 2;
        assert!(minimax_nodes(&game, 12, 0, budget, &never).is_none());
        let estimate = minimax_estimate(&game, 12, 0, budget, &never).unwrap();
        assert_eq!(
            estimate,
            MinimaxEstimate {
                depth: 2,
                nodes: two,
                previous: one,
            }
        );
        let growth = two as f64 / one as f64;
        assert!((estimate.nodes_to(4) - two as f64 * growth * growth).abs() < 1e-6);
        assert!((estimate.nodes_to(2) - two as f64).abs() < 1e-9);
        // Only one depth fits: no growth to go by.
        assert_eq!(minimax_estimate(&game, 12, 0, one + 1, &never), None);
        // Stopped: nothing.
        let stop = StopFlag::new();
        stop.raise();
        assert_eq!(minimax_estimate(&game, 12, 0, budget, &stop), None);
    }
}
