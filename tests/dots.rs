//! Dots and Boxes: rules on hand-built positions, notation, options, the `Game` contract on
//! random playouts (proptest), alpha-beta agreeing with minimax, exact values of small boards
//! and perft counts.

// Helpers outside `#[test]` functions build positions from fixed, known-good move lists.
#![allow(clippy::unwrap_used)]

use gametree::engine::perft::{divide, perft};
use gametree::engine::score::MARGIN_UNIT;
use gametree::engine::{Evaluator, Game, Outcome, Player};
use gametree::games::dots::{Dots, DotsEval, DotsOptions, Edge, EdgePos, Orientation};
use gametree::games::{GameOptions, Playable};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

mod common;
use common::{NoiseEval, check_agreement, extra_turn_within, random_position};

fn position(rows: usize, cols: usize, moves: &str) -> Dots {
    let mut g = Dots::new(rows, cols);
    g.play_line(moves).unwrap();
    g
}

fn edge(g: &Dots, text: &str) -> Edge {
    g.parse_move(text).unwrap()
}

fn legal(g: &Dots) -> Vec<Edge> {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves
}

// ---------------------------------------------------------------------------------------
// Rules on hand-built positions
// ---------------------------------------------------------------------------------------

#[test]
fn a_line_completing_no_box_passes_the_turn() {
    let mut g = Dots::new(2, 2);
    let before = g.hash();
    let mv = edge(&g, "a1-b1");
    g.play(mv);
    assert_eq!(g.to_move(), Player::Second);
    assert_eq!(g.last_move(), Some(mv));
    assert!(g.is_drawn(mv));
    assert_ne!(g.hash(), before);
    assert_eq!(g.banked(), 0);
    assert_eq!(g.box_sides(0, 0), 1);
    assert_eq!(g.box_sides(1, 0), 0);
    assert_eq!(legal(&g).len(), 11);
}

#[test]
fn a_line_completing_one_box_scores_it_and_moves_again() {
    // First: a1-b1, second: a1-a2, first: a2-b2; the bottom-left box has three sides.
    let mut g = position(2, 2, "a1-b1 a1-a2 a2-b2");
    assert_eq!(g.to_move(), Player::Second);
    assert_eq!(g.box_sides(0, 0), 3);
    g.play(edge(&g, "b1-b2"));
    assert_eq!(g.box_owner(0, 0), Some(Player::Second));
    assert_eq!(g.score(Player::Second), 1);
    assert_eq!(g.banked(), -1);
    assert_eq!(
        g.to_move(),
        Player::Second,
        "completing a box gives another move"
    );
    assert_eq!(g.hash(), g.hash_from_scratch());
    // The extra move is an ordinary one: completing nothing, it passes the turn.
    g.play(edge(&g, "c2-c3"));
    assert_eq!(g.to_move(), Player::First);
    assert_eq!(g.outcome(), None);
}

#[test]
fn a_line_completing_two_boxes_scores_both_and_moves_again() {
    // Every side of the two bottom boxes except the one between them, six moves that
    // complete nothing, so the first player is to move again.
    let mut g = position(2, 2, "a1-b1 b1-c1 a2-b2 b2-c2 a1-a2 c1-c2");
    assert_eq!(g.to_move(), Player::First);
    assert_eq!(g.box_sides(0, 0), 3);
    assert_eq!(g.box_sides(0, 1), 3);
    assert_eq!(g.takeable_boxes(), 2);
    let before = g.clone();
    let mv = edge(&g, "b1-b2");
    let undo = g.play(mv);
    assert_eq!(g.box_owner(0, 0), Some(Player::First));
    assert_eq!(g.box_owner(0, 1), Some(Player::First));
    assert_eq!(g.box_owner(1, 0), None);
    assert_eq!(g.score(Player::First), 2);
    assert_eq!(g.banked(), 2);
    assert_eq!(g.to_move(), Player::First);
    assert_eq!(g.outcome(), None);
    assert_eq!(legal(&g).len(), 5);
    // The hash ignores the banked boxes: only the line and (unchanged) side to move.
    assert_eq!(g.hash(), g.hash_from_scratch());
    g.undo(mv, undo);
    assert_eq!(g, before);
}

