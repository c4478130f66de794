//! Gomoku drawn on the lines of a Go-style board: stones on the intersections, column letters
//! below and row numbers at the left (row 1 at the bottom, as in `h8`), the last stone and a
//! winning run highlighted. Larger terminals space the points out.

use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect, Size};

use super::{BoardCtx, BoardView, junction, paint, path_style, put, put_str, step_grid};
use crate::engine::{Game, Player};
use crate::games::gomoku::{Cell, Gomoku};
use crate::tui::action::Dir;

/// Screen columns and rows from one point to the next, largest first.
const SCALES: [(u16, u16); 3] = [(4, 2), (3, 2), (2, 1)];
/// The tightest scale, when even that leaves no row for the column letters (20x20 at 80x24:
/// 20 rows of points in 20 rows): the letters then go in the border line below the board
/// where it is a plain line (see [`GomokuView::draw`]).
const TIGHTEST: (u16, u16) = (2, 1);
/// Width of the row numbers (up to `20`) and a space.
const LABEL_W: u16 = 3;

/// The Gomoku board.
#[derive(Clone, Copy, Debug, Default)]
pub struct GomokuView;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Geometry {
    /// The top-left point.
    x: u16,
    y: u16,
    dx: u16,
    dy: u16,
    size: u16,
    /// Whether the row of column letters under the board is inside the area.
    letters: bool,
}

fn total_size(game: &Gomoku, (dx, dy): (u16, u16), letters: bool) -> Size {
    let n = game.size() as u16;
    Size::new(
        LABEL_W + (n - 1) * dx + 1,
        (n - 1) * dy + 1 + u16::from(letters),
    )
}

/// The one geometry function, shared by drawing and hit-testing.
fn geometry(game: &Gomoku, area: Rect) -> Option<Geometry> {
    let scales = SCALES
        .iter()
        .map(|&scale| (scale, true))
        .chain([(TIGHTEST, false)]);
    scales.into_iter().find_map(|(scale, letters)| {
        let size = total_size(game, scale, letters);
        (size.width <= area.width && size.height <= area.height).then(|| Geometry {
            x: area.x + (area.width - size.width) / 2 + LABEL_W,
            y: area.y + (area.height - size.height) / 2,
            dx: scale.0,
            dy: scale.1,
            size: game.size() as u16,
            letters,
        })
    })
}

impl Geometry {
    /// Screen position of the point at `row` (0 = bottom) and `col`.
    fn point(self, row: usize, col: usize) -> (u16, u16) {
        (
            self.x + col as u16 * self.dx,
            self.y + (self.size - 1 - row as u16) * self.dy,
        )
    }

    /// The screen cells that belong to a point for the mouse: the point and the spaces up to
    /// halfway to its neighbours, so the board is tiled without gaps.
    fn hit_rect(self, row: usize, col: usize) -> Rect {
        let (x, y) = self.point(row, col);
        let left = (self.dx - 1) / 2;
        let up = (self.dy - 1) / 2;
        Rect::new(x - left.min(x), y - up.min(y), self.dx, self.dy)
    }

    /// The cells highlighted for a point: the point, with a space each side when spaced out.
    fn mark_rect(self, row: usize, col: usize) -> Rect {
        let (x, y) = self.point(row, col);
        let pad = u16::from(self.dx >= 3);
        Rect::new(x - pad, y, 1 + 2 * pad, 1)
    }
}

fn stone_symbol(player: Player) -> &'static str {
    match player {
        Player::First => "●",
        Player::Second => "○",
    }
}

/// True when the screen cell at `x`, `y` holds a piece of a plain horizontal border line.
fn on_plain_line(buf: &Buffer, x: u16, y: u16) -> bool {
    buf.cell(Position::new(x, y))
        .is_some_and(|cell| matches!(cell.symbol(), "━" | "─" | "═"))
}

/// The column letter of the notation for `col` (and the row number for `row`).
fn labels(game: &Gomoku, row: usize, col: usize) -> (String, String) {
    let text = game
        .cell(row, col)
        .map(|c| game.format_move(c))
        .unwrap_or_default();
    let letters = text.chars().filter(char::is_ascii_alphabetic).collect();
    let digits = text.chars().filter(char::is_ascii_digit).collect();
    (letters, digits)
}

impl BoardView<Gomoku> for GomokuView {
    type Cursor = Cell;

    fn min_size(&self, game: &Gomoku) -> Size {
        total_size(game, TIGHTEST, false)
    }

