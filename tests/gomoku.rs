//! Gomoku: rules on hand-built positions (freestyle vs standard overlines, every line in every
//! direction, edges, no wrap-around), notation, options, the pattern evaluator's category
//! order, candidate points, perft, exact values of small k-in-a-row boards, and random-playout
//! properties (undo, hash, outcome contract, alpha-beta == minimax).

// Helpers here are only called from tests: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use gametree::engine::api::{Algorithm, EngineSettings, SearchResult};
use gametree::engine::perft::{divide, perft};
use gametree::engine::score;
use gametree::engine::{Evaluator, Game, Outcome, Player};
use gametree::games::gomoku::eval::{FACING_OPEN_FOUR, FOUR_TO_MOVE};
use gametree::games::gomoku::shape::{Shape, ShapeTable};
use gametree::games::gomoku::{
    Cell, Gomoku, GomokuEval, GomokuOptions, PatternTable, PatternWeights, Rule,
};
use gametree::games::{GameOptions, Playable};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

mod common;
use common::{NoiseEval, fixed_depth, random_position, search_with};

// ---------------------------------------------------------------------------------------
// Helpers

fn game(size: usize, connect: usize, rule: Rule) -> Gomoku {
    Gomoku::new(size, connect, rule)
}

fn cell(g: &Gomoku, text: &str) -> Cell {
    g.parse_move(text).unwrap()
}

const BLACK_WINS: Option<Outcome> = Some(Outcome::Win {
    winner: Player::First,
    margin: 1,
});

/// White cells far from what the tests build (rows 10 and 15 of 15x15), five apart along
/// every line, so that they form no shape at all.
const PARKING: [&str; 6] = ["a15", "f15", "k15", "a10", "f10", "k10"];

/// A 15x15 position where Black has played `black` and White `white` followed by parking
/// moves far away, alternating from Black, so that White has one stone fewer (White to
/// move) or, with `black_to_move`, as many (Black to move).
fn position(rule: Rule, black: &[&str], white: &[&str], black_to_move: bool) -> Gomoku {
    let mut g = game(15, 5, rule);
    let whites = black.len() - usize::from(!black_to_move);
    let mut white_moves = white.iter().chain(PARKING.iter()).take(whites);
    for b in black {
        g.try_play(cell(&g, b)).unwrap();
        if let Some(w) = white_moves.next() {
            g.try_play(cell(&g, w)).unwrap();
        }
    }
    g
}

/// Independent of the crate's line bookkeeping: does `player` on `cell` make a winning run?
fn naive_wins(g: &Gomoku, at: Cell, player: Player) -> bool {
    let n = g.size() as isize;
    let (row, col) = g.row_col(at);
    let (row, col) = (row as isize, col as isize);
    let mine = |r: isize, c: isize| {
        (r, c) == (row, col)
            || ((0..n).contains(&r)
                && (0..n).contains(&c)
                && g.stone(r as usize, c as usize) == Some(player))
    };
    [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
        let mut run = 1;
        for sign in [1, -1] {
            let (mut r, mut c) = (row + sign * dr, col + sign * dc);
            while mine(r, c) {
                run += 1;
                r += sign * dr;
                c += sign * dc;
            }
        }
        match g.rule() {
            Rule::Freestyle => run >= g.connect(),
            Rule::Standard => run == g.connect(),
        }
    })
}

fn settings(algorithm: Algorithm, depth: u32, ordering: bool, candidates: usize) -> EngineSettings {
    EngineSettings {
        candidates,
        ..fixed_depth(algorithm, depth, ordering, false)
    }
}

// ---------------------------------------------------------------------------------------
// Rules

#[test]
fn overline_wins_only_in_freestyle() {
    // Black: a1 b1 c1 . e1 f1, then d1 makes six in a row.
    for rule in Rule::ALL {
        let mut g = position(rule, &["a1", "b1", "c1", "e1", "f1"], &[], false);
        assert_eq!(g.outcome(), None);
        g.try_play(cell(&g, "h12")).unwrap();
        g.try_play(cell(&g, "d1")).unwrap();
        match rule {
            Rule::Freestyle => {
                assert_eq!(g.outcome(), BLACK_WINS);
                assert_eq!(g.winning_line().unwrap().len(), 6);
            }
            Rule::Standard => {
                assert_eq!(g.outcome(), None, "an overline does not win");
                assert_eq!(g.winning_line(), None);
                let mut moves = Vec::new();
                g.legal_moves(&mut moves);
                assert_eq!(moves.len(), 225 - 11);
            }
        }
    }
}

#[test]
fn exactly_five_wins_under_both_rules() {
    for rule in Rule::ALL {
        let mut g = position(rule, &["b1", "c1", "d1", "e1"], &[], false);
        g.try_play(cell(&g, "h12")).unwrap();
        g.try_play(cell(&g, "f1")).unwrap();
        assert_eq!(g.outcome(), BLACK_WINS, "{rule}");
        let line: Vec<String> = g
            .winning_line()
            .unwrap()
            .iter()
            .map(|&c| g.format_move(c))
            .collect();
        assert_eq!(line, ["b1", "c1", "d1", "e1", "f1"]);
    }
}

#[test]
fn standard_five_next_to_a_gap_still_wins() {
    // XXXX.X then the far end: a1..d1 + f1, Black plays e1? That is six; play the other end.
    let mut g = position(Rule::Standard, &["b1", "c1", "d1", "e1", "g1"], &[], false);
    g.try_play(cell(&g, "h12")).unwrap();
    g.try_play(cell(&g, "a1")).unwrap();
    assert_eq!(g.outcome(), BLACK_WINS, "a1..e1 is exactly five");
}