#[test]
fn the_game_ends_when_every_line_is_drawn() {
    // 1x1: first a1-b1, second a2-b2, first a1-a2, second b1-b2 takes the box.
    let mut g = position(1, 1, "a1-b1 a2-b2 a1-a2");
    assert_eq!(g.outcome(), None);
    assert_eq!(g.to_move(), Player::Second);
    g.play(edge(&g, "b1-b2"));
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win {
            winner: Player::Second,
            margin: 1
        })
    );
    assert!(legal(&g).is_empty());
    assert_eq!(g.drawn_count(), 4);
    let err = g.try_play(0).unwrap_err();
    assert!(err.to_string().contains("over"), "{err}");
}

#[test]
fn equal_boxes_is_a_draw() {
    // 1x2: the first player takes the left box, then hands the right one over.
    let mut g = position(1, 2, "a1-b1 b2-c2 b1-b2 a2-b2 a1-a2");
    assert_eq!(g.box_owner(0, 0), Some(Player::First));
    assert_eq!(g.to_move(), Player::First);
    g.play_line("c1-c2 b1-c1").unwrap();
    assert_eq!(g.box_owner(0, 1), Some(Player::Second));
    assert_eq!(g.outcome(), Some(Outcome::Draw));
}

#[test]
fn drawn_lines_are_refused() {
    let mut g = position(2, 2, "a1-b1");
    let before = g.clone();
    let err = g.try_play(edge(&g, "b1-a1")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "illegal move a1-b1: the line a1-b1 is already drawn"
    );
    let err = g.try_play(200).unwrap_err();
    assert!(err.to_string().contains("not a line of the board"), "{err}");
    assert_eq!(g, before);
    let err = Dots::new(2, 2).play_line("a1-b1 b2-c2 a1-b1").unwrap_err();
    assert!(err.to_string().starts_with("move 3 (a1-b1)"), "{err}");
}

#[test]
fn nine_by_nine_plays_to_the_end() {
    let mut g = Dots::new(9, 9);
    assert_eq!(g.edge_count(), 180);
    assert_eq!(g.move_space(), 180);
    let mut rng = SmallRng::seed_from_u64(9);
    let mut moves = Vec::new();
    while g.outcome().is_none() {
        g.legal_moves(&mut moves);
        g.play(moves[rng.random_range(0..moves.len())]);
        assert_eq!(g.hash(), g.hash_from_scratch());
    }
    assert_eq!(g.score(Player::First) + g.score(Player::Second), 81);
    assert_eq!(g.parse_move("j10-j9"), Ok(179));
    assert_eq!(g.format_move(179), "j9-j10");
}

// ---------------------------------------------------------------------------------------
// Geometry, notation and the text board
// ---------------------------------------------------------------------------------------

#[test]
fn edge_numbering_and_geometry() {
    let g = Dots::new(2, 3);
    // (2 + 1) * 3 horizontal lines, then 2 * (3 + 1) vertical ones.
    assert_eq!(g.edge_count(), 17);
    assert_eq!(
        g.edge_pos(0),
        Some(EdgePos {
            orientation: Orientation::Horizontal,
            row: 0,
            col: 0
        })
    );
    assert_eq!(
        g.edge_pos(9),
        Some(EdgePos {
            orientation: Orientation::Vertical,
            row: 0,
            col: 0
        })
    );
    assert_eq!(g.edge_pos(17), None);
    let top_right = EdgePos {
        orientation: Orientation::Horizontal,
        row: 2,
        col: 2,
    };
    assert_eq!(g.edge_at(top_right), Some(8));
    assert_eq!(top_right.ends(), [(2, 2), (2, 3)]);
    assert_eq!(
        g.edge_at(EdgePos {
            orientation: Orientation::Vertical,
            row: 2,
            col: 0
        }),
        None
    );
    // Box (1, 2), top right: bottom, top, left, right.
    let sides = g.box_edges(1, 2).unwrap();
    let names: Vec<String> = sides.iter().map(|&e| g.format_move(e)).collect();
    assert_eq!(names, ["c2-d2", "c3-d3", "c2-c3", "d2-d3"]);
    assert_eq!(g.box_edges(2, 0), None);
    assert_eq!(g.box_owner(5, 5), None);
    assert_eq!(g.box_sides(5, 5), 0);
}

