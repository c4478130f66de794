//! Tic-tac-toe drawn as the familiar 3x3 grid, columns `a`..`c` below it and rows `1`..`3`
//! beside it (row 1 at the bottom, as the notation has it). Three sizes: big marks when
//! there is room, one character per cell when there is not.

use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect, Size};

use super::{BoardCtx, BoardView, draw_grid, paint, path_style, put_str, step_grid};
use crate::engine::{Game, Player};
use crate::games::tictactoe::{Cell, TicTacToe};
use crate::tui::action::Dir;

/// Cell sizes inside the grid lines (width, height), largest first.
const SCALES: [(u16, u16); 3] = [(11, 5), (7, 3), (3, 1)];

/// The Tic-tac-toe board.
#[derive(Clone, Copy, Debug, Default)]
pub struct TicTacToeView;

/// Where the grid sits for a given area.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Geometry {
    /// Top-left corner of the grid lines.
    x: u16,
    y: u16,
    /// Inner cell size.
    cell_w: u16,
    cell_h: u16,
}

/// Width of the row numbers left of the grid.
const LABEL_W: u16 = 2;

fn total_size((cell_w, cell_h): (u16, u16)) -> Size {
    Size::new(LABEL_W + 3 * (cell_w + 1) + 1, 3 * (cell_h + 1) + 1 + 1)
}

/// The one geometry function, shared by drawing and hit-testing.
fn geometry(area: Rect) -> Option<Geometry> {
    SCALES.iter().find_map(|&scale| {
        let size = total_size(scale);
        (size.width <= area.width && size.height <= area.height).then(|| Geometry {
            x: area.x + (area.width - size.width) / 2 + LABEL_W,
            y: area.y + (area.height - size.height) / 2,
            cell_w: scale.0,
            cell_h: scale.1,
        })
    })
}

/// Column and row counted from the top of the screen.
fn screen_pos(cell: Cell) -> (u16, u16) {
    (u16::from(cell % 3), 2 - u16::from(cell / 3))
}

fn cell_rect(geo: Geometry, cell: Cell) -> Rect {
    let (col, row) = screen_pos(cell);
    Rect::new(
        geo.x + 1 + col * (geo.cell_w + 1),
        geo.y + 1 + row * (geo.cell_h + 1),
        geo.cell_w,
        geo.cell_h,
    )
}

/// The picture of a mark for a cell height.
fn art(player: Player, cell_h: u16) -> &'static [&'static str] {
    match (player, cell_h) {
        (Player::First, 5..) => &["╲     ╱", " ╲   ╱ ", "   ╳   ", " ╱   ╲ ", "╱     ╲"],
        (Player::Second, 5..) => &[" ╭───╮ ", "╭╯   ╰╮", "│     │", "╰╮   ╭╯", " ╰───╯ "],
        (Player::First, 3..) => &["╲ ╱", " ╳ ", "╱ ╲"],
        (Player::Second, 3..) => &["╭─╮", "│ │", "╰─╯"],
        (Player::First, _) => &["X"],
        (Player::Second, _) => &["O"],
    }
}

impl BoardView<TicTacToe> for TicTacToeView {
    type Cursor = Cell;

    fn min_size(&self, _game: &TicTacToe) -> Size {
        total_size(SCALES[SCALES.len() - 1])
    }

    fn draw(
        &self,
        game: &TicTacToe,
        ctx: &BoardCtx<'_, TicTacToe, Cell>,
        area: Rect,
        buf: &mut Buffer,
    ) {
        let Some(geo) = geometry(area) else {
            return;
        };
        let theme = ctx.theme;
        draw_grid(
            buf,
            (geo.x, geo.y),
            (3, 3),
            (geo.cell_w, geo.cell_h),
            theme.grid,
        );
        let bottom = geo.y + 3 * (geo.cell_h + 1) + 1;
        for col in 0..3u8 {
            let rect = cell_rect(geo, col);
            let letter = char::from(b'a' + col).to_string();
            put_str(buf, rect.x + rect.width / 2, bottom, &letter, theme.coords);
        }
        for row in 0..3u8 {
            let rect = cell_rect(geo, row * 3);
            let number = (row + 1).to_string();
            put_str(
                buf,
                geo.x - LABEL_W,
                rect.y + rect.height / 2,
                &number,
                theme.coords,
            );
        }
        let winning = game.winning_line();
        for cell in 0..9u8 {
            let rect = cell_rect(geo, cell);
            let in_line = winning.is_some_and(|line| line.contains(&cell));
            if let Some(style) = ctx.highlight(cell, in_line) {
                paint(buf, rect, style);
            }
            if let Some(player) = game.at(cell) {
                let lines = art(player, geo.cell_h);
                let top = rect.y + (rect.height - lines.len() as u16) / 2;
                for (i, line) in lines.iter().enumerate() {
                    let width = line.chars().count() as u16;
                    let left = rect.x + (rect.width - width) / 2;
                    put_str(buf, left, top + i as u16, line, theme.player(player));
                }
            }
            if ctx.cursor == Some(cell) {
                paint(buf, rect, ctx.cursor_style(cell));
            }
        }
        // A previewed line: each move's number in its cell's corner (beside the mark when
        // the cells are one row high).
        for (i, step) in ctx.path.iter().enumerate().filter(|(_, s)| s.mv < 9) {
            let rect = cell_rect(geo, step.mv);
            let number = (i + 1).to_string();
            let x = if geo.cell_h >= 3 {
                rect.x
            } else {
                rect.right().saturating_sub(number.len() as u16)
            };
            put_str(buf, x, rect.y, &number, path_style(theme, step.mover));
        }
    }

    fn home(&self, _game: &TicTacToe) -> Cell {
        4
    }

    fn step(&self, game: &TicTacToe, cursor: Cell, dir: Dir) -> Cell {
        let (col, row) = screen_pos(cursor);
        let legal = |c: usize, r: usize| {
            let cell = ((2 - r) * 3 + c) as Cell;
            game.outcome().is_none() && game.at(cell).is_none()
        };
        let (c, r) = step_grid((3, 3), (col as usize, row as usize), dir, legal);
        ((2 - r) * 3 + c) as Cell
    }

    fn move_at(&self, game: &TicTacToe, cursor: Cell) -> Option<Cell> {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        moves.contains(&cursor).then_some(cursor)
    }

    fn cursor_of(&self, _game: &TicTacToe, mv: Cell) -> Cell {
        mv
    }

    fn hit(&self, _game: &TicTacToe, area: Rect, at: Position) -> Option<Cell> {
        let geo = geometry(area)?;
        (0..9).find(|&cell| cell_rect(geo, cell).contains(at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_is_hit_at_its_centre_at_every_scale() {
        for area in [
            Rect::new(0, 0, 15, 8),
            Rect::new(3, 2, 30, 15),
            Rect::new(0, 0, 50, 30),
        ] {
            let geo = geometry(area).unwrap();
            for cell in 0..9 {
                let r = cell_rect(geo, cell);
                let centre = Position::new(r.x + r.width / 2, r.y + r.height / 2);
                assert_eq!(
                    TicTacToeView.hit(&TicTacToe::new(), area, centre),
                    Some(cell)
                );
            }
        }
    }

    #[test]
    fn too_small_draws_nothing_and_hits_nothing() {
        assert!(geometry(Rect::new(0, 0, 10, 5)).is_none());
    }
}
