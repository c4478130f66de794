//! Gomoku evaluation by line patterns, and the ranking of candidate points that makes a
//! 15x15 search feasible. Reads the shape counts that `play` keeps per line, and the shapes
//! each point would make, which `play` keeps per line too; allocates nothing per call.
//!
//! The weights are the classic Gomoku table (five 100000; open four, double closed four or
//! closed four + open three 10000; double open three 5000; closed three + open three 1000;
//! closed four 500; open three 200; double open two 100; closed three 50; open two 5; closed
//! two 3), with the pattern names generalised to `connect` (see [`Shape`]); the evaluation
//! takes them from `[gomoku.patterns]` ([`super::options::PatternWeights`]), while candidate
//! ranking uses weights learnt from a strong engine's choices ([`super::policy`]). The
//! evaluation also weighs each side's potential: the empty points where its stone would make
//! a shape, per line ([`Gomoku::point_counts`], the `point_*` weights), and per point the
//! combination of shapes its stone would make in its four directions ([`Combination`],
//! [`Gomoku::combination_counts`]), and by a table fitted to a strong engine's values over
//! every such combination (`point_table.rs`, [`Gomoku::point_table_sums`]).

use std::cell::RefCell;

use super::policy::rank_value;
use super::shape::Shape;
use super::{Cell, Gomoku};
use crate::engine::score::MAX_HEURISTIC;
use crate::engine::{Evaluator, Game, Player};

/// How many shapes of each kind a player has (on the whole board, or through one point).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PatternCounts {
    /// Indexed by [`Shape`] (`counts[Shape::OpenThree as usize]`); index 0 is unused.
    pub counts: [u16; 8],
}

/// The value of having the move when the side to move holds a four: it makes five next.
pub const FOUR_TO_MOVE: i32 = 500_000;
/// The value (for the side to move) of facing an open four with no four of one's own: lost.
pub const FACING_OPEN_FOUR: i32 = -400_000;
/// The bonus for an open three when the opponent has no four: it becomes an open four now.
pub const OPEN_THREE_TO_MOVE: i32 = 10_000;

/// The evaluation's named values in words, for the move log, the engine pane and the tree
/// (`+500000` means nothing to a reader): a score within [`NAMED_NEAR`] of one of them is
/// named, with the distance when it is not exactly on it (an aspiration window's edge is 50
/// away: `five next move -50`).
pub fn describe_score(score: i32) -> Option<String> {
    const NAMES: [(i32, &str); 4] = [
        (FOUR_TO_MOVE, "five next move"),
        (-FOUR_TO_MOVE, "opponent's five next"),
        (FACING_OPEN_FOUR, "facing an open four"),
        (-FACING_OPEN_FOUR, "opponent faces an open four"),
    ];
    NAMES
        .iter()
        .find(|(value, _)| (score - value).abs() <= NAMED_NEAR)
        .map(|&(value, name)| match score - value {
            0 => name.to_string(),
            off => format!("{name} {off:+}"),
        })
}

/// Reverse futility pruning's margins by the distance from the horizon (1 and 2 moves; none
/// further), measured with the default weights on 1.3 million null-window tests of 300 ms
/// self-play searches: the static value was above beta by the margin at 32 % and 15 % of
/// those tests, and of those the search came back below beta 0.1 % and 1.2 % of the time
/// (docs/performance.md, "Wave 13"). Measured without the tempo: `futility_margin` widens
/// the odd distances' by twice it.
const FUTILITY_MARGINS: [Option<i32>; 3] = [None, Some(100), Some(300)];

/// Static values at least this far from 0 are never pruned on: only the tempo rules
/// ([`FOUR_TO_MOVE`], [`FACING_OPEN_FOUR`]) reach them.
const FUTILITY_CEILING: i32 = 50_000;

/// How far from a named value a score is still named by [`describe_score`]; pattern scores
/// never come near the named values.
pub const NAMED_NEAR: i32 = 1_000;

impl PatternCounts {
    /// Counts from the 16-bit lanes kept in the position.
    fn from_lanes(lanes: u128) -> Self {
        let mut counts = [0u16; 8];
        for (i, count) in counts.iter_mut().enumerate() {
            *count = (lanes >> super::wide_lane(i)) as u16;
        }
        Self { counts }
    }

    /// How many of `shape`.
    pub fn get(&self, shape: Shape) -> u16 {
        self.counts[shape as usize]
    }

    /// Adds one `shape` (`Shape::None` is ignored).
    pub fn add(&mut self, shape: Shape) {
        if shape != Shape::None {
            self.counts[shape as usize] += 1;
        }
    }

    /// Open plus closed fours.
    pub fn fours(&self) -> u16 {
        self.get(Shape::OpenFour) + self.get(Shape::ClosedFour)
    }

    /// The weight of the strongest combination present, from the built-in table (five
    /// 100000 down to closed two 3).
    pub fn category(&self) -> i32 {
        PatternTable::DEFAULT.category(&self.counts)
    }

    /// The score of these shapes for their owner by the built-in table (see
    /// [`PatternTable::score`]).
    pub fn score(&self) -> i32 {
        PatternTable::DEFAULT.score(&self.counts)
    }
}

