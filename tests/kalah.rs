//! Kalah: rules on hand-built positions (sowing past the stores, laps, extra turns, both
//! capture rules, the end sweep), notation, options, evaluators, perft golden numbers,
//! random-playout properties, alpha-beta == minimax, and exact values from the reference.

// Weights compared here are exact binary fractions read back unchanged.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::float_cmp
)]

use gametree::engine::perft::{divide, perft};
use gametree::engine::score::{MARGIN_UNIT, MAX_HEURISTIC};
use gametree::engine::{Evaluator, Game, Outcome, Player};
use gametree::games::kalah::{
    Hole, Kalah, KalahOptions, LinearEval, LinearWeights, MoveEffect, Pit, StoreEval,
};
use gametree::games::{GameOptions, Playable};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

mod common;
use common::{NoiseEval, check_agreement, random_position};

const SOUTH: Player = Player::First;
const NORTH: Player = Player::Second;

fn position(south: &[u16], north: &[u16], stores: [u16; 2], to_move: Player) -> Kalah {
    Kalah::from_position(south, north, stores, to_move, false).unwrap()
}

fn row(game: &Kalah, side: Player) -> Vec<u16> {
    (0..game.pit_count())
        .map(|i| game.stones(side, i))
        .collect()
}

/// Plays `text` (one move) and checks what `effect` predicted.
fn play(game: &mut Kalah, text: &str) -> MoveEffect {
    let mv = game.parse_move(text).unwrap();
    let effect = game.effect(mv).unwrap();
    let total = game.total_stones();
    game.try_play(mv).unwrap();
    assert_eq!(game.total_stones(), total, "stones are conserved");
    assert_eq!(game.hash(), game.hash_from_scratch());
    effect
}

// ---------------------------------------------------------------------------------------
// Rules on hand-built positions
// ---------------------------------------------------------------------------------------

#[test]
fn south_sows_into_its_store_and_skips_norths() {
    // f holds 9: South's store, North's a..f, (North's store skipped), South's a and b.
    let mut g = position(&[1, 2, 0, 0, 0, 9], &[1; 6], [0, 0], SOUTH);
    let path: Vec<Hole> = g.sowing_path(5).collect();
    assert_eq!(path.len(), 9);
    assert_eq!(path[0], Hole::Store(SOUTH));
    assert!(!path.contains(&Hole::Store(NORTH)));
    let effect = play(&mut g, "f");
    assert_eq!(
        effect.landing,
        Hole::Pit {
            side: SOUTH,
            index: 1
        }
    );
    assert!(!effect.extra_turn);
    assert_eq!(effect.captured, 0, "b was not empty");
    assert_eq!(row(&g, SOUTH), [2, 3, 0, 0, 0, 0]);
    assert_eq!(row(&g, NORTH), [2; 6]);
    assert_eq!((g.store(SOUTH), g.store(NORTH)), (1, 0));
    assert_eq!(g.to_move(), NORTH);
}

#[test]
fn north_sows_into_its_store_and_skips_souths() {
    let mut g = position(&[1; 6], &[1, 2, 0, 0, 0, 9], [0, 0], NORTH);
    play(&mut g, "f");
    assert_eq!(row(&g, NORTH), [2, 3, 0, 0, 0, 0]);
    assert_eq!(row(&g, SOUTH), [2; 6]);
    assert_eq!((g.store(SOUTH), g.store(NORTH)), (0, 1));
    assert_eq!(g.to_move(), SOUTH);
}

#[test]
fn a_lap_does_not_skip_the_origin_pit() {
    // 14 stones from c: one round of the 13 holes other than North's store, c included,
    // then d again.
    let mut g = position(&[0, 0, 14, 0, 0, 0], &[2; 6], [0, 0], SOUTH);
    let effect = play(&mut g, "c");
    assert_eq!(effect.captured, 0, "d got two stones");
    assert_eq!(row(&g, SOUTH), [1, 1, 1, 2, 1, 1]);
    assert_eq!(row(&g, NORTH), [3; 6]);
    assert_eq!((g.store(SOUTH), g.store(NORTH)), (1, 0));

    // 13 stones end in the emptied origin itself: a capture, since it held no stone.
    let mut g = position(&[0, 0, 13, 0, 0, 0], &[2; 6], [0, 0], SOUTH);
    let effect = play(&mut g, "c");
    assert_eq!(
        effect.landing,
        Hole::Pit {
            side: SOUTH,
            index: 2
        }
    );
    // c (1 stone) takes North's d (pit 6 - 1 - 2 = 3), which holds 2 + 1.
    assert_eq!(effect.captured, 4);
    assert_eq!(row(&g, SOUTH), [1, 1, 0, 1, 1, 1]);
    assert_eq!(row(&g, NORTH), [3, 3, 3, 0, 3, 3]);
    assert_eq!((g.store(SOUTH), g.store(NORTH)), (5, 0));
    assert_eq!(g.to_move(), NORTH);
}

