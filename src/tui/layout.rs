//! Where everything goes: a pure function of the frame size and the board's minimum size.
//! Drawing and mouse hit-testing both call it, so a click lands where the picture is.

use ratatui::layout::{Constraint, Layout, Margin, Position, Rect, Size};

use super::action::Pane;

/// Rows of the status bar (state line and key hints).
pub const STATUS_H: u16 = 2;
/// Rows of the engine pane, borders included.
pub const ENGINE_H: u16 = 9;
/// The narrowest the right-hand column may be.
pub const RIGHT_MIN_W: u16 = 32;
/// The fewest rows of the move log, borders included.
pub const MOVES_MIN_H: u16 = 5;
/// The fewest rows of the tree pane, borders included.
pub const TREE_MIN_H: u16 = 3;
/// The rows the tree pane wants while it has the focus; when the engine pane would leave it
/// fewer, the engine pane gives up its place to the tree.
pub const TREE_FOCUS_H: u16 = 14;
/// The fewest rows of the tree list inside the tree pane.
pub const TREE_LIST_MIN: u16 = 3;

/// The panes of the game screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PaneAreas {
    /// The board pane, border included.
    pub board: Rect,
    /// The move log.
    pub moves: Rect,
    /// The engine statistics.
    pub engine: Rect,
    /// The search tree.
    pub tree: Rect,
    /// The status bar (no border).
    pub status: Rect,
}

impl PaneAreas {
    /// The area of `pane`.
    pub fn of(&self, pane: Pane) -> Rect {
        match pane {
            Pane::Board => self.board,
            Pane::Moves => self.moves,
            Pane::Engine => self.engine,
            Pane::Tree => self.tree,
        }
    }

    /// The pane under a screen position.
    pub fn pane_at(&self, at: Position) -> Option<Pane> {
        Pane::ALL.into_iter().find(|&p| self.of(p).contains(at))
    }
}

/// The layout of a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Areas {
    /// The terminal is too small: at least `need` is needed.
    TooSmall {
        /// The smallest size that works.
        need: Size,
    },
    /// Every pane fits.
    Panes(PaneAreas),
}

/// The narrowest the move log may be when the panes sit under the board.
pub const MOVES_MIN_W: u16 = 26;
/// The narrowest the engine pane may be when the panes sit under the board.
pub const ENGINE_MIN_W: u16 = 40;
/// The move log's width on a wide terminal (its rows need about 40 columns).
pub const MOVES_WIDE_W: u16 = 46;
/// The narrowest the engine and tree column may be for the move log to get a column of its
/// own beside it.
pub const ENGINE_WIDE_MIN_W: u16 = 60;

/// The smallest frame for the board beside the other panes.
fn side_by_side_min(board_min: Size) -> Size {
    Size::new(
        board_min.width + 2 + RIGHT_MIN_W,
        (board_min.height + 2).max(MOVES_MIN_H + ENGINE_H + TREE_MIN_H) + STATUS_H,
    )
}

/// The smallest frame for the board above the other panes (wide, flat boards like Kalah).
fn stacked_min(board_min: Size) -> Size {
    Size::new(
        (board_min.width + 2).max(MOVES_MIN_W + ENGINE_MIN_W),
        board_min.height + 2 + ENGINE_H + TREE_MIN_H + STATUS_H,
    )
}

fn fits(frame: Rect, need: Size) -> bool {
    frame.width >= need.width && frame.height >= need.height
}

/// The smallest frame the game screen needs for a board of `board_min` (inside its border):
/// of the two arrangements, the one that needs less room.
pub fn min_frame(board_min: Size) -> Size {
    let beside = side_by_side_min(board_min);
    let stacked = stacked_min(board_min);
    if u32::from(stacked.width) * u32::from(stacked.height)
        < u32::from(beside.width) * u32::from(beside.height)
    {
        stacked
    } else {
        beside
    }
}

/// Splits a column into the engine pane and the tree pane below it. With the tree focused
/// the tree takes the rest of the column, and the engine pane goes (height 0) when the tree
/// would get fewer than [`TREE_FOCUS_H`] rows beside it.
fn engine_and_tree(column: Rect, tree_h: u16, tree_focused: bool) -> [Rect; 2] {
    let engine_h = if tree_focused && column.height < ENGINE_H + TREE_FOCUS_H {
        0
    } else {
        ENGINE_H
    };
    let tree_h = if tree_focused {
        column.height - engine_h
    } else {
        tree_h
    };
    Layout::vertical([Constraint::Length(engine_h), Constraint::Length(tree_h)]).areas(column)
}

/// Splits `area` into the move log, `moves_w` wide, and beside it the engine pane over the
/// tree pane.
fn log_beside(area: Rect, moves_w: u16, tree_focused: bool) -> [Rect; 3] {
    let [moves, right] =
        Layout::horizontal([Constraint::Length(moves_w), Constraint::Min(0)]).areas(area);
    let [engine, tree] =
        engine_and_tree(right, right.height.saturating_sub(ENGINE_H), tree_focused);
    [moves, engine, tree]
}

