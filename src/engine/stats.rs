//! Search statistics: plain counters plus the values derived from them. No I/O here.

use std::time::Duration;

use serde::Serialize;

/// What one search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SearchStats {
    /// Positions visited, the root included (every call of the node function).
    pub nodes: u64,
    /// Positions scored by the evaluator at the search horizon.
    pub leaf_evals: u64,
    /// Finished games reached (scored exactly, not by the evaluator).
    pub terminals: u64,
    /// Nodes whose search stopped early because a move reached beta.
    pub cutoffs: u64,
    /// Evaluator calls spent on ordering moves (not counted as nodes).
    pub order_evals: u64,
    /// Transposition-table probes that found an entry for the position (full engine).
    pub tt_hits: u64,
    /// Nodes answered by the table without being searched (full engine).
    pub tt_cutoffs: u64,
    /// Nodes of margin games cut because no result still possible could reach into the
    /// window (full engine).
    pub bound_cutoffs: u64,
    /// Nodes answered exactly by the game without search: an endgame database
    /// ([`super::Game::exact_value`]; full engine).
    pub endgame_hits: u64,
    /// Late moves tried first at a smaller depth (late move reductions, full engine in a
    /// playing search with a candidate limit).
    pub reductions: u64,
    /// Reduced moves that beat the best so far and were searched again to the full depth.
    pub reduction_re_searches: u64,
    /// Moves left out near the horizon (late move pruning and distraction pruning, full
    /// engine in a playing search with a candidate limit).
    pub pruned: u64,
    /// Null-window tests near the horizon that failed high on their static value without a
    /// search (reverse futility pruning, full engine in a playing search with a candidate
    /// limit).
    pub futility_cuts: u64,
    /// Singular tests: nodes far from the horizon searched without their table move, to
    /// see whether it is the only good one (full engine in a playing search with a
    /// candidate limit).
    pub singular_tests: u64,
    /// Table moves the singular test found singular, searched one ply deeper (singular
    /// extensions).
    pub extensions: u64,
    /// Nodes that failed high because their singular test, without the table move,
    /// reached beta too (multi-cut).
    pub singular_cuts: u64,
    /// The deepest ply (moves from the root) a node was visited at (full engine).
    pub max_ply: u32,
    /// While a solve runs: the lowest and highest root value (score units, side to move at
    /// the root) it has proved so far; they meet when it is done. `None` for other searches.
    pub solve_bounds: Option<(i32, i32)>,
    /// Depth searched (moves from the root).
    pub depth: u32,
    /// Nodes of the search to `depth` alone: for the full engine its last completed
    /// iteration (the main thread's, every window of it), for fixed-depth searches all of
    /// them. What plain minimax to the same depth compares with.
    pub iteration_nodes: u64,
    /// Wall time of the search.
    #[serde(serialize_with = "serialize_micros")]
    pub elapsed: Duration,
}

fn serialize_micros<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64() * 1000.0)
}

impl SearchStats {
    /// Nodes per second (0 when no time was measured).
    pub fn nodes_per_second(&self) -> f64 {
        per_second(self.nodes, self.elapsed)
    }

    /// Search time in milliseconds, with microsecond precision.
    pub fn millis(&self) -> f64 {
        self.elapsed.as_secs_f64() * 1000.0
    }

    /// Adds another search's counters to these (several searches of one game): counts and
    /// times add up, the depth is the deeper one.
    pub fn merge(&mut self, other: &Self) {
        self.merge_counts(other);
        self.depth = self.depth.max(other.depth);
        self.elapsed += other.elapsed;
    }

    /// Adds another thread's counters of the same search (depth and time stay).
    pub fn merge_counts(&mut self, other: &Self) {
        self.nodes += other.nodes;
        self.leaf_evals += other.leaf_evals;
        self.terminals += other.terminals;
        self.cutoffs += other.cutoffs;
        self.order_evals += other.order_evals;
        self.tt_hits += other.tt_hits;
        self.tt_cutoffs += other.tt_cutoffs;
        self.bound_cutoffs += other.bound_cutoffs;
        self.endgame_hits += other.endgame_hits;
        self.reductions += other.reductions;
        self.reduction_re_searches += other.reduction_re_searches;
        self.pruned += other.pruned;
        self.futility_cuts += other.futility_cuts;
        self.singular_tests += other.singular_tests;
        self.extensions += other.extensions;
        self.singular_cuts += other.singular_cuts;
        self.max_ply = self.max_ply.max(other.max_ply);
    }
}

/// `count` per second of `elapsed` (0 when no time was measured).
pub fn per_second(count: u64, elapsed: Duration) -> f64 {
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 { count as f64 / secs } else { 0.0 }
}

/// A count with thousands separators: `549946` → `549,946`.
pub fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count too large to read digit by digit, as a power of ten: grouped digits below ten
/// million (`4,200,000`), else one decimal and the exponent (`4.2×10^15`).
pub fn approximate_count(n: f64) -> String {
    if !n.is_finite() {
        return "more than can be written".to_string();
    }
    if n < 1e7 {
        return group_digits(n.max(0.0).round() as u64);
    }
    let exponent = n.log10().floor();
    let mantissa = n / 10f64.powf(exponent);
    format!("{mantissa:.1}×10^{exponent:.0}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_counts_read_as_powers_of_ten() {
        assert_eq!(approximate_count(512.0), "512");
        assert_eq!(approximate_count(4_200_000.0), "4,200,000");
        assert_eq!(approximate_count(4.2e15), "4.2×10^15");
        assert_eq!(approximate_count(f64::INFINITY), "more than can be written");
    }

    #[test]
    fn digits_are_grouped() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(1000), "1,000");
        assert_eq!(group_digits(549_946), "549,946");
        assert_eq!(group_digits(1_234_567), "1,234,567");
    }

    #[test]
    fn nps_of_no_time_is_zero() {
        let stats = SearchStats {
            nodes: 10,
            ..SearchStats::default()
        };
        assert!(stats.nodes_per_second().abs() < f64::EPSILON);
        let timed = SearchStats {
            nodes: 10,
            elapsed: Duration::from_secs(2),
            ..stats
        };
        assert!((timed.nodes_per_second() - 5.0).abs() < 1e-9);
    }
}
