//! The board pane: a frame around the game's [`BoardView`].
//! While the search tree is browsed it shows the selected node's position instead, the
//! moves from the search's root numbered on the board and listed at the bottom.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use super::{fit_title, pane_block};
use crate::tui::action::Pane;
use crate::tui::app::App;
use crate::tui::boards::{BoardCtx, BoardView, HasBoard};
use crate::tui::layout;
use crate::tui::tree_browser::wrap;

/// Draws the board pane into `area`.
pub fn draw<G: HasBoard>(frame: &mut Frame, app: &App<G>, area: Rect) {
    if let Some(preview) = app.preview() {
        let game = &preview.position;
        let state = match game.outcome() {
            Some(_) => "game over".to_string(),
            None => format!("{} to move", G::side_name(game.to_move())),
        };
        let title = fit_title(
            &[format!("Preview · {state}"), "Preview".to_string()],
            area.width,
        );
        let line = if preview.line.is_empty() {
            "the search's root".to_string()
        } else {
            preview.line.clone()
        };
        let mut block = pane_block(Pane::Board, app.view.focus, &title, &app.theme);
        if let Some(score) = app.board.score(game) {
            block = block
                .title_bottom(Line::styled(format!(" {score} "), app.theme.title).right_aligned());
        }
        // The line goes above the board when there is room for it, else into the border.
        let mut inner = layout::inner(area);
        let lines = wrap(&line, inner.width);
        let rows = lines.len() as u16;
        let spare = inner.height.saturating_sub(app.board.min_size(game).height);
        if spare > rows {
            frame.render_widget(block, area);
            let text: Vec<Line> = lines
                .into_iter()
                .map(|l| Line::styled(l, app.theme.pv))
                .collect();
            frame.render_widget(
                Paragraph::new(text),
                Rect::new(inner.x, inner.y, inner.width, rows),
            );
            inner.y += rows;
            inner.height -= rows;
        } else {
            block = block.title_bottom(Line::styled(format!(" {line} "), app.theme.pv));
            frame.render_widget(block, area);
        }
        let ctx = BoardCtx {
            theme: &app.theme,
            cursor: None,
            last: preview.path.last().map(|s| s.mv),
            before: preview.before.as_ref(),
            hint: None,
            path: &preview.path,
        };
        app.board.draw(game, &ctx, inner, frame.buffer_mut());
        return;
    }
    let session = &app.session;
    let game = session.current();
    let kind = G::KIND.title();
    let state = match game.outcome() {
        Some(_) => "game over".to_string(),
        None => format!("{} to move", G::side_name(game.to_move())),
    };
    let title = fit_title(&[format!("{kind} · {state}"), state], area.width);
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
        path: &[],
    };
    app.board
        .draw(game, &ctx, layout::inner(area), frame.buffer_mut());
}
