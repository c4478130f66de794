//! Gomoku's pattern weights: the `[gomoku.patterns]` table of config.toml, the weights of the
//! `patterns` evaluator (see [`super::eval`]), settable on the command line, the setup
//! screen, in tournament entrants and tunable by `gametree tune gomoku`.

use serde::{Deserialize, Serialize};

use super::eval::PatternTable;

/// The largest `waiting_*` share, in percent: the whole weight.
pub const MAX_PERCENT: f64 = 100.0;

/// The largest weight: the five's default. Pattern scores then stay far from the
/// evaluation's named values (a four to move is 500000), which only the tempo rules give.
pub const MAX_WEIGHT: f64 = 100_000.0;

/// What each shape, and each combination of shapes, is worth to its owner (`[gomoku.patterns]`).
///
/// A side's score is the weight of the strongest combination it holds (the largest weight
/// among those present) plus every shape's own weight once per shape, so that more of a kind
/// counts for more, plus its potential: each empty point weighed by the shape a stone of its
/// own would make there along each line through it (`point_open_four` .. `point_closed_two`),
/// and once more by the combination those shapes make across its four directions
/// (`point_double_four` .. `point_double_two`). The evaluation is the mover's score minus the
/// opponent's (whose combination and shapes count at their `waiting_*` percent: the mover
/// answers them first), with the tempo rules of [`super::eval`] on top. Under
/// `rule = "standard"` an overline is no shape at all, so `five` never rewards one. Weights
/// are 0..=100000 and the shares 0..=100; fractions are kept for tuning and rounded when used.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PatternWeights {
    /// `connect` in a row (default 100000).
    pub five: f64,
    /// A four that two points complete (10000).
    pub open_four: f64,
    /// Two closed fours (10000).
    pub double_closed_four: f64,
    /// A closed four and an open three (10000).
    pub closed_four_open_three: f64,
    /// Two open threes (5000).
    pub double_open_three: f64,
    /// A closed three and an open three (1000).
    pub closed_three_open_three: f64,
    /// A four that one point completes (500).
    pub closed_four: f64,
    /// A three that can become an open four (200).
    pub open_three: f64,
    /// Two open twos (100).
    pub double_open_two: f64,
    /// A three that can become only a closed four (50).
    pub closed_three: f64,
    /// A two that can become an open three (5).
    pub open_two: f64,
    /// A two that can become only a closed three (3; the assignment's "dead two").
    pub closed_two: f64,
    /// Each empty point where a stone would make an open four along one line through it
    /// (40): the potential the shapes leave, counted point by point and line by line.
    pub point_open_four: f64,
    /// ... a closed four (15).
    pub point_closed_four: f64,
    /// ... an open three (8).
    pub point_open_three: f64,
    /// ... a closed three (4).
    pub point_closed_three: f64,
    /// ... an open two (2).
    pub point_open_two: f64,
    /// ... a closed two (1).
    pub point_closed_two: f64,
    /// Each empty point where a stone would make fours in two directions (default 0), on
    /// top of its directions' `point_*` weights; a point counts as the first of these five
    /// combinations that applies.
    pub point_double_four: f64,
    /// ... a four (open or closed) and an open three (0).
    pub point_four_three: f64,
    /// ... open threes in two directions (0).
    pub point_double_three: f64,
    /// ... an open three and an open two (0).
    pub point_three_two: f64,
    /// ... open twos in two directions (0).
    pub point_double_two: f64,
    /// The percent of its strongest combination's weight that the side which just moved
    /// keeps at the search's horizon (30): the side to move answers its threats first, and
    /// an open three beside a closed three is a closed three once the open one is blocked.
    pub waiting_combination: f64,
    /// The same for its shapes' own weights (60). Its potential counts whole.
    pub waiting_shapes: f64,
    /// What having the move is worth to the side to move at the horizon (150): its next
    /// stone. Without it the search's value swings with the parity of its depth (the side
    /// that moves last before the horizon looks better than it is).
    pub tempo: f64,
    /// The percent of the point table the evaluation adds (20): per empty point, a value
    /// by the combination of shapes a stone of each side would make there in its four
    /// directions, fitted to a strong engine's values (`src/games/gomoku/point_table.rs`).
    /// Only on boards whose lines ask for five, which it was fitted on; 0 turns it off.
    pub point_table: f64,
}

