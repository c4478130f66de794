//! The board pane: a frame around the game's [`BoardView`].
//! While the search tree is browsed it shows the selected node's position instead, the
//! moves from the search's root numbered on the board and listed at the bottom.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph};

use super::{fit_title, pane_block};
use crate::engine::{Outcome, Scoring};
use crate::session::Session;
use crate::tui::action::Pane;
use crate::tui::boards::{BoardCtx, BoardView, HasBoard};
use crate::tui::layout;
use crate::tui::theme::Theme;
use crate::tui::tree_browser::{Preview, wrap};

/// What the board pane shows.
pub struct BoardPane<'a, G: HasBoard> {
    /// The game.
    pub session: &'a Session<G>,
    /// The game's board drawing.
    pub view: &'a G::View,
    /// The tree's selected position, shown instead of the game while the tree is browsed.
    pub preview: Option<Preview<G>>,
    /// The focused pane.
    pub focus: Pane,
    /// The cursor, shown while a human is to move.
    pub cursor: Option<<G::View as BoardView<G>>::Cursor>,
    /// The engine's suggestion.
    pub hint: Option<G::Move>,
    /// The styles.
    pub theme: &'a Theme,
}

/// Draws the board pane into `area`.
pub fn draw<G: HasBoard>(frame: &mut Frame, pane: &BoardPane<G>, area: Rect) {
    let theme = pane.theme;
    let board = pane.view;
    if let Some(preview) = &pane.preview {
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
        let mut block = pane_block(Pane::Board, pane.focus, &title, theme);
        if let Some(score) = board.score(game) {
            block =
                block.title_bottom(Line::styled(format!(" {score} "), theme.title).right_aligned());
        }
        // The line goes above the board when there is room for it, else into the border.
        let mut inner = layout::inner(area);
        let lines = wrap(&line, inner.width);
        let rows = lines.len() as u16;
        let spare = inner.height.saturating_sub(board.min_size(game).height);
        if spare > rows {
            frame.render_widget(block, area);
            let text: Vec<Line> = lines
                .into_iter()
                .map(|l| Line::styled(l, theme.pv))
                .collect();
            frame.render_widget(
                Paragraph::new(text),
                Rect::new(inner.x, inner.y, inner.width, rows),
            );
            inner.y += rows;
            inner.height -= rows;
        } else {
            block = block.title_bottom(Line::styled(format!(" {line} "), theme.pv));
            frame.render_widget(block, area);
        }
        let ctx = BoardCtx {
            theme,
            cursor: None,
            last: preview.path.last().map(|s| s.mv),
            before: preview.before.as_ref(),
            hint: None,
            path: &preview.path,
        };
        board.draw(game, &ctx, inner, frame.buffer_mut());
        return;
    }
    let session = pane.session;
    let game = session.current();
    let kind = G::KIND.title();
    let state = match game.outcome() {
        Some(_) => "game over".to_string(),
        None => format!("{} to move", G::side_name(game.to_move())),
    };
    let title = fit_title(&[format!("{kind} · {state}"), state], area.width);
    let mut block = pane_block(Pane::Board, pane.focus, &title, theme);
    if let Some(score) = board.score(game) {
        block = block.title_bottom(Line::styled(format!(" {score} "), theme.title).right_aligned());
    }
    frame.render_widget(block, area);
    let before = session
        .cursor()
        .checked_sub(2)
        .and_then(|i| session.steps().get(i))
        .map_or(session.initial(), |s| &s.after);
    let last = session.last_step();
    let ctx = BoardCtx {
        theme,
        cursor: pane.cursor,
        last: last.map(|s| s.mv),
        before: last.map(|_| before),
        hint: pane.hint,
        path: &[],
    };
    let inner = layout::inner(area);
    let Some(outcome) = game.outcome() else {
        board.draw(game, &ctx, inner, frame.buffer_mut());
        return;
    };
    // Game over: a banner above the board when the board still fits below it, else in the
    // pane's top border (Gomoku at 80x24), so that it never covers a stone.
    let text = outcome_text::<G>(outcome);
    let room = inner.height.saturating_sub(board.min_size(game).height);
    if room >= BANNER_HEIGHT && inner.width >= 8 {
        let banner = Rect::new(inner.x, inner.y, inner.width, BANNER_HEIGHT);
        let below = Rect::new(
            inner.x,
            inner.y + BANNER_HEIGHT,
            inner.width,
            inner.height - BANNER_HEIGHT,
        );
        board.draw(game, &ctx, below, frame.buffer_mut());
        draw_banner(frame, &text, banner, theme);
    } else {
        board.draw(game, &ctx, inner, frame.buffer_mut());
        let top = Rect::new(area.x, area.y, area.width, 1);
        draw_banner(frame, &text, top, theme);
    }
}

/// Rows of the framed game-over banner.
const BANNER_HEIGHT: u16 = 3;

/// The result in words, for the game-over banner.
pub fn outcome_text<G: HasBoard>(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win { winner, margin } if G::SCORING == Scoring::Margin => {
            format!("Game over: {} wins by {margin}", G::side_name(winner))
        }
        Outcome::Win { winner, .. } => format!("Game over: {} wins", G::side_name(winner)),
        Outcome::Draw => "Game over: a draw".to_string(),
    }
}

/// The game-over banner, centred in `area`: framed when it is three rows high, else one
/// highlighted line (over a border). Cut at a word with `…` when it does not fit.
fn draw_banner(frame: &mut Frame, text: &str, area: Rect, theme: &Theme) {
    let framed = area.height >= BANNER_HEIGHT;
    let pad = if framed { 4 } else { 2 };
    let lines = wrap(text, area.width.saturating_sub(pad + 1));
    let Some(first) = lines.first() else {
        return;
    };
    let shown = if lines.len() > 1 {
        format!("{first}…")
    } else {
        first.clone()
    };
    let width = (shown.chars().count() as u16 + pad).min(area.width);
    let x = area.x + (area.width - width) / 2;
    if framed {
        let banner = Rect::new(x, area.y, width, BANNER_HEIGHT);
        frame.render_widget(Clear, banner);
        frame.render_widget(
            Paragraph::new(Line::styled(shown, theme.win))
                .centered()
                .block(Block::bordered().border_style(theme.win)),
            banner,
        );
    } else {
        frame.render_widget(
            Paragraph::new(Line::styled(format!(" {shown} "), theme.win)),
            Rect::new(x, area.y, width, 1),
        );
    }
}
