//! The engine pane: live progress, the final answer, and the minimax comparison.

use std::time::Duration;

use gametree::config::Config;
use gametree::engine::api::{Algorithm as Algo, SearchResult};
use gametree::engine::clock::ClockReading;
use gametree::engine::stats::SearchStats;
use gametree::games::tictactoe::TicTacToe;
use gametree::tui::app::{App, Effect};
use gametree::tui::event::Event;
use gametree::tui::worker::{MinimaxEstimate, Purpose, Report};
use ratatui::crossterm::event::KeyCode;

use crate::helpers::{
    ch, config, engine_text, feed, finished, key, new_app, notations, render, screen, search_id,
    search_result, ttt,
};

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
            estimate: None,
        })],
    );
    let done = screen(&render(&mut app, 80, 24));
    assert!(done.contains("best a1"), "{done}");
    assert!(done.contains("nodes 42"), "{done}");
    // Against the nodes of the search to that depth, and saying which.
    assert!(
        flat(&done).contains(
            "alphabeta 42 nodes; minimax to the same depth (3) would need 420 (10× more)"
        ),
        "{done}"
    );
    // Over the budget, the count is given up and says so.
    feed(
        &mut app,
        vec![Event::Engine(Report::MinimaxNodes {
            id,
            nodes: None,
            estimate: None,
        })],
    );
    let over = screen(&render(&mut app, 80, 24));
    assert!(over.contains("over 3,000,000 nodes"), "{over}");
    // With the shallower counts that fitted, it also says how big the whole tree is.
    feed(
        &mut app,
        vec![Event::Engine(Report::MinimaxNodes {
            id,
            nodes: None,
            estimate: Some(MinimaxEstimate {
                depth: 2,
                nodes: 64,
                previous: 8,
            }),
        })],
    );
    let estimated = flat(&screen(&render(&mut app, 120, 40)));
    assert!(
        estimated.contains(
            "over 3,000,000 nodes: about 512, growing 8.0× a ply as its first 2 plies do"
        ),
        "{estimated}"
    );
}

// The engine pane is live during a search; the time-limited full engine is shown by
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

#[test]
fn an_engine_on_a_match_clock_shows_its_time_left_and_an_undo_gives_it_back() {
    let mut config = config(true, false);
    full_engine(&mut config);
    config.players.second.engine.match_time = Some(Duration::from_secs(60));
    let mut app = new_app::<TicTacToe>(&config);
    let fx = feed(&mut app, vec![key(KeyCode::Enter)]);
    // The move's search is told where its side stands on the clock; nothing used yet.
    let clock = fx.iter().find_map(|e| match e {
        Effect::Search {
            purpose: Purpose::Move,
            clock,
            ..
        } => Some(*clock),
        _ => None,
    });
    assert_eq!(
        clock,
        Some(Some(ClockReading {
            ply: 1,
            used: Duration::ZERO
        }))
    );
    let id = search_id(&fx, Purpose::Move);
    // Five ticks of 100 ms: the clock runs down while it thinks.
    feed(&mut app, vec![Event::Tick; 5]);
    let text = engine_text(&mut app);
    assert!(text.contains("1 min/game, 1000 ms/move"), "{text}");
    assert!(text.contains("clock 59.5 s left"), "{text}");
    // Its move took 2 s.
    let stats = SearchStats {
        nodes: 42,
        depth: 3,
        elapsed: Duration::from_secs(2),
        ..SearchStats::default()
    };
    let result = search_result(Some(ttt("a1")), 0, vec![ttt("a1")], stats);
    feed(
        &mut app,
        vec![Event::Engine(Report::Finished { id, result })],
    );
    assert_eq!(notations(&app), ["b2", "a1"]);
    let text = engine_text(&mut app);
    assert!(text.contains("clock 58.0 s left"), "{text}");
    assert_eq!(
        app.session
            .clock_reading(gametree::engine::Player::Second)
            .used,
        Duration::from_secs(2)
    );
    // Undo the turn: the engine's move goes, and its time comes back.
    feed(&mut app, vec![ch('u')]);
    assert_eq!(app.session.cursor(), 0);
    let text = engine_text(&mut app);
    assert!(text.contains("clock 1:00 left"), "{text}");
    assert!(!text.contains("(X "), "a human has no clock: {text}");
    // Engine against engine, both on clocks: the pane shows the other side's as well.
    let mut both = config.clone();
    both.players.first.kind = gametree::config::PlayerKind::Engine;
    both.players.first.engine.match_time = Some(Duration::from_secs(30));
    let mut app = new_app::<TicTacToe>(&both);
    let fx = app.start();
    search_id(&fx, Purpose::Move);
    let text = engine_text(&mut app);
    assert!(text.contains("clock 30.0 s left"), "{text}");
    assert!(text.contains("(O 1:00 left)"), "{text}");
}