/// Every straight segment of `connect` cells in every direction, on several boards: the
/// last stone wins, nothing wins before, and the winning line is the segment.
#[test]
fn every_segment_in_every_direction_wins() {
    for (size, connect) in [(5, 3), (6, 4), (7, 5), (15, 5), (19, 5)] {
        for rule in Rule::ALL {
            let mut segments = 0;
            for row in 0..size as isize {
                for col in 0..size as isize {
                    for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                        let end = (
                            row + dr * (connect as isize - 1),
                            col + dc * (connect as isize - 1),
                        );
                        if !(0..size as isize).contains(&end.0)
                            || !(0..size as isize).contains(&end.1)
                        {
                            continue;
                        }
                        segments += 1;
                        check_segment(size, connect, rule, (row, col), (dr, dc));
                    }
                }
            }
            // Lines of `connect` on an n x n board: 2n(n-k+1) straight + 2(n-k+1)^2 diagonal.
            let m = size - connect + 1;
            assert_eq!(segments, 2 * size * m + 2 * m * m);
        }
    }
}

fn check_segment(
    size: usize,
    connect: usize,
    rule: Rule,
    start: (isize, isize),
    step: (isize, isize),
) {
    let mut g = game(size, connect, rule);
    let cells: Vec<Cell> = (0..connect as isize)
        .map(|i| {
            g.cell(
                (start.0 + i * step.0) as usize,
                (start.1 + i * step.1) as usize,
            )
            .unwrap()
        })
        .collect();
    // Black fills the segment from both ends inwards; White plays the first free cells
    // off the segment (k-1 White stones can never make k).
    let order: Vec<Cell> = (0..connect)
        .map(|i| {
            if i % 2 == 0 {
                cells[i / 2]
            } else {
                cells[connect - 1 - i / 2]
            }
        })
        .collect();
    let mut spare = (0..(size * size) as Cell).filter(|c| !cells.contains(c));
    for (i, &black) in order.iter().enumerate() {
        assert_eq!(g.outcome(), None);
        g.try_play(black).unwrap();
        if i + 1 < connect {
            assert_eq!(g.outcome(), None, "{g:?}");
            let white = spare.by_ref().find(|&c| g.at(c).is_none()).unwrap();
            g.try_play(white).unwrap();
        }
    }
    assert_eq!(g.outcome(), BLACK_WINS, "{g:?}");
    let mut line = g.winning_line().unwrap();
    line.sort_unstable();
    let mut expected = cells.clone();
    expected.sort_unstable();
    assert_eq!(line, expected, "{g:?}");
}

#[test]
fn lines_do_not_wrap_around_the_board_edge() {
    // Five consecutive cell indexes that cross from one row to the next, in each direction
    // where a wrap could join them: along rows (+1), diagonals (+n+1), anti-diagonals (+n-1).
    let n: Cell = 15;
    for (first, step) in [(12, 1), (12, n + 1), (2, n - 1), (n + 11, 1)] {
        let black: Vec<Cell> = (0..5).map(|i| first + i * step).collect();
        let mut g = game(15, 5, Rule::Freestyle);
        for (i, &b) in black.iter().enumerate() {
            g.try_play(b).unwrap();
            assert_eq!(g.outcome(), None, "{g:?}");
            if i < 4 {
                g.try_play(cell(&g, PARKING[i])).unwrap();
            }
        }
    }
}

#[test]
fn full_board_without_a_line_is_a_draw() {
    let mut g = game(3, 3, Rule::Freestyle);
    g.play_line("a1 b2 c1 b1 b3 a2 c2 c3 a3").unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert!(moves.is_empty());
    g.candidate_moves(&mut moves, 12);
    assert!(moves.is_empty());
}

#[test]
fn a_win_ends_the_move_list_and_refuses_moves() {
    let mut g = position(Rule::Freestyle, &["a1", "b1", "c1", "d1"], &[], false);
    g.try_play(cell(&g, "h12")).unwrap();
    g.try_play(cell(&g, "e1")).unwrap();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    assert!(moves.is_empty());
    let err = g.try_play(cell(&g, "h8")).unwrap_err();
    assert!(err.to_string().contains("over"), "{err}");
}

#[test]
fn occupied_points_are_illegal() {
    let mut g = game(15, 5, Rule::Freestyle);
    g.play_line("h8").unwrap();
    let before = g.clone();
    let err = g.try_play(cell(&g, "h8")).unwrap_err();
    assert!(err.to_string().contains("h8"), "{err}");
    assert_eq!(g, before);
    let err = g.play_line("g7 H8").unwrap_err();
    assert!(err.to_string().contains("move 2"), "{err}");
}

#[test]
fn accessors_for_the_board_view() {
    let mut g = game(15, 5, Rule::Standard);
    g.play_line("h8 a1").unwrap();
    assert_eq!((g.size(), g.connect(), g.rule()), (15, 5, Rule::Standard));
    assert_eq!(g.stone(7, 7), Some(Player::First));
    assert_eq!(g.stone(0, 0), Some(Player::Second));
    assert_eq!(g.stone(0, 1), None);
    assert_eq!(g.stone(15, 0), None, "off the board");
    assert_eq!(g.last_move(), g.cell(0, 0));
    assert_eq!(g.cell(7, 7), Some(g.centre()));
    assert_eq!(g.cell(15, 0), None);
    assert_eq!(g.row_col(cell(&g, "o15")), (14, 14));
    assert_eq!(g.stones_played(), 2);
    assert_eq!(g.winner(), None);
    let text = g.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 16);
    assert!(lines[0].starts_with("15 "));
    assert_eq!(lines[14], " 1 (O). . . . . . . . . . . . . .");
    assert_eq!(lines[7], " 8  . . . . . . . X . . . . . . .");
    assert_eq!(lines[15], "    a b c d e f g h i j k l m n o");
    g.play_line("o1").unwrap();
    assert!(g.to_string().lines().nth(14).unwrap().ends_with(".(X)"));
}