/// The pattern weights as the evaluator uses them (from
/// [`super::options::PatternWeights::table`]): each shape's own weight, and the weights of
/// the combinations of two shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PatternTable {
    /// Indexed by [`Shape`]: closed two .. five (index 0, no shape, is 0).
    pub(super) single: [i32; 8],
    pub(super) double_closed_four: i32,
    pub(super) closed_four_open_three: i32,
    pub(super) double_open_three: i32,
    pub(super) closed_three_open_three: i32,
    pub(super) double_open_two: i32,
    /// Indexed by [`Shape`]: the weight of each empty point where a stone would make that
    /// shape along one line through it ([`Gomoku::point_counts`]; the five's is always 0: a
    /// point that makes five means a four, which the tempo rules score).
    pub(super) point: [i32; 8],
    /// The percent of its combination's weight that the side which just moved keeps at a
    /// leaf: the side to move answers its threats first (an open three and a closed three
    /// are a closed three once the open one is blocked).
    pub(super) waiting_combination: i32,
    /// The same for the weights of its shapes, each counted once.
    pub(super) waiting_shapes: i32,
    /// Indexed by [`Combination`]: the weight of each empty point where a stone would make
    /// that combination of shapes across its four directions, on top of the `point` weights
    /// of each direction ([`Gomoku::combination_counts`]; index 0, none, is 0).
    pub(super) combination: [i32; 6],
    /// What having the move is worth to the side to move: added to every evaluation short
    /// of the tempo rules' values. The side that moves last before the horizon gains a
    /// stone the evaluation cannot see the answer to; without this the search's value
    /// alternated with the parity of its depth by about 300 (docs/performance.md, "Wave 19").
    pub(super) tempo: i32,
    /// The percent of the fitted point table ([`super::point_table`]) the evaluation adds
    /// (0: none; only where lines ask for five, the boards it was fitted on).
    pub(super) point_table: i32,
}

impl PatternTable {
    /// The table of the Gomoku assignment, the defaults of `[gomoku.patterns]`.
    pub const DEFAULT: Self = Self {
        single: [0, 3, 5, 50, 200, 500, 10_000, 100_000],
        double_closed_four: 10_000,
        closed_four_open_three: 10_000,
        double_open_three: 5_000,
        closed_three_open_three: 1_000,
        double_open_two: 100,
        point: [0, 1, 2, 4, 8, 15, 40, 0],
        waiting_combination: 30,
        waiting_shapes: 60,
        combination: [0; 6],
        tempo: 150,
        point_table: 20,
    };

    /// [`PatternTable::waiting_combination`]: the percent of its strongest combination's
    /// weight that the side which just moved keeps.
    pub const fn waiting_combination(&self) -> i32 {
        self.waiting_combination
    }

    /// [`PatternTable::waiting_shapes`]: the percent of its shapes' weights that the side
    /// which just moved keeps.
    pub const fn waiting_shapes(&self) -> i32 {
        self.waiting_shapes
    }

    /// [`PatternTable::tempo`]: what having the move is worth to the side to move.
    pub const fn tempo(&self) -> i32 {
        self.tempo
    }

    /// The weight of the strongest combination present: the largest weight among the shapes
    /// and pairs of shapes that `counts` hold (with the default table, the first of five,
    /// open four or four-four or four-three, three-three ... closed two). `const` so that
    /// [`POINT_VALUE`] is built at compile time.
    pub const fn category(&self, counts: &[u16; 8]) -> i32 {
        let [_, _, open_two, closed_three, open_three, closed_four, _, _] = *counts;
        let mut best = 0;
        let mut i = 1;
        while i < 8 {
            if counts[i] > 0 && self.single[i] > best {
                best = self.single[i];
            }
            i += 1;
        }
        let pairs = [
            (closed_four >= 2, self.double_closed_four),
            (
                closed_four > 0 && open_three > 0,
                self.closed_four_open_three,
            ),
            (open_three >= 2, self.double_open_three),
            (
                closed_three > 0 && open_three > 0,
                self.closed_three_open_three,
            ),
            (open_two >= 2, self.double_open_two),
        ];
        let mut i = 0;
        while i < pairs.len() {
            if pairs[i].0 && pairs[i].1 > best {
                best = pairs[i].1;
            }
            i += 1;
        }
        best
    }

    /// The score of `counts` for their owner: the [`PatternTable::category`] of the
    /// strongest combination plus every shape's own weight, so that more of a kind counts
    /// for more while one instance of each category still ranks in the table's order.
    pub const fn score(&self, counts: &[u16; 8]) -> i32 {
        let mut singles = 0;
        let mut i = 0;
        while i < 8 {
            singles += counts[i] as i32 * self.single[i];
            i += 1;
        }
        self.category(counts) + singles
    }

    /// [`PatternTable::score`] for the evaluation at every leaf: the same value, computed
    /// without the loops a `const fn` needs, so that with the built-in table (a constant) the
    /// compiler folds the weights in and the default evaluation costs what the hard-coded
    /// table did.
    #[inline]
    pub(super) fn leaf_score(&self, c: &[u16; 8]) -> i32 {
        let (best, singles) = self.leaf_parts(c);
        best + singles
    }

    /// [`PatternTable::leaf_score`] in its two parts: the strongest combination's weight, and
    /// the shapes' own weights.
    #[inline]
    fn leaf_parts(&self, c: &[u16; 8]) -> (i32, i32) {
        let w = &self.single;
        let mut best = 0;
        let mut singles = 0;
        for i in 1..8 {
            let n = i32::from(c[i]);
            singles += n * w[i];
            if n > 0 {
                best = best.max(w[i]);
            }
        }
        let [_, _, open_two, closed_three, open_three, closed_four, _, _] = *c;
        if closed_four >= 2 {
            best = best.max(self.double_closed_four);
        }
        if open_three > 0 {
            if closed_four > 0 {
                best = best.max(self.closed_four_open_three);
            }
            if open_three >= 2 {
                best = best.max(self.double_open_three);
            }
            if closed_three > 0 {
                best = best.max(self.closed_three_open_three);
            }
        }
        if open_two >= 2 {
            best = best.max(self.double_open_two);
        }
        (best, singles)
    }

    /// The weight of a side's potential: its [`Gomoku::point_counts`] by
    /// [`PatternTable::point`].
    #[inline]
    pub(super) fn point_score(&self, points: &[u16; 8]) -> i32 {
        points
            .iter()
            .zip(&self.point)
            .map(|(&n, &w)| i32::from(n) * w)
            .sum()
    }

    /// The side to move's whole score at a leaf: its shapes ([`PatternTable::leaf_score`],
    /// from the counts the caller already has) and its potential
    /// ([`PatternTable::point_score`]).
    /// The weight of a side's point combinations: its [`Gomoku::combination_counts`] by
    /// [`PatternTable::combination`].
    #[inline]
    pub(super) fn combination_score(&self, combos: &[u16; 6]) -> i32 {
        combos
            .iter()
            .zip(&self.combination)
            .skip(1)
            .map(|(&n, &w)| i32::from(n) * w)
            .sum()
    }

