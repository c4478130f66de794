//! Dots and Boxes' move notation (see the module documentation of `dots`): dot to dot,
//! `a1-b1`, and compact, `h1,1`.

use super::{Dots, Edge, EdgePos, Orientation};
use crate::error::ParseMoveError;

impl Dots {
    /// `c3`-style name of a dot, 0-based coordinates.
    pub(super) fn dot_name(row: usize, col: usize) -> String {
        format!("{}{}", char::from(b'a' + col as u8), row + 1)
    }

    fn expected(&self) -> String {
        format!(
            "a line between two neighbouring dots (columns a..{}, rows 1..{}), like a1-b1 or \
             a1-a2, or h<row>,<col> / v<row>,<col>",
            char::from(b'a' + self.cols),
            self.rows + 1
        )
    }

    pub(super) fn parse_dots(&self, text: &str, t: &str) -> Result<Edge, ParseMoveError> {
        let expected = || ParseMoveError::new(text, self.expected());
        let (first, rest) = split_dot(t).ok_or_else(expected)?;
        let rest = rest.trim_start();
        let rest = rest.strip_prefix('-').unwrap_or(rest).trim_start();
        let (second, rest) = split_dot(rest).ok_or_else(expected)?;
        if !rest.is_empty() {
            return Err(expected());
        }
        for (row, col) in [first, second] {
            if row == 0 || row > self.rows() + 1 || col > self.cols() {
                return Err(ParseMoveError::new(
                    text,
                    format!(
                        "dot {}{row} is off the board: dot columns are a..{}, rows 1..{}",
                        char::from(b'a' + col as u8),
                        char::from(b'a' + self.cols),
                        self.rows + 1
                    ),
                ));
            }
        }
        // 0-based from here on.
        let (a, b) = ((first.0 - 1, first.1), (second.0 - 1, second.1));
        let (low, high) = if a <= b { (a, b) } else { (b, a) };
        let orientation = if low.0 == high.0 && low.1 + 1 == high.1 {
            Orientation::Horizontal
        } else if low.1 == high.1 && low.0 + 1 == high.0 {
            Orientation::Vertical
        } else {
            let why = if a == b {
                "that is the same dot twice"
            } else {
                "they are not neighbours"
            };
            return Err(ParseMoveError::new(
                text,
                format!(
                    "{} and {}: {why}; a line joins two dots next to each other in a row \
                     (like a1-b1) or in a column (like a1-a2)",
                    Self::dot_name(a.0, a.1),
                    Self::dot_name(b.0, b.1)
                ),
            ));
        };
        self.edge_at(EdgePos {
            orientation,
            row: low.0,
            col: low.1,
        })
        .ok_or_else(expected)
    }

    pub(super) fn parse_compact(&self, text: &str, t: &str) -> Result<Edge, ParseMoveError> {
        let (rows, cols) = (self.rows(), self.cols());
        let (orientation, rest, max_row, max_col) = match t.as_bytes().first() {
            Some(b'h') => (Orientation::Horizontal, &t[1..], rows + 1, cols),
            Some(b'v') => (Orientation::Vertical, &t[1..], rows, cols + 1),
            _ => return Err(ParseMoveError::new(text, self.expected())),
        };
        let (letter, direction) = match orientation {
            Orientation::Horizontal => ('h', "right"),
            Orientation::Vertical => ('v', "up"),
        };
        let refuse = || {
            ParseMoveError::new(
                text,
                format!(
                    "{letter}<row>,<col> names the line going {direction} from the dot in row \
                     1..={max_row} (from the bottom) and column 1..={max_col} (1 = a), like \
                     {letter}1,1"
                ),
            )
        };
        let (row, col) = rest.split_once(',').ok_or_else(refuse)?;
        let row: usize = row.trim().parse().map_err(|_| refuse())?;
        let col: usize = col.trim().parse().map_err(|_| refuse())?;
        if !(1..=max_row).contains(&row) || !(1..=max_col).contains(&col) {
            return Err(refuse());
        }
        self.edge_at(EdgePos {
            orientation,
            row: row - 1,
            col: col - 1,
        })
        .ok_or_else(refuse)
    }
}

/// Splits a dot `c3` off the front of `s`: its 1-based row and 0-based column, and the rest.
/// Only the shape is checked here, not the board's bounds.
fn split_dot(s: &str) -> Option<((usize, usize), &str)> {
    let bytes = s.as_bytes();
    let letter = *bytes.first()?;
    if !letter.is_ascii_lowercase() {
        return None;
    }
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    // Three digits is already far off any board; more could overflow.
    if digits == 0 || digits > 3 {
        return None;
    }
    let row = s[1..=digits].parse().ok()?;
    Some(((row, usize::from(letter - b'a')), &s[1 + digits..]))
}