/// Lays out the game screen: the board at the left and the other panes at the right when
/// that fits, else the board across the top and the other panes below it. The focused tree
/// pane grows (see `engine_and_tree`); the move log keeps at least [`MOVES_MIN_H`] rows.
pub fn areas(frame: Rect, board_min: Size, focus: Pane) -> Areas {
    let tree_focused = focus == Pane::Tree;
    let [main, status] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(STATUS_H)]).areas(frame);
    if fits(frame, side_by_side_min(board_min)) {
        let left_w = (board_min.width + 2)
            .max(main.width * 45 / 100)
            .min(main.width - RIGHT_MIN_W);
        let [board, right] =
            Layout::horizontal([Constraint::Length(left_w), Constraint::Min(0)]).areas(main);
        if right.width >= MOVES_WIDE_W + ENGINE_WIDE_MIN_W {
            // A wide terminal: the move log is a narrow column of its own, and the engine and
            // tree panes get the rest of the width and the whole height.
            let [moves, engine, tree] = log_beside(right, MOVES_WIDE_W, tree_focused);
            return Areas::Panes(PaneAreas {
                board,
                moves,
                engine,
                tree,
                status,
            });
        }
        let tree_h = ((right.height.saturating_sub(ENGINE_H)) / 3).max(TREE_MIN_H);
        let moves_h = if tree_focused {
            MOVES_MIN_H
        } else {
            right.height.saturating_sub(ENGINE_H + tree_h)
        };
        let [moves, rest] =
            Layout::vertical([Constraint::Length(moves_h), Constraint::Min(0)]).areas(right);
        let [engine, tree] = engine_and_tree(rest, tree_h, tree_focused);
        return Areas::Panes(PaneAreas {
            board,
            moves,
            engine,
            tree,
            status,
        });
    }
    if fits(frame, stacked_min(board_min)) {
        // Up to half the height for the board when there is room to spare.
        let board_h = (main.height / 2)
            .max(board_min.height + 2)
            .min(main.height - ENGINE_H - TREE_MIN_H);
        let [board, below] =
            Layout::vertical([Constraint::Length(board_h), Constraint::Min(0)]).areas(main);
        let moves_w = (below.width * 2 / 5)
            .clamp(MOVES_MIN_W, MOVES_WIDE_W)
            .min(below.width - ENGINE_MIN_W);
        let [moves, engine, tree] = log_beside(below, moves_w, tree_focused);
        return Areas::Panes(PaneAreas {
            board,
            moves,
            engine,
            tree,
            status,
        });
    }
    Areas::TooSmall {
        need: min_frame(board_min),
    }
}

/// The pieces of the tree pane's inside, top to bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeParts {
    /// What was searched (and a comparison with its verdict).
    pub header: Rect,
    /// Why the tree is incomplete, when it is.
    pub notice: Rect,
    /// The tree's rows.
    pub list: Rect,
    /// The explanation of the selected node.
    pub footer: Rect,
}

/// Stacks the tree pane's parts in `inner`, given the rows each wants. The list keeps
/// [`TREE_LIST_MIN`] rows; then the notice, the explanation and the header get what is
/// left, in that order, and the list takes the rest.
pub fn tree_parts(inner: Rect, header: u16, notice: u16, footer: u16) -> TreeParts {
    let list_min = TREE_LIST_MIN.min(inner.height);
    let mut left = inner.height - list_min;
    let mut take = |want: u16| {
        let got = want.min(left);
        left -= got;
        got
    };
    let notice = take(notice);
    let footer = take(footer);
    let header = take(header);
    let list = list_min + left;
    let [header, notice, list, footer] = Layout::vertical([
        Constraint::Length(header),
        Constraint::Length(notice),
        Constraint::Length(list),
        Constraint::Length(footer),
    ])
    .areas(inner);
    TreeParts {
        header,
        notice,
        list,
        footer,
    }
}

/// The inside of a bordered pane.
pub fn inner(pane: Rect) -> Rect {
    pane.inner(Margin::new(1, 1))
}

/// A `width` x `height` box centred in `frame` (shrunk to fit).
pub fn centered(frame: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(frame.width);
    let height = height.min(frame.height);
    Rect::new(
        frame.x + (frame.width - width) / 2,
        frame.y + (frame.height - height) / 2,
        width,
        height,
    )
}

/// The confirmation dialog box.
pub fn dialog(frame: Rect) -> Rect {
    centered(frame, 60, 7)
}

/// The dialog's `[ Yes ]` and `[ No ]` buttons.
pub fn dialog_buttons(dialog: Rect) -> (Rect, Rect) {
    let y = dialog.bottom().saturating_sub(2);
    let mid = dialog.x + dialog.width / 2;
    (
        Rect::new(mid.saturating_sub(12), y, 9, 1),
        Rect::new(mid + 3, y, 8, 1),
    )
}

