//! The search-tree pane on real recorded searches served by the worker: expanding and
//! collapsing, the principal variation, the previewed position, explanations, truncation,
//! mouse, comparisons and their verdicts, stale answers, and when the engine records.

use std::sync::mpsc;

use gametree::config::Config;
use gametree::engine::api::{Algorithm, EngineSettings};
use gametree::engine::stats::{approximate_count, group_digits};
use gametree::engine::tree::{Bound, NodeKind, SearchTree, TreeNode};
use gametree::engine::{Game, Player, score};
use gametree::games::GameOptions;
use gametree::games::dots::Dots;
use gametree::games::gomoku::Gomoku;
use gametree::games::kalah::Kalah;
use gametree::games::tictactoe::TicTacToe;
use gametree::tui::action::Pane;
use gametree::tui::app::{App, Effect};
use gametree::tui::boards::HasBoard;
use gametree::tui::event::Event;
use gametree::tui::layout::{self, Areas};
use gametree::tui::tree_browser::{bound_text, window_text};
use gametree::tui::worker::{
    Job, MinimaxEstimate, Purpose, Report, TreeSearch, Worker, comparison, minimax_nodes,
};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, MouseEventKind};
use ratatui::layout::Position;
use ratatui::style::Modifier;

use crate::helpers::{
    DEADLOCK_GUARD, ch, click, config, fake, feed, find, finished, key, lines, mouse, new_app,
    notations, play_line, render, screen, search_id, ttt,
};

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
            clock,
            ..
        } = todo.remove(at)
        else {
            continue;
        };
        worker.run(id, root, side, job, clock);
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
                // Plain minimax's whole tree as the worker estimates it when it gives up.
                estimate: gave_up.then_some(MinimaxEstimate {
                    depth: 2,
                    nodes: 80,
                    previous: 10,
                }),
            })],
        );
    }
    let (result, _) = fake(0, 0, 1, vec![]);
    feed(app, vec![Event::Engine(Report::Finished { id, result })]);
}

#[test]
fn comparisons_and_tree_searches_to_a_depth_ignore_the_sides_match_clock() {
    let mut base = EngineSettings {
        match_time: Some(std::time::Duration::from_secs(60)),
        ..EngineSettings::default()
    };
    assert!(base.match_clock().is_some());
    for (name, settings) in comparison(&base, 3, true) {
        assert_eq!(settings.match_time, None, "{name}");
        assert_eq!(settings.limits.depth, Some(3), "{name}");
    }
    for how in [TreeSearch::Lesson(3), TreeSearch::FullTo(3)] {
        let settings = how.settings(&base).unwrap();
        assert_eq!(settings.match_time, None, "{how:?}");
    }
    // Only the full engine keeps a clock.
    base.algorithm = Algorithm::AlphaBeta;
    assert_eq!(base.match_clock(), None);
}