#[test]
fn notation_round_trips_on_every_size() {
    for rows in 1..=9 {
        for cols in 1..=9 {
            let g = Dots::new(rows, cols);
            for e in 0..g.edge_count() as Edge {
                let text = g.format_move(e);
                assert_eq!(g.parse_move(&text), Ok(e), "{rows}x{cols} {text}");
                // Reversed dots, upper case, no hyphen.
                let (a, b) = text.split_once('-').unwrap();
                assert_eq!(g.parse_move(&format!("{b}-{a}")), Ok(e));
                assert_eq!(g.parse_move(&format!(" {}{} ", a.to_uppercase(), b)), Ok(e));
                // The compact form names the same lower-left dot.
                let pos = g.edge_pos(e).unwrap();
                let letter = match pos.orientation {
                    Orientation::Horizontal => 'h',
                    Orientation::Vertical => 'v',
                };
                let compact = format!("{letter}{},{}", pos.row + 1, pos.col + 1);
                assert_eq!(g.parse_move(&compact), Ok(e), "{compact}");
            }
        }
    }
}

#[test]
fn notation_examples() {
    let g = Dots::new(2, 2);
    assert_eq!(g.format_move(0), "a1-b1");
    assert_eq!(g.format_move(edge(&g, "a1-a2")), "a1-a2");
    assert_eq!(edge(&g, "h1,1"), edge(&g, "a1-b1"));
    assert_eq!(edge(&g, "v1,1"), edge(&g, "a1-a2"));
    assert_eq!(edge(&g, "H3, 2"), edge(&g, "b3-c3"));
    assert_eq!(edge(&g, "v2,3"), edge(&g, "c2-c3"));
    assert_eq!(edge(&g, "c3 - c2"), edge(&g, "c2-c3"));
}

#[test]
fn parse_errors_say_what_was_expected() {
    let g = Dots::new(2, 2);
    let cases = [
        ("", "like a1-b1"),
        ("xyz", "like a1-b1"),
        ("a1", "like a1-b1"),
        ("a1-b1-c1", "like a1-b1"),
        ("a1-", "like a1-b1"),
        ("1a-1b", "like a1-b1"),
        ("a1-c1", "a1 and c1: they are not neighbours"),
        ("a1-b2", "a1 and b2: they are not neighbours"),
        ("b2-b2", "b2 and b2: that is the same dot twice"),
        (
            "d1-c1",
            "dot d1 is off the board: dot columns are a..c, rows 1..3",
        ),
        ("a0-a1", "dot a0 is off the board"),
        ("a3-a4", "dot a4 is off the board"),
        ("a1234-a1", "like a1-b1"),
        ("h1", "like a1-b1"),
        (
            "h4,1",
            "h<row>,<col> names the line going right from the dot in row 1..=3 (from the bottom)",
        ),
        ("h1,3", "column 1..=2 (1 = a), like h1,1"),
        (
            "v3,1",
            "v<row>,<col> names the line going up from the dot in row 1..=2",
        ),
        ("v1,4", "column 1..=3"),
        ("v0,1", "like v1,1"),
        ("hx,1", "like h1,1"),
        ("q1,1", "like a1-b1"),
    ];
    for (text, expected) in cases {
        let err = g.parse_move(text).unwrap_err();
        assert!(
            err.to_string().contains(expected),
            "`{text}`: `{err}` should contain `{expected}`"
        );
        assert!(
            err.to_string()
                .starts_with(&format!("cannot read move `{text}`"))
        );
    }
}

#[test]
fn display_draws_lines_owners_and_coordinates() {
    let g = position(2, 2, "a1-b1 b1-c1 a2-b2 b2-c2 a1-a2 c1-c2 b1-b2 b3-c3");
    // The top row of boxes has no sides drawn but the top line: an empty text line.
    let expected = " 3 +   +---+\n\n 2 +---+---+\n   | A | A |\n 1 +---+---+\n   a   b   c\n\
                    boxes: A 2, B 0\n";
    assert_eq!(g.to_string(), expected);
    let empty = Dots::new(1, 1).to_string();
    assert_eq!(empty, " 2 +   +\n\n 1 +   +\n   a   b\nboxes: A 0, B 0\n");
    let full = position(1, 1, "a1-b1 a2-b2 a1-a2 b1-b2").to_string();
    assert_eq!(
        full,
        " 2 +---+\n   | B |\n 1 +---+\n   a   b\nboxes: A 0, B 1\n"
    );
}