// "move now" before any root move was searched: no fake value in the log or the pane.
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

// Minimax says so plainly; the ratio compares the same depth (the last iteration).
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
                estimate: None,
            }),
        ],
    );
    let text = engine_text(&mut app);
    // The full engine's last iteration fed on the table: a count, no ratio.
    assert!(
        flat(&text).contains(
            "minimax to depth 4 would need 500 nodes; the full engine's depth-4 iteration took \
             100, fed by the table"
        ),
        "{text}"
    );
    assert!(!text.contains('×'), "{text}");
}

// A `t` search runs the lesson's plain alpha-beta (unless the tree pane was switched to the
// full engine): the engine pane names that search and compares it with minimax as a ratio,
// even when the side itself plays with the full engine on a time limit.
#[test]
fn a_tree_search_is_described_by_what_it_ran() {
    let mut config = config(true, false);
    full_engine(&mut config);
    let mut app = new_app::<TicTacToe>(&config);
    let fx = feed(&mut app, vec![ch('t')]);
    let id = search_id(&fx, Purpose::Tree);
    let searching = screen(&render(&mut app, 120, 40));
    assert!(
        searching.contains("tree search for X · alphabeta · depth"),
        "{searching}"
    );
    assert!(!searching.contains("full"), "{searching}");
    feed(
        &mut app,
        vec![
            finished(id, ttt("b2"), 0),
            Event::Engine(Report::MinimaxNodes {
                id,
                nodes: Some(420),
                estimate: None,
            }),
        ],
    );
    let done = flat(&screen(&render(&mut app, 120, 40)));
    assert!(
        done.contains(
            "alphabeta 42 nodes; minimax to the same depth (3) would need 420 (10× more)"
        ),
        "{done}"
    );
    assert!(!done.contains("the full engine's"), "{done}");
    // The side's own engine is still the full one, for its moves and hints.
    let fx = feed(&mut app, vec![key(KeyCode::Esc), ch('H')]);
    let id = search_id(&fx, Purpose::Hint);
    feed(&mut app, vec![Event::Tick]);
    let hint = flat(&screen(&render(&mut app, 80, 24)));
    assert!(hint.contains("hint for X · full · 1000 ms/move"), "{hint}");
    feed(&mut app, vec![finished(id, ttt("b2"), 0)]);
}

/// The words of the rightmost pane on screen (the engine pane at these sizes), its lines
/// joined by one space, so that a sentence wrapped over lines reads as one.
fn flat(text: &str) -> String {
    text.lines()
        .filter_map(|line| line.split(['│', '┃']).nth_back(1))
        .flat_map(str::split_whitespace)
        .collect::<Vec<_>>()
        .join(" ")
}

// A human on a match clock: it runs while the human thinks (the status bar counts down),
// the move is charged its time, the clock stands while the engine thinks and runs on while
// the history is browsed, running out loses the game on time, and an undo gives the time
// back.
#[test]
fn a_humans_match_clock_runs_while_it_thinks_and_loses_on_time() {
    use gametree::engine::Player;
    let mut config = config(true, false);
    config.players.first.engine.match_time = Some(Duration::from_secs(2));
    let mut app = new_app::<TicTacToe>(&config);
    assert!(status(&mut app).contains("X to move (you) · 2.0 s left"));
    feed(&mut app, vec![Event::Tick; 5]);
    let text = status(&mut app);
    assert!(text.contains("X to move (you) · 1.5 s left"), "{text}");
    // Enter plays the cursor's cell: the move took five ticks of 100 ms.
    let fx = feed(&mut app, vec![key(KeyCode::Enter)]);
    assert_eq!(
        app.session.steps()[0].spent,
        Some(Duration::from_millis(500))
    );
    let id = search_id(&fx, Purpose::Move);
    // The engine thinks for 3 s: the human's clock stands.
    feed(&mut app, vec![Event::Tick; 30]);
    let text = status(&mut app);
    assert!(text.contains("O to move (engine) · X 1.5 s left"), "{text}");
    feed(&mut app, vec![finished(id, ttt("a1"), 0)]);
    assert_eq!(notations(&app), ["b2", "a1"]);
    // The human's turn again: its clock counts from the engine's move, and browsing the
    // history (Home, then End) neither stops it nor starts it again.
    feed(&mut app, vec![Event::Tick; 5]);
    feed(&mut app, vec![key(KeyCode::Home)]);
    let text = status(&mut app);
    assert!(text.contains("viewing move 0 of 2"), "{text}");
    assert!(
        !text.contains(" s left"),
        "no clock on a past position: {text}"
    );
    feed(&mut app, vec![Event::Tick; 5]);
    feed(&mut app, vec![key(KeyCode::End)]);
    let text = status(&mut app);
    assert!(text.contains("X to move (you) · 0.5 s left"), "{text}");
    feed(&mut app, vec![Event::Tick; 4]);
    assert_eq!(app.lost_on_time, None);
    let text = status(&mut app);
    assert!(text.contains("· 0.1 s left"), "{text}");
    feed(&mut app, vec![Event::Tick]);
    assert_eq!(app.lost_on_time, Some(Player::First));
    let text = status(&mut app);
    assert!(
        text.contains("O (engine) wins on time: X's clock ran out"),
        "{text}"
    );
    // No more moves in a game lost on time, nor hints or engine searches; browsing away
    // and back changes nothing.
    let fx = feed(
        &mut app,
        vec![key(KeyCode::Right), key(KeyCode::Enter), ch('H')],
    );
    assert!(fx.is_empty(), "{fx:?}");
    feed(&mut app, vec![key(KeyCode::Home), key(KeyCode::End)]);
    assert_eq!(app.lost_on_time, Some(Player::First));
    assert_eq!(notations(&app).len(), 2);
    // An undo takes back the turn, and its time with it.
    feed(&mut app, vec![ch('u')]);
    assert_eq!(app.session.cursor(), 0);
    assert_eq!(app.lost_on_time, None);
    let text = status(&mut app);
    assert!(text.contains("X to move (you) · 2.0 s left"), "{text}");
}

