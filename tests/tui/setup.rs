//! The setup screen: validation with ranges, choosing sides and settings, loading, scrolling,
//! text rows, and the setup screen opened from a running game.

use std::sync::mpsc;

use gametree::config::PlayerKind;
use gametree::engine::Player;
use gametree::engine::api::Algorithm as Algo;
use gametree::games::tictactoe::TicTacToe;
use gametree::tui::event::Event;
use gametree::tui::runner::{SetupExit, run_game_and_setup};
use gametree::tui::setup::{Row, SetupOutcome, SetupState};
use gametree::tui::worker::Worker;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    Event as CtEvent, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Position, Rect};
use ratatui::style::Modifier;

use crate::helpers::{Ev, ch, config, find, key, lines, new_app, notations, screen};

fn setup() -> SetupState {
    let mut state = SetupState::new(config(true, false));
    state.frame = Rect::new(0, 0, 80, 24);
    state
}

fn select(state: &mut SetupState, row: Row) {
    state.selected = state.rows().iter().position(|&r| r == row).unwrap();
}

fn press(state: &mut SetupState, codes: &[KeyCode]) -> SetupOutcome {
    let mut last = SetupOutcome::Stay;
    for &code in codes {
        last = state.update(&CtEvent::Key(KeyEvent::new(code, KeyModifiers::NONE)));
    }
    last
}

fn typed(text: &str) -> Vec<KeyCode> {
    text.chars().map(KeyCode::Char).collect()
}

fn render_setup(state: &SetupState) -> String {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal
        .draw(|f| {
            gametree::tui::panes::setup::draw(f, state, &gametree::tui::theme::Theme::default());
        })
        .unwrap();
    screen(terminal.backend().buffer())
}

fn setup_buffer(state: &SetupState, width: u16, height: u16) -> Buffer {
    let mut state = state.clone();
    state.frame = Rect::new(0, 0, width, height);
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|f| {
            gametree::tui::panes::setup::draw(f, &state, &gametree::tui::theme::Theme::default());
        })
        .unwrap();
    terminal.backend().buffer().clone()
}

/// The setup screen's key-hint line: the first non-empty line under the form's box.
fn setup_hint_line(state: &SetupState) -> String {
    let buf = setup_buffer(state, 80, 24);
    let bottom = state.form_area().bottom();
    lines(&buf)[usize::from(bottom)].clone()
}

#[test]
fn setup_refuses_out_of_range_values_inline_with_the_range() {
    let mut state = setup();
    select(&mut state, Row::engine("depth"));
    state.column = Player::Second;
    press(&mut state, &typed("99"));
    press(&mut state, &[KeyCode::Enter]);
    let error = state.error.clone().unwrap();
    assert!(error.contains("players.second.depth = 99"), "{error}");
    assert!(error.contains("0..=64"), "{error}");
    assert_eq!(
        state.config.players.second.engine.limits.depth.unwrap_or(0),
        0,
        "not accepted"
    );
    assert_eq!(
        state.editing.as_deref(),
        Some("99"),
        "the text stays to be fixed"
    );
    let text = render_setup(&state);
    assert!(text.contains("0..=64"), "{text}");
    // Fixed, it is accepted.
    press(&mut state, &[KeyCode::Backspace, KeyCode::Backspace]);
    press(&mut state, &typed("5"));
    press(&mut state, &[KeyCode::Enter]);
    assert_eq!(state.error, None);
    assert_eq!(
        state.config.players.second.engine.limits.depth.unwrap_or(0),
        5
    );
    // The time limit is for the full engine only: alpha-beta's is shown as not applying
    // and cannot be edited.
    select(&mut state, Row::engine("time_ms"));
    assert!(render_setup(&state).contains("- (full engine only)"));
    press(&mut state, &typed("5"));
    assert_eq!(state.editing, None);
    assert!(state.error.clone().unwrap().contains("full engine only"));
    state.config.players.second.engine.algorithm = gametree::engine::api::Algorithm::Full;
    // Words where numbers belong are refused too.
    press(&mut state, &typed("soon"));
    press(&mut state, &[KeyCode::Enter]);
    assert!(state.error.clone().unwrap().contains("whole number"));
    press(&mut state, &[KeyCode::Esc]);
    assert_eq!(state.editing, None);
    // The match clock: a minute for the engine's whole game.
    select(&mut state, Row::engine("match_ms"));
    assert!(render_setup(&state).contains("Match time"));
    assert!(render_setup(&state).contains("0 (no clock)"));
    press(&mut state, &typed("60000"));
    press(&mut state, &[KeyCode::Enter]);
    assert_eq!(state.error, None);
    assert_eq!(
        state.config.players.second.engine.match_time,
        Some(std::time::Duration::from_secs(60))
    );
    let text = render_setup(&state);
    assert!(text.contains("60000 ms (1 min)"), "{text}");
    // The human's side has a clock too: it runs while the human thinks.
    state.column = Player::First;
    press(&mut state, &typed("90000"));
    press(&mut state, &[KeyCode::Enter]);
    assert_eq!(state.error, None);
    assert_eq!(
        state.config.players.first.engine.match_time,
        Some(std::time::Duration::from_secs(90))
    );
    let text = render_setup(&state);
    assert!(text.contains("90000 ms (90 s)"), "{text}");
    state.column = Player::Second;
    // A game option outside its range.
    select(&mut state, Row::Option(0));
    press(&mut state, &typed("12"));
    press(&mut state, &[KeyCode::Enter]);
    let error = state.error.clone().unwrap();
    assert!(error.contains("1..=9"), "{error}");
    press(&mut state, &[KeyCode::Backspace, KeyCode::Backspace]);
    press(&mut state, &typed("4"));
    press(&mut state, &[KeyCode::Enter]);
    assert_eq!(state.config.game_options::<TicTacToe>().unwrap().depth, 4);
}

