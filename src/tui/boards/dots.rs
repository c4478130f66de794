//! Dots and Boxes drawn as dots joined by the lines drawn so far, each won box holding its
//! owner's mark. Dot columns are lettered below, dot rows numbered at the left from 1 at the
//! bottom, as the notation (`a1-b1`) has it. The cursor runs over the undrawn lines:
//! Left/Right along a row of lines, Up/Down to the rows of lines above and below.

use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect, Size};

use super::{BoardCtx, BoardView, paint, path_style, put, put_str};
use crate::engine::{Game, Player};
use crate::games::dots::{Dots, Edge, EdgePos, Orientation};
use crate::tui::action::Dir;

/// Inside size of a box (width, height), largest first.
const SCALES: [(u16, u16); 6] = [(15, 7), (11, 5), (9, 4), (7, 3), (5, 2), (3, 1)];
/// Width of the row numbers (up to `10`) and a space.
const LABEL_W: u16 = 3;

/// The Dots and Boxes board.
#[derive(Clone, Copy, Debug, Default)]
pub struct DotsView;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Geometry {
    /// The top-left dot.
    x: u16,
    y: u16,
    box_w: u16,
    box_h: u16,
    rows: u16,
}

fn total_size(game: &Dots, (box_w, box_h): (u16, u16)) -> Size {
    let (rows, cols) = (game.rows() as u16, game.cols() as u16);
    Size::new(LABEL_W + cols * (box_w + 1) + 1, rows * (box_h + 1) + 1 + 1)
}

/// The one geometry function, shared by drawing and hit-testing.
fn geometry(game: &Dots, area: Rect) -> Option<Geometry> {
    let smallest = SCALES[SCALES.len() - 1];
    SCALES.iter().find_map(|&scale| {
        let size = total_size(game, scale);
        // A larger scale only with a column to spare each side, off the pane's border.
        let margin = if scale == smallest { 0 } else { 2 };
        (size.width + margin <= area.width && size.height <= area.height).then(|| Geometry {
            x: area.x + (area.width - size.width) / 2 + LABEL_W,
            y: area.y + (area.height - size.height) / 2,
            box_w: scale.0,
            box_h: scale.1,
            rows: game.rows() as u16,
        })
    })
}

impl Geometry {
    /// Screen position of dot (`row` from the bottom, `col`).
    fn dot(self, row: usize, col: usize) -> (u16, u16) {
        (
            self.x + col as u16 * (self.box_w + 1),
            self.y + (self.rows - row as u16) * (self.box_h + 1),
        )
    }

    /// Where a line is drawn (between its dots, ends excluded).
    fn edge_rect(self, pos: EdgePos) -> Rect {
        match pos.orientation {
            Orientation::Horizontal => {
                let (x, y) = self.dot(pos.row, pos.col);
                Rect::new(x + 1, y, self.box_w, 1)
            }
            Orientation::Vertical => {
                let (x, y) = self.dot(pos.row + 1, pos.col);
                Rect::new(x, y + 1, 1, self.box_h)
            }
        }
    }

    /// The inside of box (`row` from the bottom, `col`).
    fn box_rect(self, row: usize, col: usize) -> Rect {
        let (x, y) = self.dot(row + 1, col);
        Rect::new(x + 1, y + 1, self.box_w, self.box_h)
    }
}

/// Lattice coordinates of a line: rows from the top of the screen, `0..=2 * rows`; columns
/// `0..=2 * cols`. Dots sit at (even, even), boxes at (odd, odd), lines at the others.
fn lattice(game: &Dots, edge: Edge) -> (usize, usize) {
    let rows = game.rows();
    match game.edge_pos(edge) {
        Some(EdgePos {
            orientation: Orientation::Horizontal,
            row,
            col,
        }) => (2 * (rows - row), 2 * col + 1),
        Some(EdgePos {
            orientation: Orientation::Vertical,
            row,
            col,
        }) => (2 * (rows - row) - 1, 2 * col),
        None => (0, 1),
    }
}

fn edge_at_lattice(game: &Dots, lr: usize, lc: usize) -> Option<Edge> {
    let rows = game.rows();
    if lr > 2 * rows || lc > 2 * game.cols() || (lr + lc).is_multiple_of(2) {
        return None;
    }
    let pos = if lr.is_multiple_of(2) {
        EdgePos {
            orientation: Orientation::Horizontal,
            row: rows - lr / 2,
            col: (lc - 1) / 2,
        }
    } else {
        EdgePos {
            orientation: Orientation::Vertical,
            row: rows - lr.div_ceil(2),
            col: lc / 2,
        }
    };
    game.edge_at(pos)
}