/// The verdict of a comparison whose first search (minimax) answers `minimax` and every
/// other answers `others`: (best, value, nodes, ties, gave up).
fn verdict_of(
    minimax: (u8, i32, u64, Vec<u8>, bool),
    others: &(u8, i32, u64, Vec<u8>, bool),
) -> (App<TicTacToe>, String, bool) {
    let n = comparison(&EngineSettings::default(), 2, false).len();
    let mut app = new_app::<TicTacToe>(&config(true, true));
    let mut answers = vec![minimax];
    answers.extend((1..n).map(|_| others.clone()));
    feed_comparison(&mut app, &answers);
    let (verdict, agree) = app.trees.verdict().unwrap();
    (app, verdict, agree)
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
    // The list is as tall as the selected node's explanation leaves it, so a page back
    // may be a little shorter.
    feed(&mut app, vec![key(KeyCode::PageUp)]);
    assert!(app.trees.shown().unwrap().view.selected() < page);
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
        "≥ {}, so {} will not play {}: {} replies skipped",
        bound(node.beta),
        if node.to_move == Player::First {
            "O"
        } else {
            "X"
        },
        node_move(&app, cut as u32),
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
        "value {} ≤ {} (alpha): no move here beats what",
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
        "exact value {} inside the window [{}, {}]",
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
    // Past the budget only the root's children are still recorded.
    assert_eq!(tree.searched_count(), 50 + tree.nodes[0].children.len() - 1);
    assert_eq!(tree.nodes[0].children.len(), 9, "every root move is kept");
    assert!(tree.unrecorded > 0);
    let want = format!(
        "recording budget 50 nodes: {} more searched, not recorded",
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
            n.children.is_empty()
                && n.depth > 0
                && n.kind != NodeKind::Skipped
                && shown.preview(i).position.outcome().is_none()
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
    let searches = comparison(&app.settings[Player::Second.index()], 4, false);
    assert_eq!(app.trees.trees.len(), searches.len());
    // A time-limited full engine has no depth of its own: the game's default is used.
    let timed = EngineSettings {
        limits: gametree::engine::limits::Limits {
            depth: None,
            time: Some(std::time::Duration::from_secs(1)),
            target: None,
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
        shown_tree(&app).searched_count() as u64,
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
        verdict.contains("minimax gave up: nothing to compare (the others chose c3, value +0)"),
        "{verdict}"
    );
    assert!(!verdict.contains("agree"), "{verdict}");
    let message = &app.view.message.as_ref().unwrap().text;
    assert!(message.contains("nothing to compare"), "{message}");
    for (w, h) in [(80, 24), (120, 40)] {
        let text = screen(&render(&mut app, w, h));
        // The budget as a budget, not as a count of minimax's tree.
        assert!(
            text.contains("gave up past its 3,000,000-node budget"),
            "{text}"
        );
        assert!(!text.contains("3,000,001 nodes"), "{text}");
    }
    // With the worker's estimate of the whole tree: 80 nodes to depth 2, 8x a ply.
    let depth = app.trees.trees[0].settings.limits.max_depth();
    let whole = 80.0 * 8f64.powi(depth as i32 - 2);
    let expected = format!("(about {} in all)", approximate_count(whole));
    for (w, h) in [(80, 24), (120, 40)] {
        let buf = render(&mut app, w, h);
        let text = tree_words(&app, &buf);
        assert!(text.contains(&expected), "{expected}: {text}");
    }
    let buf = render(&mut app, 120, 40);
    let text = tree_words(&app, &buf);
    assert!(
        text.contains("this partial tree of 1 node is what it searched"),
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
        text.contains("The engine's searches are not recorded (press R to record them)"),
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
    assert!(app.engine.paused, "Space pauses engine play");
    feed(&mut app, vec![key(KeyCode::BackTab)]);
    assert_eq!(app.view.focus, Pane::Tree);
    // p is the principal variation here, not pause; Space still pauses and resumes.
    feed(&mut app, vec![ch('p')]);
    assert!(app.engine.paused);
    let hints = gametree::tui::panes::status_bar::key_hints(&app.situation());
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
    let hints = gametree::tui::panes::status_bar::key_hints(&app.situation());
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
            estimate: None,
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
    child.stored_depth = Some(3);
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
    assert!(text.contains("b2 +0 [-inf, +inf] lower TT d3"), "{text}");
    assert!(
        text.contains(
            "O to move · table cut-off: a depth-3 search stored a lower bound: at least +0"
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

fn job_of<G: HasBoard>(fx: &[Effect<G>]) -> Job {
    fx.iter()
        .find_map(|e| match e {
            Effect::Search { job, .. } => Some(*job),
            _ => None,
        })
        .expect("a search started")
}

/// Tic-tac-toe after b2 a1, both sides on the full engine with a time limit and no depth of
/// their own; with the config and the game's default depth.
fn timed_full_engine_app() -> (Config, App<TicTacToe>, u32) {
    let mut config = tree_config(0);
    for side in [&mut config.players.first, &mut config.players.second] {
        side.engine.algorithm = Algorithm::Full;
        side.engine.limits.time = Some(std::time::Duration::from_millis(200));
    }
    let game_depth = config.game_options::<TicTacToe>().unwrap().default_depth();
    let mut app = new_app::<TicTacToe>(&config);
    play_line(&mut app, "b2 a1");
    (config, app, game_depth)
}

/// `t` and `v` teach plain alpha-beta to the game's depth even when the side plays with the
/// timed full engine; `E` switches both to the full engine and back.
#[test]
fn t_and_v_search_with_plain_alpha_beta_until_e_switches_to_the_full_engine() {
    let (config, mut app, game_depth) = timed_full_engine_app();
    let fx = feed(&mut app, vec![ch('t')]);
    assert_eq!(
        job_of(&fx),
        Job::Record {
            max_nodes: config.tree.max_nodes,
            how: TreeSearch::Lesson(game_depth),
        }
    );
    serve(&mut app, &config, fx);
    let shown = app.trees.shown().unwrap();
    assert_eq!(shown.settings.algorithm, Algorithm::AlphaBeta);
    assert_eq!(shown.tree.nodes[0].depth, game_depth);
    assert!(!shown.tree.unfinished);
    let buf = render(&mut app, 120, 40);
    let text = tree_words(&app, &buf);
    let want = format!("alphabeta, ordered · depth {game_depth}");
    assert!(text.contains(&want), "{want} missing: {text}");
    // v: minimax and alpha-beta only.
    let fx = feed(&mut app, vec![ch('v')]);
    assert!(matches!(
        job_of(&fx),
        Job::Compare {
            full_engine: false,
            ..
        }
    ));
    assert_eq!(app.trees.compare.len(), 3);
    feed(&mut app, vec![key(KeyCode::Esc)]);
    // E in the tree pane: the full engine with the side's settings.
    feed(&mut app, vec![ch('E')]);
    assert!(app.engine.tree_full_engine);
    let fx = feed(&mut app, vec![ch('t')]);
    assert!(matches!(
        job_of(&fx),
        Job::Record {
            how: TreeSearch::Own,
            ..
        }
    ));
    feed(&mut app, vec![key(KeyCode::Esc)]);
    let fx = feed(&mut app, vec![ch('v')]);
    assert!(matches!(
        job_of(&fx),
        Job::Compare {
            full_engine: true,
            ..
        }
    ));
    assert_eq!(app.trees.compare.len(), 4);
    feed(&mut app, vec![key(KeyCode::Esc), ch('E')]);
    assert!(!app.engine.tree_full_engine);
}

/// `+` and `-` in the tree pane set the depth `t` and `v` search to, and run the search on
/// show again at it: plain alpha-beta, the comparison, and the full engine, which then goes
/// to that depth with no time limit instead of its own timed search.
#[test]
fn plus_and_minus_search_the_tree_on_show_again_one_ply_deeper_or_shallower() {
    let (config, mut app, game_depth) = timed_full_engine_app();
    // Before any tree is on show, - only sets the depth.
    while app.view.focus != Pane::Tree {
        feed(&mut app, vec![key(KeyCode::Tab)]);
    }
    let fx = feed(&mut app, vec![ch('-')]);
    assert!(fx.iter().all(|e| !matches!(e, Effect::Search { .. })));
    let shallower = game_depth - 1;
    assert_eq!(app.engine.tree_depth, Some(shallower));
    let text = words_at(&mut app);
    let want = format!("Both search to depth {shallower} (+ and - change it)");
    assert!(text.contains(&want), "{want} missing: {text}");
    let fx = feed(&mut app, vec![ch('t')]);
    assert_eq!(
        job_of(&fx),
        Job::Record {
            max_nodes: config.tree.max_nodes,
            how: TreeSearch::Lesson(shallower),
        }
    );
    serve(&mut app, &config, fx);
    assert_eq!(shown_tree(&app).nodes[0].depth, shallower);
    // + on a t tree searches it again one ply deeper, and the pane says so.
    let fx = feed(&mut app, vec![ch('+')]);
    assert_eq!(
        job_of(&fx),
        Job::Record {
            max_nodes: config.tree.max_nodes,
            how: TreeSearch::Lesson(game_depth),
        }
    );
    serve(&mut app, &config, fx);
    assert_eq!(shown_tree(&app).nodes[0].depth, game_depth);
    let text = words_at(&mut app);
    let want = format!("alphabeta, ordered · depth {game_depth}");
    assert!(text.contains(&want), "{want} missing: {text}");
    // The full engine goes to the depth set, untimed.
    feed(&mut app, vec![ch('E'), ch('=')]);
    let deeper = game_depth + 1;
    let fx = feed(&mut app, vec![ch('t')]);
    assert_eq!(
        job_of(&fx),
        Job::Record {
            max_nodes: config.tree.max_nodes,
            how: TreeSearch::FullTo(deeper),
        }
    );
    serve(&mut app, &config, fx);
    let shown = app.trees.shown().unwrap();
    assert_eq!(shown.settings.algorithm, Algorithm::Full);
    assert_eq!(shown.settings.limits.depth, Some(deeper));
    assert!(!shown.settings.timed());
    // On a comparison, - compares again one ply shallower.
    feed(&mut app, vec![ch('v'), key(KeyCode::Esc)]);
    let fx = feed(&mut app, vec![ch('-')]);
    assert!(matches!(
        job_of(&fx),
        Job::Compare { depth, full_engine: true, .. } if depth == game_depth
    ));
    assert_eq!(app.trees.compared_depth(), Some(game_depth));
    // The depth stays within 1..=64.
    feed(&mut app, vec![key(KeyCode::Esc)]);
    for _ in 0..70 {
        feed(&mut app, vec![ch('-'), key(KeyCode::Esc)]);
    }
    assert_eq!(app.engine.tree_depth, Some(1));
}

/// `t` while the engine thinks about its move is refused, and the focus stays put.
#[test]
fn t_while_the_engine_thinks_is_refused_without_moving_the_focus() {
    let mut app = new_app::<TicTacToe>(&config(true, false));
    app.view.cursor = ttt("b2");
    let fx = feed(&mut app, vec![key(KeyCode::Enter)]);
    search_id(&fx, Purpose::Move);
    assert_eq!(app.view.focus, Pane::Board);
    let fx = feed(&mut app, vec![ch('t')]);
    assert!(!fx.iter().any(|e| matches!(e, Effect::Search { .. })));
    assert_eq!(app.view.focus, Pane::Board, "the focus stays on the board");
    let text = screen(&render(&mut app, 80, 24));
    assert!(text.contains("The engine is thinking"), "{text}");
}

/// Words cut by a pane's right border: a letter or digit right before the border of the
/// tree or engine pane. The panes keep one column free before the border, so any text
/// touching it was cut.
fn words_cut_by_a_border<G: HasBoard>(app: &App<G>, buf: &Buffer) -> Vec<String> {
    let Areas::Panes(areas) = app.areas() else {
        panic!("too small");
    };
    let mut cut = Vec::new();
    for (name, area) in [("tree", areas.tree), ("engine", areas.engine)] {
        if area.width < 3 || area.height < 3 {
            continue;
        }
        let x = area.right() - 2;
        for y in area.y + 1..area.bottom() - 1 {
            let symbol = buf[(x, y)].symbol();
            if symbol.chars().any(char::is_alphanumeric) {
                let row: String = (area.x..area.right())
                    .map(|x| buf[(x, y)].symbol())
                    .collect();
                cut.push(format!("{name} pane: {row}"));
            }
        }
    }
    cut
}

/// Every row of the tree and engine panes at 80x24 and 120x40, with a cut-off, a skipped
/// move, the root and a leaf selected, keeps its words whole.
fn no_words_cut<G: HasBoard>(config: &Config, line: &str) {
    let mut app = recorded_app::<G>(config, line);
    let tree = shown_tree(&app).clone();
    let mut picks = vec![0u32];
    picks.extend(
        (0..tree.nodes.len() as u32)
            .filter(|&i| tree.nodes[i as usize].bound == Bound::Lower)
            .take(2),
    );
    picks.extend(
        (0..tree.nodes.len() as u32)
            .filter(|&i| tree.nodes[i as usize].kind == NodeKind::Skipped)
            .take(1),
    );
    picks.extend(
        (0..tree.nodes.len() as u32)
            .filter(|&i| tree.nodes[i as usize].children.is_empty())
            .take(1),
    );
    for &node in &picks {
        go_to(&mut app, node);
        for (w, h) in [(80, 24), (120, 40)] {
            let buf = render(&mut app, w, h);
            let cut = words_cut_by_a_border(&app, &buf);
            assert!(
                cut.is_empty(),
                "{w}x{h}, node {node}:\n{}\n{}",
                cut.join("\n"),
                screen(&buf)
            );
        }
    }
    // The guided mode's text, and the comparison (v).
    feed(&mut app, vec![ch('f'), ch('f'), ch('f')]);
    for (w, h) in [(80, 24), (120, 40)] {
        let buf = render(&mut app, w, h);
        let cut = words_cut_by_a_border(&app, &buf);
        assert!(cut.is_empty(), "{w}x{h}, stepping:\n{}", cut.join("\n"));
    }
    let fx = feed(&mut app, vec![ch('v')]);
    serve(&mut app, config, fx);
    for (w, h) in [(80, 24), (120, 40)] {
        let buf = render(&mut app, w, h);
        let cut = words_cut_by_a_border(&app, &buf);
        assert!(
            cut.is_empty(),
            "{w}x{h}, compared:\n{}\n{}",
            cut.join("\n"),
            screen(&buf)
        );
    }
}

#[test]
fn no_word_is_cut_by_a_border_in_the_tree_and_engine_panes() {
    no_words_cut::<TicTacToe>(&tree_config(3), "b2");
    no_words_cut::<Kalah>(&tree_config(3), "");
    no_words_cut::<Dots>(&tree_config(3), "");
    no_words_cut::<Gomoku>(&tree_config(2), "h8");
}

/// A cut-off names its cause: the line the other side already has and where, the reply
/// that refuted the move, and how many replies were skipped; the skipped moves are rows of
/// their own, greyed, selectable, with their position on the board.
#[test]
fn a_cut_off_explains_itself_and_its_skipped_moves_are_rows() {
    let config = tree_config(3);
    let mut app = recorded_app::<TicTacToe>(&config, "b2");
    let tree = shown_tree(&app).clone();
    let (cut, node) = tree
        .nodes
        .iter()
        .enumerate()
        .find(|(_, n)| n.bound == Bound::Lower && n.skipped > 0)
        .map(|(i, n)| (i as u32, n.clone()))
        .expect("depth 3 from b2 has a cut-off");
    let skipped: Vec<u32> = node
        .children
        .iter()
        .copied()
        .filter(|&c| tree.nodes[c as usize].kind == NodeKind::Skipped)
        .collect();
    assert_eq!(
        skipped.len() as u32,
        node.skipped,
        "every skipped move is a row"
    );
    // The skipped moves and the searched ones are the legal moves, each once.
    let mut moves: Vec<u8> = node
        .children
        .iter()
        .map(|&c| tree.nodes[c as usize].mv.unwrap())
        .collect();
    moves.sort_unstable();
    moves.dedup();
    assert_eq!(moves.len(), node.children.len());
    go_to(&mut app, cut);
    let text = words_at(&mut app);
    let mv = node_move(&app, cut);
    assert!(text.contains("cut-off:"), "{text}");
    assert!(
        text.contains("can already get"),
        "the bound's origin: {text}"
    );
    assert!(text.contains(&format!("will not play {mv}")), "{text}");
    assert!(
        text.contains(&format!("{} replies skipped", node.skipped))
            || text.contains("1 reply skipped"),
        "{text}"
    );
    let refuter = node
        .children
        .iter()
        .copied()
        .rfind(|&c| tree.nodes[c as usize].kind != NodeKind::Skipped)
        .unwrap();
    assert!(
        text.contains(&format!("reply {}", node_move(&app, refuter))),
        "{text}"
    );
    // A skipped move: a greyed row saying so, and the same reason.
    let first = skipped[0];
    go_to(&mut app, first);
    let buf = render(&mut app, 120, 40);
    let text = tree_words(&app, &buf);
    let name = node_move(&app, first);
    assert!(text.contains(&format!("{name} not searched")), "{text}");
    assert!(text.contains("not searched. cut-off:"), "{text}");
    assert!(
        board_text(&app, &buf).contains(&format!("{}.", 0)) || !board_text(&app, &buf).is_empty()
    );
}

/// `f` and `b` step through the search in the order it ran: each node entered (with its
/// window), then its children, then its value; the selection and the board follow.
#[test]
fn the_guided_mode_steps_through_the_search_forwards_and_back() {
    let config = tree_config(2);
    let mut app = recorded_app::<TicTacToe>(&config, "b2 a1");
    let tree = shown_tree(&app).clone();
    let searched = tree.searched_count();
    feed(&mut app, vec![ch('f')]);
    assert_eq!(selected_node(&app), 0);
    let text = words_at(&mut app);
    assert!(
        text.contains(&format!("Step 1 of {}: enter root", 2 * searched)),
        "{text}"
    );
    // The first steps enter the root's first child, then its first child, in recorded order.
    feed(&mut app, vec![ch('f')]);
    assert_eq!(selected_node(&app), 1);
    feed(&mut app, vec![ch('f')]);
    assert_eq!(selected_node(&app), 2);
    let text = words_at(&mut app);
    assert!(text.contains("Step 3 of"), "{text}");
    assert!(
        text.contains(&format!("enter {}", node_move(&app, 2))),
        "{text}"
    );
    // Node 2 is a leaf at depth 2 from here: the next step returns its value.
    feed(&mut app, vec![ch('f')]);
    assert_eq!(selected_node(&app), 2);
    let text = words_at(&mut app);
    assert!(text.contains("Step 4 of"), "{text}");
    assert!(
        text.contains(&format!("{} returns:", node_move(&app, 2))),
        "{text}"
    );
    // The board previews the step's position.
    let buf = render(&mut app, 120, 40);
    assert!(
        screen(&buf).contains(&format!("2.{}", node_move(&app, 2))),
        "{}",
        screen(&buf)
    );
    // Back, one step at a time, to the start; never before it.
    feed(&mut app, vec![ch('b'), ch('b')]);
    assert_eq!(selected_node(&app), 1);
    feed(&mut app, vec![ch('b'), ch('b'), ch('b')]);
    assert_eq!(selected_node(&app), 0);
    let text = words_at(&mut app);
    assert!(text.contains("Step 1 of"), "{text}");
    // Any other key ends the guided mode.
    feed(&mut app, vec![key(KeyCode::Down)]);
    let text = words_at(&mut app);
    assert!(!text.contains("Step "), "{text}");
}

/// The full engine's tree labels what it shows: null-window tests and their re-searches;
/// its windows are in the game's units (no `+0.01`-style edges).
#[test]
fn full_engine_trees_label_null_windows_and_show_windows_in_game_units() {
    let mut config = tree_config(5);
    config.players.first.engine.algorithm = Algorithm::Full;
    config.players.second.engine.algorithm = Algorithm::Full;
    let mut app = new_app::<Kalah>(&config);
    feed(&mut app, vec![ch('t'), ch('E')]);
    let fx = feed(&mut app, vec![ch('t')]);
    serve(&mut app, &config, fx);
    let tree = shown_tree(&app).clone();
    assert!(
        tree.nodes.iter().any(|n| n.kind == NodeKind::NullWindow),
        "PVS tests later moves with a null window"
    );
    for n in &tree.nodes {
        let window = window_text::<Kalah>(n.alpha, n.beta);
        assert!(
            !window.contains(".99") && !window.contains(".01"),
            "{window}"
        );
        if n.kind == NodeKind::NullWindow {
            assert!(window.starts_with("test "), "{window}");
        }
    }
    if let Some(i) = tree.nodes.iter().position(|n| n.kind == NodeKind::ReSearch) {
        go_to(&mut app, i as u32);
        let text = words_at(&mut app);
        assert!(text.contains("re-search"), "{text}");
    }
    // Depth 5 from the start fails its aspiration window high: that pass is a row of the
    // root, named first so that 80 columns keep it, and one of its root moves too.
    let pass = tree
        .nodes
        .iter()
        .position(|n| n.kind == NodeKind::AspirationFailed)
        .expect("the failed aspiration pass is kept") as u32;
    let row = tree.nodes[pass as usize].children[0];
    for (node, words) in [
        (pass, "searched again with a wider window"),
        (row, "searched in the aspiration pass"),
    ] {
        go_to(&mut app, node);
        for (w, h) in [(80, 24), (120, 40)] {
            let buf = render(&mut app, w, h);
            let text = tree_words(&app, &buf);
            assert!(
                text.contains("aspiration pass failed high"),
                "{w}x{h}: {text}"
            );
            assert!(text.contains(words), "{w}x{h}: {text}");
            let cut = words_cut_by_a_border(&app, &buf);
            assert!(cut.is_empty(), "{w}x{h}: {}", cut.join("\n"));
        }
    }
    if let Some(i) = tree.nodes.iter().position(|n| n.tt_hit) {
        go_to(&mut app, i as u32);
        let text = words_at(&mut app);
        let depth = tree.nodes[i].stored_depth.expect("a table cut-off's depth");
        assert!(
            text.contains(&format!("a depth-{depth} search stored")),
            "{text}"
        );
    }
}

/// The tree pane's words at 120x40.
fn words_at<G: HasBoard>(app: &mut App<G>) -> String {
    let buf = render(app, 120, 40);
    tree_words(app, &buf)
}

/// An app at the Gomoku position `line` reaches, engines on the full engine at `depth`, with
/// the tree of the full engine's search (`E`, then `t`) recorded and shown.
fn full_engine_gomoku_tree(
    depth: u32,
    line: &str,
) -> (App<Gomoku>, SearchTree<<Gomoku as Game>::Move>) {
    full_engine_gomoku_tree_with(depth, line, false)
}

/// [`full_engine_gomoku_tree`], with singular extensions on or off.
fn full_engine_gomoku_tree_with(
    depth: u32,
    line: &str,
    singular: bool,
) -> (App<Gomoku>, SearchTree<<Gomoku as Game>::Move>) {
    let mut config = tree_config(depth);
    for side in [&mut config.players.first, &mut config.players.second] {
        side.engine.algorithm = Algorithm::Full;
        side.engine.singular = singular;
    }
    let mut app = recorded_app::<Gomoku>(&config, line);
    feed(&mut app, vec![ch('E')]);
    assert!(app.engine.tree_full_engine);
    let fx = feed(&mut app, vec![ch('t')]);
    serve(&mut app, &config, fx);
    let tree = shown_tree(&app).clone();
    (app, tree)
}

/// The first of `searches` (depth, moves) whose full-engine tree (singular extensions on or
/// off) has a node `wanted` picks (it gets the tree too): which nodes a search has moves
/// with the evaluation and the engine's margins, so a test names a few searches, not one
/// tree.
fn first_search_with(
    searches: &[(u32, &str)],
    singular: bool,
    wanted: impl Fn(&SearchTree<<Gomoku as Game>::Move>, &TreeNode<<Gomoku as Game>::Move>) -> bool,
) -> Option<(App<Gomoku>, SearchTree<<Gomoku as Game>::Move>, usize)> {
    searches.iter().find_map(|&(depth, line)| {
        let (app, tree) = full_engine_gomoku_tree_with(depth, line, singular);
        let id = tree.nodes.iter().position(|n| wanted(&tree, n))?;
        Some((app, tree, id))
    })
}

/// A singular test (a node of a Gomoku playing search far from the horizon, searched again
/// without its table move) is a row named after the move it leaves out, and it and the
/// extended move after it say what they are and why.
#[test]
fn singular_tests_and_extended_moves_explain_themselves() {
    let searches = [
        (9, "h8 i9 g7 j10 i7"),
        (10, "h8 i9 g7 j10 i7"),
        (10, "h8 i9 g7 j10 i7 k11"),
        (9, "h8 i9 g7 j10 i7 k11"),
        (11, "h8 i9 g7 j10 i7"),
        (10, "h8 i9 g7 j10 i7 h7"),
        (9, "h8 i9 g7 j10 i7 h7"),
    ];
    let (mut app, tree, id) =
        first_search_with(&searches, true, |_, n| n.kind == NodeKind::Extended)
            .expect("an extended move");
    let node = &tree.nodes[id];
    let parent = &tree.nodes[node.parent.unwrap() as usize];
    let test = parent.children[0];
    assert_eq!(tree.nodes[test as usize].kind, NodeKind::SingularTest);
    let table = node_move(&app, id as u32);
    go_to(&mut app, test);
    for (w, h) in [(160, 50), (80, 24)] {
        let buf = render(&mut app, w, h);
        let text = tree_words(&app, &buf);
        let want =
            format!("singular test: this position searched again without its table move {table}");
        assert!(text.contains(&want), "{w}x{h}: {want} missing:\n{text}");
        if w == 160 {
            let want = format!("singular test without {table}");
            assert!(text.contains(&want), "the row: {want} missing:\n{text}");
            let want = format!("{table} is the only good move here");
            assert!(text.contains(&want), "{want} missing:\n{text}");
        }
    }
    go_to(&mut app, id as u32);
    let buf = render(&mut app, 160, 50);
    let text = tree_words(&app, &buf);
    let want = format!(
        "singular extension: searched {} moves deep, one more than its siblings",
        parent.depth
    );
    assert!(text.contains(&want), "{want} missing:\n{text}");
}

/// A Gomoku horizon that must block a four: the block searched past the horizon is a row of
/// its own, and both it and the horizon node above it say why.
#[test]
fn forced_replies_past_the_horizon_are_rows_that_explain_themselves() {
    // White (to move) has i9 j9 k9 closed by h9: l9 makes a four Black must block at m9.
    // (The quiescence search is the full engine's own.)
    let (mut app, tree) = full_engine_gomoku_tree(1, "h8 i9 h9 j9 g7 k9 a1");
    let (id, node) = tree
        .nodes
        .iter()
        .enumerate()
        .find(|(_, n)| n.kind == NodeKind::Quiescence)
        .expect("a forced reply past the horizon");
    let reply = node_move(&app, id as u32);
    let horizon = node.parent.unwrap();
    go_to(&mut app, id as u32);
    let buf = render(&mut app, 160, 50);
    let text = tree_words(&app, &buf);
    let want = format!(
        "forced reply past the horizon: Black had to answer a threat, so {reply} was searched"
    );
    assert!(text.contains(&want), "{want} missing:\n{text}");
    assert!(text.contains("forced reply past the horizon"), "{text}");
    go_to(&mut app, horizon);
    let buf = render(&mut app, 160, 50);
    let text = tree_words(&app, &buf);
    assert!(
        text.contains("search horizon, but Black must answer a threat here"),
        "{text}"
    );
}

/// A Gomoku playing search reduces late moves: such a row is labelled, and says it was a
/// late move tested shallower than its siblings, at which depth, and what came of the test,
/// at 80 columns too.
#[test]
fn reduced_late_moves_explain_themselves() {
    let (mut app, tree) = full_engine_gomoku_tree(5, "h8 i9 g7 j10 i7");
    let (id, node) = tree
        .nodes
        .iter()
        .enumerate()
        .find(|(_, n)| {
            n.kind == NodeKind::Reduced && !n.tt_hit && !n.children.is_empty() && n.depth > 0
        })
        .expect("a reduced late move that was searched");
    let full = tree.nodes[node.parent.unwrap() as usize].depth - 1;
    let mv = node_move(&app, id as u32);
    go_to(&mut app, id as u32);
    for (w, h) in [(160, 50), (80, 24)] {
        let buf = render(&mut app, w, h);
        let text = tree_words(&app, &buf);
        let unit = if node.depth == 1 { "move" } else { "moves" };
        let want = format!(
            "late move, tested {} {unit} deep instead of {full} (a reduction) of {mv}",
            node.depth
        );
        assert!(text.contains(&want), "{w}x{h}: {want} missing:\n{text}");
        assert!(text.contains("does it"), "{w}x{h}: {text}");
        if w == 160 {
            assert!(text.contains("reduced test"), "{text}");
        }
    }
}

/// A late move one move from the horizon is reduced to the horizon itself: its explanation
/// says both, the test it was (the row's label) and what the horizon did with it.
#[test]
fn a_late_move_reduced_to_the_horizon_says_both() {
    let searches = [
        (3, "h8 i9 g7 j10 i7"),
        (5, "h8 i9 g7 j10 i7"),
        (4, "h8 i9 h9 j9 g7"),
    ];
    let (mut app, tree, id) = first_search_with(&searches, false, |tree, n| {
        n.kind == NodeKind::Reduced
            && !n.tt_hit
            && n.depth == 0
            && tree.nodes[n.parent.unwrap() as usize].depth >= 2
    })
    .expect("a late move reduced to the horizon");
    let id = id as u32;
    let node = &tree.nodes[id as usize];
    let full = tree.nodes[node.parent.unwrap() as usize].depth - 1;
    let mv = node_move(&app, id);
    go_to(&mut app, id);
    let buf = render(&mut app, 160, 50);
    let text = tree_words(&app, &buf);
    let test = format!("late move, tested 0 moves deep instead of {full} (a reduction) of {mv}");
    assert!(text.contains(&test), "{test} missing:\n{text}");
    assert!(text.contains("does it"), "{text}");
    let horizon = if node.children.is_empty() {
        "At the search horizon: the evaluation"
    } else {
        "At the search horizon, but"
    };
    assert!(text.contains(horizon), "{horizon} missing:\n{text}");
    assert!(text.contains("reduced test"), "{text}");
}

/// A null-window test near the horizon that left its last candidates out (late move
/// pruning) marks its row with how many, and its explanation says what was left out and why.
#[test]
fn a_pruned_node_shows_and_explains_what_it_left_out() {
    let (mut app, tree) = full_engine_gomoku_tree(5, "h8 i9 g7 j10 i7");
    let (id, node) = tree
        .nodes
        .iter()
        .enumerate()
        .find(|(_, n)| n.pruned > 0)
        .expect("a node that pruned late moves");
    let pruned = node.pruned;
    go_to(&mut app, id as u32);
    for (w, h) in [(160, 50), (80, 24)] {
        let buf = render(&mut app, w, h);
        let text = tree_words(&app, &buf);
        let unit = if pruned == 1 {
            "last candidate was"
        } else {
            "last candidates were"
        };
        let want = format!("Late move pruning: {pruned} {unit} not searched at all");
        assert!(text.contains(&want), "{w}x{h}: {want} missing:\n{text}");
        if w == 160 {
            assert!(text.contains(&format!("…{pruned}")), "{text}");
        }
    }
}

/// A null-window test near the horizon that left out moves neglecting a threat far from the
/// play (distraction pruning) marks its row with how many, and its explanation says what was
/// left out and why, at any size.
#[test]
fn a_node_that_left_out_distractions_shows_and_explains_them() {
    let searches = [
        (5, "h8 i9 g7 j10 i7"),
        (6, "h8 i9 g7 j10 i7"),
        (7, "h8 i9 g7 j10 i7"),
    ];
    let (mut app, tree, id) = first_search_with(&searches, false, |_, n| n.distracted > 0)
        .expect("a node that left out distractions");
    let left_out = tree.nodes[id].distracted;
    go_to(&mut app, id as u32);
    for (w, h) in [(160, 50), (80, 24)] {
        let buf = render(&mut app, w, h);
        let text = tree_words(&app, &buf);
        let unit = if left_out == 1 {
            "move was"
        } else {
            "moves were"
        };
        let want = format!("Distraction pruning: {left_out} {unit} not searched at all");
        assert!(text.contains(&want), "{w}x{h}: {want} missing:\n{text}");
        if w == 160 {
            assert!(text.contains("open three or four"), "{text}");
            assert!(text.contains(&format!("~{left_out}")), "{text}");
        }
    }
}

/// A null-window test cut on its static value (reverse futility pruning) says so on its row
/// and in its explanation, at any size.
#[test]
fn a_futility_cut_shows_and_explains_its_static_value() {
    // The first of a few searches whose last iteration cut a node so (which ones do moves
    // with the evaluation and the margins).
    let searches = [
        (5, "h8 i9 g7 j10 i7"),
        (6, "h8 i9 g7 j10 i7"),
        (5, "h8 i9 g7 j10 i7 k11"),
        (6, "h8 i9 g7 j10 i7 k11"),
        (7, "h8 i9 g7 j10 i7"),
    ];
    let (mut app, tree, id) =
        first_search_with(&searches, false, |_, n| n.kind == NodeKind::FutilityCut)
            .expect("a node cut on its static value");
    let node = &tree.nodes[id];
    let away = if node.depth == 1 { "1 move" } else { "2 moves" };
    go_to(&mut app, id as u32);
    for (w, h) in [(160, 50), (80, 24)] {
        let buf = render(&mut app, w, h);
        let text = tree_words(&app, &buf);
        let want = "cut on its static value (reverse futility pruning)";
        assert!(text.contains(want), "{w}x{h}: {want} missing:\n{text}");
        assert!(
            text.contains(&format!("{away} from the horizon")),
            "{w}x{h}: {text}"
        );
        if w == 160 {
            assert!(text.contains("failed high without one"), "{text}");
        }
    }
}