// A new game starts the human's clock afresh, even where no move had been played.
#[test]
fn a_new_game_starts_a_humans_clock_afresh() {
    let mut config = config(true, false);
    config.players.first.engine.match_time = Some(Duration::from_secs(2));
    let mut app = new_app::<TicTacToe>(&config);
    feed(&mut app, vec![Event::Tick; 8]);
    assert!(status(&mut app).contains("· 1.2 s left"));
    feed(&mut app, vec![ch('n')]);
    let text = status(&mut app);
    assert!(text.contains("X to move (you) · 2.0 s left"), "{text}");
}

// An engine that runs out of its match time loses on time: the game stops there, not
// paused, and an undo lets it play on at once.
#[test]
fn an_engine_out_of_time_loses_until_a_move_is_taken_back() {
    use gametree::engine::Player;
    let mut config = config(true, false);
    full_engine(&mut config);
    config.players.second.engine.match_time = Some(Duration::from_secs(1));
    let (mut app, id) = engine_thinking(&config);
    feed(
        &mut app,
        vec![Event::Engine(Report::Forfeit {
            id,
            reason: "the engine ran out of its match time".to_string(),
        })],
    );
    assert_eq!(app.lost_on_time, Some(Player::Second));
    let text = status(&mut app);
    assert!(
        text.contains("X (you) wins on time: O's clock ran out"),
        "{text}"
    );
    assert!(!text.contains("paused"), "{text}");
    feed(&mut app, vec![ch('u')]);
    assert_eq!(app.lost_on_time, None);
    assert_eq!(app.session.cursor(), 0);
    // The human moves again, and the engine answers without being resumed.
    let fx = feed(&mut app, vec![key(KeyCode::Enter)]);
    search_id(&fx, Purpose::Move);
}

/// The status bar's first row.
fn status(app: &mut App<TicTacToe>) -> String {
    let text = screen(&render(app, 80, 24));
    text.lines().rev().nth(1).unwrap_or_default().to_string()
}

// Two humans on clocks: the status bar shows both, and leaves out the standing one where
// the row is too narrow for it.
#[test]
fn two_humans_clocks_share_the_status_bar() {
    let mut config = config(true, true);
    config.players.first.engine.match_time = Some(Duration::from_secs(60));
    config.players.second.engine.match_time = Some(Duration::from_secs(45));
    let mut app = new_app::<TicTacToe>(&config);
    let text = status(&mut app);
    assert!(
        text.contains("X to move (you) · 1:00 left · O 45.0 s left"),
        "{text}"
    );
    // Both move, O takes its move back and asks for a hint: the row would pass 80 columns.
    feed(
        &mut app,
        vec![key(KeyCode::Enter), key(KeyCode::Enter), ch('u'), ch('H')],
    );
    let text = status(&mut app);
    assert!(
        text.contains("O to move (you) · 45.0 s left · viewing move 1 of 2 · "),
        "{text}"
    );
    assert!(text.contains("finding a hint"), "{text}");
    assert!(!text.contains("1:00"), "{text}");
}
