//! Gomoku's configurable pattern table (`[gomoku.patterns]`): defaults, validation, every
//! way in (config, setup keys, tournament entrants), the evaluator using it, the exact-five
//! rule; and the 20x20 board (Gomocup's freestyle size): notation and fives on the edges.

// Helpers here are only called from tests: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use gametree::config::Config;
use gametree::engine::api::{Algorithm, EngineSettings};
use gametree::engine::{Evaluator, Game, Outcome, Player};
use gametree::games::gomoku::eval::{Combination, FOUR_TO_MOVE};
use gametree::games::gomoku::shape::Shape;
use gametree::games::gomoku::{
    Cell, Gomoku, GomokuEval, GomokuOptions, PatternTable, PatternWeights, Rule,
};
use gametree::games::{GameOptions, Playable};
use gametree::tournament::entrants::TournamentSpec;

mod common;
use common::{fixed_depth, search_with};

fn cell(g: &Gomoku, text: &str) -> Cell {
    g.parse_move(text).unwrap()
}

/// A 15x15 game after `moves` (alternating from Black).
fn after(rule: Rule, moves: &str) -> Gomoku {
    let mut g = Gomoku::new(15, 5, rule);
    g.play_line(moves).unwrap();
    g
}

/// Every weight 0, each field named: a new weight breaks the build here until it is given
/// its 0 too.
fn zero_weights() -> PatternWeights {
    PatternWeights {
        five: 0.0,
        open_four: 0.0,
        double_closed_four: 0.0,
        closed_four_open_three: 0.0,
        double_open_three: 0.0,
        closed_three_open_three: 0.0,
        closed_four: 0.0,
        open_three: 0.0,
        double_open_two: 0.0,
        closed_three: 0.0,
        open_two: 0.0,
        closed_two: 0.0,
        point_open_four: 0.0,
        point_closed_four: 0.0,
        point_open_three: 0.0,
        point_closed_three: 0.0,
        point_open_two: 0.0,
        point_closed_two: 0.0,
        point_double_four: 0.0,
        point_four_three: 0.0,
        point_double_three: 0.0,
        point_three_two: 0.0,
        point_double_two: 0.0,
        waiting_combination: 0.0,
        waiting_shapes: 0.0,
        tempo: 0.0,
        point_table: 0.0,
    }
}

/// Black's open three on row 6, White's stones parked where they make nothing; White to move.
const OPEN_THREE: &str = "d6 a15 e6 f15 f6";

fn weights(text: &str) -> GomokuOptions {
    let config = Config::parse(text, "test.toml").unwrap();
    config.game_options::<Gomoku>().unwrap()
}

#[test]
fn the_default_table_is_the_assignments_and_needs_no_config() {
    let builtin = Config::builtin().unwrap().game_options::<Gomoku>().unwrap();
    assert_eq!(builtin.patterns, PatternWeights::default());
    // No [gomoku.patterns] at all gives the same table.
    assert_eq!(weights("").patterns, PatternWeights::default());
    let table = [
        ("five", 100_000.0),
        ("open_four", 10_000.0),
        ("double_closed_four", 10_000.0),
        ("closed_four_open_three", 10_000.0),
        ("double_open_three", 5_000.0),
        ("closed_three_open_three", 1_000.0),
        ("closed_four", 500.0),
        ("open_three", 200.0),
        ("double_open_two", 100.0),
        ("closed_three", 50.0),
        ("open_two", 5.0),
        ("closed_two", 3.0),
        ("point_open_four", 40.0),
        ("point_closed_four", 15.0),
        ("point_open_three", 8.0),
        ("point_closed_three", 4.0),
        ("point_open_two", 2.0),
        ("point_closed_two", 1.0),
        ("point_double_four", 0.0),
        ("point_four_three", 0.0),
        ("point_double_three", 0.0),
        ("point_three_two", 0.0),
        ("point_double_two", 0.0),
        ("waiting_combination", 30.0),
        ("waiting_shapes", 60.0),
        ("tempo", 150.0),
        ("point_table", 20.0),
    ];
    assert_eq!(PatternWeights::default().entries(), table);
    // The default weights give the built-in evaluator itself.
    assert_eq!(
        Gomoku::evaluator(&builtin, "patterns"),
        Some(GomokuEval::Patterns)
    );
}

