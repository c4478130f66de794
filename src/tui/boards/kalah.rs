//! Kalah drawn as people see the board from South's chair: North's pits along the top (its
//! pit `a` at the right), South's along the bottom (`a` at the left), North's store at the
//! left end and South's at the right, every hole with its stone count. The last sowing is
//! highlighted hole by hole, its starting pit underlined.

use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect, Size};
use ratatui::style::Modifier;

use super::{BoardCtx, BoardView, paint, path_numbers, path_style, put, put_str};
use crate::engine::{Game, Player};
use crate::games::kalah::{Hole, Kalah, Pit};
use crate::tui::action::Dir;

/// Inside size of a pit (width, height per row), largest first.
const SCALES: [(u16, u16); 3] = [(6, 3), (5, 1), (3, 1)];

/// The Kalah board.
#[derive(Clone, Copy, Debug, Default)]
pub struct KalahView;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Geometry {
    /// Top-left corner of the table (North's store's corner).
    x: u16,
    y: u16,
    cell_w: u16,
    cell_h: u16,
    pits: u16,
    /// There is room for the side names above and below the pit letters.
    names: bool,
}

fn total_size(game: &Kalah, (cell_w, cell_h): (u16, u16)) -> Size {
    let columns = game.pit_count() as u16 + 2;
    // Two rows of pits, three lines, a row of letters above and below.
    Size::new(columns * (cell_w + 1) + 1, 2 * cell_h + 3 + 2)
}

/// The one geometry function, shared by drawing and hit-testing.
fn geometry(game: &Kalah, area: Rect) -> Option<Geometry> {
    SCALES.iter().find_map(|&scale| {
        let size = total_size(game, scale);
        let names = size.height + 2 <= area.height;
        let height = size.height + if names { 2 } else { 0 };
        (size.width <= area.width && size.height <= area.height).then(|| Geometry {
            x: area.x + (area.width - size.width) / 2,
            y: area.y + (area.height - height) / 2 + 1 + u16::from(names),
            cell_w: scale.0,
            cell_h: scale.1,
            pits: game.pit_count() as u16,
            names,
        })
    })
}

impl Geometry {
    /// The inside of table column `column` (0 = North's store) on row `row` (0 = North).
    fn cell(self, column: u16, row: u16) -> Rect {
        Rect::new(
            self.x + 1 + column * (self.cell_w + 1),
            self.y + 1 + row * (self.cell_h + 1),
            self.cell_w,
            self.cell_h,
        )
    }

    /// Where a hole is drawn.
    fn hole(self, hole: Hole) -> Rect {
        match hole {
            Hole::Pit {
                side: Player::Second,
                index,
            } => self.cell(self.pits - u16::from(index), 0),
            Hole::Pit {
                side: Player::First,
                index,
            } => self.cell(1 + u16::from(index), 1),
            Hole::Store(side) => {
                let column = if side == Player::Second {
                    0
                } else {
                    self.pits + 1
                };
                let top = self.cell(column, 0);
                Rect::new(top.x, top.y, top.width, 2 * self.cell_h + 1)
            }
        }
    }

    fn width(self) -> u16 {
        (self.pits + 2) * (self.cell_w + 1) + 1
    }

    fn height(self) -> u16 {
        2 * self.cell_h + 3
    }
}

fn draw_table(buf: &mut Buffer, geo: Geometry, style: ratatui::style::Style) {
    let (w, h) = (geo.width(), geo.height());
    let last_col = geo.pits + 2;
    for dy in 0..h {
        for dx in 0..w {
            let on_col = dx % (geo.cell_w + 1) == 0;
            let col = dx / (geo.cell_w + 1);
            let line = if dy == 0 {
                Some(0)
            } else if dy == geo.cell_h + 1 {
                Some(1)
            } else if dy == h - 1 {
                Some(2)
            } else {
                None
            };
            // The middle line does not cross the stores.
            let in_store = col == 0 || col > geo.pits || (col == geo.pits + 1 && !on_col);
            let symbol = match (line, on_col) {
                (None, false) => continue,
                (None, true) => "│",
                (Some(1), false) if in_store => continue,
                (Some(_), false) => "─",
                (Some(0), true) => match col {
                    0 => "┌",
                    c if c == last_col => "┐",
                    _ => "┬",
                },
                (Some(2), true) => match col {
                    0 => "└",
                    c if c == last_col => "┘",
                    _ => "┴",
                },
                (Some(_), true) => match col {
                    0 => "│",
                    c if c == last_col => "│",
                    1 => "├",
                    c if c == last_col - 1 => "┤",
                    _ => "┼",
                },
            };
            put(buf, geo.x + dx, geo.y + dy, symbol, style);
        }
    }
}