#[test]
fn last_stone_in_own_store_moves_again() {
    let mut g = Kalah::new(6, 4);
    let effect = play(&mut g, "c");
    assert!(effect.extra_turn);
    assert_eq!(effect.landing, Hole::Store(SOUTH));
    assert_eq!(g.to_move(), SOUTH, "South moves again");
    assert_eq!(g.store(SOUTH), 1);
    // North too: after South's a, North's c (4 stones) ends in North's store.
    let mut g = Kalah::new(6, 4);
    play(&mut g, "a");
    assert_eq!(g.to_move(), NORTH);
    assert!(g.gives_extra_turn(2));
    play(&mut g, "c");
    assert_eq!(g.to_move(), NORTH, "North moves again");
    assert_eq!(g.store(NORTH), 1);
    // A lap can end in the store too: 13 + 5 stones from b reach it on the second round.
    let g = position(&[0, 18, 0, 0, 0, 0], &[1; 6], [0, 0], SOUTH);
    assert!(g.gives_extra_turn(1));
}

#[test]
fn capture_takes_the_opposite_pit_under_both_rules() {
    for empty_capture in [false, true] {
        let mut g = Kalah::from_position(
            &[1, 0, 0, 0, 0, 1],
            &[1, 1, 1, 1, 5, 1],
            [0, 0],
            SOUTH,
            empty_capture,
        )
        .unwrap();
        // a's stone lands in the empty b, which faces North's e (5 stones).
        let effect = play(&mut g, "a");
        assert_eq!(effect.captured, 6);
        assert_eq!(row(&g, SOUTH), [0, 0, 0, 0, 0, 1]);
        assert_eq!(row(&g, NORTH), [1, 1, 1, 1, 0, 1]);
        assert_eq!(g.store(SOUTH), 6);
        assert_eq!(g.to_move(), NORTH, "a capture ends the turn");
    }
}

#[test]
fn empty_opposite_pit_captures_only_with_empty_capture() {
    let south = [1, 0, 0, 0, 0, 1];
    let north = [1, 1, 1, 1, 0, 1];
    // Standard capture: the stone stays in b.
    let mut g = position(&south, &north, [0, 0], SOUTH);
    let effect = play(&mut g, "a");
    assert_eq!(effect.captured, 0);
    assert_eq!(row(&g, SOUTH), [0, 1, 0, 0, 0, 1]);
    assert_eq!(g.store(SOUTH), 0);
    assert_eq!(g.to_move(), NORTH);
    // Empty capture: the lone stone goes to the store.
    let mut g = Kalah::from_position(&south, &north, [0, 0], SOUTH, true).unwrap();
    let effect = play(&mut g, "a");
    assert_eq!(effect.captured, 1);
    assert_eq!(row(&g, SOUTH), [0, 0, 0, 0, 0, 1]);
    assert_eq!(g.store(SOUTH), 1);
    assert_eq!(g.to_move(), NORTH);
}

#[test]
fn no_capture_in_a_full_pit_or_on_the_other_side() {
    for empty_capture in [false, true] {
        // Own pit that already held a stone.
        let mut g =
            Kalah::from_position(&[1, 1, 0, 0, 0, 1], &[3; 6], [0, 0], SOUTH, empty_capture)
                .unwrap();
        assert_eq!(play(&mut g, "a").captured, 0);
        assert_eq!(row(&g, SOUTH), [0, 2, 0, 0, 0, 1]);
        // The opponent's empty pit.
        let mut g = Kalah::from_position(
            &[1, 0, 0, 0, 0, 2],
            &[0, 1, 1, 1, 1, 1],
            [0, 0],
            SOUTH,
            empty_capture,
        )
        .unwrap();
        let effect = play(&mut g, "f");
        assert_eq!(effect.captured, 0);
        assert_eq!(
            effect.landing,
            Hole::Pit {
                side: NORTH,
                index: 0
            }
        );
        assert_eq!(row(&g, NORTH), [1, 1, 1, 1, 1, 1]);
        assert_eq!(g.store(SOUTH), 1);
    }
}

