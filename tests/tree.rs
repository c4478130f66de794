//! The recorded search tree: a small Tic-tac-toe search worked out by hand, recorded counts
//! equal to the search statistics in every game, and the text/JSON/DOT exports.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use gametree::engine::api::{Algorithm, EngineSettings, search};
use gametree::engine::limits::{Limits, StopFlag};
use gametree::engine::result::SearchResult;
use gametree::engine::score::{INFINITY, WIN, WIN_THRESHOLD};
use gametree::engine::stats::SearchStats;
use gametree::engine::tree::{Bound, NodeKind, SearchObserver, SearchTree, TreeNode, TreeRecorder};
use gametree::engine::{Evaluator, Game, Neglect, Player};
use gametree::export::{ExportTree, export, to_dot, to_text};
use gametree::games::dots::Dots;
use gametree::games::gomoku::{Gomoku, PatternTable};
use gametree::games::kalah::Kalah;
use gametree::games::tictactoe::{LinesEval, TicTacToe};
use gametree::games::{GameOptions, Playable};
use gametree::tui::tree_view::TreeViewState;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::io::Write;

fn record<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    depth: u32,
    ordering: bool,
    budget: usize,
) -> (
    gametree::engine::api::SearchResult<G::Move>,
    SearchTree<G::Move>,
) {
    let settings = EngineSettings {
        ordering,
        random_ties: false,
        ..EngineSettings::to_depth(Algorithm::AlphaBeta, depth)
    };
    record_with(game, eval, &settings, budget)
}

/// One search with `settings`, recorded up to `budget` nodes (seeded, never stopped).
fn record_with<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    settings: &EngineSettings,
    budget: usize,
) -> (
    gametree::engine::api::SearchResult<G::Move>,
    SearchTree<G::Move>,
) {
    let mut recorder = TreeRecorder::new(budget);
    let result = search(
        game,
        eval,
        settings,
        &mut SmallRng::seed_from_u64(1),
        &mut recorder,
        &StopFlag::new(),
        &mut |_| {},
    );
    let tree = recorder.finish_for(&result);
    (result, tree)
}

fn position(moves: &str) -> TicTacToe {
    let mut g = TicTacToe::new();
    g.play_line(moves).unwrap();
    g
}

/// X: a1 c1 c3, O: b2 a3 b1, X to move; empty a2, c2, b3.
/// Worked by hand, alpha-beta without ordering, depth 2, moves in cell order a2, c2, b3:
/// - a2 (window [-inf, +inf] for O): O's c2 is a leaf, O's b3 completes b1-b2-b3, a win
///   two moves from the root: a2 = +(WIN-2) for O, exact; root best = -(WIN-2).
/// - c2 completes c1-c2-c3 for X: a terminal child, -(WIN-1) for O; root best = WIN-1.
/// - b3 (window [-inf, -(WIN-1)] for O): O's first reply a2 is a leaf whose heuristic
///   value beats beta = -(WIN-1), so c2 is cut: lower bound, 1 move skipped.
#[test]
fn a_small_tree_equals_the_hand_worked_one() {
    let root = position("a1 b2 c3 a3 c1 b1");
    let (result, tree) = record(&root, &LinesEval, 2, false, 1000);
    let leaf = |moves: &str| LinesEval.evaluate(&position(&format!("a1 b2 c3 a3 c1 b1 {moves}")));
    let n = &tree.nodes;
    let moves: Vec<Option<String>> = n
        .iter()
        .map(|x| x.mv.map(|m| root.format_move(m)))
        .collect();
    let expect = |s: &[&str]| {
        s.iter()
            .map(|m| (!m.is_empty()).then(|| m.to_string()))
            .collect::<Vec<_>>()
    };
    assert_eq!(moves, expect(&["", "a2", "c2", "b3", "c2", "b3", "a2"]));
    let parents: Vec<Option<u32>> = n.iter().map(|x| x.parent).collect();
    assert_eq!(
        parents,
        [None, Some(0), Some(1), Some(1), Some(0), Some(0), Some(5)]
    );
    // Values, each from its own side to move.
    assert_eq!(n[2].value, leaf("a2 c2"));
    assert_eq!(n[3].value, -(WIN - 2));
    assert_eq!((n[1].value, n[1].bound), (WIN - 2, Bound::Exact));
    assert_eq!(n[4].value, -(WIN - 1));
    assert_eq!(n[6].value, leaf("b3 a2"));
    assert_eq!(
        (n[5].value, n[5].bound, n[5].skipped),
        (-leaf("b3 a2"), Bound::Lower, 1)
    );
    assert_eq!(n[0].value, WIN - 1);
    // Windows on entry.
    assert_eq!((n[1].alpha, n[1].beta), (-INFINITY, INFINITY));
    assert_eq!((n[4].alpha, n[4].beta), (-INFINITY, WIN - 2));
    assert_eq!((n[5].alpha, n[5].beta), (-INFINITY, -(WIN - 1)));
    assert_eq!((n[6].alpha, n[6].beta), (WIN - 1, INFINITY));
    assert_eq!(n[1].to_move, Player::Second);
    // Principal variation: root -> c2.
    let pv: Vec<usize> = (0..n.len()).filter(|&i| n[i].on_pv).collect();
    assert_eq!(pv, [0, 4]);
    assert_eq!(result.stats.nodes, 7);
    assert_eq!(result.stats.cutoffs, 1);
    assert_eq!(root.format_move(result.best.unwrap()), "c2");
}

fn counts_agree<G: Playable>(game: &G, depth: u32) {
    let eval = G::evaluator(&G::Options::default(), "default").unwrap();
    for ordering in [false, true] {
        let (result, tree) = record(game, &eval, depth, ordering, usize::MAX);
        assert!(!tree.truncated);
        assert_eq!(tree.nodes.len() as u64, result.stats.nodes, "{}", G::KIND);
        assert_eq!(tree.cutoffs(), result.stats.cutoffs, "{}", G::KIND);
    }
}

