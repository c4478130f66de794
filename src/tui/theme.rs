//! Named styles for every part of the screen, built once and passed by reference. Nothing
//! else in the TUI picks colours, so a light or high-contrast theme is one constructor away.

use ratatui::style::{Color, Modifier, Style};

use crate::engine::Player;

/// The styles the panes and boards draw with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Theme {
    /// Pane borders.
    pub border: Style,
    /// The border of the focused pane.
    pub border_focused: Style,
    /// Pane titles.
    pub title: Style,
    /// Grid lines of the boards.
    pub grid: Style,
    /// Coordinates around the boards.
    pub coords: Style,
    /// The first player's pieces (X, Black, South, first player's lines and boxes).
    pub first: Style,
    /// The second player's pieces.
    pub second: Style,
    /// The board cursor (a human's next move).
    pub cursor: Style,
    /// The last move played (and the pits the last sowing changed).
    pub last_move: Style,
    /// A winning line.
    pub win: Style,
    /// A hint from the engine.
    pub hint: Style,
    /// The cursor standing on the hint: the hint's colour, brighter, bold and underlined, so
    /// that both show.
    pub hint_cursor: Style,
    /// Gomoku stones: black ● and white ○ in the terminal's own text colour (readable on
    /// dark and light backgrounds alike), told apart by their shape.
    pub stone: Style,
    /// Secondary text: labels, later moves in the log.
    pub dim: Style,
    /// The selected row of a list.
    pub selected: Style,
    /// Error messages.
    pub error: Style,
    /// Informational messages.
    pub info: Style,
    /// Keys in the status bar and help.
    pub key: Style,
    /// The principal variation in the search tree.
    pub pv: Style,
    /// A cut-off mark in the search tree.
    pub cut: Style,
}

impl Default for Theme {
    fn default() -> Self {
        Self {
            border: Style::new().fg(Color::DarkGray),
            border_focused: Style::new().fg(Color::Yellow),
            title: Style::new().add_modifier(Modifier::BOLD),
            grid: Style::new().fg(Color::Gray),
            // Secondary text is the terminal's own text colour, faded: dark grey on black is
            // hard to read, light grey on white too; faded text reads on both.
            coords: Style::new().add_modifier(Modifier::DIM),
            first: Style::new()
                .fg(Color::LightRed)
                .add_modifier(Modifier::BOLD),
            second: Style::new()
                .fg(Color::LightCyan)
                .add_modifier(Modifier::BOLD),
            cursor: Style::new().add_modifier(Modifier::REVERSED),
            // Both colours set, so the text on it reads whatever the terminal's background
            // (black text on the dark grey was unreadable on light terminals).
            last_move: Style::new().bg(Color::Indexed(238)).fg(Color::White),
            win: Style::new().bg(Color::Green).fg(Color::Black),
            hint: Style::new().bg(Color::Magenta).fg(Color::White),
            hint_cursor: Style::new()
                .bg(Color::LightMagenta)
                .fg(Color::Black)
                .add_modifier(Modifier::BOLD.union(Modifier::UNDERLINED)),
            stone: Style::new().add_modifier(Modifier::BOLD),
            dim: Style::new().add_modifier(Modifier::DIM),
            selected: Style::new().add_modifier(Modifier::REVERSED),
            error: Style::new()
                .fg(Color::LightRed)
                .add_modifier(Modifier::BOLD),
            info: Style::new().fg(Color::LightGreen),
            key: Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            pv: Style::new()
                .fg(Color::LightGreen)
                .add_modifier(Modifier::BOLD),
            cut: Style::new().fg(Color::LightMagenta),
        }
    }
}

impl Theme {
    /// The style of `player`'s pieces.
    pub fn player(&self, player: Player) -> Style {
        match player {
            Player::First => self.first,
            Player::Second => self.second,
        }
    }
}
