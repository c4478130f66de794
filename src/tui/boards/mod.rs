//! Per-game drawing and input: the [`BoardView`] trait and one implementation per game.
//! Each board has one private geometry function used by both `draw` and `hit`, so what the
//! mouse hits is exactly what is on screen. Games never import ratatui; this is their face.

pub mod dots;
pub mod gomoku;
pub mod kalah;
pub mod tictactoe;

use std::fmt::Debug;

use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect, Size};
use ratatui::style::{Modifier, Style};

use super::action::Dir;
use super::theme::Theme;
use crate::engine::{Game, Player};
use crate::games::Playable;

/// A move of a line previewed from the search tree: the board labels it with its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathMove<M> {
    /// The move.
    pub mv: M,
    /// Who played it (a Kalah pit or an extra turn needs it).
    pub mover: Player,
}

/// What a board needs to know besides the position itself.
pub struct BoardCtx<'a, G: Game, C> {
    /// The styles.
    pub theme: &'a Theme,
    /// The cursor, when a human is to move here.
    pub cursor: Option<C>,
    /// The last move, which led to the position drawn.
    pub last: Option<G::Move>,
    /// The position before the last move (Kalah shows which pits the sowing changed).
    pub before: Option<&'a G>,
    /// A move the engine suggests.
    pub hint: Option<G::Move>,
    /// A line of moves previewed from the search tree, labelled 1, 2, 3... on the board
    /// (empty for the live game).
    pub path: &'a [PathMove<G::Move>],
}

impl<G: Game, C> BoardCtx<'_, G, C> {
    /// The cursor's style on the place of move `mv`: reversed, or, on the hint, the hint's
    /// own style made distinct ([`Theme::hint_cursor`]), since reversing the hint's colours
    /// would hide them.
    pub fn cursor_style(&self, mv: G::Move) -> Style {
        if self.hint == Some(mv) {
            self.theme.hint_cursor
        } else {
            self.theme.cursor
        }
    }

    /// The background of the place of move `mv`: the winning line's, else the hint's, else
    /// the last move's, else none.
    pub fn highlight(&self, mv: G::Move, winning: bool) -> Option<Style> {
        if winning {
            Some(self.theme.win)
        } else if self.hint == Some(mv) {
            Some(self.theme.hint)
        } else if self.last == Some(mv) {
            Some(self.theme.last_move)
        } else {
            None
        }
    }
}

/// The box-drawing junction of a grid point on the given edges: `(top, bottom)` row,
/// `(left, right)` column.
pub(crate) fn junction((top, bottom): (bool, bool), (left, right): (bool, bool)) -> &'static str {
    match (top, bottom, left, right) {
        (true, _, true, _) => "┌",
        (true, _, _, true) => "┐",
        (true, _, _, _) => "┬",
        (_, true, true, _) => "└",
        (_, true, _, true) => "┘",
        (_, true, _, _) => "┴",
        (_, _, true, _) => "├",
        (_, _, _, true) => "┤",
        _ => "┼",
    }
}

/// The style of a numbered move of a previewed line: the mover's colour, reversed, so the
/// number stands out like a stone in a Go diagram.
pub(crate) fn path_style(theme: &Theme, mover: Player) -> Style {
    theme.player(mover).add_modifier(Modifier::REVERSED)
}

/// The numbers (from 1) of the moves of `path` that satisfy `is_this`, joined by commas:
/// a Kalah pit may be sown more than once in one line.
pub(crate) fn path_numbers<M: Copy>(
    path: &[PathMove<M>],
    is_this: impl Fn(&PathMove<M>) -> bool,
) -> Option<String> {
    let numbers: Vec<String> = path
        .iter()
        .enumerate()
        .filter(|(_, p)| is_this(p))
        .map(|(i, _)| (i + 1).to_string())
        .collect();
    (!numbers.is_empty()).then(|| numbers.join(","))
}

/// How one game is drawn and played with keys and mouse.
pub trait BoardView<G: Game> {
    /// A place the cursor can be: a cell, a pit, an edge.
    type Cursor: Copy + Default + Eq + Debug;

    /// The smallest area the board can be drawn in (inside the pane's border).
    fn min_size(&self, game: &G) -> Size;