fn is_open(game: &Dots, edge: Edge) -> bool {
    game.outcome().is_none() && !game.is_drawn(edge)
}

impl BoardView<Dots> for DotsView {
    type Cursor = Edge;

    fn min_size(&self, game: &Dots) -> Size {
        total_size(game, SCALES[SCALES.len() - 1])
    }

    fn draw(&self, game: &Dots, ctx: &BoardCtx<'_, Dots, Edge>, area: Rect, buf: &mut Buffer) {
        let Some(geo) = geometry(game, area) else {
            return;
        };
        let theme = ctx.theme;
        let (rows, cols) = (game.rows(), game.cols());
        // Boxes first, so lines and dots draw over any highlight.
        for row in 0..rows {
            for col in 0..cols {
                let rect = geo.box_rect(row, col);
                let Some(owner) = game.box_owner(row, col) else {
                    continue;
                };
                let new = ctx
                    .before
                    .is_some_and(|before| before.box_owner(row, col).is_none());
                if new {
                    paint(buf, rect, theme.last_move);
                }
                let mark = Dots::mark(owner).to_string();
                put_str(
                    buf,
                    rect.x + rect.width / 2,
                    rect.y + rect.height / 2,
                    &mark,
                    theme.player(owner),
                );
            }
        }
        for edge in 0..game.edge_count() as Edge {
            let Some(pos) = game.edge_pos(edge) else {
                continue;
            };
            let rect = geo.edge_rect(pos);
            let horizontal = pos.orientation == Orientation::Horizontal;
            let (symbol, style) = if game.is_drawn(edge) {
                let style = if ctx.last == Some(edge) {
                    theme.grid.patch(theme.last_move).patch(theme.title)
                } else {
                    theme.grid
                };
                (if horizontal { "━" } else { "┃" }, style)
            } else if ctx.cursor == Some(edge) {
                (if horizontal { "─" } else { "│" }, ctx.cursor_style(edge))
            } else if ctx.hint == Some(edge) {
                (if horizontal { "─" } else { "│" }, theme.hint)
            } else {
                continue;
            };
            for p in rect.positions() {
                put(buf, p.x, p.y, symbol, style);
            }
            if ctx.cursor == Some(edge) && game.is_drawn(edge) {
                paint(buf, rect, theme.cursor);
            }
        }
        for row in 0..=rows {
            for col in 0..=cols {
                let (x, y) = geo.dot(row, col);
                put(buf, x, y, "•", theme.title);
            }
            let (_, y) = geo.dot(row, 0);
            let number = format!("{:>2}", row + 1);
            put_str(buf, geo.x - LABEL_W, y, &number, theme.coords);
        }
        let (_, bottom) = geo.dot(0, 0);
        for col in 0..=cols {
            let (x, _) = geo.dot(0, col);
            let letter = char::from(b'a' + col as u8).to_string();
            put_str(buf, x, bottom + 1, &letter, theme.coords);
        }
        // A previewed line: each line's number in its middle.
        for (i, step) in ctx.path.iter().enumerate() {
            let Some(pos) = game.edge_pos(step.mv) else {
                continue;
            };
            let rect = geo.edge_rect(pos);
            let number = (i + 1).to_string();
            let x = rect.x + rect.width.saturating_sub(number.len() as u16) / 2;
            let y = rect.y + rect.height / 2;
            put_str(buf, x, y, &number, path_style(theme, step.mover));
        }
    }

    fn home(&self, game: &Dots) -> Edge {
        let centre = (game.rows() as isize, game.cols() as isize);
        (0..game.edge_count() as Edge)
            .filter(|&e| !game.is_drawn(e))
            .min_by_key(|&e| {
                let (lr, lc) = lattice(game, e);
                (lr as isize - centre.0).abs() + (lc as isize - centre.1).abs()
            })
            .unwrap_or(0)
    }