impl Default for PatternWeights {
    /// The table of the Gomoku assignment.
    fn default() -> Self {
        Self {
            five: 100_000.0,
            open_four: 10_000.0,
            double_closed_four: 10_000.0,
            closed_four_open_three: 10_000.0,
            double_open_three: 5_000.0,
            closed_three_open_three: 1_000.0,
            closed_four: 500.0,
            open_three: 200.0,
            double_open_two: 100.0,
            closed_three: 50.0,
            open_two: 5.0,
            closed_two: 3.0,
            point_open_four: 40.0,
            point_closed_four: 15.0,
            point_open_three: 8.0,
            point_closed_three: 4.0,
            point_open_two: 2.0,
            point_closed_two: 1.0,
            point_double_four: 0.0,
            point_four_three: 0.0,
            point_double_three: 0.0,
            point_three_two: 0.0,
            point_double_two: 0.0,
            waiting_combination: 30.0,
            waiting_shapes: 60.0,
            tempo: 150.0,
            point_table: 20.0,
        }
    }
}

impl PatternWeights {
    /// Every weight with its key, strongest pattern first (the order of the struct).
    pub fn entries(&self) -> [(&'static str, f64); 27] {
        [
            ("five", self.five),
            ("open_four", self.open_four),
            ("double_closed_four", self.double_closed_four),
            ("closed_four_open_three", self.closed_four_open_three),
            ("double_open_three", self.double_open_three),
            ("closed_three_open_three", self.closed_three_open_three),
            ("closed_four", self.closed_four),
            ("open_three", self.open_three),
            ("double_open_two", self.double_open_two),
            ("closed_three", self.closed_three),
            ("open_two", self.open_two),
            ("closed_two", self.closed_two),
            ("point_open_four", self.point_open_four),
            ("point_closed_four", self.point_closed_four),
            ("point_open_three", self.point_open_three),
            ("point_closed_three", self.point_closed_three),
            ("point_open_two", self.point_open_two),
            ("point_closed_two", self.point_closed_two),
            ("point_double_four", self.point_double_four),
            ("point_four_three", self.point_four_three),
            ("point_double_three", self.point_double_three),
            ("point_three_two", self.point_three_two),
            ("point_double_two", self.point_double_two),
            ("waiting_combination", self.waiting_combination),
            ("waiting_shapes", self.waiting_shapes),
            ("tempo", self.tempo),
            ("point_table", self.point_table),
        ]
    }

    /// The same weights with the potential off (every `point_*` at 0, the combinations'
    /// too): the assignment's table alone.
    pub fn without_potential(self) -> Self {
        Self {
            point_open_four: 0.0,
            point_closed_four: 0.0,
            point_open_three: 0.0,
            point_closed_three: 0.0,
            point_open_two: 0.0,
            point_closed_two: 0.0,
            point_double_four: 0.0,
            point_four_three: 0.0,
            point_double_three: 0.0,
            point_three_two: 0.0,
            point_double_two: 0.0,
            ..self
        }
    }

    /// The first weight out of range: `(key, value, what is expected)`.
    pub fn check(&self) -> Result<(), (&'static str, f64, String)> {
        for (key, weight) in self.entries() {
            let (max, unit) = if key.starts_with("waiting_") || key == "point_table" {
                (MAX_PERCENT, " (percent)")
            } else {
                (MAX_WEIGHT, "")
            };
            if !(weight.is_finite() && (0.0..=max).contains(&weight)) {
                return Err((key, weight, format!("must be a number 0..={max}{unit}")));
            }
        }
        Ok(())
    }

    /// The weights as the evaluator uses them: whole numbers (rounded; out-of-range values,
    /// which validation refuses, are clamped rather than trusted).
    pub fn table(&self) -> PatternTable {
        let clamped = |x: f64, max: f64| {
            if x.is_finite() {
                // In 0..=100000 after the clamp, so the cast is exact.
                x.clamp(0.0, max).round() as i32
            } else {
                0
            }
        };
        let w = |x: f64| clamped(x, MAX_WEIGHT);
        PatternTable {
            single: [
                0,
                w(self.closed_two),
                w(self.open_two),
                w(self.closed_three),
                w(self.open_three),
                w(self.closed_four),
                w(self.open_four),
                w(self.five),
            ],
            double_closed_four: w(self.double_closed_four),
            closed_four_open_three: w(self.closed_four_open_three),
            double_open_three: w(self.double_open_three),
            closed_three_open_three: w(self.closed_three_open_three),
            double_open_two: w(self.double_open_two),
            point: [
                0,
                w(self.point_closed_two),
                w(self.point_open_two),
                w(self.point_closed_three),
                w(self.point_open_three),
                w(self.point_closed_four),
                w(self.point_open_four),
                0,
            ],
            combination: [
                0,
                w(self.point_double_four),
                w(self.point_four_three),
                w(self.point_double_three),
                w(self.point_three_two),
                w(self.point_double_two),
            ],
            waiting_combination: clamped(self.waiting_combination, MAX_PERCENT),
            waiting_shapes: clamped(self.waiting_shapes, MAX_PERCENT),
            tempo: w(self.tempo),
            point_table: clamped(self.point_table, MAX_PERCENT),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_weights_are_the_built_in_table() {
        assert_eq!(PatternWeights::default().table(), PatternTable::DEFAULT);
        assert_eq!(PatternWeights::default().check(), Ok(()));
    }

    #[test]
    fn out_of_range_weights_are_named() {
        let negative = PatternWeights {
            open_three: -1.0,
            ..PatternWeights::default()
        };
        let (key, value, expected) = negative.check().unwrap_err();
        assert_eq!((key, value), ("open_three", -1.0));
        assert!(expected.contains("0..=100000"), "{expected}");
        let nan = PatternWeights {
            closed_two: f64::NAN,
            ..PatternWeights::default()
        };
        assert_eq!(nan.check().unwrap_err().0, "closed_two");
        assert_eq!(nan.table().single[1], 0);
        // A share is a percent: 101 is refused where a weight of 101 is not.
        let share = PatternWeights {
            waiting_shapes: 101.0,
            ..PatternWeights::default()
        };
        let (key, value, expected) = share.check().unwrap_err();
        assert_eq!((key, value), ("waiting_shapes", 101.0));
        assert!(expected.contains("0..=100 (percent)"), "{expected}");
        assert_eq!(share.table().waiting_shapes, 100);
    }

    #[test]
    fn the_leaf_score_equals_the_table_score() {
        // Every count vector with up to 2 of each shape (3^7), under the default table and
        // under one whose order is scrambled (a closed two above an open four).
        let scrambled = PatternWeights {
            closed_two: 20_000.0,
            open_four: 7.0,
            double_open_two: 6_000.0,
            closed_three_open_three: 0.0,
            ..PatternWeights::default()
        }
        .table();
        for table in [PatternTable::DEFAULT, scrambled] {
            for code in 0..3usize.pow(7) {
                let mut counts = [0u16; 8];
                let mut rest = code;
                for count in counts.iter_mut().skip(1) {
                    *count = (rest % 3) as u16;
                    rest /= 3;
                }
                assert_eq!(
                    table.leaf_score(&counts),
                    table.score(&counts),
                    "{counts:?}"
                );
            }
        }
    }
}