#[test]
fn recorded_counts_equal_the_statistics_in_every_game() {
    counts_agree(&position("b2"), 5);
    let mut kalah = Kalah::new_game(&<Kalah as Playable>::Options::default());
    kalah.play_line("c").unwrap(); // an extra turn: South moves again
    counts_agree(&kalah, 5);
    let mut options = <Dots as Playable>::Options::default();
    options.set("rows", "2").unwrap();
    options.set("cols", "2").unwrap();
    counts_agree(&Dots::new_game(&options), 4);
    let mut gomoku = Gomoku::new_game(&<Gomoku as Playable>::Options::default());
    gomoku.play_line("h8 h9 i9").unwrap();
    counts_agree(&gomoku, 2);
}

#[test]
fn a_truncated_tree_says_so_and_keeps_every_root_move() {
    let (result, tree) = record(&TicTacToe::new(), &LinesEval, 4, true, 50);
    assert!(tree.truncated);
    assert_eq!(tree.budget, 50);
    // The budget ends recording inside the first root move; the other eight root moves are
    // recorded past it (their subtrees are not).
    assert_eq!(tree.nodes[0].children.len(), 9);
    assert_eq!(tree.nodes.len(), 50 + 8);
    for &child in &tree.nodes[0].children[1..] {
        assert!(tree.nodes[child as usize].children.is_empty());
    }
    assert_eq!(
        tree.unrecorded + tree.nodes.len() as u64,
        result.stats.nodes
    );
    let text = to_text::<TicTacToe>(&export(&TicTacToe::new(), &tree));
    assert!(text.contains("truncated"), "{text}");
}

