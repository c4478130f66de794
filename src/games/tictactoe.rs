//! Tic-tac-toe on 3x3: X moves first. Cells are written `a1`..`c3`, column letter then row
//! number, row 1 at the bottom (as on a Gomoku board).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::options::OptionDoc;
use super::{GameKind, GameOptions, Playable, zobrist_keys};
use crate::engine::score::MAX_HEURISTIC;
use crate::engine::{Evaluator, Game, Outcome, Player, Scoring};
use crate::error::{ConfigError, IllegalMove, ParseMoveError};

/// The eight winning lines as bit masks over cells `row * 3 + col`.
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];
const FULL: u16 = 0b111_111_111;

/// Keys 0..9 for X on a cell, 9..18 for O, 18 for "O to move".
static KEYS: [u64; 19] = zobrist_keys(1);

/// A Tic-tac-toe position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    /// Cells of each player as bits `row * 3 + col`; index by [`Player::index`].
    cells: [u16; 2],
    to_move: Player,
    hash: u64,
}

/// A cell index `row * 3 + col`, 0..9, row 0 at the bottom.
pub type Cell = u8;

impl TicTacToe {
    /// The empty board, X (the first player) to move.
    pub fn new() -> Self {
        Self {
            cells: [0, 0],
            to_move: Player::First,
            hash: 0,
        }
    }

    /// Who holds `cell`, if anyone.
    pub fn at(&self, cell: Cell) -> Option<Player> {
        let bit = 1u16 << cell;
        if self.cells[0] & bit != 0 {
            Some(Player::First)
        } else if self.cells[1] & bit != 0 {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// The completed line, as its three cells, if there is one.
    pub fn winning_line(&self) -> Option<[Cell; 3]> {
        for player in [Player::First, Player::Second] {
            for line in LINES {
                if self.cells[player.index()] & line == line {
                    let mut cells = [0; 3];
                    let mut n = 0;
                    for c in 0..9 {
                        if line & (1 << c) != 0 {
                            cells[n] = c;
                            n += 1;
                        }
                    }
                    return Some(cells);
                }
            }
        }
        None
    }

    fn has_line(bits: u16) -> bool {
        LINES.iter().any(|&line| bits & line == line)
    }

    /// The mark of a player: X moves first.
    pub fn mark(player: Player) -> char {
        match player {
            Player::First => 'X',
            Player::Second => 'O',
        }
    }
}

impl Default for TicTacToe {
    fn default() -> Self {
        Self::new()
    }
}

impl Game for TicTacToe {
    type Move = Cell;
    type Undo = ();
    const SCORING: Scoring = Scoring::WinLoss;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<Cell>) {
        out.clear();
        if self.outcome().is_some() {
            return;
        }
        let empty = FULL & !(self.cells[0] | self.cells[1]);
        out.extend((0..9).filter(|c| empty & (1 << c) != 0));
    }

    fn moves_left(&self) -> Option<usize> {
        Some((FULL & !(self.cells[0] | self.cells[1])).count_ones() as usize)
    }

    fn play(&mut self, mv: Cell) {
        let p = self.to_move.index();
        self.cells[p] |= 1 << mv;
        self.hash ^= KEYS[p * 9 + mv as usize] ^ KEYS[18];
        self.to_move = self.to_move.other();
    }

    fn undo(&mut self, mv: Cell, (): ()) {
        self.to_move = self.to_move.other();
        let p = self.to_move.index();
        self.cells[p] &= !(1 << mv);
        self.hash ^= KEYS[p * 9 + mv as usize] ^ KEYS[18];
    }

    fn outcome(&self) -> Option<Outcome> {
        for player in [Player::First, Player::Second] {
            if Self::has_line(self.cells[player.index()]) {
                return Some(Outcome::Win {
                    winner: player,
                    margin: 1,
                });
            }
        }
        ((self.cells[0] | self.cells[1]) == FULL).then_some(Outcome::Draw)
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for p in 0..2 {
            for c in 0..9 {
                if self.cells[p] & (1 << c) != 0 {
                    h ^= KEYS[p * 9 + c];
                }
            }
        }
        if self.to_move == Player::Second {
            h ^= KEYS[18];
        }
        h
    }

    fn move_index(&self, mv: Cell) -> usize {
        mv as usize
    }

    fn move_space(&self) -> usize {
        9
    }

    fn format_move(&self, mv: Cell) -> String {
        format!("{}{}", char::from(b'a' + mv % 3), mv / 3 + 1)
    }

    fn try_play(&mut self, mv: Cell) -> Result<(), IllegalMove> {
        super::try_play_explained(self, mv, |g| match (mv < 9).then(|| g.at(mv)).flatten() {
            Some(p) => format!(
                "{} is already taken by {}",
                g.format_move(mv),
                Self::mark(p)
            ),
            None => "not a cell of the board".to_string(),
        })
    }

    fn parse_move(&self, text: &str) -> Result<Cell, ParseMoveError> {
        const EXPECTED: &str = "a column a..c and a row 1..3, like b2";
        let t = text.trim().to_ascii_lowercase();
        let bytes = t.as_bytes();
        if bytes.len() != 2 {
            return Err(ParseMoveError::new(text, EXPECTED));
        }
        let col = bytes[0].wrapping_sub(b'a');
        let row = bytes[1].wrapping_sub(b'1');
        if col < 3 && row < 3 {
            Ok(row * 3 + col)
        } else {
            Err(ParseMoveError::new(text, EXPECTED))
        }
    }
}

impl fmt::Display for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..3).rev() {
            write!(f, "{} ", row + 1)?;
            for col in 0..3 {
                let c = match self.at(row * 3 + col) {
                    Some(p) => Self::mark(p),
                    None => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c")
    }
}

/// Tic-tac-toe has no options beyond the engine's default depth.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TicTacToeOptions {
    /// Engine search depth when a player's own depth is 0 (9 = to the end).
    pub depth: u32,
}

