//! Dots and Boxes on `rows` x `cols` boxes: lines (edges) between neighbouring dots, boxes
//! scored by whoever draws their fourth side, an extra move after completing a box, and a
//! margin outcome. Rules only: no search internals, no terminal. The notation's parser is in
//! `notation.rs`, the symmetric hash in `symmetry.rs`, the analysis of boxes on offer in
//! `captures.rs`, the evaluators in `eval.rs`, the `[dots]` options in `options.rs`.
//!
//! # Notation
//!
//! The board has `rows + 1` rows and `cols + 1` columns of dots. Dot columns are lettered
//! `a`, `b`, ... from the left and dot rows numbered `1`, `2`, ... from the **bottom**, so
//! `a1` is the bottom-left dot (as `a1` is the bottom-left cell in Tic-tac-toe).
//!
//! - **Dot to dot** (the main form, and what [`Game::format_move`] writes): the two dots a
//!   line joins, `a1-b1` (horizontal) or `a1-a2` (vertical). Either order is accepted and the
//!   `-` may be left out (`b1a1`, `a1a2`); formatting puts the lower-left dot first.
//! - **Compact**: `h<row>,<col>` for the horizontal line whose left dot is in dot row `row`
//!   and dot column `col`, and `v<row>,<col>` for the vertical line whose lower dot is there;
//!   both numbers count from 1 like the dot names (column 1 = `a`). So `h1,1` is `a1-b1`,
//!   `v1,1` is `a1-a2` and `h2,3` is `c2-d2`.
//!
//! Parsing ignores case and surrounding whitespace.

mod captures;
mod eval;
mod notation;
mod options;
mod symmetry;

use std::fmt::{self, Write as _};

use super::{GameKind, Playable};
use crate::engine::{Game, Outcome, Player, Scoring};
use crate::error::{IllegalMove, ParseMoveError};
pub use eval::DotsEval;
pub use options::DotsOptions;
use symmetry::{KEYS, SYMMETRIES, SYMMETRY, SYMMETRY_KEYS};

/// The most boxes along either side of the board.
pub const MAX_SIDE: usize = 9;
/// The most boxes on a board.
pub const MAX_BOXES: usize = MAX_SIDE * MAX_SIDE;
/// The most lines on a board: `2 * rows * cols + rows + cols` at 9x9.
pub const MAX_EDGES: usize = 2 * MAX_SIDE * (MAX_SIDE + 1);

/// 64-bit words of the drawn-line bitset.
const WORDS: usize = MAX_EDGES.div_ceil(64);

/// The smallest transposition table for which a solve fetches every child's bucket before
/// searching the first ([`Game::prefetch_children`]): twice the 32 MiB last-level cache of
/// this project's machine, so that most probes of such a table miss it.
const PREFETCH_TABLE_BYTES: usize = 64 << 20;

/// Marks "no box here" beside a line on the border.
const NO_BOX: u8 = u8::MAX;

/// A move: the index of a line, `0..edge_count()`. Horizontal lines come first, row by row
/// from the bottom (`row * cols + col`), then vertical ones (`horizontal + row * (cols + 1) +
/// col`); see [`Dots::edge_pos`] and [`Dots::edge_at`] for the geometry.
pub type Edge = u8;

/// Which way a line runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Orientation {
    /// Between two dots of the same row.
    Horizontal,
    /// Between two dots of the same column.
    Vertical,
}

/// Where a line is: its orientation and its lower-left dot.
///
/// `row` and `col` are 0-based dot coordinates, row 0 at the bottom and column 0 at the left
/// (dot `a1` is `(row 0, col 0)`). A horizontal line runs from `(row, col)` to
/// `(row, col + 1)`, so `row` is `0..=rows` and `col` is `0..cols`; a vertical line runs from
/// `(row, col)` to `(row + 1, col)`, so `row` is `0..rows` and `col` is `0..=cols`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EdgePos {
    /// Which way the line runs.
    pub orientation: Orientation,
    /// Dot row of the lower-left end, 0 at the bottom.
    pub row: usize,
    /// Dot column of the lower-left end, 0 at the left.
    pub col: usize,
}

impl EdgePos {
    /// The two dots the line joins, as `(row, col)`, lower-left first.
    pub fn ends(self) -> [(usize, usize); 2] {
        match self.orientation {
            Orientation::Horizontal => [(self.row, self.col), (self.row, self.col + 1)],
            Orientation::Vertical => [(self.row, self.col), (self.row + 1, self.col)],
        }
    }
}