#[test]
fn emptying_a_side_ends_the_game_with_the_sweep() {
    // South's last stone goes into its store: an extra turn, but South has no stones left,
    // so the game ends and North's 6 stones go to North's store.
    let mut g = position(&[0, 0, 0, 0, 0, 1], &[1, 2, 3, 0, 0, 0], [12, 5], SOUTH);
    let effect = play(&mut g, "f");
    assert!(effect.extra_turn && effect.ends_game);
    assert!(g.is_over());
    assert_eq!((g.store(SOUTH), g.store(NORTH)), (13, 11));
    assert_eq!(row(&g, NORTH), [0; 6]);
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: SOUTH,
            margin: 2
        })
    );
    assert_eq!(g.banked(), 2);
    let mut moves = vec![0];
    g.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert!(g.try_play(0).is_err());

    // South's last stones leave its row: North keeps what is on its side.
    let mut g = position(&[0, 0, 0, 0, 0, 3], &[1, 0, 0, 0, 0, 0], [0, 0], SOUTH);
    let effect = play(&mut g, "f");
    assert!(!effect.extra_turn && effect.ends_game);
    assert_eq!((g.store(SOUTH), g.store(NORTH)), (1, 3));
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: NORTH,
            margin: 2
        })
    );

    // A capture empties North's row: South sweeps its own remaining stones.
    let mut g = position(&[1, 0, 0, 0, 0, 5], &[0, 0, 0, 0, 4, 0], [0, 0], SOUTH);
    let effect = play(&mut g, "a");
    assert_eq!(effect.captured, 5);
    assert!(effect.ends_game);
    assert_eq!((g.store(SOUTH), g.store(NORTH)), (10, 0));
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: SOUTH,
            margin: 10
        })
    );

    // Equal stores: a draw.
    let g = position(&[0; 3], &[1, 1, 0], [5, 3], SOUTH);
    assert!(g.is_over(), "an empty row is swept at once");
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    assert_eq!(g.store(NORTH), 5);
}

#[test]
fn smallest_board_plays_to_the_end() {
    // Kalah(1, n): South's only pit; with one stone it lands in the store and the row is
    // empty, so North's stone goes home: a draw.
    let mut g = Kalah::new(1, 1);
    play(&mut g, "a");
    assert_eq!(g.outcome(), Some(Outcome::Draw));
}

#[test]
fn hash_leaves_out_the_stores() {
    let a = position(&[1, 2, 3], &[3, 2, 1], [0, 0], SOUTH);
    let b = position(&[1, 2, 3], &[3, 2, 1], [7, 2], SOUTH);
    let c = position(&[1, 2, 3], &[3, 2, 1], [0, 0], NORTH);
    assert_eq!(a.hash(), b.hash());
    assert_ne!(a.hash(), c.hash());
    assert_eq!(b.banked(), 5);
}

#[test]
fn hand_built_positions_are_checked() {
    assert!(Kalah::from_position(&[1, 2], &[1], [0, 0], SOUTH, false).is_err());
    assert!(Kalah::from_position(&[], &[], [0, 0], SOUTH, false).is_err());
    assert!(Kalah::from_position(&[1; 13], &[1; 13], [0, 0], SOUTH, false).is_err());
    assert!(Kalah::from_position(&[400], &[81], [0, 0], SOUTH, false).is_err());
    assert!(Kalah::from_position(&[400], &[80], [0, 0], SOUTH, false).is_ok());
}

