//! The search-tree pane: a placeholder until the tree browser is built.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

use super::pane_block;
use crate::tui::action::Pane;
use crate::tui::app::App;
use crate::tui::boards::HasBoard;
use crate::tui::layout;

/// Draws the tree pane into `area`.
pub fn draw<G: HasBoard>(frame: &mut Frame, app: &App<G>, area: Rect) {
    frame.render_widget(
        pane_block(Pane::Tree, app.view.focus, "Search tree", &app.theme),
        area,
    );
    let text = vec![
        Line::styled("The tree browser is coming.", app.theme.dim),
        Line::styled(
            "Meanwhile `gametree tree GAME` prints the tree.",
            app.theme.dim,
        ),
    ];
    frame.render_widget(
        Paragraph::new(text).wrap(Wrap { trim: true }),
        layout::inner(area),
    );
}