/// What [`Game::play`] returns so that [`Game::undo`] can reverse it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DotsUndo {
    /// Who drew the line (and owns any box it completed).
    mover: Player,
    /// The last move before this one.
    last_move: Option<Edge>,
}

/// A Dots and Boxes position.
///
/// Lines are a bitset over [`Edge`] indexes; each box keeps how many of its sides are drawn,
/// and each player a bitset of the boxes they won (box `row * cols + col`, row 0 at the
/// bottom). The hash covers the drawn lines only (not who owns the boxes, not the side to
/// move), folded over the board's symmetries: it is the smallest of the hashes of the
/// symmetric images, so symmetric positions share transposition-table entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dots {
    rows: u8,
    cols: u8,
    edge_count: u8,
    drawn_count: u8,
    drawn: [u64; WORDS],
    /// Drawn sides per box, 0..=4.
    sides: [u8; MAX_BOXES],
    /// Boxes won, per [`Player::index`].
    boxes: [u128; 2],
    /// How many boxes each player has won (the popcounts of `boxes`, kept for speed).
    won: [u8; 2],
    /// How many boxes have exactly three sides drawn (capturable now).
    three_sided: u8,
    to_move: Player,
    last_move: Option<Edge>,
    /// The hash of the lines under each symmetry; the position's hash is the smallest (see
    /// [`Dots::canonical_symmetry`]).
    hashes: [u64; SYMMETRIES],
    /// How many of `hashes` are symmetries of this board (4, or 8 when it is square).
    symmetries: u8,
    /// This board's line permutations, one per symmetry.
    symmetry: &'static [[Edge; MAX_EDGES]; SYMMETRIES],
    /// This board's keys of the lines' images, one row per symmetry.
    symmetry_keys: &'static [[u64; MAX_EDGES]; SYMMETRIES],
    /// The boxes on either side of each line ([`NO_BOX`] beyond the border); depends only on
    /// the board size and saves divisions in `play`.
    neighbours: [[u8; 2]; MAX_EDGES],
}

impl Dots {
    /// The empty board of `rows` x `cols` boxes, the first player to move.
    ///
    /// # Panics
    /// If `rows` or `cols` is outside `1..=9`; options are validated before they get here
    /// (see [`DotsOptions`]).
    pub fn new(rows: usize, cols: usize) -> Self {
        assert!(
            (1..=MAX_SIDE).contains(&rows) && (1..=MAX_SIDE).contains(&cols),
            "Dots and Boxes needs 1..=9 rows and columns of boxes, not {rows}x{cols}"
        );
        let mut game = Self {
            rows: rows as u8,
            cols: cols as u8,
            edge_count: (2 * rows * cols + rows + cols) as u8,
            drawn_count: 0,
            drawn: [0; WORDS],
            sides: [0; MAX_BOXES],
            boxes: [0; 2],
            won: [0; 2],
            three_sided: 0,
            to_move: Player::First,
            last_move: None,
            hashes: [0; SYMMETRIES],
            symmetries: if rows == cols { 8 } else { 4 },
            symmetry: &SYMMETRY[(rows - 1) * MAX_SIDE + cols - 1],
            symmetry_keys: &SYMMETRY_KEYS[(rows - 1) * MAX_SIDE + cols - 1],
            neighbours: [[NO_BOX; 2]; MAX_EDGES],
        };
        for edge in 0..game.edge_count() {
            let Some(pos) = game.edge_pos(edge as Edge) else {
                continue;
            };
            let (row, col) = (pos.row, pos.col);
            // The box below/left of the line first, then the one above/right.
            let (first, second) = match pos.orientation {
                Orientation::Horizontal => (
                    (row > 0).then(|| game.box_index(row - 1, col)),
                    (row < rows).then(|| game.box_index(row, col)),
                ),
                Orientation::Vertical => (
                    (col > 0).then(|| game.box_index(row, col - 1)),
                    (col < cols).then(|| game.box_index(row, col)),
                ),
            };
            game.neighbours[edge] = [first.unwrap_or(NO_BOX), second.unwrap_or(NO_BOX)];
        }
        game
    }

    /// Rows of boxes (dot rows are one more).
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// Columns of boxes (dot columns are one more).
    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    /// The number of lines on the board, which is also [`Game::move_space`].
    pub fn edge_count(&self) -> usize {
        self.edge_count as usize
    }