#[test]
fn accessors_describe_the_board() {
    let g = Kalah::new(6, 4);
    assert_eq!(g.pit_count(), 6);
    assert_eq!(g.stones(SOUTH, 0), 4);
    assert_eq!(g.stones(SOUTH, 6), 0, "past the last pit");
    assert_eq!(g.side_stones(NORTH), 24);
    assert_eq!(g.total_stones(), 48);
    assert_eq!(g.opposite(0), 5);
    assert_eq!(g.hole(Hole::Store(SOUTH)), 0);
    assert!(!g.is_over() && !g.empty_capture());
    assert_eq!(g.move_space(), 6);
    let path: Vec<Hole> = g.sowing_path(4).collect();
    assert_eq!(
        path,
        [
            Hole::Pit {
                side: SOUTH,
                index: 5
            },
            Hole::Store(SOUTH),
            Hole::Pit {
                side: NORTH,
                index: 0
            },
            Hole::Pit {
                side: NORTH,
                index: 1
            },
        ]
    );
    assert_eq!(Kalah::side_name(SOUTH), "South");
    assert_eq!(Kalah::side_name(NORTH), "North");
}

// ---------------------------------------------------------------------------------------
// Notation and display
// ---------------------------------------------------------------------------------------

#[test]
fn notation_round_trip_and_errors() {
    for n in 1..=12 {
        let g = Kalah::new(n, 4);
        for mv in 0..n as Pit {
            let text = g.format_move(mv);
            assert_eq!(g.parse_move(&text), Ok(mv));
            assert_eq!(g.parse_move(&text.to_uppercase()), Ok(mv));
            assert_eq!(g.parse_move(&format!(" {} ", mv + 1)), Ok(mv));
        }
    }
    let g = Kalah::new(6, 4);
    assert_eq!(g.format_move(0), "a");
    assert_eq!(g.format_move(5), "f");
    assert_eq!(g.parse_move("C"), Ok(2));
    assert_eq!(g.parse_move("6"), Ok(5));
    for bad in ["g", "0", "7", "", "ab", "-1", "c3", "z"] {
        let err = g.parse_move(bad).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "cannot read move `{bad}`: a pit a..f or 1..6, counted from the mover's left, like a"
            )
        );
    }
    let err = Kalah::new(1, 4).parse_move("b").unwrap_err();
    assert!(err.to_string().contains("the pit a (or 1)"), "{err}");
}

#[test]
fn moves_name_the_movers_own_pits() {
    // "a" is South's leftmost pit for South and North's leftmost (above South's f) for North.
    let mut g = Kalah::new(6, 4);
    g.play_line("a a").unwrap();
    assert_eq!(g.stones(SOUTH, 0), 0);
    assert_eq!(g.stones(NORTH, 0), 0);
    let err = g.play_line("x").unwrap_err();
    assert!(err.to_string().contains("move 1 (x)"), "{err}");
}

#[test]
fn display_shows_north_on_top_and_stores_at_the_ends() {
    let mut g = Kalah::new(6, 4);
    g.play_line("c d").unwrap();
    let expected = [
        "         f   e   d   c   b   a   North",
        "         4   4   4   4   5   5",
        "   0                            2",
        "         4   4   0   0   6   6",
        "         a   b   c   d   e   f   South",
        "North to move",
    ];
    assert_eq!(g.to_string().lines().collect::<Vec<_>>(), expected);
    let over = position(&[0, 0], &[0, 0], [3, 1], SOUTH);
    assert!(over.to_string().ends_with("Game over: South wins by 2\n"));
}

// ---------------------------------------------------------------------------------------
// Options and evaluators
// ---------------------------------------------------------------------------------------

