//! Mouse events fed to `App::update`: clicks on the drawn board of every game (aimed from
//! the picture, not from `BoardView::hit`), the move log, focus, dialog buttons and the wheel.

use gametree::engine::stats::SearchStats;
use gametree::engine::{Game, Player};
use gametree::games::dots::Dots;
use gametree::games::gomoku::Gomoku;
use gametree::games::kalah::Kalah;
use gametree::games::tictactoe::TicTacToe;
use gametree::session::Session;
use gametree::tui::action::Pane;
use gametree::tui::app::{App, Effect};
use gametree::tui::boards::BoardView;
use gametree::tui::event::Event;
use gametree::tui::layout::{self, Areas};
use gametree::tui::view_state::Dialog;
use gametree::tui::worker::{Purpose, Report};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{
    Event as CtEvent, KeyCode, KeyEvent, KeyModifiers, MouseEventKind,
};
use ratatui::layout::Position;

use crate::helpers::{
    board_inner, ch, click, config, engine_text, feed, find, finished, key, lines, mouse, new_app,
    notations, play_line, render, screen, search_id, search_result, spot, ttt,
};

fn dots_move(app: &App<Dots>, text: &str) -> u8 {
    app.session.current().parse_move(text).unwrap()
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

// A long game shown first at another size: the first wheel notch moves the list.
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

// Clicks aimed from the picture (what is drawn, not the hit-test) play what is drawn.
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

// The wheel scrolls the pane under the pointer: the engine pane with a long line.
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
