//! Draws the game screen from the app: layout first, then each pane, then overlays.
//! Reads only; the same layout function decides mouse hits.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

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
            panes::board::draw(frame, app, areas.board);
            panes::log::draw(frame, app, areas.moves);
            if areas.engine.height > 0 {
                panes::stats::draw(frame, app, areas.engine);
            }
            panes::tree::draw(frame, app, areas.tree);
            panes::status_bar::draw(frame, app, areas.status);
            if app.view.help {
                panes::help::draw(frame, layout::help(area), app.view.help_scroll, &app.theme);
            }
            if let Some(dialog) = &app.view.dialog {
                panes::dialog::draw(frame, layout::dialog(area), &dialog.question(), &app.theme);
            }
        }
    }
}

/// The message shown instead of a layout that does not fit.
pub fn too_small(frame: &mut Frame, area: Rect, need: ratatui::layout::Size, theme: &Theme) {
    let text = vec![
        Line::styled("Enlarge the terminal", theme.error).centered(),
        Line::raw(format!(
            "it is {}x{}; this screen needs at least {}x{}",
            area.width, area.height, need.width, need.height
        ))
        .centered(),
        Line::styled("q quits", theme.dim).centered(),
    ];
    let height = 3.min(area.height);
    let middle = Rect::new(
        area.x,
        area.y + (area.height - height) / 2,
        area.width,
        height,
    );
    frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), middle);
}