#[test]
fn the_tempo_is_added_to_the_side_to_moves_value_short_of_the_tempo_rules() {
    let no_tempo = GomokuEval::Weighted(
        PatternWeights {
            tempo: 0.0,
            ..PatternWeights::default()
        }
        .table(),
    );
    // An empty board: only the tempo, for Black, who has the move.
    let empty = Gomoku::new(15, 5, Rule::Freestyle);
    assert_eq!(GomokuEval::Patterns.evaluate(&empty), 150);
    assert_eq!(no_tempo.evaluate(&empty), 0);
    // White to move against an open three: the tempo still counts.
    let g = after(Rule::Freestyle, OPEN_THREE);
    assert_eq!(
        GomokuEval::Patterns.evaluate(&g) - no_tempo.evaluate(&g),
        150
    );
    // A four to move is a five next move whatever the weights: no tempo on top.
    let four = after(Rule::Freestyle, "d6 a15 e6 f15 f6 b15 g6 o1");
    assert_eq!(GomokuEval::Patterns.evaluate(&four), FOUR_TO_MOVE);
    assert_eq!(no_tempo.evaluate(&four), FOUR_TO_MOVE);
}

#[test]
fn configured_weights_change_the_evaluation() {
    let options = weights("[gomoku.patterns]\nopen_three = 400\n");
    assert!((options.patterns.open_three - 400.0).abs() < f64::EPSILON);
    assert_eq!(
        options.patterns,
        PatternWeights {
            open_three: 400.0,
            ..PatternWeights::default()
        },
        "the others keep their defaults"
    );
    let eval = Gomoku::evaluator(&options, "default").unwrap();
    assert!(matches!(eval, GomokuEval::Weighted(_)), "{eval:?}");
    let g = after(Rule::Freestyle, OPEN_THREE);
    assert_eq!(g.pattern_counts(Player::First).get(Shape::OpenThree), 1);
    // White to move, facing Black's open three: its category and its own weight both
    // double from 200 to 400, and Black, who just moved, keeps its `waiting_*` percent of
    // each, so White's view is 200 * (30 + 60) / 100 worse.
    let shares = PatternTable::DEFAULT;
    let worse = 200 * (shares.waiting_combination() + shares.waiting_shapes()) / 100;
    let default = GomokuEval::Patterns.evaluate(&g);
    assert_eq!(default - eval.evaluate(&g), worse, "{default}");
    // A table of zeros sees no shape at all: only the tempo rules remain.
    let zero = zero_weights();
    assert_eq!(GomokuEval::Weighted(zero.table()).evaluate(&g), 0);
    assert!(default < 0);
}

/// The potential: every empty point counts, per line through it, as the shape a stone of
/// the side would make there, and each `point_*` weight adds its weight per such point.
#[test]
fn the_potential_weighs_each_empty_point_by_the_shape_a_stone_makes_there() {
    let g = after(Rule::Freestyle, OPEN_THREE);
    let points = g.point_counts(Player::First);
    // Black's d6 e6 f6: c6 and g6 make open fours; b6 and h6 make split fours that one
    // point completes (b6 . d6 e6 f6 needs c6), closed fours.
    assert_eq!(points.get(Shape::OpenFour), 2, "{points:?}");
    assert_eq!(points.get(Shape::ClosedFour), 2, "{points:?}");
    // Counted from scratch, point by point and line by line, the totals agree.
    let mut expected = [0u16; 8];
    for index in 0..15 * 15 {
        let cell = index as Cell;
        for shape in g.shapes_if_played(cell, Player::First) {
            if shape != Shape::None {
                expected[shape as usize] += 1;
            }
        }
    }
    expected[Shape::Five as usize] = points.get(Shape::Five);
    assert_eq!(points.counts, expected);
    // One point weight changed: the evaluation (White to move) moves by its weight times
    // Black's count of that shape minus White's.
    let options = weights("[gomoku.patterns]\npoint_open_four = 100\n");
    let eval = Gomoku::evaluator(&options, "default").unwrap();
    let white = g.point_counts(Player::Second).get(Shape::OpenFour);
    let change = (100 - 40) * (i32::from(points.get(Shape::OpenFour)) - i32::from(white));
    assert_eq!(
        GomokuEval::Patterns.evaluate(&g) - eval.evaluate(&g),
        change
    );
}

/// Black's f8 g8 and h6 h7: a stone on h8 makes open threes along its row and its column, a
/// double-three point, the only one. White's stones are parked where they make nothing;
/// White to move.
const DOUBLE_THREE: &str = "f8 a15 g8 o1 h6 a1 h7";

