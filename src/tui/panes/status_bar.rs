//! The status bar: the result or whose turn it is, what the engine does, the last message,
//! and the few keys that matter right now.

use std::fmt::Write;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{seconds, spinner};
use crate::engine::{Outcome, Scoring};
use crate::tui::action::Pane;
use crate::tui::app::App;
use crate::tui::boards::HasBoard;
use crate::tui::worker::Purpose;

/// The first line's state text (also used by tests).
pub fn state_text<G: HasBoard>(app: &App<G>) -> String {
    let session = &app.session;
    let game = session.current();
    let mut text = match game.outcome() {
        Some(Outcome::Win { winner, margin }) => {
            let name = G::side_name(winner);
            let who = if app.is_human(winner) && !app.engines_only() {
                " (you)"
            } else if app.engines_only() || app.is_human(winner.other()) {
                " (engine)"
            } else {
                ""
            };
            if G::SCORING == Scoring::Margin {
                format!("{name}{who} wins by {margin}")
            } else {
                format!("{name}{who} wins")
            }
        }
        Some(Outcome::Draw) => "Draw".to_string(),
        None => {
            let side = game.to_move();
            let who = if app.is_human(side) { "you" } else { "engine" };
            // The move shown last earned the mover another one (Kalah's store, a box).
            let again = session.last_step().is_some_and(|s| s.mover == side);
            if again {
                format!("{} to move again ({who}): extra turn", G::side_name(side))
            } else {
                format!("{} to move ({who})", G::side_name(side))
            }
        }
    };
    if !session.at_end() {
        let _ = write!(
            text,
            " · viewing move {} of {}",
            session.cursor(),
            session.steps().len()
        );
    }
    if let Some(p) = app.engine.pending {
        let what = match p.purpose {
            Purpose::Move if p.hurried => "moving now",
            Purpose::Move => "thinking",
            Purpose::Hint => "finding a hint",
            Purpose::Tree => "recording a search",
            Purpose::Compare => "comparing searches",
        };
        let _ = write!(
            text,
            " · {} {what} {}",
            spinner(app.view.tick),
            seconds(app.view.tick - p.started)
        );
    } else if app.paused && app.session.current().outcome().is_none() {
        text.push_str(" · paused");
    }
    text
}

/// The keys worth showing while the tree pane has the focus.
fn tree_hints<G: HasBoard>(app: &App<G>) -> Vec<(&'static str, &'static str)> {
    let mut keys = Vec::new();
    let pending = app.engine.pending.map(|p| p.purpose);
    if matches!(pending, Some(Purpose::Tree | Purpose::Compare)) {
        keys.push(("Esc", "stop"));
    }
    if app.trees.shown().is_some() {
        keys.extend([
            ("↑↓", "select"),
            ("←→", "close/open"),
            ("p", "PV"),
            ("*", "subtree"),
            ("c", "collapse"),
        ]);
    }
    if app.trees.trees.len() > 1 {
        keys.push(("1-9", "tree"));
    }
    keys.extend([("t", "search"), ("v", "compare")]);
    if !matches!(pending, Some(Purpose::Tree | Purpose::Compare)) {
        keys.push(("Esc", "live board"));
    }
    if pending == Some(Purpose::Move) {
        keys.push(("m", "move now"));
    }
    if app.engines_only() && app.session.current().outcome().is_none() {
        keys.push(("Space", if app.paused { "resume" } else { "pause" }));
    }
    keys.extend([("Tab", "focus"), ("?", "help"), ("q", "quit")]);
    keys
}

/// The keys worth showing now: for an open dialog or the help its answers, else for the
/// focused pane and the state of the game.
pub fn key_hints<G: HasBoard>(app: &App<G>) -> Vec<(&'static str, &'static str)> {
    if app.view.dialog.is_some() {
        return vec![("y ⏎", "yes"), ("n Esc", "no"), ("Ctrl-c", "quit now")];
    }
    if app.view.help {
        return vec![("↑↓ PgUp PgDn", "scroll"), ("? Esc", "close")];
    }
    if app.view.focus == Pane::Tree {
        return tree_hints(app);
    }
    let game = app.session.current();
    let mut keys = Vec::new();
    if app
        .engine
        .pending
        .is_some_and(|p| p.purpose == Purpose::Move)
    {
        keys.push(("Esc", "move now"));
    }
    if app.engines_only() && game.outcome().is_none() {
        keys.push(("Space", if app.paused { "resume" } else { "pause" }));
        if app.paused {
            keys.push((".", "one move"));
        }
    }
    match app.view.focus {
        Pane::Board => {
            if !app.engines_only() && game.outcome().is_none() && app.is_human(game.to_move()) {
                keys.push(("←↑↓→", "move"));
                keys.push(("⏎", "play"));
                keys.push(("H", "hint"));
            }
        }
        Pane::Moves => {
            keys.push(("↑↓", "step"));
            keys.push(("PgUp PgDn", "scroll"));
            keys.push(("Home", "start"));
        }
        Pane::Engine => keys.push(("↑↓ PgUp PgDn", "scroll")),
        Pane::Tree => {}
    }
    if !app.session.at_end() {
        keys.push(("r", "redo"));
        keys.push(("End", "latest"));
    }
    if app.session.cursor() > 0 {
        keys.push(("u", "undo"));
    }
    if game.outcome().is_some() {
        keys.push(("n", "new game"));
    }
    keys.extend([
        ("s", "save"),
        ("t", "tree"),
        ("o", "setup"),
        ("Tab", "focus"),
        ("?", "help"),
        ("q", "quit"),
    ]);
    keys
}

/// Width of a hint as drawn: `key what` and two spaces.
fn hint_width((key, what): (&str, &str)) -> usize {
    key.chars().count() + what.chars().count() + 3
}

/// The hints that fit in `width` columns: the last two (help and quit) always, the others in
/// order as long as they fit.
fn fitting(
    hints: &[(&'static str, &'static str)],
    width: usize,
) -> Vec<(&'static str, &'static str)> {
    let split = hints.len().saturating_sub(2);
    let (rest, last) = hints.split_at(split);
    let mut room = width.saturating_sub(last.iter().map(|&h| hint_width(h)).sum());
    let mut out = Vec::new();
    for &hint in rest {
        let w = hint_width(hint);
        if w > room {
            break;
        }
        room -= w;
        out.push(hint);
    }
    out.extend_from_slice(last);
    out
}

/// Draws the status bar into `area` (two rows). A message goes after the state when it fits
/// there, else it takes the second row before the keys.
pub fn draw<G: HasBoard>(frame: &mut Frame, app: &App<G>, area: Rect) {
    let theme = &app.theme;
    let width = usize::from(area.width);
    let state = state_text(app);
    let mut first = vec![Span::styled(state.clone(), theme.title)];
    let mut second = Vec::new();
    let mut used = 0;
    if let Some(message) = &app.view.message {
        let style = if message.is_error {
            theme.error
        } else {
            theme.info
        };
        let len = message.text.chars().count();
        if state.chars().count() + 2 + len <= width {
            first.push(Span::raw("  "));
            first.push(Span::styled(message.text.clone(), style));
        } else {
            second.push(Span::styled(format!("{}  ", message.text), style));
            used = len + 2;
        }
    }
    for (key, what) in fitting(&key_hints(app), width.saturating_sub(used)) {
        second.push(Span::styled(key, theme.key));
        second.push(Span::styled(format!(" {what}  "), theme.dim));
    }
    frame.render_widget(
        Paragraph::new(vec![Line::from(first), Line::from(second)]),
        area,
    );
}
