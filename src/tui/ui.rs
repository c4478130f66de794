//! Draws the game screen from the app: layout first, then each pane with the pieces it
//! draws, then overlays. Reads only; the same layout function decides mouse hits.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use super::app::App;
use super::boards::HasBoard;
use super::layout::{self, Areas};
use super::panes;
use super::theme::Theme;

/// Draws the whole game screen.
pub fn draw<G: HasBoard>(frame: &mut Frame, app: &App<G>) {
    let area = frame.area();
    match layout::areas(area, app.board_min(), app.view.focus) {
        Areas::TooSmall { need } => too_small(frame, area, need, &app.theme),
        Areas::Panes(areas) => {
            panes::board::draw(frame, &app.board_pane(), areas.board);
            panes::log::draw(
                frame,
                &app.session,
                app.view.focus,
                app.view.log_offset,
                &app.theme,
                areas.moves,
            );
            if areas.engine.height > 0 {
                panes::stats::draw(frame, &app.engine_pane(), areas.engine);
            }
            panes::tree::draw(frame, &app.tree_pane(), areas.tree);
            panes::status_bar::draw(frame, &app.status_bar(), areas.status);
            if app.view.help {
                panes::help::draw(frame, layout::help(area), app.view.help_scroll, &app.theme);
            }
            if let Some(dialog) = &app.view.dialog {
                panes::dialog::draw(frame, layout::dialog(area), &dialog.question(), &app.theme);
            }
        }
    }
}

/// The message shown instead of a layout that does not fit: what size is needed, and that
/// `q` quits, each line wrapped to the width so none is pushed out of sight.
pub fn too_small(frame: &mut Frame, area: Rect, need: ratatui::layout::Size, theme: &Theme) {
    let parts = [
        ("Enlarge the terminal".to_string(), theme.error),
        (
            format!(
                "it is {}x{}; this screen needs at least {}x{}",
                area.width, area.height, need.width, need.height
            ),
            ratatui::style::Style::new(),
        ),
        ("q quits".to_string(), theme.key),
    ];
    let mut text: Vec<Line> = parts
        .iter()
        .flat_map(|(part, style)| {
            super::tree_browser::wrap(part, area.width)
                .into_iter()
                .map(move |l| Line::styled(l, *style).centered())
        })
        .collect();
    // On a very short terminal "q quits" matters more than the sizes.
    while text.len() > usize::from(area.height) && text.len() > 1 {
        text.remove(text.len() - 2);
    }
    let height = (text.len() as u16).min(area.height);
    let middle = Rect::new(
        area.x,
        area.y + (area.height - height) / 2,
        area.width,
        height,
    );
    frame.render_widget(Paragraph::new(text), middle);
}
