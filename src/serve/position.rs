//! A position as data for `state`: what each game shows of its board, in the protocol's
//! words (`first`/`second`, notation for points and lines), and the points banked so far.
//! One small impl per game, written against the games' public accessors.

use serde_json::{Value, json};

use crate::engine::{Game, Player};
use crate::games::Playable;
use crate::games::dots::Dots;
use crate::games::gomoku::Gomoku;
use crate::games::kalah::Kalah;
use crate::games::tictactoe::TicTacToe;

/// A game the protocol can describe.
pub trait Describe: Playable {
    /// The board as data (see docs/protocol.md, `state`).
    fn position(&self) -> Value;

    /// Points banked per side (Kalah's stores, boxes won), `None` for win/loss games.
    fn scores(&self) -> Option<[u32; 2]> {
        None
    }
}

/// `.` for an empty point, `X` for the first player's stone, `O` for the second's.
fn mark(owner: Option<Player>) -> char {
    match owner {
        None => '.',
        Some(Player::First) => 'X',
        Some(Player::Second) => 'O',
    }
}

/// Rows of a square board from the top row down, as the text board prints them.
fn rows_from_top(size: usize, at: impl Fn(usize, usize) -> Option<Player>) -> Vec<String> {
    (0..size)
        .rev()
        .map(|row| (0..size).map(|col| mark(at(row, col))).collect())
        .collect()
}

impl Describe for TicTacToe {
    fn position(&self) -> Value {
        let rows = rows_from_top(3, |row, col| self.at((row * 3 + col) as u8));
        let line = self
            .winning_line()
            .map(|cells| cells.map(|c| self.format_move(c)).to_vec());
        json!({ "rows": rows, "winning_line": line })
    }
}

impl Describe for Gomoku {
    fn position(&self) -> Value {
        let rows = rows_from_top(self.size(), |row, col| self.stone(row, col));
        let line = self.winning_line().map(|cells| {
            cells
                .into_iter()
                .map(|c| self.format_move(c))
                .collect::<Vec<_>>()
        });
        json!({
            "size": self.size(),
            "connect": self.connect(),
            "rule": self.rule().name(),
            "rows": rows,
            "winning_line": line,
        })
    }
}

impl Describe for Kalah {
    fn position(&self) -> Value {
        let row = |side: Player| -> Vec<u16> {
            (0..self.pit_count())
                .map(|pit| self.stones(side, pit))
                .collect()
        };
        json!({
            "pits": self.pit_count(),
            "south": row(Player::First),
            "north": row(Player::Second),
            "stores": [self.store(Player::First), self.store(Player::Second)],
        })
    }

    fn scores(&self) -> Option<[u32; 2]> {
        Some([
            u32::from(self.store(Player::First)),
            u32::from(self.store(Player::Second)),
        ])
    }
}

impl Describe for Dots {
    fn position(&self) -> Value {
        let drawn: Vec<String> = (0..self.edge_count())
            .map(|e| e as u8)
            .filter(|&e| self.is_drawn(e))
            .map(|e| self.format_move(e))
            .collect();
        // Boxes from the top row down: `A`/`B` for the owner, `.` for nobody yet.
        let boxes: Vec<String> = (0..self.rows())
            .rev()
            .map(|row| {
                (0..self.cols())
                    .map(|col| self.box_owner(row, col).map_or('.', Dots::mark))
                    .collect()
            })
            .collect();
        json!({
            "rows": self.rows(),
            "cols": self.cols(),
            "drawn": drawn,
            "boxes": boxes,
        })
    }

    fn scores(&self) -> Option<[u32; 2]> {
        Some([self.score(Player::First), self.score(Player::Second)])
    }
}
