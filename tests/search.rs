//! Search correctness on known values: plain minimax on the full Tic-tac-toe tree, and
//! alpha-beta agreeing with it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use gametree::engine::limits::StopFlag;
use gametree::engine::search::{Algorithm, SearchSettings, search};
use gametree::engine::tree::NoopObserver;
use gametree::games::tictactoe::{LinesEval, TicTacToe};
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn settings(algorithm: Algorithm, depth: u32, ordering: bool) -> SearchSettings {
    SearchSettings {
        algorithm,
        depth,
        ordering,
        random_ties: false,
        ..SearchSettings::default()
    }
}

#[test]
fn minimax_visits_the_whole_tictactoe_tree() {
    let mut rng = SmallRng::seed_from_u64(1);
    let r = search(
        &TicTacToe::new(),
        &LinesEval,
        &settings(Algorithm::Minimax, 9, false),
        &mut rng,
        &mut NoopObserver,
        &StopFlag::new(),
        &mut |_| {},
    );
    assert_eq!(r.stats.nodes, 549_946);
    assert_eq!(r.value, 0, "Tic-tac-toe is a draw");
    assert_eq!(r.ties.len(), 9, "every first move draws");
    let leaves = r.stats.terminals;
    assert_eq!(leaves, 255_168, "finished games");
}

#[test]
fn alphabeta_agrees_with_minimax_and_visits_fewer_nodes() {
    let mut rng = SmallRng::seed_from_u64(1);
    for ordering in [false, true] {
        let r = search(
            &TicTacToe::new(),
            &LinesEval,
            &settings(Algorithm::AlphaBeta, 9, ordering),
            &mut rng,
            &mut NoopObserver,
            &StopFlag::new(),
            &mut |_| {},
        );
        assert_eq!(r.value, 0);
        assert!(
            r.stats.nodes < 549_946 / 10,
            "ordering {ordering}: {} nodes",
            r.stats.nodes
        );
    }
}
