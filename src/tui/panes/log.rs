//! The move log: one row per step with number, side, notation and the engine's value; the
//! shown position is marked, later moves are dimmed.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::pane_block;
use crate::engine::score;
use crate::games::Playable;
use crate::session::Session;
use crate::tui::action::Pane;
use crate::tui::layout;
use crate::tui::theme::Theme;

/// Draws the move log of `session` into `area`, from row `offset` on.
pub fn draw<G: Playable>(
    frame: &mut Frame,
    session: &Session<G>,
    focus: Pane,
    offset: usize,
    theme: &Theme,
    area: Rect,
) {
    let steps = session.steps();
    let title = format!("Moves {}/{}", session.cursor(), steps.len());
    frame.render_widget(pane_block(Pane::Moves, focus, &title, theme), area);
    let inner = layout::inner(area);
    let rows = usize::from(inner.height);
    let total = steps.len() + 1;
    let offset = offset.min(total.saturating_sub(rows));
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
                let before = match row {
                    1 => Some(session.initial()),
                    _ => steps.get(row - 2).map(|s| &s.after),
                };
                if let Some(note) = before.and_then(|b| b.move_note(step.mv)) {
                    spans.push(Span::styled(format!(" {note}"), theme.dim));
                }
                if extra {
                    spans.push(Span::styled(" extra turn", theme.dim));
                }
            }
            let mut line = Line::from(spans);
            if current {
                line = line.style(if focus == Pane::Moves {
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
