//! Gomoku: `connect` in a row on a `size` x `size` board, Black (the first player) moving
//! first, freestyle (`connect` or more wins) or standard (exactly `connect`). Rules, notation
//! (`h8`: column letter, row number from the bottom) and the per-line bookkeeping that the
//! pattern evaluation in [`eval`] reads; nothing here knows the terminal or the search.

pub mod eval;
mod fours;
pub mod options;
mod point_table;
pub mod policy;
pub mod shape;
pub mod threat;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::options::OptionDoc;
use super::{GameKind, GameOptions, Playable, zobrist_keys};
use crate::engine::limits::StopFlag;
use crate::engine::{Game, Neglect, Outcome, Player, Scoring};
use crate::error::{ConfigError, IllegalMove, ParseMoveError};
pub use eval::{GomokuEval, PatternCounts, PatternTable};
pub use options::PatternWeights;
use shape::{LineShapes, MAX_CONNECT, Shape, ShapeTable, rank_codes};
use threat::{ThreatKind, ThreatLimits};

/// The largest board side: 20, Gomocup's freestyle board (a line's stones fit a `u32`).
pub const MAX_SIZE: usize = 20;
/// The smallest board side.
pub const MIN_SIZE: usize = 3;
const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;
/// Rows, columns and both diagonal directions of the largest board: 6n - 2 lines.
const MAX_LINES: usize = 6 * MAX_SIZE - 2;

/// Attacker moves a root VCF search may use (a VCF rarely needs more than 15).
const ROOT_VCF_DEPTH: u32 = 30;
/// Attacker moves a root VCT search may use.
const ROOT_VCT_DEPTH: u32 = 10;
/// Nodes and attacker moves of the VCF check at a playing search's leaves.
const LEAF_VCF_NODES: u32 = 64;
const LEAF_VCF_DEPTH: u32 = 6;

/// Keys `player * MAX_CELLS + cell` for a stone, and the last one for "White to move".
static KEYS: [u64; 2 * MAX_CELLS + 1] = stone_keys();
const SIDE_KEY: usize = 2 * MAX_CELLS;

/// The key of player `p`'s stone on `cell`.
#[inline]
fn stone_key(p: usize, cell: Cell) -> u64 {
    KEYS[p * MAX_CELLS + usize::from(cell)]
}

/// The cells of a 19x19 board, the largest before 20x20 was offered.
const CELLS_19: usize = 19 * 19;

/// The Zobrist keys, drawn so that every board up to 19x19 hashes exactly as it did when
/// 19x19 was the largest (the keys of stream 2 at `player * 361 + cell`, the side key at
/// 722), and the cells of the 20th row and column take keys after those: the same hashes
/// give the same table behaviour, so search results and the bench signature did not move.
const fn stone_keys() -> [u64; 2 * MAX_CELLS + 1] {
    const OLD: [u64; 2 * CELLS_19 + 1] = zobrist_keys(2);
    const NEW: [u64; 2 * (MAX_CELLS - CELLS_19)] = zobrist_keys(5);
    let mut keys = [0u64; 2 * MAX_CELLS + 1];
    let mut p = 0;
    while p < 2 {
        let mut cell = 0;
        while cell < MAX_CELLS {
            // Cells keep their 19x19 key when the 19x19 board has a cell with that index.
            keys[p * MAX_CELLS + cell] = if cell < CELLS_19 {
                OLD[p * CELLS_19 + cell]
            } else {
                NEW[p * (MAX_CELLS - CELLS_19) + cell - CELLS_19]
            };
            cell += 1;
        }
        p += 1;
    }
    keys[SIDE_KEY] = OLD[2 * CELLS_19];
    keys
}

/// A point of the board: `row * size + col`, row 0 at the bottom, column 0 on the left.
pub type Cell = u16;

/// Which runs win.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// `connect` or more in a row wins.
    #[default]
    Freestyle,
    /// Exactly `connect` in a row wins; a longer run (an overline) does not.
    Standard,
}

impl Rule {
    /// Both rules, in menu order.
    pub const ALL: [Self; 2] = [Self::Freestyle, Self::Standard];

    /// The name used in config files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Self::Freestyle => "freestyle",
            Self::Standard => "standard",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rule {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        Self::ALL
            .into_iter()
            .find(|rule| rule.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown rule `{s}`: expected freestyle or standard"))
    }
}

/// One line of the board (a row, a column or a diagonal): each player's stones as bits by
/// position along the line, and each player's shape counts there (see
/// [`ShapeTable::line_counts`]) and the shape a stone would make on each empty point (see
/// [`ShapeTable::line_point_codes`]), kept up to date by `play` so evaluation is O(1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Line {
    stones: [u32; 2],
    shapes: LineShapes,
    len: u8,
}

/// A Gomoku position.
///
/// Each stone is recorded in its four lines, and every line keeps the shapes (open three,
/// closed four ...) of both players, so [`GomokuEval`] reads board-wide totals without a
/// scan. The price is paid in `play`: four lines are reclassified (memoised per
/// neighbourhood, and whole lines in a per-thread cache, see [`shape`]), with the shape a
/// stone would make on each of their empty points (for candidate ranking, the threat code
/// and the evaluation's point combinations). It also keeps which lines hold fours and
/// threes (for the threat code).
#[derive(Clone, PartialEq, Eq)]
pub struct Gomoku {
    size: u8,
    connect: u8,
    rule: Rule,
    table: ShapeTable,
    to_move: Player,
    stones: u16,
    last: Option<Cell>,
    /// The move before the last: the side to move's own last stone.
    previous: Option<Cell>,
    winner: Option<Player>,
    hash: u64,
    /// Whether the engine may use the threat search ([`threat`]) on this game.
    threats: bool,
    /// Whether `play` and `undo` keep [`Gomoku::ranks`] and [`Gomoku::combos`] (see
    /// [`Gomoku::set_combinations`]).
    combinations: bool,
    /// Board-wide shape counts per player: 16-bit lanes, one a [`shape::Shape`] (placed by
    /// [`widen`]).
    totals: [u128; 2],
    /// Board-wide counts per player of the shapes a stone would make on the empty points,
    /// each line counted along itself ([`ShapeTable::line_points`]), in the same lanes.
    point_totals: [u128; 2],
    /// Per player, the lines (bit = line index) holding a four, and those holding a three
    /// or a four: the threat code visits only these instead of every line.
    four_lines: [u128; 2],
    three_lines: [u128; 2],
    /// Board-wide counts per player of the empty points by the combination of shapes a
    /// stone would make there in its four directions ([`eval::Combination`]), in 16-bit
    /// lanes indexed by it (lane 0: the points with none).
    combos: [u128; 2],
    /// Per player and cell, the rank key of an empty point: what its four directions count
    /// as in a combination ([`eval::COMBINATION_RANK`], 2 bits each); 0 on taken points.
    ranks: [[u8; MAX_CELLS]; 2],
    /// Whether `play` and `undo` keep [`Gomoku::point_keys`] and [`Gomoku::point_sums`]
    /// (see [`Gomoku::set_point_table`]).
    point_table: bool,
    /// Per player and cell, the [`eval::PointKey`] of an empty point: the shapes a stone
    /// would make there in the four directions (3 bits each); 0 on taken points.
    point_keys: [[u16; MAX_CELLS]; 2],
    /// Per player, the point table's values ([`point_table::point_values_of`]) of its points
    /// summed over the board: `[as the side to move's, as the waiting side's]`.
    point_sums: [[i32; 2]; 2],
    lines: [Line; MAX_LINES],
}