// ---------------------------------------------------------------------------------------
// Options and evaluators
// ---------------------------------------------------------------------------------------

#[test]
fn options_validation_names_file_key_and_range() {
    let ok = DotsOptions::default();
    assert_eq!((ok.rows, ok.cols, ok.depth), (3, 3, 6));
    assert!(ok.validate("config.toml").is_ok());
    let cases = [
        (
            DotsOptions {
                rows: 0,
                ..ok.clone()
            },
            "config.toml: dots.rows = 0: must be 1..=9",
        ),
        (
            DotsOptions {
                rows: 10,
                ..ok.clone()
            },
            "config.toml: dots.rows = 10: must be 1..=9",
        ),
        (
            DotsOptions {
                cols: 12,
                ..ok.clone()
            },
            "config.toml: dots.cols = 12: must be 1..=9",
        ),
        (
            DotsOptions {
                depth: 0,
                ..ok.clone()
            },
            "config.toml: dots.depth = 0: must be 1..=180",
        ),
    ];
    for (options, message) in cases {
        assert_eq!(
            options.validate("config.toml").unwrap_err().to_string(),
            message
        );
    }
}

#[test]
fn options_from_toml_refuse_unknown_keys_and_fill_defaults() {
    let partial: DotsOptions = toml::from_str("rows = 2").unwrap();
    assert_eq!(
        partial,
        DotsOptions {
            rows: 2,
            ..DotsOptions::default()
        }
    );
    assert!(toml::from_str::<DotsOptions>("size = 3").is_err());
    assert!(toml::from_str::<DotsOptions>("rows = \"two\"").is_err());
}

#[test]
fn options_set_and_entries() {
    let mut options = DotsOptions::default();
    options.set("rows", "2").unwrap();
    options.set("cols", " 4 ").unwrap();
    options.set("depth", "10").unwrap();
    let entries = options.entries();
    let entries: Vec<(&str, &str)> = entries
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(entries, [("rows", "2"), ("cols", "4"), ("depth", "10")]);
    let before = options.clone();
    assert_eq!(
        options.set("rows", "10").unwrap_err(),
        "rows = 10: must be 1..=9"
    );
    assert_eq!(
        options.set("cols", "x").unwrap_err(),
        "cols must be a whole number, not `x`"
    );
    assert_eq!(
        options.set("depth", "0").unwrap_err(),
        "depth = 0: must be 1..=180"
    );
    assert!(
        options
            .set("size", "3")
            .unwrap_err()
            .contains("options: rows, cols, depth")
    );
    assert_eq!(options, before, "a refused value changes nothing");
    let g = Dots::new_game(&options);
    assert_eq!((g.rows(), g.cols()), (2, 4));
    assert_eq!(options.default_depth(), 10);
}

#[test]
fn evaluators_by_name() {
    let options = DotsOptions::default();
    assert_eq!(Dots::EVALUATORS, ["chains", "score"]);
    assert_eq!(Dots::evaluator(&options, "default"), Some(DotsEval::Chains));
    assert_eq!(Dots::evaluator(&options, "score"), Some(DotsEval::Score));
    assert_eq!(Dots::evaluator(&options, "chains"), Some(DotsEval::Chains));
    assert_eq!(Dots::evaluator(&options, "pits"), None);
    assert_eq!(DotsEval::Chains.name(), "chains");
}

#[test]
fn evaluators_score_from_the_side_to_move() {
    // The second player took a box and is to move again: -1 for the first player.
    let g = position(2, 2, "a1-b1 a1-a2 a2-b2 b1-b2");
    assert_eq!(g.to_move(), Player::Second);
    assert_eq!(DotsEval::Score.evaluate(&g), MARGIN_UNIT);
    assert_eq!(DotsEval::Chains.evaluate(&g), MARGIN_UNIT);
    // Two boxes on offer to the first player: chains counts them, score does not.
    let g = position(2, 2, "a1-b1 b1-c1 a2-b2 b2-c2 a1-a2 c1-c2");
    assert_eq!(DotsEval::Score.evaluate(&g), 0);
    assert_eq!(DotsEval::Chains.evaluate(&g), 2 * MARGIN_UNIT);
}