#[test]
fn setup_chooses_game_sides_and_engine_settings_then_starts() {
    let mut state = setup();
    let text = render_setup(&state);
    for needle in [
        "Game",
        "Tic-tac-toe",
        "You play",
        "X (you move first)",
        "Algorithm",
        "Seed",
    ] {
        assert!(text.contains(needle), "{needle} missing:\n{text}");
    }
    select(&mut state, Row::Game);
    press(&mut state, &[KeyCode::Right]);
    assert_eq!(state.config.game, gametree::games::GameKind::Gomoku);
    press(&mut state, &[KeyCode::Left]);
    assert_eq!(state.config.game, gametree::games::GameKind::TicTacToe);
    // Who moves first: the human takes O, so the engine (X) starts.
    select(&mut state, Row::Humans);
    press(&mut state, &[KeyCode::Right]);
    assert_eq!(state.config.players.first.kind, PlayerKind::Engine);
    assert_eq!(state.config.players.second.kind, PlayerKind::Human);
    // Per-side settings: Right picks the second column, Space changes the value.
    select(&mut state, Row::engine("algorithm"));
    let all = gametree::engine::api::Algorithm::ALL;
    let before = state.config.players.second.engine.algorithm;
    let next = all[(all.iter().position(|&a| a == before).unwrap() + 1) % all.len()];
    press(&mut state, &[KeyCode::Right, KeyCode::Char(' ')]);
    assert_eq!(state.config.players.second.engine.algorithm, next);
    assert_ne!(next, before);
    select(&mut state, Row::engine("random_ties"));
    press(&mut state, &[KeyCode::Left, KeyCode::Char(' ')]);
    assert!(!state.config.players.first.engine.random_ties);
    select(&mut state, Row::engine("seed"));
    press(&mut state, &typed("42"));
    press(&mut state, &[KeyCode::Enter]);
    assert_eq!(state.config.players.first.engine.seed, Some(42));
    assert_eq!(press(&mut state, &[KeyCode::Enter]), SetupOutcome::Start);
    // Clicking the start line starts too.
    let mut state = setup();
    let text = render_setup(&state);
    let y = text
        .lines()
        .position(|l| l.contains("Start a new game"))
        .unwrap();
    let x = text.lines().nth(y).unwrap().find("Start").unwrap();
    let at = CtEvent::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: x as u16,
        row: y as u16,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(state.update(&at), SetupOutcome::Start);
}

#[test]
fn setup_loads_a_named_file() {
    let mut state = setup();
    select(&mut state, Row::Load);
    press(&mut state, &[KeyCode::Enter]);
    assert!(
        state
            .error
            .clone()
            .unwrap()
            .contains("name of a saved game")
    );
    press(&mut state, &typed("game.json"));
    assert_eq!(
        press(&mut state, &[KeyCode::Enter]),
        SetupOutcome::Load("game.json".into())
    );
}

