//! Exact values from `tests/data/reference/` (copies of `../shared/reference/`): every small
//! instance listed there, read from the files and reproduced by the engine. Kalah with both
//! capture rules, Dots and Boxes, k-in-a-row boards through the Gomoku code, and the
//! Tic-tac-toe game tree (perft per ply, finished games by result and length, distinct
//! positions). What cannot be solved here is listed by name, so a new entry in a file is
//! never skipped silently.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashSet;
use std::path::Path;

use gametree::engine::api::{Algorithm, EngineSettings, SearchResult};
use gametree::engine::perft::perft;
use gametree::engine::score;
use gametree::engine::{Evaluator, Game, Outcome, Player};
use gametree::games::dots::{Dots, DotsEval};
use gametree::games::gomoku::{Gomoku, GomokuEval, Rule};
use gametree::games::kalah::{Kalah, StoreEval};
use gametree::games::tictactoe::{Cell, LinesEval, TicTacToe};

mod common;
use common::{fixed_depth, search_with};

fn reference(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/reference")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The cells of the table rows (`| a | b |`) in `text`, header and separator rows included.
fn table_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(str::trim)
        .filter(|l| l.starts_with('|') && l.ends_with('|') && l.len() > 1)
        .map(|l| {
            l[1..l.len() - 1]
                .split('|')
                .map(|c| c.trim().trim_matches('*').to_string())
                .collect()
        })
        .collect()
}

/// A signed whole number at the start of `cell` (`+6`, `-2`, `0 (checked)`), if any.
fn leading_value(cell: &str) -> Option<i32> {
    let token = cell.split_whitespace().next()?;
    token.trim_start_matches('+').parse().ok()
}

/// Every number written with optional thousands commas in `line`, in order.
fn numbers(line: &str) -> Vec<u64> {
    line.split(|c: char| !(c.is_ascii_digit() || c == ','))
        .map(|t| t.trim_matches(','))
        .filter(|t| !t.is_empty())
        .map(|t| t.replace(',', "").parse().unwrap())
        .collect()
}

/// Full-depth alpha-beta with ordering over every legal move; the full engine's solver (table,
/// the game's solver rules, null-window tests) must find the same value.
fn solve<G: Game, E: Evaluator<G>>(game: &G, eval: &E, depth: u32) -> SearchResult<G::Move> {
    let result = search_with(
        game,
        eval,
        &fixed_depth(Algorithm::AlphaBeta, depth, true, false),
    );
    assert!(result.completed);
    assert_eq!(
        result.stats.leaf_evals, 0,
        "the search reached the end of every line"
    );
    let solver = EngineSettings {
        solve: true,
        tt_mb: 16,
        threads: 1,
        limits: gametree::engine::limits::Limits::default(),
        ..fixed_depth(Algorithm::Full, 0, true, false)
    };
    let full = search_with(game, eval, &solver);
    assert!(full.completed);
    assert_eq!(
        score::game_value::<G>(full.value),
        score::game_value::<G>(result.value),
        "the full engine's solve of\n{game}"
    );
    result
}

/// The game value for the first player: margin, or +1/0/-1.
fn first_player_value<G: Game>(game: &G, result: &SearchResult<G::Move>) -> i32 {
    score::game_value::<G>(result.value) * game.to_move().sign()
}

// ---------------------------------------------------------------------------------------
// Kalah

/// `(pits, stones, value)` for every filled cell of the table under `heading`.
fn kalah_table(text: &str, heading: &str) -> Vec<(usize, u16, i32)> {
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("no `{heading}` in kalah.md"));
    let section = &text[start..];
    let section = section[heading.len()..]
        .find("\n## ")
        .map_or(section, |end| &section[..heading.len() + end]);
    let rows = table_rows(section);
    let header = &rows[0];
    assert!(header[0].starts_with('m'), "{header:?}");
    let stones: Vec<u16> = header[1..].iter().map(|c| c.parse().unwrap()).collect();
    let mut entries = Vec::new();
    for row in &rows[1..] {
        let Ok(pits) = row[0].parse::<usize>() else {
            continue; // the |---| separator
        };
        for (cell, &n) in row[1..].iter().zip(&stones) {
            if let Some(value) = leading_value(cell) {
                entries.push((pits, n, value));
            }
        }
    }
    entries
}