// ---------------------------------------------------------------------------------------
// The Game contract on random playouts
// ---------------------------------------------------------------------------------------

/// Counts boxes by owner through the public accessors.
fn counted_owners(g: &Dots) -> (i32, i32) {
    let (mut first, mut second) = (0, 0);
    for row in 0..g.rows() {
        for col in 0..g.cols() {
            match g.box_owner(row, col) {
                Some(Player::First) => first += 1,
                Some(Player::Second) => second += 1,
                None => {}
            }
        }
    }
    (first, second)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_keep_the_contract(
        rows in 1usize..=5,
        cols in 1usize..=5,
        seed in any::<u64>(),
    ) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut g = Dots::new(rows, cols);
        let mut moves = Vec::new();
        loop {
            g.legal_moves(&mut moves);
            prop_assert_eq!(g.outcome().is_some(), moves.is_empty());
            prop_assert_eq!(g.hash(), g.hash_from_scratch());
            prop_assert_eq!(moves.len() + g.drawn_count(), g.edge_count());
            let (first, second) = counted_owners(&g);
            prop_assert_eq!(g.banked(), first - second);
            prop_assert_eq!(g.score(Player::First) as i32, first);
            if moves.is_empty() {
                // Boxes sum to the board, and the outcome is their difference.
                prop_assert_eq!(first + second, (rows * cols) as i32);
                let expected = Outcome::from_first_margin(first - second);
                prop_assert_eq!(g.outcome(), Some(expected));
                break;
            }
            // Every legal move plays and undoes exactly; drawn lines are refused.
            for &mv in &moves {
                let before = g.clone();
                let undo = g.play(mv);
                prop_assert_eq!(g.hash(), g.hash_from_scratch());
                g.undo(mv, undo);
                prop_assert_eq!(&g, &before);
            }
            for e in 0..g.edge_count() as Edge {
                if !moves.contains(&e) {
                    let before = g.clone();
                    prop_assert!(g.try_play(e).is_err());
                    prop_assert_eq!(&g, &before);
                }
            }
            prop_assert!(g.try_play(g.edge_count() as Edge).is_err());
            // The side to move stays exactly when the line completes a box.
            let mv = moves[rng.random_range(0..moves.len())];
            let mover = g.to_move();
            let boxes_before = g.score(Player::First) + g.score(Player::Second);
            let completes = (0..g.rows())
                .flat_map(|r| (0..g.cols()).map(move |c| (r, c)))
                .filter(|&(r, c)| {
                    g.box_sides(r, c) == 3 && g.box_edges(r, c).unwrap().contains(&mv)
                })
                .count() as u32;
            g.try_play(mv).unwrap();
            let boxes_after = g.score(Player::First) + g.score(Player::Second);
            prop_assert_eq!(boxes_after - boxes_before, completes);
            prop_assert_eq!(g.score(mover) >= completes, true);
            prop_assert_eq!(g.to_move() == mover, completes > 0);
            prop_assert_eq!(g.last_move(), Some(mv));
        }
    }

    #[test]
    fn takeable_boxes_are_really_takeable(
        rows in 1usize..=4,
        cols in 1usize..=4,
        seed in any::<u64>(),
        fill in 0.0f64..1.0,
    ) {
        // Taking boxes one by one (any completing line, as long as there is one) gains
        // exactly what `takeable_boxes` promised, whatever the order.
        let edges = 2 * rows * cols + rows + cols;
        let mut g = random_position(Dots::new(rows, cols), (fill * edges as f64) as usize, seed);
        let promised = g.takeable_boxes();
        let mover = g.to_move();
        let start = g.score(mover);
        let mut moves = Vec::new();
        loop {
            g.legal_moves(&mut moves);
            let completing = moves.iter().copied().find(|&mv| {
                let mut trial = g.clone();
                trial.play(mv);
                trial.score(mover) > g.score(mover)
            });
            let Some(mv) = completing else { break };
            g.play(mv);
            prop_assert_eq!(g.to_move(), mover);
        }
        prop_assert_eq!(g.score(mover) - start, promised);
        prop_assert_eq!(g.takeable_boxes(), 0);
    }
}