    /// What one empty point adds to its side's potential when a stone there would make
    /// `shapes` (row, column, diagonal, anti-diagonal): each direction's `point` weight and
    /// the weight of the combination they make. The evaluation's potential is this summed
    /// over the empty points (kept as [`Gomoku::point_counts`] and
    /// [`Gomoku::combination_counts`], which need no weights).
    pub fn point_potential(&self, shapes: [Shape; 4]) -> i32 {
        let directions: i32 = shapes.iter().map(|&s| self.point[s as usize]).sum();
        directions + self.combination[Combination::of(shapes) as usize]
    }

    /// A side's potential: its points by the shape a stone would make in each direction
    /// ([`PatternTable::point_score`]) and by their combinations
    /// ([`PatternTable::combination_score`]).
    #[inline]
    fn potential(&self, game: &Gomoku, player: Player) -> i32 {
        let score = self.point_score(&game.point_counts(player).counts);
        if self.weighs_combinations() {
            score + self.combination_score(&game.combination_counts(player))
        } else {
            score
        }
    }

    /// The side to move's whole score at a leaf: its shapes ([`PatternTable::leaf_score`],
    /// from the counts the caller already has) and its potential.
    #[inline]
    fn side_score(&self, game: &Gomoku, player: Player, shapes: &PatternCounts) -> i32 {
        self.leaf_score(&shapes.counts) + self.potential(game, player)
    }

    /// The score of the side that just moved: as [`PatternTable::side_score`], with its
    /// combination and its shapes kept at [`PatternTable::waiting_combination`] and
    /// [`PatternTable::waiting_shapes`] percent (its potential whole).
    #[inline]
    fn waiting_score(&self, game: &Gomoku, player: Player, shapes: &PatternCounts) -> i32 {
        let (best, singles) = self.leaf_parts(&shapes.counts);
        best * self.waiting_combination / 100
            + singles * self.waiting_shapes / 100
            + self.potential(game, player)
    }

    /// True when the evaluation adds the point table on `game`'s board: a share not 0,
    /// and lines that ask for five.
    pub fn weighs_point_table(&self, game: &Gomoku) -> bool {
        self.point_table != 0 && game.connect() == 5
    }

    /// The point table's value for `mover` at [`PatternTable::point_table`] percent: the
    /// fitted values of its own empty points as the side to move's, and of the opponent's
    /// as the waiting side's ([`Gomoku::point_table_sums`]).
    #[inline]
    fn point_table_value(&self, game: &Gomoku, mover: Player) -> i32 {
        if !self.weighs_point_table(game) {
            return 0;
        }
        let sums = game.point_table_sums();
        (sums[mover.index()][0] + sums[mover.other().index()][1]) * self.point_table / 100
    }

    /// True when a combination weight is not 0: the evaluation then reads
    /// [`Gomoku::combination_counts`], which a game keeps up to date only when told to
    /// ([`Gomoku::set_combinations`]).
    pub fn weighs_combinations(&self) -> bool {
        self.combination.iter().any(|&w| w != 0)
    }
}

/// What the four directional shapes of one empty point make together for a side, strongest
/// first; a point counts as the first that applies. A four is open or closed (a five counts
/// as nothing here: the tempo rules score it), a three an open three, a two an open two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combination {
    /// None of the below.
    None,
    /// Fours in two directions: a win.
    DoubleFour,
    /// A four and an open three: a win unless the four's answer stops the three.
    FourThree,
    /// Open threes in two directions.
    DoubleThree,
    /// An open three and an open two.
    ThreeTwo,
    /// Open twos in two directions.
    DoubleTwo,
}

impl Combination {
    /// Every combination, `Combination::ALL[c as usize] == c`.
    pub const ALL: [Self; 6] = [
        Self::None,
        Self::DoubleFour,
        Self::FourThree,
        Self::DoubleThree,
        Self::ThreeTwo,
        Self::DoubleTwo,
    ];

    /// The combination of a point whose four directions give `shapes`.
    pub fn of(shapes: [Shape; 4]) -> Self {
        let ranks = shapes.iter().enumerate().fold(0, |key, (d, &s)| {
            key | COMBINATION_RANK[s as usize] << (2 * d)
        });
        Self::ALL[usize::from(COMBINATION[usize::from(ranks)])]
    }
}

/// What a shape counts as in a [`Combination`], indexed by [`Shape`]: 3 a four, 2 an open
/// three, 1 an open two, 0 nothing. A point's four ranks, 2 bits a direction, are its rank
/// key ([`Gomoku::ranks`]).
pub(super) const COMBINATION_RANK: [u8; 8] = [0, 0, 1, 0, 2, 3, 3, 0];

/// The [`Combination`] of every rank key, as a number.
pub(super) static COMBINATION: [u8; 1 << 8] = combinations();

const fn combinations() -> [u8; 1 << 8] {
    let mut table = [0; 1 << 8];
    let mut key = 0;
    while key < table.len() {
        let mut ranks = [0u8; 4];
        let mut d = 0;
        while d < 4 {
            ranks[(key >> (2 * d)) & 3] += 1;
            d += 1;
        }
        let [_, twos, threes, fours] = ranks;
        let combination = if fours >= 2 {
            Combination::DoubleFour
        } else if fours >= 1 && threes >= 1 {
            Combination::FourThree
        } else if threes >= 2 {
            Combination::DoubleThree
        } else if threes >= 1 && twos >= 1 {
            Combination::ThreeTwo
        } else if twos >= 2 {
            Combination::DoubleTwo
        } else {
            Combination::None
        };
        table[key] = combination as u8;
        key += 1;
    }
    table
}

