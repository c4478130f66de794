//! Properties on random positions of every game (proptest): the `Game` contract (undo
//! restores everything, incremental hash, outcome iff no moves) and the search contract
//! (alpha-beta, with and without ordering, returns plain minimax's value, and its move has
//! the best minimax value), including positions where a player moves twice in a row.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use gametree::engine::Game;
use gametree::games::Playable;
use gametree::games::dots::{Dots, DotsOptions};
use gametree::games::gomoku::{Gomoku, GomokuOptions, Rule};
use gametree::games::kalah::{Kalah, KalahOptions};
use gametree::games::tictactoe::TicTacToe;
use std::fmt::Write as _;

use proptest::prelude::*;

mod common;
use common::{NoiseEval, check_agreement, dots, extra_turn_within, kalah, random_position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Random playout checking the game contract at every step.
fn check_contract<G: Game + PartialEq + std::fmt::Debug>(mut game: G, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    loop {
        assert_eq!(
            game.hash(),
            game.hash_from_scratch(),
            "incremental hash\n{game}"
        );
        game.legal_moves(&mut moves);
        assert_eq!(
            game.outcome().is_some(),
            moves.is_empty(),
            "outcome iff no moves\n{game}"
        );
        if moves.is_empty() {
            break;
        }
        // Every legal move plays and undoes exactly.
        for &mv in &moves {
            let before = game.clone();
            let undo = game.play(mv);
            assert_eq!(
                game.hash(),
                game.hash_from_scratch(),
                "hash after {mv:?}\n{before}"
            );
            // A game that tells the hash ahead tells the right one.
            if let Some(ahead) = before.hash_after(mv) {
                assert_eq!(ahead, game.hash(), "hash_after {mv:?}\n{before}");
            }
            game.undo(mv, undo);
            assert_eq!(game, before, "undo of {mv:?}");
            assert_eq!(game.hash(), before.hash());
        }
        let mv = moves[rng.random_range(0..moves.len())];
        let mut copy = game.clone();
        assert!(copy.try_play(mv).is_ok());
        game.play(mv);
        assert_eq!(copy, game, "try_play equals play for a legal move");
    }
}

fn gomoku(size: usize, connect: usize, standard: bool) -> Gomoku {
    Gomoku::new_game(&GomokuOptions {
        size,
        connect: connect.min(size),
        rule: if standard {
            Rule::Standard
        } else {
            Rule::Freestyle
        },
        ..GomokuOptions::default()
    })
}

/// Lines drawn for a position `fill` of the way through a `rows` x `cols` game: mid-game
/// positions, where boxes with three sides (and so extra turns) are common.
fn dots_plies(rows: u32, cols: u32, fill: f64) -> usize {
    let lines = 2 * rows * cols + rows + cols;
    (fill * f64::from(lines)) as usize
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn tictactoe_contract(seed in any::<u64>()) {
        check_contract(TicTacToe::new(), seed);
    }

    #[test]
    fn kalah_contract(seed in any::<u64>(), pits in 1u32..=8, stones in 1u32..=6, empty in any::<bool>()) {
        check_contract(kalah(pits, stones, empty), seed);
    }

    #[test]
    fn kalah_agreement(seed in any::<u64>(), pits in 1u32..=6, stones in 1u32..=4, empty in any::<bool>(), plies in 0usize..12, depth in 1u32..=4) {
        let game = random_position(kalah(pits, stones, empty), plies, seed);
        check_agreement(&game, &NoiseEval, depth);
        for name in Kalah::EVALUATORS {
            let eval = Kalah::evaluator(&KalahOptions::default(), name).unwrap();
            check_agreement(&game, &eval, depth);
        }
    }

    #[test]
    fn gomoku_contract(seed in any::<u64>(), size in 3usize..=7, connect in 2usize..=5, standard in any::<bool>()) {
        check_contract(gomoku(size, connect, standard), seed);
    }

    #[test]
    fn gomoku_agreement(seed in any::<u64>(), size in 3usize..=6, connect in 3usize..=4, plies in 0usize..10, depth in 1u32..=3) {
        let game = random_position(gomoku(size, connect, false), plies, seed);
        check_agreement(&game, &NoiseEval, depth);
        let eval = Gomoku::evaluator(&GomokuOptions::default(), "default").unwrap();
        check_agreement(&game, &eval, depth);
    }

    #[test]
    fn dots_contract(seed in any::<u64>(), rows in 1u32..=4, cols in 1u32..=4) {
        check_contract(dots(rows, cols), seed);
    }

    #[test]
    fn dots_agreement(seed in any::<u64>(), rows in 1u32..=3, cols in 1u32..=3, fill in 0.3f64..0.95, depth in 1u32..=4) {
        let game = random_position(dots(rows, cols), dots_plies(rows, cols, fill), seed);
        check_agreement(&game, &NoiseEval, depth);
        for name in Dots::EVALUATORS {
            let eval = Dots::evaluator(&DotsOptions::default(), name).unwrap();
            check_agreement(&game, &eval, depth);
        }
    }

    #[test]
    fn tictactoe_agreement(seed in any::<u64>(), plies in 0usize..6, depth in 1u32..=4) {
        let game = random_position(TicTacToe::new(), plies, seed);
        check_agreement(&game, &NoiseEval, depth);
        check_agreement(&game, &gametree::games::tictactoe::LinesEval, depth);
    }
}

/// How many of `samples` positions drawn like the agreement properties draw them hold an
/// extra turn at the root (the side to move can move again at once) and within the depth
/// searched: `(samples, at_root, within_depth)`.
fn extra_turn_census<G: Game>(
    samples: usize,
    mut draw: impl FnMut(&mut SmallRng) -> (G, u32),
) -> (usize, usize, usize) {
    let mut rng = SmallRng::seed_from_u64(2024);
    let (mut at_root, mut within) = (0, 0);
    for _ in 0..samples {
        let (mut game, depth) = draw(&mut rng);
        at_root += usize::from(extra_turn_within(&mut game, 1));
        within += usize::from(extra_turn_within(&mut game, depth));
    }
    (samples, at_root, within)
}

#[test]
fn the_agreement_positions_contain_extra_turns() {
    // The same distributions as kalah_agreement and dots_agreement above.
    let kalah = extra_turn_census(400, |rng| {
        let game = kalah(
            rng.random_range(1..=6),
            rng.random_range(1..=4),
            rng.random(),
        );
        let plies = rng.random_range(0..12);
        (
            random_position(game, plies, rng.random()),
            rng.random_range(1..=4),
        )
    });
    let dots = extra_turn_census(400, |rng| {
        let (rows, cols) = (rng.random_range(1..=3), rng.random_range(1..=3));
        let game = dots(rows, cols);
        let plies = dots_plies(rows, cols, rng.random_range(0.3..0.95));
        (
            random_position(game, plies, rng.random()),
            rng.random_range(1..=4),
        )
    });
    println!("Kalah (samples, extra turn at the root, within the depth): {kalah:?}");
    println!("Dots and Boxes: {dots:?}");
    for (name, (samples, at_root, within)) in [("Kalah", kalah), ("Dots", dots)] {
        assert!(
            at_root * 4 >= samples,
            "{name}: {at_root} of {samples} at the root"
        );
        assert!(
            within * 5 >= samples * 2,
            "{name}: {within} of {samples} within the depth"
        );
    }
}

/// Reading a move never panics, and whatever it reads formats back to the same move.
fn check_notation<G: Game>(game: &G, text: &str) {
    if let Ok(mv) = game.parse_move(text) {
        let written = game.format_move(mv);
        assert_eq!(game.parse_move(&written), Ok(mv), "{text:?} -> {written:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn any_text_is_read_as_a_move_or_refused(
        text in prop_oneof![
            "\\PC{0,8}",
            "[a-zA-Z]{1,2}[0-9]{1,3}",
            "[a-z][0-9]{1,2}-[a-z][0-9]{1,2}",
            "[hvHV][0-9]{1,2},[0-9]{1,2}",
            "[0-9]{1,3}",
        ],
    ) {
        check_notation(&TicTacToe::new(), &text);
        check_notation(&gomoku(15, 5, false), &text);
        check_notation(&gomoku(19, 5, false), &text);
        check_notation(&kalah(12, 4, false), &text);
        check_notation(&kalah(1, 4, false), &text);
        check_notation(&dots(9, 9), &text);
        check_notation(&dots(1, 2), &text);
    }

    #[test]
    fn any_text_is_read_as_input_files_or_refused(text in "\\PC{0,200}") {
        // Config, tournament and save files, and --entrant flags: an error, never a panic.
        let _ = gametree::config::Config::parse(&text, "fuzz.toml");
        let _ = gametree::tournament::entrants::TournamentSpec::parse(&text, "fuzz.toml", None);
        let _ = gametree::tournament::entrants::parse_entrant_flag(&text);
        let _ = gametree::session::peek_saved(&text);
        let _ = gametree::session::parse_saved::<Kalah>(&text, "fuzz.json");
    }
}

/// `(section, key)` pairs of config.toml, and one that does not exist.
const SECTION_KEYS: [(&str, &str); 23] = [
    ("kalah", "pits"),
    ("kalah", "stones"),
    ("kalah", "empty_capture"),
    ("kalah", "depth"),
    ("kalah.linear", "store"),
    ("kalah.linear", "pits"),
    ("kalah.tuned", "opponent_pits"),
    ("gomoku", "size"),
    ("gomoku", "connect"),
    ("gomoku", "rule"),
    ("gomoku", "candidates"),
    ("gomoku", "depth"),
    ("gomoku.patterns", "open_three"),
    ("dots", "rows"),
    ("dots", "cols"),
    ("dots", "depth"),
    ("tictactoe", "depth"),
    ("players.first", "depth"),
    ("players.second", "threads"),
    ("players.second", "time_ms"),
    ("tree", "max_nodes"),
    ("ui", "engine_pace_ms"),
    ("dots", "size"),
];
const VALUES: [&str; 18] = [
    "-1",
    "0",
    "1",
    "2",
    "3",
    "7",
    "9",
    "12",
    "19",
    "20",
    "400",
    "99999999999",
    "1.5",
    "nan",
    "\"standard\"",
    "true",
    "[]",
    "[0.5, 2.0]",
];

/// Builds game `G` from a config that was accepted and plays a few moves: options that pass
/// validation must make a playable game.
fn accepted_config_plays<G: Playable>(config: &gametree::config::Config) {
    let options = config
        .game_options::<G>()
        .expect("validated with the config");
    let mut game = G::new_game(&options);
    let mut moves = Vec::new();
    for _ in 0..3 {
        game.legal_moves(&mut moves);
        let Some(&mv) = moves.first() else { break };
        game.try_play(mv).expect("a legal move");
    }
    let _ = G::evaluator(&options, "default").expect("every game has a default evaluator");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn config_files_are_refused_or_make_playable_games(
        lines in prop::collection::vec((0..SECTION_KEYS.len(), 0..VALUES.len()), 1..4),
    ) {
        let mut text = String::new();
        for (k, v) in lines {
            let (section, key) = SECTION_KEYS[k];
            let _ = writeln!(text, "[{section}]\n{key} = {}", VALUES[v]);
        }
        // Repeated tables are a TOML error: refused like any other.
        if let Ok(config) = gametree::config::Config::parse(&text, "fuzz.toml") {
            accepted_config_plays::<TicTacToe>(&config);
            accepted_config_plays::<Gomoku>(&config);
            accepted_config_plays::<Kalah>(&config);
            accepted_config_plays::<Dots>(&config);
        }
    }
}