    /// Draws the board into `area`, centred, as large as fits.
    fn draw(&self, game: &G, ctx: &BoardCtx<'_, G, Self::Cursor>, area: Rect, buf: &mut Buffer);

    /// Where the cursor starts in a fresh position.
    fn home(&self, game: &G) -> Self::Cursor;

    /// The cursor moved one step in `dir`, skipping places where no move is legal; unchanged
    /// when there is none that way.
    fn step(&self, game: &G, cursor: Self::Cursor, dir: Dir) -> Self::Cursor;

    /// The move the cursor stands for, if it is a legal move here.
    fn move_at(&self, game: &G, cursor: Self::Cursor) -> Option<G::Move>;

    /// The cursor position of a move (to show a hint).
    fn cursor_of(&self, game: &G, mv: G::Move) -> Self::Cursor;

    /// The cursor position under the screen position `at`, for a board drawn in `area`.
    fn hit(&self, game: &G, area: Rect, at: Position) -> Option<Self::Cursor>;

    /// The running score, for games that keep one (`South 5 · North 3`).
    fn score(&self, game: &G) -> Option<String> {
        let _ = game;
        None
    }
}

/// A game with a board view: the bound the TUI is generic over.
pub trait HasBoard: Playable {
    /// Its board.
    type View: BoardView<Self> + Default;
}

impl HasBoard for crate::games::tictactoe::TicTacToe {
    type View = tictactoe::TicTacToeView;
}

impl HasBoard for crate::games::dots::Dots {
    type View = dots::DotsView;
}

impl HasBoard for crate::games::gomoku::Gomoku {
    type View = gomoku::GomokuView;
}

impl HasBoard for crate::games::kalah::Kalah {
    type View = kalah::KalahView;
}

/// Draws the lines of a `cols` x `rows` table whose cells are `cell_w` x `cell_h` inside,
/// with its top-left corner at `(x, y)`. Cells start at `(x + 1 + c * (cell_w + 1), ...)`.
pub(crate) fn draw_grid(
    buf: &mut Buffer,
    (x, y): (u16, u16),
    (cols, rows): (u16, u16),
    (cell_w, cell_h): (u16, u16),
    style: Style,
) {
    let width = cols * (cell_w + 1) + 1;
    let height = rows * (cell_h + 1) + 1;
    for dy in 0..height {
        let on_row_line = dy % (cell_h + 1) == 0;
        let row_line = dy / (cell_h + 1);
        for dx in 0..width {
            let on_col_line = dx % (cell_w + 1) == 0;
            let col_line = dx / (cell_w + 1);
            let symbol = match (on_row_line, on_col_line) {
                (false, false) => continue,
                (true, false) => "─",
                (false, true) => "│",
                (true, true) => junction(
                    (row_line == 0, row_line == rows),
                    (col_line == 0, col_line == cols),
                ),
            };
            put(buf, x + dx, y + dy, symbol, style);
        }
    }
}

/// Writes `symbol` at `(x, y)` if that is inside the buffer.
pub(crate) fn put(buf: &mut Buffer, x: u16, y: u16, symbol: &str, style: Style) {
    if let Some(cell) = buf.cell_mut((x, y)) {
        cell.set_symbol(symbol).set_style(style);
    }
}

/// Writes `text` starting at `(x, y)`, clipped to the buffer.
pub(crate) fn put_str(buf: &mut Buffer, x: u16, y: u16, text: &str, style: Style) {
    let area = buf.area;
    if y < area.y || y >= area.bottom() || x >= area.right() {
        return;
    }
    let room = (area.right() - x) as usize;
    buf.set_stringn(x, y, text, room, style);
}

/// Patches `style` onto every cell of `rect` (clipped to the buffer).
pub(crate) fn paint(buf: &mut Buffer, rect: Rect, style: Style) {
    let rect = rect.intersection(buf.area);
    buf.set_style(rect, style);
}

/// The cursor moved over a `cols` x `rows` grid (row 0 at the top of the screen) in `dir`,
/// to the nearest place where `legal` holds on the straight line that way, or else on the
/// nearest parallel line beside it. Unchanged when nothing legal lies that way.
pub(crate) fn step_grid(
    (cols, rows): (usize, usize),
    (col, row): (usize, usize),
    dir: Dir,
    legal: impl Fn(usize, usize) -> bool,
) -> (usize, usize) {
    let (cols, rows) = (cols as isize, rows as isize);
    let (col, row) = (col as isize, row as isize);
    let (dc, dr) = match dir {
        Dir::Up => (0, -1),
        Dir::Down => (0, 1),
        Dir::Left => (-1, 0),
        Dir::Right => (1, 0),
    };
    let inside = |c: isize, r: isize| c >= 0 && r >= 0 && c < cols && r < rows;
    let span = cols.max(rows);
    // The straight line first, then lines ever further to either side of it.
    for side in 0..span {
        for distance in 1..span {
            for sign in [1, -1] {
                if side == 0 && sign == -1 {
                    continue;
                }
                let (c0, r0) = (col + dc * distance, row + dr * distance);
                let offset = side * sign;
                let (c, r) = if dc == 0 {
                    (c0 + offset, r0)
                } else {
                    (c0, r0 + offset)
                };
                if inside(c, r) && legal(c as usize, r as usize) {
                    return (c as usize, r as usize);
                }
            }
        }
    }
    (col as usize, row as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_step_skips_taken_places() {
        let legal = |c: usize, r: usize| !(c == 1 && r == 1);
        assert_eq!(step_grid((3, 3), (0, 1), Dir::Right, legal), (2, 1));
        assert_eq!(step_grid((3, 3), (2, 1), Dir::Right, legal), (2, 1));
        // Straight up is taken: the nearest legal place beside it.
        let only_corner = |c: usize, r: usize| c == 0 && r == 0;
        assert_eq!(step_grid((3, 3), (1, 2), Dir::Up, only_corner), (0, 0));
    }

    #[test]
    fn grid_lines_have_proper_corners() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 7, 3));
        draw_grid(&mut buf, (0, 0), (2, 1), (2, 1), Style::new());
        let line = |y: u16| -> String { (0..7).map(|x| buf[(x, y)].symbol()).collect() };
        assert_eq!(line(0), "┌──┬──┐");
        assert_eq!(line(1), "│  │  │");
        assert_eq!(line(2), "└──┴──┘");
    }
}