/// The [`PointKey`] of four directional shapes.
pub(super) fn point_key(shapes: [Shape; 4]) -> PointKey {
    shapes
        .iter()
        .enumerate()
        .fold(0, |key, (d, &s)| key | (s as usize) << (3 * d))
}

/// The four directional shapes of a point packed in 3-bit fields (`shape << 3 * direction`).
pub(super) type PointKey = usize;

/// The score of every combination of four directional shapes at one point, by the same
/// table as the board ([`PatternCounts::score`]), indexed by a [`PointKey`].
static POINT_VALUE: [i32; 1 << 12] = point_values();

const fn point_values() -> [i32; 1 << 12] {
    let mut table = [0; 1 << 12];
    let mut key = 0;
    while key < table.len() {
        let mut counts = [0u16; 8];
        let mut d = 0;
        while d < 4 {
            let shape = (key >> (3 * d)) & 7;
            if shape != Shape::None as usize {
                counts[shape] += 1;
            }
            d += 1;
        }
        table[key] = PatternTable::DEFAULT.score(&counts);
        key += 1;
    }
    table
}

/// The pattern score of the four directional shapes a stone would make at one point (the
/// table of [`PatternCounts::score`]).
pub(super) fn point_score(shapes: [Shape; 4]) -> i32 {
    POINT_VALUE[point_key(shapes)]
}

/// True when one of the four shapes of a [`PointKey`] is a five (all three bits set).
#[inline]
const fn has_five(key: PointKey) -> bool {
    key & (key >> 1) & (key >> 2) & 0o1111 != 0
}

impl Gomoku {
    /// `player`'s shapes over the whole board (each cluster of stones along a line counts
    /// once, as its strongest shape).
    pub fn pattern_counts(&self, player: Player) -> PatternCounts {
        PatternCounts::from_lanes(self.totals[player.index()])
    }

    /// How many empty points would give `player` each shape, counted per line through the
    /// point (a point on an open three's two ends counts an open four twice if both ends
    /// do): the board's potential for `player`, weighed by the evaluation's `point_*`
    /// weights.
    pub fn point_counts(&self, player: Player) -> PatternCounts {
        PatternCounts::from_lanes(self.point_totals[player.index()])
    }

    /// How many empty points would give `player` each [`Combination`] of shapes across
    /// their four directions (indexed by it; index 0 counts the points with none), weighed
    /// by the evaluation's combination weights.
    pub fn combination_counts(&self, player: Player) -> [u16; 6] {
        let lanes = if self.combinations {
            self.combos[player.index()]
        } else {
            self.combinations_from_scratch().0[player.index()]
        };
        std::array::from_fn(|i| (lanes >> (16 * i)) as u16)
    }

    /// The shapes `player` would make by playing `cell`, in the directions row, column,
    /// diagonal (up-right) and anti-diagonal (up-left); all [`Shape::None`] when the cell is
    /// taken or off the board.
    pub fn shapes_if_played(&self, cell: Cell, player: Player) -> [Shape; 4] {
        let (row, col) = self.row_col(cell);
        if row >= self.size() || self.stone(row, col).is_some() {
            return [Shape::None; 4];
        }
        self.shapes_at(row, col, player.index())
    }

    #[inline]
    fn shapes_at(&self, row: usize, col: usize, p: usize) -> [Shape; 4] {
        let mut shapes = [Shape::None; 4];
        for (shape, (index, pos)) in shapes.iter_mut().zip(self.lines_through(row, col)) {
            let line = &self.lines[index];
            let len = u32::from(line.len);
            if len >= self.table.connect() {
                let (own, blocked) = self.table.pad(line.stones[p], line.stones[1 - p], len);
                *shape = self.table.shape_if_placed(own, blocked, pos);
            }
        }
        shapes
    }
}

/// Gomoku's evaluators.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GomokuEval {
    /// Line patterns of both sides (see the module doc), with the move's tempo, weighted by
    /// the built-in table ([`PatternTable::DEFAULT`]).
    #[default]
    Patterns,
    /// The same, weighted by `[gomoku.patterns]` when it differs from the built-in table.
    Weighted(PatternTable),
}

impl GomokuEval {
    /// The weights this evaluator scores shapes with.
    pub fn table(&self) -> &PatternTable {
        match self {
            Self::Patterns => &PatternTable::DEFAULT,
            Self::Weighted(table) => table,
        }
    }
}

impl Evaluator<Gomoku> for GomokuEval {
    fn name(&self) -> &'static str {
        match self {
            Self::Patterns | Self::Weighted(_) => "patterns",
        }
    }

    /// Point combinations are kept by play and undo exactly when this evaluator weighs them:
    /// otherwise every leaf would work them out from the whole board, or every move would
    /// keep counts nobody reads (10 - 30 % of a node's time).
    fn prepare(&self, game: &mut Gomoku) {
        game.set_combinations(self.table().weighs_combinations());
        game.set_point_table(self.table().weighs_point_table(game));
    }

    /// [`FUTILITY_MARGINS`], for values short of the tempo rules' (a four to move, an open
    /// four faced: the threat searches decide those). The margins were measured at tempo 0.
    /// At an odd distance from the horizon the leaves below a node have the other side to
    /// move, so the tempo raises the node's static value and lowers its search's value: the
    /// margin widens by twice the tempo to cut what it cut. At even distances both rise
    /// together.
    fn futility_margin(&self, depth: u32, value: i32) -> Option<i32> {
        if value.abs() >= FUTILITY_CEILING {
            return None;
        }
        let margin = FUTILITY_MARGINS.get(depth as usize).copied().flatten()?;
        Some(
            margin
                + if depth % 2 == 1 {
                    2 * self.table().tempo
                } else {
                    0
                },
        )
    }

    /// Own pattern score minus the opponent's, from the side to move (each side's shapes and
    /// its potential, the empty points where its stones would make shapes; the opponent, who
    /// just moved, keeps only part of its shapes' weights: the side to move answers them
    /// first, [`PatternTable::waiting_combination`]), with the tempo the
    /// move gives: a four of the mover's is a five next move ([`FOUR_TO_MOVE`]); failing
    /// that, an open four of the opponent's cannot be stopped ([`FACING_OPEN_FOUR`]); an open
    /// three of the mover's, with no opposing four to answer, becomes an open four
    /// ([`OPEN_THREE_TO_MOVE`]).
    fn evaluate(&self, game: &Gomoku) -> i32 {
        let mover = game.to_move();
        let mine = game.pattern_counts(mover);
        let theirs = game.pattern_counts(mover.other());
        let value = if mine.fours() > 0 {
            FOUR_TO_MOVE
        } else if theirs.get(Shape::OpenFour) > 0 {
            FACING_OPEN_FOUR
        } else {
            let tempo = if mine.get(Shape::OpenThree) > 0 && theirs.fours() == 0 {
                OPEN_THREE_TO_MOVE
            } else {
                0
            };
            let (own, other, points) = match self {
                Self::Patterns => (
                    PatternTable::DEFAULT.side_score(game, mover, &mine),
                    PatternTable::DEFAULT.waiting_score(game, mover.other(), &theirs),
                    PatternTable::DEFAULT.point_table_value(game, mover),
                ),
                Self::Weighted(table) => (
                    table.side_score(game, mover, &mine),
                    table.waiting_score(game, mover.other(), &theirs),
                    table.point_table_value(game, mover),
                ),
            };
            own - other + points + tempo + self.table().tempo
        };
        value.clamp(-MAX_HEURISTIC, MAX_HEURISTIC)
    }
}