// ---------------------------------------------------------------------------------------
// Search: alpha-beta agrees with plain minimax
// ---------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn alphabeta_agrees_with_minimax(
        rows in 1usize..=3,
        cols in 1usize..=4,
        seed in any::<u64>(),
        fill in 0.2f64..1.0,
    ) {
        let edges = 2 * rows * cols + rows + cols;
        let g = random_position(Dots::new(rows, cols), (fill * edges as f64) as usize, seed);
        check_agreement_to_depth_4(&g, &DotsEval::Score);
        check_agreement_to_depth_4(&g, &DotsEval::Chains);
        check_agreement_to_depth_4(&g, &NoiseEval);
    }
}

fn check_agreement_to_depth_4<E: Evaluator<Dots>>(g: &Dots, evaluator: &E) {
    for depth in 1..=4 {
        check_agreement(g, evaluator, depth);
    }
}

#[test]
fn agreement_covers_extra_turns() {
    // The random positions above reach extra turns inside the search tree; make sure the
    // generator does produce them (for seeds 0..48 on 2x2, most positions do).
    let mut with_extra = 0;
    for seed in 0..48 {
        let mut g = random_position(Dots::new(2, 2), 6, seed);
        if extra_turn_within(&mut g, 3) {
            with_extra += 1;
            check_agreement_to_depth_4(&g, &NoiseEval);
        }
    }
    assert!(
        with_extra > 24,
        "only {with_extra} positions with an extra turn"
    );
    // And a root where the side to move itself takes boxes before moving on.
    let g = position(2, 2, "a1-b1 b1-c1 a2-b2 b2-c2 a1-a2 c1-c2");
    assert!(g.takeable_boxes() == 2);
    for evaluator in [DotsEval::Score, DotsEval::Chains] {
        check_agreement_to_depth_4(&g, &evaluator);
    }
    check_agreement_to_depth_4(&g, &NoiseEval);
}

// ---------------------------------------------------------------------------------------
// Exact values and perft
// ---------------------------------------------------------------------------------------

// Exact values of small boards: tests/reference.rs solves every entry of
// tests/data/reference/dots.md.

#[test]
fn perft_counts_every_order_of_drawing_lines() {
    // Every undrawn line is always legal and the game ends only when all are drawn, so
    // perft(d) on a board of E lines is E * (E - 1) * ... * (E - d + 1), extra turns or not.
    // 1x1 (4 lines): 4, 4*3 = 12, 12*2 = 24, 24*1 = 24, then nothing.
    let golden_1x1 = [1, 4, 12, 24, 24, 0];
    for (depth, &n) in golden_1x1.iter().enumerate() {
        assert_eq!(
            perft(&mut Dots::new(1, 1), depth as u32),
            n,
            "1x1 depth {depth}"
        );
    }
    // 2x2 (12 lines): 12, 132, 1320, 11880, 95040.
    let golden_2x2 = [1, 12, 132, 1_320, 11_880, 95_040];
    for (depth, &n) in golden_2x2.iter().enumerate() {
        assert_eq!(
            perft(&mut Dots::new(2, 2), depth as u32),
            n,
            "2x2 depth {depth}"
        );
    }
    // 3x3 (24 lines): 24, 552, 12144, 255024.
    let golden_3x3 = [1, 24, 552, 12_144, 255_024];
    for (depth, &n) in golden_3x3.iter().enumerate() {
        assert_eq!(
            perft(&mut Dots::new(3, 3), depth as u32),
            n,
            "3x3 depth {depth}"
        );
    }
    let divided = divide(&mut Dots::new(2, 2), 3);
    assert_eq!(divided.len(), 12);
    assert!(divided.iter().all(|&(_, n)| n == 110), "{divided:?}");
    // From a position partway through, the count depends only on the lines left.
    let mut g = position(2, 2, "a1-b1 b1-c1 a2-b2 b2-c2 a1-a2 c1-c2 b1-b2");
    assert_eq!(perft(&mut g, 5), 120);
    assert_eq!(perft(&mut g, 6), 0);
}