    fn draw(&self, game: &Gomoku, ctx: &BoardCtx<'_, Gomoku, Cell>, area: Rect, buf: &mut Buffer) {
        let Some(geo) = geometry(game, area) else {
            return;
        };
        let theme = ctx.theme;
        let n = game.size();
        let winning = game.winning_line().unwrap_or_default();
        for row in 0..n {
            for col in 0..n {
                let (x, y) = geo.point(row, col);
                if col + 1 < n {
                    for i in 1..geo.dx {
                        put(buf, x + i, y, "─", theme.grid);
                    }
                }
                if row > 0 {
                    for i in 1..geo.dy {
                        put(buf, x, y + i, "│", theme.grid);
                    }
                }
                let Some(cell) = game.cell(row, col) else {
                    continue;
                };
                let mark = geo.mark_rect(row, col);
                if let Some(style) = ctx.highlight(cell, winning.contains(&cell)) {
                    paint(buf, mark, style);
                }
                if let Some(player) = game.at(cell) {
                    put(buf, x, y, stone_symbol(player), theme.stone);
                } else {
                    let symbol = junction((row + 1 == n, row == 0), (col == 0, col + 1 == n));
                    put(buf, x, y, symbol, theme.grid);
                }
                if ctx.cursor == Some(cell) {
                    paint(buf, mark, ctx.cursor_style(cell));
                }
            }
            let (_, y) = geo.point(row, 0);
            let (_, number) = labels(game, row, 0);
            put_str(
                buf,
                geo.x - LABEL_W,
                y,
                &format!("{number:>2}"),
                theme.coords,
            );
        }
        let (_, bottom) = geo.point(0, 0);
        for col in 0..n {
            let (x, _) = geo.point(0, col);
            let (letter, _) = labels(game, 0, col);
            if geo.letters {
                put_str(buf, x, bottom + 1, &letter, theme.coords);
            } else if on_plain_line(buf, x, bottom + 1) {
                // No row of its own: the letters sit in the pane's border below, unless a
                // title is written there.
                put_str(buf, x, bottom + 1, &letter, theme.coords);
            }
        }
        // A previewed line: numbered stones, as in a Go diagram.
        for (i, step) in ctx.path.iter().enumerate() {
            let (row, col) = game.row_col(step.mv);
            if row >= n || col >= n {
                continue;
            }
            let (x, y) = geo.point(row, col);
            put_str(
                buf,
                x,
                y,
                &(i + 1).to_string(),
                path_style(theme, step.mover),
            );
        }
    }

    fn home(&self, game: &Gomoku) -> Cell {
        let centre = game.centre();
        if game.at(centre).is_none() {
            return centre;
        }
        self.step(game, centre, Dir::Right)
    }

    fn step(&self, game: &Gomoku, cursor: Cell, dir: Dir) -> Cell {
        let n = game.size();
        let (row, col) = game.row_col(cursor);
        let legal =
            |c: usize, r: usize| game.outcome().is_none() && game.stone(n - 1 - r, c).is_none();
        let (c, r) = step_grid((n, n), (col, n - 1 - row), dir, legal);
        game.cell(n - 1 - r, c).unwrap_or(cursor)
    }

    fn move_at(&self, game: &Gomoku, cursor: Cell) -> Option<Cell> {
        let (row, col) = game.row_col(cursor);
        (game.outcome().is_none() && row < game.size() && game.stone(row, col).is_none())
            .then_some(cursor)
    }

    fn cursor_of(&self, _game: &Gomoku, mv: Cell) -> Cell {
        mv
    }

    fn hit(&self, game: &Gomoku, area: Rect, at: Position) -> Option<Cell> {
        let geo = geometry(game, area)?;
        let n = game.size();
        (0..n)
            .flat_map(|row| (0..n).map(move |col| (row, col)))
            .find(|&(row, col)| geo.hit_rect(row, col).contains(at))
            .and_then(|(row, col)| game.cell(row, col))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gomoku::Rule;

    #[test]
    fn a_20x20_board_fits_20_rows_with_its_letters_in_the_border_below() {
        let game = Gomoku::new(20, 5, Rule::Freestyle);
        assert_eq!(GomokuView.min_size(&game), Size::new(42, 20));
        // 22 rows with the border: 20x20 fits an 80x24 screen beside the other panes.
        let area = Rect::new(1, 1, 42, 20);
        let geo = geometry(&game, area).unwrap();
        assert!(!geo.letters);
        let mut buf = Buffer::empty(Rect::new(0, 0, 44, 22));
        for x in 0..44 {
            put(&mut buf, x, 21, "━", ratatui::style::Style::default());
        }
        let theme = crate::tui::theme::Theme::default();
        let ctx = BoardCtx {
            theme: &theme,
            cursor: None,
            last: None,
            before: None,
            hint: None,
            path: &[],
        };
        GomokuView.draw(&game, &ctx, area, &mut buf);
        let row = |y: u16| -> String { (0..44).map(|x| buf[(x, y)].symbol()).collect() };
        assert_eq!(
            row(1).trim_end(),
            format!(" 20 ┌{}┐", "─┬".repeat(18) + "─")
        );
        assert!(row(21).contains("a━b━c"), "{}", row(21));
        assert!(row(21).contains("s━t━"), "{}", row(21));
        for (row, col) in [(0, 0), (19, 19), (10, 3)] {
            let (x, y) = geo.point(row, col);
            let hit = GomokuView.hit(&game, area, Position::new(x, y));
            assert_eq!(hit, game.cell(row, col));
        }
    }

    #[test]
    fn every_point_is_hit_at_every_scale() {
        let game = Gomoku::new(15, 5, Rule::Freestyle);
        for area in [
            Rect::new(0, 0, 32, 16),
            Rect::new(1, 1, 50, 31),
            Rect::new(0, 0, 70, 40),
        ] {
            let geo = geometry(&game, area).unwrap();
            for row in 0..15 {
                for col in 0..15 {
                    let (x, y) = geo.point(row, col);
                    let hit = GomokuView.hit(&game, area, Position::new(x, y));
                    assert_eq!(hit, game.cell(row, col));
                }
            }
        }
    }
}
