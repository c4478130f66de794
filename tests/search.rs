//! Search correctness on known values: plain minimax on the full Tic-tac-toe tree, alpha-beta
//! agreeing with it, and the full-depth engine never losing whatever its opponent plays.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use gametree::engine::api::{Algorithm, EngineSettings, search};
use gametree::engine::limits::StopFlag;
use gametree::engine::tree::NoopObserver;
use gametree::games::tictactoe::{LinesEval, TicTacToe};
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn settings(algorithm: Algorithm, depth: u32, ordering: bool) -> EngineSettings {
    EngineSettings {
        ordering,
        random_ties: false,
        ..EngineSettings::to_depth(algorithm, depth)
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

/// Follows every line in which `engine` plays any of its best moves (every exact tie, so
/// whatever its random tie-break picks) and the opponent plays anything; fails on a loss.
fn engine_never_loses(
    game: &mut TicTacToe,
    engine: gametree::engine::Player,
    seen: &mut std::collections::HashSet<u64>,
) {
    use gametree::engine::{Game, Outcome};
    if !seen.insert(game.hash()) {
        return;
    }
    if let Some(outcome) = game.outcome() {
        assert!(
            !matches!(outcome, Outcome::Win { winner, .. } if winner != engine),
            "the engine lost:\n{game}"
        );
        return;
    }
    let moves = if game.to_move() == engine {
        let mut rng = SmallRng::seed_from_u64(0);
        let r = search(
            game,
            &LinesEval,
            &EngineSettings {
                random_ties: true,
                ..settings(Algorithm::AlphaBeta, 9, true)
            },
            &mut rng,
            &mut NoopObserver,
            &StopFlag::new(),
            &mut |_| {},
        );
        assert!(r.ties.contains(&r.best.unwrap()));
        r.ties
    } else {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        moves
    };
    for mv in moves {
        game.play(mv);
        engine_never_loses(game, engine, seen);
        game.undo(mv, ());
    }
}

#[test]
fn full_depth_tictactoe_never_loses() {
    use gametree::engine::Player;
    for engine in [Player::First, Player::Second] {
        let mut seen = std::collections::HashSet::new();
        engine_never_loses(&mut TicTacToe::new(), engine, &mut seen);
        println!("{engine}: {} positions", seen.len());
        // Every opponent reply and every tied engine move was followed.
        assert!(seen.len() > 1000, "{engine}: {} positions", seen.len());
    }
}
