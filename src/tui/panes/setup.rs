//! Draws the setup screen from its state: headings, one line per setting with a column per
//! side, the error under the field it belongs to, and the keys at the bottom.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use crate::engine::Player;
use crate::tui::setup::{COLUMN_W, LABEL_W, Row, SetupLine, SetupState};
use crate::tui::theme::Theme;
use crate::tui::ui::too_small;

fn fit(text: &str, width: usize) -> String {
    let mut out: String = text.chars().take(width.saturating_sub(1)).collect();
    let len = out.chars().count();
    out.extend(std::iter::repeat_n(' ', width - len.min(width)));
    out
}

/// Draws the whole setup screen.
pub fn draw(frame: &mut Frame, state: &SetupState, theme: &Theme) {
    let area = frame.area();
    let (min_w, min_h) = state.min_frame();
    if area.width < min_w || area.height < min_h {
        too_small(frame, area, ratatui::layout::Size::new(min_w, min_h), theme);
        return;
    }
    let form = state.form_area();
    let block = Block::bordered()
        .border_style(theme.border_focused)
        .title(" gametree · new game ")
        .title_style(theme.title);
    let selected = state.row();
    let all = state.lines();
    let scroll = state.scroll();
    let shown = state.visible_lines();
    let block = if scroll + shown < all.len() {
        block.title_bottom(Line::styled(" ↓ more ", theme.key).right_aligned())
    } else {
        block
    };
    let block = if scroll > 0 {
        block.title(Line::styled(" ↑ more ", theme.key).right_aligned())
    } else {
        block
    };
    let mut lines = vec![Line::raw("")];
    for line in all.into_iter().skip(scroll).take(shown) {
        lines.push(match line {
            SetupLine::Heading(text) => Line::styled(format!(" {text}"), theme.title),
            SetupLine::Error(text) => Line::styled(format!("  {text}"), theme.error),
            SetupLine::Row(row) => {
                let mut spans = vec![Span::styled(
                    fit(&format!("  {}", state.label(row)), usize::from(LABEL_W)),
                    theme.dim,
                )];
                let sides: &[Player] = if row.is_per_side() {
                    &[Player::First, Player::Second]
                } else {
                    &[Player::First]
                };
                for &side in sides {
                    let is_selected =
                        row == selected && (!row.is_per_side() || side == state.column);
                    let text = match (&state.editing, is_selected) {
                        (Some(edit), true) => format!("{edit}▏"),
                        _ => state.value(row, side),
                    };
                    let width = if row.is_per_side() {
                        usize::from(COLUMN_W)
                    } else {
                        usize::from(COLUMN_W * 2)
                    };
                    let style = match (is_selected, row) {
                        (true, _) => theme.selected,
                        (false, Row::Start) => theme.key,
                        (false, _) => ratatui::style::Style::new(),
                    };
                    let shown = if is_selected {
                        text.chars().take(width - 1).collect()
                    } else {
                        fit(&text, width)
                    };
                    spans.push(Span::styled(shown, style));
                    if is_selected {
                        let used = spans.last().map_or(0, |s| s.content.chars().count());
                        spans.push(Span::raw(" ".repeat(width.saturating_sub(used))));
                    }
                }
                Line::from(spans)
            }
        });
    }
    frame.render_widget(Paragraph::new(lines).block(block), form);
    let help_y = form.bottom();
    let mut keys = vec![];
    if let Some(message) = &state.message {
        keys.push(Span::styled(format!("{message}  "), theme.error));
    }
    let hints: &[(&str, &str)] = if state.editing.is_some() {
        &[("⏎", "accept"), ("Esc", "cancel"), ("⌫", "erase")]
    } else {
        &[
            ("↑↓", "choose"),
            ("←→", "side / value"),
            ("Space", "change"),
            ("type", "edit"),
            ("⏎", "start"),
            ("q", "quit"),
        ]
    };
    for (key, what) in hints {
        keys.push(Span::styled(*key, theme.key));
        keys.push(Span::styled(format!(" {what}  "), theme.dim));
    }
    if help_y < area.bottom() {
        frame.render_widget(
            Paragraph::new(Line::from(keys)),
            Rect::new(area.x, help_y, area.width, area.bottom() - help_y),
        );
    }
}
