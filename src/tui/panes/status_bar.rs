//! The status bar: the result or whose turn it is, what the engine does, the last message,
//! and the few keys that matter right now.

use std::fmt::Write;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{seconds, spinner};
use crate::engine::clock::clock_text;
use crate::engine::{Outcome, Player, Scoring};
use crate::games::Playable;
use crate::session::Session;
use crate::tui::driver::Pending;
use crate::tui::keymap::{self, Situation};
use crate::tui::theme::Theme;
use crate::tui::view_state::Message;
use crate::tui::worker::Purpose;

/// What the status bar shows.
pub struct StatusBar<'a, G: Playable> {
    /// The game.
    pub session: &'a Session<G>,
    /// Which sides a human plays.
    pub humans: [bool; 2],
    /// Which sides an external brain plays.
    pub brains: [bool; 2],
    /// The running search.
    pub pending: Option<Pending>,
    /// Engine-vs-engine play is paused.
    pub paused: bool,
    /// The clock, in ticks.
    pub tick: u64,
    /// The time left on each side's match clock (`None`: no clock), a human's thinking so
    /// far taken off.
    pub clocks: [Option<std::time::Duration>; 2],
    /// The side that lost on time, when the position shown is where play goes on.
    pub lost_on_time: Option<Player>,
    /// The status message.
    pub message: Option<&'a Message>,
    /// What decides the key hints.
    pub situation: Situation,
    /// The styles.
    pub theme: &'a Theme,
}

impl<G: Playable> StatusBar<'_, G> {
    fn is_human(&self, player: Player) -> bool {
        self.humans[player.index()]
    }

    fn engines_only(&self) -> bool {
        self.humans == [false, false]
    }

    /// The first line's state text, in `width` columns where it can: a human's standing
    /// clock (the side not to move) is left out when the rest needs the room.
    pub fn state_text(&self, width: usize) -> String {
        let session = self.session;
        // Said after the turn when it fits: " · O 3:05 left".
        let mut standing = None;
        let game = session.current();
        let who_won = |winner: Player| {
            if self.is_human(winner) && !self.engines_only() {
                " (you)"
            } else if self.engines_only() || self.is_human(winner.other()) {
                " (engine)"
            } else {
                ""
            }
        };
        let lost_on_time = self.lost_on_time.filter(|_| game.outcome().is_none());
        let mut text = match (game.outcome(), lost_on_time) {
            (None, Some(loser)) => {
                let winner = loser.other();
                format!(
                    "{}{} wins on time: {}'s clock ran out",
                    G::side_name(winner),
                    who_won(winner),
                    G::side_name(loser)
                )
            }
            (Some(Outcome::Win { winner, margin }), _) => {
                let name = G::side_name(winner);
                let who = who_won(winner);
                if G::SCORING == Scoring::Margin {
                    format!("{name}{who} wins by {margin}")
                } else {
                    format!("{name}{who} wins")
                }
            }
            (Some(Outcome::Draw), _) => "Draw".to_string(),
            (None, None) => {
                let side = game.to_move();
                let who = if self.is_human(side) {
                    "you"
                } else if self.brains[side.index()] {
                    "brain"
                } else {
                    "engine"
                };
                // The move shown last earned the mover another one (Kalah's store, a box).
                let again = session.last_step().is_some_and(|s| s.mover == side);
                let mut text = if again {
                    format!("{} to move again ({who}): extra turn", G::side_name(side))
                } else {
                    format!("{} to move ({who})", G::side_name(side))
                };
                // A human's clock shows here (an engine's in the engine pane): running for
                // the side to move, standing for the other.
                if let Some(left) = self.clocks[side.index()].filter(|_| self.is_human(side)) {
                    let _ = write!(text, " · {}", clock_text(left));
                }
                let other = side.other();
                if let Some(left) = self.clocks[other.index()].filter(|_| self.is_human(other)) {
                    standing = Some(format!(" · {} {}", G::side_name(other), clock_text(left)));
                }
                text
            }
        };
        let mut tail = String::new();
        if !session.at_end() {
            let _ = write!(
                tail,
                " · viewing move {} of {}",
                session.cursor(),
                session.steps().len()
            );
        }
        if let Some(p) = self.pending {
            let what = match p.purpose {
                Purpose::Move if p.hurried => "moving now",
                Purpose::Move => "thinking",
                Purpose::Hint => "finding a hint",
                Purpose::Tree => "recording a search",
                Purpose::Compare => "comparing searches",
            };
            let _ = write!(
                tail,
                " · {} {what} {}",
                spinner(self.tick),
                seconds(self.tick - p.started)
            );
        } else if self.paused && game.outcome().is_none() && lost_on_time.is_none() {
            tail.push_str(" · paused");
        }
        if let Some(standing) = standing {
            let len = |s: &str| s.chars().count();
            if len(&text) + len(&standing) + len(&tail) <= width {
                text.push_str(&standing);
            }
        }
        text + &tail
    }
}

/// The keys worth showing now: for an open dialog or the help its answers, else for the
/// focused pane and the state of the game (read from the key table).
pub fn key_hints(situation: &Situation) -> Vec<(&'static str, &'static str)> {
    keymap::hints(situation)
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
pub fn draw<G: Playable>(frame: &mut Frame, bar: &StatusBar<G>, area: Rect) {
    let theme = bar.theme;
    let width = usize::from(area.width);
    let state = bar.state_text(width);
    let mut first = vec![Span::styled(state.clone(), theme.title)];
    let mut second = Vec::new();
    let mut used = 0;
    if let Some(message) = bar.message {
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
    for (key, what) in fitting(&key_hints(&bar.situation), width.saturating_sub(used)) {
        second.push(Span::styled(key, theme.key));
        second.push(Span::styled(format!(" {what}  "), theme.dim));
    }
    frame.render_widget(
        Paragraph::new(vec![Line::from(first), Line::from(second)]),
        area,
    );
}