fn centre_text(buf: &mut Buffer, rect: Rect, text: &str, style: ratatui::style::Style) {
    let width = text.chars().count() as u16;
    let x = rect.x + rect.width.saturating_sub(width) / 2;
    put_str(buf, x, rect.y + rect.height / 2, text, style);
}

impl BoardView<Kalah> for KalahView {
    type Cursor = Pit;

    fn min_size(&self, game: &Kalah) -> Size {
        total_size(game, SCALES[SCALES.len() - 1])
    }

    fn draw(&self, game: &Kalah, ctx: &BoardCtx<'_, Kalah, Pit>, area: Rect, buf: &mut Buffer) {
        let Some(geo) = geometry(game, area) else {
            return;
        };
        let theme = ctx.theme;
        draw_table(buf, geo, theme.grid);
        let n = game.pit_count();
        // The last sowing: every hole it dropped a stone into, and the pit it started from.
        if let (Some(before), Some(mv)) = (ctx.before, ctx.last) {
            for hole in before.sowing_path(mv) {
                paint(buf, geo.hole(hole), theme.last_move);
            }
            let source = geo.hole(Hole::Pit {
                side: before.to_move(),
                index: mv,
            });
            paint(buf, source, theme.last_move);
        }
        let mover = game.to_move();
        for side in [Player::First, Player::Second] {
            for index in 0..n {
                let hole = Hole::Pit {
                    side,
                    index: index as u8,
                };
                let rect = geo.hole(hole);
                let is_mover = side == mover && game.outcome().is_none();
                if is_mover && ctx.hint == Some(index as Pit) {
                    paint(buf, rect, theme.hint);
                }
                let mut style = theme.player(side);
                if let (Some(before), Some(mv)) = (ctx.before, ctx.last)
                    && before.to_move() == side
                    && usize::from(mv) == index
                {
                    style = style.add_modifier(Modifier::UNDERLINED);
                }
                centre_text(buf, rect, &game.stones(side, index).to_string(), style);
                if is_mover && ctx.cursor == Some(index as Pit) {
                    paint(buf, rect, ctx.cursor_style(index as Pit));
                }
            }
            let store = geo.hole(Hole::Store(side));
            centre_text(
                buf,
                store,
                &game.store(side).to_string(),
                theme.player(side).add_modifier(Modifier::BOLD),
            );
            // Whose store it is, above its count.
            let name = Kalah::side_name(side);
            let label = if usize::from(store.width) >= name.len() {
                name.to_string()
            } else {
                name.chars().take(1).collect()
            };
            let above = if store.height >= 5 { 2 } else { 1 };
            let label_y = store.y + (store.height / 2).saturating_sub(above);
            centre_text(
                buf,
                Rect::new(store.x, label_y, store.width, 1),
                &label,
                theme.player(side),
            );
        }
        // Pit letters above North's row and below South's, with the side names at the stores.
        let top = geo.y - 1;
        let bottom = geo.y + geo.height();
        for index in 0..n {
            let letter = Kalah::pit_letter(index).to_string();
            let north = geo.hole(Hole::Pit {
                side: Player::Second,
                index: index as u8,
            });
            centre_text(
                buf,
                Rect::new(north.x, top, north.width, 1),
                &letter,
                theme.coords,
            );
            let south = geo.hole(Hole::Pit {
                side: Player::First,
                index: index as u8,
            });
            centre_text(
                buf,
                Rect::new(south.x, bottom, south.width, 1),
                &letter,
                theme.coords,
            );
        }
        // A previewed line: the numbers of the sowings from each pit replace its letter.
        for side in [Player::First, Player::Second] {
            for index in 0..n {
                let Some(numbers) =
                    path_numbers(ctx.path, |p| p.mover == side && usize::from(p.mv) == index)
                else {
                    continue;
                };
                let pit = geo.hole(Hole::Pit {
                    side,
                    index: index as u8,
                });
                let y = if side == Player::Second { top } else { bottom };
                let text: String = numbers.chars().take(usize::from(pit.width)).collect();
                centre_text(
                    buf,
                    Rect::new(pit.x, y, pit.width, 1),
                    &text,
                    path_style(theme, side),
                );
            }
        }
        if geo.names {
            let table = Rect::new(geo.x, 0, geo.width(), 1);
            let north = Rect {
                y: top - 1,
                ..table
            };
            let south = Rect {
                y: bottom + 1,
                ..table
            };
            centre_text(buf, north, Kalah::side_name(Player::Second), theme.second);
            centre_text(buf, south, Kalah::side_name(Player::First), theme.first);
        }
    }