/// What [`Gomoku::play`] saves for [`Gomoku::undo`]: the shape counts it overwrote.
#[derive(Clone, Copy, Debug)]
pub struct GomokuUndo {
    shapes: [LineShapes; 4],
    totals: [u128; 2],
    point_totals: [u128; 2],
    combos: [u128; 2],
    /// The rank keys of the stone's point before it was played.
    ranks: [u8; 2],
    /// The point keys of the stone's point before it was played.
    point_keys: [u16; 2],
    point_sums: [[i32; 2]; 2],
    four_lines: [u128; 2],
    three_lines: [u128; 2],
    last: Option<Cell>,
    previous: Option<Cell>,
}

impl Gomoku {
    /// The empty board, Black to move.
    ///
    /// # Panics
    /// If `size` is outside 3..=20 or `connect` outside 2..=min(size, 7); options are
    /// validated (see [`GomokuOptions::validate`]) before a game is built from them.
    pub fn new(size: usize, connect: usize, rule: Rule) -> Self {
        assert!(
            (MIN_SIZE..=MAX_SIZE).contains(&size),
            "board size {size} out of range"
        );
        assert!(
            (2..=MAX_CONNECT.min(size)).contains(&connect),
            "connect {connect} out of range"
        );
        let table = ShapeTable::new(connect, rule == Rule::Standard);
        let mut lines = [Line::default(); MAX_LINES];
        // An empty line has a potential only when a lone stone is a shape (`connect` < 5).
        let mut point_totals = [0u128; 2];
        for (i, line) in lines.iter_mut().take(6 * size - 2).enumerate() {
            line.len = line_len(size, i) as u8;
            line.shapes = table.line_shapes(0, 0, u32::from(line.len));
            for (total, &points) in point_totals.iter_mut().zip(&line.shapes.points) {
                *total += widen(points);
            }
        }
        let mut game = Self {
            size: size as u8,
            connect: connect as u8,
            rule,
            table,
            to_move: Player::First,
            stones: 0,
            last: None,
            previous: None,
            winner: None,
            hash: 0,
            threats: true,
            combinations: false,
            totals: [0; 2],
            point_totals,
            four_lines: [0; 2],
            three_lines: [0; 2],
            combos: [0; 2],
            ranks: [[0; MAX_CELLS]; 2],
            point_table: false,
            point_keys: [[0; MAX_CELLS]; 2],
            point_sums: [[0; 2]; 2],
            lines,
        };
        (game.combos, game.ranks) = game.combinations_from_scratch();
        game
    }

    /// The board side.
    pub fn size(&self) -> usize {
        usize::from(self.size)
    }

    /// How many in a row win.
    pub fn connect(&self) -> usize {
        usize::from(self.connect)
    }

    /// Freestyle or standard.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The cell at `row` (0 = bottom) and `col` (0 = left), if on the board.
    pub fn cell(&self, row: usize, col: usize) -> Option<Cell> {
        let n = self.size();
        (row < n && col < n).then(|| (row * n + col) as Cell)
    }

    /// The `(row, col)` of `cell` (row 0 at the bottom).
    pub fn row_col(&self, cell: Cell) -> (usize, usize) {
        let n = self.size();
        (usize::from(cell) / n, usize::from(cell) % n)
    }

