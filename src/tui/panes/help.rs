//! The help overlay: every key and mouse action, from the keymap's own table.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use crate::tui::keymap::HELP;
use crate::tui::theme::Theme;

/// Draws the help overlay centred in `frame`.
pub fn draw(frame: &mut Frame, area: Rect, theme: &Theme) {
    frame.render_widget(Clear, area);
    let block = Block::bordered()
        .border_style(theme.border_focused)
        .title(" Help · ? or Esc closes ")
        .title_style(theme.title);
    let lines: Vec<Line> = HELP
        .iter()
        .map(|&(keys, what)| {
            if keys.is_empty() {
                if what.chars().next().is_some_and(char::is_uppercase) && what.len() < 12 {
                    Line::styled(what, theme.title)
                } else {
                    Line::raw(format!(" {what}"))
                }
            } else {
                Line::from(vec![
                    Span::styled(format!(" {keys:<18}"), theme.key),
                    Span::raw(what),
                ])
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