#[test]
fn options_refuse_out_of_range_values() {
    let cases: Vec<(KalahOptions, &str)> = vec![
        (
            KalahOptions {
                pits: 40,
                ..KalahOptions::default()
            },
            "config.toml: kalah.pits = 40: must be 1..=12",
        ),
        (
            KalahOptions {
                pits: 0,
                ..KalahOptions::default()
            },
            "config.toml: kalah.pits = 0: must be 1..=12",
        ),
        (
            KalahOptions {
                stones: 21,
                ..KalahOptions::default()
            },
            "config.toml: kalah.stones = 21: must be 1..=20",
        ),
        (
            KalahOptions {
                depth: 0,
                ..KalahOptions::default()
            },
            "config.toml: kalah.depth = 0: must be 1..=64",
        ),
        (
            KalahOptions {
                linear: LinearWeights {
                    pits: vec![],
                    ..LinearWeights::default()
                },
                ..KalahOptions::default()
            },
            "config.toml: kalah.linear.pits = []: must list 1..=12 weights",
        ),
        (
            KalahOptions {
                linear: LinearWeights {
                    opponent_pits: vec![1.0; 13],
                    ..LinearWeights::default()
                },
                ..KalahOptions::default()
            },
            "config.toml: kalah.linear.opponent_pits = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]: must list 1..=12 weights",
        ),
        (
            KalahOptions {
                linear: LinearWeights {
                    pits: vec![1.0, f64::NAN],
                    ..LinearWeights::default()
                },
                ..KalahOptions::default()
            },
            "config.toml: kalah.linear.pits = [1, NaN]: must be finite numbers",
        ),
        (
            KalahOptions {
                linear: LinearWeights {
                    store: f64::INFINITY,
                    ..LinearWeights::default()
                },
                ..KalahOptions::default()
            },
            "config.toml: kalah.linear.store = inf: must be a finite number",
        ),
    ];
    for (options, message) in cases {
        assert_eq!(
            options.validate("config.toml").unwrap_err().to_string(),
            message
        );
    }
    assert!(KalahOptions::default().validate("config.toml").is_ok());
}

#[test]
fn options_read_from_toml() {
    let options: KalahOptions = toml::from_str(
        "pits = 4\nstones = 3\nempty_capture = true\n[linear]\nstore = 2\npits = [1, 0.5]\n",
    )
    .unwrap();
    assert_eq!(options.pits, 4);
    assert!(options.empty_capture);
    assert_eq!(options.linear.store, 2.0);
    assert_eq!(options.linear.opponent_store, -1.0, "default kept");
    assert_eq!(options.linear.pits, [1.0, 0.5]);
    assert!(options.validate("config.toml").is_ok());
    let g = Kalah::new_game(&options);
    assert_eq!((g.pit_count(), g.stones(NORTH, 3)), (4, 3));
    assert!(g.empty_capture());
    // The defaults as documented on `KalahOptions`.
    let documented: KalahOptions = toml::from_str(
        "pits = 6\nstones = 4\nempty_capture = false\ndepth = 8\n[linear]\nstore = 1.0\n\
         opponent_store = -1.0\npits = [0.25]\nopponent_pits = [-0.25]\n",
    )
    .unwrap();
    assert_eq!(documented, KalahOptions::default());
    assert!(toml::from_str::<KalahOptions>("holes = 4").is_err());
    assert!(toml::from_str::<KalahOptions>("[linear]\nstores = 4").is_err());
    // What the command line writes back for the TUI parses again to the same options.
    let table = toml::Table::try_from(&options).unwrap();
    let back: KalahOptions = toml::Value::Table(table).try_into().unwrap();
    assert_eq!(back, options);
}

#[test]
fn options_set_and_entries() {
    let mut options = KalahOptions::default();
    for (key, value) in options.clone().entries() {
        options.set(&key, &value).unwrap();
    }
    assert_eq!(
        options,
        KalahOptions::default(),
        "entries round-trip through set"
    );
    options.set("pits", "4").unwrap();
    options.set("empty_capture", "true").unwrap();
    options.set("linear.pits", "[1, 0.5, 0.25]").unwrap();
    options.set("linear.opponent_pits", "-1,-0.5").unwrap();
    options.set("linear.store", "1.5").unwrap();
    assert_eq!(options.pits, 4);
    assert!(options.empty_capture);
    assert_eq!(options.linear.pits, [1.0, 0.5, 0.25]);
    assert_eq!(options.linear.opponent_pits, [-1.0, -0.5]);
    assert_eq!(options.linear.store, 1.5);
    let before = options.clone();
    assert_eq!(
        options.set("pits", "40").unwrap_err(),
        "pits = 40: must be 1..=12"
    );
    assert_eq!(
        options.set("stones", "x").unwrap_err(),
        "stones must be a whole number, not `x`"
    );
    assert_eq!(
        options.set("empty_capture", "maybe").unwrap_err(),
        "empty_capture must be true or false, not `maybe`"
    );
    assert!(options.set("linear.pits", "1, x").is_err());
    assert!(options.set("linear.store", "inf").is_err());
    let err = options.set("size", "3").unwrap_err();
    assert!(err.contains("no option `size`"), "{err}");
    assert_eq!(options, before, "refused values change nothing");
}