    /// Who has a stone at `row`, `col` (None when empty or off the board).
    pub fn stone(&self, row: usize, col: usize) -> Option<Player> {
        if row >= self.size() || col >= self.size() {
            return None;
        }
        let bits = &self.lines[row].stones;
        if bits[0] & (1 << col) != 0 {
            Some(Player::First)
        } else if bits[1] & (1 << col) != 0 {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// Who has a stone on `cell`.
    pub fn at(&self, cell: Cell) -> Option<Player> {
        let (row, col) = self.row_col(cell);
        self.stone(row, col)
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Cell> {
        self.last
    }

    /// Stones on the board.
    pub fn stones_played(&self) -> usize {
        usize::from(self.stones)
    }

    /// Turns the threat search (see [`threat`]) on or off for the engine.
    pub fn set_threats(&mut self, on: bool) {
        self.threats = on;
    }

    /// Makes `play` and `undo` keep the counts of points by the combination of shapes a
    /// stone would make there ([`Gomoku::combination_counts`]), or stop keeping them. Off,
    /// a search's moves cost less (the flips take 10-30 % of a node's time) and the counts
    /// are worked out from the whole board when asked for: turn it on when an evaluation
    /// weighs them (`new_game` does when a combination weight is not 0).
    pub fn set_combinations(&mut self, on: bool) {
        if on && !self.combinations {
            (self.combos, self.ranks) = self.combinations_from_scratch();
        }
        self.combinations = on;
    }

    /// Makes `play` and `undo` keep the point table's sums ([`Gomoku::point_table_sums`]),
    /// or stop keeping them (then they are worked out from the whole board when asked
    /// for). The evaluation turns it on when it weighs the table.
    pub fn set_point_table(&mut self, on: bool) {
        if on && !self.point_table {
            (self.point_keys, self.point_sums) = self.point_table_from_scratch();
        }
        self.point_table = on;
    }

    /// A copy whose `play` and `undo` keep only what a threat search reads (the lines'
    /// shapes, the board's totals): the combination counts and the point table are left
    /// behind, which makes a move and its undo about 40 % cheaper (docs/performance.md,
    /// "Wave 48").
    pub(super) fn lean_copy(&self) -> Self {
        let mut copy = self.clone();
        copy.combinations = false;
        copy.point_table = false;
        copy
    }

    /// Per player, the point table's values of its empty points summed over the board:
    /// `[as the side to move's, as the waiting side's]` (`point_table.rs`).
    pub fn point_table_sums(&self) -> [[i32; 2]; 2] {
        if self.point_table {
            self.point_sums
        } else {
            self.point_table_from_scratch().1
        }
    }

    /// [`Gomoku::point_keys`], when `play` and `undo` keep them (the point table is on):
    /// the candidate ranking reads a point's keys there instead of from its four lines.
    #[inline]
    pub(super) fn kept_point_keys(&self) -> Option<&[[u16; MAX_CELLS]; 2]> {
        self.point_table.then_some(&self.point_keys)
    }

    /// Whether the combination counts are kept (see [`Gomoku::set_combinations`]).
    pub fn keeps_combinations(&self) -> bool {
        self.combinations
    }

    /// The winner, once someone has made a line.
    pub fn winner(&self) -> Option<Player> {
        self.winner
    }

    /// The cells of the winning run (all of it, for a freestyle overline), from one end to
    /// the other; `None` while nobody has won.
    pub fn winning_line(&self) -> Option<Vec<Cell>> {
        let winner = self.winner?;
        let (row, col) = self.row_col(self.last?);
        let n = self.size() as isize;
        let mine = |r: isize, c: isize| {
            (0..n).contains(&r)
                && (0..n).contains(&c)
                && self.stone(r as usize, c as usize) == Some(winner)
        };
        for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
            let (mut r, mut c) = (row as isize, col as isize);
            while mine(r - dr, c - dc) {
                r -= dr;
                c -= dc;
            }
            let mut cells = Vec::new();
            while mine(r, c) {
                cells.push((r * n + c) as Cell);
                r += dr;
                c += dc;
            }
            let wins = match self.rule {
                Rule::Freestyle => cells.len() >= self.connect(),
                Rule::Standard => cells.len() == self.connect(),
            };
            if wins {
                return Some(cells);
            }
        }
        None
    }

    /// The centre point (for even sizes the one up and right of the middle).
    pub fn centre(&self) -> Cell {
        let half = self.size() / 2;
        (half * self.size() + half) as Cell
    }

    /// The stone of a player as drawn on the text board: Black `X` moves first.
    pub fn mark(player: Player) -> char {
        match player {
            Player::First => 'X',
            Player::Second => 'O',
        }
    }

    /// The four lines through `(row, col)`: (line index, position along the line), in the
    /// order row, column, diagonal (up-right), anti-diagonal (up-left).
    #[inline]
    fn lines_through(&self, row: usize, col: usize) -> [(usize, u32); 4] {
        let n = self.size();
        let anti = row + col;
        [
            (row, col as u32),
            (n + col, row as u32),
            (2 * n + row + n - 1 - col, row.min(col) as u32),
            (4 * n - 1 + anti, (row - anti.saturating_sub(n - 1)) as u32),
        ]
    }

    /// True when the stones `bits` of a line make a winning run through `pos`.
    #[inline]
    fn wins_through(&self, bits: u32, pos: u32) -> bool {
        let above = (bits >> (pos + 1)).trailing_ones();
        let below = if pos == 0 {
            0
        } else {
            (bits << (32 - pos)).leading_ones()
        };
        let run = above + below + 1;
        match self.rule {
            Rule::Freestyle => run >= u32::from(self.connect),
            Rule::Standard => run == u32::from(self.connect),
        }
    }

    /// The four lines `through` a stone now have the shapes `fresh`: the board's totals
    /// follow. Each line's 8-bit lanes are summed before they are widened (a lane counts
    /// at most a line's 20 points, so four lines' sums stay below 256): two widenings per
    /// player and total instead of eight.
    #[inline]
    fn set_line_shapes(&mut self, through: &[(usize, u32); 4], fresh: [LineShapes; 4]) {
        let (mut counts, mut points) = ([[0u64; 2]; 2], [[0u64; 2]; 2]);
        for (&(index, _), fresh) in through.iter().zip(fresh) {
            let line = &mut self.lines[index];
            let bit = 1u128 << index;
            for p in 0..2 {
                let (new, old) = (fresh.counts[p], line.shapes.counts[p]);
                counts[p][0] += new;
                counts[p][1] += old;
                points[p][0] += fresh.points[p];
                points[p][1] += line.shapes.points[p];
                if new != old {
                    let (four, three) = (new & threat::HAS_FOUR != 0, new & threat::HAS_THREE != 0);
                    self.four_lines[p] = self.four_lines[p] & !bit | u128::from(four) << index;
                    self.three_lines[p] =
                        self.three_lines[p] & !bit | u128::from(four || three) << index;
                }
            }
            line.shapes = fresh;
        }
        for p in 0..2 {
            let [new, old] = counts[p];
            if new != old {
                self.totals[p] = self.totals[p] + widen(new) - widen(old);
            }
            let [new, old] = points[p];
            if new != old {
                self.point_totals[p] = self.point_totals[p] + widen(new) - widen(old);
            }
        }
    }

    /// The codes of line `index`: per player, the shape a stone would make on each point
    /// (3 bits a position along the line, see [`ShapeTable::line_point_codes`]).
    #[inline]
    fn point_shapes(&self, index: usize) -> [u64; 2] {
        self.lines[index].shapes.codes
    }

    /// [`Gomoku::point_keys`] and [`Gomoku::point_sums`] worked out point by point.
    fn point_table_from_scratch(&self) -> ([[u16; MAX_CELLS]; 2], [[i32; 2]; 2]) {
        let mut keys = [[0u16; MAX_CELLS]; 2];
        let mut sums = [[0i32; 2]; 2];
        let n = self.size();
        for row in 0..n {
            let mut empty = self.empty_in_row(row);
            while empty != 0 {
                let col = empty.trailing_zeros() as usize;
                empty &= empty - 1;
                let (first, second) = eval::point_keys(self, 0, row, col);
                for (p, key) in [first, second].into_iter().enumerate() {
                    keys[p][row * n + col] = key as u16;
                    let [mover, waiting] = point_table::point_values_of(key);
                    sums[p][0] += mover;
                    sums[p][1] += waiting;
                }
            }
        }
        (keys, sums)
    }

    /// Brings [`Gomoku::point_keys`] and [`Gomoku::point_sums`] up to date after `play`
    /// put a stone on `cell` (as [`Gomoku::update_combinations`] does the ranks), saving
    /// the stone's point's keys in `undo`.
    fn update_point_table(
        &mut self,
        cell: usize,
        through: &[(usize, u32); 4],
        before: &[LineShapes; 4],
        undo: &mut [u16; 2],
    ) {
        for (p, saved) in undo.iter_mut().enumerate() {
            let stone = self.point_keys[p][cell];
            *saved = stone;
            self.point_keys[p][cell] = 0;
            let [mut mover, mut waiting] = self.point_sums[p];
            let [m, w] = point_table::point_values_of(usize::from(stone));
            mover -= m;
            waiting -= w;
            self.toggle_point_keys(p, cell, through, before, |from, to| {
                let [m0, w0] = point_table::point_values_of(from);
                let [m1, w1] = point_table::point_values_of(to);
                mover += m1 - m0;
                waiting += w1 - w0;
            });
            self.point_sums[p] = [mover, waiting];
        }
    }

    /// Flips, in [`Gomoku::point_keys`] of player `p`, the shape of each point of the four
    /// lines `through` `cell` (other than `cell`) whose shape differs between `before` and
    /// the lines' shapes now, telling `changed` each point's key before and after; the same
    /// call takes the change back in `undo` (as [`Gomoku::toggle_ranks`]).
    #[inline]
    fn toggle_point_keys(
        &mut self,
        p: usize,
        cell: usize,
        through: &[(usize, u32); 4],
        before: &[LineShapes; 4],
        mut changed: impl FnMut(usize, usize),
    ) {
        let n = self.size();
        let lines = &self.lines;
        let keys = &mut self.point_keys[p];
        let changes = |d: usize, index: usize| before[d].codes[p] ^ lines[index].shapes.codes[p];
        for_each_changed_point(n, cell, through, changes, |d, point, flip| {
            let from = keys[point];
            let to = from ^ (flip as u16) << (3 * d);
            keys[point] = to;
            changed(usize::from(from), usize::from(to));
        });
    }

    /// [`Gomoku::combos`] and [`Gomoku::ranks`] worked out point by point.
    fn combinations_from_scratch(&self) -> ([u128; 2], [[u8; MAX_CELLS]; 2]) {
        let mut combos = [0u128; 2];
        let mut ranks = [[0u8; MAX_CELLS]; 2];
        let n = self.size();
        for row in 0..n {
            let mut empty = self.empty_in_row(row);
            while empty != 0 {
                let col = empty.trailing_zeros() as usize;
                empty &= empty - 1;
                for p in 0..2 {
                    let mut key = 0;
                    for (d, (index, pos)) in self.lines_through(row, col).into_iter().enumerate() {
                        let code = (self.lines[index].shapes.codes[p] >> (3 * pos)) as usize & 7;
                        key |= eval::COMBINATION_RANK[code] << (2 * d);
                    }
                    ranks[p][row * n + col] = key;
                    combos[p] += combination_lane(key);
                }
            }
        }
        (combos, ranks)
    }

    /// Brings [`Gomoku::ranks`] and [`Gomoku::combos`] up to date after `play` put a stone
    /// on `cell`, whose four lines `through` held `before` (and hold their new shapes now),
    /// saving the stone's point's rank keys in `undo`. Any other point whose code changed
    /// lies on one of the four lines only (two of them meet at the stone alone), so only its
    /// rank in that direction changes.
    fn update_combinations(
        &mut self,
        cell: usize,
        through: &[(usize, u32); 4],
        before: &[LineShapes; 4],
        undo: &mut [u8; 2],
    ) {
        for (p, saved) in undo.iter_mut().enumerate() {
            let stone = self.ranks[p][cell];
            *saved = stone;
            self.ranks[p][cell] = 0;
            let mut combos = self.combos[p] - combination_lane(stone);
            self.toggle_ranks(p, cell, through, before, |from, to| {
                if eval::COMBINATION[usize::from(from)] != eval::COMBINATION[usize::from(to)] {
                    combos = combos + combination_lane(to) - combination_lane(from);
                }
            });
            self.combos[p] = combos;
        }
    }

    /// Flips, in [`Gomoku::ranks`] of player `p`, the rank of each point of the four lines
    /// `through` `cell` (other than `cell`) whose rank differs between `before` and the
    /// lines' shapes now, telling `changed` each point's rank key before and after. The
    /// same call takes the change back in `undo` (a flip is its own inverse).
    #[inline]
    fn toggle_ranks(
        &mut self,
        p: usize,
        cell: usize,
        through: &[(usize, u32); 4],
        before: &[LineShapes; 4],
        mut changed: impl FnMut(u8, u8),
    ) {
        let n = self.size();
        let lines = &self.lines;
        let ranks = &mut self.ranks[p];
        let changes = |d: usize, index: usize| {
            rank_codes(before[d].codes[p]) ^ rank_codes(lines[index].shapes.codes[p])
        };
        for_each_changed_point(n, cell, through, changes, |d, point, flip| {
            let from = ranks[point];
            let to = from ^ (flip as u8 & 3) << (2 * d);
            ranks[point] = to;
            changed(from, to);
        });
    }

    /// The codes of line `index` computed from its stones.
    #[cfg(test)]
    fn point_shapes_from_scratch(&self, index: usize) -> [u64; 2] {
        let line = &self.lines[index];
        let len = u32::from(line.len);
        if len < self.table.connect() {
            return [0; 2];
        }
        let [black, white] = line.stones;
        let empty = !(black | white) & ((1u32 << len) - 1);
        let code = |own: u32, opponent: u32| {
            let (own, blocked) = self.table.pad(own, opponent, len);
            let mut code = 0u64;
            let mut todo = empty;
            while todo != 0 {
                let pos = todo.trailing_zeros();
                todo &= todo - 1;
                code |= (self.table.shape_if_placed(own, blocked, pos) as u64) << (3 * pos);
            }
            code
        };
        [code(black, white), code(white, black)]
    }

    /// Empty cells of row `row` as bits by column.
    #[inline]
    fn empty_in_row(&self, row: usize) -> u32 {
        self.empty_in(row)
    }

    /// The empty points of line `index` as bits by position.
    #[inline]
    fn empty_in(&self, index: usize) -> u32 {
        let line = &self.lines[index];
        !(line.stones[0] | line.stones[1]) & ((1u32 << line.len) - 1)
    }
}

/// Visits each point of the four lines `through` `cell` (other than `cell` itself) whose
/// 3-bit code changed, with the direction, the point's cell and the XOR of its two codes:
/// what [`Gomoku::toggle_point_keys`] and [`Gomoku::toggle_ranks`] flip. `changes(d,
/// index)` gives direction `d`'s line `index`'s codes before XOR now (3 bits a position).
#[inline]
fn for_each_changed_point(
    n: usize,
    cell: usize,
    through: &[(usize, u32); 4],
    changes: impl Fn(usize, usize) -> u64,
    mut visit: impl FnMut(usize, usize, u64),
) {
    let n = n as isize;
    // Per direction, the step between cells along the line as its position grows.
    let strides = [1, n, n + 1, n - 1];
    for ((d, &(index, pos)), stride) in through.iter().enumerate().zip(strides) {
        let mut diff = changes(d, index) & !(7 << (3 * pos));
        while diff != 0 {
            let at = diff.trailing_zeros() / 3;
            let flip = diff >> (3 * at) & 7;
            diff &= !(7 << (3 * at));
            visit(
                d,
                cell.wrapping_add_signed((at as isize - pos as isize) * stride),
                flip,
            );
        }
    }
}

/// The length of line `index` on an `n` x `n` board (rows, columns, then diagonals).
fn line_len(n: usize, index: usize) -> usize {
    if index < 2 * n {
        n
    } else {
        let d = (index - 2 * n) % (2 * n - 1);
        n - d.abs_diff(n - 1)
    }
}

/// One count of the [`eval::Combination`] of a rank key in the 16-bit lanes of
/// [`Gomoku::combos`] (lane 0 counts the points with none).
#[inline]
fn combination_lane(ranks: u8) -> u128 {
    1u128 << (16 * u32::from(eval::COMBINATION[usize::from(ranks)]))
}

/// Spreads eight 8-bit lanes into eight 16-bit lanes (line counts into board totals): the
/// even lanes into the low half, the odd ones into the high half, where [`wide_lane`] finds
/// them. Two masks and a shift: spreading the lanes in order (three shifts of a `u128`), up
/// to 32 times a move before `play` summed its lines first, was a tenth of a search's
/// instructions (docs/performance.md, "Wave 51").
#[inline]
fn widen(x: u64) -> u128 {
    const EVEN: u64 = 0x00FF_00FF_00FF_00FF;
    u128::from(x & EVEN) | u128::from(x >> 8 & EVEN) << 64
}

/// Where [`widen`] puts 8-bit lane `i`: the shift of its 16-bit lane.
#[inline]
const fn wide_lane(i: usize) -> u32 {
    (16 * (i / 2) + 64 * (i % 2)) as u32
}

impl Default for Gomoku {
    /// Freestyle Gomoku on 15x15.
    fn default() -> Self {
        Self::new(15, 5, Rule::Freestyle)
    }
}

impl Game for Gomoku {
    type Move = Cell;
    type Undo = GomokuUndo;
    const SCORING: Scoring = Scoring::WinLoss;

    /// The learnt candidate ranking orders the moves; evaluating each child to order them
    /// did worse (docs/performance.md, "Wave 11").
    const ORDER_HINTS: bool = true;

    /// The ranking's hints are hundredths of a logit; a move's signed history moves its key
    /// by up to about one logit. At 1 s a move against Rapfi: 52 of 120 where main scored 38
    /// (docs/performance.md, "Wave 33").
    const HISTORY_PER_HINT: i32 = 100;

    fn order_hint(&self, mv: Cell) -> i32 {
        eval::order_key(self, mv)
    }

    fn describe_score(score: i32) -> Option<String> {
        eval::describe_score(score)
    }

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn moves_left(&self) -> Option<usize> {
        Some((self.size() * self.size()).saturating_sub(self.stones_played()))
    }

    fn legal_moves(&self, out: &mut Vec<Cell>) {
        out.clear();
        if self.winner.is_some() {
            return;
        }
        // Branch-free: every cell is written, and the count advances only for empty ones;
        // then one copy into `out`. Twice as fast as pushing bit by bit on a 15x15 board.
        let n = self.size();
        let mut cells = [0 as Cell; MAX_CELLS];
        let mut count = 0;
        for row in 0..n {
            let empty = self.empty_in_row(row);
            for col in 0..n {
                cells[count] = (row * n + col) as Cell;
                count += (empty >> col) as usize & 1;
            }
        }
        out.extend_from_slice(&cells[..count]);
    }

    fn candidate_moves(&self, out: &mut Vec<Cell>, limit: usize) {
        eval::candidates(self, out, limit);
    }

    fn play(&mut self, mv: Cell) -> GomokuUndo {
        let (row, col) = self.row_col(mv);
        let p = self.to_move.index();
        let mut undo = GomokuUndo {
            shapes: [LineShapes::default(); 4],
            totals: self.totals,
            point_totals: self.point_totals,
            combos: self.combos,
            ranks: [0; 2],
            point_keys: [0; 2],
            point_sums: self.point_sums,
            four_lines: self.four_lines,
            three_lines: self.three_lines,
            last: self.last,
            previous: self.previous,
        };
        let mut won = false;
        let through = self.lines_through(row, col);
        let mut contents = [[0; 3]; 4];
        for (i, &(index, pos)) in through.iter().enumerate() {
            let line = &mut self.lines[index];
            line.stones[p] |= 1 << pos;
            undo.shapes[i] = line.shapes;
            contents[i] = [line.stones[0], line.stones[1], u32::from(line.len)];
            won = won || self.wins_through(contents[i][p], pos);
        }
        let fresh = self.table.four_line_shapes(contents);
        self.set_line_shapes(&through, fresh);
        if self.combinations {
            self.update_combinations(usize::from(mv), &through, &undo.shapes, &mut undo.ranks);
        }
        if self.point_table {
            let cell = usize::from(mv);
            self.update_point_table(cell, &through, &undo.shapes, &mut undo.point_keys);
        }
        if won {
            self.winner = Some(self.to_move);
        }
        self.hash ^= stone_key(p, mv) ^ KEYS[SIDE_KEY];
        self.stones += 1;
        self.previous = self.last;
        self.last = Some(mv);
        self.to_move = self.to_move.other();
        undo
    }

    fn undo(&mut self, mv: Cell, undo: GomokuUndo) {
        self.to_move = self.to_move.other();
        let p = self.to_move.index();
        let (row, col) = self.row_col(mv);
        let through = self.lines_through(row, col);
        let cell = usize::from(mv);
        if self.combinations {
            for q in 0..2 {
                self.toggle_ranks(q, cell, &through, &undo.shapes, |_, _| {});
                self.ranks[q][cell] = undo.ranks[q];
            }
        }
        if self.point_table {
            for q in 0..2 {
                self.toggle_point_keys(q, cell, &through, &undo.shapes, |_, _| {});
                self.point_keys[q][cell] = undo.point_keys[q];
            }
            self.point_sums = undo.point_sums;
        }
        for (i, (index, pos)) in through.into_iter().enumerate() {
            let line = &mut self.lines[index];
            line.stones[p] &= !(1 << pos);
            line.shapes = undo.shapes[i];
        }
        self.totals = undo.totals;
        self.point_totals = undo.point_totals;
        self.combos = undo.combos;
        self.four_lines = undo.four_lines;
        self.three_lines = undo.three_lines;
        self.last = undo.last;
        self.previous = undo.previous;
        // A won game has no moves, so the move taken back was the only one that could win.
        self.winner = None;
        self.stones -= 1;
        self.hash ^= stone_key(p, mv) ^ KEYS[SIDE_KEY];
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(winner) = self.winner {
            Some(Outcome::Win { winner, margin: 1 })
        } else if self.stones_played() == self.size() * self.size() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    fn hash_after(&self, mv: Cell) -> Option<u64> {
        let key = KEYS.get(self.to_move.index() * MAX_CELLS + usize::from(mv))?;
        Some(self.hash ^ key ^ KEYS[SIDE_KEY])
    }

    fn hash_from_scratch(&self) -> u64 {
        let n = self.size();
        let mut hash = 0;
        for row in 0..n {
            for col in 0..n {
                if let Some(player) = self.stone(row, col) {
                    hash ^= stone_key(player.index(), (row * n + col) as Cell);
                }
            }
        }
        if self.to_move == Player::Second {
            hash ^= KEYS[SIDE_KEY];
        }
        hash
    }

    const THREATS: bool = true;

    fn forced_win(
        &self,
        nodes: u64,
        deadline: Option<std::time::Instant>,
        stop: &StopFlag,
    ) -> (Option<Vec<Cell>>, u64) {
        if !self.threats {
            return (None, 0);
        }
        // Fours first: cheap, and a VCF is the surest win; then threes and fours.
        let vcf = ThreatLimits {
            nodes: nodes / 4,
            depth: ROOT_VCF_DEPTH,
            deadline,
            stop: Some(stop.clone()),
        };
        let (line, spent) = self.threat_win(ThreatKind::Vcf, vcf);
        if line.is_some() {
            return (line, spent);
        }
        let vct = ThreatLimits {
            nodes: nodes.saturating_sub(spent),
            depth: ROOT_VCT_DEPTH,
            deadline,
            stop: Some(stop.clone()),
        };
        let (line, more) = self.threat_win(ThreatKind::Vct, vct);
        (line, spent + more)
    }

    fn threat_defences(
        &self,
        candidates: usize,
        nodes: u64,
        deadline: Option<std::time::Instant>,
        stop: &StopFlag,
    ) -> Option<Vec<Cell>> {
        if !self.threats {
            return None;
        }
        self.defences_against_threats(candidates, nodes, deadline, stop)
    }

    fn leaf_forced_win(&mut self) -> Option<u32> {
        if !self.threats || self.winner.is_some() {
            return None;
        }
        let mine = self.pattern_counts(self.to_move);
        if mine.fours() > 0 {
            return Some(1);
        }
        // A win by fours needs a three to make its first four; the first four's stone may
        // make the next three, so one three is enough to look. Asking for two, as before
        // wave 54, saved about 2 % of a search's time and missed those wins (960 games
        // against Rapfi: +10, docs/performance.md "Wave 54").
        if mine.get(Shape::ClosedThree) + mine.get(Shape::OpenThree) == 0 {
            return None;
        }
        let mut budget = LEAF_VCF_NODES;
        self.leaf_vcf(LEAF_VCF_DEPTH, &mut budget)
    }

    fn forced_replies(&self, out: &mut Vec<Cell>) {
        out.clear();
        if self.threats {
            self.forced_replies(out);
        }
    }

    fn neglect(&self, mv: Cell) -> Option<Neglect> {
        if self.threats { self.neglect(mv) } else { None }
    }

    fn move_index(&self, mv: Cell) -> usize {
        usize::from(mv)
    }

    /// Any empty point of the board is a legal move (no symmetries are folded into the
    /// hash, so the index is the cell): the table's move is searched before the candidates
    /// are ranked ([`eval::candidates`]) and ordered, or, with no candidate limit, before
    /// the 200-odd legal moves are generated.
    #[inline]
    fn table_move(&self, _orientation: usize, index: usize, _solving: bool) -> Option<Cell> {
        let cell = Cell::try_from(index).ok()?;
        let legal =
            self.winner.is_none() && index < self.size() * self.size() && self.at(cell).is_none();
        legal.then_some(cell)
    }

    fn move_space(&self) -> usize {
        self.size() * self.size()
    }

    fn format_move(&self, mv: Cell) -> String {
        let (row, col) = self.row_col(mv);
        format!("{}{}", char::from(b'a' + col as u8), row + 1)
    }

    fn try_play(&mut self, mv: Cell) -> Result<GomokuUndo, IllegalMove> {
        super::try_play_explained(self, mv, |g| {
            if usize::from(mv) >= g.size() * g.size() {
                "not a point of the board".to_string()
            } else if let Some(p) = g.at(mv) {
                format!(
                    "{} already holds a {} stone",
                    g.format_move(mv),
                    Self::side_name(p)
                )
            } else {
                "not a legal move in this position".to_string()
            }
        })
    }

    fn parse_move(&self, text: &str) -> Result<Cell, ParseMoveError> {
        let n = self.size();
        let expected = || {
            format!(
                "a column a..{} and a row 1..{n}, like {}",
                char::from(b'a' + n as u8 - 1),
                self.format_move(self.centre())
            )
        };
        let t = text.trim().to_ascii_lowercase();
        let mut chars = t.chars();
        let letter = chars.next().filter(char::is_ascii_lowercase);
        let digits = chars.as_str();
        let row =
            (!digits.is_empty() && digits.len() <= 2 && digits.bytes().all(|b| b.is_ascii_digit()))
                .then(|| digits.parse::<usize>().ok())
                .flatten();
        match (letter, row) {
            (Some(letter), Some(row)) if (1..=n).contains(&row) => {
                let col = usize::from(letter as u8 - b'a');
                self.cell(row - 1, col)
                    .ok_or_else(|| ParseMoveError::new(text, expected()))
            }
            _ => Err(ParseMoveError::new(text, expected())),
        }
    }
}

impl fmt::Display for Gomoku {
    /// The board with row 1 at the bottom: `X` Black, `O` White, `.` empty, and the last
    /// move in parentheses, e.g. ` 8  . X(O). .`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size();
        for row in (0..n).rev() {
            write!(f, "{:>2} ", row + 1)?;
            let mut after_last = false;
            for col in 0..n {
                let is_last = self.last == self.cell(row, col);
                let separator = if is_last {
                    '('
                } else if after_last {
                    ')'
                } else {
                    ' '
                };
                write!(
                    f,
                    "{separator}{}",
                    self.stone(row, col).map_or('.', Self::mark)
                )?;
                after_last = is_last;
            }
            if after_last {
                write!(f, ")")?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for col in 0..n {
            write!(f, " {}", char::from(b'a' + col as u8))?;
        }
        writeln!(f)
    }
}

impl fmt::Debug for Gomoku {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Gomoku {n}x{n}, connect {k}, {rule}, {to_move} to move, hash {hash:#018x}",
            n = self.size,
            k = self.connect,
            rule = self.rule,
            to_move = self.to_move,
            hash = self.hash
        )?;
        fmt::Display::fmt(self, f)
    }
}

/// Gomoku's options: the `[gomoku]` section of `config.toml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GomokuOptions {
    /// Board side, 3..=20.
    pub size: usize,
    /// How many in a row win, 2..=min(size, 7).
    pub connect: usize,
    /// `freestyle` (connect or more wins) or `standard` (exactly connect).
    pub rule: Rule,
    /// Candidate points a playing search considers per node, best first, twice as many at
    /// the root and more far from the horizon (22 of 12 from 8 moves out)
    /// ([`crate::engine::settings::EngineSettings::candidates_at`]; 0 = every empty point;
    /// exact solving always uses every point).
    pub candidates: usize,
    /// Engine search depth when a player's own depth is 0.
    pub depth: u32,
    /// Whether a playing search uses the threat search (wins by fours, and by threes and
    /// fours, at the root; wins by fours at its leaves, and a four blocked past them).
    pub threats: bool,
    /// The weights of the `patterns` evaluator (`[gomoku.patterns]`).
    pub patterns: PatternWeights,
}

impl Default for GomokuOptions {
    fn default() -> Self {
        Self {
            size: 15,
            connect: 5,
            rule: Rule::Freestyle,
            candidates: 12,
            depth: 4,
            threats: true,
            patterns: PatternWeights::default(),
        }
    }
}

/// The largest engine depth the options accept: a full 20x20 board.
const MAX_DEPTH: u32 = MAX_CELLS as u32;

impl GameOptions for GomokuOptions {
    const DOCS: &'static [OptionDoc] = &[
        OptionDoc::flag("size", "Board size", "board size, 3..=20"),
        OptionDoc::flag("connect", "In a row to win", "stones in a row that win"),
        OptionDoc::flag(
            "rule",
            "Rule",
            "freestyle (connect or more wins) or standard (exactly connect)",
        ),
        OptionDoc::flag(
            "candidates",
            "Candidates",
            "candidate moves the playing search considers per node, twice as many at the root, more far from the horizon (0 = all)",
        ),
        OptionDoc::DEPTH,
        OptionDoc::flag(
            "threats",
            "Threats",
            "the playing search uses the threat search (true|false)",
        )
        .value_name("BOOL"),
        // The pattern weights (dotted: setup rows under "Evaluator weights", never flags).
        OptionDoc::no_flag(
            "patterns.five",
            "Five",
            "a five: connect in a row (default 100000)",
        ),
        OptionDoc::no_flag(
            "patterns.open_four",
            "Open four",
            "a four that two points complete (10000)",
        ),
        OptionDoc::no_flag(
            "patterns.double_closed_four",
            "Two closed fours",
            "two closed fours (10000)",
        ),
        OptionDoc::no_flag(
            "patterns.closed_four_open_three",
            "Closed four + open 3",
            "a closed four and an open three (10000)",
        ),
        OptionDoc::no_flag(
            "patterns.double_open_three",
            "Two open threes",
            "two open threes (5000)",
        ),
        OptionDoc::no_flag(
            "patterns.closed_three_open_three",
            "Closed + open three",
            "a closed three and an open three (1000)",
        ),
        OptionDoc::no_flag(
            "patterns.closed_four",
            "Closed four",
            "a four that one point completes (500)",
        ),
        OptionDoc::no_flag(
            "patterns.open_three",
            "Open three",
            "a three that can become an open four (200)",
        ),
        OptionDoc::no_flag(
            "patterns.double_open_two",
            "Two open twos",
            "two open twos (100)",
        ),
        OptionDoc::no_flag(
            "patterns.closed_three",
            "Closed three",
            "a three that can become only a closed four (50)",
        ),
        OptionDoc::no_flag(
            "patterns.open_two",
            "Open two",
            "a two that can become an open three (5)",
        ),
        OptionDoc::no_flag(
            "patterns.closed_two",
            "Closed two",
            "a two that can become only a closed three (3)",
        ),
        OptionDoc::no_flag(
            "patterns.point_open_four",
            "Point: open four",
            "each empty point where a stone makes an open four, per line (40)",
        ),
        OptionDoc::no_flag(
            "patterns.point_closed_four",
            "Point: closed four",
            "each empty point where a stone makes a closed four, per line (15)",
        ),
        OptionDoc::no_flag(
            "patterns.point_open_three",
            "Point: open three",
            "each empty point where a stone makes an open three, per line (8)",
        ),
        OptionDoc::no_flag(
            "patterns.point_closed_three",
            "Point: closed three",
            "each empty point where a stone makes a closed three, per line (4)",
        ),
        OptionDoc::no_flag(
            "patterns.point_open_two",
            "Point: open two",
            "each empty point where a stone makes an open two, per line (2)",
        ),
        OptionDoc::no_flag(
            "patterns.point_closed_two",
            "Point: closed two",
            "each empty point where a stone makes a closed two, per line (1)",
        ),
        OptionDoc::no_flag(
            "patterns.point_double_four",
            "Point: two fours",
            "each empty point where a stone makes fours in two directions (0)",
        ),
        OptionDoc::no_flag(
            "patterns.point_four_three",
            "Point: four + three",
            "each empty point where a stone makes a four and an open three (0)",
        ),
        OptionDoc::no_flag(
            "patterns.point_double_three",
            "Point: two threes",
            "each empty point where a stone makes open threes in two directions (0)",
        ),
        OptionDoc::no_flag(
            "patterns.point_three_two",
            "Point: three + two",
            "each empty point where a stone makes an open three and an open two (0)",
        ),
        OptionDoc::no_flag(
            "patterns.point_double_two",
            "Point: two twos",
            "each empty point where a stone makes open twos in two directions (0)",
        ),
        OptionDoc::no_flag(
            "patterns.waiting_combination",
            "Waiting: combination %",
            "percent of its combination's weight the side that just moved keeps (30)",
        ),
        OptionDoc::no_flag(
            "patterns.waiting_shapes",
            "Waiting: shapes %",
            "percent of its shapes' weights the side that just moved keeps (60)",
        ),
        OptionDoc::no_flag(
            "patterns.tempo",
            "Tempo",
            "what having the move is worth to the side to move (150)",
        ),
        OptionDoc::no_flag(
            "patterns.point_table",
            "Point table %",
            "percent of the fitted per-point table the evaluation adds, 0..=100 (20)",
        ),
    ];

    fn validate(&self, source: &str) -> Result<(), ConfigError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&self.size) {
            return Err(ConfigError::new(
                source,
                "gomoku.size",
                self.size,
                format!("must be {MIN_SIZE}..={MAX_SIZE}"),
            ));
        }
        let max_connect = MAX_CONNECT.min(self.size);
        if !(2..=max_connect).contains(&self.connect) {
            return Err(ConfigError::new(
                source,
                "gomoku.connect",
                self.connect,
                format!(
                    "must be 2..={max_connect} (at most the board size {} and at most \
                     {MAX_CONNECT}: longer lines are known draws)",
                    self.size
                ),
            ));
        }
        if self.candidates > MAX_CELLS {
            return Err(ConfigError::new(
                source,
                "gomoku.candidates",
                self.candidates,
                format!("must be 0..={MAX_CELLS} (0 = every empty point)"),
            ));
        }
        if !(1..=MAX_DEPTH).contains(&self.depth) {
            return Err(ConfigError::new(
                source,
                "gomoku.depth",
                self.depth,
                format!("must be 1..={MAX_DEPTH}"),
            ));
        }
        self.patterns.check().map_err(|(key, value, expected)| {
            ConfigError::new(source, format!("gomoku.patterns.{key}"), value, expected)
        })
    }

    fn default_depth(&self) -> u32 {
        self.depth
    }

    fn candidates(&self) -> usize {
        self.candidates
    }
}