#[test]
fn setup_scrolls_when_a_game_has_many_options() {
    let mut state = setup();
    state.config.game = gametree::games::GameKind::Kalah;
    assert!(
        state.lines().len() + 5 > 24,
        "Kalah's options overflow 24 rows"
    );
    select(&mut state, Row::Start);
    let text = render_setup(&state);
    assert!(!text.contains("Enlarge"), "{text}");
    assert!(
        text.contains("Start a new game"),
        "the selected Start row is shown: {text}"
    );
    assert!(text.contains("↑ more"), "{text}");
    select(&mut state, Row::Game);
    let text = render_setup(&state);
    assert!(text.contains("Kalah") && text.contains("↓ more"), "{text}");
    // Clicks land on the rows as drawn, scrolled or not.
    select(&mut state, Row::Load);
    let text = render_setup(&state);
    let y = text.lines().position(|l| l.contains("Load file")).unwrap();
    let (row, _) = state.hit(Position::new(30, y as u16)).unwrap();
    assert_eq!(state.rows()[row], Row::Load);
}

// On a text row every printable key types; the hints say Ctrl-c quits there.
#[test]
fn setup_text_fields_take_every_printable_key_first() {
    let mut state = setup();
    select(&mut state, Row::Load);
    let hints = setup_hint_line(&state);
    assert!(
        hints.contains("Ctrl-c quit") && !hints.contains("q quit"),
        "{hints}"
    );
    press(&mut state, &typed("kalah.json"));
    assert_eq!(
        state.editing.as_deref(),
        Some("kalah.json"),
        "k and l typed"
    );
    assert_eq!(
        press(&mut state, &[KeyCode::Enter]),
        SetupOutcome::Load("kalah.json".into())
    );
    for first in ['h', 'j', 'k', 'l', 'q'] {
        select(&mut state, Row::engine("seed"));
        press(&mut state, &[KeyCode::Esc]);
        press(&mut state, &[KeyCode::Char(first)]);
        assert_eq!(state.editing, Some(first.to_string()), "{first} types");
        press(&mut state, &[KeyCode::Esc]);
    }
    // On a choice row the same keys navigate, and q quits.
    select(&mut state, Row::Game);
    assert!(setup_hint_line(&state).contains("q quit"));
    press(&mut state, &typed("l"));
    assert_eq!(state.config.game, gametree::games::GameKind::Gomoku);
    press(&mut state, &typed("j"));
    assert_eq!(state.row(), Row::Humans);
    assert_eq!(press(&mut state, &typed("q")), SetupOutcome::Quit);
}

// The setup screen opened from a game keeps the game behind it; a failed load there
// keeps both the game and the form's edits; Esc goes back to the game.
#[test]
fn a_failed_load_from_setup_keeps_the_running_game_and_the_edits() {
    let config = config(true, true);
    let options = config.game_options::<TicTacToe>().unwrap();
    let engines = gametree::tui::engines::<TicTacToe>(&config, &options).unwrap();
    let (tx, rx) = mpsc::channel();
    let sink = tx.clone();
    let mut worker = Worker::spawn(engines, move |r| {
        let _ = sink.send(Event::Engine(r));
    })
    .unwrap();
    let mut app = new_app::<TicTacToe>(&config);
    let mut state = SetupState::new(config.clone());
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let ctrl_c = Event::Input(CtEvent::Key(KeyEvent::new(
        KeyCode::Char('c'),
        KeyModifiers::CONTROL,
    )));
    // Play b2, open the setup screen (no question: nothing is lost yet), edit O's depth,
    // then load a file that is not there: asked first (unsaved), refused in place.
    let mut events: Vec<Ev<TicTacToe>> = vec![key(KeyCode::Enter), ch('o')];
    events.extend([KeyCode::Down, KeyCode::Down, KeyCode::Down, KeyCode::Right].map(key));
    events.extend([
        ch('7'),
        key(KeyCode::Enter),
        key(KeyCode::End),
        key(KeyCode::Up),
    ]);
    events.extend("missing-file.json".chars().map(ch));
    events.extend([key(KeyCode::Enter), ch('y'), ctrl_c]);
    for e in events {
        tx.send(e).unwrap();
    }
    let exit = run_game_and_setup(&mut terminal, &rx, &mut app, &mut worker, &mut state).unwrap();
    assert!(matches!(exit, SetupExit::Quit), "{exit:?}");
    let message = state.message.clone().unwrap();
    assert!(
        message.contains("missing-file.json: cannot be read"),
        "{message}"
    );
    assert_eq!(
        state.config.players.second.engine.limits.depth.unwrap_or(0),
        7,
        "the edit survives"
    );
    assert_eq!(notations(&app), ["b2"], "the game survives");
    // Again: Esc in the setup screen goes back to the game, which takes keys as before.
    for e in [ch('o'), key(KeyCode::Esc), ch('u'), ch('q'), ch('y')] {
        tx.send(e).unwrap();
    }
    let exit = run_game_and_setup(&mut terminal, &rx, &mut app, &mut worker, &mut state).unwrap();
    assert!(matches!(exit, SetupExit::Quit), "{exit:?}");
    assert_eq!(notations(&app), ["b2"]);
    assert_eq!(app.session.cursor(), 0, "u reached the game after Esc");
    assert_eq!(
        state.config.players.second.engine.limits.depth.unwrap_or(0),
        7
    );
    assert_eq!(state.kept, None);
}

