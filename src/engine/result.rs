//! What a search answers: the [`SearchResult`], the two answers every search gives when it
//! has nothing better (a finished game, or a stop before any move was searched), and the
//! `Reporter` that hands progress to the caller while a search runs.

use std::time::{Duration, Instant};

use super::stats::SearchStats;

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The chosen move; `None` when the game is already over.
    pub best: Option<M>,
    /// Its value from the side to move's point of view (see [`super::score`]).
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

impl<M: Clone> SearchResult<M> {
    /// The answer when the game is already over: no move, the outcome's `value`.
    pub(crate) fn game_over(value: i32, stats: SearchStats) -> Self {
        Self {
            best: None,
            value,
            pv: Vec::new(),
            ties: Vec::new(),
            stats,
            completed: true,
        }
    }

    /// The answer of a search stopped before it searched any root move completely: `first`
    /// (any legal move beats none), with value 0 and depth 0 because neither means anything.
    pub(crate) fn fallback(first: Option<M>, completed: bool) -> Self {
        Self {
            best: first.clone(),
            value: 0,
            pv: first.clone().into_iter().collect(),
            ties: first.into_iter().collect(),
            stats: SearchStats::default(),
            completed,
        }
    }
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
        let mut result = self
            .best
            .clone()
            .unwrap_or_else(|| SearchResult::fallback(None, false));
        let (depth, iteration_nodes) = (result.stats.depth, result.stats.iteration_nodes);
        result.stats = *stats;
        result.stats.depth = depth;
        result.stats.iteration_nodes = iteration_nodes;
        result.stats.elapsed = now.duration_since(self.started);
        (self.sink)(&result);
    }
}