impl Playable for Gomoku {
    const KIND: GameKind = GameKind::Gomoku;
    type Options = GomokuOptions;
    type Eval = GomokuEval;
    const EVALUATORS: &'static [&'static str] = &["patterns"];
    const RELATIVE_WEIGHTS: bool = true;

    /// The empty board. Out-of-range options (which validation refuses) are clamped rather
    /// than trusted.
    fn new_game(options: &GomokuOptions) -> Self {
        let size = options.size.clamp(MIN_SIZE, MAX_SIZE);
        let connect = options.connect.clamp(2, MAX_CONNECT.min(size));
        let mut game = Self::new(size, connect, options.rule);
        game.threats = options.threats;
        let table = options.patterns.table();
        game.set_combinations(table.weighs_combinations());
        game.set_point_table(table.weighs_point_table(&game));
        game
    }

    fn options_in(games: &crate::games::GamesConfig) -> Option<&Self::Options> {
        Some(&games.gomoku)
    }

    fn options_in_mut(games: &mut crate::games::GamesConfig) -> Option<&mut Self::Options> {
        Some(&mut games.gomoku)
    }

    /// `patterns`: the built-in table, or `[gomoku.patterns]` when it differs from it.
    fn evaluator(options: &GomokuOptions, name: &str) -> Option<GomokuEval> {
        let table = options.patterns.table();
        let eval = if table == PatternTable::DEFAULT {
            GomokuEval::Patterns
        } else {
            GomokuEval::Weighted(table)
        };
        matches!(name, "default" | "patterns").then_some(eval)
    }

    fn as_gomoku(&self) -> Option<&Gomoku> {
        Some(self)
    }

    fn move_from_gomoku(cell: Cell) -> Option<Cell> {
        Some(cell)
    }

    fn side_name(player: Player) -> &'static str {
        match player {
            Player::First => "Black",
            Player::Second => "White",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_lengths_cover_the_board_once_per_direction() {
        for n in MIN_SIZE..=MAX_SIZE {
            let total: usize = (0..6 * n - 2).map(|i| line_len(n, i)).sum();
            assert_eq!(total, 4 * n * n, "size {n}");
        }
    }

    #[test]
    fn lines_through_agree_with_geometry() {
        let g = Gomoku::new(7, 4, Rule::Freestyle);
        let n = 7;
        for row in 0..n {
            for col in 0..n {
                let ids = g.lines_through(row, col);
                for (index, pos) in ids {
                    assert!(pos < u32::from(g.lines[index].len), "{row},{col} {index}");
                }
                // Neighbours along each direction sit on the same line, one position on.
                if row + 1 < n && col + 1 < n {
                    let next = g.lines_through(row + 1, col + 1);
                    assert_eq!(next[2], (ids[2].0, ids[2].1 + 1));
                }
                if row + 1 < n && col > 0 {
                    let next = g.lines_through(row + 1, col - 1);
                    assert_eq!(next[3], (ids[3].0, ids[3].1 + 1));
                }
            }
        }
    }

    use proptest::prelude::*;

    /// A random walk through positions for the cache proptests: moves, take-backs (more
    /// rarely, so positions fill up) and, for the caller, candidate rankings.
    pub(super) struct Walk {
        pub(super) game: Gomoku,
        played: Vec<(Cell, GomokuUndo)>,
        moves: Vec<Cell>,
    }

    impl Walk {
        pub(super) fn new(size: usize, connect: usize, standard: bool) -> Self {
            let rule = if standard {
                Rule::Standard
            } else {
                Rule::Freestyle
            };
            let mut game = Gomoku::new(size, connect.min(size), rule);
            game.set_combinations(true);
            game.set_point_table(true);
            Self {
                game,
                played: Vec::new(),
                moves: Vec::new(),
            }
        }

        /// Action 0 takes back the last move, 1 asks the caller to rank candidates (the
        /// limit returned, from `choice`), any other plays the legal move `choice` picks.
        pub(super) fn step(&mut self, choice: u16, action: u8) -> Option<usize> {
            match action {
                0 => {
                    if let Some((mv, undo)) = self.played.pop() {
                        self.game.undo(mv, undo);
                    }
                }
                1 => return Some(usize::from(choice % 16)),
                _ => {
                    self.game.legal_moves(&mut self.moves);
                    if !self.moves.is_empty() {
                        let mv = self.moves[usize::from(choice) % self.moves.len()];
                        let undo = self.game.play(mv);
                        self.played.push((mv, undo));
                    }
                }
            }
            None
        }
    }

    /// `game` with everything its stones determine worked out from them: each line's shapes
    /// without the per-thread line cache, the board totals as their sums, the sets of lines
    /// with fours and threes from the lines' counts, the point combinations point by point.
    pub(super) fn uncached(game: &Gomoku) -> Gomoku {
        let mut fresh = game.clone();
        fresh.totals = [0; 2];
        fresh.point_totals = [0; 2];
        fresh.four_lines = [0; 2];
        fresh.three_lines = [0; 2];
        for index in 0..6 * game.size() - 2 {
            let line = &mut fresh.lines[index];
            let [black, white] = line.stones;
            line.shapes = game.table.line_shapes(black, white, u32::from(line.len));
            for p in 0..2 {
                let counts = line.shapes.counts[p];
                fresh.totals[p] += widen(counts);
                fresh.point_totals[p] += widen(line.shapes.points[p]);
                if counts & threat::HAS_FOUR != 0 {
                    fresh.four_lines[p] |= 1 << index;
                }
                if counts & (threat::HAS_FOUR | threat::HAS_THREE) != 0 {
                    fresh.three_lines[p] |= 1 << index;
                }
            }
        }
        (fresh.combos, fresh.ranks) = fresh.combinations_from_scratch();
        (fresh.point_keys, fresh.point_sums) = fresh.point_table_from_scratch();
        fresh
    }

    /// The combination counts of every empty point, from the shapes a stone would make there
    /// worked out afresh ([`Gomoku::shapes_if_played`], which reads no cached code).
    fn combinations_by_points(g: &Gomoku) -> [u128; 2] {
        let mut combos = [0u128; 2];
        for cell in 0..g.size() * g.size() {
            let cell = cell as Cell;
            if g.at(cell).is_some() {
                continue;
            }
            for (p, total) in combos.iter_mut().enumerate() {
                let shapes = g.shapes_if_played(cell, [Player::First, Player::Second][p]);
                *total += 1u128 << (16 * eval::Combination::of(shapes) as u32);
            }
        }
        combos
    }

    /// What `play` and `undo` keep equals what the stones give: the lines' shapes and codes,
    /// the board totals, the line sets, the point combinations and the point table's sums
    /// (both also counted point by point from shapes worked out afresh).
    fn assert_point_shapes_fresh(g: &Gomoku) {
        let fresh = uncached(g);
        for index in 0..6 * g.size() - 2 {
            assert_eq!(g.lines[index], fresh.lines[index], "line {index}\n{g}");
            assert_eq!(
                g.point_shapes(index),
                g.point_shapes_from_scratch(index),
                "line {index}\n{g}"
            );
        }
        assert_eq!(g.totals, fresh.totals, "\n{g}");
        assert_eq!(g.point_totals, fresh.point_totals, "\n{g}");
        assert_eq!(g.four_lines, fresh.four_lines, "\n{g}");
        assert_eq!(g.three_lines, fresh.three_lines, "\n{g}");
        assert_eq!(g.combos, fresh.combos, "\n{g}");
        assert_eq!(g.ranks, fresh.ranks, "\n{g}");
        assert_eq!(g.combos, combinations_by_points(g), "\n{g}");
        assert_eq!(g.point_keys, fresh.point_keys, "\n{g}");
        assert_eq!(g.point_sums, fresh.point_sums, "\n{g}");
        // The sums are the table's values of the shapes worked out afresh, point by point.
        for (p, player) in [Player::First, Player::Second].into_iter().enumerate() {
            let by_points = (0..g.size() * g.size())
                .map(|cell| cell as Cell)
                .filter(|&cell| g.at(cell).is_none())
                .map(|cell| {
                    point_table::point_values_of(eval::point_key(g.shapes_if_played(cell, player)))
                })
                .fold([0, 0], |[m, w], [dm, dw]| [m + dm, w + dw]);
            assert_eq!(g.point_sums[p], by_points, "{player:?}\n{g}");
        }
        let mut untracked = g.clone();
        untracked.set_point_table(false);
        assert_eq!(untracked.point_table_sums(), g.point_table_sums());
        // Not kept, the counts are worked out when asked for, and the same.
        let mut off = g.clone();
        off.set_combinations(false);
        for player in [Player::First, Player::Second] {
            assert_eq!(off.combination_counts(player), g.combination_counts(player));
        }
        // The potential the evaluation weighs, from the counts kept, equals the sum over the
        // empty points of what each adds: with the combination weights at 0 (the directions
        // alone, as before they existed), and with some.
        let combined = PatternTable {
            combination: [0, 1000, 300, 70, 9, 2],
            ..PatternTable::DEFAULT
        };
        for table in [PatternTable::DEFAULT, combined] {
            for player in [Player::First, Player::Second] {
                let by_points: i32 = (0..g.size() * g.size())
                    .map(|cell| cell as Cell)
                    .filter(|&cell| g.at(cell).is_none())
                    .map(|cell| table.point_potential(g.shapes_if_played(cell, player)))
                    .sum();
                let kept = table.point_score(&g.point_counts(player).counts)
                    + table.combination_score(&g.combination_counts(player));
                assert_eq!(kept, by_points, "{player:?}\n{g}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// After any sequence of moves, take-backs and candidate rankings, what `play` and
        /// `undo` keep (line shapes and codes, totals, line sets, point combinations and
        /// point table sums) matches
        /// the stones, and the candidates match those of the same position worked out afresh.
        #[test]
        fn point_shapes_follow_play_and_undo(
            size in 5usize..=16,
            connect in 4usize..=6,
            standard in any::<bool>(),
            steps in proptest::collection::vec((any::<u16>(), 0u8..4), 1..80),
        ) {
            let mut walk = Walk::new(size, connect, standard);
            let mut moves = Vec::new();
            let mut fresh_moves = Vec::new();
            for (choice, action) in steps {
                if let Some(limit) = walk.step(choice, action) {
                    let g = &walk.game;
                    g.candidate_moves(&mut moves, limit);
                    uncached(g).candidate_moves(&mut fresh_moves, limit);
                    prop_assert_eq!(&moves, &fresh_moves);
                }
                assert_point_shapes_fresh(&walk.game);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// A lean copy (what the threat searches play on) follows the same moves and
        /// take-backs as the full game with the same lines, totals, line sets and hash, and
        /// its threat searches find what the full game's would.
        #[test]
        fn a_lean_copy_keeps_what_the_threat_search_reads(
            size in 7usize..=15,
            standard in any::<bool>(),
            steps in proptest::collection::vec((any::<u16>(), 0u8..4), 1..60),
        ) {
            let mut walk = Walk::new(size, 5, standard);
            let mut lean = walk.game.lean_copy();
            let mut lean_played = Vec::new();
            prop_assert!(!lean.combinations && !lean.point_table);
            for (choice, action) in steps {
                let before = walk.game.stones_played();
                walk.step(choice, action);
                let after = walk.game.stones_played();
                if after < before {
                    if let Some((mv, undo)) = lean_played.pop() {
                        lean.undo(mv, undo);
                    }
                } else if after > before {
                    let mv = walk.game.last_move().expect("a stone was just played");
                    lean_played.push((mv, lean.play(mv)));
                }
                let g = &walk.game;
                prop_assert_eq!(lean.hash(), g.hash());
                prop_assert_eq!(lean.totals, g.totals);
                prop_assert_eq!(lean.four_lines, g.four_lines);
                prop_assert_eq!(lean.three_lines, g.three_lines);
                prop_assert_eq!(lean.winner(), g.winner());
                for index in 0..6 * size - 2 {
                    prop_assert_eq!(lean.point_shapes(index), g.point_shapes(index));
                }
                let limits = || ThreatLimits {
                    nodes: 2_000,
                    depth: 6,
                    deadline: None,
                    stop: None,
                };
                for kind in [ThreatKind::Vcf, ThreatKind::Vct] {
                    prop_assert_eq!(lean.threat_win(kind, limits()), g.threat_win(kind, limits()));
                }
            }
        }
    }

    #[test]
    fn a_win_by_fours_from_a_lone_three_is_found_at_a_leaf() {
        // Black's one three (e8 f8 g8, closed by d8) makes the four h8; White must answer
        // at i8, and h8 has made a second three (h8 h10 h11), whose four h9 is open.
        let mut game = Gomoku::new(15, 5, Rule::Freestyle);
        for text in [
            "e8", "d8", "f8", "a1", "g8", "a3", "h10", "o1", "h11", "o15",
        ] {
            let mv = game.parse_move(text).unwrap();
            game.play(mv);
        }
        assert_eq!(game.to_move(), Player::First);
        let mine = game.pattern_counts(Player::First);
        assert_eq!(mine.fours(), 0);
        assert_eq!(
            mine.get(Shape::ClosedThree) + mine.get(Shape::OpenThree),
            1,
            "{game}"
        );
        // h8, i8, h9, a block, the five.
        assert_eq!(game.clone().leaf_forced_win(), Some(5), "{game}");
        // Without the second three's stones there is no such win.
        let mut quiet = Gomoku::new(15, 5, Rule::Freestyle);
        for text in ["e8", "d8", "f8", "a1", "g8", "a3", "b14", "o1", "n2", "o15"] {
            let mv = quiet.parse_move(text).unwrap();
            quiet.play(mv);
        }
        assert_eq!(quiet.clone().leaf_forced_win(), None, "{quiet}");
    }

    #[test]
    fn rank_codes_are_the_combination_ranks() {
        // Every code at every position of a line, beside others.
        for code in 0..8u64 {
            for pos in 0..MAX_SIZE as u32 {
                let other = (pos + 1) % 20;
                let codes = code << (3 * pos) | 0o4 << (3 * other);
                let ranks = shape::rank_codes(codes);
                let expected = eval::COMBINATION_RANK[code as usize];
                assert_eq!(
                    ranks >> (3 * pos) & 7,
                    u64::from(expected),
                    "{code} at {pos}"
                );
                assert_eq!(ranks >> (3 * other) & 7, 2, "{code} at {pos}");
            }
        }
    }

    #[test]
    fn widen_moves_lanes() {
        let x = 0x8102_0304_0506_07F8_u64;
        let wide = widen(x);
        for i in 0..8 {
            let lane = (x >> (8 * i)) & 0xFF;
            assert_eq!(
                (wide >> wide_lane(i)) & 0xFFFF,
                u128::from(lane),
                "lane {i}"
            );
        }
        assert_eq!(wide, 0x0081_0003_0005_0007_0002_0004_0006_00F8);
    }
}
