//! The status bar: the result or whose turn it is, what the engine does, the last message,
//! and the few keys that matter right now.

use std::fmt::Write;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{seconds, spinner};
use crate::engine::{Outcome, Scoring};
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
            format!("{} to move ({who})", G::side_name(side))
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

/// The keys worth showing now.
pub fn key_hints<G: HasBoard>(app: &App<G>) -> Vec<(&'static str, &'static str)> {
    if app.view.focus == crate::tui::action::Pane::Tree {
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
    } else if game.outcome().is_none() && app.is_human(game.to_move()) {
        keys.push(("←↑↓→", "move"));
        keys.push(("⏎", "play"));
        keys.push(("H", "hint"));
    }
    if !app.session.at_end() {
        keys.push(("End", "latest"));
    }
    keys.push(("u", "undo"));
    if game.outcome().is_some() {
        keys.push(("n", "new game"));
    }
    keys.push(("s", "save"));
    keys.push(("t", "tree"));
    keys.push(("Tab", "focus"));
    keys.push(("?", "help"));
    keys.push(("q", "quit"));
    keys
}

/// Draws the status bar into `area` (two rows).
pub fn draw<G: HasBoard>(frame: &mut Frame, app: &App<G>, area: Rect) {
    let theme = &app.theme;
    let mut first = vec![Span::styled(state_text(app), theme.title)];
    if let Some(message) = &app.view.message {
        first.push(Span::raw("  "));
        first.push(Span::styled(
            message.text.clone(),
            if message.is_error {
                theme.error
            } else {
                theme.info
            },
        ));
    }
    let mut second = Vec::new();
    for (key, what) in key_hints(app) {
        second.push(Span::styled(key, theme.key));
        second.push(Span::styled(format!(" {what}  "), theme.dim));
    }
    frame.render_widget(
        Paragraph::new(vec![Line::from(first), Line::from(second)]),
        area,
    );
}