/// The help overlay: every line of the help when the terminal is tall enough.
pub fn help(frame: Rect) -> Rect {
    centered(frame, 80, super::keymap::help().len() as u16 + 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panes_tile_the_frame_at_common_sizes() {
        for (w, h) in [(80, 24), (120, 40), (200, 60)] {
            let frame = Rect::new(0, 0, w, h);
            let Areas::Panes(a) = areas(frame, Size::new(15, 8), Pane::Board) else {
                panic!("{w}x{h} should fit");
            };
            let total: u32 = [a.board, a.moves, a.engine, a.tree, a.status]
                .iter()
                .map(|r| r.area())
                .sum();
            assert_eq!(total, frame.area());
            assert!(a.moves.width >= RIGHT_MIN_W);
            assert_eq!(a.engine.height, ENGINE_H);
        }
        // Wide: the log is a column of its own, no wider than its rows need.
        let Areas::Panes(a) = areas(Rect::new(0, 0, 200, 60), Size::new(15, 8), Pane::Board) else {
            panic!("200x60 should fit");
        };
        assert_eq!(a.moves.width, MOVES_WIDE_W);
        assert_eq!(a.moves.height, 58);
        assert_eq!(a.engine.x, a.moves.right());
        assert!(a.tree.width >= ENGINE_WIDE_MIN_W);
    }

    #[test]
    fn wide_boards_go_above_the_other_panes() {
        // Kalah with 12 pits: too wide to sit beside the panes at 80 columns.
        let board = Size::new(57, 7);
        let frame = Rect::new(0, 0, 80, 24);
        let Areas::Panes(a) = areas(frame, board, Pane::Board) else {
            panic!("80x24 should fit");
        };
        assert_eq!(a.board.width, 80);
        assert!(a.board.height >= board.height + 2);
        assert!(a.moves.y > a.board.y && a.engine.y > a.board.y);
        assert_eq!(a.engine.height, ENGINE_H);
        assert!(a.tree.height >= TREE_MIN_H);
        let total: u32 = [a.board, a.moves, a.engine, a.tree, a.status]
            .iter()
            .map(|r| r.area())
            .sum();
        assert_eq!(total, frame.area());
    }

    #[test]
    fn the_focused_tree_grows_and_the_engine_pane_yields_when_short() {
        for (w, h, board) in [(80, 24, Size::new(15, 8)), (80, 24, Size::new(57, 7))] {
            let frame = Rect::new(0, 0, w, h);
            let Areas::Panes(plain) = areas(frame, board, Pane::Board) else {
                panic!("fits");
            };
            let Areas::Panes(zoom) = areas(frame, board, Pane::Tree) else {
                panic!("fits");
            };
            assert!(zoom.tree.height > plain.tree.height);
            assert_eq!(zoom.engine.height, 0, "{w}x{h}: no room for both");
            assert_eq!(zoom.board, plain.board, "the board stays put");
            let total: u32 = [zoom.board, zoom.moves, zoom.engine, zoom.tree, zoom.status]
                .iter()
                .map(|r| r.area())
                .sum();
            assert_eq!(total, frame.area());
        }
        let Areas::Panes(big) = areas(Rect::new(0, 0, 160, 50), Size::new(15, 8), Pane::Tree)
        else {
            panic!("fits");
        };
        assert_eq!(big.engine.height, ENGINE_H, "room for both");
        assert!(big.tree.height >= TREE_FOCUS_H);
        assert_eq!(big.moves.height, MOVES_MIN_H);
    }

    #[test]
    fn tree_parts_keep_the_list_and_share_the_rest() {
        let inner = Rect::new(0, 0, 40, 10);
        let p = tree_parts(inner, 3, 1, 2);
        assert_eq!(
            (
                p.header.height,
                p.notice.height,
                p.list.height,
                p.footer.height
            ),
            (3, 1, 4, 2)
        );
        let small = tree_parts(Rect::new(0, 0, 40, 4), 3, 1, 2);
        assert_eq!(
            (
                small.header.height,
                small.notice.height,
                small.list.height,
                small.footer.height
            ),
            (0, 1, 3, 0)
        );
        assert_eq!(p.footer.bottom(), inner.bottom());
    }

    #[test]
    fn small_frames_say_how_much_is_needed() {
        let need = min_frame(Size::new(15, 8));
        assert_eq!(
            areas(
                Rect::new(0, 0, need.width - 1, 30),
                Size::new(15, 8),
                Pane::Board
            ),
            Areas::TooSmall { need }
        );
        assert!(matches!(
            areas(
                Rect::new(0, 0, need.width, need.height),
                Size::new(15, 8),
                Pane::Board
            ),
            Areas::Panes(_)
        ));
    }
}