#[test]
fn evaluators_score_for_the_side_to_move() {
    let options = KalahOptions::default();
    assert_eq!(Kalah::EVALUATORS, ["store", "linear", "tuned"]);
    assert_eq!(
        Kalah::evaluator(&options, "default").unwrap().name(),
        "store"
    );
    assert_eq!(
        Kalah::evaluator(&options, "linear").unwrap().name(),
        "linear"
    );
    assert!(Kalah::evaluator(&options, "material").is_none());

    let south = position(&[1, 2, 3], &[4, 5, 6], [7, 2], SOUTH);
    let north = position(&[1, 2, 3], &[4, 5, 6], [7, 2], NORTH);
    assert_eq!(StoreEval.evaluate(&south), 5 * MARGIN_UNIT);
    assert_eq!(StoreEval.evaluate(&north), -5 * MARGIN_UNIT);

    // Weights from the pit nearest the store; the last one repeats.
    let linear = LinearEval::new(&LinearWeights {
        store: 1.0,
        opponent_store: -0.5,
        pits: vec![0.5, 0.25],
        opponent_pits: vec![-0.1],
    });
    // South: 7 - 1 + (3 * 0.5 + 2 * 0.25 + 1 * 0.25) - 0.1 * 15 = 8.25 - 1.5 = 6.75.
    assert_eq!(linear.evaluate(&south), 675);
    // North: 2 - 3.5 + (6 * 0.5 + 5 * 0.25 + 4 * 0.25) - 0.1 * 6 = 3.75 - 0.6 = 3.15.
    assert_eq!(linear.evaluate(&north), 315);
    let huge = LinearEval::new(&LinearWeights {
        store: 1e300,
        ..LinearWeights::default()
    });
    assert_eq!(huge.evaluate(&south), MAX_HEURISTIC);
}

// ---------------------------------------------------------------------------------------
// Perft
// ---------------------------------------------------------------------------------------

/// Move sequences of exactly `depth` moves (an extra turn is a move of its own).
///
/// By hand, Kalah(6,4): 6 first moves; after each, 6 replies, except after c (4 stones
/// d, e, f, store), an extra turn with 5 non-empty pits: 5 * 6 + 5 = 35.
/// Kalah(4,3): 4 first moves; b (c, d, store) is an extra turn with 3 non-empty pits, the
/// rest give North 4 replies: 3 * 4 + 3 = 15.
#[test]
fn perft_golden_numbers() {
    let kalah_6_4: [u64; 9] = [1, 6, 35, 185, 942, 4_690, 23_233, 114_430, 563_055];
    let kalah_4_3: [u64; 9] = [1, 4, 15, 50, 158, 488, 1_510, 4_637, 14_102];
    for (pits, stones, expected) in [(6, 4, &kalah_6_4), (4, 3, &kalah_4_3)] {
        for (depth, &n) in expected.iter().enumerate() {
            let mut g = Kalah::new(pits, stones);
            let count = perft(&mut g, depth as u32);
            assert_eq!(
                count,
                n,
                "Kalah({pits},{stones}) depth {depth}; divide: {:?}",
                divide(&mut g, depth as u32)
            );
            assert_eq!(g, Kalah::new(pits, stones), "perft restores the position");
        }
    }
    let divided: Vec<u64> = divide(&mut Kalah::new(6, 4), 2)
        .into_iter()
        .map(|(_, n)| n)
        .collect();
    assert_eq!(divided, [6, 6, 5, 6, 6, 6]);
}

#[test]
fn perft_with_empty_capture() {
    // The rules differ only on a last stone in an own empty pit facing an empty pit, first
    // possible at the fifth move; the counts part from depth 5 on.
    let expected: [u64; 9] = EMPTY_CAPTURE_PERFT_6_4;
    for (depth, &n) in expected.iter().enumerate() {
        let mut g = Kalah::new(6, 4).with_empty_capture(true);
        assert_eq!(perft(&mut g, depth as u32), n, "depth {depth}");
    }
}

const EMPTY_CAPTURE_PERFT_6_4: [u64; 9] = [1, 6, 35, 185, 942, 4_685, 23_169, 113_959, 559_885];

