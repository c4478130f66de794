//! What a search is asked to do: the [`Algorithm`] and the [`SearchSettings`] every search
//! reads. Plain data: no search lives here, so every search can depend on it.

use serde::{Deserialize, Serialize};

/// Which search a player uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Plain minimax: every node to the full depth, no pruning. The reference.
    Minimax,
    /// Alpha-beta (negamax, fail-soft), with optional move ordering.
    #[serde(rename = "alphabeta")]
    AlphaBeta,
    /// The full engine: iterative deepening, transposition table, PVS, aspiration windows,
    /// killer and history ordering, time control and threads (see [`super::full`]).
    Full,
}

impl Algorithm {
    /// Every algorithm, in the order menus show them.
    pub const ALL: [Self; 3] = [Self::Minimax, Self::AlphaBeta, Self::Full];

    /// The name used in config files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Self::Minimax => "minimax",
            Self::AlphaBeta => "alphabeta",
            Self::Full => "full",
        }
    }

    /// Whether the algorithm prunes (alpha-beta and the full engine do, minimax does not).
    pub fn prunes(self) -> bool {
        self != Self::Minimax
    }
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Algorithm {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| {
                format!("unknown algorithm `{s}`: expected one of minimax, alphabeta, full")
            })
    }
}

/// How one search is run.
// Independent switches, each measured on its own: not a state machine.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchSettings {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Moves to look ahead (an extra turn is a move of its own). At least 1. The full engine
    /// deepens up to it (and stops earlier on time or once the value is proven).
    pub depth: u32,
    /// Sort children by static evaluation before searching them (alpha-beta and full).
    pub ordering: bool,
    /// Pick at random among root moves of exactly equal value; otherwise the first in
    /// move-generation order.
    pub random_ties: bool,
    /// Search only this many candidate moves per node where the game prunes heuristically
    /// (Gomoku); 0 means every legal move.
    pub candidates: usize,
    /// Time per move in milliseconds; 0 = no limit (the depth decides). Used by the
    /// iterative-deepening engine.
    pub time_ms: u64,
    /// Transposition table size in MiB (iterative-deepening engine).
    pub tt_mb: usize,
    /// Search threads (iterative-deepening engine); 0 = one per core.
    pub threads: usize,
    /// Full engine: use the transposition table (values and its move for ordering).
    pub tt: bool,
    /// Full engine: killer moves in the ordering.
    pub killers: bool,
    /// Full engine: the history heuristic in the ordering.
    pub history: bool,
    /// Full engine: principal variation search (null windows after the first move).
    pub pvs: bool,
    /// Full engine: aspiration windows around the previous iteration's value.
    pub aspiration: bool,
    /// Exact solving (full engine): the game's value-preserving pruning rules
    /// ([`Game::solver_moves`](super::Game::solver_moves)) apply. Only for searches to the end of the game.
    pub solve: bool,
}

impl Default for SearchSettings {
    fn default() -> Self {
        Self {
            algorithm: Algorithm::AlphaBeta,
            depth: 4,
            ordering: true,
            random_ties: true,
            candidates: 0,
            time_ms: 0,
            tt_mb: 64,
            threads: 1,
            tt: true,
            killers: true,
            history: true,
            pvs: true,
            aspiration: true,
            solve: false,
        }
    }
}
