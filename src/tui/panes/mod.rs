//! The widgets of the game screen. Each borrows what it shows and draws into its area;
//! none changes state.

pub mod board;
pub mod dialog;
pub mod help;
pub mod log;
pub mod setup;
pub mod stats;
pub mod status_bar;
pub mod tree;

use ratatui::widgets::{Block, BorderType};

use super::action::Pane;
use super::theme::Theme;

/// The bordered block of a pane, highlighted when it has the focus.
pub fn pane_block<'a>(pane: Pane, focus: Pane, title: &str, theme: &Theme) -> Block<'a> {
    let focused = pane == focus;
    Block::bordered()
        .border_type(if focused {
            BorderType::Thick
        } else {
            BorderType::Plain
        })
        .border_style(if focused {
            theme.border_focused
        } else {
            theme.border
        })
        .title(format!(" {title} "))
        .title_style(if focused {
            theme.title.patch(theme.border_focused)
        } else {
            theme.title
        })
}

/// The first of `titles` (longest first) that fits in the top border of a pane `width`
/// columns wide, so a narrow pane says less instead of cutting a word; the last one, cut,
/// when none fits.
pub fn fit_title(titles: &[String], width: u16) -> String {
    // The corners and a space each side of the title.
    let room = usize::from(width.saturating_sub(4));
    titles
        .iter()
        .find(|t| t.chars().count() <= room)
        .or(titles.last())
        .map(|t| t.chars().take(room).collect())
        .unwrap_or_default()
}

/// The spinner frame for a tick.
pub fn spinner(tick: u64) -> &'static str {
    const FRAMES: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
    FRAMES[(tick % FRAMES.len() as u64) as usize]
}

/// Seconds from ticks, as `1.2s`.
pub fn seconds(ticks: u64) -> String {
    format!(
        "{:.1}s",
        ticks as f64 * super::event::TICK_MS as f64 / 1000.0
    )
}
