//! Whole screens and panes rendered at 80x24, 120x40 and other sizes: content, colour,
//! titles that shorten, boards that grow, and the "enlarge" message.

use std::time::Duration;

use gametree::engine::Game;
use gametree::engine::stats::SearchStats;
use gametree::games::dots::Dots;
use gametree::games::gomoku::Gomoku;
use gametree::games::kalah::Kalah;
use gametree::games::tictactoe::TicTacToe;
use gametree::tui::boards::HasBoard;
use gametree::tui::event::Event;
use gametree::tui::layout::Areas;
use gametree::tui::worker::{Purpose, Report};
use ratatui::crossterm::event::KeyCode;
use ratatui::layout::Position;

use crate::helpers::{
    assert_snapshot, board_inner, config, engine_text, feed, find, key, lines, new_app, play_line,
    render, screen, search_id, search_result, spot, ttt,
};

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
    // A framed banner above the board, not only the status line.
    let banner = find(&buf, "Game over: X wins").expect("the game-over banner");
    let board = board_inner(&app);
    assert!(banner.y < board.y + 3, "{text}");
    assert_eq!(
        buf[banner].bg,
        app.theme.win.bg.unwrap(),
        "in the result colours"
    );
    let a1 = spot(&app, ttt("a1"));
    assert!(a1.y > banner.y + 1, "the banner is above the board: {text}");
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
fn kalah_with_twelve_pits_fits_80x24_with_the_board_on_top() {
    let mut config = config(true, false);
    config.games.kalah.pits = 12;
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
        // The banner never covers a stone: in the top border when the board fills the pane.
        assert!(text.contains("Game over: Black wins"), "{text}");
        let board = board_inner(&app);
        let won = board
            .positions()
            .filter(|&p| buf[p].symbol() == "●" && buf[p].bg == app.theme.win.bg.unwrap())
            .count();
        assert_eq!(won, 5, "{text}");
    }
}

// Narrow titles say less instead of cutting a word; stats items never split.
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

// A wide terminal gives the boards room and the move log only what it needs; Kalah's
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

// The game screen's "enlarge" message says how to quit, even when it wraps.
#[test]
fn the_enlarge_message_says_q_quits() {
    let mut app = new_app::<TicTacToe>(&config(true, false));
    for (w, h) in [(40, 12), (30, 8), (20, 4)] {
        let text = screen(&render(&mut app, w, h));
        assert!(text.contains("q quits"), "{w}x{h}:\n{text}");
    }
}

/// A game of `G` two humans play, `line` played, at 80x24 and 120x40 against its snapshots.
fn screens_match<G: HasBoard>(name: &str, line: &str) {
    let mut app = new_app::<G>(&config(true, true));
    play_line(&mut app, line);
    for (width, height) in [(80, 24), (120, 40)] {
        let buf = render(&mut app, width, height);
        assert_snapshot(&format!("{name}-{width}x{height}"), &buf);
    }
}

/// Whole screens of every game, a few moves in, against the text kept in
/// `tests/tui/snapshots/`.
#[test]
fn every_game_screen_at_80x24_and_120x40_matches_its_snapshot() {
    screens_match::<TicTacToe>("tictactoe", "b2 a1 c3");
    screens_match::<Gomoku>("gomoku", "h8 h9 j10");
    screens_match::<Kalah>("kalah", "a b");
    screens_match::<Dots>("dots", "h1,1 v1,1 h2,2");
}

#[test]
fn the_kalah_log_marks_captures_as_it_marks_extra_turns() {
    use gametree::games::Playable;
    let mut app = new_app::<Kalah>(&config(true, true));
    // Play the first legal move until some move captures, then play that one.
    let mut moves = Vec::new();
    let mut capture = None;
    for _ in 0..200 {
        let game = *app.session.current();
        game.legal_moves(&mut moves);
        if let Some((mv, note)) = moves
            .iter()
            .find_map(|&mv| game.move_note(mv).map(|n| (mv, n)))
        {
            capture = Some(note);
            app.session.play(mv, None).unwrap();
            break;
        }
        app.session.play(moves[0], None).unwrap();
    }
    let note = capture.expect("no capture within 200 moves");
    assert!(note.starts_with("captures "), "{note}");
    let text = screen(&render(&mut app, 120, 40));
    assert!(text.contains(&note), "{text}");
}