/// The combination weights: each empty point counts once more, by what its stone would make
/// in its four directions together.
#[test]
fn a_double_three_point_adds_its_combination_weight_once() {
    let g = after(Rule::Freestyle, DOUBLE_THREE);
    let h8 = cell(&g, "h8");
    let shapes = g.shapes_if_played(h8, Player::First);
    assert_eq!(
        Combination::of(shapes),
        Combination::DoubleThree,
        "{shapes:?}"
    );
    let black = g.combination_counts(Player::First);
    let white = g.combination_counts(Player::Second);
    assert_eq!(black[Combination::DoubleThree as usize], 1, "{black:?}");
    assert_eq!(white[Combination::DoubleThree as usize], 0, "{white:?}");
    // Counted point by point, the kept counts agree.
    let mut expected = [0u16; 6];
    for index in 0..15 * 15 {
        let cell = index as Cell;
        if g.at(cell).is_none() {
            expected[Combination::of(g.shapes_if_played(cell, Player::First)) as usize] += 1;
        }
    }
    assert_eq!(black, expected);
    // Kept by play and undo (a game from options with a combination weight keeps them; one
    // without works them out when asked), the same counts.
    let options = weights("[gomoku.patterns]\npoint_double_three = 700\n");
    assert!(!g.keeps_combinations());
    let mut kept = Gomoku::new_game(&options);
    assert!(kept.keeps_combinations());
    kept.play_line(DOUBLE_THREE).unwrap();
    assert_eq!(kept.combination_counts(Player::First), black);
    // From the config file: White's view gets worse by exactly the weight.
    assert!((options.patterns.point_double_three - 700.0).abs() < f64::EPSILON);
    let eval = Gomoku::evaluator(&options, "default").unwrap();
    assert!(matches!(eval, GomokuEval::Weighted(_)), "{eval:?}");
    assert_eq!(GomokuEval::Patterns.evaluate(&g) - eval.evaluate(&g), 700);
    // A search prepares its own copy for its evaluator: counts kept exactly when weighed.
    let mut copy = g.clone();
    eval.prepare(&mut copy);
    assert!(copy.keeps_combinations());
    assert_eq!(copy.combination_counts(Player::First), black);
    GomokuEval::Patterns.prepare(&mut copy);
    assert!(!copy.keeps_combinations());
    // Once Black has played h8 the point is taken, and no double three is left to weigh.
    let mut played = g.clone();
    played.play_line("a3 h8").unwrap();
    let black = played.combination_counts(Player::First);
    assert_eq!(black[Combination::DoubleThree as usize], 0, "{black:?}");
}

/// The side that just moved keeps only its `waiting_*` percent of its combination and of its
/// shapes: the side to move answers them first. With the side to move's shapes unchanged, the
/// evaluation moves by exactly the part given back.
#[test]
fn the_side_that_just_moved_keeps_its_waiting_share() {
    // Black's open three d6 e6 f6 and closed three h9 h10 h11 (h12 blocked by White), White's
    // other stones parked on the edge; White to move.
    let g = after(Rule::Freestyle, "d6 h12 e6 a15 f6 o15 h9 a1 h10 o1 h11");
    assert_eq!(g.to_move(), Player::Second);
    let black = g.pattern_counts(Player::First);
    assert_eq!(black.get(Shape::OpenThree), 1, "{black:?}");
    assert_eq!(black.get(Shape::ClosedThree), 1, "{black:?}");
    let whole = weights("[gomoku.patterns]\nwaiting_combination = 100\nwaiting_shapes = 100\n");
    let whole = Gomoku::evaluator(&whole, "default").unwrap();
    let only_shapes = weights("[gomoku.patterns]\nwaiting_combination = 100\n");
    let only_shapes = Gomoku::evaluator(&only_shapes, "default").unwrap();
    let default = GomokuEval::Patterns.evaluate(&g);
    // The combination (closed three + open three, 1000) at 30 % instead of 100 %.
    assert_eq!(default - only_shapes.evaluate(&g), 1000 * 70 / 100);
    // And the shapes (open three 200, closed three 50, open twos and closed twos of the
    // three's stones as counted) at 60 % instead of 100 %.
    let singles: i32 = [
        (Shape::ClosedTwo, 3),
        (Shape::OpenTwo, 5),
        (Shape::ClosedThree, 50),
        (Shape::OpenThree, 200),
    ]
    .iter()
    .map(|&(shape, weight)| i32::from(black.get(shape)) * weight)
    .sum();
    assert_eq!(
        only_shapes.evaluate(&g) - whole.evaluate(&g),
        singles - singles * 60 / 100
    );
    assert!(default > whole.evaluate(&g));
}