    /// Lines drawn so far.
    pub fn drawn_count(&self) -> usize {
        self.drawn_count as usize
    }

    /// True if `edge` is drawn (false for an index off the board).
    pub fn is_drawn(&self, edge: Edge) -> bool {
        let e = edge as usize;
        e < self.edge_count() && self.drawn[e >> 6] & (1 << (e & 63)) != 0
    }

    /// The last line drawn, if any.
    pub fn last_move(&self) -> Option<Edge> {
        self.last_move
    }

    /// Boxes `player` has won.
    pub fn score(&self, player: Player) -> u32 {
        u32::from(self.won[player.index()])
    }

    /// Who won box (`row`, `col`) (row 0 at the bottom), or `None` if nobody has yet or the
    /// box is off the board.
    pub fn box_owner(&self, row: usize, col: usize) -> Option<Player> {
        if row >= self.rows() || col >= self.cols() {
            return None;
        }
        let bit = 1u128 << self.box_index(row, col);
        if self.boxes[0] & bit != 0 {
            Some(Player::First)
        } else if self.boxes[1] & bit != 0 {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// How many sides of box (`row`, `col`) are drawn, 0..=4 (0 off the board).
    pub fn box_sides(&self, row: usize, col: usize) -> u8 {
        if row >= self.rows() || col >= self.cols() {
            return 0;
        }
        self.sides[self.box_index(row, col) as usize]
    }

    /// The four sides of box (`row`, `col`): bottom, top, left, right; `None` off the board.
    pub fn box_edges(&self, row: usize, col: usize) -> Option<[Edge; 4]> {
        (row < self.rows() && col < self.cols()).then(|| self.box_edges_unchecked(row, col))
    }

    /// Where `edge` lies, or `None` if it is not a line of this board.
    pub fn edge_pos(&self, edge: Edge) -> Option<EdgePos> {
        let e = edge as usize;
        let cols = self.cols();
        let horizontal = self.horizontal_count();
        if e < horizontal {
            Some(EdgePos {
                orientation: Orientation::Horizontal,
                row: e / cols,
                col: e % cols,
            })
        } else if e < self.edge_count() {
            let v = e - horizontal;
            Some(EdgePos {
                orientation: Orientation::Vertical,
                row: v / (cols + 1),
                col: v % (cols + 1),
            })
        } else {
            None
        }
    }

    /// The line at `pos`, or `None` if there is no such line on this board.
    pub fn edge_at(&self, pos: EdgePos) -> Option<Edge> {
        let (rows, cols) = (self.rows(), self.cols());
        let index = match pos.orientation {
            Orientation::Horizontal => {
                (pos.row <= rows && pos.col < cols).then(|| pos.row * cols + pos.col)
            }
            Orientation::Vertical => (pos.row < rows && pos.col <= cols)
                .then(|| self.horizontal_count() + pos.row * (cols + 1) + pos.col),
        };
        index.map(|i| i as Edge)
    }

    /// The mark written in the boxes a player wins: `A` for the first player, `B` for the
    /// second.
    pub fn mark(player: Player) -> char {
        match player {
            Player::First => 'A',
            Player::Second => 'B',
        }
    }

    fn horizontal_count(&self) -> usize {
        (self.rows() + 1) * self.cols()
    }

    fn box_index(&self, row: usize, col: usize) -> u8 {
        (row * self.cols() + col) as u8
    }

    fn box_edges_unchecked(&self, row: usize, col: usize) -> [Edge; 4] {
        let cols = self.cols();
        let left = self.horizontal_count() + row * (cols + 1) + col;
        [
            (row * cols + col) as Edge,
            ((row + 1) * cols + col) as Edge,
            left as Edge,
            (left + 1) as Edge,
        ]
    }
}

impl Default for Dots {
    /// The 3x3 board.
    fn default() -> Self {
        Self::new(3, 3)
    }
}

impl Game for Dots {
    type Move = Edge;
    type Undo = DotsUndo;
    const SCORING: Scoring = Scoring::Margin;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn moves_left(&self) -> Option<usize> {
        let drawn: u32 = self.drawn.iter().map(|word| word.count_ones()).sum();
        Some(self.edge_count().saturating_sub(drawn as usize))
    }

    fn legal_moves(&self, out: &mut Vec<Edge>) {
        out.clear();
        let n = self.edge_count();
        for (w, &word) in self.drawn.iter().enumerate() {
            let base = w * 64;
            if base >= n {
                break;
            }
            let on_board = if n - base >= 64 {
                u64::MAX
            } else {
                (1 << (n - base)) - 1
            };
            let mut free = !word & on_board;
            while free != 0 {
                out.push((base + free.trailing_zeros() as usize) as Edge);
                free &= free - 1;
            }
        }
    }

    #[inline]
    fn play(&mut self, mv: Edge) -> DotsUndo {
        let mover = self.to_move;
        let undo = DotsUndo {
            mover,
            last_move: self.last_move,
        };
        let e = mv as usize;
        self.drawn[e >> 6] |= 1 << (e & 63);
        self.drawn_count += 1;
        self.toggle_hashes(e);
        let mut completed = false;
        for b in self.neighbours[e] {
            if b != NO_BOX {
                let sides = &mut self.sides[b as usize];
                *sides += 1;
                match *sides {
                    3 => self.three_sided += 1,
                    4 => {
                        self.three_sided -= 1;
                        self.boxes[mover.index()] |= 1 << b;
                        self.won[mover.index()] += 1;
                        completed = true;
                    }
                    _ => {}
                }
            }
        }
        // Completing a box means moving again; otherwise the turn passes.
        if !completed {
            self.to_move = mover.other();
        }
        self.last_move = Some(mv);
        undo
    }

    #[inline]
    fn undo(&mut self, mv: Edge, undo: DotsUndo) {
        let e = mv as usize;
        for b in self.neighbours[e] {
            if b != NO_BOX {
                let sides = &mut self.sides[b as usize];
                match *sides {
                    // A complete box beside the line was completed by it: its fourth side.
                    4 => {
                        self.boxes[undo.mover.index()] &= !(1 << b);
                        self.won[undo.mover.index()] -= 1;
                        self.three_sided += 1;
                    }
                    3 => self.three_sided -= 1,
                    _ => {}
                }
                *sides -= 1;
            }
        }
        self.drawn[e >> 6] &= !(1 << (e & 63));
        self.drawn_count -= 1;
        self.toggle_hashes(e);
        self.to_move = undo.mover;
        self.last_move = undo.last_move;
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.drawn_count == self.edge_count).then(|| Outcome::from_first_margin(self.banked()))
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hashes[self.canonical_symmetry()]
    }

    fn hash_from_scratch(&self) -> u64 {
        (0..usize::from(self.symmetries))
            .map(|s| {
                (0..self.edge_count())
                    .filter(|&e| self.is_drawn(e as Edge))
                    .fold(0, |h, e| h ^ KEYS[self.symmetry[s][e] as usize])
            })
            .min()
            .unwrap_or(0)
    }

    fn banked(&self) -> i32 {
        self.score(Player::First) as i32 - self.score(Player::Second) as i32
    }

    #[inline]
    fn unbanked(&self) -> Option<i32> {
        let owned = usize::from(self.won[0] + self.won[1]);
        Some((self.rows() * self.cols() - owned) as i32)
    }

    fn move_index(&self, mv: Edge) -> usize {
        mv as usize
    }

    #[inline]
    fn table_orientation(&self) -> usize {
        self.canonical_symmetry()
    }

    #[inline]
    fn table_move_index_in(&self, orientation: usize, mv: Edge) -> usize {
        self.symmetry[orientation][mv as usize] as usize
    }

    /// The line whose image under `orientation` is `index` (a scan of the board's lines,
    /// a few dozen at most), when it is not drawn yet and, when `solving`, is what
    /// [`Game::solver_moves`] would give.
    fn table_move(&self, orientation: usize, index: usize, solving: bool) -> Option<Edge> {
        let images = self.symmetry.get(orientation)?;
        let n = self.edge_count();
        let edge = images
            .get(..n)?
            .iter()
            .position(|&e| usize::from(e) == index)?;
        let drawn = self.drawn.get(edge / 64)? >> (edge % 64) & 1 == 1;
        if drawn {
            return None;
        }
        let edge = Edge::try_from(edge).ok()?;
        if solving && let Some(free) = self.free_capture() {
            return (free == edge).then_some(edge);
        }
        Some(edge)
    }

    const ORDER_HINTS: bool = true;

    /// Off: among the many lines the hint finds equal, move-generation order keeps sibling
    /// subtrees visiting their transpositions in the same order, which the table rewards;
    /// killers and history reshuffle them (3x3 at depth 10: 316k nodes with them, 181k
    /// without).
    const CUTOFF_ORDERING: bool = false;

    /// Completing boxes first, quiet lines next, lines that hand the opponent a box last.
    #[inline]
    fn order_hint(&self, mv: Edge) -> i32 {
        let mut hint = 0;
        for b in self.neighbours[mv as usize] {
            if b != NO_BOX {
                match self.sides[b as usize] {
                    3 => hint += 1000,
                    2 => hint -= 500,
                    _ => {}
                }
            }
        }
        hint
    }

    /// With a table that does not fit the processor's caches ([`PREFETCH_TABLE_BYTES`]): the
    /// 3x4 solve with 512 MiB took 14 - 17 % less time with it, the 3x3 solve with 16 MiB
    /// 15 % more (docs/performance.md, "Wave 29").
    #[inline]
    fn prefetch_children(&self, table_bytes: usize) -> bool {
        table_bytes >= PREFETCH_TABLE_BYTES
    }

    /// A box with three sides whose fourth side does not make a neighbour capturable (the
    /// box across it is off the board, or has other than two sides drawn) is always worth
    /// taking at once: declining a box only ever pays at the last two boxes of a chain
    /// (Berlekamp, "The Dots-and-Boxes Game"; Barker and Korf, "Solving Dots-And-Boxes",
    /// AAAI 2012). When there is such a box, that line is the only move searched.
    fn solver_moves(&self, out: &mut Vec<Edge>) {
        if let Some(edge) = self.free_capture() {
            out.clear();
            out.push(edge);
        } else {
            self.legal_moves(out);
        }
    }

    fn move_space(&self) -> usize {
        self.edge_count()
    }

    fn format_move(&self, mv: Edge) -> String {
        match self.edge_pos(mv) {
            Some(pos) => {
                let [(r0, c0), (r1, c1)] = pos.ends();
                format!("{}-{}", Self::dot_name(r0, c0), Self::dot_name(r1, c1))
            }
            // Not a move of this board; only reachable through a caller's bug, so say so
            // instead of panicking.
            None => format!("edge#{mv}"),
        }
    }

    fn try_play(&mut self, mv: Edge) -> Result<DotsUndo, IllegalMove> {
        super::try_play_explained(self, mv, |g| {
            if g.is_drawn(mv) {
                format!("the line {} is already drawn", g.format_move(mv))
            } else {
                "not a line of the board".to_string()
            }
        })
    }

    fn parse_move(&self, text: &str) -> Result<Edge, ParseMoveError> {
        let t = text.trim().to_ascii_lowercase();
        if t.contains(',') {
            self.parse_compact(text, &t)
        } else {
            self.parse_dots(text, &t)
        }
    }
}

impl fmt::Display for Dots {
    /// The board with row 1 at the bottom: dots `+`, lines `---` and `|`, won boxes marked
    /// `A`/`B`, then the score.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (rows, cols) = (self.rows(), self.cols());
        let drawn = |orientation, row, col| {
            self.edge_at(EdgePos {
                orientation,
                row,
                col,
            })
            .is_some_and(|e| self.is_drawn(e))
        };
        let mut line = String::new();
        for row in (0..=rows).rev() {
            line.clear();
            let _ = write!(line, "{:>2} +", row + 1);
            for col in 0..cols {
                let h = drawn(Orientation::Horizontal, row, col);
                line.push_str(if h { "---+" } else { "   +" });
            }
            writeln!(f, "{line}")?;
            if row == 0 {
                break;
            }
            // The boxes of row `row - 1`, between dot rows `row - 1` and `row`.
            line.clear();
            line.push_str("   ");
            for col in 0..=cols {
                let v = drawn(Orientation::Vertical, row - 1, col);
                line.push(if v { '|' } else { ' ' });
                if col < cols {
                    let mark = self.box_owner(row - 1, col).map_or(' ', Self::mark);
                    let _ = write!(line, " {mark} ");
                }
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        line.clear();
        line.push_str("   ");
        for col in 0..=cols {
            let _ = write!(line, "{}   ", char::from(b'a' + col as u8));
        }
        writeln!(f, "{}", line.trim_end())?;
        writeln!(
            f,
            "boxes: {} {}, {} {}",
            Self::mark(Player::First),
            self.score(Player::First),
            Self::mark(Player::Second),
            self.score(Player::Second)
        )
    }
}

impl Playable for Dots {
    const KIND: GameKind = GameKind::Dots;
    type Options = DotsOptions;
    type Eval = DotsEval;
    const EVALUATORS: &'static [&'static str] = &["chains", "score"];

