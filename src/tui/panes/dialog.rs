//! A yes/no question in a box, with clickable buttons at the places `layout` says.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use crate::tui::layout;
use crate::tui::theme::Theme;

/// Draws the question in `area` (from [`layout::dialog`]).
pub fn draw(frame: &mut Frame, area: Rect, question: &str, theme: &Theme) {
    frame.render_widget(Clear, area);
    let block = Block::bordered()
        .border_style(theme.border_focused)
        .title(" Confirm ")
        .title_style(theme.title);
    let text = vec![Line::raw(""), Line::raw(question.to_string()).centered()];
    frame.render_widget(
        Paragraph::new(text).wrap(Wrap { trim: true }).block(block),
        area,
    );
    let (yes, no) = layout::dialog_buttons(area);
    frame.render_widget(Paragraph::new("[ Yes y ]").style(theme.key), yes);
    frame.render_widget(Paragraph::new("[ No n ]").style(theme.key), no);
}