// What applies; short, wrapped, fresh messages; the form's top and its hints.
#[test]
fn setup_says_what_applies_and_keeps_its_messages_short_wrapped_and_fresh() {
    let mut config = config(true, false);
    config.players.second.engine.algorithm = Algo::Full;
    config.players.second.engine.limits.time = Some(std::time::Duration::from_secs(1));
    let mut state = SetupState::new(config);
    state.frame = Rect::new(0, 0, 80, 24);
    let text = render_setup(&state);
    assert!(text.contains("0 (as time allows)"), "{text}");
    assert!(text.contains("1000 ms"), "{text}");
    assert!(
        text.contains("0 (game's: 9)"),
        "alpha-beta's depth 0: {text}"
    );
    assert!(
        text.contains("- (full engine only)"),
        "alpha-beta's time: {text}"
    );
    // An out-of-range option: its key, value and range, once, without the source name.
    select(&mut state, Row::Game);
    press(&mut state, &[KeyCode::Right; 3]);
    assert_eq!(state.config.game, gametree::games::GameKind::Dots);
    select(&mut state, Row::Option(0));
    press(&mut state, &typed("10"));
    press(&mut state, &[KeyCode::Enter]);
    assert_eq!(
        state.error.as_deref(),
        Some("dots.rows = 10: must be 1..=9")
    );
    press(&mut state, &[KeyCode::Esc]);
    // A long message wraps inside the box under the selected row, every word shown.
    let long = "saved.json: not a gametree save file: expected the key `format` with the value \
                gametree-save, found something else entirely at line 1 column 2 END";
    state.message = Some(long.to_string());
    let buf = setup_buffer(&state, 80, 24);
    let form = state.form_area();
    // The text inside the box, line by line, joined again: the whole message.
    let inside: Vec<String> = (form.y + 1..form.bottom() - 1)
        .map(|y| {
            (form.x + 1..form.right() - 1)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
                .trim()
                .to_string()
        })
        .collect();
    let first = inside
        .iter()
        .position(|l| l.starts_with("saved.json"))
        .unwrap();
    let wrapped = inside[first..first + 3].join(" ");
    assert!(wrapped.starts_with(long), "{}", screen(&buf));
    // The next key takes it away (switching the game here).
    select(&mut state, Row::Game);
    press(&mut state, &[KeyCode::Right]);
    assert_eq!(state.message, None);
    assert!(!render_setup(&state).contains("END"));
    // Kalah at 80x24: the form opens at its top, the hints sit under the box.
    let mut state = setup();
    state.config.game = gametree::games::GameKind::Kalah;
    let text = render_setup(&state);
    assert!(text.contains("Game") && text.contains("You play"), "{text}");
    let hints = setup_hint_line(&state);
    let x = hints.find("↑↓").unwrap();
    assert_eq!(x, usize::from(state.form_area().x), "{hints}");
    // The selected empty Load row still shows a selected cell.
    select(&mut state, Row::Load);
    state.load_path.clear();
    let buf = setup_buffer(&state, 80, 24);
    let at = find(&buf, "(type a file name)").unwrap();
    assert!(buf[at].modifier.contains(Modifier::REVERSED));
}

