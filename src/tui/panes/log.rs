//! The move log: one row per step with number, side, notation and the engine's value; the
//! shown position is marked, later moves are dimmed.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::pane_block;
use crate::engine::score;
use crate::tui::action::Pane;
use crate::tui::app::App;
use crate::tui::boards::HasBoard;
use crate::tui::layout;

/// Draws the move log into `area`.
pub fn draw<G: HasBoard>(frame: &mut Frame, app: &App<G>, area: Rect) {
    let session = &app.session;
    let steps = session.steps();
    let title = format!("Moves {}/{}", session.cursor(), steps.len());
    frame.render_widget(
        pane_block(Pane::Moves, app.view.focus, &title, &app.theme),
        area,
    );
    let inner = layout::inner(area);
    let rows = usize::from(inner.height);
    let total = steps.len() + 1;
    let offset = app.view.log_offset.min(total.saturating_sub(rows));
    let theme = &app.theme;
    let lines: Vec<Line> = (offset..total.min(offset + rows))
        .map(|row| {
            let current = row == session.cursor();
            let marker = if current { "▶" } else { " " };
            let mut spans = vec![Span::raw(format!("{marker} "))];
            if row == 0 {
                spans.push(Span::raw("     start"));
            } else {
                let Some(step) = steps.get(row - 1) else {
                    return Line::raw("");
                };
                // This move earned its mover another one (Kalah's store, a completed box).
                let extra = step.after.outcome().is_none() && step.after.to_move() == step.mover;
                spans.push(Span::raw(format!("{row:>3}. ")));
                spans.push(Span::styled(
                    format!("{:<6}", G::side_name(step.mover)),
                    theme.player(step.mover),
                ));
                spans.push(Span::raw(format!("{:<8}", step.notation)));
                if let Some(value) = step.value {
                    spans.push(Span::raw(format!(" {:>8}", score::format::<G>(value))));
                }
                if extra {
                    spans.push(Span::styled(" extra turn", theme.dim));
                }
            }
            let mut line = Line::from(spans);
            if current {
                line = line.style(if app.view.focus == Pane::Moves {
                    theme.selected
                } else {
                    theme.title
                });
            } else if row > session.cursor() {
                line = line.style(theme.dim);
            }
            line
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}
