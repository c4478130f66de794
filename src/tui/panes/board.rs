//! The board pane: a frame around the game's [`BoardView`](crate::tui::boards::BoardView).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

use super::pane_block;
use crate::tui::action::Pane;
use crate::tui::app::App;
use crate::tui::boards::{BoardCtx, BoardView, HasBoard};
use crate::tui::layout;

/// Draws the board pane into `area`.
pub fn draw<G: HasBoard>(frame: &mut Frame, app: &App<G>, area: Rect) {
    let session = &app.session;
    let game = session.current();
    let kind = G::KIND.title();
    let title = match game.outcome() {
        Some(_) => format!("{kind} · game over"),
        None => format!("{kind} · {} to move", G::side_name(game.to_move())),
    };
    let mut block = pane_block(Pane::Board, app.view.focus, &title, &app.theme);
    if let Some(score) = app.board.score(game) {
        block =
            block.title_bottom(Line::styled(format!(" {score} "), app.theme.title).right_aligned());
    }
    frame.render_widget(block, area);
    let human_to_move = game.outcome().is_none() && app.is_human(game.to_move());
    let before = session
        .cursor()
        .checked_sub(2)
        .and_then(|i| session.steps().get(i))
        .map_or(session.initial(), |s| &s.after);
    let last = session.last_step();
    let ctx = BoardCtx {
        theme: &app.theme,
        cursor: human_to_move.then_some(app.view.cursor),
        last: last.map(|s| s.mv),
        before: last.map(|_| before),
        hint: app.hint.map(|(mv, _)| mv),
    };
    app.board
        .draw(game, &ctx, layout::inner(area), frame.buffer_mut());
}