// ---------------------------------------------------------------------------------------
// Properties on random playouts
// ---------------------------------------------------------------------------------------

/// Random playout checking the game contract and Kalah's invariants at every step.
fn check_contract(mut game: Kalah, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let total = game.total_stones();
    let mut moves = Vec::new();
    loop {
        assert_eq!(game.hash(), game.hash_from_scratch(), "hash\n{game}");
        assert_eq!(game.total_stones(), total, "stones conserved\n{game}");
        assert_eq!(
            game.banked(),
            i32::from(game.store(SOUTH)) - i32::from(game.store(NORTH))
        );
        game.legal_moves(&mut moves);
        assert_eq!(game.outcome().is_some(), moves.is_empty(), "{game}");
        let Some(outcome) = game.outcome() else {
            // Legal moves are exactly the mover's non-empty pits.
            let n = game.pit_count();
            for mv in 0..=n as Pit {
                let legal = moves.contains(&mv);
                assert_eq!(
                    legal,
                    mv < n as Pit && game.stones(game.to_move(), mv as usize) > 0
                );
                assert_eq!(game.effect(mv).is_some(), legal);
                if !legal {
                    let before = game;
                    assert!(game.try_play(mv).is_err());
                    assert_eq!(game, before);
                }
            }
            for &mv in &moves {
                let before = game;
                let landing = game.landing(mv);
                let effect = game.effect(mv).unwrap();
                assert_eq!(effect.landing, landing);
                assert_eq!(game.sowing_path(mv).last(), Some(landing));
                let undo = game.play(mv);
                assert_eq!(game.is_over(), effect.ends_game);
                assert_eq!(
                    game.hash(),
                    game.hash_from_scratch(),
                    "after {mv}\n{before}"
                );
                assert_eq!(
                    game.to_move() == before.to_move(),
                    landing == Hole::Store(before.to_move()),
                    "extra turn exactly after a last stone in the own store\n{before}"
                );
                assert!(game.store(SOUTH) >= before.store(SOUTH));
                assert!(game.store(NORTH) >= before.store(NORTH));
                game.undo(mv, undo);
                assert_eq!(game, before, "undo of {mv}");
            }
            let mv = moves[rng.random_range(0..moves.len())];
            let mut copy = game;
            assert!(copy.try_play(mv).is_ok());
            game.play(mv);
            assert_eq!(copy, game);
            continue;
        };
        // Over: everything swept into the stores, the outcome is the store difference.
        assert_eq!(game.side_stones(SOUTH) + game.side_stones(NORTH), 0);
        assert_eq!(outcome.value_for(SOUTH), game.banked());
        break;
    }
}

fn start(pits: usize, stones: u16, empty_capture: bool) -> Kalah {
    Kalah::new(pits, stones).with_empty_capture(empty_capture)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn contract_holds_on_random_playouts(
        seed in any::<u64>(),
        pits in 1usize..=12,
        stones in 1u16..=20,
        empty_capture in any::<bool>(),
    ) {
        check_contract(start(pits, stones, empty_capture), seed);
    }

    #[test]
    fn alphabeta_agrees_with_minimax(
        seed in any::<u64>(),
        pits in 1usize..=6,
        stones in 1u16..=6,
        empty_capture in any::<bool>(),
        plies in 0usize..30,
        depth in 1u32..=4,
    ) {
        let game = random_position(start(pits, stones, empty_capture), plies, seed);
        check_agreement(&game, &StoreEval, depth);
        check_agreement(&game, &NoiseEval, depth);
        let linear = LinearEval::new(&LinearWeights::default());
        check_agreement(&game, &linear, depth);
    }
}

#[test]
fn agreement_covers_extra_turns() {
    // Kalah(6,4) opens with an extra turn (c), so depth-4 searches from the start contain
    // a player moving twice in a row at the root and below.
    let game = Kalah::new(6, 4);
    assert!(game.gives_extra_turn(2));
    for depth in 1..=4 {
        check_agreement(&game, &StoreEval, depth);
        check_agreement(&game, &NoiseEval, depth);
    }
}

// Exact values: tests/reference.rs solves every entry of tests/data/reference/kalah.md
// under both capture rules.