/// The full engine's ordering key of an empty point ([`Game::order_hint`]): the mover's
/// five first, then the block of the opponent's, then the candidate ranking's weight of
/// attack plus defence ([`super::policy`]), as [`candidates`] ranks points but without the
/// locality bonus. Ordering by it instead of evaluating each child won +55 ± 44 Elo over
/// 240 games (docs/performance.md, "Wave 11").
///
/// The engine asks for the keys of a node's candidates right after ranking them, so the
/// ranking leaves the candidates' keys behind ([`Ranking`]) and this reads them back when
/// they are this position's.
pub(super) fn order_key(game: &Gomoku, cell: Cell) -> i32 {
    let kept = RANKING.with_borrow(|ranking| ranking.order_key(game, cell));
    kept.unwrap_or_else(|| order_key_now(game, cell))
}

/// [`order_key`] worked out from the lines' codes.
fn order_key_now(game: &Gomoku, cell: Cell) -> i32 {
    let (row, col) = game.row_col(cell);
    let (attack, defence) = point_keys(game, game.to_move().index(), row, col);
    if has_five(attack) {
        1 << 20
    } else if has_five(defence) {
        1 << 19
    } else {
        rank_value(attack, defence) as i32
    }
}

/// [`order_key`] of a point from its ranking value ([`scan`]): the value less its locality
/// bonus, or the five's and the block's keys.
fn order_key_of(value: u32) -> i32 {
    match value {
        u32::MAX => 1 << 20,
        BLOCK_VALUE => 1 << 19,
        _ => (value / LOCALITY_SCALE) as i32,
    }
}

/// The [`PointKey`]s of the shapes a stone of player `me` (attack) and one of the opponent's
/// (defence) would make at the empty point `row`, `col`, from the codes `play` keeps per line.
#[inline]
pub(super) fn point_keys(game: &Gomoku, me: usize, row: usize, col: usize) -> (PointKey, PointKey) {
    let (mut attack, mut defence): (PointKey, PointKey) = (0, 0);
    for (d, (index, pos)) in game.lines_through(row, col).into_iter().enumerate() {
        let codes = game.point_shapes(index);
        attack |= ((codes[me] >> (3 * pos)) as usize & 7) << (3 * d);
        defence |= ((codes[1 - me] >> (3 * pos)) as usize & 7) << (3 * d);
    }
    (attack, defence)
}

/// How much more than the locality bonus a point of ranking weight is worth, so that the
/// bonus only orders points of equal weight. The bonus orders points of equal pattern value
/// (early in a game most are equal: lone stones make no shape): two for each stone among
/// the eight neighbours, and four more next to the last move (two at distance two), where
/// the play is.
const LOCALITY_SCALE: u32 = 32;

/// The locality bonus of one point (see [`LOCALITY_SCALE`]), as defined: [`scan`] works it
/// out a row at a time, and a test checks the two agree.
#[cfg(test)]
fn locality(
    occupied: &[u32; super::MAX_SIZE],
    last: Option<(usize, usize)>,
    row: usize,
    col: usize,
) -> u32 {
    let neighbours: u32 = occupied[row.saturating_sub(1)..(row + 2).min(occupied.len())]
        .iter()
        .map(|&o| ((o << 1) >> col & 7).count_ones())
        .sum();
    let near_last = last.map_or(0, |(r, c)| match r.abs_diff(row).max(c.abs_diff(col)) {
        0 | 1 => 4,
        2 => 2,
        _ => 0,
    });
    2 * neighbours + near_last
}

/// A ranked point's key holds at least this when the mover's stone there makes five...
const WIN_FLAG: u32 = 1 << 30;
/// ... and at least this, but less than [`WIN_FLAG`], when only the opponent's does.
const BLOCK_FLAG: u32 = 1 << 29;

/// The parts of a point's ranking key by its attack (`RANK_KEYS[0]`) and defence
/// (`RANK_KEYS[1]`) point keys: [`rank_value`]'s two weights times [`LOCALITY_SCALE`], or a
/// flag for a five, so that one addition gives the key and one comparison finds the fives.
static RANK_KEYS: [[u32; 1 << 12]; 2] = [rank_keys(0, WIN_FLAG), rank_keys(1, BLOCK_FLAG)];

const fn rank_keys(side: usize, five_flag: u32) -> [u32; 1 << 12] {
    let weights = super::policy::rank_table();
    let mut table = [0; 1 << 12];
    let mut key = 0;
    while key < 1 << 12 {
        table[key] = if has_five(key) {
            five_flag
        } else {
            weights[side][key] as u32 * LOCALITY_SCALE
        };
        key += 1;
    }
    table
}

