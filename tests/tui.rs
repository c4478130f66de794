//! The terminal UI without a terminal: boards rendered on ratatui's `TestBackend` and checked
//! for content and colour, key and mouse sequences fed to `App::update`, the engine worker's
//! cancelling, the runner on a channel while a search never ends, the setup screen, and the
//! tmux end-to-end script where tmux exists.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::mpsc;
use std::time::Duration;

use gametree::config::{Config, PlayerKind};
use gametree::engine::api::SearchResult;
use gametree::engine::stats::SearchStats;
use gametree::engine::{Game, Player};
use gametree::games::tictactoe::TicTacToe;
use gametree::session::{Session, parse_saved};
use gametree::tui::action::Pane;
use gametree::tui::app::{App, Effect};
use gametree::tui::boards::{BoardView, HasBoard};
use gametree::tui::event::Event;
use gametree::tui::layout::{self, Areas};
use gametree::tui::view_state::Dialog;
use gametree::tui::worker::{Purpose, Report};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    Event as CtEvent, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Position, Rect};

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// The built-in config with the given humans and fixed seeds.
fn config(first_human: bool, second_human: bool) -> Config {
    let mut config = Config::builtin().unwrap();
    let kind = |h: bool| {
        if h {
            PlayerKind::Human
        } else {
            PlayerKind::Engine
        }
    };
    config.players.first.kind = kind(first_human);
    config.players.second.kind = kind(second_human);
    config.players.first.engine.seed = Some(1);
    config.players.second.engine.seed = Some(2);
    // Depth-limited alpha-beta: these tests are about the program, and want searches that
    // are quick and the same on every run (no time limit).
    for side in [&mut config.players.first, &mut config.players.second] {
        side.engine.algorithm = gametree::engine::api::Algorithm::AlphaBeta;
        side.engine.limits.time = None;
        side.engine.threads = 1;
    }
    config
}

fn new_app<G: HasBoard>(config: &Config) -> App<G> {
    let options = config.game_options::<G>().unwrap();
    let mut app = App::new(config, Session::new(options));
    app.resize(80, 24);
    app
}

type Ev<G> = Event<Report<<G as Game>::Move>>;