// ---------------------------------------------------------------------------------------
// Notation and options

#[test]
fn notation_round_trip_and_errors() {
    for size in [3, 15, 19] {
        let g = game(size, 3, Rule::Freestyle);
        for c in 0..(size * size) as Cell {
            assert_eq!(g.parse_move(&g.format_move(c)), Ok(c));
        }
    }
    let g = game(15, 5, Rule::Freestyle);
    assert_eq!(g.format_move(g.centre()), "h8");
    assert_eq!(g.format_move(0), "a1");
    assert_eq!(g.format_move(224), "o15");
    assert_eq!(g.parse_move(" H8 "), Ok(g.centre()));
    assert_eq!(game(19, 5, Rule::Freestyle).format_move(360), "s19");
    for bad in [
        "z9", "a0", "a16", "p1", "", "h", "8h", "h8x", "hh8", "h+8", "h 8", "h-1",
    ] {
        let err = g.parse_move(bad).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("cannot read move `{bad}`: a column a..o and a row 1..15, like h8")
        );
    }
    let small = game(3, 3, Rule::Freestyle);
    let err = small.parse_move("d1").unwrap_err();
    assert!(
        err.to_string()
            .ends_with("a column a..c and a row 1..3, like b2")
    );
}

#[test]
fn options_validate_with_clear_messages() {
    let ok = GomokuOptions::default();
    assert_eq!(ok.validate("config.toml"), Ok(()));
    assert_eq!(ok.candidates(), 12);
    assert_eq!(ok.default_depth(), 4);
    let cases: [(GomokuOptions, &str); 6] = [
        (
            GomokuOptions {
                size: 2,
                ..ok.clone()
            },
            "config.toml: gomoku.size = 2: must be 3..=20",
        ),
        (
            GomokuOptions {
                size: 21,
                ..ok.clone()
            },
            "config.toml: gomoku.size = 21: must be 3..=20",
        ),
        (
            GomokuOptions {
                connect: 1,
                ..ok.clone()
            },
            "config.toml: gomoku.connect = 1: must be 2..=7 (at most the board size 15 and at \
             most 7: longer lines are known draws)",
        ),
        (
            GomokuOptions {
                size: 4,
                connect: 5,
                ..ok.clone()
            },
            "config.toml: gomoku.connect = 5: must be 2..=4 (at most the board size 4 and at \
             most 7: longer lines are known draws)",
        ),
        (
            GomokuOptions {
                candidates: 401,
                ..ok.clone()
            },
            "config.toml: gomoku.candidates = 401: must be 0..=400 (0 = every empty point)",
        ),
        (
            GomokuOptions {
                depth: 0,
                ..ok.clone()
            },
            "config.toml: gomoku.depth = 0: must be 1..=400",
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
fn options_from_toml_and_from_text() {
    let parsed: GomokuOptions =
        toml::from_str("size = 9\nconnect = 4\nrule = \"standard\"\ncandidates = 0").unwrap();
    assert_eq!(
        parsed,
        GomokuOptions {
            size: 9,
            connect: 4,
            rule: Rule::Standard,
            candidates: 0,
            depth: 4,
            threats: true,
            patterns: gametree::games::gomoku::PatternWeights::default(),
        }
    );
    assert!(toml::from_str::<GomokuOptions>("colour = 1").is_err());
    assert!(toml::from_str::<GomokuOptions>("rule = \"renju\"").is_err());

    let mut o = GomokuOptions::default();
    o.set("size", "19").unwrap();
    o.set("rule", "Standard").unwrap();
    o.set("candidates", "0").unwrap();
    o.set("connect", "6").unwrap();
    o.set("depth", "3").unwrap();
    let entries = o.entries();
    let entries: Vec<(&str, &str)> = entries
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    // Then the pattern weights, `patterns.five` .. `patterns.point_table`.
    assert_eq!(entries.len(), 6 + 27, "{entries:?}");
    assert_eq!(entries[6], ("patterns.five", "100000"));
    assert_eq!(
        entries[..6],
        [
            ("size", "19"),
            ("connect", "6"),
            ("rule", "standard"),
            ("candidates", "0"),
            ("depth", "3"),
            ("threats", "true"),
        ]
    );
    assert_eq!(
        o.set("size", "x").unwrap_err(),
        "size must be a whole number, not `x`"
    );
    let e = o.set("connect", "9").unwrap_err();
    assert!(e.starts_with("connect = 9: must be 2..=7"), "{e}");
    let e = o.set("rule", "renju").unwrap_err();
    assert!(e.contains("renju") && e.contains("freestyle"), "{e}");
    assert!(o.set("pits", "6").unwrap_err().contains("no option `pits`"));
    let g = Gomoku::new_game(&o);
    assert_eq!((g.size(), g.connect(), g.rule()), (19, 6, Rule::Standard));
    assert!(Gomoku::evaluator(&o, "default").is_some());
    assert_eq!(
        Gomoku::evaluator(&o, "patterns").unwrap().name(),
        "patterns"
    );
    assert!(Gomoku::evaluator(&o, "material").is_none());
    // Unvalidated options are clamped, never a panic.
    let wild = GomokuOptions {
        size: 99,
        connect: 0,
        ..GomokuOptions::default()
    };
    assert_eq!(Gomoku::new_game(&wild).size(), 20);
}

// ---------------------------------------------------------------------------------------
// Evaluation

/// Hand-built positions of Black's, one per category of the issue's table, strongest first.
/// Components sit on rows 1 and 6 (five apart, so they never share a line window) and use
/// the board edge to close a shape.
const CATEGORIES: [(&str, &[&str], i32); 11] = [
    ("five", &["a1", "b1", "c1", "d1", "e1"], 100_000),
    ("open four", &["d6", "e6", "f6", "g6"], 10_000),
    (
        "double closed four",
        &["a1", "b1", "c1", "d1", "a2", "a3", "a4"],
        10_000,
    ),
    (
        "closed four + open three",
        &["a1", "b1", "c1", "d1", "d6", "e6", "f6"],
        10_000,
    ),
    (
        "double open three",
        &["d1", "e1", "f1", "d6", "e6", "f6"],
        5_000,
    ),
    (
        "closed three + open three",
        &["a1", "b1", "c1", "d6", "e6", "f6"],
        1_000,
    ),
    ("closed four", &["a1", "b1", "c1", "d1"], 500),
    ("open three", &["d6", "e6", "f6"], 200),
    ("double open two", &["d1", "e1", "d6", "e6"], 100),
    ("closed three", &["a1", "b1", "c1"], 50),
    ("open two", &["d6", "e6"], 5),
];

#[test]
fn pattern_categories_rank_in_the_issues_order() {
    let mut previous = i32::MAX;
    for (name, black, category) in CATEGORIES {
        let g = position(Rule::Freestyle, black, &[], false);
        let counts = g.pattern_counts(Player::First);
        assert_eq!(counts.category(), category, "{name}: {counts:?}");
        let score = counts.score();
        assert!(score < previous, "{name}: {score} !< {previous}");
        previous = score;
        // White's parking stones make nothing.
        assert_eq!(g.pattern_counts(Player::Second).score(), 0, "{name}");
    }
    let closed_two = position(Rule::Freestyle, &["a1", "b1"], &[], false);
    let counts = closed_two.pattern_counts(Player::First);
    assert_eq!(counts.category(), 3);
    assert!(counts.score() < previous);
    assert!(counts.score() > 0);
}

#[test]
fn shapes_are_blocked_by_the_opponent() {
    // An open three with a White stone at one end becomes closed; at both ends, dead.
    let open = position(Rule::Freestyle, &["d6", "e6", "f6"], &[], false);
    assert_eq!(open.pattern_counts(Player::First).get(Shape::OpenThree), 1);
    let closed = position(Rule::Freestyle, &["d6", "e6", "f6"], &["c6"], false);
    assert_eq!(
        closed.pattern_counts(Player::First).get(Shape::ClosedThree),
        1
    );
    let dead = position(Rule::Freestyle, &["d6", "e6", "f6"], &["c6", "g6"], true);
    assert_eq!(dead.pattern_counts(Player::First).score(), 0);
}

#[test]
fn evaluation_is_from_the_side_to_move_with_tempo() {
    let eval = GomokuEval::Patterns;
    // Black's open four: White to move cannot stop it; Black to move makes five.
    let open_four = position(Rule::Freestyle, &["d6", "e6", "f6", "g6"], &[], false);
    assert_eq!(eval.evaluate(&open_four), FACING_OPEN_FOUR);
    let closed_four = position(Rule::Freestyle, &["a1", "b1", "c1", "d1"], &[], false);
    let v = eval.evaluate(&closed_four);
    assert!(FACING_OPEN_FOUR < v && v < 0, "{v}");
    let closed_four_to_move = position(Rule::Freestyle, &["a1", "b1", "c1", "d1"], &[], true);
    assert_eq!(eval.evaluate(&closed_four_to_move), FOUR_TO_MOVE);
    // Open three: worth more to the side that owns it when it is on move.
    let three_white = position(Rule::Freestyle, &["d6", "e6", "f6"], &[], false);
    let three_black = position(Rule::Freestyle, &["d6", "e6", "f6"], &[], true);
    assert!(eval.evaluate(&three_black) > -eval.evaluate(&three_white));
    assert!(eval.evaluate(&three_white) < 0);
    // Symmetric positions are worth the tempo to whoever is to move, and the point table
    // of both sides' points: each side's points count once as the mover's, once as the
    // waiting side's, and the table values the two roles differently.
    let tempo = PatternTable::DEFAULT.tempo();
    let mut a = game(15, 5, Rule::Freestyle);
    a.play_line("h8 h9").unwrap();
    let without_table = GomokuEval::Weighted(
        PatternWeights {
            point_table: 0.0,
            ..PatternWeights::default()
        }
        .table(),
    );
    assert!((without_table.evaluate(&a) - tempo).abs() < 10);
    let [black, white] = a.point_table_sums();
    let percent = PatternWeights::default().point_table as i32;
    let table = (black[0] + white[1]) * percent / 100;
    assert_ne!(table, 0, "the table sees the two stones' points");
    assert_eq!(eval.evaluate(&a), without_table.evaluate(&a) + table);
    assert_eq!(eval.evaluate(&game(15, 5, Rule::Freestyle)), tempo);
}

// ---------------------------------------------------------------------------------------
// Candidates

#[test]
fn candidates_on_the_empty_board_are_the_centre() {
    let g = game(15, 5, Rule::Freestyle);
    let mut out = Vec::new();
    g.candidate_moves(&mut out, 12);
    assert_eq!(out, vec![g.centre()]);
    g.candidate_moves(&mut out, 0);
    assert_eq!(out.len(), 225, "limit 0 = every legal move");
}

#[test]
fn candidates_are_near_stones_and_ranked() {
    let mut g = game(15, 5, Rule::Freestyle);
    g.play_line("h8 h9 i8").unwrap();
    let mut out = Vec::new();
    g.candidate_moves(&mut out, 300);
    // Within distance 2 of h8, h9 or i8: rows 6..10 by columns f..k (30 cells) and row 11
    // by columns f..j (5), minus the three stones.
    assert_eq!(out.len(), 30 + 5 - 3, "{out:?}");
    for &c in &out {
        let (r, col) = g.row_col(c);
        assert!(g.at(c).is_none());
        assert!((5..=10).contains(&r) && (5..=10).contains(&col));
    }
    assert_eq!(
        g.shapes_if_played(cell(&g, "j8"), Player::First),
        [Shape::OpenThree, Shape::None, Shape::None, Shape::None]
    );
    assert_eq!(
        g.shapes_if_played(cell(&g, "h8"), Player::First),
        [Shape::None; 4]
    );
    assert_eq!(g.shapes_if_played(999, Player::First), [Shape::None; 4]);
    let mut top = Vec::new();
    g.candidate_moves(&mut top, 5);
    assert_eq!(top, out[..5]);
    // White (to move) should block Black's two on the row or build; g8/j8 rank high.
    assert!(
        top.contains(&cell(&g, "g8")) || top.contains(&cell(&g, "j8")),
        "{top:?}"
    );
}

#[test]
fn equal_candidates_rank_by_nearness() {
    // After h8 every point within two of it along a line makes Black a two of the same
    // value: the replies next to h8 must come before those two away (cell order once put f6
    // first).
    let mut g = game(15, 5, Rule::Freestyle);
    g.play_line("h8").unwrap();
    let mut out = Vec::new();
    g.candidate_moves(&mut out, 8);
    let distance = |g: &Gomoku, c: Cell, to: &str| {
        let ((r, col), (tr, tc)) = (g.row_col(c), g.row_col(cell(g, to)));
        r.abs_diff(tr).max(col.abs_diff(tc))
    };
    assert_eq!(out.len(), 8);
    for &c in &out {
        assert_eq!(distance(&g, c, "h8"), 1, "{}", g.format_move(c));
    }
}

#[test]
fn candidates_keep_the_winning_move_and_the_forced_block() {
    // Black to move with a closed four (a1..d1): the win e1 is the candidate.
    let win = position(Rule::Freestyle, &["a1", "b1", "c1", "d1"], &[], true);
    let mut out = Vec::new();
    for limit in [1, 3, 12] {
        win.candidate_moves(&mut out, limit);
        assert_eq!(out, vec![cell(&win, "e1")], "limit {limit}");
    }
    // White to move against the same four: the block e1, whatever else White has.
    let block = position(
        Rule::Freestyle,
        &["a1", "b1", "c1", "d1"],
        &["h8", "h9", "h10"],
        false,
    );
    block.candidate_moves(&mut out, 12);
    assert_eq!(out, vec![cell(&block, "e1")]);
    // An open four: both ends are "blocks" (White is lost either way).
    let lost = position(Rule::Freestyle, &["d6", "e6", "f6", "g6"], &[], false);
    lost.candidate_moves(&mut out, 12);
    out.sort_unstable();
    assert_eq!(out, vec![cell(&lost, "c6"), cell(&lost, "h6")]);
    // With a win and a threat against it, the win comes first.
    let both = position(
        Rule::Freestyle,
        &["a1", "b1", "c1", "d1", "l8"],
        &["h8", "h9", "h10", "h11"],
        true,
    );
    both.candidate_moves(&mut out, 12);
    assert_eq!(out, vec![cell(&both, "e1")]);
}

#[test]
fn search_takes_the_win_and_blocks_the_four() {
    let s = settings(Algorithm::AlphaBeta, 3, true, 12);
    let win = position(Rule::Freestyle, &["a1", "b1", "c1", "d1"], &[], true);
    let r = search_with(&win, &GomokuEval::Patterns, &s);
    assert_eq!(r.best, Some(cell(&win, "e1")));
    assert_eq!(r.value, score::WIN - 1);
    let block = position(Rule::Freestyle, &["b1", "c1", "d1", "e1"], &["a1"], false);
    let r = search_with(&block, &GomokuEval::Patterns, &s);
    assert_eq!(r.best, Some(cell(&block, "f1")));
}

#[test]
fn search_stops_an_open_three() {
    // White's d6 e6 f6 is open; Black (to move, nothing of its own) must take c6 or g6: after
    // any other move White makes an open four, which depth 4 sees through to the five.
    let g = position(
        Rule::Freestyle,
        &["a15", "f15", "k15"],
        &["d6", "e6", "f6"],
        true,
    );
    let r = search_with(
        &g,
        &GomokuEval::Patterns,
        &settings(Algorithm::AlphaBeta, 4, true, 12),
    );
    let best = g.format_move(r.best.unwrap());
    assert!(best == "c6" || best == "g6", "{best}");
    assert!(!score::is_decisive(r.value));
}

// ---------------------------------------------------------------------------------------
// Perft and exact values

#[test]
fn perft_3x3_connect_3_equals_tictactoe() {
    // reference/tictactoe.md: lines of exactly n moves, finished games dropping out.
    let expected = [
        1, 9, 72, 504, 3_024, 15_120, 54_720, 148_176, 200_448, 127_872,
    ];
    for (depth, &n) in expected.iter().enumerate() {
        let mut g = game(3, 3, Rule::Freestyle);
        assert_eq!(perft(&mut g, depth as u32), n, "depth {depth}");
    }
}

#[test]
fn perft_golden_numbers() {
    // 15x15: no five is possible within three moves, so depth d is 225 * 224 * ... (d terms).
    let mut g = game(15, 5, Rule::Freestyle);
    assert_eq!(perft(&mut g, 1), 225);
    assert_eq!(perft(&mut g, 2), 225 * 224);
    assert_eq!(perft(&mut g, 3), 11_239_200);
    // 4x4 connect 3: 16, 16*15, 16*15*14, 16*15*14*13, *12 (no win before Black's third
    // stone, on move 5, and lines won on their last move still count). Depth 6: the 5-move
    // lines won by Black are 24 segments of three x 3! orders x 13*12 White choices =
    // 22,464, so (524,160 - 22,464) * 11 = 5,518,656.
    let expected: [u64; 7] = [1, 16, 240, 3_360, 43_680, 524_160, 5_518_656];
    for (depth, &n) in expected.iter().enumerate() {
        let mut g = game(4, 3, Rule::Freestyle);
        assert_eq!(perft(&mut g, depth as u32), n, "4x4x3 depth {depth}");
    }
    // 3x3 connect 2: Black wins on move 3 with two adjacent stones (20 of the 36 pairs), so
    // depth 4 is 16 pairs x 2 orders x 7 White cells x 6 = 1,344.
    let expected: [u64; 7] = [1, 9, 72, 504, 1_344, 2_720, 1_920];
    for (depth, &n) in expected.iter().enumerate() {
        let mut g = game(3, 2, Rule::Freestyle);
        assert_eq!(perft(&mut g, depth as u32), n, "3x3x2 depth {depth}");
    }
    let divided = divide(&mut game(4, 3, Rule::Freestyle), 3);
    assert_eq!(divided.len(), 16);
    assert!(divided.iter().all(|&(_, n)| n == 15 * 14));
}

// Exact values of small k-in-a-row boards: tests/reference.rs solves the entries of
// tests/data/reference/kinarow.md that the Gomoku code can play.

/// The value from the first player's point of view by full-depth alpha-beta over every legal
/// move (no candidate pruning), with the node count (for the speed report).
fn solve(size: usize, connect: usize) -> (i32, u64) {
    let g = game(size, connect, Rule::Freestyle);
    let s = settings(Algorithm::AlphaBeta, (size * size) as u32, true, 0);
    let r = search_with(&g, &GomokuEval::Patterns, &s);
    (
        score::game_value::<Gomoku>(r.value) * g.to_move().sign(),
        r.stats.nodes,
    )
}

// ---------------------------------------------------------------------------------------
// Properties on random playouts

/// A position reached by `moves` random legal moves from a random small board.
fn random_game(size: usize, connect: usize, standard: bool, seed: u64, moves: usize) -> Gomoku {
    let rule = if standard {
        Rule::Standard
    } else {
        Rule::Freestyle
    };
    random_position(game(size, connect, rule), moves, seed)
}

fn board_strategy() -> impl Strategy<Value = (usize, usize, bool)> {
    (3usize..=6).prop_flat_map(|size| (Just(size), 2usize..=size.min(5), any::<bool>()))
}

/// A cell of a line in the naive shape oracle.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Point {
    Own,
    Empty,
    Blocked,
}

/// The shape through `pos` by the definitions in `shape::Shape`, on a plain array, trying
/// every empty cell of the line: an oracle independent of the bit masks, the neighbourhood
/// radius and the memo.
fn naive_shape(line: &mut [Point], pos: usize, k: usize, exact: bool) -> Shape {
    fn run(line: &[Point], pos: usize) -> usize {
        let up = line[pos + 1..]
            .iter()
            .take_while(|&&p| p == Point::Own)
            .count();
        let down = line[..pos]
            .iter()
            .rev()
            .take_while(|&&p| p == Point::Own)
            .count();
        up + down + 1
    }
    fn five(line: &[Point], pos: usize, k: usize, exact: bool) -> bool {
        let n = run(line, pos);
        if exact { n == k } else { n >= k }
    }
    /// `shape` of `line` with each empty cell filled in turn.
    fn each_empty(line: &mut [Point], mut shape: impl FnMut(&mut [Point]) -> Shape) -> Vec<Shape> {
        let mut shapes = Vec::new();
        for e in 0..line.len() {
            if line[e] == Point::Empty {
                line[e] = Point::Own;
                shapes.push(shape(line));
                line[e] = Point::Empty;
            }
        }
        shapes
    }
    fn four(line: &mut [Point], pos: usize, k: usize, exact: bool) -> Shape {
        if five(line, pos, k, exact) {
            return Shape::Five;
        }
        if exact && run(line, pos) > k {
            return Shape::None;
        }
        let completions = each_empty(line, |l| {
            if five(l, pos, k, exact) {
                Shape::Five
            } else {
                Shape::None
            }
        });
        match completions.iter().filter(|&&s| s == Shape::Five).count() {
            0 => Shape::None,
            1 => Shape::ClosedFour,
            _ => Shape::OpenFour,
        }
    }
    fn three(line: &mut [Point], pos: usize, k: usize, exact: bool) -> Shape {
        let shape = four(line, pos, k, exact);
        if shape != Shape::None {
            return shape;
        }
        let next = each_empty(line, |l| four(l, pos, k, exact));
        if next.contains(&Shape::OpenFour) {
            Shape::OpenThree
        } else if next.contains(&Shape::ClosedFour) {
            Shape::ClosedThree
        } else {
            Shape::None
        }
    }
    let shape = three(line, pos, k, exact);
    if shape != Shape::None {
        return shape;
    }
    let next = each_empty(line, |l| three(l, pos, k, exact));
    if next.contains(&Shape::OpenThree) {
        Shape::OpenTwo
    } else if next.contains(&Shape::ClosedThree) {
        Shape::ClosedTwo
    } else {
        Shape::None
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn shapes_match_a_naive_oracle(
        cells in proptest::collection::vec(0u8..3, 1..=19),
        k in 2usize..=7,
        exact in any::<bool>(),
        pick in any::<usize>(),
    ) {
        let mut line: Vec<Point> = cells
            .iter()
            .map(|&c| [Point::Own, Point::Empty, Point::Blocked][usize::from(c)])
            .collect();
        let pos = pick % line.len();
        line[pos] = Point::Own;
        let table = ShapeTable::new(k, exact);
        let bits = |p: Point| {
            line.iter().enumerate().filter(|&(_, &c)| c == p).fold(0u32, |m, (i, _)| m | 1 << i)
        };
        let (own, blocked) = table.pad(bits(Point::Own), bits(Point::Blocked), line.len() as u32);
        let fast = table.shape_at(own, blocked, pos as u32);
        let expected = naive_shape(&mut line, pos, k, exact);
        prop_assert_eq!(fast, expected, "{:?} at {} k {} exact {}", line, pos, k, exact);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_playouts_keep_the_contract(
        (size, connect, standard) in board_strategy(),
        seed in any::<u64>(),
    ) {
        let rule = if standard { Rule::Standard } else { Rule::Freestyle };
        let mut g = game(size, connect, rule);
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut legal = Vec::new();
        let mut candidates = Vec::new();
        loop {
            g.legal_moves(&mut legal);
            prop_assert_eq!(g.outcome().is_some(), legal.is_empty());
            prop_assert_eq!(g.hash(), g.hash_from_scratch());
            // Conservation: stones on the board, Black never behind, never two ahead.
            let n = g.size();
            let black = (0..n * n).filter(|&c| g.at(c as Cell) == Some(Player::First)).count();
            let white = (0..n * n).filter(|&c| g.at(c as Cell) == Some(Player::Second)).count();
            prop_assert_eq!(black + white, g.stones_played());
            prop_assert_eq!(black - white, usize::from(g.to_move() == Player::Second));
            prop_assert_eq!(legal.len(), if g.outcome().is_some() { 0 } else { n * n - black - white });
            // Every legal move plays, flips the side, and undoes exactly.
            for &mv in &legal {
                let before = g.clone();
                let mover = g.to_move();
                let wins = naive_wins(&g, mv, mover);
                let undo = g.play(mv);
                prop_assert_eq!(g.to_move(), mover.other());
                prop_assert_eq!(g.hash(), g.hash_from_scratch());
                prop_assert_eq!(g.winner() == Some(mover), wins, "{:?} then {}", before, before.format_move(mv));
                if wins {
                    let line = g.winning_line().unwrap();
                    prop_assert!(line.contains(&mv) && line.len() >= connect);
                }
                g.undo(mv, undo);
                prop_assert_eq!(&g, &before);
            }
            // Occupied and off-board cells are refused, the position untouched.
            let before = g.clone();
            for c in 0..(n * n + 3) as Cell {
                if !legal.contains(&c) {
                    prop_assert!(g.try_play(c).is_err());
                    prop_assert_eq!(&g, &before);
                }
            }
            // Candidates: legal, distinct, within the limit, never empty while the game
            // goes on; the immediate win, else every forced block, is among them.
            for limit in [1, 3, 12] {
                g.candidate_moves(&mut candidates, limit);
                prop_assert!(candidates.len() <= limit);
                prop_assert_eq!(candidates.is_empty(), legal.is_empty());
                let mut distinct = candidates.clone();
                distinct.sort_unstable();
                distinct.dedup();
                prop_assert_eq!(distinct.len(), candidates.len());
                prop_assert!(candidates.iter().all(|c| legal.contains(c)));
                let mover = g.to_move();
                let wins: Vec<Cell> = legal.iter().copied().filter(|&c| naive_wins(&g, c, mover)).collect();
                let blocks: Vec<Cell> = legal.iter().copied().filter(|&c| naive_wins(&g, c, mover.other())).collect();
                if !wins.is_empty() {
                    prop_assert!(candidates.iter().all(|c| wins.contains(c)), "{:?}", g);
                } else if !blocks.is_empty() {
                    prop_assert!(candidates.iter().all(|c| blocks.contains(c)), "{:?}", g);
                    prop_assert_eq!(candidates.len(), blocks.len().min(limit));
                }
            }
            if legal.is_empty() {
                break;
            }
            g.play(legal[rng.random_range(0..legal.len())]);
        }
    }

    #[test]
    fn alphabeta_agrees_with_minimax(
        (size, connect, standard) in board_strategy(),
        seed in any::<u64>(),
        played in 0usize..36,
        depth in 1u32..=4,
        candidates in prop_oneof![Just(0usize), Just(3), Just(6)],
        hash_eval in any::<bool>(),
    ) {
        let g = random_game(size, connect, standard, seed, played);
        let empty = size * size - g.stones_played();
        let width = if candidates == 0 { empty } else { candidates.min(empty) };
        // Keep plain minimax affordable.
        prop_assume!(width.pow(depth) <= 100_000);
        let check = |eval: &dyn Fn(&EngineSettings) -> SearchResult<Cell>| -> Result<(), TestCaseError> {
            let reference = eval(&settings(Algorithm::Minimax, depth, false, candidates));
            for ordering in [false, true] {
                let r = eval(&settings(Algorithm::AlphaBeta, depth, ordering, candidates));
                prop_assert_eq!(r.value, reference.value, "ordering {}: {:?}", ordering, g);
                prop_assert_eq!(r.best.is_some(), reference.best.is_some());
                if let Some(best) = r.best {
                    prop_assert!(reference.ties.contains(&best), "{:?} not among {:?}", best, reference.ties);
                }
                prop_assert!(r.stats.nodes <= reference.stats.nodes);
            }
            Ok(())
        };
        if hash_eval {
            check(&|s| search_with(&g, &NoiseEval, s))?;
        } else {
            check(&|s| search_with(&g, &GomokuEval::Patterns, s))?;
        }
    }
}

// ---------------------------------------------------------------------------------------
// Speed report (not a test of speed: run with --ignored --nocapture to print numbers)

#[test]
#[ignore = "prints speed numbers; run with --release -- --ignored --nocapture"]
fn report_speed() {
    use std::time::Instant;
    for (size, connect, depth) in [(15, 5, 3), (15, 5, 4), (4, 3, 7)] {
        let started = Instant::now();
        let leaves = perft(&mut game(size, connect, Rule::Freestyle), depth);
        let elapsed = started.elapsed();
        println!(
            "perft {size}x{size}x{connect} depth {depth}: {leaves} in {elapsed:?} \
             ({:.1} M leaves/s)",
            leaves as f64 / elapsed.as_secs_f64() / 1e6
        );
    }
    // A quiet middle-game position: 20 moves of engine self-play (depth 4, 8 candidates).
    let mut middle = game(15, 5, Rule::Freestyle);
    middle
        .play_line("h8 g7 h6 h5 i7 g5 j6 g9 g6 i6 j7 f5 i5 k7 j8 j9 k9 l10 j4 j5")
        .unwrap();
    println!("{middle}");
    // Each search repeated; the fastest run is reported (the machine is shared).
    for (depth, repeats) in [(3, 50), (4, 50), (5, 20), (6, 10), (7, 5), (8, 3)] {
        let runs: Vec<SearchResult<Cell>> = (0..repeats)
            .map(|_| {
                search_with(
                    &middle,
                    &GomokuEval::Patterns,
                    &settings(Algorithm::AlphaBeta, depth, true, 12),
                )
            })
            .collect();
        let r = &runs[0];
        let secs = runs
            .iter()
            .map(|r| r.stats.elapsed.as_secs_f64())
            .fold(f64::INFINITY, f64::min);
        println!(
            "alpha-beta depth {depth}, 12 candidates: best {} value {}, {} nodes + {} \
             ordering evaluations in {:.2} ms: {:.0} nodes/s",
            middle.format_move(r.best.unwrap()),
            score::format::<Gomoku>(r.value),
            r.stats.nodes,
            r.stats.order_evals,
            secs * 1e3,
            r.stats.nodes as f64 / secs
        );
    }
    for (size, connect) in [(3, 3), (3, 2), (4, 3), (4, 4), (5, 3)] {
        let started = Instant::now();
        let (value, nodes) = solve(size, connect);
        println!(
            "solve {size},{size},{connect}: value {value:+}, {nodes} nodes, {:?}",
            started.elapsed()
        );
    }
}

// The evaluation's named values read as words wherever a score is shown (log, engine pane,
// tree windows), with the distance of an aspiration edge; ordinary pattern scores stay
// numbers.
#[test]
fn named_evaluation_values_read_as_words() {
    let four = FOUR_TO_MOVE;
    let open_four = FACING_OPEN_FOUR;
    assert_eq!(score::format::<Gomoku>(four), "five next move");
    assert_eq!(score::format::<Gomoku>(four - 50), "five next move -50");
    assert_eq!(score::format::<Gomoku>(-four), "opponent's five next");
    assert_eq!(score::format::<Gomoku>(open_four), "facing an open four");
    assert_eq!(
        score::format::<Gomoku>(-open_four + 50),
        "opponent faces an open four +50"
    );
    assert_eq!(score::format::<Gomoku>(1234), "+1234");
    assert_eq!(score::format::<Gomoku>(-90), "-90");
    // A decided score is still counted in moves.
    assert!(score::format::<Gomoku>(score::WIN - 3).starts_with("win in"));
    // The evaluator really produces the named value: Black to move with four in a row.
    let mut game = Gomoku::new(15, 5, Rule::Freestyle);
    for mv in ["h8", "a1", "i8", "a2", "j8", "a4", "k8", "a6"] {
        game.play(game.parse_move(mv).unwrap());
    }
    let value = GomokuEval::Patterns.evaluate(&game);
    assert_eq!(score::format::<Gomoku>(value), "five next move");
}