/// Twice the stones of a 3x3 square, by its nine points (bits 0-2 the row above, 3-5 the
/// point's own row, 6-8 the row below): the neighbour part of the locality bonus, the
/// centre being empty. A table because `count_ones` is a software popcount on a build
/// without a target CPU.
static NEIGHBOURS: [u8; 1 << 9] = neighbour_table();

const fn neighbour_table() -> [u8; 1 << 9] {
    let mut table = [0; 1 << 9];
    let mut square = 0;
    while square < 1 << 9 {
        table[square] = 2 * (square as u32).count_ones() as u8;
        square += 1;
    }
    table
}

/// Fills `out` with the best `limit` empty points near stones (Chebyshev distance 2), ranked
/// by attack plus defence: the learnt weight ([`super::policy`]) of the shapes the mover's
/// stone there would make plus that of the opponent's, ties ordered by a locality bonus
/// ([`LOCALITY_SCALE`]). If the mover can make five, only those points are given; else, if
/// the opponent threatens five, only the points that block it (any other move loses at
/// once); else, if the opponent has an open three, only its answers and the mover's own
/// fours (any other move lets it become an open four), however many or few; else, if the
/// opponent would make a four and an open three (or two fours) somewhere, only the answers
/// to that and the mover's own fours ([`Gomoku::combination_defences`]).
/// The empty board gives its centre; `limit` 0 gives every legal move.
pub(super) fn candidates(game: &Gomoku, out: &mut Vec<Cell>, limit: usize) {
    out.clear();
    if game.outcome().is_some() {
        return;
    }
    if limit == 0 {
        game.legal_moves(out);
        return;
    }
    if game.stones_played() == 0 {
        out.push(game.centre());
        return;
    }
    RANKING.with_borrow_mut(|ranking| {
        rank(game, out, limit, &mut ranking.keys, &mut ranking.defences);
        ranking.keep_order_keys(game, out.len());
    });
}

/// A ranked point's value when only the opponent's stone there makes five.
const BLOCK_VALUE: u32 = u32::MAX - 1;

/// What [`candidates`] keeps between calls on a thread: its keys (a fresh array for every
/// point of the largest board was zeroed at every node), and the [`order_key`] of each
/// candidate the last ranking gave, for the position it ranked, since the full engine asks
/// for those next (working them out again was 3 % of a search's instructions; keeping the
/// keys of every point scanned cost more than it saved).
struct Ranking {
    keys: Vec<u64>,
    /// The answers to an open three or a four-three point, when the ranking keeps only
    /// those.
    defences: Vec<Cell>,
    /// The ranked position: its hash and the game's size, `connect` and rule, mixed.
    position: u64,
    /// Which ranking this is: `order` entries of other ones are stale.
    scan: u32,
    /// Per cell, the ranking that last gave it as a candidate, and its [`order_key`].
    order: [(u32, i32); super::MAX_CELLS],
}