    fn new_game(options: &DotsOptions) -> Self {
        // Options are validated before a game is made; clamping keeps a value that slipped
        // past validation from panicking.
        let side = |n: u32| (n as usize).clamp(1, MAX_SIDE);
        Self::new(side(options.rows), side(options.cols))
    }

    fn options_in(games: &crate::games::GamesConfig) -> Option<&Self::Options> {
        Some(&games.dots)
    }

    fn options_in_mut(games: &mut crate::games::GamesConfig) -> Option<&mut Self::Options> {
        Some(&mut games.dots)
    }

    fn evaluator(_options: &DotsOptions, name: &str) -> Option<DotsEval> {
        match name {
            "score" => Some(DotsEval::Score),
            "default" | "chains" => Some(DotsEval::Chains),
            _ => None,
        }
    }

    fn side_name(player: Player) -> &'static str {
        match player {
            Player::First => "A",
            Player::Second => "B",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_counts_match_the_boxes_through_play_and_undo() {
        let check = |g: &Dots| {
            let boxes = g.rows() * g.cols();
            assert_eq!(u32::from(g.won[0]), g.boxes[0].count_ones());
            assert_eq!(u32::from(g.won[1]), g.boxes[1].count_ones());
            let three = g.sides[..boxes]
                .iter()
                .filter(|&&s| s == 3)
                .map(|_| 1)
                .sum::<usize>();
            assert_eq!(usize::from(g.three_sided), three);
        };
        let mut seed = 17u64;
        for (rows, cols) in [(1, 1), (2, 3), (3, 3), (4, 2)] {
            let mut g = Dots::new(rows, cols);
            let mut played = Vec::new();
            let mut moves = Vec::new();
            loop {
                g.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                seed = crate::games::splitmix64(seed);
                let mv = moves[seed as usize % moves.len()];
                played.push((mv, g.play(mv)));
                check(&g);
                // Every symmetric image's hash is the one computed from nothing.
                assert_eq!(g.hash(), g.hash_from_scratch());
            }
            while let Some((mv, undo)) = played.pop() {
                g.undo(mv, undo);
                check(&g);
            }
            assert_eq!(g, Dots::new(rows, cols));
        }
    }

    #[test]
    fn symmetric_positions_hash_alike() {
        // a1-b1 on the bottom edge and its images under the square's symmetries.
        let mut hashes = Vec::new();
        for line in [
            "a1-b1", "c1-d1", "a4-b4", "a1-a2", "d3-d4", "a3-a4", "d1-d2",
        ] {
            let mut g = Dots::new(3, 3);
            g.play_line(line).unwrap();
            hashes.push(g.hash());
        }
        assert!(hashes.iter().all(|&h| h == hashes[0]), "{hashes:x?}");
        let mut inner = Dots::new(3, 3);
        inner.play_line("b2-c2").unwrap();
        assert_ne!(inner.hash(), hashes[0]);
    }

    #[test]
    fn edge_geometry_round_trips_on_every_size() {
        for rows in 1..=MAX_SIDE {
            for cols in 1..=MAX_SIDE {
                let g = Dots::new(rows, cols);
                assert_eq!(g.edge_count(), 2 * rows * cols + rows + cols);
                for e in 0..g.edge_count() {
                    let pos = g.edge_pos(e as Edge).unwrap();
                    assert_eq!(g.edge_at(pos), Some(e as Edge));
                }
                assert_eq!(g.edge_pos(g.edge_count() as Edge), None);
                // Every box has four distinct sides, and each side lists the box.
                for row in 0..rows {
                    for col in 0..cols {
                        let b = g.box_index(row, col);
                        let sides = g.box_edges(row, col).unwrap();
                        for e in sides {
                            assert!(g.neighbours[e as usize].contains(&b));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn takeable_boxes_follows_a_chain() {
        // 1x3 with every line but the two inner verticals b1-b2 and c1-c2.
        let mut g = Dots::new(1, 3);
        g.play_line("a1-b1 b1-c1 c1-d1 a2-b2 b2-c2 c2-d2 d1-d2 a1-a2")
            .unwrap();
        // Boxes a and c have three sides, b two: drawing b1-b2 takes a and gives b its third
        // side, then c1-c2 takes b and c. The whole chain falls to whoever moves.
        assert_eq!(g.takeable_boxes(), 3);
    }
}
