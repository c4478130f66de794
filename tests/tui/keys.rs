//! Key sequences fed to `App::update`: play, undo and redo, stepping and branching, move
//! now, hints, pause and pace, dialogs, saving, messages, key hints and the help overlay.

use gametree::engine::{Game, Player};
use gametree::games::kalah::Kalah;
use gametree::games::tictactoe::TicTacToe;
use gametree::session::{Session, parse_saved};
use gametree::tui::action::Pane;
use gametree::tui::app::{App, Effect};
use gametree::tui::event::Event;
use gametree::tui::panes::status_bar::key_hints;
use gametree::tui::view_state::{Dialog, MESSAGE_TICKS};
use gametree::tui::worker::Purpose;
use ratatui::crossterm::event::{Event as CtEvent, KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Position;
use ratatui::style::Modifier;

use crate::helpers::{
    ch, click, config, feed, finished, key, new_app, notations, play_line, render, screen,
    search_id, spot, ttt,
};

#[test]
fn keyboard_play_against_the_engine() {
    let mut app = new_app::<TicTacToe>(&config(true, false));
    assert!(app.start().is_empty(), "X is human: nobody searches yet");
    // The cursor starts at b2; move it left to a2, then play.
    let fx = feed(&mut app, vec![key(KeyCode::Left), key(KeyCode::Enter)]);
    assert_eq!(notations(&app), ["a2"]);
    let id = search_id(&fx, Purpose::Move);
    // Keys are answered while the engine thinks.
    feed(&mut app, vec![ch('?')]);
    assert!(app.view.help);
    feed(&mut app, vec![key(KeyCode::Esc)]);
    assert!(!app.view.help);
    assert!(app.engine.pending.is_some());
    feed(&mut app, vec![finished(id, ttt("b2"), 0)]);
    assert_eq!(notations(&app), ["a2", "b2"]);
    assert_eq!(app.session.steps()[1].value, Some(0));
    assert!(app.engine.pending.is_none());
    // hjkl move too: from a2, l goes right past the taken b2 to c2.
    feed(&mut app, vec![ch('l'), ch(' ')]);
    assert_eq!(notations(&app), ["a2", "b2", "c2"]);
}

#[test]
fn undo_and_redo_take_the_engine_reply_with_the_human_move() {
    let mut app = new_app::<TicTacToe>(&config(true, false));
    app.start();
    let fx = feed(&mut app, vec![key(KeyCode::Enter)]);
    feed(
        &mut app,
        vec![finished(search_id(&fx, Purpose::Move), ttt("a1"), 0)],
    );
    // The cursor left the filled b2 for the nearest free cell, c2; up from there is c3.
    assert_eq!(app.view.cursor, ttt("c2"));
    feed(&mut app, vec![key(KeyCode::Up), key(KeyCode::Enter)]);
    let id = app.engine.pending.unwrap().id;
    feed(&mut app, vec![finished(id, ttt("c1"), 0)]);
    assert_eq!(notations(&app), ["b2", "a1", "c3", "c1"]);
    // u takes back the engine's c1 and the human's c3 together.
    let fx = feed(&mut app, vec![ch('u')]);
    assert_eq!(app.session.cursor(), 2);
    assert!(fx.is_empty(), "X is to move: no search");
    assert_eq!(app.session.current().to_move(), Player::First);
    feed(&mut app, vec![ch('u')]);
    assert_eq!(app.session.cursor(), 0);
    // Redo replays whole turns; Ctrl-r too.
    feed(&mut app, vec![ch('r')]);
    assert_eq!(app.session.cursor(), 2);
    feed(
        &mut app,
        vec![Event::Input(CtEvent::Key(KeyEvent::new(
            KeyCode::Char('r'),
            KeyModifiers::CONTROL,
        )))],
    );
    assert_eq!(app.session.cursor(), 4);
    // After an undo, a new move drops the taken-back moves without asking (like redo).
    feed(&mut app, vec![ch('u')]);
    app.view.cursor = ttt("b3");
    let fx = feed(&mut app, vec![key(KeyCode::Enter)]);
    assert!(app.view.dialog.is_none());
    assert_eq!(notations(&app), ["b2", "a1", "b3"]);
    assert_eq!(
        search_id(&fx, Purpose::Move),
        app.engine.pending.unwrap().id
    );
}

#[test]
fn undo_while_the_engine_thinks_cancels_it_and_ignores_its_late_answer() {
    let mut app = new_app::<TicTacToe>(&config(true, false));
    let fx = feed(&mut app, vec![key(KeyCode::Enter)]);
    let id = search_id(&fx, Purpose::Move);
    let fx = feed(&mut app, vec![ch('u')]);
    assert!(fx.contains(&Effect::Stop));
    assert!(app.engine.pending.is_none());
    assert_eq!(app.session.cursor(), 0);
    // The stopped search still answers; the answer is stale and changes nothing.
    feed(&mut app, vec![finished(id, ttt("a1"), 0)]);
    assert_eq!(app.session.cursor(), 0);
    assert_eq!(notations(&app), ["b2"]);
}

#[test]
fn move_now_stops_the_search_and_plays_its_answer() {
    let mut app = new_app::<TicTacToe>(&config(true, false));
    let fx = feed(&mut app, vec![key(KeyCode::Enter)]);
    let id = search_id(&fx, Purpose::Move);
    let fx = feed(&mut app, vec![key(KeyCode::Esc)]);
    assert_eq!(fx, [Effect::Stop]);
    assert!(app.engine.pending.unwrap().hurried);
    let buf = render(&mut app, 80, 24);
    assert!(screen(&buf).contains("moving now"));
    feed(&mut app, vec![finished(id, ttt("c3"), 5)]);
    assert_eq!(notations(&app), ["b2", "c3"]);
}

#[test]
fn stepping_back_keeps_the_later_moves_and_branching_asks_first() {
    let mut app = new_app::<TicTacToe>(&config(true, true));
    play_line(&mut app, "a1 b2 c3");
    feed(&mut app, vec![ch('['), ch('[')]);
    assert_eq!(app.session.cursor(), 1);
    assert_eq!(app.session.steps().len(), 3);
    assert!(screen(&render(&mut app, 80, 24)).contains("viewing move 1 of 3"));
    // Forward and back through the Moves pane with arrows.
    feed(&mut app, vec![key(KeyCode::Tab)]);
    assert_eq!(app.view.focus, Pane::Moves);
    feed(&mut app, vec![key(KeyCode::Down), key(KeyCode::Up)]);
    assert_eq!(app.session.cursor(), 1);
    feed(&mut app, vec![key(KeyCode::BackTab)]);
    // Playing here would drop b2 and c3: a question first; "no" changes nothing.
    app.view.cursor = ttt("c1");
    feed(&mut app, vec![key(KeyCode::Enter)]);
    assert_eq!(
        app.view.dialog,
        Some(Dialog::Branch {
            mv: ttt("c1"),
            dropped: 2
        })
    );
    assert!(screen(&render(&mut app, 80, 24)).contains("drops the 2 later moves"));
    feed(&mut app, vec![ch('n')]);
    assert_eq!(notations(&app), ["a1", "b2", "c3"]);
    // "yes" starts the new branch.
    feed(&mut app, vec![key(KeyCode::Enter), ch('y')]);
    assert_eq!(notations(&app), ["a1", "c1"]);
    assert!(app.session.at_end());
}

#[test]
fn help_overlay_lists_keys_and_mouse_and_closes() {
    let mut app = new_app::<TicTacToe>(&config(true, false));
    feed(&mut app, vec![ch('?')]);
    let text = screen(&render(&mut app, 80, 24));
    for needle in ["Help", "undo your turn", "Search tree"] {
        assert!(text.contains(needle), "{needle} missing:\n{text}");
    }
    // At 80x24 it scrolls to its end; on a tall terminal it shows every line at once.
    assert!(!text.contains("Branching"), "{text}");
    feed(&mut app, vec![key(KeyCode::PageDown); 5]);
    let text = screen(&render(&mut app, 80, 24));
    for needle in [
        "Mouse",
        "scrolls the pane under the pointer",
        "click a tree row",
    ] {
        assert!(text.contains(needle), "{needle} missing:\n{text}");
    }
    feed(&mut app, vec![key(KeyCode::Up); 100]);
    let tall = screen(&render(&mut app, 120, 60));
    for needle in ["undo your turn", "principal variation", "Branching"] {
        assert!(tall.contains(needle), "{needle} missing:\n{tall}");
    }
    // Keys other than close do nothing while it is open.
    feed(&mut app, vec![key(KeyCode::Enter)]);
    assert!(!app.view.help);
    assert!(app.session.steps().is_empty());
    feed(&mut app, vec![ch('?'), click(Position::new(1, 1))]);
    assert!(!app.view.help);
}

#[test]
fn hint_is_shown_on_the_board_with_its_value() {
    let mut app = new_app::<TicTacToe>(&config(true, false));
    let fx = feed(&mut app, vec![ch('H')]);
    let id = search_id(&fx, Purpose::Hint);
    feed(&mut app, vec![finished(id, ttt("c3"), 0)]);
    assert_eq!(app.engine.hint, Some((ttt("c3"), 0)));
    assert_eq!(app.view.cursor, ttt("c3"));
    let buf = render(&mut app, 80, 24);
    assert!(screen(&buf).contains("Hint: c3 (+0)"));
    let at = spot(&app, ttt("c3"));
    // The cursor sits on the hint in a style of its own, not reversed: reversing the hint's
    // colours would hide them.
    assert_eq!(buf[at].bg, app.theme.hint_cursor.bg.unwrap());
    assert!(!buf[at].modifier.contains(Modifier::REVERSED));
    assert_ne!(app.theme.hint_cursor, app.theme.cursor);
    assert_ne!(app.theme.hint_cursor, app.theme.hint);
    // Moved off it, the hint keeps its colour and the cursor is reversed elsewhere.
    feed(&mut app, vec![key(KeyCode::Left)]);
    let buf = render(&mut app, 80, 24);
    assert_eq!(buf[at].bg, app.theme.hint.bg.unwrap());
    assert!(screen(&buf).contains("hint for X"));
    // Playing clears it.
    feed(&mut app, vec![key(KeyCode::Enter)]);
    assert_eq!(app.engine.hint, None);
}

#[test]
fn engine_against_itself_keeps_a_pace_pauses_and_steps() {
    let mut config = config(false, false);
    config.ui.engine_pace_ms = 300;
    let mut app = new_app::<TicTacToe>(&config);
    let fx = app.start();
    let id = search_id(&fx, Purpose::Move);
    let fx = feed(&mut app, vec![finished(id, ttt("b2"), 0)]);
    assert!(fx.is_empty(), "the pace holds the next search");
    let fx = feed(&mut app, vec![Event::Tick, Event::Tick]);
    assert!(fx.is_empty());
    let fx = feed(&mut app, vec![Event::Tick]);
    let id = search_id(&fx, Purpose::Move);
    // Space pauses: the running search is stopped and its answer ignored.
    let fx = feed(&mut app, vec![ch(' ')]);
    assert!(app.engine.paused && fx.contains(&Effect::Stop));
    feed(&mut app, vec![finished(id, ttt("a1"), 0)]);
    assert_eq!(notations(&app), ["b2"]);
    assert!(screen(&render(&mut app, 80, 24)).contains("paused"));
    // "." plays exactly one move while paused.
    let fx = feed(&mut app, vec![ch('.')]);
    let id = search_id(&fx, Purpose::Move);
    let fx = feed(&mut app, vec![finished(id, ttt("a1"), 0)]);
    assert_eq!(notations(&app), ["b2", "a1"]);
    let fx2 = feed(&mut app, vec![Event::Tick; 10]);
    assert!(fx.is_empty() && fx2.is_empty(), "still paused");
    // Space resumes (after the pace).
    let mut fx = feed(&mut app, vec![ch(' ')]);
    fx.extend(feed(&mut app, vec![Event::Tick; 3]));
    search_id(&fx, Purpose::Move);
}

#[test]
fn new_game_asks_when_unsaved_and_starts_over() {
    let mut app = new_app::<TicTacToe>(&config(false, true));
    let fx = app.start();
    let id = search_id(&fx, Purpose::Move);
    feed(&mut app, vec![finished(id, ttt("a1"), 0)]);
    feed(&mut app, vec![key(KeyCode::Enter)]);
    assert_eq!(app.session.steps().len(), 2);
    feed(&mut app, vec![ch('n')]);
    assert_eq!(app.view.dialog, Some(Dialog::NewGame));
    let fx = feed(&mut app, vec![ch('y')]);
    assert!(app.session.steps().is_empty());
    // The engine plays X, so it starts thinking at once.
    search_id(&fx, Purpose::Move);
}

#[test]
fn save_then_load_gives_the_identical_step_list() {
    let dir = std::env::temp_dir().join(format!("gametree-tui-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut app = new_app::<TicTacToe>(&config(true, false));
    let fx = feed(&mut app, vec![key(KeyCode::Enter)]);
    feed(
        &mut app,
        vec![finished(search_id(&fx, Purpose::Move), ttt("a1"), 7)],
    );
    feed(&mut app, vec![key(KeyCode::Up), key(KeyCode::Enter)]);
    let id = app.engine.pending.unwrap().id;
    feed(&mut app, vec![finished(id, ttt("c1"), -3)]);
    feed(&mut app, vec![ch('[')]);
    assert!(feed(&mut app, vec![ch('s')]).contains(&Effect::Save));
    let path = gametree::tui::runner::save_game(&app, &dir).unwrap();
    app.saved(Ok(path.clone()));
    assert!(!app.dirty);
    assert!(screen(&render(&mut app, 80, 24)).contains("Saved to"));
    assert!(
        path.file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("gametree-tictactoe-")
    );
    let saved = gametree::tui::read_saved(&path).unwrap();
    let (loaded, players) = parse_saved::<TicTacToe>(&saved.text, &saved.source).unwrap();
    let original = &app.session;
    assert_eq!(loaded.cursor(), original.cursor());
    let steps = |s: &Session<TicTacToe>| -> Vec<(String, Player, Option<i32>)> {
        s.steps()
            .iter()
            .map(|s| (s.notation.clone(), s.mover, s.value))
            .collect()
    };
    assert_eq!(steps(&loaded), steps(original));
    assert_eq!(loaded.current(), original.current());
    assert_eq!(players, app.players);
    // A damaged or foreign file is refused with a message.
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"format\": \"something-else\"}").unwrap();
    let err = gametree::tui::read_saved(&bad).unwrap_err().to_string();
    assert!(err.contains("not a gametree save"), "{err}");
    std::fs::write(&bad, "{ not json").unwrap();
    assert!(gametree::tui::read_saved(&bad).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

// Messages go at the next action or after a few seconds of ticks; a long one is shown
// whole on the second row.
#[test]
fn status_messages_expire_and_are_not_cut() {
    let mut app = new_app::<TicTacToe>(&config(true, true));
    feed(&mut app, vec![ch('.')]);
    assert!(app.view.message.is_some());
    feed(&mut app, vec![Event::Tick; MESSAGE_TICKS as usize - 1]);
    assert!(app.view.message.is_some(), "still there");
    feed(&mut app, vec![Event::Tick]);
    assert_eq!(app.view.message, None, "expired");
    feed(&mut app, vec![ch('.')]);
    assert!(app.view.message.is_some());
    feed(&mut app, vec![key(KeyCode::Tab)]);
    assert_eq!(app.view.message, None, "the next action takes it away");
    // A message too long to share the first row takes the second, whole.
    let mut app = new_app::<TicTacToe>(&config(true, false));
    feed(&mut app, vec![key(KeyCode::Enter), ch('t')]);
    let text = app.view.message.clone().unwrap().text;
    assert!(text.len() > 50, "{text}");
    let buf = render(&mut app, 80, 24);
    assert!(screen(&buf).contains(&text), "{}", screen(&buf));
    // So is a saved file's name.
    let mut app = new_app::<Kalah>(&config(true, false));
    app.saved(Ok("gametree-kalah-20261122-231105.json".into()));
    assert!(
        screen(&render(&mut app, 80, 24)).contains("Saved to gametree-kalah-20261122-231105.json")
    );
}

// The keys shown follow the focus, dialogs and what can be done now.
#[test]
fn key_hints_follow_focus_dialogs_and_redo() {
    let mut app = new_app::<TicTacToe>(&config(true, true));
    let has = |app: &App<TicTacToe>, key: &str| {
        key_hints(&app.situation()).iter().any(|(k, _)| *k == key)
    };
    assert!(has(&app, "⏎") && has(&app, "H"));
    assert!(!has(&app, "u"), "nothing to undo yet");
    feed(&mut app, vec![key(KeyCode::Tab)]);
    assert_eq!(app.view.focus, Pane::Moves);
    assert!(
        !has(&app, "⏎") && !has(&app, "H"),
        "{:?}",
        key_hints(&app.situation())
    );
    assert!(has(&app, "↑↓") && has(&app, "PgUp PgDn"));
    feed(&mut app, vec![key(KeyCode::BackTab), key(KeyCode::Enter)]);
    assert!(has(&app, "u") && !has(&app, "r"));
    feed(&mut app, vec![ch('u')]);
    assert!(
        has(&app, "r"),
        "redo after an undo: {:?}",
        key_hints(&app.situation())
    );
    feed(&mut app, vec![ch('r'), ch('q')]);
    assert!(app.view.dialog.is_some());
    let keys: Vec<_> = key_hints(&app.situation())
        .iter()
        .map(|(k, _)| *k)
        .collect();
    assert_eq!(keys, ["y ⏎", "n Esc", "Ctrl-c"]);
    let bar = screen(&render(&mut app, 80, 24));
    let last = bar.lines().last().unwrap();
    assert!(last.contains("y ⏎ yes") && !last.contains("hint"), "{last}");
}

// The help lists every key and mouse action, H and the arrows in Moves included.
#[test]
fn help_lists_every_key_and_mouse_action() {
    let help: Vec<String> = gametree::tui::keymap::help()
        .iter()
        .map(|(k, w)| format!("{k} {w}"))
        .collect();
    let all = help.join("\n");
    for needle in [
        "PgUp PgDn",
        "in Moves",
        "hover the board",
        "F1",
        "Ctrl-r",
        "< >",
        "h is left",
        "only while Moves has the focus",
        "scrolls the pane under the pointer",
        "in Engine",
        "Esc returns to it",
        "click a button",
    ] {
        assert!(all.contains(needle), "{needle} missing:\n{all}");
    }
    // Every line fits the overlay at 80 columns.
    let keys_w = gametree::tui::keymap::help()
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap();
    for (keys, what) in gametree::tui::keymap::help() {
        let width = if keys.is_empty() {
            what.chars().count() + 1
        } else {
            keys_w + 2 + what.chars().count()
        };
        assert!(width <= 78, "too wide: {keys} {what}");
    }
}

// Engine against engine holds still behind a dialog.
#[test]
fn engine_games_pause_behind_a_dialog() {
    let mut config = config(false, false);
    config.ui.engine_pace_ms = 300;
    let mut app = new_app::<TicTacToe>(&config);
    let fx = app.start();
    feed(
        &mut app,
        vec![finished(search_id(&fx, Purpose::Move), ttt("b2"), 0)],
    );
    feed(&mut app, vec![ch('q')]);
    assert!(app.view.dialog.is_some(), "an unsaved game asks");
    assert!(
        feed(&mut app, vec![Event::Tick; 10]).is_empty(),
        "no move behind it"
    );
    feed(&mut app, vec![ch('n')]);
    assert!(
        feed(&mut app, vec![Event::Tick; 2]).is_empty(),
        "the pace goes on"
    );
    let fx = feed(&mut app, vec![Event::Tick]);
    let id = search_id(&fx, Purpose::Move);
    // An answer that comes while a dialog is open waits for it to close.
    feed(&mut app, vec![ch('q'), finished(id, ttt("a1"), 0)]);
    assert_eq!(notations(&app), ["b2"]);
    feed(&mut app, vec![key(KeyCode::Esc)]);
    assert_eq!(notations(&app), ["b2", "a1"]);
}

// Undo before the human's first move (the engine opened) has nothing to take back.
#[test]
fn undo_before_the_first_human_move_does_not_replay_the_engine_opening() {
    let mut app = new_app::<TicTacToe>(&config(false, true));
    let fx = app.start();
    // While the engine thinks about its opening, u leaves it thinking.
    let fx2 = feed(&mut app, vec![ch('u')]);
    assert!(fx2.is_empty(), "{fx2:?}");
    assert!(app.engine.pending.is_some());
    feed(
        &mut app,
        vec![finished(search_id(&fx, Purpose::Move), ttt("a1"), 0)],
    );
    let fx = feed(&mut app, vec![ch('u')]);
    assert!(fx.is_empty(), "no new search: {fx:?}");
    assert_eq!(notations(&app), ["a1"]);
    assert_eq!(app.session.cursor(), 1);
    assert_eq!(app.view.message.as_ref().unwrap().text, "Nothing to undo");
}

/// One row of [`keys_and_what_they_do`]: who is human, the keys pressed on a fresh game of
/// Tic-tac-toe, and what must follow (from the app and every effect of the keys).
struct KeyCase {
    what: &'static str,
    humans: (bool, bool),
    keys: &'static [KeyEvent],
    holds: fn(&App<TicTacToe>, &[Effect<TicTacToe>]) -> bool,
}

const fn plain(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

const fn with_ctrl(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::CONTROL)
}

const ENTER: KeyEvent = plain(KeyCode::Enter);

const fn char_key(c: char) -> KeyEvent {
    plain(KeyCode::Char(c))
}

fn searches(fx: &[Effect<TicTacToe>], want: Purpose) -> bool {
    fx.iter()
        .any(|e| matches!(e, Effect::Search { purpose, .. } if *purpose == want))
}

fn is_error(app: &App<TicTacToe>) -> bool {
    app.view.message.as_ref().is_some_and(|m| m.is_error)
}

const KEY_CASES: &[KeyCase] = &[
    KeyCase {
        what: "Enter plays the centre, where the cursor starts",
        humans: (true, true),
        keys: &[ENTER],
        holds: |app, _| notations(app) == ["b2"],
    },
    KeyCase {
        what: "l and k move the cursor right and up before Enter",
        humans: (true, true),
        keys: &[char_key('l'), char_key('k'), ENTER],
        holds: |app, _| notations(app) == ["c3"],
    },
    KeyCase {
        what: "Space plays too while a human plays",
        humans: (true, true),
        keys: &[plain(KeyCode::Down), char_key(' ')],
        holds: |app, _| notations(app) == ["b1"],
    },
    KeyCase {
        what: "u takes the move back",
        humans: (true, true),
        keys: &[ENTER, char_key('u')],
        holds: |app, _| app.session.cursor() == 0 && app.session.steps().len() == 1,
    },
    KeyCase {
        what: "Ctrl-r redoes it",
        humans: (true, true),
        keys: &[ENTER, char_key('u'), with_ctrl(KeyCode::Char('r'))],
        holds: |app, _| app.session.cursor() == 1,
    },
    KeyCase {
        what: "[ views the start and keeps the move; > comes back",
        humans: (true, true),
        keys: &[ENTER, ENTER, char_key('['), char_key('['), char_key('>')],
        holds: |app, _| app.session.cursor() == 1 && app.session.steps().len() == 2,
    },
    KeyCase {
        what: "Home views the start, End the latest position",
        humans: (true, true),
        keys: &[ENTER, plain(KeyCode::Home)],
        holds: |app, _| app.session.cursor() == 0 && !app.session.at_end(),
    },
    KeyCase {
        what: "u with nothing to undo says so",
        humans: (true, false),
        keys: &[char_key('u')],
        holds: |app, _| is_error(app) && app.session.steps().is_empty(),
    },
    KeyCase {
        what: "Tab focuses the move log, Shift-Tab goes round to the tree",
        humans: (true, true),
        keys: &[
            plain(KeyCode::Tab),
            plain(KeyCode::BackTab),
            plain(KeyCode::BackTab),
        ],
        holds: |app, _| app.view.focus == Pane::Tree,
    },
    KeyCase {
        what: "? and F1 toggle the help",
        humans: (true, true),
        keys: &[char_key('?'), char_key('?'), plain(KeyCode::F(1))],
        holds: |app, _| app.view.help,
    },
    KeyCase {
        what: "in the help, q closes it instead of quitting",
        humans: (true, true),
        keys: &[char_key('?'), char_key('q')],
        holds: |app, fx| !app.view.help && !fx.contains(&Effect::Quit),
    },
    KeyCase {
        what: "q quits a game with nothing to lose",
        humans: (true, true),
        keys: &[char_key('q')],
        holds: |_, fx| fx.contains(&Effect::Quit),
    },
    KeyCase {
        what: "q asks first when the game is unsaved",
        humans: (true, true),
        keys: &[ENTER, char_key('q')],
        holds: |app, fx| app.view.dialog == Some(Dialog::Quit) && !fx.contains(&Effect::Quit),
    },
    KeyCase {
        what: "Ctrl-c quits at once, unsaved or not",
        humans: (true, true),
        keys: &[ENTER, with_ctrl(KeyCode::Char('c'))],
        holds: |app, fx| app.view.dialog.is_none() && fx.contains(&Effect::Quit),
    },
    KeyCase {
        what: "n asks first when the game is unsaved, and y starts over",
        humans: (true, true),
        keys: &[ENTER, char_key('n'), char_key('y')],
        holds: |app, _| app.session.steps().is_empty() && app.view.dialog.is_none(),
    },
    KeyCase {
        what: "n answered with Esc keeps the game",
        humans: (true, true),
        keys: &[ENTER, char_key('n'), plain(KeyCode::Esc)],
        holds: |app, _| notations(app) == ["b2"] && app.view.dialog.is_none(),
    },
    KeyCase {
        what: "s saves",
        humans: (true, true),
        keys: &[char_key('s')],
        holds: |_, fx| fx.contains(&Effect::Save),
    },
    KeyCase {
        what: "o opens the setup screen",
        humans: (true, true),
        keys: &[char_key('o')],
        holds: |_, fx| fx.contains(&Effect::Setup),
    },
    KeyCase {
        what: "H asks the engine for a hint",
        humans: (true, false),
        keys: &[char_key('H')],
        holds: |_, fx| searches(fx, Purpose::Hint),
    },
    KeyCase {
        what: "h is the vi key for left, not a hint",
        humans: (true, false),
        keys: &[char_key('h'), ENTER],
        holds: |app, fx| !searches(fx, Purpose::Hint) && notations(app) == ["a2"],
    },
    KeyCase {
        what: "t records a search of the position and focuses the tree",
        humans: (true, true),
        keys: &[char_key('t')],
        holds: |app, fx| searches(fx, Purpose::Tree) && app.view.focus == Pane::Tree,
    },
    KeyCase {
        what: "v compares the searches",
        humans: (true, true),
        keys: &[char_key('v')],
        holds: |_, fx| searches(fx, Purpose::Compare),
    },
    KeyCase {
        what: "m makes the thinking engine move now",
        humans: (false, true),
        keys: &[char_key('m')],
        holds: |app, fx| fx.contains(&Effect::Stop) && app.engine.pending.unwrap().hurried,
    },
    KeyCase {
        what: "Space pauses engine against engine",
        humans: (false, false),
        keys: &[char_key(' ')],
        holds: |app, fx| app.engine.paused && fx.contains(&Effect::Stop),
    },
    KeyCase {
        what: ". plays one engine move while paused",
        humans: (false, false),
        keys: &[char_key('p'), char_key('.')],
        holds: |app, fx| app.engine.paused && searches(&fx[1..], Purpose::Move),
    },
    KeyCase {
        what: ". while not paused says how to pause",
        humans: (true, true),
        keys: &[char_key('.')],
        holds: |app, fx| is_error(app) && fx.is_empty(),
    },
];

/// Keys and what they do, one row each, on a fresh game.
#[test]
fn keys_and_what_they_do() {
    for case in KEY_CASES {
        let mut app = new_app::<TicTacToe>(&config(case.humans.0, case.humans.1));
        let mut fx = app.start();
        for &key in case.keys {
            fx.extend(app.update(Event::Input(CtEvent::Key(key))));
        }
        assert!(
            (case.holds)(&app, &fx),
            "{}: focus {:?}, moves {:?}, dialog {:?}, message {:?}, effects {fx:?}",
            case.what,
            app.view.focus,
            notations(&app),
            app.view.dialog,
            app.view.message
        );
    }
}