impl Default for TicTacToeOptions {
    fn default() -> Self {
        Self { depth: 9 }
    }
}

impl GameOptions for TicTacToeOptions {
    const DOCS: &'static [OptionDoc] = &[OptionDoc::DEPTH];

    fn validate(&self, source: &str) -> Result<(), ConfigError> {
        if !(1..=9).contains(&self.depth) {
            return Err(ConfigError::new(
                source,
                "tictactoe.depth",
                self.depth,
                "must be 1..=9",
            ));
        }
        Ok(())
    }

    fn default_depth(&self) -> u32 {
        self.depth
    }
}

/// Tic-tac-toe's evaluator: open lines, weighted by how full they are.
#[derive(Clone, Copy, Debug, Default)]
pub struct LinesEval;

impl Evaluator<TicTacToe> for LinesEval {
    fn name(&self) -> &'static str {
        "lines"
    }

    fn evaluate(&self, game: &TicTacToe) -> i32 {
        const WEIGHT: [i32; 4] = [0, 1, 10, 100];
        let me = game.cells[game.to_move.index()];
        let them = game.cells[game.to_move.other().index()];
        let mut value = 0;
        for line in LINES {
            let mine = (me & line).count_ones() as usize;
            let theirs = (them & line).count_ones() as usize;
            if theirs == 0 {
                value += WEIGHT[mine];
            } else if mine == 0 {
                value -= WEIGHT[theirs];
            }
        }
        value.clamp(-MAX_HEURISTIC, MAX_HEURISTIC)
    }
}

impl Playable for TicTacToe {
    const KIND: GameKind = GameKind::TicTacToe;
    type Options = TicTacToeOptions;
    type Eval = LinesEval;
    const EVALUATORS: &'static [&'static str] = &["lines"];

    fn new_game(_options: &TicTacToeOptions) -> Self {
        Self::new()
    }

    fn options_in(games: &crate::games::GamesConfig) -> Option<&Self::Options> {
        Some(&games.tictactoe)
    }

    fn options_in_mut(games: &mut crate::games::GamesConfig) -> Option<&mut Self::Options> {
        Some(&mut games.tictactoe)
    }

    fn evaluator(_options: &TicTacToeOptions, name: &str) -> Option<LinesEval> {
        matches!(name, "default" | "lines").then_some(LinesEval)
    }

    fn side_name(player: Player) -> &'static str {
        match player {
            Player::First => "X",
            Player::Second => "O",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(moves: &str) -> TicTacToe {
        let mut g = TicTacToe::new();
        g.play_line(moves).unwrap();
        g
    }

    #[test]
    fn every_line_wins() {
        for line in LINES {
            let cells: Vec<Cell> = (0..9).filter(|c| line & (1 << c) != 0).collect();
            let others: Vec<Cell> = (0..9).filter(|c| line & (1 << c) == 0).collect();
            let mut g = TicTacToe::new();
            // X takes the line, O plays two cells that cannot form a line with each other
            // and the line's complement only matters if O wins first: pick safely.
            let o_moves: Vec<Cell> = others
                .iter()
                .copied()
                .filter(|&c| {
                    let mut trial = g.clone();
                    trial.cells[1] |= 1 << c;
                    !TicTacToe::has_line(trial.cells[1])
                })
                .take(2)
                .collect();
            g.play(cells[0]);
            g.play(o_moves[0]);
            g.play(cells[1]);
            g.play(o_moves[1]);
            assert_eq!(g.outcome(), None);
            g.play(cells[2]);
            assert_eq!(
                g.outcome(),
                Some(Outcome::Win {
                    winner: Player::First,
                    margin: 1
                })
            );
            assert_eq!(g.winning_line().map(|l| l.to_vec()), Some(cells.clone()));
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            assert!(moves.is_empty());
        }
    }

    #[test]
    fn full_board_without_line_is_a_draw() {
        let g = position("a1 b2 c1 b1 b3 a2 c2 c3 a3");
        assert_eq!(g.outcome(), Some(Outcome::Draw));
    }

    #[test]
    fn notation_round_trip_and_errors() {
        let g = TicTacToe::new();
        for c in 0..9 {
            assert_eq!(g.parse_move(&g.format_move(c)), Ok(c));
        }
        assert_eq!(g.format_move(0), "a1");
        assert_eq!(g.format_move(8), "c3");
        for bad in ["d1", "a4", "", "b", "b22", "2b"] {
            let err = g.parse_move(bad).unwrap_err();
            assert!(err.to_string().contains("like b2"), "{err}");
        }
    }

    #[test]
    fn occupied_cell_is_illegal() {
        let mut g = position("b2");
        let err = g.try_play(4).unwrap_err();
        assert!(err.to_string().contains("b2"));
        assert_eq!(g, position("b2"));
    }

    #[test]
    fn display_shows_marks_with_row_1_at_the_bottom() {
        let text = position("a1 c3").to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "3  . . O");
        assert_eq!(lines[2], "1  X . .");
        assert_eq!(lines[3], "   a b c");
    }
}
