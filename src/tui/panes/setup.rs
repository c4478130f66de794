//! Draws the setup screen from its state: headings, one line per setting with a column per
//! side, the error under the field it belongs to, and the keys at the bottom.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};

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
    let title = if state.kept.is_some() {
        " gametree · setup · Esc: back to the game "
    } else {
        " gametree · new game "
    };
    let block = Block::bordered()
        .border_style(theme.border_focused)
        .title(title)
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
            SetupLine::Row(row) => row_line(state, row, row == selected, theme),
        });
    }
    frame.render_widget(Paragraph::new(lines).block(block), form);
    // The keys, under the box and as wide as it, wrapped when they do not fit.
    let help_y = form.bottom();
    if help_y < area.bottom() {
        let mut keys = vec![];
        for (key, what) in hints(state) {
            keys.push(Span::styled(key, theme.key));
            keys.push(Span::styled(format!(" {what}  "), theme.dim));
        }
        frame.render_widget(
            Paragraph::new(Line::from(keys)).wrap(Wrap { trim: true }),
            Rect::new(form.x, help_y, form.width, area.bottom() - help_y),
        );
    }
    if let Some(question) = state.question() {
        crate::tui::panes::dialog::draw(frame, crate::tui::layout::dialog(area), &question, theme);
    }
}

/// One row of the form: its label, then its value (one per side on per-side rows).
fn row_line<'a>(state: &SetupState, row: Row, is_selected_row: bool, theme: &Theme) -> Line<'a> {
    let label_style = if is_selected_row {
        theme.key
    } else {
        theme.dim
    };
    let marker = if is_selected_row { "▸ " } else { "  " };
    let mut spans = vec![Span::styled(
        fit(
            &format!("{marker}{}", state.label(row)),
            usize::from(LABEL_W),
        ),
        label_style,
    )];
    let sides: &[Player] = if row.is_per_side() {
        &[Player::First, Player::Second]
    } else {
        &[Player::First]
    };
    for &side in sides {
        let is_selected = is_selected_row && (!row.is_per_side() || side == state.column);
        let editing = state.editing.as_ref().filter(|_| is_selected);
        let value = state.value(row, side);
        let text = match editing {
            Some(edit) => format!("{edit}▏"),
            // An empty field still shows where it is.
            None if value.is_empty() && row == Row::Load => "(type a file name)".to_string(),
            None => value,
        };
        let width = if row.is_per_side() {
            usize::from(COLUMN_W)
        } else {
            usize::from(COLUMN_W * 2)
        };
        let style = if is_selected {
            theme.selected
        } else if row == Row::Start {
            theme.key
        } else if !state.applies(row, side) || (row == Row::Load && state.load_path.is_empty()) {
            theme.dim
        } else {
            Style::new()
        };
        if is_selected {
            // The selection covers the value and one cell more, so even an empty one shows.
            let shown: String = text.chars().take(width - 1).collect();
            let used = shown.chars().count();
            spans.push(Span::styled(format!("{shown} "), style));
            spans.push(Span::raw(" ".repeat(width.saturating_sub(used + 1))));
        } else {
            spans.push(Span::styled(fit(&text, width), style));
        }
    }
    Line::from(spans)
}

/// The keys that matter now.
fn hints(state: &SetupState) -> Vec<(&'static str, &'static str)> {
    if state.confirm.is_some() {
        return vec![("y", "yes"), ("n Esc", "no")];
    }
    if state.editing.is_some() {
        return vec![
            ("⏎", "accept"),
            ("Esc", "cancel"),
            ("⌫", "erase"),
            ("Ctrl-c", "quit"),
        ];
    }
    let row = state.row();
    let mut keys = vec![("↑↓", "choose")];
    if row.is_per_side() {
        keys.push(("←→", "side"));
    } else if !row.is_text() && row != Row::Start {
        keys.push(("←→", "value"));
    }
    if row.is_text() {
        keys.push(("type", "edit"));
    } else if row != Row::Start {
        keys.push(("Space", "change"));
    }
    keys.push(match row {
        Row::Load => ("⏎", "load"),
        Row::Weights => ("⏎", "show/hide"),
        _ => ("⏎", "start"),
    });
    if state.kept.is_some() {
        keys.push(("Esc", "back to the game"));
    }
    keys.push(if row.is_text() {
        ("F1", "help")
    } else {
        ("?", "help")
    });
    // On a text row q types; Ctrl-c still quits.
    keys.push(if row.is_text() {
        ("Ctrl-c", "quit")
    } else {
        ("q", "quit")
    });
    keys
}