#[test]
fn json_export_parses_back_to_the_same_tree() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gametree"))
        .args([
            "tree",
            "tictactoe",
            "--moves",
            "a1 b2",
            "--depth",
            "3",
            "--format",
            "json",
        ])
        .args(["--no-random-ties"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let parsed: ExportTree = serde_json::from_slice(&out.stdout).unwrap();
    let root = position("a1 b2");
    let (_, mut tree) = record(&root, &LinesEval, 3, true, 200_000);
    // The command adds the moves cut-offs skipped, within what is left of the budget.
    tree.add_skipped(&root, 200_000 - tree.nodes.len());
    assert!(tree.nodes.iter().any(|n| n.kind == NodeKind::Skipped));
    assert_eq!(parsed, export(&root, &tree));
    // Every move in it reads back to the recorded move.
    for (node, rec) in parsed.nodes.iter().zip(&tree.nodes) {
        assert_eq!(
            node.mv.as_deref().map(|m| root.parse_move(m).unwrap()),
            rec.mv
        );
    }
}

#[test]
fn dot_export_is_accepted_by_graphviz() {
    let root = position("a1 b2 c3 a3");
    let (_, tree) = record(&root, &LinesEval, 3, false, 1000);
    let dot = to_dot::<TicTacToe>(&export(&root, &tree));
    assert!(dot.starts_with("digraph search {"));
    assert!(dot.contains("style=dashed"), "cut-off branches are dashed");
    assert!(
        dot.contains("style=bold"),
        "the principal variation is bold"
    );
    assert_eq!(dot.matches(" -> ").count(), tree.nodes.len() - 1);
    let Ok(mut child) = std::process::Command::new("dot")
        .arg("-Tsvg")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
    else {
        eprintln!("note: Graphviz `dot` is not installed; DOT output not rendered");
        return;
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(dot.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "dot refused the output");
    assert!(String::from_utf8_lossy(&out.stdout).contains("<svg"));
}

/// A recorder fed two iterations, the second stopped half-way with another value: the tree
/// it gives for an answer from the first is the first's.
#[test]
fn a_stopped_iteration_gives_way_to_the_completed_one() {
    let mut recorder = TreeRecorder::<u8>::new(100);
    recorder.begin_iteration(1);
    recorder.enter(None, 1, Player::First, -INFINITY, INFINITY);
    recorder.enter(Some(3), 0, Player::Second, -INFINITY, INFINITY);
    recorder.leave(-103, Bound::Exact, 0);
    recorder.leave(103, Bound::Exact, 0);
    recorder.begin_iteration(2);
    recorder.enter(None, 2, Player::First, 93, 113);
    recorder.enter(Some(4), 1, Player::Second, -113, -93);
    recorder.leave(-398, Bound::Exact, 0);
    recorder.leave(398, Bound::Exact, 0);
    let mut answer = SearchResult {
        best: Some(3),
        value: 103,
        pv: vec![3],
        ties: vec![3],
        stats: SearchStats {
            depth: 1,
            ..SearchStats::default()
        },
        completed: true,
    };
    let tree = recorder.clone().finish_for(&answer);
    assert_eq!((tree.nodes[0].depth, tree.nodes[0].value), (1, 103));
    assert!(!tree.unfinished);
    assert!(tree.nodes[1].on_pv);
    // An answer taken from the stopped iteration (its better move): that tree, marked.
    answer.best = Some(4);
    answer.value = 398;
    answer.pv = vec![4];
    answer.completed = false;
    let tree = recorder.finish_for(&answer);
    assert_eq!(tree.nodes[0].depth, 2);
    assert!(tree.unfinished);
}

#[test]
fn a_failed_aspiration_pass_stays_as_a_row_of_the_root() {
    let mut recorder = TreeRecorder::<u8>::new(100);
    recorder.begin_iteration(2);
    recorder.label_next(NodeKind::Aspiration);
    recorder.enter(None, 2, Player::First, 90, 110);
    recorder.enter(Some(3), 1, Player::Second, -110, -90);
    recorder.enter(Some(5), 0, Player::First, 90, 110);
    recorder.leave(130, Bound::Exact, 0);
    recorder.leave(-130, Bound::Upper, 0);
    recorder.leave(130, Bound::Lower, 2);
    recorder.begin_iteration(2);
    recorder.label_next(NodeKind::AspirationRetry);
    recorder.enter(None, 2, Player::First, 90, 400);
    recorder.enter(Some(3), 1, Player::Second, -400, -90);
    recorder.leave(-130, Bound::Exact, 0);
    recorder.leave(130, Bound::Exact, 0);
    let tree = recorder.clone().finish();
    let root = &tree.nodes[0];
    assert_eq!(root.kind, NodeKind::AspirationRetry);
    assert_eq!(root.children.len(), 2, "{tree:?}");
    let pass = &tree.nodes[root.children[0] as usize];
    assert_eq!(pass.kind, NodeKind::AspirationFailed);
    assert_eq!((pass.mv, pass.alpha, pass.beta), (None, 90, 110));
    assert_eq!(
        (pass.value, pass.bound, pass.skipped),
        (130, Bound::Lower, 2)
    );
    assert_eq!(pass.children.len(), 1);
    let row = &tree.nodes[pass.children[0] as usize];
    assert_eq!(
        (row.mv, row.value, row.bound),
        (Some(3), -130, Bound::Upper)
    );
    assert_eq!(row.parent, Some(root.children[0]));
    assert!(
        row.children.is_empty(),
        "the pass's deeper nodes are not kept"
    );
    assert_eq!(tree.nodes[root.children[1] as usize].mv, Some(3));
    // The next iteration starts without them.
    recorder.begin_iteration(3);
    recorder.enter(None, 3, Player::First, 90, 400);
    recorder.leave(120, Bound::Exact, 0);
    assert_eq!(recorder.finish().nodes.len(), 1);
}

#[test]
fn root_moves_a_stopped_search_never_reached_are_added() {
    let game = TicTacToe::new();
    let mut recorder = TreeRecorder::new(100);
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    recorder.enter(None, 2, Player::First, -INFINITY, INFINITY);
    recorder.enter(Some(moves[0]), 1, Player::Second, -INFINITY, INFINITY);
    recorder.leave(0, Bound::Exact, 0);
    recorder.leave(0, Bound::Exact, 0);
    let mut tree = recorder.finish();
    tree.add_unreached_root_moves(&game);
    let root = &tree.nodes[0];
    assert_eq!(root.children.len(), moves.len());
    let added: Vec<_> = root.children[1..]
        .iter()
        .map(|&c| &tree.nodes[c as usize])
        .collect();
    assert!(added.iter().all(|n| n.kind == NodeKind::Skipped));
    assert_eq!(
        added.iter().map(|n| n.mv.unwrap()).collect::<Vec<_>>(),
        moves[1..]
    );
    assert_eq!(tree.searched_count(), 2);
}

/// Searches of Gomoku stopped inside an iteration: the tree shown is the iteration the answer
/// came from, its root value the engine's value, or it says that it is an unfinished
/// iteration. Three searches are stopped from the progress report of a finished iteration
/// (so the stop lands inside the next one whatever the machine's load); three more run out
/// of time wherever the clock says.
#[test]
fn a_stopped_search_records_the_iteration_its_answer_came_from() {
    let options = <Gomoku as Playable>::Options::default();
    let mut gomoku = Gomoku::new_game(&options);
    gomoku.play_line("h8").unwrap();
    let eval = Gomoku::evaluator(&options, "default").unwrap();
    let mut stopped_inside = 0;
    let stops = [(Some(3), None), (Some(4), None), (Some(5), None)]
        .into_iter()
        .chain([30, 70, 150].map(|ms| (None, Some(std::time::Duration::from_millis(ms)))));
    for (stop_after_depth, time) in stops {
        let settings = EngineSettings {
            limits: gametree::engine::limits::Limits {
                depth: None,
                time,
                target: None,
            },
            threads: 1,
            random_ties: false,
            candidates: options.candidates(),
            ..EngineSettings::default()
        };
        let stop = StopFlag::new();
        let raiser = stop.clone();
        let mut recorder = TreeRecorder::new(1_000_000);
        let result = search(
            &gomoku,
            &eval,
            &settings,
            &mut SmallRng::seed_from_u64(1),
            &mut recorder,
            &stop,
            &mut |progress| {
                if stop_after_depth.is_some_and(|d| progress.stats.depth >= d) {
                    raiser.raise();
                }
            },
        );
        let case = format!("stop after depth {stop_after_depth:?}, time {time:?}");
        let last_pass_depth = recorder.clone().finish().nodes[0].depth;
        if last_pass_depth > result.stats.depth {
            stopped_inside += 1;
        }
        let tree = recorder.finish_for(&result);
        let root = &tree.nodes[0];
        if tree.unfinished {
            assert!(!result.completed, "{case}");
            assert!(root.depth > result.stats.depth, "{case}");
        } else {
            assert_eq!(root.value, result.value, "{case}");
            assert_eq!(root.depth, result.stats.depth, "{case}");
        }
    }
    // The case the test is about happened at least once (the stops from a progress report
    // make sure of it).
    assert!(stopped_inside >= 3, "{stopped_inside}");
}

/// The moves a cut-off skipped become nodes of their own: as many as the cut-off counted,
/// exactly the legal moves not searched, and the text, JSON and DOT exports say so.
#[test]
fn skipped_moves_are_nodes_and_every_export_labels_them() {
    let root = position("b2");
    let (_, mut tree) = record(&root, &LinesEval, 3, true, 200_000);
    let searched = tree.nodes.len();
    tree.add_skipped(&root, 1_000_000);
    assert_eq!(tree.searched_count(), searched);
    let mut checked = 0;
    for (id, node) in tree.nodes.iter().enumerate().take(searched) {
        if node.skipped == 0 || node.children.is_empty() {
            continue;
        }
        let skipped: Vec<&_> = node
            .children
            .iter()
            .map(|&c| &tree.nodes[c as usize])
            .filter(|c| c.kind == NodeKind::Skipped)
            .collect();
        assert_eq!(skipped.len() as u32, node.skipped, "node {id}");
        // Searched and skipped together are the legal moves, each once.
        let position = position_at(&root, &tree, id);
        let mut legal = Vec::new();
        position.legal_moves(&mut legal);
        let mut all: Vec<u8> = node
            .children
            .iter()
            .map(|&c| tree.nodes[c as usize].mv.unwrap())
            .collect();
        all.sort_unstable();
        legal.sort_unstable();
        assert_eq!(all, legal, "node {id}");
        checked += 1;
    }
    assert!(checked > 0, "depth 3 from b2 has cut-offs");
    // A budget too small for any cut-off's moves adds none.
    let (_, mut small) = record(&root, &LinesEval, 3, true, 200_000);
    small.add_skipped(&root, 0);
    assert_eq!(small.nodes.len(), searched);
    let exported = export(&root, &tree);
    let text = to_text::<TicTacToe>(&exported);
    assert!(
        text.contains("not searched (skipped by the cut-off above)"),
        "{text}"
    );
    let dot = to_dot::<TicTacToe>(&exported);
    assert!(
        dot.contains("not searched") && dot.contains("dotted"),
        "{dot}"
    );
    let json = serde_json::to_string(&exported).unwrap();
    assert!(json.contains("\"kind\":\"skipped\""), "{json}");
}

/// The full engine labels its nodes: principal variation search's null-window tests and
/// their re-searches, and the root's aspiration window; the exports carry the labels.
#[test]
fn the_full_engine_labels_null_windows_re_searches_and_aspiration() {
    let options = <Kalah as Playable>::Options::default();
    let game = Kalah::new_game(&options);
    let eval = Kalah::evaluator(&options, "default").unwrap();
    let mut re_searched = 0;
    let mut kept_passes = 0;
    let mut table_cuts = 0;
    for depth in 3..=8 {
        let settings = EngineSettings {
            random_ties: false,
            ..EngineSettings::to_depth(Algorithm::Full, depth)
        };
        let (_, tree) = record_with(&game, &eval, &settings, 1_000_000);
        let kinds: Vec<NodeKind> = tree.nodes.iter().map(|n| n.kind).collect();
        assert!(kinds.contains(&NodeKind::NullWindow), "depth {depth}");
        assert!(
            matches!(kinds[0], NodeKind::Aspiration | NodeKind::AspirationRetry),
            "the last iteration's root at depth {depth}: {:?}",
            kinds[0]
        );
        // A re-search follows the null-window test of the same move, under the same parent.
        for (node, parent, at) in nodes_of_kind(&tree, NodeKind::ReSearch) {
            re_searched += 1;
            let before = &tree.nodes[parent.children[at - 1] as usize];
            assert_eq!(before.kind, NodeKind::NullWindow);
            assert_eq!(before.mv, node.mv);
            // From the mover's side the test said "better": its value passed the floor.
            let mover = parent.to_move;
            let better = if before.to_move == mover {
                before.value > before.alpha
            } else {
                -before.value > -before.beta
            };
            assert!(better, "the test said: better");
        }
        // A retried root keeps the failed passes before it, as rows of the root.
        let failed: Vec<&TreeNode<_>> = tree.nodes[0]
            .children
            .iter()
            .map(|&c| &tree.nodes[c as usize])
            .filter(|n| n.kind == NodeKind::AspirationFailed)
            .collect();
        assert_eq!(
            !failed.is_empty(),
            kinds[0] == NodeKind::AspirationRetry,
            "depth {depth}"
        );
        kept_passes += failed.len();
        for pass in failed {
            assert_eq!((pass.mv, pass.depth), (None, depth));
            assert_ne!(pass.bound, Bound::Exact, "a failed pass is a bound");
            assert!(!pass.children.is_empty());
            for &c in &pass.children {
                let row = &tree.nodes[c as usize];
                assert!(row.mv.is_some() && row.children.is_empty());
            }
        }
        for node in tree.nodes.iter().filter(|n| n.tt_hit) {
            table_cuts += 1;
            assert!(
                node.stored_depth.is_some_and(|d| d <= node.depth),
                "a table cut-off knows its entry's depth: {node:?}"
            );
        }
        let text = to_text::<Kalah>(&export(&game, &tree));
        assert!(text.contains("null-window test"));
        assert!(text.contains("aspiration"));
    }
    assert!(kept_passes > 0, "some aspiration window fails on Kalah");
    assert!(table_cuts > 0, "some node is a table cut-off");
    assert!(
        re_searched > 0,
        "some null-window test succeeds and is searched again"
    );
}

/// A Gomoku horizon where the side to move must block a four: the full engine's playing
/// search answers the four past the horizon, and the record keeps those replies as
/// quiescence rows (children of a depth-0 node, each the block of the four), with the
/// horizon node's value the reply's, as the search saw it, and every node counted.
#[test]
fn forced_replies_past_the_horizon_are_recorded() {
    let options = <Gomoku as Playable>::Options::default();
    let mut game = Gomoku::new_game(&options);
    // White (to move) has i9 j9 k9 closed by h9: l9 makes a four Black must block at m9.
    game.play_line("h8 i9 h9 j9 g7 k9 a1").unwrap();
    let eval = Gomoku::evaluator(&options, "default").unwrap();
    let settings = EngineSettings {
        random_ties: false,
        ..EngineSettings::to_depth(Algorithm::Full, 1)
    }
    .resolved(1, 12);
    let (result, tree) = record_with(&game, &eval, &settings, 1_000_000);
    let quiet: Vec<&TreeNode<_>> = tree
        .nodes
        .iter()
        .filter(|n| n.kind == NodeKind::Quiescence)
        .collect();
    assert!(!quiet.is_empty(), "no quiescence rows");
    let mut blocked_l9 = false;
    for node in &quiet {
        let parent = &tree.nodes[node.parent.unwrap() as usize];
        assert_eq!((parent.depth, node.depth), (0, 0));
        assert!(node.children.is_empty());
        // Replaying the path, the reply was forced: the only block of the mover's four.
        let mut path = Vec::new();
        let mut at = node.parent;
        while let Some(p) = at {
            let n = &tree.nodes[p as usize];
            path.extend(n.mv);
            at = n.parent;
        }
        let mut position = game.clone();
        for &mv in path.iter().rev() {
            position.play(mv);
        }
        let mut forced = Vec::new();
        position.forced_replies(&mut forced);
        assert_eq!(forced, vec![node.mv.unwrap()]);
        // The horizon node's value is its only reply's, seen from the other side.
        assert_eq!(parent.value, -node.value);
        blocked_l9 |= path.first().map(|&m| game.format_move(m)).as_deref() == Some("l9");
    }
    assert!(blocked_l9, "l9's four was not answered past the horizon");
    assert_eq!(tree.nodes.len() as u64, result.stats.nodes);
}

/// A Gomoku middle game, its evaluator, and the engine as it plays there (the full engine
/// with the game's candidate limit) to depth 5, ties not drawn at random.
fn gomoku_playing_search() -> (Gomoku, <Gomoku as Playable>::Eval, EngineSettings) {
    let options = <Gomoku as Playable>::Options::default();
    let mut game = Gomoku::new_game(&options);
    game.play_line("h8 i9 g7 j10 i7").unwrap();
    let eval = Gomoku::evaluator(&options, "default").unwrap();
    let playing = EngineSettings {
        random_ties: false,
        ..EngineSettings::to_depth(Algorithm::Full, 5)
    }
    .resolved(5, options.candidates());
    (game, eval, playing)
}

/// [`gomoku_playing_search`] seven moves deep: shallower searches of its position reach few
/// null-window tests near the horizon that face a threat.
fn gomoku_threat_search() -> (Gomoku, <Gomoku as Playable>::Eval, EngineSettings) {
    let (game, eval, playing) = gomoku_playing_search();
    let playing = EngineSettings {
        limits: Limits {
            depth: Some(7),
            ..playing.limits
        },
        ..playing
    };
    (game, eval, playing)
}

/// The recorded nodes of `kind`, each with its parent and its place among the parent's
/// children.
fn nodes_of_kind<M>(
    tree: &SearchTree<M>,
    kind: NodeKind,
) -> impl Iterator<Item = (&TreeNode<M>, &TreeNode<M>, usize)> {
    tree.nodes
        .iter()
        .enumerate()
        .filter(move |(_, node)| node.kind == kind)
        .map(|(i, node)| {
            let parent = &tree.nodes[node.parent.unwrap() as usize];
            let at = parent
                .children
                .iter()
                .position(|&c| c as usize == i)
                .unwrap();
            (node, parent, at)
        })
}

/// The position at node `id` of a search of `root`: the moves of the nodes on its path
/// (the tree pane's [`TreeViewState::path`]) played from the root.
fn position_at<G: Game>(root: &G, tree: &SearchTree<G::Move>, id: usize) -> G {
    let mut position = root.clone();
    for step in TreeViewState::path(tree, id as u32) {
        if let Some(mv) = tree.nodes[step as usize].mv {
            position.play(mv);
        }
    }
    position
}

/// A Gomoku search's result.
type GomokuSearch = SearchResult<<Gomoku as Game>::Move>;

/// The first of `depths` whose recorded search with `playing` (its depth limit replaced)
/// has a node of `kind`, with its settings, result and tree: which nodes a search has moves
/// with the evaluation and the engine's margins, so a test names a few depths, not one.
fn first_depth_with(
    game: &Gomoku,
    eval: &<Gomoku as Playable>::Eval,
    playing: &EngineSettings,
    depths: std::ops::RangeInclusive<u32>,
    kind: NodeKind,
) -> Option<(
    EngineSettings,
    GomokuSearch,
    SearchTree<<Gomoku as Game>::Move>,
)> {
    depths
        .map(|depth| {
            let playing = EngineSettings {
                limits: Limits::depth(depth),
                ..playing.clone()
            };
            let (result, tree) = record_with(game, eval, &playing, 5_000_000);
            (playing, result, tree)
        })
        .find(|(_, _, tree)| tree.nodes.iter().any(|n| n.kind == kind))
}

/// Late move reductions, in a Gomoku playing search (a candidate limit): the first moves of
/// a node are searched to the full depth, a later one is tested first with a null window at
/// a smaller depth, labelled as such, and any that said "better" is searched again at the
/// full depth right after it. The search's counters agree with the record, and a search
/// without a candidate limit (which must agree with minimax) reduces nothing.
#[test]
fn late_moves_of_a_playing_search_are_tested_shallower_first() {
    let (game, eval, playing) = gomoku_playing_search();
    let (result, tree) = record_with(&game, &eval, &playing, 5_000_000);
    assert!(!tree.truncated);
    let mut reduced = 0;
    let mut followed = 0;
    for (node, parent, at) in nodes_of_kind(&tree, NodeKind::Reduced) {
        reduced += 1;
        assert!(node.depth < parent.depth - 1, "a reduced test is shallower");
        assert!(at >= 2, "the first two moves are never reduced (at {at})");
        assert_eq!(node.beta, node.alpha + 1, "a null window");
        let better = if node.to_move == parent.to_move {
            node.value > node.alpha
        } else {
            node.value < node.beta
        };
        if let Some(&next) = parent.children.get(at + 1) {
            let next = &tree.nodes[next as usize];
            if better {
                followed += 1;
                assert_eq!(next.mv, node.mv, "searched again right after");
                assert_eq!(next.depth, parent.depth - 1, "to the full depth");
            }
        }
    }
    assert!(reduced > 0, "no reduced test recorded");
    assert!(result.stats.reductions > 0);
    assert!(result.stats.reduction_re_searches as usize >= followed);
    let exact = EngineSettings {
        random_ties: false,
        ..EngineSettings::to_depth(Algorithm::Full, 2)
    }
    .resolved(2, 0);
    let (result, tree) = record_with(&game, &eval, &exact, 5_000_000);
    assert_eq!(result.stats.reductions, 0);
    assert!(tree.nodes.iter().all(|n| n.kind != NodeKind::Reduced));
    let off = EngineSettings {
        reductions: false,
        ..playing
    };
    let (result, _) = record_with(&game, &eval, &off, 5_000_000);
    assert_eq!(result.stats.reductions, 0);
}

/// Late moves that neglect a threat ([`Game::neglect`]: the opponent has an open three or a
/// four the move does not block), in a Gomoku playing search: their reduced tests are two
/// plies shallower still when far from the opponent's last stone and one more when far from
/// the mover's own, beyond the ply every reduced test loses (or as shallow as a test goes).
#[test]
fn late_moves_that_neglect_a_threat_are_reduced_more() {
    let (game, eval, playing) = gomoku_threat_search();
    let (_, tree) = record_with(&game, &eval, &playing, 5_000_000);
    assert!(!tree.truncated);
    let mut neglecting = 0;
    for (node, parent, _) in nodes_of_kind(&tree, NodeKind::Reduced) {
        let parent_id = node.parent.unwrap() as usize;
        let position = position_at(&game, &tree, parent_id);
        let Some(neglect) = position.neglect(node.mv.unwrap()) else {
            continue;
        };
        let more = 2 * u32::from(neglect.far_from_theirs) + u32::from(neglect.far_from_own);
        if more == 0 {
            continue;
        }
        neglecting += 1;
        assert!(
            node.depth == 0 || node.depth + 2 + more <= parent.depth,
            "{neglect:?}: tested {} deep below a node {} deep",
            node.depth,
            parent.depth
        );
    }
    assert!(
        neglecting > 0,
        "no reduced test of a move that neglects a threat"
    );
}

/// Expected cut nodes, in a Gomoku playing search: the same late move (by its parent's
/// depth and its place in the search order) is tested at one of two depths a ply apart,
/// the deeper one below every node on the principal variation (a window wider than null,
/// never a cut node) and the shallower one below nodes expected to fail high.
#[test]
fn late_moves_of_expected_cut_nodes_are_reduced_a_ply_more() {
    let (game, eval, playing) = gomoku_playing_search();
    let (_, tree) = record_with(&game, &eval, &playing, 5_000_000);
    assert!(!tree.truncated);
    // (parent's depth, move's place in the order) -> (depths tested, depth below a PV node)
    let mut tested: HashMap<(u32, usize), (BTreeSet<u32>, Option<u32>)> = HashMap::new();
    for (node, parent, at) in nodes_of_kind(&tree, NodeKind::Reduced) {
        // Moves before this one (a test and its re-search are one move).
        let place = parent.children[..at]
            .iter()
            .map(|&c| tree.nodes[c as usize].mv)
            .collect::<HashSet<_>>()
            .len();
        let entry = tested.entry((parent.depth, place)).or_default();
        entry.0.insert(node.depth);
        if parent.beta > parent.alpha + 1 {
            entry.1 = Some(node.depth);
        }
    }
    assert!(!tested.is_empty(), "no reduced test recorded");
    let mut both = 0;
    for ((depth, place), (depths, below_pv)) in &tested {
        let deepest = *depths.last().unwrap();
        assert!(depths.len() <= 2, "{depth} {place}: {depths:?}");
        if depths.len() == 2 {
            both += 1;
            assert_eq!(depths.first().unwrap() + 1, deepest, "{depth} {place}");
        }
        if let Some(d) = below_pv {
            assert_eq!(*d, deepest, "{depth} {place}: a PV node reduces least");
        }
    }
    assert!(both > 0, "no move reduced more at a cut node: {tested:?}");
}

/// Late move pruning, in a Gomoku playing search: only null-window tests one to three moves
/// from the horizon leave moves out, only after their first four (one move away), seven
/// (two moves away) or nine (three moves away), and leave at most the candidate limit's
/// rest; the record and the counters agree, and a search without a candidate limit or with
/// `pruning` off leaves nothing out.
#[test]
fn late_moves_near_the_horizon_of_a_playing_search_are_pruned() {
    let (game, eval, playing) = gomoku_playing_search();
    let (result, tree) = record_with(&game, &eval, &playing, 5_000_000);
    assert!(!tree.truncated);
    let mut recorded = 0;
    for node in tree.nodes.iter().filter(|n| n.pruned > 0) {
        recorded += u64::from(node.pruned);
        assert!(
            matches!(node.depth, 1..=3),
            "pruned at depth {}",
            node.depth
        );
        assert_eq!(node.beta, node.alpha + 1, "only in a null-window test");
        let mut searched: Vec<_> = node
            .children
            .iter()
            .map(|&c| &tree.nodes[c as usize])
            .filter(|c| c.kind != NodeKind::Skipped)
            .map(|c| c.mv)
            .collect();
        searched.dedup();
        let keep = match node.depth {
            1 => 4,
            2 => 7,
            _ => 9,
        };
        assert!(
            searched.len() >= keep,
            "{} searched before pruning",
            searched.len()
        );
        assert!(
            searched.len() + node.pruned as usize <= playing.candidates,
            "more moves than candidates"
        );
        assert_ne!(
            node.bound,
            Bound::Lower,
            "a node that cut off pruned nothing"
        );
    }
    assert!(recorded > 0, "no pruning recorded");
    assert!(result.stats.pruned >= recorded);
    let off = EngineSettings {
        pruning: false,
        ..playing.clone()
    };
    let (result, tree) = record_with(&game, &eval, &off, 5_000_000);
    assert_eq!(result.stats.pruned, 0);
    assert!(tree.nodes.iter().all(|n| n.pruned == 0));
    let exact = EngineSettings {
        random_ties: false,
        ..EngineSettings::to_depth(Algorithm::Full, 3)
    }
    .resolved(3, 0);
    let (result, _) = record_with(&game, &eval, &exact, 5_000_000);
    assert_eq!(result.stats.pruned, 0);
}

/// Whether `mv` is a distraction in `position` ([`Neglect::is_distraction`]).
fn distraction(position: &Gomoku, mv: <Gomoku as Game>::Move) -> bool {
    position.neglect(mv).is_some_and(Neglect::is_distraction)
}

/// `position`'s candidate moves under a playing search's limit.
fn position_candidates(position: &Gomoku, limit: usize) -> Vec<<Gomoku as Game>::Move> {
    let mut moves = Vec::new();
    position.candidate_moves(&mut moves, limit);
    moves
}

/// How many moves that ignore a threat far from the play ([`Neglect::is_distraction`]) the
/// recorded null-window tests fewer than four moves from the horizon searched after a move
/// that did not lose, how many such tests faced one, and the moves the record says were
/// left out as distractions; every test that left one out is such a test.
fn distractions_searched(
    game: &Gomoku,
    eval: &<Gomoku as Playable>::Eval,
    settings: &EngineSettings,
) -> (usize, usize, u64) {
    let (result, tree) = record_with(game, eval, settings, 5_000_000);
    assert!(!tree.truncated);
    let (mut searched, mut facing, mut left_out) = (0, 0, 0);
    for (id, node) in tree.nodes.iter().enumerate() {
        let test = node.depth < 4 && node.beta == node.alpha + 1 && !node.tt_hit;
        left_out += u64::from(node.distracted);
        let position = position_at(game, &tree, id);
        let candidates = position_candidates(&position, settings.candidates);
        let any = candidates.iter().any(|&mv| distraction(&position, mv));
        assert!(
            node.distracted == 0 || (test && any),
            "distraction pruning at depth {} ({}, {})",
            node.depth,
            node.alpha,
            node.beta
        );
        if !test || !any {
            continue;
        }
        facing += 1;
        // The moves in search order, a test and its re-search as one (the last value).
        let mut moves: Vec<(<Gomoku as Game>::Move, i32)> = Vec::new();
        for child in node.children.iter().map(|&c| &tree.nodes[c as usize]) {
            let (Some(mv), false) = (child.mv, child.kind == NodeKind::Skipped) else {
                continue;
            };
            match moves.last_mut() {
                Some(last) if last.0 == mv => last.1 = -child.value,
                _ => moves.push((mv, -child.value)),
            }
        }
        let mut best = -INFINITY;
        for (i, &(mv, value)) in moves.iter().enumerate() {
            if i > 0 && best > -WIN_THRESHOLD && distraction(&position, mv) {
                searched += 1;
            }
            best = best.max(value);
        }
    }
    assert!(result.stats.pruned >= left_out);
    (searched, facing, left_out)
}

/// Distraction pruning, in a Gomoku playing search: a null-window test fewer than four
/// moves from the horizon, once a move has been searched and has not lost, leaves out the
/// moves that ignore the opponent's open three or four far from the last two stones, and
/// the record says how many (the tree's `~N`); with `pruning` off it searches some (11 in
/// this search) and leaves none out.
#[test]
fn moves_that_ignore_a_threat_far_from_the_play_are_pruned_near_the_horizon() {
    let (game, eval, playing) = gomoku_threat_search();
    let (searched, facing, left_out) = distractions_searched(&game, &eval, &playing);
    assert!(
        facing > 0,
        "no test faced a threat with a distraction to leave out"
    );
    assert_eq!(
        searched, 0,
        "distractions searched in {facing} tests facing a threat"
    );
    assert!(left_out > 0, "no distraction left out");
    let off = EngineSettings {
        pruning: false,
        ..playing.clone()
    };
    let (searched, facing, left_out) = distractions_searched(&game, &eval, &off);
    assert!(
        searched > 0,
        "none searched without pruning ({facing} tests faced a threat)"
    );
    assert_eq!(left_out, 0);
}

/// Singular extensions, in a Gomoku playing search: a node far enough from the horizon tests
/// its table move first, before searching any move: a child without a move (the node's own
/// position, its side to move), half as deep, with a null window, whose children are the
/// node's other moves (none where the table move is the only one, as when it answers a
/// threat). When the test stays below its window, the table move follows as an
/// `Extended` row searched one ply deeper than a child normally is; when it reaches it and
/// the node fails high on that value alone, nothing follows (multi-cut); else the table move
/// follows at the usual depth. The counters agree with the record, and `singular` off
/// records none.
#[test]
fn a_table_move_no_other_move_comes_near_is_searched_one_ply_deeper() {
    let (game, eval, playing) = gomoku_playing_search();
    assert!(!playing.singular, "off by default");
    let playing = EngineSettings {
        singular: true,
        ..playing
    };
    // The first depth whose search extends a move.
    let (playing, result, tree) =
        first_depth_with(&game, &eval, &playing, 9..=14, NodeKind::Extended)
            .expect("no singular extension at depths 9 to 14");
    assert!(!tree.truncated);
    let (mut tests, mut extended, mut cut) = (0, 0, 0);
    for (id, node) in tree.nodes.iter().enumerate() {
        if node.kind == NodeKind::Extended {
            let parent = &tree.nodes[node.parent.unwrap() as usize];
            assert_eq!(node.depth, parent.depth, "one ply deeper than depth - 1");
            let test = &tree.nodes[parent.children[0] as usize];
            assert_eq!(test.kind, NodeKind::SingularTest, "extended after a test");
        }
        if node.kind != NodeKind::SingularTest {
            continue;
        }
        tests += 1;
        let parent = &tree.nodes[node.parent.unwrap() as usize];
        assert_eq!(node.mv, None, "the parent's own position, no move");
        assert_eq!(node.to_move, parent.to_move);
        assert!(
            parent.depth >= 8,
            "a test {} from the horizon",
            parent.depth
        );
        assert_eq!(node.depth, (parent.depth - 1) / 2);
        assert_eq!(node.beta, node.alpha + 1, "a null window");
        assert_eq!(parent.children[0], id as u32, "tested before any move");
        let next = parent.children.get(1).map(|&c| &tree.nodes[c as usize]);
        match next {
            Some(next) if node.value < node.beta => {
                extended += 1;
                assert_eq!(next.kind, NodeKind::Extended);
            }
            Some(next) => {
                assert_ne!(next.kind, NodeKind::Extended);
                assert_eq!(next.depth + 1, parent.depth);
            }
            None => {
                cut += 1;
                assert!(node.value >= node.beta);
                assert_eq!(parent.bound, Bound::Lower);
                assert_eq!(parent.value, node.beta, "fails high on the test's bar");
                assert!(parent.value >= parent.beta);
            }
        }
        let table_move = next.and_then(|n| n.mv);
        if node.children.is_empty() {
            // The table move was the node's only move (an answer to a threat): with nothing
            // to compare, the test stays below its window and the move is extended.
            assert!(node.value < node.beta);
            assert_eq!(next.map(|n| n.kind), Some(NodeKind::Extended));
        }
        for &c in &node.children {
            let child = &tree.nodes[c as usize];
            assert!(child.mv.is_some());
            assert_ne!(child.mv, table_move, "the table move is left out");
        }
    }
    assert!(
        tests > 0 && extended > 0,
        "{tests} tests, {extended} extended"
    );
    // The counters add up every iteration, and the record is the last one: the search one
    // ply shallower runs the same earlier iterations, so the difference is the last one's.
    // They also count the passes an aspiration window failed, whose subtrees the record
    // drops.
    let failed = tree
        .nodes
        .iter()
        .any(|n| n.kind == NodeKind::AspirationFailed);
    let depth = playing.limits.max_depth();
    let shallower = EngineSettings {
        limits: Limits::depth(depth - 1),
        ..playing.clone()
    };
    let (before, _) = record_with(&game, &eval, &shallower, 5_000_000);
    let counted = [
        (
            result.stats.singular_tests - before.stats.singular_tests,
            tests,
        ),
        (result.stats.extensions - before.stats.extensions, extended),
        (result.stats.singular_cuts - before.stats.singular_cuts, cut),
    ];
    for (counter, recorded) in counted {
        if failed {
            assert!(
                counter >= recorded,
                "{counter} counted, {recorded} recorded"
            );
        } else {
            assert_eq!(counter, recorded);
        }
    }
    let off = EngineSettings {
        singular: false,
        ..playing.clone()
    };
    let (result, tree) = record_with(&game, &eval, &off, 5_000_000);
    assert_eq!(result.stats.singular_tests, 0);
    assert!(
        tree.nodes
            .iter()
            .all(|n| !matches!(n.kind, NodeKind::SingularTest | NodeKind::Extended))
    );
}

/// Reverse futility pruning, in a Gomoku playing search: a node cut on its static value is a
/// null-window test one or two moves from the horizon, searched no further, whose value is
/// the evaluation of its position and lies above beta by at least the margin (100 and twice
/// the tempo one move from the horizon, 300 two moves); the counters agree with the record, and `futility`
/// off, or a search without a candidate limit, cuts nothing so.
#[test]
fn null_window_tests_far_above_beta_fail_high_on_their_static_value() {
    let (game, eval, playing) = gomoku_playing_search();
    // The first depth whose search cuts a node so (which do moves with the evaluation).
    let (playing, result, tree) =
        first_depth_with(&game, &eval, &playing, 5..=8, NodeKind::FutilityCut)
            .expect("no futility cut recorded at depths 5 to 8");
    assert!(!tree.truncated);
    let mut recorded = 0;
    for (id, node) in tree.nodes.iter().enumerate() {
        if node.kind != NodeKind::FutilityCut {
            continue;
        }
        recorded += 1;
        assert_eq!(node.beta, node.alpha + 1, "only in a null-window test");
        assert!(node.children.is_empty(), "a cut node has no children");
        assert_eq!(node.bound, Bound::Lower);
        // Measured without the tempo; an odd distance widens by twice it.
        let margin = match node.depth {
            1 => 100 + 2 * PatternTable::DEFAULT.tempo(),
            2 => 300,
            depth => panic!("cut at depth {depth}"),
        };
        assert!(
            node.value - margin >= node.beta,
            "{} {}",
            node.value,
            node.beta
        );
        let position = position_at(&game, &tree, id);
        assert_eq!(node.to_move, position.to_move());
        assert_eq!(node.value, eval.evaluate(&position), "not its static value");
    }
    assert!(recorded > 0, "no futility cut recorded");
    assert!(result.stats.futility_cuts >= recorded);
    let off = EngineSettings {
        futility: false,
        ..playing.clone()
    };
    let (result, tree) = record_with(&game, &eval, &off, 5_000_000);
    assert_eq!(result.stats.futility_cuts, 0);
    assert!(tree.nodes.iter().all(|n| n.kind != NodeKind::FutilityCut));
    let exact = EngineSettings {
        random_ties: false,
        ..EngineSettings::to_depth(Algorithm::Full, 3)
    }
    .resolved(3, 0);
    let (result, _) = record_with(&game, &eval, &exact, 5_000_000);
    assert_eq!(result.stats.futility_cuts, 0);
}

/// A playing search considers more candidates at the root than below it
/// ([`EngineSettings::candidates_at`]), and plain alpha-beta, which the comparison view sets
/// beside it, the same moves: the root's children are the game's first candidates at the
/// root's limit, a child's at the node limit.
#[test]
fn the_root_of_a_playing_search_considers_more_candidates() {
    let (_, eval, playing) = gomoku_playing_search();
    // A quiet opening: no threat for the root's defence to add its moves to.
    let mut game = Gomoku::new_game(&<Gomoku as Playable>::Options::default());
    game.play_line("h8 i9 h10").unwrap();
    // A search two moves deep: its root's children are one move from the horizon.
    let (root_limit, node_limit) = (playing.candidates_at(0, 2), playing.candidates_at(1, 1));
    assert!(
        root_limit > node_limit && node_limit > 0,
        "{root_limit} {node_limit}"
    );
    let mut wanted = Vec::new();
    game.candidate_moves(&mut wanted, root_limit);
    assert_eq!(wanted.len(), root_limit, "too few points to tell");
    wanted.sort_unstable();
    for algorithm in [Algorithm::Full, Algorithm::AlphaBeta] {
        let settings = EngineSettings {
            algorithm,
            pvs: false,
            ..playing.clone()
        };
        let settings = EngineSettings {
            limits: gametree::engine::api::Limits::depth(2),
            ..settings
        };
        let (_, tree) = record_with(&game, &eval, &settings, 1_000_000);
        let root = &tree.nodes[0];
        let mut searched: Vec<_> = root
            .children
            .iter()
            .filter_map(|&c| tree.nodes[c as usize].mv)
            .collect();
        searched.sort_unstable();
        searched.dedup();
        assert_eq!(searched, wanted, "{algorithm:?}: the root's moves");
        // The first root move searched (an aspiration pass that failed has no move).
        let child = root
            .children
            .iter()
            .map(|&c| &tree.nodes[c as usize])
            .find(|n| n.mv.is_some() && n.kind != NodeKind::AspirationFailed)
            .expect("a root move");
        let below = child
            .children
            .iter()
            .filter(|&&c| tree.nodes[c as usize].kind != NodeKind::Skipped)
            .count();
        assert!(
            below <= node_limit,
            "{algorithm:?}: {below} moves below the root"
        );
    }
}