    fn step(&self, game: &Dots, cursor: Edge, dir: Dir) -> Edge {
        let (lr, lc) = lattice(game, cursor);
        let (last_row, last_col) = (2 * game.rows() as isize, 2 * game.cols() as isize);
        let open = |r: isize, c: isize| -> Option<Edge> {
            if r < 0 || c < 0 || r > last_row || c > last_col {
                return None;
            }
            edge_at_lattice(game, r as usize, c as usize).filter(|&e| is_open(game, e))
        };
        let (lr, lc) = (lr as isize, lc as isize);
        match dir {
            Dir::Left | Dir::Right => {
                let dc = if dir == Dir::Left { -2 } else { 2 };
                let mut c = lc + dc;
                while (0..=last_col).contains(&c) {
                    if let Some(e) = open(lr, c) {
                        return e;
                    }
                    c += dc;
                }
                cursor
            }
            Dir::Up | Dir::Down => {
                let dr = if dir == Dir::Up { -1 } else { 1 };
                let mut r = lr + dr;
                while (0..=last_row).contains(&r) {
                    // Keep to the same column: a line row takes odd columns, a dot-and-line
                    // row even ones; from an odd column go left, from an even one right, so
                    // that going on returns to the column we started in.
                    let preferred = if (r + lc) % 2 != 0 {
                        lc
                    } else if lc % 2 != 0 {
                        lc - 1
                    } else {
                        lc + 1
                    };
                    for distance in (0..=last_col + 1).step_by(2) {
                        for c in [preferred - distance, preferred + distance] {
                            if let Some(e) = open(r, c) {
                                return e;
                            }
                        }
                    }
                    r += dr;
                }
                cursor
            }
        }
    }

    fn move_at(&self, game: &Dots, cursor: Edge) -> Option<Edge> {
        (usize::from(cursor) < game.edge_count() && is_open(game, cursor)).then_some(cursor)
    }

    fn cursor_of(&self, _game: &Dots, mv: Edge) -> Edge {
        mv
    }

    fn hit(&self, game: &Dots, area: Rect, at: Position) -> Option<Edge> {
        let geo = geometry(game, area)?;
        // On a line's own cells.
        if let Some(edge) = (0..game.edge_count() as Edge).find(|&e| {
            game.edge_pos(e)
                .is_some_and(|pos| geo.edge_rect(pos).contains(at))
        }) {
            return Some(edge);
        }
        // Inside a box: the nearest of its four sides.
        for row in 0..game.rows() {
            for col in 0..game.cols() {
                let rect = geo.box_rect(row, col);
                if !rect.contains(at) {
                    continue;
                }
                let [bottom, top, left, right] = game.box_edges(row, col)?;
                // Distances to each side in units of the box size, so wide boxes are fair.
                let fx = f64::from(at.x - rect.x) + 0.5;
                let fy = f64::from(at.y - rect.y) + 0.5;
                let (w, h) = (f64::from(rect.width), f64::from(rect.height));
                let sides = [
                    ((h - fy) / h, bottom),
                    (fy / h, top),
                    (fx / w, left),
                    ((w - fx) / w, right),
                ];
                return sides
                    .into_iter()
                    .min_by(|a, b| a.0.total_cmp(&b.0))
                    .map(|(_, e)| e);
            }
        }
        None
    }

    fn score(&self, game: &Dots) -> Option<String> {
        Some(format!(
            "A {} · B {}",
            game.score(Player::First),
            game.score(Player::Second)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lattice_round_trips_every_line() {
        for (rows, cols) in [(1, 1), (3, 3), (2, 5), (9, 9)] {
            let game = Dots::new(rows, cols);
            for e in 0..game.edge_count() as Edge {
                let (lr, lc) = lattice(&game, e);
                assert_eq!(edge_at_lattice(&game, lr, lc), Some(e));
            }
        }
    }

    #[test]
    fn every_line_is_hit_on_its_own_cells() {
        let game = Dots::new(3, 4);
        for area in [Rect::new(0, 0, 30, 12), Rect::new(2, 1, 60, 20)] {
            let geo = geometry(&game, area).unwrap();
            for e in 0..game.edge_count() as Edge {
                let rect = geo.edge_rect(game.edge_pos(e).unwrap());
                for p in rect.positions() {
                    assert_eq!(DotsView.hit(&game, area, p), Some(e));
                }
            }
        }
    }

    #[test]
    fn up_and_down_reach_vertical_lines_and_come_back() {
        let game = Dots::new(3, 3);
        let start = game.parse_move("b2-c2").unwrap();
        let down = DotsView.step(&game, start, Dir::Down);
        assert_eq!(game.format_move(down), "b1-b2");
        assert_eq!(DotsView.step(&game, down, Dir::Up), start);
        let right = DotsView.step(&game, down, Dir::Right);
        assert_eq!(game.format_move(right), "c1-c2");
    }
}