fn click_at(state: &mut SetupState, at: Position) -> SetupOutcome {
    state.update(&CtEvent::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: at.x,
        row: at.y,
        modifiers: KeyModifiers::NONE,
    }))
}

#[test]
fn setup_clicks_on_a_label_select_and_on_the_arrows_step_that_way() {
    let mut state = setup();
    let buf = setup_buffer(&state, 80, 24);
    let game = state.config.game;
    // The label selects its row and changes nothing.
    let label = find(&buf, "You play").unwrap();
    let humans = state.config.players.clone();
    assert_eq!(click_at(&mut state, label), SetupOutcome::Stay);
    assert_eq!(state.row(), Row::Humans);
    assert_eq!(state.config.players, humans);
    // ▶ on the game row steps forward, ◀ steps back to where it was.
    let text = screen(&buf);
    let game_line = lines(&buf)
        .into_iter()
        .position(|l| l.contains(&format!("◀ {} ▶", game.title())))
        .unwrap_or_else(|| panic!("{text}"));
    let row = lines(&buf)[game_line].clone();
    let right_x = row.chars().position(|c| c == '▶').unwrap() as u16;
    let left_x = row.chars().position(|c| c == '◀').unwrap() as u16;
    click_at(&mut state, Position::new(right_x, game_line as u16));
    let next = state.config.game;
    assert_ne!(next, game);
    let buf = setup_buffer(&state, 80, 24);
    let row = lines(&buf)[game_line].clone();
    assert_eq!(row.chars().position(|c| c == '◀').unwrap() as u16, left_x);
    click_at(&mut state, Position::new(left_x, game_line as u16));
    assert_eq!(state.config.game, game);
    click_at(&mut state, Position::new(left_x, game_line as u16));
    assert_ne!(state.config.game, game);
    assert_ne!(state.config.game, next, "◀ steps the other way from ▶");
}

#[test]
fn setup_question_mark_shows_help_and_options_read_as_words() {
    let mut state = setup();
    press(&mut state, &[KeyCode::Char('?')]);
    let text = render_setup(&state);
    assert!(text.contains("Keys:"), "{text}");
    assert!(setup_hint_line(&state).contains("? help"));
    state.config.game = gametree::games::GameKind::Kalah;
    let labels: Vec<String> = state.rows().iter().map(|&r| state.label(r)).collect();
    assert!(
        labels.iter().any(|l| l == "Empty-pit capture"),
        "{labels:?}"
    );
    assert!(labels.iter().all(|l| !l.contains('_')), "{labels:?}");
}

// Evaluator weights are an advanced section: collapsed at first, opened with Space or Enter
// on its row, closed again the same way; the plain options stay in view throughout.
#[test]
fn evaluator_weights_sit_in_a_collapsed_section() {
    let mut state = setup();
    state.config.game = gametree::games::GameKind::Kalah;
    let labels = |state: &SetupState| -> Vec<String> {
        state.rows().iter().map(|&r| state.label(r)).collect()
    };
    let closed = labels(&state);
    assert!(closed.iter().any(|l| l == "Pits per side"), "{closed:?}");
    assert!(
        closed.iter().any(|l| l == "Evaluator weights"),
        "{closed:?}"
    );
    assert!(
        !closed.iter().any(|l| l.starts_with("Linear")),
        "{closed:?}"
    );
    let text = render_setup(&state);
    assert!(text.contains("hidden (Space shows them)"), "{text}");
    select(&mut state, Row::Weights);
    assert_eq!(press(&mut state, &[KeyCode::Char(' ')]), SetupOutcome::Stay);
    let open = labels(&state);
    assert!(open.iter().any(|l| l == "Linear: store"), "{open:?}");
    assert!(open.iter().any(|l| l.starts_with("Tuned")), "{open:?}");
    assert_eq!(
        state.row(),
        Row::Weights,
        "the selection stays on the switch"
    );
    // Enter toggles too, and never starts the game from this row.
    assert_eq!(press(&mut state, &[KeyCode::Enter]), SetupOutcome::Stay);
    assert_eq!(labels(&state), closed);
    // Tic-tac-toe has no weights: no section.
    state.config.game = gametree::games::GameKind::TicTacToe;
    assert!(!state.rows().contains(&Row::Weights));
}