    fn home(&self, game: &Kalah) -> Pit {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        moves.first().copied().unwrap_or(0)
    }

    fn step(&self, game: &Kalah, cursor: Pit, dir: Dir) -> Pit {
        let n = game.pit_count() as isize;
        // South's pits run left to right on screen, North's right to left.
        let screen_right: isize = if game.to_move() == Player::First {
            1
        } else {
            -1
        };
        let by = match dir {
            Dir::Right => screen_right,
            Dir::Left => -screen_right,
            Dir::Up | Dir::Down => return cursor,
        };
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mut i = isize::from(cursor) + by;
        while (0..n).contains(&i) {
            if moves.contains(&(i as Pit)) {
                return i as Pit;
            }
            i += by;
        }
        cursor
    }

    fn move_at(&self, game: &Kalah, cursor: Pit) -> Option<Pit> {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        moves.contains(&cursor).then_some(cursor)
    }

    fn cursor_of(&self, _game: &Kalah, mv: Pit) -> Pit {
        mv
    }

    fn hit(&self, game: &Kalah, area: Rect, at: Position) -> Option<Pit> {
        let geo = geometry(game, area)?;
        let side = game.to_move();
        (0..game.pit_count() as u8).find(|&index| geo.hole(Hole::Pit { side, index }).contains(at))
    }

    fn score(&self, game: &Kalah) -> Option<String> {
        Some(format!(
            "South {} · North {}",
            game.store(Player::First),
            game.store(Player::Second)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_merged_stores() {
        let game = Kalah::new(2, 1);
        let area = Rect::new(0, 0, 17, 7);
        let geo = geometry(&game, area).unwrap();
        assert_eq!((geo.cell_w, geo.cell_h), (3, 1));
        let mut buf = Buffer::empty(area);
        draw_table(&mut buf, geo, ratatui::style::Style::new());
        let line = |y: u16| -> String { (0..17).map(|x| buf[(x, y)].symbol()).collect() };
        assert_eq!(line(1), "┌───┬───┬───┬───┐");
        assert_eq!(line(2), "│   │   │   │   │");
        assert_eq!(line(3), "│   ├───┼───┤   │");
        assert_eq!(line(5), "└───┴───┴───┴───┘");
    }

    #[test]
    fn every_pit_of_the_mover_is_hit_and_only_those() {
        let game = Kalah::new(6, 4);
        let area = Rect::new(0, 0, 60, 20);
        let geo = geometry(&game, area).unwrap();
        for index in 0..6u8 {
            let south = geo.hole(Hole::Pit {
                side: Player::First,
                index,
            });
            assert_eq!(KalahView.hit(&game, area, south.as_position()), Some(index));
            let north = geo.hole(Hole::Pit {
                side: Player::Second,
                index,
            });
            assert_eq!(KalahView.hit(&game, area, north.as_position()), None);
        }
    }
}
