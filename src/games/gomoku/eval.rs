//! Gomoku evaluation by line patterns, and the ranking of candidate points that makes a
//! 15x15 search feasible. Reads the shape counts that `play` keeps per line; never allocates.
//!
//! The weights are the classic Gomoku table (five 100000; open four, double closed four or
//! closed four + open three 10000; double open three 5000; closed three + open three 1000;
//! closed four 500; open three 200; double open two 100; closed three 50; open two 5; closed
//! two 3), with the pattern names generalised to `connect` (see [`Shape`]).

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

impl PatternCounts {
    /// Counts from the 16-bit lanes kept in the position.
    fn from_lanes(lanes: u128) -> Self {
        let mut counts = [0u16; 8];
        for (i, count) in counts.iter_mut().enumerate() {
            *count = (lanes >> (16 * i)) as u16;
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

    /// The weight of the strongest combination present, from the table (five
    /// 100000 down to closed two 3).
    pub fn category(&self) -> i32 {
        use Shape::{ClosedFour, ClosedThree, ClosedTwo, Five, OpenFour, OpenThree, OpenTwo};
        let n = |s| self.get(s);
        if n(Five) > 0 {
            100_000
        } else if n(OpenFour) > 0 || n(ClosedFour) >= 2 || (n(ClosedFour) > 0 && n(OpenThree) > 0) {
            10_000
        } else if n(OpenThree) >= 2 {
            5_000
        } else if n(ClosedThree) > 0 && n(OpenThree) > 0 {
            1_000
        } else if n(ClosedFour) > 0 {
            500
        } else if n(OpenThree) > 0 {
            200
        } else if n(OpenTwo) >= 2 {
            100
        } else if n(ClosedThree) > 0 {
            50
        } else if n(OpenTwo) > 0 {
            5
        } else if n(ClosedTwo) > 0 {
            3
        } else {
            0
        }
    }

    /// The score of these shapes for their owner: the [`PatternCounts::category`] of the
    /// strongest combination plus every shape's own weight, so that more of a kind counts
    /// for more while one instance of each category still ranks in the table's order.
    pub fn score(&self) -> i32 {
        const SINGLE: [i32; 8] = [0, 3, 5, 50, 200, 500, 10_000, 100_000];
        let singles: i32 = self
            .counts
            .iter()
            .zip(SINGLE)
            .map(|(&n, w)| i32::from(n) * w)
            .sum();
        self.category() + singles
    }
}

impl Gomoku {
    /// `player`'s shapes over the whole board (each cluster of stones along a line counts
    /// once, as its strongest shape).
    pub fn pattern_counts(&self, player: Player) -> PatternCounts {
        PatternCounts::from_lanes(self.totals[player.index()])
    }

    /// The shapes `player` would make in the four directions by playing the empty `cell`.
    pub fn shapes_if_played(&self, cell: Cell, player: Player) -> [Shape; 4] {
        let (row, col) = self.row_col(cell);
        self.shapes_at(row, col, player.index())
    }

    #[inline]
    fn shapes_at(&self, row: usize, col: usize, p: usize) -> [Shape; 4] {
        let mut shapes = [Shape::None; 4];
        for (shape, (index, pos)) in shapes.iter_mut().zip(self.lines_through(row, col)) {
            let line = &self.lines[index];
            let len = u32::from(line.len);
            if len < self.table.connect() {
                continue;
            }
            let (own, blocked) =
                self.table
                    .pad(line.stones[p] | (1 << pos), line.stones[1 - p], len);
            *shape = self.table.shape_at(own, blocked, pos);
        }
        shapes
    }
}

/// The value of the four directional shapes a stone at one point makes, by the same table.
fn point_value(shapes: [Shape; 4]) -> i32 {
    let mut counts = PatternCounts::default();
    for shape in shapes {
        counts.add(shape);
    }
    counts.score()
}

/// Gomoku's evaluators.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GomokuEval {
    /// Line patterns of both sides (see the module doc), with the move's tempo.
    #[default]
    Patterns,
}

impl Evaluator<Gomoku> for GomokuEval {
    fn name(&self) -> &'static str {
        match self {
            Self::Patterns => "patterns",
        }
    }

    /// Own pattern score minus the opponent's, from the side to move, with the tempo the
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
            mine.score() - theirs.score() + tempo
        };
        value.clamp(-MAX_HEURISTIC, MAX_HEURISTIC)
    }
}

/// Fills `out` with the best `limit` empty points near stones (Chebyshev distance 2), ranked
/// by attack plus defence: the pattern value of the mover's stone there plus that of the
/// opponent's. If the mover can make five, only those points are given; else, if the
/// opponent threatens five, only the points that block it (any other move loses at once).
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
    let n = game.size();
    let full = (1u32 << n) - 1;
    // Occupied cells spread two columns either way, then OR-ed over two rows either way.
    let mut spread = [0u32; super::MAX_SIZE];
    for (row, spread) in spread.iter_mut().enumerate().take(n) {
        let [black, white] = game.lines[row].stones;
        let occupied = black | white;
        *spread = (occupied | occupied << 1 | occupied << 2 | occupied >> 1 | occupied >> 2) & full;
    }
    let me = game.to_move().index();
    let mut ranked = [(0i32, 0 as Cell); super::MAX_CELLS];
    let mut count = 0;
    let (mut wins, mut blocks) = (false, false);
    for row in 0..n {
        let near = spread[row.saturating_sub(2)..(row + 3).min(n)]
            .iter()
            .fold(0, |acc, s| acc | s);
        let mut todo = near & game.empty_in_row(row);
        while todo != 0 {
            let col = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let attack = game.shapes_at(row, col, me);
            let defence = game.shapes_at(row, col, 1 - me);
            let cell = (row * n + col) as Cell;
            // Wins first, then blocks; among the rest attack plus defence.
            let key = if attack.contains(&Shape::Five) {
                wins = true;
                i32::MAX
            } else if defence.contains(&Shape::Five) {
                blocks = true;
                i32::MAX - 1
            } else {
                point_value(attack) + point_value(defence)
            };
            ranked[count] = (key, cell);
            count += 1;
        }
    }
    let ranked = &mut ranked[..count];
    // Best first; equal keys by cell, so the order is reproducible.
    ranked.sort_unstable_by_key(|&(key, cell)| (std::cmp::Reverse(key), cell));
    let forced = if wins {
        i32::MAX
    } else if blocks {
        i32::MAX - 1
    } else {
        i32::MIN
    };
    out.extend(
        ranked
            .iter()
            .take_while(|&&(key, _)| key >= forced)
            .take(limit)
            .map(|&(_, cell)| cell),
    );
    if out.is_empty() {
        // Cannot happen while an empty cell exists (one always touches a stone), but never
        // leave the search without a move.
        game.legal_moves(out);
        out.truncate(limit);
    }
}