fn key<M>(code: KeyCode) -> Event<Report<M>> {
    Event::Input(CtEvent::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

fn ch<M>(c: char) -> Event<Report<M>> {
    key(KeyCode::Char(c))
}

fn mouse<M>(kind: MouseEventKind, at: Position) -> Event<Report<M>> {
    Event::Input(CtEvent::Mouse(MouseEvent {
        kind,
        column: at.x,
        row: at.y,
        modifiers: KeyModifiers::NONE,
    }))
}

fn click<M>(at: Position) -> Event<Report<M>> {
    mouse(MouseEventKind::Down(MouseButton::Left), at)
}

/// Feeds events, collecting every effect.
fn feed<G: HasBoard>(app: &mut App<G>, events: Vec<Ev<G>>) -> Vec<Effect<G>> {
    events.into_iter().flat_map(|e| app.update(e)).collect()
}

/// The id of the last search the effects start.
fn search_id<G: HasBoard>(effects: &[Effect<G>], want: Purpose) -> u64 {
    effects
        .iter()
        .rev()
        .find_map(|e| match e {
            Effect::Search { id, purpose, .. } if *purpose == want => Some(*id),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no {want:?} search started"))
}

/// A finished search that chose `mv`.
fn finished<M: Copy>(id: u64, mv: M, value: i32) -> Event<Report<M>> {
    Event::Engine(Report::Finished {
        id,
        result: SearchResult {
            best: Some(mv),
            value,
            pv: vec![mv],
            ties: vec![mv],
            stats: SearchStats {
                nodes: 42,
                depth: 3,
                ..SearchStats::default()
            },
            completed: true,
        },
    })
}

fn render<G: HasBoard>(app: &mut App<G>, width: u16, height: u16) -> Buffer {
    app.resize(width, height);
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| gametree::tui::ui::draw(f, app)).unwrap();
    terminal.backend().buffer().clone()
}

fn lines(buf: &Buffer) -> Vec<String> {
    (0..buf.area.height)
        .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

fn screen(buf: &Buffer) -> String {
    lines(buf).join("\n")
}

/// Where `text` starts on screen (first occurrence, row by row).
fn find(buf: &Buffer, text: &str) -> Option<Position> {
    lines(buf).iter().enumerate().find_map(|(y, line)| {
        let byte = line.find(text)?;
        let x = line[..byte].chars().count();
        Some(Position::new(x as u16, y as u16))
    })
}

fn board_inner<G: HasBoard>(app: &App<G>) -> Rect {
    let Areas::Panes(areas) = app.areas() else {
        panic!("the frame is too small");
    };
    layout::inner(areas.board)
}

/// A screen position the board maps to `target`: the centre of its hit region.
fn spot<G: HasBoard>(app: &App<G>, target: <G::View as BoardView<G>>::Cursor) -> Position {
    let area = board_inner(app);
    let game = app.session.current();
    let hits: Vec<Position> = area
        .positions()
        .filter(|&p| app.board.hit(game, area, p) == Some(target))
        .collect();
    assert!(!hits.is_empty(), "{target:?} is not on screen");
    hits[hits.len() / 2]
}

fn notations<G: HasBoard>(app: &App<G>) -> Vec<String> {
    app.session
        .steps()
        .iter()
        .map(|s| s.notation.clone())
        .collect()
}

fn play_line<G: HasBoard>(app: &mut App<G>, line: &str) {
    for text in line.split_whitespace() {
        let mv = app.session.current().parse_move(text).unwrap();
        app.session.play(mv, None).unwrap();
    }
}

// ---------------------------------------------------------------------------------------
// Tic-tac-toe: rendering
// ---------------------------------------------------------------------------------------

fn ttt(text: &str) -> u8 {
    TicTacToe::new().parse_move(text).unwrap()
}

#[test]
fn tictactoe_board_at_80x24_has_coordinates_pieces_and_the_last_move_highlighted() {
    let mut app = new_app::<TicTacToe>(&config(true, true));
    play_line(&mut app, "b2 a1");
    let buf = render(&mut app, 80, 24);
    let text = screen(&buf);
    // Column letters below the grid, row numbers beside it with 1 at the bottom.
    let a = find(&buf, "a       b       c").unwrap();
    let row1 = find(&buf, "1 │").unwrap();
    let row3 = find(&buf, "3 │").unwrap();
    assert!(row3.y < row1.y, "row 3 is above row 1");
    assert!(a.y > row1.y, "letters are under the grid");
    // Pieces: X drawn as a cross at b2, O as a ring at a1 (medium size at 80x24).
    assert!(text.contains('╳'), "{text}");
    assert!(text.contains("╭─╮"), "{text}");
    // The log lists both moves, the second marked as current.
    assert!(text.contains("1. X     b2"), "{text}");
    assert!(text.contains("▶   2. O     a1"), "{text}");
    // The last move (a1) has the last-move background; b2 does not.
    let theme = &app.theme;
    let a1 = spot(&app, ttt("a1"));
    let b2 = spot(&app, ttt("b2"));
    assert_eq!(buf[a1].bg, theme.last_move.bg.unwrap());
    assert_ne!(buf[b2].bg, theme.last_move.bg.unwrap());
    // The pieces carry their players' colours.
    let ring = find(&buf, "╭─╮").unwrap();
    assert_eq!(buf[ring].fg, theme.second.fg.unwrap());
    let cross = find(&buf, "╳").unwrap();
    assert_eq!(buf[cross].fg, theme.first.fg.unwrap());
    // Both humans: X to move, the cursor (reversed) sits on the home cell b2 ... which is
    // taken, so it is still shown there until moved.
    assert!(
        buf[b2]
            .modifier
            .contains(ratatui::style::Modifier::REVERSED)
    );
    assert!(text.contains("X to move (you)"), "{text}");
}

#[test]
fn tictactoe_board_at_120x40_draws_big_marks_and_the_winning_line() {
    let mut app = new_app::<TicTacToe>(&config(true, true));
    play_line(&mut app, "a1 b1 a2 b2 a3");
    let buf = render(&mut app, 120, 40);
    let text = screen(&buf);
    // The large X is five rows tall: its arms appear on separate rows.
    assert!(text.contains("╲     ╱"), "{text}");
    assert!(text.contains("╭╯   ╰╮"), "{text}");
    for cell in ["a1", "a2", "a3"] {
        let at = spot(&app, ttt(cell));
        assert_eq!(
            buf[at].bg,
            app.theme.win.bg.unwrap(),
            "{cell} is on the line"
        );
    }
    let b2 = spot(&app, ttt("b2"));
    assert_ne!(buf[b2].bg, app.theme.win.bg.unwrap());
    assert!(text.contains("X (you) wins"), "{text}");
    assert!(text.contains("game over"), "{text}");
}

#[test]
fn a_small_terminal_asks_to_be_enlarged_and_recovers() {
    let mut app = new_app::<TicTacToe>(&config(true, false));
    let small = screen(&render(&mut app, 40, 12));
    assert!(small.contains("Enlarge the terminal"), "{small}");
    assert!(small.contains("40x12"), "{small}");
    let big = screen(&render(&mut app, 80, 24));
    assert!(!big.contains("Enlarge"), "{big}");
    assert!(big.contains("Moves"), "{big}");
}

// ---------------------------------------------------------------------------------------
// Tic-tac-toe: keyboard and mouse
// ---------------------------------------------------------------------------------------

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
fn mouse_clicks_play_the_cell_under_the_pointer_and_the_picture_agrees() {
    let mut app = new_app::<TicTacToe>(&config(true, true));
    render(&mut app, 80, 24);
    let c3 = spot(&app, ttt("c3"));
    feed(&mut app, vec![click(c3)]);
    assert_eq!(notations(&app), ["c3"]);
    let buf = render(&mut app, 80, 24);
    // The X appears in the cell that was clicked.
    let cell = spot(&app, ttt("c3"));
    let cross_rows: Vec<u16> = (cell.y - 1..=cell.y + 1)
        .filter(|&y| (cell.x - 3..=cell.x + 3).any(|x| buf[(x, y)].symbol() == "╳"))
        .collect();
    assert_eq!(
        cross_rows,
        [cell.y],
        "the cross is centred where the click landed"
    );
    // Hovering moves the cursor; a click on a taken cell is refused with a message.
    let a1 = spot(&app, ttt("a1"));
    feed(&mut app, vec![mouse(MouseEventKind::Moved, a1)]);
    assert_eq!(app.view.cursor, ttt("a1"));
    let c3 = spot(&app, ttt("c3"));
    feed(&mut app, vec![click(c3)]);
    assert_eq!(notations(&app), ["c3"]);
    assert!(app.view.message.as_ref().unwrap().is_error);
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
fn clicking_a_log_row_views_that_position_and_the_wheel_scrolls() {
    let mut app = new_app::<TicTacToe>(&config(true, true));
    play_line(&mut app, "a1 b2 c3 a2 c2 c1 a3 b3 b1");
    app.resize(80, 24);
    let buf = render(&mut app, 80, 24);
    let Areas::Panes(areas) = app.areas() else {
        panic!()
    };
    let inner = layout::inner(areas.moves);
    let rows = usize::from(inner.height);
    assert!(rows < 10, "the log of 10 rows must scroll at 80x24");
    // The last move is visible: the log follows the position.
    assert!(screen(&buf).contains("9. X     b1"));
    // Wheel up scrolls to the top without moving the position.
    feed(
        &mut app,
        vec![mouse(MouseEventKind::ScrollUp, inner.as_position()); 5],
    );
    assert_eq!(app.view.log_offset, 0);
    assert_eq!(app.session.cursor(), 9);
    // Row 2 on screen is move 2 (row 0 is the start).
    feed(
        &mut app,
        vec![click(Position::new(inner.x + 3, inner.y + 2))],
    );
    assert_eq!(app.session.cursor(), 2);
    assert_eq!(app.view.focus, Pane::Moves);
    feed(&mut app, vec![key(KeyCode::End)]);
    assert_eq!(app.session.cursor(), 9);
    feed(&mut app, vec![key(KeyCode::Home)]);
    assert_eq!(app.session.cursor(), 0);
}

#[test]
fn focus_cycles_with_tab_and_follows_clicks() {
    let mut app = new_app::<TicTacToe>(&config(true, false));
    let order: Vec<Pane> = (0..4)
        .map(|_| {
            feed(&mut app, vec![key(KeyCode::Tab)]);
            app.view.focus
        })
        .collect();
    assert_eq!(order, [Pane::Moves, Pane::Engine, Pane::Tree, Pane::Board]);
    feed(&mut app, vec![key(KeyCode::BackTab)]);
    assert_eq!(app.view.focus, Pane::Tree);
    // The focused tree pane grows; at 80x24 the engine pane gives it its place.
    let Areas::Panes(zoomed) = app.areas() else {
        panic!()
    };
    assert_eq!(zoomed.engine.height, 0);
    feed(&mut app, vec![click(zoomed.moves.as_position())]);
    assert_eq!(app.view.focus, Pane::Moves);
    let Areas::Panes(areas) = app.areas() else {
        panic!()
    };
    assert!(areas.engine.height > 0, "back when the tree lets go");
    feed(&mut app, vec![click(areas.engine.as_position())]);
    assert_eq!(app.view.focus, Pane::Engine);
    // The focused pane has the highlighted border.
    let buf = render(&mut app, 80, 24);
    assert_eq!(
        buf[areas.engine.as_position()].fg,
        app.theme.border_focused.fg.unwrap()
    );
    assert_eq!(
        buf[areas.board.as_position()].fg,
        app.theme.border.fg.unwrap()
    );
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
    assert_eq!(app.hint, Some((ttt("c3"), 0)));
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
    assert_eq!(app.hint, None);
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
    assert!(app.paused && fx.contains(&Effect::Stop));
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
fn quitting_an_unsaved_game_asks_and_the_dialog_buttons_click() {
    let mut app = new_app::<TicTacToe>(&config(true, true));
    assert_eq!(
        feed(&mut app, vec![ch('q')]),
        [Effect::Quit],
        "nothing to lose yet"
    );
    feed(&mut app, vec![key(KeyCode::Enter)]);
    assert!(feed(&mut app, vec![ch('q')]).is_empty());
    assert_eq!(app.view.dialog, Some(Dialog::Quit));
    feed(&mut app, vec![key(KeyCode::Esc)]);
    assert_eq!(app.view.dialog, None);
    feed(&mut app, vec![ch('q')]);
    let (yes, _) = layout::dialog_buttons(layout::dialog(app.view.frame));
    let buf = render(&mut app, 80, 24);
    assert_eq!(find(&buf, "[ Yes y ]"), Some(yes.as_position()));
    assert_eq!(
        feed(&mut app, vec![click(yes.as_position())]),
        [Effect::Quit]
    );
    // Ctrl-C quits at once.
    let mut app = new_app::<TicTacToe>(&config(true, true));
    feed(&mut app, vec![key(KeyCode::Enter)]);
    let ctrl_c = Event::Input(CtEvent::Key(KeyEvent::new(
        KeyCode::Char('c'),
        KeyModifiers::CONTROL,
    )));
    assert_eq!(feed(&mut app, vec![ctrl_c]), [Effect::Quit]);
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

#[test]
fn the_engine_pane_shows_the_search_and_minimax_comparison() {
    let mut app = new_app::<TicTacToe>(&config(true, false));
    let fx = feed(&mut app, vec![key(KeyCode::Enter)]);
    let id = search_id(&fx, Purpose::Move);
    feed(&mut app, vec![Event::Tick; 3]);
    let thinking = screen(&render(&mut app, 80, 24));
    assert!(
        thinking.contains("O engine · alphabeta · depth 9"),
        "{thinking}"
    );
    assert!(thinking.contains("0.3s"), "{thinking}");
    feed(&mut app, vec![finished(id, ttt("a1"), 0)]);
    let counting = screen(&render(&mut app, 80, 24));
    assert!(
        counting.contains("minimax to depth 3: counting"),
        "{counting}"
    );
    feed(
        &mut app,
        vec![Event::Engine(Report::MinimaxNodes {
            id,
            nodes: Some(420),
        })],
    );
    let done = screen(&render(&mut app, 80, 24));
    assert!(done.contains("best a1"), "{done}");
    assert!(done.contains("nodes 42"), "{done}");
    // Against the nodes of the search to that depth, and saying which.
    assert!(done.contains("minimax to depth 3: 420 nodes"), "{done}");
    assert!(done.contains("×10.0 alphabeta's 42"), "{done}");
    // Over the budget, the count is given up and says so.
    feed(
        &mut app,
        vec![Event::Engine(Report::MinimaxNodes { id, nodes: None })],
    );
    let over = screen(&render(&mut app, 80, 24));
    assert!(over.contains("over 3,000,000 nodes"), "{over}");
}

// ---------------------------------------------------------------------------------------
// The engine worker and the runner
// ---------------------------------------------------------------------------------------

mod endless {
    //! A game that never ends, with 8 moves everywhere: a search on it runs until stopped.

    use gametree::engine::{Evaluator, Game, Outcome, Player, Scoring};
    use gametree::error::{ConfigError, ParseMoveError};
    use gametree::games::{GameKind, GameOptions, Playable};
    use gametree::tui::action::Dir;
    use gametree::tui::boards::{BoardCtx, BoardView, HasBoard};
    use ratatui::buffer::Buffer;
    use ratatui::layout::{Position, Rect, Size};
    use serde::{Deserialize, Serialize};

    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Endless {
        pub moves: u64,
        pub to_move: Player,
    }

    impl std::fmt::Display for Endless {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "{} moves", self.moves)
        }
    }

    impl Game for Endless {
        type Move = u8;
        type Undo = ();
        const SCORING: Scoring = Scoring::WinLoss;
        fn to_move(&self) -> Player {
            self.to_move
        }
        fn legal_moves(&self, out: &mut Vec<u8>) {
            out.clear();
            out.extend(0..8);
        }
        fn play(&mut self, _mv: u8) {
            self.moves += 1;
            self.to_move = self.to_move.other();
        }
        fn undo(&mut self, _mv: u8, (): ()) {
            self.moves -= 1;
            self.to_move = self.to_move.other();
        }
        fn outcome(&self) -> Option<Outcome> {
            None
        }
        fn hash(&self) -> u64 {
            self.moves
        }
        fn hash_from_scratch(&self) -> u64 {
            self.moves
        }
        fn move_index(&self, mv: u8) -> usize {
            usize::from(mv)
        }
        fn move_space(&self) -> usize {
            8
        }
        fn format_move(&self, mv: u8) -> String {
            mv.to_string()
        }
        fn parse_move(&self, text: &str) -> Result<u8, ParseMoveError> {
            text.parse()
                .ok()
                .filter(|&m| m < 8)
                .ok_or_else(|| ParseMoveError::new(text, "0..8"))
        }
    }

    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
    pub struct EndlessOptions;

    impl GameOptions for EndlessOptions {
        fn validate(&self, _source: &str) -> Result<(), ConfigError> {
            Ok(())
        }
        fn default_depth(&self) -> u32 {
            40
        }
        fn set(&mut self, key: &str, _value: &str) -> Result<(), String> {
            Err(format!("no option {key}"))
        }
        fn entries(&self) -> Vec<(&'static str, String)> {
            Vec::new()
        }
    }

    #[derive(Clone, Copy, Debug)]
    pub struct Zero;

    impl Evaluator<Endless> for Zero {
        fn name(&self) -> &'static str {
            "zero"
        }
        fn evaluate(&self, _game: &Endless) -> i32 {
            0
        }
    }

    impl Playable for Endless {
        const KIND: GameKind = GameKind::TicTacToe;
        type Options = EndlessOptions;
        type Eval = Zero;
        const EVALUATORS: &'static [&'static str] = &["zero"];
        fn new_game(_options: &EndlessOptions) -> Self {
            Self {
                moves: 0,
                to_move: Player::First,
            }
        }
        fn evaluator(_options: &EndlessOptions, _name: &str) -> Option<Zero> {
            Some(Zero)
        }
    }

    #[derive(Default)]
    pub struct EndlessView;

    impl BoardView<Endless> for EndlessView {
        type Cursor = u8;
        fn min_size(&self, _game: &Endless) -> Size {
            Size::new(8, 1)
        }
        fn draw(&self, _g: &Endless, _c: &BoardCtx<'_, Endless, u8>, area: Rect, buf: &mut Buffer) {
            buf.set_string(area.x, area.y, "01234567", ratatui::style::Style::new());
        }
        fn home(&self, _game: &Endless) -> u8 {
            0
        }
        fn step(&self, _game: &Endless, cursor: u8, dir: Dir) -> u8 {
            match dir {
                Dir::Left => cursor.saturating_sub(1),
                Dir::Right => (cursor + 1).min(7),
                _ => cursor,
            }
        }
        fn move_at(&self, _game: &Endless, cursor: u8) -> Option<u8> {
            Some(cursor)
        }
        fn cursor_of(&self, _game: &Endless, mv: u8) -> u8 {
            mv
        }
        fn hit(&self, _game: &Endless, area: Rect, at: Position) -> Option<u8> {
            (at.y == area.y && at.x >= area.x && at.x < area.x + 8).then(|| (at.x - area.x) as u8)
        }
    }

    impl HasBoard for Endless {
        type View = EndlessView;
    }
}

use endless::{Endless, EndlessOptions};
use gametree::tui::worker::Worker;

const DEADLOCK_GUARD: Duration = Duration::from_secs(60);

fn endless_engines(config: &Config) -> [gametree::player::EnginePlayer<Endless>; 2] {
    gametree::tui::engines::<Endless>(config, &EndlessOptions).unwrap()
}

#[test]
fn a_search_that_would_never_end_is_cancelled_and_answers_with_its_id() {
    let (tx, rx) = mpsc::channel();
    let mut worker = Worker::spawn(endless_engines(&config(false, false)), move |r| {
        let _ = tx.send(r);
    })
    .unwrap();
    let root = Endless {
        moves: 0,
        to_move: Player::First,
    };
    worker.start(1, root.clone(), Player::First);
    // Starting another search stops the first: both answer, in order, with their own ids.
    worker.start(2, root, Player::Second);
    worker.stop();
    let mut finished = Vec::new();
    while finished.len() < 2 {
        match rx.recv_timeout(DEADLOCK_GUARD).expect("the worker answers") {
            Report::Finished { id, result } => {
                assert!(!result.completed, "search {id} was stopped");
                assert!(result.best.is_some(), "a stopped search still names a move");
                finished.push(id);
            }
            Report::Progress { .. } => {}
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(finished, [1, 2]);
    drop(worker); // joins the thread: it must not hang
}

#[test]
fn the_worker_plays_tictactoe_and_counts_minimax_nodes_like_minimax() {
    let config = config(false, false);
    let options = config.game_options::<TicTacToe>().unwrap();
    let engines = gametree::tui::engines::<TicTacToe>(&config, &options).unwrap();
    let (tx, rx) = mpsc::channel();
    let mut worker = Worker::spawn(engines, move |r| {
        let _ = tx.send(r);
    })
    .unwrap();
    let mut root = TicTacToe::new();
    root.play_line("b2 a1").unwrap();
    worker.start(7, root.clone(), Player::First);
    let mut best = None;
    let mut minimax = None;
    while minimax.is_none() {
        match rx.recv_timeout(DEADLOCK_GUARD).expect("the worker answers") {
            Report::Finished { id: 7, result } => best = result.best,
            Report::MinimaxNodes { id: 7, nodes } => minimax = Some(nodes),
            Report::Progress { .. } => {}
            other => panic!("unexpected {other:?}"),
        }
    }
    assert!(best.is_some());
    // The count equals the nodes plain minimax really visits at the same depth.
    let mut side = config.players.first.clone();
    side.engine.algorithm = gametree::engine::api::Algorithm::Minimax;
    let mut plain =
        gametree::player::EnginePlayer::<TicTacToe>::new(&side, &options, "t", "first").unwrap();
    let result = plain.think(
        &root,
        &gametree::engine::limits::StopFlag::new(),
        &mut |_| {},
    );
    assert_eq!(minimax, Some(Some(result.stats.nodes)));
}

#[test]
fn the_runner_answers_keys_while_a_search_never_ends() {
    // The engine (A) moves first and thinks forever; the human presses keys meanwhile.
    let config = config(false, true);
    let (tx, rx) = mpsc::channel();
    let sink = tx.clone();
    let mut worker = Worker::spawn(endless_engines(&config), move |r| {
        let _ = sink.send(Event::Engine(r));
    })
    .unwrap();
    for event in [
        ch('?'),
        key(KeyCode::Esc),
        key(KeyCode::Tab),
        ch('u'),
        key(KeyCode::Tab),
        ch('q'),
    ] {
        tx.send(event).unwrap();
    }
    let (done_tx, done_rx) = mpsc::channel();
    let runner = std::thread::spawn(move || {
        let mut app = App::new(&config, Session::<Endless>::new(EndlessOptions));
        app.resize(80, 24);
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        let exit = gametree::tui::runner::run_game(&mut terminal, &rx, &mut app, &mut worker);
        let text = screen(terminal.backend().buffer());
        drop(worker);
        let _ = done_tx.send(());
        (exit.unwrap(), app.view.focus, app.engine.pending, text)
    });
    done_rx
        .recv_timeout(DEADLOCK_GUARD)
        .expect("the runner handled every key while the engine thought");
    let (exit, focus, pending, text) = runner.join().unwrap();
    assert_eq!(exit, gametree::tui::runner::GameExit::Quit);
    assert_eq!(focus, Pane::Engine, "both Tabs were handled");
    assert_eq!(pending, None, "quitting cancelled the search");
    assert!(text.contains("thinking"), "{text}");
}

// ---------------------------------------------------------------------------------------
// The setup screen
// ---------------------------------------------------------------------------------------

use gametree::tui::setup::{Row, SetupOutcome, SetupState};

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
        .position(|l| l.contains("Start the game"))
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

// ---------------------------------------------------------------------------------------
// Dots and Boxes
// ---------------------------------------------------------------------------------------

use gametree::games::dots::Dots;

fn dots_move(app: &App<Dots>, text: &str) -> u8 {
    app.session.current().parse_move(text).unwrap()
}

#[test]
fn dots_board_shows_dots_lines_owned_boxes_and_coordinates() {
    let mut app = new_app::<Dots>(&config(true, true));
    // A takes nothing, B closes box a1 (bottom-left) with its fourth side.
    play_line(&mut app, "a1-b1 a1-a2 b1-b2 a2-b2");
    for (w, h) in [(80, 24), (120, 40)] {
        let buf = render(&mut app, w, h);
        let text = screen(&buf);
        // 4x4 dots, columns a..d below, rows 1..4 at the left with 1 at the bottom.
        assert_eq!(text.matches('•').count(), 16, "{text}");
        let letters = lines(&buf)
            .iter()
            .position(|l| [" a ", " b ", " c ", " d "].iter().all(|c| l.contains(c)))
            .unwrap_or_else(|| panic!("{text}")) as u16;
        let one = find(&buf, " 1 •").unwrap();
        let four = find(&buf, " 4 •").unwrap();
        assert!(four.y < one.y && one.y < letters, "{text}");
        assert!(text.contains('━') && text.contains('┃'), "{text}");
        // The box went to B (the second player), drawn in B's colour and highlighted as
        // taken by the last move.
        let owner = board_inner(&app)
            .positions()
            .find(|&p| buf[p].symbol() == "B" && buf[p].fg == app.theme.second.fg.unwrap())
            .expect("B's mark in box a1");
        assert_eq!(buf[owner].bg, app.theme.last_move.bg.unwrap());
        assert!(
            text.contains("B (you) to move") || text.contains("B to move"),
            "{text}"
        );
        assert!(
            text.contains("extra turn") || text.contains("4. B"),
            "{text}"
        );
    }
}

#[test]
fn dots_play_by_keyboard_and_mouse_with_extra_turns() {
    let mut app = new_app::<Dots>(&config(true, false));
    app.start();
    // Keyboard: the cursor starts near the middle; play it, then the engine answers.
    let home = app.view.cursor;
    let fx = feed(&mut app, vec![key(KeyCode::Enter)]);
    assert_eq!(app.session.steps()[0].mv, home);
    let id = search_id(&fx, Purpose::Move);
    let reply = dots_move(&app, "a1-b1");
    feed(&mut app, vec![finished(id, reply, 0)]);
    // Mouse: a click on a line's cells plays that line.
    render(&mut app, 80, 24);
    let target = dots_move(&app, "c3-d3");
    let at = spot(&app, target);
    let fx = feed(&mut app, vec![click(at)]);
    assert_eq!(app.session.steps().last().unwrap().mv, target);
    search_id(&fx, Purpose::Move);
    // A click inside a box picks its nearest side.
    let mut app = new_app::<Dots>(&config(true, true));
    render(&mut app, 80, 24);
    let bottom = dots_move(&app, "a1-b1");
    let left = dots_move(&app, "a1-a2");
    let area = board_inner(&app);
    let hits: Vec<Position> = area
        .positions()
        .filter(|&p| app.board.hit(app.session.current(), area, p) == Some(bottom))
        .collect();
    let line_y = hits.iter().map(|p| p.y).max().unwrap();
    let on_line: Vec<&Position> = hits.iter().filter(|p| p.y == line_y).collect();
    let inside = Position::new(on_line[on_line.len() / 2].x, line_y - 1);
    assert_eq!(
        app.board
            .hit(app.session.current(), board_inner(&app), inside),
        Some(bottom)
    );
    // Completing a box gives another move: A keeps the turn.
    play_line(&mut app, "a1-a2 b1-b2 a2-b2");
    app.view.cursor = bottom;
    feed(&mut app, vec![key(KeyCode::Enter)]);
    let last = app.session.steps().last().unwrap();
    assert_eq!((last.mv, last.mover), (bottom, Player::Second));
    assert_eq!(app.session.current().to_move(), Player::Second);
    assert_eq!(
        app.board.hit(
            app.session.current(),
            area,
            Position::new(on_line[0].x, line_y - 2)
        ),
        Some(left),
        "near the left side"
    );
}

// ---------------------------------------------------------------------------------------
// Kalah
// ---------------------------------------------------------------------------------------

use gametree::games::kalah::Kalah;

#[test]
fn kalah_board_shows_pits_stores_counts_and_the_last_sowing() {
    let mut app = new_app::<Kalah>(&config(true, true));
    // South sows pit c: 4 stones into d, e, f and the store: an extra turn.
    play_line(&mut app, "c");
    for (w, h) in [(80, 24), (120, 40)] {
        let buf = render(&mut app, w, h);
        let text = screen(&buf);
        assert!(text.contains("North") && text.contains("South"), "{text}");
        // South's row reads 4 4 0 5 5 5 left to right; North's still all 4.
        let south_row = lines(&buf).into_iter().find(|l| {
            let digits: Vec<&str> = l.split(['│', '┃', ' ']).filter(|s| !s.is_empty()).collect();
            digits
                .windows(6)
                .any(|w| w == ["4", "4", "0", "5", "5", "5"])
        });
        assert!(south_row.is_some(), "{text}");
        // The stores: South's holds 1, at the right end; North's 0 at the left.
        let board = board_inner(&app);
        let one = board
            .positions()
            .filter(|&p| buf[p].symbol() == "1" && buf[p].fg == app.theme.first.fg.unwrap())
            .max_by_key(|p| p.x)
            .expect("South's store");
        let zero = board
            .positions()
            .filter(|&p| buf[p].symbol() == "0" && buf[p].fg == app.theme.second.fg.unwrap())
            .min_by_key(|p| p.x)
            .expect("North's store");
        assert!(zero.x < one.x);
        // The sowing is highlighted: d, e, f and the store got stones, c was emptied.
        let highlighted = |p: Position| buf[p].bg == app.theme.last_move.bg.unwrap();
        assert!(highlighted(one), "the store received the last stone");
        let emptied = board
            .positions()
            .find(|&p| buf[p].symbol() == "0" && buf[p].fg == app.theme.first.fg.unwrap())
            .unwrap();
        assert!(highlighted(emptied));
        assert!(
            buf[emptied]
                .modifier
                .contains(ratatui::style::Modifier::UNDERLINED)
        );
        assert!(
            text.contains("South to move again (you): extra turn"),
            "extra turn: {text}"
        );
        // The move that earned it is the one marked.
        assert!(text.contains("1. South c        extra turn"), "{text}");
        assert!(text.contains("South 1 · North 0"), "{text}");
        assert!(text.contains(" a ") && text.contains(" f "), "{text}");
    }
}

#[test]
fn kalah_play_by_keyboard_and_mouse() {
    let mut app = new_app::<Kalah>(&config(true, false));
    app.start();
    assert_eq!(app.view.cursor, 0, "the cursor starts at pit a");
    // Right twice: pit c; Enter sows it (extra turn: still South).
    feed(
        &mut app,
        vec![key(KeyCode::Right), ch('l'), key(KeyCode::Enter)],
    );
    assert_eq!(notations(&app), ["c"]);
    assert!(app.engine.pending.is_none(), "South moves again");
    // A click on South's pit f.
    render(&mut app, 80, 24);
    let f = spot(&app, 5);
    let fx = feed(&mut app, vec![click(f)]);
    assert_eq!(notations(&app), ["c", "f"]);
    let id = search_id(&fx, Purpose::Move);
    // North answers; the engine's move shows its value in stones.
    feed(&mut app, vec![finished(id, 0, 250)]);
    assert_eq!(app.session.steps()[2].mover, Player::Second);
    let text = screen(&render(&mut app, 80, 24));
    assert!(text.contains("+2.50"), "{text}");
    // Undo takes back North's reply and South's last move (f), back to South's decision.
    feed(&mut app, vec![ch('u')]);
    assert_eq!(app.session.cursor(), 1);
    assert_eq!(app.session.current().to_move(), Player::First);
}

#[test]
fn kalah_with_twelve_pits_fits_80x24_with_the_board_on_top() {
    let mut config = config(true, false);
    config
        .kalah
        .insert("pits".to_string(), toml::Value::Integer(12));
    let mut app = new_app::<Kalah>(&config);
    let buf = render(&mut app, 80, 24);
    let text = screen(&buf);
    assert!(!text.contains("Enlarge"), "{text}");
    let Areas::Panes(a) = app.areas() else {
        panic!()
    };
    assert!(a.moves.y > a.board.y, "stacked layout");
    assert!(text.contains(" l "), "twelve pits, a..l: {text}");
}

// ---------------------------------------------------------------------------------------
// The real program in a real terminal (tmux), where tmux exists
// ---------------------------------------------------------------------------------------

/// Writes past the test harness's output capture, so a skip is seen in every run.
fn note(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{text}");
}

#[test]
fn terminal_end_to_end_in_tmux() {
    let tmux = std::process::Command::new("tmux").arg("-V").output();
    if !tmux.is_ok_and(|o| o.status.success()) {
        note("SKIPPED terminal_end_to_end_in_tmux: tmux is not installed");
        return;
    }
    let exe = env!("CARGO_BIN_EXE_gametree");
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tui_e2e.sh");
    let output = std::process::Command::new("bash")
        .arg(&script)
        .arg(format!("{exe} play tictactoe"))
        .arg(format!("{exe} play --load"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("PASS"), "{stdout}");
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
        text.contains("Start the game"),
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

// ---------------------------------------------------------------------------------------
// Gomoku
// ---------------------------------------------------------------------------------------

use gametree::games::gomoku::Gomoku;

#[test]
fn gomoku_board_has_coordinates_stones_last_move_and_winning_run() {
    let mut app = new_app::<Gomoku>(&config(true, true));
    play_line(&mut app, "h8 a1 h9 a2 h10 a3 h11 a4");
    let buf = render(&mut app, 80, 24);
    let text = screen(&buf);
    // 15x15: letters a..o below, rows 1..15 at the left, 15 at the top.
    let letters = lines(&buf)
        .iter()
        .position(|l| l.contains("a b c d e f g h i j k l m n o"))
        .unwrap_or_else(|| panic!("{text}"));
    let fifteen = find(&buf, "15 ┌").unwrap();
    let one = find(&buf, " 1 ").unwrap();
    assert!(fifteen.y < one.y && one.y < letters as u16, "{text}");
    assert_eq!(text.matches('●').count(), 4, "{text}");
    assert_eq!(text.matches('○').count(), 4, "{text}");
    let a4 = spot(&app, app.session.current().parse_move("a4").unwrap());
    let centre = Position::new(a4.x, a4.y);
    assert!(
        (centre.x.saturating_sub(1)..=centre.x + 1)
            .any(|x| buf[(x, centre.y)].bg == app.theme.last_move.bg.unwrap()),
        "{text}"
    );
    // Black completes five: the run is highlighted at 120x40 too.
    play_line(&mut app, "h12");
    for (w, h) in [(80, 24), (120, 40)] {
        let buf = render(&mut app, w, h);
        let text = screen(&buf);
        assert!(text.contains("Black (you) wins"), "{text}");
        let board = board_inner(&app);
        let won = board
            .positions()
            .filter(|&p| buf[p].symbol() == "●" && buf[p].bg == app.theme.win.bg.unwrap())
            .count();
        assert_eq!(won, 5, "{text}");
    }
}

#[test]
fn gomoku_play_by_keyboard_and_mouse() {
    let mut app = new_app::<Gomoku>(&config(true, false));
    app.start();
    let fx = feed(&mut app, vec![key(KeyCode::Enter)]);
    assert_eq!(notations(&app), ["h8"], "the cursor starts at the centre");
    let id = search_id(&fx, Purpose::Move);
    let reply = app.session.current().parse_move("h9").unwrap();
    feed(&mut app, vec![finished(id, reply, 0)]);
    // The cursor left the stone; arrows walk over empty points.
    feed(
        &mut app,
        vec![key(KeyCode::Left), key(KeyCode::Up), key(KeyCode::Enter)],
    );
    assert_eq!(app.session.steps().len(), 3);
    let id = app.engine.pending.unwrap().id;
    let reply = app.session.current().parse_move("a1").unwrap();
    feed(&mut app, vec![finished(id, reply, 0)]);
    render(&mut app, 80, 24);
    let o15 = app.session.current().parse_move("o15").unwrap();
    let at = spot(&app, o15);
    feed(&mut app, vec![click(at)]);
    assert_eq!(notations(&app).last().unwrap(), "o15");
}

// ---------------------------------------------------------------------------------------
// The search-tree pane
// ---------------------------------------------------------------------------------------

use gametree::engine::api::{Algorithm, EngineSettings};
use gametree::engine::score;
use gametree::engine::stats::group_digits;
use gametree::engine::tree::{Bound, SearchTree, TreeNode};
use gametree::tui::tree_browser::bound_text;
use gametree::tui::worker::{Job, comparison, minimax_nodes};
use ratatui::style::Modifier;

/// Carries out the app's searches on a real engine worker with the config's engines,
/// feeding every report back to the app until each search has finished.
fn serve<G: HasBoard>(app: &mut App<G>, config: &Config, effects: Vec<Effect<G>>) {
    let options = config.game_options::<G>().unwrap();
    let engines = gametree::tui::engines::<G>(config, &options).unwrap();
    let (tx, rx) = mpsc::channel();
    let mut worker = Worker::spawn(engines, move |r| {
        let _ = tx.send(r);
    })
    .unwrap();
    let mut todo = effects;
    while let Some(at) = todo.iter().position(|e| matches!(e, Effect::Search { .. })) {
        let Effect::Search {
            id,
            root,
            side,
            job,
            ..
        } = todo.remove(at)
        else {
            continue;
        };
        worker.run(id, root, side, job);
        loop {
            let report = rx.recv_timeout(DEADLOCK_GUARD).expect("the worker answers");
            let done = matches!(report, Report::Finished { id: i, .. } if i == id);
            todo.extend(app.update(Event::Engine(report)));
            if done {
                break;
            }
        }
    }
}

/// Two humans (so no engine move interferes), each side searching `depth` deep.
fn tree_config(depth: u32) -> Config {
    let mut config = config(true, true);
    config.players.first.engine.limits.depth = (depth > 0).then_some(depth);
    config.players.second.engine.limits.depth = (depth > 0).then_some(depth);
    config
}

/// An app at the position `line` reaches, with `t` pressed and its search served.
fn recorded_app<G: HasBoard>(config: &Config, line: &str) -> App<G> {
    let mut app = new_app::<G>(config);
    play_line(&mut app, line);
    let fx = feed(&mut app, vec![ch('t')]);
    assert!(
        fx.iter().any(|e| matches!(
            e,
            Effect::Search {
                purpose: Purpose::Tree,
                job: Job::Record { .. },
                ..
            }
        )),
        "t starts a recorded search"
    );
    assert_eq!(app.view.focus, Pane::Tree);
    serve(&mut app, config, fx);
    assert!(app.trees.shown().is_some(), "the tree arrived");
    app
}

fn shown_tree<G: HasBoard>(app: &App<G>) -> &SearchTree<G::Move> {
    &app.trees.shown().unwrap().tree
}

fn visible_nodes<G: HasBoard>(app: &App<G>) -> Vec<u32> {
    let shown = app.trees.shown().unwrap();
    shown.view.rows().iter().map(|r| r.node).collect()
}

fn selected_node<G: HasBoard>(app: &App<G>) -> u32 {
    app.trees.shown().unwrap().view.selected_node().unwrap()
}

/// The move of node `id` in notation.
fn node_move<G: HasBoard>(app: &App<G>, id: u32) -> String {
    let shown = app.trees.shown().unwrap();
    shown
        .root
        .format_move(shown.tree.nodes[id as usize].mv.unwrap())
}

/// Selects node `id`: everything opened with `*` on the root, then Down to its row.
fn go_to<G: HasBoard>(app: &mut App<G>, id: u32) {
    feed(app, vec![key(KeyCode::Home), ch('*'), key(KeyCode::Home)]);
    let row = visible_nodes(app).iter().position(|&n| n == id).unwrap();
    feed(app, vec![key(KeyCode::Down); row]);
    assert_eq!(selected_node(app), id);
}

/// The text of the board pane.
fn board_text<G: HasBoard>(app: &App<G>, buf: &Buffer) -> String {
    let Areas::Panes(areas) = app.areas() else {
        panic!("too small");
    };
    let area = areas.board;
    (area.y..area.bottom())
        .map(|y| {
            (area.x..area.right())
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The inside of the tree pane as one line of words (wrapped text joined again).
fn tree_words<G: HasBoard>(app: &App<G>, buf: &Buffer) -> String {
    let Areas::Panes(areas) = app.areas() else {
        panic!("too small");
    };
    let inner = layout::inner(areas.tree);
    (inner.y..inner.bottom())
        .map(|y| {
            (inner.x..inner.right())
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
                .trim()
                .to_string()
        })
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The numbers drawn on the board in the reversed style of a previewed line.
fn numbered_on_board<G: HasBoard>(app: &App<G>, buf: &Buffer) -> Vec<u32> {
    let Areas::Panes(areas) = app.areas() else {
        panic!("too small");
    };
    let inner = layout::inner(areas.board);
    let mut numbers: Vec<u32> = Vec::new();
    for y in inner.y..inner.bottom() {
        let mut x = inner.x;
        while x < inner.right() {
            let cell = &buf[(x, y)];
            if cell.modifier.contains(Modifier::REVERSED) && cell.symbol().parse::<u32>().is_ok() {
                // A number (several digits, maybe with commas for Kalah) in one run.
                let mut text = String::new();
                while x < inner.right()
                    && buf[(x, y)].modifier.contains(Modifier::REVERSED)
                    && buf[(x, y)].symbol() != " "
                {
                    text.push_str(buf[(x, y)].symbol());
                    x += 1;
                }
                numbers.extend(text.split(',').filter_map(|n| n.parse::<u32>().ok()));
            } else {
                x += 1;
            }
        }
    }
    numbers.sort_unstable();
    numbers
}

#[test]
fn tree_opens_at_the_root_children_and_expands_collapses_and_follows_the_pv() {
    let config = tree_config(9);
    let mut app = recorded_app::<TicTacToe>(&config, "b2 a1 c1");
    let tree = shown_tree(&app).clone();
    let root_children = tree.nodes[0].children.clone();
    assert_eq!(root_children.len(), 6, "six empty cells");
    // Collapsed below the root's children at first, the root selected.
    let mut first_view = vec![0];
    first_view.extend(&root_children);
    assert_eq!(visible_nodes(&app), first_view);
    assert_eq!(selected_node(&app), 0);
    let text = screen(&render(&mut app, 120, 40));
    assert!(text.contains("▾ root"), "{text}");
    for &c in &root_children {
        let line = format!("▸ {} ", node_move(&app, c));
        assert!(text.contains(&line), "{line} missing:\n{text}");
    }
    // Down, Right: the first child opens, showing its own children.
    let child = root_children[0];
    feed(&mut app, vec![key(KeyCode::Down), key(KeyCode::Right)]);
    let grandchildren = &tree.nodes[child as usize].children;
    assert!(!grandchildren.is_empty());
    assert_eq!(visible_nodes(&app).len(), 7 + grandchildren.len());
    assert_eq!(visible_nodes(&app)[2], grandchildren[0]);
    let text = screen(&render(&mut app, 120, 40));
    assert!(
        text.contains(&format!("▾ {} ", node_move(&app, child))),
        "{text}"
    );
    // Left closes it; Left again goes up to the root; Enter closes the root itself.
    feed(&mut app, vec![key(KeyCode::Left)]);
    assert_eq!(visible_nodes(&app), first_view);
    assert_eq!(selected_node(&app), child);
    feed(&mut app, vec![key(KeyCode::Left)]);
    assert_eq!(selected_node(&app), 0);
    feed(&mut app, vec![key(KeyCode::Enter)]);
    assert_eq!(visible_nodes(&app), [0]);
    feed(&mut app, vec![key(KeyCode::Enter)]);
    assert_eq!(visible_nodes(&app), first_view);
    // p: the principal variation opens down to its end, which is selected.
    feed(&mut app, vec![ch('p')]);
    let pv: Vec<u32> = tree
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.on_pv)
        .map(|(i, _)| i as u32)
        .collect();
    assert!(pv.len() > 2, "the line runs several moves deep");
    let visible = visible_nodes(&app);
    assert!(
        pv.iter().all(|n| visible.contains(n)),
        "every PV node shows"
    );
    let end = *pv.last().unwrap();
    assert_eq!(selected_node(&app), end);
    assert!(tree.nodes[end as usize].children.is_empty());
    // The PV's moves are drawn in the PV style.
    let buf = render(&mut app, 120, 40);
    let second = node_move(&app, pv[1]);
    let at = find(&buf, &format!("▾ {second} ")).unwrap();
    assert_eq!(
        buf[Position::new(at.x + 2, at.y)].fg,
        app.theme.pv.fg.unwrap()
    );
    // *: the root's whole subtree opens; c closes all again, down to the root's child.
    feed(&mut app, vec![key(KeyCode::Home), ch('*')]);
    assert_eq!(visible_nodes(&app).len(), tree.nodes.len());
    feed(&mut app, vec![key(KeyCode::End)]);
    let last = selected_node(&app);
    feed(&mut app, vec![ch('c')]);
    assert_eq!(visible_nodes(&app), first_view);
    let top = gametree::tui::tree_view::TreeViewState::path(&tree, last)[1];
    assert_eq!(selected_node(&app), top);
    // PageDown and PageUp move by a page of rows.
    feed(
        &mut app,
        vec![key(KeyCode::Home), ch('*'), key(KeyCode::PageDown)],
    );
    let page = app.trees.shown().unwrap().view.selected();
    assert!(page > 3, "a page is many rows: {page}");
    feed(&mut app, vec![key(KeyCode::PageUp)]);
    assert_eq!(app.trees.shown().unwrap().view.selected(), 0);
}

#[test]
fn selecting_a_node_shows_its_position_on_the_board_and_esc_returns_to_the_game() {
    let config = tree_config(9);
    let mut app = recorded_app::<TicTacToe>(&config, "b2 a1 c1");
    let live = notations(&app);
    let live_position = app.session.current().clone();
    feed(&mut app, vec![ch('p')]);
    let end = selected_node(&app);
    let tree = shown_tree(&app).clone();
    let path = gametree::tui::tree_view::TreeViewState::path(&tree, end);
    let moves: Vec<String> = path[1..].iter().map(|&n| node_move(&app, n)).collect();
    let line: Vec<String> = moves
        .iter()
        .enumerate()
        .map(|(i, m)| format!("{}.{m}", i + 1))
        .collect();
    for (w, h) in [(80, 24), (120, 40)] {
        let buf = render(&mut app, w, h);
        let board = board_text(&app, &buf);
        assert!(board.contains("Preview"), "{board}");
        assert!(
            board.contains(&line.join(" ")),
            "{line:?} missing:\n{board}"
        );
        // Every move of the line is numbered on the board, in order.
        let want: Vec<u32> = (1..=moves.len() as u32).collect();
        assert_eq!(numbered_on_board(&app, &buf), want, "{w}x{h}:\n{board}");
    }
    // The numbered cells are where the moves went: the first move's cell holds a "1".
    let mut preview = app.session.current().clone();
    preview.play_line(&moves.join(" ")).unwrap();
    assert_eq!(app.preview().unwrap().position, preview);
    // Browsing never touched the game.
    assert_eq!(notations(&app), live);
    assert_eq!(app.session.current(), &live_position);
    // Esc: the board shows the live position again, with its usual title.
    feed(&mut app, vec![key(KeyCode::Esc)]);
    assert_eq!(app.view.focus, Pane::Board);
    assert!(app.preview().is_none());
    let buf = render(&mut app, 80, 24);
    let board = board_text(&app, &buf);
    assert!(board.contains("Tic-tac-toe · O to move"), "{board}");
    assert!(numbered_on_board(&app, &buf).is_empty());
    assert_eq!(notations(&app), live);
    assert_eq!(app.session.current(), &live_position);
    // Leaving by Tab does the same; coming back shows the preview again.
    feed(&mut app, vec![key(KeyCode::BackTab)]);
    assert!(app.preview().is_some());
    feed(&mut app, vec![key(KeyCode::Tab)]);
    assert!(app.preview().is_none());
}

#[test]
fn the_explanation_line_says_why_a_node_has_its_value() {
    let config = tree_config(9);
    let mut app = recorded_app::<TicTacToe>(&config, "b2 a1 c1");
    let tree = shown_tree(&app).clone();
    let fmt = |v: i32| score::format::<TicTacToe>(v);
    let bound = |v: i32| bound_text::<TicTacToe>(v);
    // The root: whose move, the best move and its value.
    let text = screen(&render(&mut app, 120, 40));
    assert!(text.contains("root: O to move; best "), "{text}");
    // A cut-off: its value reached beta and the remaining moves were skipped.
    let (cut, node) = tree
        .nodes
        .iter()
        .enumerate()
        .find(|(_, n)| n.bound == Bound::Lower && n.skipped > 1 && !n.children.is_empty())
        .expect("alpha-beta cuts here");
    go_to(&mut app, cut as u32);
    let text = screen(&render(&mut app, 160, 50));
    let want = format!(
        "value {} >= beta {}: the {} remaining moves were not searched",
        fmt(node.value),
        bound(node.beta),
        node.skipped
    );
    assert!(text.contains(&want), "{want} missing:\n{text}");
    // The row shows the cut mark with the number of skipped moves.
    assert!(text.contains(&format!("lower ✂{}", node.skipped)), "{text}");
    // A fail-low: no move beat alpha.
    let (low, node) = tree
        .nodes
        .iter()
        .enumerate()
        .find(|(_, n)| n.bound == Bound::Upper && !n.children.is_empty())
        .expect("some node fails low");
    go_to(&mut app, low as u32);
    let text = screen(&render(&mut app, 160, 50));
    let want = format!(
        "value {} <= alpha {}: no move here beat alpha (upper bound)",
        fmt(node.value),
        bound(node.alpha)
    );
    assert!(text.contains(&want), "{want} missing:\n{text}");
    // An exact value inside its window, infinities written out.
    let (exact, node) = tree
        .nodes
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, n)| n.bound == Bound::Exact && !n.children.is_empty())
        .expect("an exact inner node");
    go_to(&mut app, exact as u32);
    let text = screen(&render(&mut app, 160, 50));
    let want = format!(
        "exact value {} inside [{}, {}]",
        fmt(node.value),
        bound(node.alpha),
        bound(node.beta)
    );
    assert!(text.contains(&want), "{want} missing:\n{text}");
    assert!(text.contains("-inf") || text.contains("+inf"), "{text}");
    // A finished game in the tree.
    let over = tree
        .nodes
        .iter()
        .enumerate()
        .find(|(_, n)| n.children.is_empty() && n.depth > 0)
        .map(|(i, _)| i as u32)
        .expect("a game ends inside the tree");
    go_to(&mut app, over);
    let text = screen(&render(&mut app, 160, 50));
    assert!(text.contains("game over here: exact value"), "{text}");
}

#[test]
fn a_truncated_tree_says_so() {
    let mut config = tree_config(9);
    config.tree.max_nodes = 50;
    let mut app = recorded_app::<TicTacToe>(&config, "");
    let tree = shown_tree(&app).clone();
    assert!(tree.truncated);
    assert_eq!(tree.nodes.len(), 50);
    assert!(tree.unrecorded > 0);
    let want = format!(
        "truncated after 50 nodes; {} not recorded",
        group_digits(tree.unrecorded)
    );
    for (w, h) in [(80, 24), (120, 40)] {
        let buf = render(&mut app, w, h);
        let text = tree_words(&app, &buf);
        assert!(
            text.contains(&want),
            "{want} missing at {w}x{h}:\n{}",
            screen(&buf)
        );
    }
    // A node whose moves fell past the budget says why it has no children.
    let shown = app.trees.shown().unwrap();
    let cut_short = (0..tree.nodes.len() as u32)
        .rev()
        .find(|&i| {
            let n = &tree.nodes[i as usize];
            n.children.is_empty() && n.depth > 0 && shown.preview(i).position.outcome().is_none()
        })
        .expect("the budget ran out above the horizon");
    go_to(&mut app, cut_short);
    let text = screen(&render(&mut app, 160, 50));
    assert!(
        text.contains("not recorded (the tree is truncated)"),
        "{text}"
    );
}

#[test]
fn mouse_clicks_select_and_toggle_rows_and_the_wheel_scrolls() {
    let config = tree_config(9);
    let mut app = recorded_app::<TicTacToe>(&config, "b2 a1 c1");
    app.resize(120, 40);
    let Areas::Panes(areas) = app.areas() else {
        panic!("fits");
    };
    let parts = app.trees.parts(layout::inner(areas.tree));
    let row_at = |row: u16| Position::new(parts.list.x + 8, parts.list.y + row);
    let nodes = visible_nodes(&app);
    // A click selects the row under it.
    feed(&mut app, vec![click(row_at(2))]);
    assert_eq!(selected_node(&app), nodes[2]);
    assert_eq!(visible_nodes(&app), nodes, "selecting alone opens nothing");
    // A second click on the selected row opens it, a third closes it.
    feed(&mut app, vec![click(row_at(2))]);
    let children = shown_tree(&app).nodes[nodes[2] as usize].children.len();
    assert_eq!(visible_nodes(&app).len(), nodes.len() + children);
    feed(&mut app, vec![click(row_at(2))]);
    assert_eq!(visible_nodes(&app), nodes);
    // A click on a row's ▸ opens it at once.
    let marker = Position::new(parts.list.x + 2, parts.list.y + 3);
    feed(&mut app, vec![click(marker)]);
    assert_eq!(selected_node(&app), nodes[3]);
    assert!(visible_nodes(&app).len() > nodes.len());
    // The wheel scrolls the rows, the selection stays.
    feed(&mut app, vec![key(KeyCode::Home), ch('*')]);
    let before = find(&render(&mut app, 120, 40), "▾ root").unwrap();
    let wheel = mouse(MouseEventKind::ScrollDown, row_at(1));
    feed(&mut app, vec![wheel.clone(), wheel]);
    let height = usize::from(parts.list.height);
    assert_eq!(app.trees.shown().unwrap().view.offset(height), 6);
    assert_eq!(selected_node(&app), 0);
    let buf = render(&mut app, 120, 40);
    assert!(
        find(&buf, "▾ root").is_none_or(|p| p.y != before.y),
        "scrolled"
    );
    feed(
        &mut app,
        vec![mouse(MouseEventKind::ScrollUp, row_at(1)); 3],
    );
    assert_eq!(app.trees.shown().unwrap().view.offset(height), 0);
    // A click on an unfocused tree pane focuses it and selects the row clicked.
    feed(&mut app, vec![key(KeyCode::Esc)]);
    let Areas::Panes(small) = app.areas() else {
        panic!("fits");
    };
    let parts = app.trees.parts(layout::inner(small.tree));
    feed(
        &mut app,
        vec![click(Position::new(parts.list.x + 8, parts.list.y + 1))],
    );
    assert_eq!(app.view.focus, Pane::Tree);
    assert_eq!(app.trees.shown().unwrap().view.selected(), 1);
}

#[test]
fn comparing_the_algorithms_shows_counts_side_by_side_and_whether_they_agree() {
    let config = tree_config(4);
    let mut app = new_app::<TicTacToe>(&config);
    play_line(&mut app, "b2");
    let fx = feed(&mut app, vec![ch('v')]);
    assert!(fx.iter().any(|e| matches!(
        e,
        Effect::Search {
            purpose: Purpose::Compare,
            job: Job::Compare { .. },
            ..
        }
    )));
    serve(&mut app, &config, fx);
    let searches = comparison(&app.settings[Player::Second.index()], 4);
    assert_eq!(app.trees.trees.len(), searches.len());
    // A time-limited full engine has no depth of its own: the game's default is used.
    let timed = EngineSettings {
        limits: gametree::engine::limits::Limits {
            depth: None,
            time: Some(std::time::Duration::from_secs(1)),
        },
        ..EngineSettings::to_depth(Algorithm::Full, 0)
    };
    assert_eq!(gametree::tui::worker::comparison_depth(&timed, 8), 8);
    assert_eq!(
        gametree::tui::worker::comparison_depth(&app.settings[1], 8),
        4
    );
    assert!(
        searches
            .iter()
            .all(|(_, s)| s.limits == gametree::engine::limits::Limits::depth(4))
    );
    // Minimax, alpha-beta without and with ordering first; then whatever else the engine has.
    assert_eq!(searches[0].1.algorithm, Algorithm::Minimax);
    assert_eq!(searches[1].1.algorithm, Algorithm::AlphaBeta);
    assert!(!searches[1].1.ordering && searches[2].1.ordering);
    let counts: Vec<u64> = app
        .trees
        .trees
        .iter()
        .map(|r| r.result.stats.nodes)
        .collect();
    // The minimax count is what plain minimax visits, counted independently.
    let root = app.session.current().clone();
    let stop = gametree::engine::limits::StopFlag::new();
    assert_eq!(Some(counts[0]), minimax_nodes(&root, 4, 0, u64::MAX, &stop));
    assert!(
        counts[1] < counts[0] && counts[2] <= counts[1],
        "{counts:?}"
    );
    let text = screen(&render(&mut app, 120, 40));
    for ((name, _), count) in searches.iter().zip(&counts) {
        let row = lines(&render(&mut app, 120, 40))
            .into_iter()
            .find(|l| l.contains(name.as_str()) && l.contains(&group_digits(*count)));
        assert!(row.is_some(), "{name} {count} missing:\n{text}");
    }
    // The verdict: the values agree, and the moves are the same or equally good ties.
    let values: Vec<i32> = app.trees.trees.iter().map(|r| r.result.value).collect();
    assert!(values.iter().all(|&v| v == values[0]), "{values:?}");
    let bests: Vec<u8> = app
        .trees
        .trees
        .iter()
        .map(|r| r.result.best.unwrap())
        .collect();
    let (verdict, agree) = app.trees.verdict().unwrap();
    assert!(agree, "{verdict}");
    let flat = text.replace('\n', " ");
    if bests.iter().all(|&b| b == bests[0]) {
        assert!(verdict.contains("all choose"), "{verdict}");
    } else {
        let ties = &app.trees.trees[0].result.ties;
        assert!(bests.iter().all(|b| ties.contains(b)));
        assert!(verdict.contains("but each is one of the"), "{verdict}");
    }
    assert!(
        flat.contains(&score::format::<TicTacToe>(values[0])),
        "{text}"
    );
    // Each tree can be browsed: 3 shows alpha-beta with ordering.
    assert_eq!(app.trees.shown, 0);
    feed(&mut app, vec![ch('3')]);
    assert_eq!(app.trees.shown, 2);
    assert_eq!(
        shown_tree(&app).nodes.len() as u64,
        counts[2],
        "every node recorded"
    );
    // Clicking a search's line shows its tree too.
    let Areas::Panes(areas) = app.areas() else {
        panic!("fits");
    };
    let parts = app.trees.parts(layout::inner(areas.tree));
    feed(
        &mut app,
        vec![click(Position::new(parts.header.x + 3, parts.header.y + 1))],
    );
    assert_eq!(app.trees.shown, 1);
}

/// A one-node tree and a result choosing `best` with `value`.
fn fake(
    best: u8,
    value: i32,
    nodes: u64,
    ties: Vec<u8>,
) -> (SearchResult<u8>, Box<SearchTree<u8>>) {
    let result = SearchResult {
        best: Some(best),
        value,
        pv: vec![best],
        ties,
        stats: SearchStats {
            nodes,
            ..SearchStats::default()
        },
        completed: true,
    };
    let tree = SearchTree {
        nodes: vec![TreeNode {
            parent: None,
            mv: None,
            depth: 2,
            to_move: Player::First,
            alpha: -score::INFINITY,
            beta: score::INFINITY,
            value,
            bound: Bound::Exact,
            skipped: 0,
            on_pv: true,
            tt_hit: false,
            children: Vec::new(),
        }],
        truncated: false,
        unrecorded: 0,
    };
    (result, Box::new(tree))
}

/// Feeds a comparison's answers: (best, value, nodes, ties, gave up) per search.
fn feed_comparison(app: &mut App<TicTacToe>, answers: &[(u8, i32, u64, Vec<u8>, bool)]) {
    let fx = feed(app, vec![ch('v')]);
    let id = search_id(&fx, Purpose::Compare);
    for (index, (best, value, nodes, ties, gave_up)) in answers.iter().cloned().enumerate() {
        let (result, tree) = fake(best, value, nodes, ties);
        feed(
            app,
            vec![Event::Engine(Report::Compared {
                id,
                index,
                result,
                tree,
                gave_up,
            })],
        );
    }
    let (result, _) = fake(0, 0, 1, vec![]);
    feed(app, vec![Event::Engine(Report::Finished { id, result })]);
}

/// The verdict of a comparison whose first search (minimax) answers `minimax` and every
/// other answers `others`: (best, value, nodes, ties, gave up).
fn verdict_of(
    minimax: (u8, i32, u64, Vec<u8>, bool),
    others: &(u8, i32, u64, Vec<u8>, bool),
) -> (App<TicTacToe>, String, bool) {
    let n = comparison(&EngineSettings::default(), 2).len();
    let mut app = new_app::<TicTacToe>(&config(true, true));
    let mut answers = vec![minimax];
    answers.extend((1..n).map(|_| others.clone()));
    feed_comparison(&mut app, &answers);
    let (verdict, agree) = app.trees.verdict().unwrap();
    (app, verdict, agree)
}

#[test]
fn a_comparison_that_disagrees_or_gave_up_says_so_precisely() {
    let c3 = (ttt("c3"), 0, 100, vec![ttt("c3")], false);
    // Values differ: a bug, said in red.
    let (mut app, verdict, agree) = verdict_of(
        (ttt("a1"), 0, 900, vec![ttt("a1")], false),
        &(ttt("b2"), 1, 100, vec![ttt("b2")], false),
    );
    assert!(!agree);
    assert!(
        verdict.contains("the values DISAGREE: minimax +0, alphabeta unordered +1"),
        "{verdict}"
    );
    let buf = render(&mut app, 160, 50);
    let at = find(&buf, "the values DISAGREE").unwrap();
    assert_eq!(buf[at].fg, app.theme.error.fg.unwrap());
    assert!(app.view.message.as_ref().unwrap().is_error);
    // Same value, different moves, each one of minimax's ties: said as ties.
    let ties = vec![ttt("a1"), ttt("b2"), ttt("c3")];
    let (_, verdict, agree) = verdict_of((ttt("a1"), 0, 900, ties, false), &c3);
    assert!(agree);
    assert!(
        verdict.contains(
            "the values agree (+0); the moves differ (a1, c3) but each is one of the 3 moves \
             minimax rates +0"
        ),
        "{verdict}"
    );
    // A move minimax rates lower is a disagreement even with equal values.
    let (_, verdict, agree) = verdict_of((ttt("a1"), 0, 900, vec![ttt("a1")], false), &c3);
    assert!(!agree);
    assert!(
        verdict.contains("chose c3, which minimax rates lower"),
        "{verdict}"
    );
    // Minimax over its budget: no reference, and the pane says it gave up.
    let (mut app, verdict, agree) =
        verdict_of((ttt("a1"), 0, 3_000_001, vec![ttt("a1")], true), &c3);
    assert!(agree);
    assert!(
        verdict.contains(
            "the others all choose c3 with value +0; minimax gave up after 3,000,001 nodes"
        ),
        "{verdict}"
    );
    let text = screen(&render(&mut app, 160, 50));
    assert!(
        text.contains("gave up after 3,000,001 nodes (the minimax budget); 1 recorded"),
        "{text}"
    );
}

#[test]
fn late_answers_of_a_replaced_tree_search_are_ignored() {
    let mut app = new_app::<TicTacToe>(&config(true, true));
    let first = search_id(&feed(&mut app, vec![ch('t')]), Purpose::Tree);
    let fx = feed(&mut app, vec![ch('t')]);
    assert!(fx.contains(&Effect::Stop), "the first search is stopped");
    let second = search_id(&fx, Purpose::Tree);
    let (result, tree) = fake(ttt("a1"), 0, 1, vec![ttt("a1")]);
    feed(
        &mut app,
        vec![
            Event::Engine(Report::Recorded { id: first, tree }),
            Event::Engine(Report::Finished {
                id: first,
                result: result.clone(),
            }),
        ],
    );
    assert!(app.trees.shown().is_none(), "the stale tree is dropped");
    let (_, tree) = fake(ttt("c3"), 0, 1, vec![ttt("c3")]);
    feed(
        &mut app,
        vec![
            Event::Engine(Report::Recorded { id: second, tree }),
            Event::Engine(Report::Finished { id: second, result }),
        ],
    );
    assert!(app.trees.shown().is_some());
    // Esc stops a running tree search instead of leaving the pane.
    let fx = feed(&mut app, vec![ch('t'), key(KeyCode::Esc)]);
    assert!(fx.contains(&Effect::Stop));
    assert_eq!(app.view.focus, Pane::Tree);
}

#[test]
fn the_engine_records_its_own_searches_only_once_the_tree_is_used() {
    let mut app = new_app::<TicTacToe>(&config(true, false));
    let job = |fx: &[Effect<TicTacToe>]| {
        fx.iter()
            .find_map(|e| match e {
                Effect::Search { job, .. } => Some(*job),
                _ => None,
            })
            .unwrap()
    };
    // Normal play: the no-op observer.
    let fx = feed(&mut app, vec![key(KeyCode::Enter)]);
    assert_eq!(job(&fx), Job::Think);
    let id = search_id(&fx, Purpose::Move);
    feed(&mut app, vec![finished(id, ttt("a1"), 0)]);
    let text = screen(&render(&mut app, 120, 40));
    assert!(
        text.contains("The engine's searches are not recorded (R: on)"),
        "{text}"
    );
    // Looking at the tree pane arms the recording of the engine's next searches.
    feed(&mut app, vec![key(KeyCode::BackTab)]);
    let text = screen(&render(&mut app, 120, 40));
    assert!(
        text.contains("last move was searched without recording"),
        "{text}"
    );
    assert!(
        text.contains("The engine's next searches are recorded too"),
        "{text}"
    );
    feed(&mut app, vec![key(KeyCode::Tab)]);
    app.view.cursor = ttt("c3");
    let fx = feed(&mut app, vec![key(KeyCode::Enter)]);
    assert!(matches!(job(&fx), Job::Record { .. }));
    let id = search_id(&fx, Purpose::Move);
    let (result, tree) = fake(ttt("c1"), 0, 1, vec![ttt("c1")]);
    feed(
        &mut app,
        vec![
            Event::Engine(Report::Recorded { id, tree }),
            Event::Engine(Report::Finished { id, result }),
        ],
    );
    assert_eq!(app.trees.shown().unwrap().label, "engine move");
    assert_eq!(app.session.steps().len(), 4, "the engine moved as usual");
    // R turns it off again.
    feed(
        &mut app,
        vec![key(KeyCode::BackTab), ch('R'), key(KeyCode::Tab)],
    );
    app.view.cursor = ttt("c2");
    let fx = feed(&mut app, vec![key(KeyCode::Enter)]);
    assert_eq!(job(&fx), Job::Think);
}

#[test]
fn tree_keys_shadow_global_ones_only_in_the_tree_and_the_hints_say_so() {
    let mut config = config(false, false);
    config.ui.engine_pace_ms = 0;
    let mut app = new_app::<TicTacToe>(&config);
    feed(&mut app, vec![ch(' ')]);
    assert!(app.paused, "Space pauses engine play");
    feed(&mut app, vec![key(KeyCode::BackTab)]);
    assert_eq!(app.view.focus, Pane::Tree);
    // p is the principal variation here, not pause; Space still pauses and resumes.
    feed(&mut app, vec![ch('p')]);
    assert!(app.paused);
    let hints = gametree::tui::panes::status_bar::key_hints(&app);
    assert!(hints.contains(&("Space", "resume")), "{hints:?}");
    assert!(hints.contains(&("t", "search")) && hints.contains(&("Esc", "live board")));
    assert!(
        !hints.iter().any(|(k, _)| *k == "⏎"),
        "Enter is not play here"
    );
    // t while paused searches; the engine stays paused after it.
    let fx = feed(&mut app, vec![ch('t')]);
    let id = search_id(&fx, Purpose::Tree);
    let (result, tree) = fake(ttt("b2"), 0, 1, vec![ttt("b2")]);
    let fx = feed(
        &mut app,
        vec![
            Event::Engine(Report::Recorded { id, tree }),
            Event::Engine(Report::Finished { id, result }),
        ],
    );
    assert!(app.session.steps().is_empty(), "browsing plays no move");
    assert!(!fx.iter().any(|e| matches!(e, Effect::Search { .. })));
    // Leaving the tree, Home and End step through the game again.
    feed(&mut app, vec![key(KeyCode::Esc)]);
    let hints = gametree::tui::panes::status_bar::key_hints(&app);
    assert!(hints.contains(&("t", "tree")), "{hints:?}");
}

/// Every game previews a line with numbered moves: `t`, then `p`.
fn preview_numbers_the_line<G: HasBoard>(config: &Config, line: &str) {
    let mut app = recorded_app::<G>(config, line);
    feed(&mut app, vec![ch('p')]);
    let preview = app.preview().unwrap();
    assert!(!preview.path.is_empty());
    for (w, h) in [(80, 24), (160, 50)] {
        let buf = render(&mut app, w, h);
        let board = board_text(&app, &buf);
        assert!(board.contains("Preview"), "{board}");
        let numbers = numbered_on_board(&app, &buf);
        let want: Vec<u32> = (1..=preview.path.len() as u32).collect();
        assert_eq!(numbers, want, "{} at {w}x{h}:\n{board}", G::KIND.title());
        if w == 160 {
            assert!(board.contains(&preview.line), "{}:\n{board}", preview.line);
        }
    }
}

#[test]
fn every_game_previews_the_selected_line_with_numbered_moves() {
    preview_numbers_the_line::<TicTacToe>(&tree_config(9), "b2");
    preview_numbers_the_line::<Kalah>(&tree_config(4), "");
    preview_numbers_the_line::<Dots>(&tree_config(3), "a1-b1");
    preview_numbers_the_line::<Gomoku>(&tree_config(3), "h8 h9");
}

#[test]
fn a_stopped_comparison_keeps_what_finished_and_gives_no_verdict() {
    let mut app = new_app::<TicTacToe>(&config(true, true));
    let fx = feed(&mut app, vec![ch('v')]);
    let id = search_id(&fx, Purpose::Compare);
    let text = screen(&render(&mut app, 120, 40));
    assert!(text.contains("searching..."), "{text}");
    let (result, tree) = fake(ttt("b2"), 0, 500, vec![ttt("b2")]);
    feed(
        &mut app,
        vec![Event::Engine(Report::Compared {
            id,
            index: 0,
            result,
            tree,
            gave_up: false,
        })],
    );
    // Esc stops it; the worker still answers with Finished.
    let fx = feed(&mut app, vec![key(KeyCode::Esc)]);
    assert!(fx.contains(&Effect::Stop));
    let (result, _) = fake(ttt("b2"), 0, 1, vec![]);
    feed(
        &mut app,
        vec![Event::Engine(Report::Finished { id, result })],
    );
    let text = screen(&render(&mut app, 120, 40));
    assert!(text.contains("500 nodes"), "{text}");
    assert!(text.contains("not searched (stopped)"), "{text}");
    assert!(
        text.contains("stopped before every search ended: no verdict"),
        "{text}"
    );
    assert!(
        app.trees.shown().is_some(),
        "the finished tree can be browsed"
    );
}

#[test]
fn transposition_table_hits_are_marked_and_explained() {
    let mut app = new_app::<TicTacToe>(&config(true, true));
    let id = search_id(&feed(&mut app, vec![ch('t')]), Purpose::Tree);
    let (result, mut tree) = fake(ttt("b2"), 0, 2, vec![ttt("b2")]);
    let mut child = tree.nodes[0].clone();
    child.parent = Some(0);
    child.mv = Some(ttt("b2"));
    child.depth = 1;
    child.to_move = Player::Second;
    child.bound = Bound::Lower;
    child.tt_hit = true;
    tree.nodes.push(child);
    tree.nodes[0].children.push(1);
    feed(
        &mut app,
        vec![
            Event::Engine(Report::Recorded { id, tree }),
            Event::Engine(Report::Finished { id, result }),
        ],
    );
    feed(&mut app, vec![key(KeyCode::Down)]);
    let buf = render(&mut app, 120, 40);
    let text = tree_words(&app, &buf);
    assert!(text.contains("b2 +0 [-inf, +inf] lower TT"), "{text}");
    assert!(
        text.contains(
            "O to move · from the transposition table: lower value +0, not searched again"
        ),
        "{text}"
    );
    // Once moves are played the tree belongs to another position, and says which.
    play_line(&mut app, "b2");
    let text = screen(&render(&mut app, 120, 40));
    assert!(
        text.contains("Search tree · 2 nodes · before the last move"),
        "{text}"
    );
    play_line(&mut app, "a1");
    let text = screen(&render(&mut app, 120, 40));
    assert!(
        text.contains("Search tree · 2 nodes · other position"),
        "{text}"
    );
}

// ---------------------------------------------------------------------------------------
// The reviewer's findings on issue 3 (numbers in the names of the tests' comments)
// ---------------------------------------------------------------------------------------

use gametree::engine::api::Algorithm as Algo;
use gametree::tui::panes::status_bar::key_hints;
use gametree::tui::runner::{SetupExit, run_game_and_setup};

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

fn search_result<M: Clone>(
    best: Option<M>,
    value: i32,
    pv: Vec<M>,
    stats: SearchStats,
) -> SearchResult<M> {
    SearchResult {
        ties: best.clone().into_iter().collect(),
        best,
        value,
        pv,
        stats,
        completed: true,
    }
}

fn progress<M>(id: u64, result: SearchResult<M>) -> Event<Report<M>> {
    Event::Engine(Report::Progress { id, result })
}

fn full_engine(config: &mut Config) {
    for side in [&mut config.players.first, &mut config.players.second] {
        side.engine.algorithm = Algo::Full;
        side.engine.limits.time = Some(std::time::Duration::from_secs(1));
        side.engine.limits.depth = None;
    }
}

/// A Tic-tac-toe game against the engine (O) where X has played b2: the engine's search
/// and its id.
fn engine_thinking(config: &Config) -> (App<TicTacToe>, u64) {
    let mut app = new_app::<TicTacToe>(config);
    let fx = feed(&mut app, vec![key(KeyCode::Enter)]);
    let id = search_id(&fx, Purpose::Move);
    (app, id)
}

/// Feeds a progress report of search `id` with these counters, best move and line.
fn report_progress(app: &mut App<TicTacToe>, id: u64, stats: SearchStats, pv: &[&str]) {
    let pv: Vec<u8> = pv.iter().map(|m| ttt(m)).collect();
    let result = search_result(pv.first().copied(), 0, pv, stats);
    feed(app, vec![progress(id, result)]);
}

/// The engine pane's text at 80x24.
fn engine_text<G: HasBoard>(app: &mut App<G>) -> String {
    let buf = render(app, 80, 24);
    let Areas::Panes(a) = app.areas() else {
        panic!("fits")
    };
    (a.engine.y..a.engine.bottom())
        .map(|y| {
            (a.engine.x..a.engine.right())
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

// 1, 12: on a text row every printable key types; the hints say Ctrl-c quits there.
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

// 2, 8: the setup screen opened from a game keeps the game behind it; a failed load there
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

// 9, 10, 11: what applies; short, wrapped, fresh messages; the form's top and its hints.
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

// 3, 4: the engine pane is live during a search; the time-limited full engine is shown by
// its time, never by its depth sentinel.
#[test]
fn the_engine_pane_is_live_while_the_engine_thinks() {
    let mut config = config(true, false);
    full_engine(&mut config);
    let (mut app, id) = engine_thinking(&config);
    let stats = SearchStats {
        nodes: 5000,
        cutoffs: 120,
        elapsed: Duration::from_millis(100),
        ..SearchStats::default()
    };
    report_progress(&mut app, id, stats, &[]);
    let text = engine_text(&mut app);
    assert!(text.contains("full · 1000 ms/move"), "{text}");
    assert!(!text.contains("depth 1000"), "{text}");
    assert!(text.contains("best so far -"), "{text}");
    assert!(text.contains("value not yet"), "{text}");
    assert!(
        text.contains("nodes 5,000") && text.contains("speed 50k n/s"),
        "{text}"
    );
    assert!(text.contains("depth -"), "{text}");
    // An iteration completed: the best move so far, its value, depth and line.
    let stats = SearchStats {
        nodes: 20_000,
        depth: 4,
        iteration_nodes: 15_000,
        elapsed: Duration::from_millis(200),
        ..SearchStats::default()
    };
    report_progress(&mut app, id, stats, &["a1", "c3", "a3"]);
    let text = engine_text(&mut app);
    assert!(text.contains("best so far a1"), "{text}");
    assert!(text.contains("value +0"), "{text}");
    assert!(
        text.contains("depth 4") && text.contains("nodes 20,000"),
        "{text}"
    );
    assert!(text.contains("pv a1 c3 a3"), "{text}");
    // The header of the whole screen never shows the sentinel either.
    assert!(!screen(&render(&mut app, 80, 24)).contains("depth 1000"));
    assert!(!screen(&render(&mut app, 120, 40)).contains("depth 1000"));
    // The same for minimax and alpha-beta (no answer until the end: counters only).
    for algorithm in [Algo::Minimax, Algo::AlphaBeta] {
        let mut config = config.clone();
        config.players.second.engine.algorithm = algorithm;
        config.players.second.engine.limits.depth = Some(5);
        let (mut app, id) = engine_thinking(&config);
        let stats = SearchStats {
            nodes: 777,
            elapsed: Duration::from_millis(100),
            ..SearchStats::default()
        };
        report_progress(&mut app, id, stats, &[]);
        let text = engine_text(&mut app);
        assert!(text.contains(&format!("{algorithm} · depth 5")), "{text}");
        assert!(text.contains("nodes 777"), "{text}");
        assert!(!text.contains("thinking..."), "{text}");
    }
}

// 7: "move now" before any root move was searched: no fake value in the log or the pane.
#[test]
fn a_move_made_before_any_search_has_no_value() {
    let mut config = config(true, false);
    full_engine(&mut config);
    let (mut app, id) = engine_thinking(&config);
    assert!(feed(&mut app, vec![ch('m')]).contains(&Effect::Stop));
    let stats = SearchStats {
        nodes: 3,
        ..SearchStats::default()
    };
    let mut result = search_result(Some(ttt("a1")), 0, vec![ttt("a1")], stats);
    result.completed = false;
    feed(
        &mut app,
        vec![Event::Engine(Report::Finished { id, result })],
    );
    assert_eq!(notations(&app), ["b2", "a1"]);
    assert_eq!(app.session.steps()[1].value, None, "no value logged");
    let text = engine_text(&mut app);
    assert!(text.contains("stopped early"), "{text}");
    assert!(text.contains("none: stopped before any move"), "{text}");
    assert!(!text.contains("value +0"), "{text}");
    let log = screen(&render(&mut app, 80, 24));
    let row = log.lines().find(|l| l.contains("2. O")).unwrap();
    assert!(!row.contains("+0"), "{row}");
}

// 5, 6: minimax says so plainly; the ratio compares the same depth (the last iteration).
#[test]
fn the_minimax_comparison_is_plain_and_compares_like_with_like() {
    let mut config = config(true, false);
    config.players.second.engine.algorithm = Algo::Minimax;
    let mut app = new_app::<TicTacToe>(&config);
    let fx = feed(&mut app, vec![key(KeyCode::Enter)]);
    feed(
        &mut app,
        vec![finished(search_id(&fx, Purpose::Move), ttt("a1"), 0)],
    );
    let text = engine_text(&mut app);
    assert!(text.contains("plain minimax: no pruning"), "{text}");
    assert!(!text.contains("would visit"), "{text}");
    // The full engine: 1,000 nodes over every iteration, 100 in the depth-4 one.
    let mut config = config.clone();
    full_engine(&mut config);
    let (mut app, id) = engine_thinking(&config);
    let stats = SearchStats {
        nodes: 1000,
        iteration_nodes: 100,
        depth: 4,
        ..SearchStats::default()
    };
    let result = search_result(Some(ttt("a1")), 0, vec![ttt("a1")], stats);
    feed(
        &mut app,
        vec![
            Event::Engine(Report::Finished { id, result }),
            Event::Engine(Report::MinimaxNodes {
                id,
                nodes: Some(500),
            }),
        ],
    );
    let text = engine_text(&mut app);
    assert!(text.contains("minimax to depth 4: 500 nodes"), "{text}");
    assert!(text.contains("×5.0 the depth-4 iteration's 100"), "{text}");
}

// 13: messages go at the next action or after a few seconds of ticks; a long one is shown
// whole on the second row.
#[test]
fn status_messages_expire_and_are_not_cut() {
    use gametree::tui::view_state::MESSAGE_TICKS;
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

// 14: the keys shown follow the focus, dialogs and what can be done now.
#[test]
fn key_hints_follow_focus_dialogs_and_redo() {
    let mut app = new_app::<TicTacToe>(&config(true, true));
    let has = |app: &App<TicTacToe>, key: &str| key_hints(app).iter().any(|(k, _)| *k == key);
    assert!(has(&app, "⏎") && has(&app, "H"));
    assert!(!has(&app, "u"), "nothing to undo yet");
    feed(&mut app, vec![key(KeyCode::Tab)]);
    assert_eq!(app.view.focus, Pane::Moves);
    assert!(!has(&app, "⏎") && !has(&app, "H"), "{:?}", key_hints(&app));
    assert!(has(&app, "↑↓") && has(&app, "PgUp PgDn"));
    feed(&mut app, vec![key(KeyCode::BackTab), key(KeyCode::Enter)]);
    assert!(has(&app, "u") && !has(&app, "r"));
    feed(&mut app, vec![ch('u')]);
    assert!(has(&app, "r"), "redo after an undo: {:?}", key_hints(&app));
    feed(&mut app, vec![ch('r'), ch('q')]);
    assert!(app.view.dialog.is_some());
    let keys: Vec<_> = key_hints(&app).iter().map(|(k, _)| *k).collect();
    assert_eq!(keys, ["y ⏎", "n Esc", "Ctrl-c"]);
    let bar = screen(&render(&mut app, 80, 24));
    let last = bar.lines().last().unwrap();
    assert!(last.contains("y ⏎ yes") && !last.contains("hint"), "{last}");
}

// 15, 25: the help lists every key and mouse action, H and the arrows in Moves included.
#[test]
fn help_lists_every_key_and_mouse_action() {
    let help: Vec<String> = gametree::tui::keymap::HELP
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
    let keys_w = gametree::tui::keymap::HELP
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap();
    for (keys, what) in gametree::tui::keymap::HELP {
        let width = if keys.is_empty() {
            what.chars().count() + 1
        } else {
            keys_w + 2 + what.chars().count()
        };
        assert!(width <= 78, "too wide: {keys} {what}");
    }
}

// 16: narrow titles say less instead of cutting a word; stats items never split.
#[test]
fn small_sizes_shorten_titles_and_keep_stats_items_whole() {
    let mut app = new_app::<Dots>(&config(true, true));
    let mut moves = Vec::new();
    loop {
        let game = app.session.current();
        moves.clear();
        game.legal_moves(&mut moves);
        let Some(&mv) = moves.first() else { break };
        app.session.play(mv, None).unwrap();
    }
    assert!(app.session.current().outcome().is_some());
    let buf = render(&mut app, 60, 20);
    let top = &lines(&buf)[0];
    assert!(top.contains(" game over "), "{top}");
    assert!(
        !top.contains("game ov ") && !top.contains("game ov━"),
        "{top}"
    );
    // Big numbers at 80x24: every item whole on one line.
    let mut app = new_app::<TicTacToe>(&config(true, false));
    let fx = feed(&mut app, vec![key(KeyCode::Enter)]);
    let stats = SearchStats {
        nodes: 123_456_789,
        cutoffs: 98_765_432,
        depth: 12,
        iteration_nodes: 1_000_000,
        elapsed: Duration::from_millis(12_345),
        ..SearchStats::default()
    };
    let result = search_result(Some(ttt("a1")), 0, vec![ttt("a1")], stats);
    let id = search_id(&fx, Purpose::Move);
    feed(
        &mut app,
        vec![Event::Engine(Report::Finished { id, result })],
    );
    let text = engine_text(&mut app);
    for item in [
        "nodes 123,456,789",
        "speed 10.0M n/s",
        "cut-offs 98,765,432",
        "time 12.35 s",
        "depth 12",
    ] {
        assert!(text.lines().any(|l| l.contains(item)), "{item}:\n{text}");
    }
}

// 18: a long game shown first at another size: the first wheel notch moves the list.
#[test]
fn the_move_log_scrolls_at_once_after_a_resize() {
    let config = config(true, true);
    let options = config.game_options::<Dots>().unwrap();
    let mut session = Session::<Dots>::new(options);
    let mut moves = Vec::new();
    for _ in 0..22 {
        moves.clear();
        session.current().legal_moves(&mut moves);
        session.play(moves[0], None).unwrap();
    }
    // Made for the default frame, then the terminal turns out taller (as when a save is
    // loaded at 120x40): one resize, then only drawing and the wheel.
    let mut app = App::new(&config, session);
    app.resize(120, 40);
    let Areas::Panes(a) = app.areas() else {
        panic!()
    };
    let rows = usize::from(layout::inner(a.moves).height);
    assert!(rows < 23, "the log must scroll at 120x40 ({rows} rows)");
    assert!(app.view.log_offset <= 23 - rows, "offset within the list");
    let first_row = |app: &App<Dots>| {
        let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
        terminal.draw(|f| gametree::tui::ui::draw(f, app)).unwrap();
        let buf = terminal.backend().buffer();
        let inner = layout::inner(a.moves);
        (inner.x..inner.right())
            .map(|x| buf[(x, inner.y)].symbol())
            .collect::<String>()
    };
    let before = first_row(&app);
    feed(
        &mut app,
        vec![mouse(
            MouseEventKind::ScrollUp,
            layout::inner(a.moves).as_position(),
        )],
    );
    assert_ne!(first_row(&app), before, "the first notch scrolls");
}

// 20: engine against engine holds still behind a dialog.
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

// 21: a wide terminal gives the boards room and the move log only what it needs; Kalah's
// stores say whose they are; Gomoku's stones are black and white, not coloured.
#[test]
fn wide_terminals_grow_the_boards_and_keep_the_log_narrow() {
    let mut app = new_app::<Dots>(&config(true, true));
    let buf = render(&mut app, 200, 60);
    let Areas::Panes(a) = app.areas() else {
        panic!()
    };
    assert!(a.moves.width <= 46, "{:?}", a.moves);
    let row = lines(&buf)
        .into_iter()
        .find(|l| l.contains(" 1 •"))
        .unwrap();
    let dots: Vec<usize> = row
        .chars()
        .enumerate()
        .filter(|(_, c)| *c == '•')
        .map(|(i, _)| i)
        .collect();
    assert!(dots[1] - dots[0] > 8, "boxes wider than at 80x24: {row}");
    for (w, h) in [(80, 24), (200, 60)] {
        let mut app = new_app::<Kalah>(&config(true, true));
        let buf = render(&mut app, w, h);
        let board = board_inner(&app);
        let text: String = (board.y..board.bottom())
            .map(|y| {
                (board.x..board.right())
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n");
        let (north, south) = if w == 80 {
            ("N", "S")
        } else {
            ("North", "South")
        };
        // The label inside each store, between the table's borders.
        for name in [north, south] {
            let label = if w == 80 {
                format!("│ {name} │")
            } else {
                format!("│{name} │")
            };
            assert!(text.contains(&label), "{label}:\n{text}");
        }
    }
    let mut app = new_app::<Gomoku>(&config(true, true));
    play_line(&mut app, "h8 h9");
    let buf = render(&mut app, 80, 24);
    for stone in ["●", "○"] {
        let at = board_inner(&app)
            .positions()
            .find(|&p| buf[p].symbol() == stone)
            .unwrap();
        assert_ne!(buf[at].fg, app.theme.first.fg.unwrap());
        assert_ne!(buf[at].fg, app.theme.second.fg.unwrap());
    }
}

// 22: the game screen's "enlarge" message says how to quit, even when it wraps.
#[test]
fn the_enlarge_message_says_q_quits() {
    let mut app = new_app::<TicTacToe>(&config(true, false));
    for (w, h) in [(40, 12), (30, 8), (20, 4)] {
        let text = screen(&render(&mut app, w, h));
        assert!(text.contains("q quits"), "{w}x{h}:\n{text}");
    }
}

// 23: clicks aimed from the picture (what is drawn, not the hit-test) play what is drawn.
#[test]
fn kalah_clicks_on_the_drawn_pits_play_them() {
    let mut app = new_app::<Kalah>(&config(true, true));
    let buf = render(&mut app, 80, 24);
    let board = board_inner(&app);
    let rows = lines(&buf);
    let letter_rows: Vec<usize> = (usize::from(board.y)..usize::from(board.bottom()))
        .filter(|&y| {
            let l = &rows[y];
            l.contains(" a ") && l.contains(" f ")
        })
        .collect();
    let (top, bottom) = (letter_rows[0], *letter_rows.last().unwrap());
    // South's pit a: the count drawn above the letter a of the bottom row.
    let count_above = |y: usize, letter: char, down: bool| -> Position {
        let line = &rows[y];
        let x = line.chars().position(|c| c == letter).unwrap();
        let mut y = y;
        loop {
            y = if down { y + 1 } else { y - 1 };
            if buf[(x as u16, y as u16)]
                .symbol()
                .chars()
                .all(|c| c.is_ascii_digit())
            {
                return Position::new(x as u16, y as u16);
            }
        }
    };
    feed(&mut app, vec![click(count_above(bottom, 'a', false))]);
    assert_eq!(notations(&app), ["a"]);
    // North's pit c: the count below the letter c of the top row.
    let buf = render(&mut app, 80, 24);
    assert_eq!(lines(&buf)[top], rows[top]);
    feed(&mut app, vec![click(count_above(top, 'c', true))]);
    assert_eq!(notations(&app), ["a", "c"]);
}

#[test]
fn gomoku_clicks_on_the_drawn_point_play_it() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut app = new_app::<Gomoku>(&config(true, true));
        let buf = render(&mut app, w, h);
        // The point h8: on the row labelled 8, in the column lettered h.
        let eight = find(&buf, " 8 ").unwrap();
        let rows = lines(&buf);
        let letters = rows
            .iter()
            .position(|l| l.contains('a') && l.contains(" o") && l.contains(" h "))
            .unwrap();
        let x = rows[letters].chars().position(|c| c == 'h').unwrap();
        let at = Position::new(x as u16, eight.y);
        assert!(
            ["┼", "├", "┤"].contains(&buf[at].symbol()),
            "a point: {}",
            buf[at].symbol()
        );
        feed(&mut app, vec![click(at)]);
        assert_eq!(notations(&app), ["h8"], "{w}x{h}");
        let buf = render(&mut app, w, h);
        assert_eq!(buf[at].symbol(), "●");
    }
}

#[test]
fn dots_clicks_between_the_drawn_dots_play_that_line() {
    for (w, h) in [(80, 24), (120, 40), (200, 60)] {
        let mut app = new_app::<Dots>(&config(true, true));
        let buf = render(&mut app, w, h);
        let one = find(&buf, " 1 •").unwrap();
        let two = find(&buf, " 2 •").unwrap();
        let a1 = Position::new(one.x + 3, one.y);
        let row = &lines(&buf)[usize::from(one.y)];
        let b1_x = row
            .chars()
            .enumerate()
            .filter(|(_, c)| *c == '•')
            .nth(1)
            .unwrap()
            .0 as u16;
        // Halfway between the dots a1 and b1, then halfway between a1 and a2.
        let between = Position::new(u16::midpoint(a1.x, b1_x), a1.y);
        feed(&mut app, vec![click(between)]);
        assert_eq!(notations(&app), ["a1-b1"], "{w}x{h}");
        let buf = render(&mut app, w, h);
        assert_eq!(buf[between].symbol(), "━");
        let between = Position::new(a1.x, u16::midpoint(a1.y, two.y));
        feed(&mut app, vec![click(between)]);
        assert_eq!(notations(&app), ["a1-b1", "a1-a2"], "{w}x{h}");
        let buf = render(&mut app, w, h);
        assert_eq!(buf[between].symbol(), "┃");
    }
}

// 23: the wheel scrolls the pane under the pointer: the engine pane with a long line.
#[test]
fn the_wheel_scrolls_the_engine_pane_under_the_pointer() {
    let mut app = new_app::<Gomoku>(&config(true, false));
    let fx = feed(&mut app, vec![key(KeyCode::Enter)]);
    let id = search_id(&fx, Purpose::Move);
    // A principal variation of 40 legal moves: far too long for 80x24.
    let mut game = app.session.current().clone();
    let mut pv = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..40 {
        moves.clear();
        game.legal_moves(&mut moves);
        pv.push(moves[0]);
        game.play(moves[0]);
    }
    let last = {
        let mut g = app.session.current().clone();
        for &m in &pv[..39] {
            g.play(m);
        }
        g.format_move(pv[39])
    };
    let stats = SearchStats {
        nodes: 10,
        depth: 40,
        iteration_nodes: 10,
        ..SearchStats::default()
    };
    let result = search_result(Some(pv[0]), 0, pv, stats);
    feed(
        &mut app,
        vec![Event::Engine(Report::Finished { id, result })],
    );
    let text = engine_text(&mut app);
    assert!(text.contains("↓ more"), "{text}");
    assert!(
        !text.contains(&format!(" {last} ")) && !text.contains(&format!(" {last}│")),
        "{text}"
    );
    let Areas::Panes(a) = app.areas() else {
        panic!()
    };
    let over = layout::inner(a.engine).as_position();
    feed(&mut app, vec![mouse(MouseEventKind::ScrollDown, over); 5]);
    assert!(app.view.engine_scroll > 0);
    let text = engine_text(&mut app);
    assert!(text.contains(&last), "the end of the line: {text}");
    assert!(
        !text.contains("engine ·"),
        "the header scrolled away: {text}"
    );
    // Scrolled to the end and no further: the first notch back moves it.
    let end = app.view.engine_scroll;
    feed(&mut app, vec![mouse(MouseEventKind::ScrollUp, over)]);
    assert!(app.view.engine_scroll < end);
    feed(&mut app, vec![mouse(MouseEventKind::ScrollUp, over); 5]);
    assert!(engine_text(&mut app).contains("engine ·"));
    // The keys scroll it too while it has the focus.
    feed(&mut app, vec![click(over), key(KeyCode::PageDown)]);
    assert_eq!(app.view.focus, Pane::Engine);
    assert!(app.view.engine_scroll > 0);
}

// 24: undo before the human's first move (the engine opened) has nothing to take back.
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