fn check_kalah(heading: &str, empty_capture: bool) {
    let entries = kalah_table(&reference("kalah.md"), heading);
    assert_eq!(
        entries.len(),
        21,
        "m = 1..=3 with n = 1..=6, and m = 4 with n = 1..=3"
    );
    let mut wrong = Vec::new();
    for &(pits, stones, value) in &entries {
        let game = Kalah::new(pits, stones).with_empty_capture(empty_capture);
        // No game lasts 400 moves at this size; `solve` checks no line was cut short.
        let solved = first_player_value(&game, &solve(&game, &StoreEval, 400));
        if solved != value {
            wrong.push(format!(
                "Kalah({pits},{stones}): {solved}, expected {value}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{heading}: {wrong:?}");
}

#[test]
fn kalah_with_empty_capture() {
    check_kalah("## Empty capture", true);
}

#[test]
fn kalah_with_standard_capture() {
    check_kalah("## Standard capture", false);
}

#[test]
fn kalah_the_capture_rule_changes_the_value() {
    // kalah.md's own example: Kalah(4,3) is +8 with empty capture and +6 without.
    let text = reference("kalah.md");
    let empty = kalah_table(&text, "## Empty capture");
    let standard = kalah_table(&text, "## Standard capture");
    let at = |t: &[(usize, u16, i32)]| t.iter().find(|e| e.0 == 4 && e.1 == 3).unwrap().2;
    assert_eq!((at(&empty), at(&standard)), (8, 6));
    let differ: Vec<_> = empty
        .iter()
        .zip(&standard)
        .filter(|(a, b)| a.2 != b.2)
        .map(|(a, _)| (a.0, a.1))
        .collect();
    assert_eq!(differ, [(2, 4), (3, 6), (4, 3)]);
}

// ---------------------------------------------------------------------------------------
// Dots and Boxes

#[test]
fn dots_and_boxes() {
    let rows = table_rows(&reference("dots.md"));
    let mut checked = 0;
    for row in &rows {
        let Some((r, c)) = row[0].split_once('x') else {
            continue;
        };
        let (Ok(r), Ok(c)) = (r.parse::<usize>(), c.parse::<usize>()) else {
            continue;
        };
        let value = leading_value(&row[1]).unwrap();
        let game = Dots::new(r, c);
        let result = solve(&game, &DotsEval::Chains, game.edge_count() as u32);
        assert_eq!(first_player_value(&game, &result), value, "{r}x{c} boxes");
        checked += 1;
    }
    assert_eq!(checked, 5, "1x1, 1x2, 1x3, 1x4 and 2x2");
}

// ---------------------------------------------------------------------------------------
// k-in-a-row through the Gomoku code

/// Boards of the table that the Gomoku code cannot play: it has square boards only.
const NOT_SQUARE: [&str; 2] = ["4,3,3", "3,4,3"];

#[test]
fn k_in_a_row_through_gomoku() {
    let rows = table_rows(&reference("kinarow.md"));
    let mut solved = Vec::new();
    let mut left_out = Vec::new();
    for row in &rows {
        let Some(value) = leading_value(&row[1]) else {
            continue;
        };
        for game in row[0].split(" and ") {
            let name = game.split_whitespace().next().unwrap_or("");
            let dims: Vec<usize> = name.split(',').filter_map(|d| d.parse().ok()).collect();
            let [m, n, k] = dims[..] else {
                continue; // a general row such as "m,n,3 with m >= 4, n >= 3"
            };
            if m != n {
                left_out.push(name.to_string());
                continue;
            }
            if m > 4 {
                // 15,15,5 (Allis 1994) is far beyond plain alpha-beta.
                left_out.push(name.to_string());
                continue;
            }
            let g = Gomoku::new(m, k, Rule::Freestyle);
            let result = solve(&g, &GomokuEval::Patterns, (m * n) as u32);
            assert_eq!(first_player_value(&g, &result), value, "{name}");
            solved.push(name.to_string());
        }
    }
    assert_eq!(solved, ["3,3,3", "3,3,2", "4,4,3", "4,4,4"]);
    assert_eq!(left_out, [NOT_SQUARE[0], NOT_SQUARE[1], "15,15,5"]);
}

#[test]
fn tictactoe_and_3_3_3_gomoku_agree_move_for_move() {
    // The same game through two rule sets: equal perft counts at every depth.
    for depth in 0..=9 {
        let mut g = Gomoku::new(3, 3, Rule::Freestyle);
        assert_eq!(perft(&mut g, depth), perft(&mut TicTacToe::new(), depth));
    }
}

// ---------------------------------------------------------------------------------------
// Tic-tac-toe

/// Every finished game by result and length, and every distinct position reached.
#[derive(Default)]
struct Census {
    wins: [u64; 2],
    draws: u64,
    by_length: [u64; 10],
    positions: HashSet<[Option<Player>; 9]>,
    terminal: HashSet<[Option<Player>; 9]>,
}

fn board(g: &TicTacToe) -> [Option<Player>; 9] {
    std::array::from_fn(|c| g.at(c as Cell))
}

fn census(g: &mut TicTacToe, ply: usize, c: &mut Census) {
    c.positions.insert(board(g));
    if let Some(outcome) = g.outcome() {
        c.terminal.insert(board(g));
        match outcome {
            Outcome::Win { winner, .. } => c.wins[winner.index()] += 1,
            Outcome::Draw => c.draws += 1,
        }
        c.by_length[ply] += 1;
        return;
    }
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    for mv in moves {
        g.play(mv);
        census(g, ply + 1, c);
        g.undo(mv, ());
    }
}

/// The board under the 8 rotations and reflections, smallest first.
fn canonical(b: &[Option<Player>; 9]) -> [Option<Player>; 9] {
    type Map = fn(usize, usize) -> (usize, usize);
    let maps: [Map; 8] = [
        |r, c| (r, c),
        |r, c| (c, 2 - r),
        |r, c| (2 - r, 2 - c),
        |r, c| (2 - c, r),
        |r, c| (r, 2 - c),
        |r, c| (2 - r, c),
        |r, c| (c, r),
        |r, c| (2 - c, 2 - r),
    ];
    maps.iter()
        .map(|f| {
            let mut t = [None; 9];
            for (i, &cell) in b.iter().enumerate() {
                let (r, c) = f(i / 3, i % 3);
                t[r * 3 + c] = cell;
            }
            t
        })
        .min_by_key(|t| t.map(|p| p.map_or(0, |p| p.index() + 1)))
        .unwrap()
}

#[test]
fn tictactoe_game_tree() {
    let text = reference("tictactoe.md");
    // The ply table: ply, nodes at that ply; then the total.
    let mut per_ply = Vec::new();
    let mut total = None;
    for row in table_rows(&text) {
        if let Ok(ply) = row[0].parse::<u32>() {
            per_ply.push((ply, numbers(&row[1])[0]));
        } else if row[0] == "total" {
            total = Some(numbers(&row[1])[0]);
        }
    }
    assert_eq!(per_ply.len(), 10);
    let total = total.unwrap();
    for &(ply, nodes) in &per_ply {
        assert_eq!(perft(&mut TicTacToe::new(), ply), nodes, "ply {ply}");
    }
    assert_eq!(per_ply.iter().map(|p| p.1).sum::<u64>(), total);

    // Plain minimax visits the whole tree, root included, and finds the draw.
    let r = search_with(
        &TicTacToe::new(),
        &LinesEval,
        &fixed_depth(Algorithm::Minimax, 9, true, false),
    );
    assert_eq!(r.stats.nodes, total);
    let value_line = text
        .lines()
        .find(|l| l.starts_with("Value of the empty board"))
        .unwrap();
    assert!(value_line.contains("draw (0)"), "{value_line}");
    assert_eq!(score::game_value::<TicTacToe>(r.value), 0);

    let line = |start: &str| {
        let l = text.lines().find(|l| l.contains(start)).unwrap();
        numbers(l.split_once(':').unwrap().1)
    };
    let mut c = Census::default();
    census(&mut TicTacToe::new(), 0, &mut c);
    // "Finished games (leaves): 255,168 — won by the first player 131,184, by the second
    // 77,904, drawn 46,080."
    let finished = line("Finished games");
    assert_eq!(
        finished,
        [
            c.wins[0] + c.wins[1] + c.draws,
            c.wins[0],
            c.wins[1],
            c.draws
        ]
    );
    assert_eq!(
        r.stats.terminals, finished[0],
        "minimax reached every finished game"
    );
    // "Games by length 5/6/7/8/9 plies: 1,440 / 5,328 / ..."
    let lengths = line("Games by length");
    assert_eq!(lengths, c.by_length[5..]);
    assert!(c.by_length[..5].iter().all(|&n| n == 0));
    // "Distinct reachable positions (empty board included): 5,478, of which 4,520
    // non-terminal and 958 terminal; 765 up to rotation and reflection."
    let distinct = line("Distinct reachable positions");
    let up_to_symmetry: HashSet<_> = c.positions.iter().map(canonical).collect();
    assert_eq!(
        distinct,
        [
            c.positions.len() as u64,
            (c.positions.len() - c.terminal.len()) as u64,
            c.terminal.len() as u64,
            up_to_symmetry.len() as u64
        ]
    );
}

// ---------------------------------------------------------------------------------------

#[test]
fn the_copies_match_the_shared_reference_when_it_is_there() {
    // ../shared/reference/ sits beside the crate in the project's checkout; where it does
    // not (a clone of the crate alone), the copies stand on their own.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = root.join("../shared/reference");
    if !shared.is_dir() {
        return;
    }
    for name in [
        "README.md",
        "kalah.md",
        "dots.md",
        "kinarow.md",
        "tictactoe.md",
    ] {
        let original = std::fs::read_to_string(shared.join(name)).unwrap();
        assert_eq!(
            reference(name),
            original,
            "tests/data/reference/{name} differs from ../shared/reference/{name}: copy it again"
        );
    }
}
