//! The recorded search tree: a small Tic-tac-toe search worked out by hand, recorded counts
//! equal to the search statistics in every game, and the text/JSON/DOT exports.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use gametree::engine::api::{Algorithm, EngineSettings, search};
use gametree::engine::limits::StopFlag;
use gametree::engine::score::{INFINITY, WIN};
use gametree::engine::tree::{Bound, SearchTree, TreeRecorder};
use gametree::engine::{Evaluator, Game, Player};
use gametree::export::{ExportTree, export, to_dot, to_text};
use gametree::games::dots::Dots;
use gametree::games::gomoku::Gomoku;
use gametree::games::kalah::Kalah;
use gametree::games::tictactoe::{LinesEval, TicTacToe};
use gametree::games::{GameOptions, Playable};
use rand::SeedableRng;
use rand::rngs::SmallRng;
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
    let mut recorder = TreeRecorder::new(budget);
    let result = search(
        game,
        eval,
        &settings,
        &mut SmallRng::seed_from_u64(1),
        &mut recorder,
        &StopFlag::new(),
        &mut |_| {},
    );
    let mut tree = recorder.finish();
    tree.mark_pv(&result.pv);
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
fn a_truncated_tree_says_so() {
    let (result, tree) = record(&TicTacToe::new(), &LinesEval, 4, true, 50);
    assert_eq!(tree.nodes.len(), 50);
    assert!(tree.truncated);
    assert_eq!(tree.unrecorded + 50, result.stats.nodes);
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
    let (_, tree) = record(&root, &LinesEval, 3, true, 200_000);
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