#[test]
fn weights_out_of_range_are_refused_naming_the_key() {
    let e = Config::parse("[gomoku.patterns]\nopen_three = -5\n", "my.toml")
        .unwrap_err()
        .to_string();
    assert_eq!(
        e, "my.toml: gomoku.patterns.open_three = -5: must be a number 0..=100000",
        "{e}"
    );
    let e = Config::parse("[gomoku.patterns]\nfive = 1e6\n", "my.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("gomoku.patterns.five"), "{e}");
    let e = Config::parse("[gomoku.patterns]\npoint_double_three = -1\n", "my.toml")
        .unwrap_err()
        .to_string();
    assert_eq!(
        e, "my.toml: gomoku.patterns.point_double_three = -1: must be a number 0..=100000",
        "{e}"
    );
    let e = Config::parse("[gomoku.patterns]\npoint_four_three = 100001\n", "my.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("gomoku.patterns.point_four_three"), "{e}");
    let e = Config::parse("[gomoku.patterns]\nopen_threes = 1\n", "my.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("open_threes"), "{e}");
    let e = Config::parse("[gomoku.patterns]\nopen_three = \"many\"\n", "my.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("open_three"), "{e}");
}

#[test]
fn weights_are_options_by_key_for_the_setup_screen_flags_and_entrants() {
    let mut options = GomokuOptions::default();
    let keys: Vec<String> = options.entries().into_iter().map(|(k, _)| k).collect();
    assert!(
        keys.contains(&"patterns.open_three".to_string()),
        "{keys:?}"
    );
    assert!(
        keys.contains(&"patterns.closed_two".to_string()),
        "{keys:?}"
    );
    options.set("patterns.open_three", "250").unwrap();
    assert!((options.patterns.open_three - 250.0).abs() < f64::EPSILON);
    let e = options.set("patterns.open_three", "-1").unwrap_err();
    assert!(e.contains("0..=100000"), "{e}");
    assert!((options.patterns.open_three - 250.0).abs() < f64::EPSILON);
    // A tournament entrant with its own weights.
    let spec = TournamentSpec::parse(
        r#"
game = "gomoku"
games = 1
[options]
size = 9
[[entrant]]
name = "threes"
evaluator = "patterns"
weights = { open_three = 800, closed_three = 10 }
[[entrant]]
name = "plain"
"#,
        "t.toml",
        None,
    )
    .unwrap();
    let t = spec.resolve::<Gomoku>(&Config::builtin().unwrap()).unwrap();
    assert!((t.entrants[0].options.patterns.open_three - 800.0).abs() < f64::EPSILON);
    assert!((t.entrants[0].options.patterns.closed_three - 10.0).abs() < f64::EPSILON);
    assert_eq!(t.entrants[1].options.patterns, PatternWeights::default());
}

#[test]
fn the_strongest_combination_counts_with_any_weights() {
    // With the default table the category is the first that applies in the assignment's
    // order; with a table that values a closed three above an open three, a closed three
    // and an open three together score the closed three's weight as their category.
    let counts = {
        let g = after(Rule::Freestyle, "a1 a15 b1 f15 c1 k15 d6 a10 e6 f10 f6");
        let c = g.pattern_counts(Player::First);
        assert_eq!(c.get(Shape::ClosedThree), 1, "{c:?}");
        assert_eq!(c.get(Shape::OpenThree), 1, "{c:?}");
        c
    };
    assert_eq!(PatternTable::DEFAULT.category(&counts.counts), 1_000);
    let odd = PatternWeights {
        closed_three: 3_000.0,
        ..PatternWeights::default()
    }
    .table();
    assert_eq!(odd.category(&counts.counts), 3_000);
    assert_eq!(odd.score(&counts.counts), 3_000 + 3_000 + 200);
}

/// Black `a1 b1 c1 e1 f1` and then `d1`: six in a row, made without ever being exactly five.
const OVERLINE: &str = "a1 a15 b1 f15 c1 k15 e1 a10 f1 f10 d1";

#[test]
fn under_the_standard_rule_an_overline_is_no_five_and_earns_nothing() {
    let standard = after(Rule::Standard, OVERLINE);
    assert_eq!(standard.outcome(), None, "six in a row does not win");
    let counts = standard.pattern_counts(Player::First);
    assert_eq!(counts.get(Shape::Five), 0, "{counts:?}");
    // Only the five is weighted: the overline is worth nothing to Black.
    let five_only = PatternWeights {
        five: 100_000.0,
        ..zero_weights()
    }
    .table();
    assert_eq!(five_only.score(&counts.counts), 0);
    assert_eq!(GomokuEval::Weighted(five_only).evaluate(&standard), 0);
    // The point that would join a1-c1 and e1-f1 is no five (nor four) for the candidate
    // ranking either; under freestyle it is a five, and the same line wins.
    let before = after(Rule::Standard, "a1 a15 b1 f15 c1 k15 e1 a10 f1 f10");
    let d1 = cell(&before, "d1");
    assert!(
        !before
            .shapes_if_played(d1, Player::First)
            .contains(&Shape::Five)
    );
    let free = after(Rule::Freestyle, "a1 a15 b1 f15 c1 k15 e1 a10 f1 f10");
    assert!(
        free.shapes_if_played(d1, Player::First)
            .contains(&Shape::Five)
    );
    let won = after(Rule::Freestyle, OVERLINE);
    assert_eq!(
        won.outcome(),
        Some(Outcome::Win {
            winner: Player::First,
            margin: 1
        })
    );
}

// ---------------------------------------------------------------------------------------
// 20x20

#[test]
fn a_20x20_board_is_offered_and_written_a_to_t() {
    let options = GomokuOptions {
        size: 20,
        ..GomokuOptions::default()
    };
    assert_eq!(options.validate("config.toml"), Ok(()));
    let g = Gomoku::new_game(&options);
    assert_eq!(g.size(), 20);
    assert_eq!(g.format_move(g.centre()), "k11");
    let corner = cell(&g, "t20");
    assert_eq!(g.row_col(corner), (19, 19));
    assert_eq!(g.format_move(corner), "t20");
    assert_eq!(g.row_col(cell(&g, "a1")), (0, 0));
    for bad in ["u1", "a21", "t0"] {
        let e = g.parse_move(bad).unwrap_err().to_string();
        assert!(e.contains("a column a..t and a row 1..20"), "{bad}: {e}");
    }
    let text = g.to_string();
    assert!(text.starts_with("20 "), "{text}");
    assert!(text.trim_end().ends_with("s t"), "{text}");
    let mut legal = Vec::new();
    g.legal_moves(&mut legal);
    assert_eq!(legal.len(), 400);
    let too_big = GomokuOptions {
        size: 21,
        ..GomokuOptions::default()
    };
    assert!(too_big.validate("x").is_err());
}

#[test]
fn fives_on_the_edges_of_20x20_win() {
    // Black's five along the top row, the right column, the long diagonal's far end and the
    // anti-diagonal in the top-right corner; White's stones go where they make nothing.
    let fives = [
        ["p20", "q20", "r20", "s20", "t20"],
        ["t1", "t2", "t3", "t4", "t5"],
        ["p16", "q17", "r18", "s19", "t20"],
        ["t16", "s17", "r18", "q19", "p20"],
    ];
    let parking = ["a1", "e3", "i1", "a9"];
    for five in fives {
        let mut g = Gomoku::new(20, 5, Rule::Freestyle);
        for (i, point) in five.iter().enumerate() {
            assert_eq!(g.outcome(), None, "{five:?}");
            g.try_play(cell(&g, point)).unwrap();
            if let Some(w) = parking.get(i).filter(|_| i < 4) {
                g.try_play(cell(&g, w)).unwrap();
            }
        }
        assert_eq!(
            g.outcome(),
            Some(Outcome::Win {
                winner: Player::First,
                margin: 1
            }),
            "{five:?}"
        );
        let line: Vec<String> = g
            .winning_line()
            .unwrap()
            .into_iter()
            .map(|c| g.format_move(c))
            .collect();
        let mut expected: Vec<String> = five.iter().map(ToString::to_string).collect();
        let mut got = line.clone();
        expected.sort();
        got.sort();
        assert_eq!(got, expected, "{line:?}");
        // The hash kept by play equals the one computed from the board.
        assert_eq!(g.hash(), g.hash_from_scratch());
    }
}

#[test]
fn the_engine_finds_the_edge_five_and_the_block_on_20x20() {
    let settings = EngineSettings {
        candidates: 12,
        ..fixed_depth(Algorithm::Full, 2, true, false)
    };
    // Black to move with four up the right column from the corner: only t5 makes five.
    let mut g = Gomoku::new(20, 5, Rule::Freestyle);
    g.play_line("t1 a20 t2 c20 t3 e20 t4 g20").unwrap();
    let r = search_with(&g, &GomokuEval::Patterns, &settings);
    assert_eq!(r.best.map(|m| g.format_move(m)), Some("t5".to_string()));
    // White to move must stop Black's four along the top row at its only open end.
    let mut g = Gomoku::new(20, 5, Rule::Freestyle);
    g.play_line("q20 a1 r20 c1 s20 e1 t20").unwrap();
    let r = search_with(&g, &GomokuEval::Patterns, &settings);
    assert_eq!(r.best.map(|m| g.format_move(m)), Some("p20".to_string()));
}