impl Ranking {
    /// The stamp of `game`'s position in [`Ranking::position`]: its hash alone would match
    /// the same stones on another board, or under another rule, on the same thread.
    fn position(game: &Gomoku) -> u64 {
        let rules = (game.size() << 8 | game.connect() << 16) as u64
            | u64::from(game.rule() == super::Rule::Standard) << 24;
        game.hash() ^ rules.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// Keeps the order keys of the first `count` points [`Ranking::keys`] holds (the
    /// candidates given, best first), as `game`'s.
    fn keep_order_keys(&mut self, game: &Gomoku, count: usize) {
        self.scan = self.scan.wrapping_add(1);
        self.position = Self::position(game);
        let n = game.size();
        for &key in self.keys.iter().take(count) {
            let cell = (key & 0xFFFF) as usize;
            if cell < n * n {
                self.order[cell] = (self.scan, order_key_of(u32::MAX - (key >> 16) as u32));
            }
        }
    }

    /// The kept [`order_key`] of `cell`, if the last ranking was of `game`'s position and
    /// gave it as a candidate.
    fn order_key(&self, game: &Gomoku, cell: Cell) -> Option<i32> {
        let &(scan, key) = self.order.get(usize::from(cell))?;
        (scan == self.scan && self.position == Self::position(game)).then_some(key)
    }
}

thread_local! {
    static RANKING: RefCell<Ranking> = const {
        RefCell::new(Ranking {
            keys: Vec::new(),
            defences: Vec::new(),
            position: 0,
            scan: 0,
            order: [(0, 0); super::MAX_CELLS],
        })
    };
}

/// Keys every empty point near stones (Chebyshev distance 2) into `ranked`, as
/// `(u32::MAX - value) << 16 | cell`, so that ascending order is best first and equal
/// values fall back to cell order (the result is reproducible). The value is a win's
/// (`u32::MAX`) where the mover's stone makes five, a block's (`u32::MAX - 1`) where only
/// the opponent's does, else [`rank_value`] times [`LOCALITY_SCALE`] plus the locality bonus.
/// Returns whether a win and whether a block was found.
///
/// The ranking's hot loop (a third of a Gomoku search's instructions before it was
/// written this way): a row's own line, the window of rows around it for the neighbour
/// count, and the last move's reach are read once a row, and a point's four directions
/// are four loads and shifts.
fn scan(game: &Gomoku, ranked: &mut Vec<u64>) -> (bool, bool) {
    // The mover as a constant, so that its and the opponent's codes are plain loads.
    match game.to_move() {
        Player::First => scan_for::<0>(game, ranked),
        Player::Second => scan_for::<1>(game, ranked),
    }
}

/// [`scan`] for the mover `ME` (a [`Player::index`]).
fn scan_for<const ME: usize>(game: &Gomoku, ranked: &mut Vec<u64>) -> (bool, bool) {
    let n = game.size();
    let full = (1u32 << n) - 1;
    // Occupied cells with an empty row either side (row r at r + 1), and spread two
    // columns either way (to be OR-ed over two rows either way).
    let mut occupied = [0u32; super::MAX_SIZE + 2];
    let mut spread = [0u32; super::MAX_SIZE];
    for row in 0..n {
        let [black, white] = game.lines[row].stones;
        let o = black | white;
        occupied[row + 1] = o;
        spread[row] = (o | o << 1 | o << 2 | o >> 1 | o >> 2) & full;
    }
    let last = game.last_move().map(|cell| game.row_col(cell));
    let lines = &game.lines;
    // The point table's kept keys, when there are: two loads a point instead of three
    // lines' codes.
    let kept = game.kept_point_keys();
    ranked.clear();
    let (mut wins, mut blocks) = (false, false);
    for row in 0..n {
        let near = spread[row.saturating_sub(2)..(row + 3).min(n)]
            .iter()
            .fold(0, |acc, s| acc | s);
        let mut todo = near & game.empty_in_row(row);
        if todo == 0 {
            continue;
        }
        // The rows above, at and below, 21 bits apart, each shifted up one so that a
        // point's columns col - 1 ..= col + 1 are bits col ..= col + 2.
        let around = u64::from(occupied[row] << 1)
            | u64::from(occupied[row + 1] << 1) << 21
            | u64::from(occupied[row + 2] << 1) << 42;
        // The last move's part of the locality bonus for each column of this row, in
        // 3-bit fields: 2 within two of it, 4 within one.
        let near_last = match last {
            Some((r, c)) if r.abs_diff(row) <= 2 => {
                // Columns c - 2 ..= c + 2, lowest first.
                let fields: u64 = if r.abs_diff(row) <= 1 {
                    0o24442
                } else {
                    0o22222
                };
                if c >= 2 {
                    fields << (3 * (c - 2))
                } else {
                    fields >> (3 * (2 - c))
                }
            }
            _ => 0,
        };
        let along = lines[row].shapes.codes;
        let down = 3 * row;
        while todo != 0 {
            let col = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let across = 3 * col;
            let (attack, defence) = if let Some(keys) = kept {
                let cell = row * n + col;
                (usize::from(keys[ME][cell]), usize::from(keys[1 - ME][cell]))
            } else {
                let column = lines[n + col].shapes.codes;
                let diagonal = lines[3 * n - 1 + row - col].shapes.codes;
                let anti = lines[4 * n - 1 + row + col].shapes.codes;
                let on_diagonal = 3 * row.min(col);
                let on_anti = 3 * (row - (row + col).saturating_sub(n - 1));
                let key = |side: usize| {
                    (along[side] >> across & 7
                        | (column[side] >> down & 7) << 3
                        | (diagonal[side] >> on_diagonal & 7) << 6
                        | (anti[side] >> on_anti & 7) << 9) as usize
                };
                (key(ME), key(1 - ME))
            };
            let square = around >> col;
            let square = (square & 0o7 | square >> 18 & 0o70 | square >> 36 & 0o700) as usize;
            let mut value = RANK_KEYS[0][attack & 0o7777]
                + RANK_KEYS[1][defence & 0o7777]
                + u32::from(NEIGHBOURS[square & 0o777])
                + (near_last >> across & 7) as u32;
            if value >= BLOCK_FLAG {
                if value >= WIN_FLAG {
                    wins = true;
                    value = u32::MAX;
                } else {
                    blocks = true;
                    value = BLOCK_VALUE;
                }
            }
            ranked.push(u64::from(u32::MAX - value) << 16 | (row * n + col) as u64);
        }
    }
    (wins, blocks)
}

/// [`candidates`] on a board with stones and no winner, with `ranked` to hold the keys and
/// `defences` the answers to a threat: the best `limit` of the points [`scan`] keys,
/// best first, in `out` and at the front of `ranked`.
fn rank(
    game: &Gomoku,
    out: &mut Vec<Cell>,
    limit: usize,
    ranked: &mut Vec<u64>,
    defences: &mut Vec<Cell>,
) {
    let (wins, blocks) = scan(game, ranked);
    let mut count = ranked.len();
    if wins || blocks {
        // Only the fives (their keys' value part 0), or failing those the blocks (1).
        let forced = u64::from(!wins);
        count = retain_keys(ranked, |key| key >> 16 <= forced);
    } else if game
        .pattern_counts(game.to_move().other())
        .get(Shape::OpenThree)
        > 0
    {
        // Facing an open three (and no four to answer or make five with), only the moves
        // that stop it or make a four of the mover's own can avoid an open four next move:
        // the rest are lost, so the node searches those few and can go deeper.
        if game.open_three_defences(defences) {
            count = keep_answers(ranked, count, defences);
        }
    } else if game.combination_defences(defences) {
        // The same facing a point where the opponent would make a four and an open three
        // (or two fours): any other move loses to it within three of its moves.
        count = keep_answers(ranked, count, defences);
    }
    let kept = keep_smallest(&mut ranked[..count], limit);
    out.extend(ranked[..kept].iter().map(|&key| key as Cell));
    if out.is_empty() {
        // Cannot happen while an empty cell exists (one always touches a stone), but never
        // leave the search without a move.
        game.legal_moves(out);
        out.truncate(limit);
    }
}

/// Moves the keys of the points in `answers` to the front of `ranked[..count]` and returns
/// how many there are; `count` when there are none among them (none near the stones: the
/// whole ranking stays).
fn keep_answers(ranked: &mut [u64], count: usize, answers: &[Cell]) -> usize {
    if answers.is_empty() {
        return count;
    }
    let mut set = [0u64; super::MAX_CELLS.div_ceil(64)];
    for &cell in answers {
        if let Some(word) = set.get_mut(usize::from(cell) / 64) {
            *word |= 1 << (cell % 64);
        }
    }
    let kept = retain_keys(&mut ranked[..count], |key| {
        let cell = (key & 0xFFFF) as usize;
        set.get(cell / 64)
            .is_some_and(|word| word >> (cell % 64) & 1 != 0)
    });
    if kept > 0 { kept } else { count }
}

/// Moves the keys `keep` accepts to the front of `keys`, in their order, and returns how
/// many there are (the rest of `keys` is left as it was, or overwritten).
fn retain_keys(keys: &mut [u64], keep: impl Fn(u64) -> bool) -> usize {
    let mut kept = 0;
    for next in 0..keys.len() {
        let key = keys[next];
        if keep(key) {
            keys[kept] = key;
            kept += 1;
        }
    }
    kept
}

/// Sorts the `k` smallest of `keys` (all distinct) into `keys[..k]`, smallest first, and
/// returns `k`, or the number of keys when that is less. An insertion into a sorted prefix:
/// most keys cost one comparison with the worst one kept, where a selection and a sort of a
/// node's 80 or so points cost about 2,400 instructions.
fn keep_smallest(keys: &mut [u64], k: usize) -> usize {
    let k = k.min(keys.len());
    if k == 0 {
        return 0;
    }
    let insert = |keys: &mut [u64], mut at: usize, key: u64| {
        while at > 0 && keys[at - 1] > key {
            keys[at] = keys[at - 1];
            at -= 1;
        }
        keys[at] = key;
    };
    for next in 1..k {
        let key = keys[next];
        insert(keys, next, key);
    }
    for next in k..keys.len() {
        let key = keys[next];
        if key < keys[k - 1] {
            insert(keys, k - 1, key);
        }
    }
    k
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::tests::Walk;
    use super::*;

    /// [`scan`]'s keys worked out point by point from their definition: [`point_keys`],
    /// [`has_five`], [`rank_value`] and [`locality`].
    fn keys_point_by_point(game: &Gomoku) -> (Vec<u64>, bool, bool) {
        let n = game.size();
        let mut occupied = [0u32; super::super::MAX_SIZE];
        for (row, o) in occupied.iter_mut().enumerate().take(n) {
            let [black, white] = game.lines[row].stones;
            *o = black | white;
        }
        let last = game.last_move().map(|cell| game.row_col(cell));
        let me = game.to_move().index();
        let (mut keys, mut wins, mut blocks) = (Vec::new(), false, false);
        for row in 0..n {
            for col in 0..n {
                let near = (row.saturating_sub(2)..(row + 3).min(n)).any(|r| {
                    (col.saturating_sub(2)..(col + 3).min(n)).any(|c| occupied[r] >> c & 1 == 1)
                });
                if !near || occupied[row] >> col & 1 == 1 {
                    continue;
                }
                let (attack, defence) = point_keys(game, me, row, col);
                let value = if has_five(attack) {
                    wins = true;
                    u32::MAX
                } else if has_five(defence) {
                    blocks = true;
                    u32::MAX - 1
                } else {
                    rank_value(attack, defence) * LOCALITY_SCALE
                        + locality(&occupied, last, row, col)
                };
                keys.push(u64::from(u32::MAX - value) << 16 | (row * n + col) as u64);
            }
        }
        (keys, wins, blocks)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn the_row_scan_keys_every_point_as_defined(
            size in 3usize..=20,
            connect in 2usize..=7,
            standard in any::<bool>(),
            steps in proptest::collection::vec((any::<u16>(), 0u8..8), 1..150),
        ) {
            let mut walk = Walk::new(size, connect, standard);
            let mut ranked = Vec::new();
            for (choice, action) in steps {
                walk.step(choice, action.max(1));
                let game = &walk.game;
                if game.winner().is_some() || game.stones_played() == 0 {
                    continue;
                }
                let (wins, blocks) = scan(game, &mut ranked);
                let (expected, expected_wins, expected_blocks) = keys_point_by_point(game);
                prop_assert_eq!(&ranked, &expected, "{}", game);
                prop_assert_eq!((wins, blocks), (expected_wins, expected_blocks), "{}", game);
                // The walk keeps the point table's keys, which the scan reads; without them
                // it reads the lines' codes, to the same keys.
                let mut untracked = game.clone();
                untracked.set_point_table(false);
                let mut from_lines = Vec::new();
                prop_assert_eq!(scan(&untracked, &mut from_lines), (wins, blocks), "{}", game);
                prop_assert_eq!(&from_lines, &ranked, "{}", game);
            }
        }

        #[test]
        fn keep_smallest_gives_the_first_keys_of_the_sorted_list(
            keys in proptest::collection::hash_set(any::<u64>(), 0..120),
            k in 0usize..40,
        ) {
            let mut keys: Vec<u64> = keys.into_iter().collect();
            let mut sorted = keys.clone();
            sorted.sort_unstable();
            sorted.truncate(k);
            let kept = keep_smallest(&mut keys, k);
            prop_assert_eq!(&keys[..kept], &sorted[..]);
        }

        #[test]
        fn order_keys_kept_by_the_ranking_are_the_keys_worked_out(
            size in 3usize..=20,
            connect in 2usize..=7,
            standard in any::<bool>(),
            steps in proptest::collection::vec((any::<u16>(), 0u8..8), 1..150),
        ) {
            let mut walk = Walk::new(size, connect, standard);
            let mut out = Vec::new();
            for (choice, action) in steps {
                // Rankings of other positions (the walk's earlier ones) are left behind too.
                if let Some(limit) = walk.step(choice, action) {
                    candidates(&walk.game, &mut out, limit.max(1));
                    let game = &walk.game;
                    let (mut kept, mut empty) = (0, 0);
                    for cell in 0..(size * size) as Cell {
                        if game.at(cell).is_none() {
                            empty += 1;
                            kept += usize::from(
                                RANKING.with_borrow(|r| r.order_key(game, cell)).is_some(),
                            );
                            prop_assert_eq!(
                                order_key(game, cell),
                                order_key_now(game, cell),
                                "{} at {}",
                                game,
                                cell
                            );
                        }
                    }
                    // Not vacuous: a ranked position with stones keeps its points' keys.
                    if game.stones_played() > 0 && game.winner().is_none() && empty > 0 {
                        prop_assert!(kept > 0, "{}", game);
                    }
                }
            }
        }
    }
}
