//! The help overlay: every key (from the keymap's table) and mouse action.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use crate::tui::keymap;
use crate::tui::theme::Theme;

/// Draws the help overlay into `area`, scrolled down by `scroll` lines.
pub fn draw(frame: &mut Frame, area: Rect, scroll: usize, theme: &Theme) {
    frame.render_widget(Clear, area);
    let help = keymap::help();
    let visible = usize::from(area.height.saturating_sub(2));
    let more = help.len() > visible;
    let block = Block::bordered()
        .border_style(theme.border_focused)
        .title(if more {
            " Help · ? or Esc closes · ↑↓ scroll "
        } else {
            " Help · ? or Esc closes "
        })
        .title_style(theme.title);
    let keys_w = help
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0)
        + 1;
    let scroll = scroll.min(help.len().saturating_sub(visible));
    let lines: Vec<Line> = help
        .iter()
        .skip(scroll)
        .map(|&(keys, what)| {
            if keys.is_empty() {
                if what.chars().next().is_some_and(char::is_uppercase) && what.len() < 16 {
                    Line::styled(what, theme.title)
                } else {
                    Line::raw(format!(" {what}"))
                }
            } else {
                Line::from(vec![
                    Span::styled(format!(" {keys:<keys_w$}"), theme.key),
                    Span::raw(what),
                ])
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
