//! The full engine against plain minimax: on random positions of every game (extra-turn
//! positions included), every combination of its switches (table, static ordering, PVS,
//! aspiration, killers and history; one and two threads) returns minimax's root value at a
//! fixed depth, also with a table kept from earlier searches. Plus exact solves, random
//! ties, time limits and stop requests.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use gametree::engine::api::{Algorithm, EngineSettings, SearchResult, search};
use gametree::engine::full;
use gametree::engine::limits::StopFlag;
use gametree::engine::score;
use gametree::engine::tree::NoopObserver;
use gametree::engine::tt::TranspositionTable;
use gametree::engine::{Evaluator, Game};
use gametree::games::dots::{Dots, DotsOptions};
use gametree::games::gomoku::{Gomoku, GomokuOptions};
use gametree::games::kalah::{Kalah, KalahOptions};
use gametree::games::tictactoe::TicTacToe;
use gametree::games::{GameOptions, Playable};
use proptest::prelude::*;

mod common;
use common::{NoiseEval, dots, extra_turn_within, kalah, random_position};
use rand::SeedableRng;
use rand::rngs::SmallRng;

fn settings(algorithm: Algorithm, depth: u32) -> EngineSettings {
    EngineSettings {
        random_ties: false,
        tt_mb: 1,
        threads: 1,
        ..EngineSettings::to_depth(algorithm, depth)
    }
}

fn run<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    settings: &EngineSettings,
    table: Option<&TranspositionTable>,
) -> SearchResult<G::Move> {
    let mut rng = SmallRng::seed_from_u64(3);
    full_or_search(game, eval, settings, &mut rng, table)
}

fn full_or_search<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    settings: &EngineSettings,
    rng: &mut SmallRng,
    table: Option<&TranspositionTable>,
) -> SearchResult<G::Move> {
    if settings.algorithm == Algorithm::Full {
        full::search(
            game,
            eval,
            settings,
            rng,
            &mut NoopObserver,
            &StopFlag::new(),
            &mut |_| {},
            table,
        )
    } else {
        search(
            game,
            eval,
            settings,
            rng,
            &mut NoopObserver,
            &StopFlag::new(),
            &mut |_| {},
        )
    }
}

/// Every switch combination of the full engine, named for failure messages.
fn combinations(depth: u32) -> Vec<(String, EngineSettings)> {
    let mut all = Vec::new();
    for bits in 0..32u32 {
        for threads in [1, 2] {
            let mut s = settings(Algorithm::Full, depth);
            s.tt = bits & 1 != 0;
            s.ordering = bits & 2 != 0;
            s.pvs = bits & 4 != 0;
            s.aspiration = bits & 8 != 0;
            s.killers = bits & 16 != 0;
            s.history = bits & 16 != 0;
            s.threads = threads;
            let name = format!(
                "tt {} ordering {} pvs {} aspiration {} killers+history {} threads {threads}",
                s.tt, s.ordering, s.pvs, s.aspiration, s.killers
            );
            all.push((name, s));
        }
    }
    all
}

/// The full engine in every combination equals plain minimax at `depth`; with a table kept
/// across all of them too (entries of other depths and searches must not leak in).
fn check<G: Game, E: Evaluator<G>>(game: &G, eval: &E, depth: u32) -> Result<(), TestCaseError> {
    check_counting(game, eval, depth, false)
}

/// [`check`] with every search, minimax's included, counting depth with `count_passes`.
fn check_counting<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    depth: u32,
    count_passes: bool,
) -> Result<(), TestCaseError> {
    if game.outcome().is_some() {
        return Ok(());
    }
    let counting = |mut s: EngineSettings| {
        s.count_passes = count_passes;
        s
    };
    let reference = run(
        game,
        eval,
        &counting(settings(Algorithm::Minimax, depth)),
        None,
    );
    // The kept table starts with entries of a deeper search of the same position, which a
    // search at `depth` must not take for its own (they are better, but not minimax's).
    let shared = TranspositionTable::new(1);
    run(
        game,
        eval,
        &counting(settings(Algorithm::Full, depth + 2)),
        Some(&shared),
    );
    for (name, s) in combinations(depth) {
        let s = counting(s);
        let fresh = run(game, eval, &s, None);
        prop_assert_eq!(
            fresh.value,
            reference.value,
            "{} depth {}\n{}",
            name,
            depth,
            game
        );
        let best = fresh.best.expect("a move");
        prop_assert!(
            reference_ties(game, eval, depth, count_passes).contains(&best),
            "{} chose {:?}, not a best move\n{}",
            name,
            best,
            game
        );
        let kept = run(game, eval, &s, Some(&shared));
        prop_assert_eq!(
            kept.value,
            reference.value,
            "kept table, {}\n{}",
            name,
            game
        );
    }
    Ok(())
}

/// Every root move with the best minimax value.
fn reference_ties<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    depth: u32,
    count_passes: bool,
) -> Vec<G::Move> {
    let mut s = settings(Algorithm::Minimax, depth);
    s.random_ties = true;
    s.count_passes = count_passes;
    run(game, eval, &s, None).ties
}

fn gomoku(size: usize, connect: usize) -> Gomoku {
    let mut options = GomokuOptions::default();
    options.set("size", &size.to_string()).unwrap();
    options.set("connect", &connect.to_string()).unwrap();
    options.set("candidates", "0").unwrap();
    Gomoku::new_game(&options)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn full_equals_minimax_on_kalah(seed in any::<u64>(), pits in 1u32..=5, stones in 1u32..=4, empty in any::<bool>(), plies in 0usize..12, depth in 1u32..=4) {
        let game = random_position(kalah(pits, stones, empty), plies, seed);
        check(&game, &NoiseEval, depth)?;
        let store = Kalah::evaluator(&KalahOptions::default(), "store").unwrap();
        check(&game, &store, depth)?;
    }

    #[test]
    fn full_equals_minimax_on_dots(seed in any::<u64>(), rows in 1u32..=3, cols in 1u32..=3, plies in 0usize..16, depth in 1u32..=4) {
        let game = random_position(dots(rows, cols), plies, seed);
        check(&game, &NoiseEval, depth)?;
        let chains = Dots::evaluator(&DotsOptions::default(), "chains").unwrap();
        check(&game, &chains, depth)?;
    }

    #[test]
    fn full_equals_minimax_counting_passes(seed in any::<u64>(), pits in 1u32..=5, stones in 1u32..=4, rows in 1u32..=3, cols in 1u32..=3, plies in 0usize..12, depth in 2u32..=5) {
        // Depth 2 and more: one ply above the horizon an extra turn's child is a leaf
        // either way.
        let game = random_position(kalah(pits, stones, false), plies, seed);
        check_counting(&game, &NoiseEval, depth, true)?;
        let game = random_position(dots(rows, cols), plies, seed);
        check_counting(&game, &NoiseEval, depth, true)?;
    }

    #[test]
    fn full_equals_minimax_on_tictactoe(seed in any::<u64>(), plies in 0usize..6, depth in 1u32..=5) {
        let game = random_position(TicTacToe::new(), plies, seed);
        check(&game, &NoiseEval, depth)?;
        check(&game, &gametree::games::tictactoe::LinesEval, depth)?;
    }

    #[test]
    fn full_equals_minimax_on_gomoku(seed in any::<u64>(), size in 3usize..=5, connect in 3usize..=4, plies in 0usize..8, depth in 1u32..=3) {
        let game = random_position(gomoku(size, connect.min(size)), plies, seed);
        check(&game, &NoiseEval, depth)?;
        let patterns = Gomoku::evaluator(&GomokuOptions::default(), "default").unwrap();
        check(&game, &patterns, depth)?;
    }
}

/// `Game::table_move` gives, for every table index, exactly the generated move stored under
/// that index in the position's orientation (the legal moves; the solver's moves when
/// solving), and nothing for indexes no such move has (Kalah, Gomoku, Dots and Boxes).
fn check_table_moves<G: Game>(game: &G) {
    let orientation = game.table_orientation();
    for solving in [false, true] {
        let mut moves = Vec::new();
        if solving {
            game.solver_moves(&mut moves);
        } else {
            game.legal_moves(&mut moves);
        }
        for index in 0..game.move_space() + 2 {
            let expected = moves
                .iter()
                .copied()
                .find(|&mv| game.table_move_index_in(orientation, mv) == index);
            assert_eq!(
                game.table_move(orientation, index, solving),
                expected,
                "index {index}, solving {solving}\n{game}"
            );
        }
    }
}

#[test]
fn table_moves_are_the_generated_moves_of_their_index() {
    let mut answered = 0;
    for seed in 0..200 {
        let plies = (seed % 20) as usize;
        let games = [
            random_position(dots(3, 3), plies, seed),
            random_position(dots(2, 3), plies, seed),
        ];
        for game in &games {
            check_table_moves(game);
            answered += usize::from(
                game.table_move(game.table_orientation(), 0, false)
                    .is_some(),
            );
        }
        let game = random_position(gomoku(7, 4), plies, seed);
        check_table_moves(&game);
        let game = random_position(kalah(6, 4, seed % 2 == 0), plies, seed);
        check_table_moves(&game);
    }
    assert!(answered > 0, "Dots and Boxes answers table moves");
}

#[test]
fn the_random_positions_include_extra_turns() {
    // The Kalah and Dots cases above are only worth their name if extra turns occur in them.
    let mut kalah_with = 0;
    let mut dots_with = 0;
    for seed in 0..40 {
        let mut k = random_position(kalah(4, 3, false), (seed % 12) as usize, seed);
        kalah_with += usize::from(extra_turn_within(&mut k, 3));
        let mut d = random_position(dots(2, 2), 4 + (seed % 8) as usize, seed);
        dots_with += usize::from(extra_turn_within(&mut d, 3));
    }
    assert!(kalah_with >= 20, "{kalah_with} of 40 Kalah positions");
    assert!(dots_with >= 20, "{dots_with} of 40 Dots positions");
}

#[test]
fn full_ties_are_minimax_ties() {
    // With random ties on, the full engine reports exactly the root moves minimax finds best.
    for seed in 0..30 {
        let game = random_position(dots(2, 2), (seed % 6) as usize, seed);
        for depth in 1..=4 {
            let mut reference = reference_ties(&game, &NoiseEval, depth, false);
            reference.sort_unstable();
            let mut s = settings(Algorithm::Full, depth);
            s.random_ties = true;
            let mut ties = run(&game, &NoiseEval, &s, None).ties;
            ties.sort_unstable();
            assert_eq!(ties, reference, "depth {depth}\n{game}");
        }
    }
}

/// Solves `game` exactly with the full engine; returns the first player's margin.
fn solve<G: Game>(game: &G) -> i32 {
    solve_threaded(
        game,
        EngineSettings::to_depth(Algorithm::Full, 0).threads,
        16,
    )
}

#[test]
fn solving_with_game_rules_matches_plain_minimax() {
    // The solver's pruning rules (Dots and Boxes' free boxes) and the table keep the exact
    // value: compare with plain minimax to the end on small random positions.
    for seed in 0..60 {
        let game = random_position(dots(2, 2), 3 + (seed % 5) as usize, seed);
        let mut s = settings(Algorithm::Minimax, 12);
        s.ordering = false;
        let reference = run(&game, &NoiseEval, &s, None);
        let exact = score::game_value::<Dots>(reference.value) * game.to_move().sign();
        assert_eq!(solve(&game), exact, "seed {seed}\n{game}");
    }
    for seed in 0..40 {
        let game = random_position(kalah(3, 2, seed % 2 == 0), (seed % 6) as usize, seed);
        let s = settings(Algorithm::Minimax, 60);
        let reference = run(&game, &NoiseEval, &s, None);
        let exact = score::game_value::<Kalah>(reference.value) * game.to_move().sign();
        assert_eq!(solve(&game), exact, "seed {seed}\n{game}");
    }
}

#[test]
fn a_time_limit_returns_a_legal_move() {
    let game = Gomoku::default();
    let mut s = settings(Algorithm::Full, 60);
    s.limits.time = Some(std::time::Duration::from_millis(50));
    s.candidates = 12;
    let r = run(
        &game,
        &Gomoku::evaluator(&GomokuOptions::default(), "default").unwrap(),
        &s,
        None,
    );
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert!(moves.contains(&r.best.expect("a move")));
    assert!(r.stats.depth >= 1);
    assert!(r.stats.depth < 60, "did not stop on time");
}

/// Gomoku after `moves`, searched by the full engine with 12 candidates a node, `time` at
/// most and `target` to aim for: the move, its depth and the time it took.
fn timed_gomoku(moves: &[&str], time: u64, target: Option<u64>) -> (String, u32, Duration) {
    let mut game = Gomoku::default();
    for m in moves {
        let mv = game.parse_move(m).unwrap();
        game.play(mv);
    }
    let mut s = settings(Algorithm::Full, 60);
    s.limits.time = Some(Duration::from_millis(time));
    s.limits.target = target.map(Duration::from_millis);
    s.candidates = 12;
    let eval = Gomoku::evaluator(&GomokuOptions::default(), "default").unwrap();
    let started = Instant::now();
    let r = run(&game, &eval, &s, None);
    let elapsed = started.elapsed();
    (
        game.format_move(r.best.expect("a move")),
        r.stats.depth,
        elapsed,
    )
}

#[test]
fn with_a_target_a_single_root_move_is_answered_long_before_the_time_is_up() {
    // Black's four a1 - d1 along the edge: e1 is White's one move, and after it neither side
    // has a forced win for the search to stop at.
    let four = ["a1", "o15", "b1", "o13", "c1", "m15", "d1"];
    let (mv, depth, elapsed) = timed_gomoku(&four, 30_000, Some(20_000));
    assert_eq!(mv, "e1");
    assert!(depth >= 1);
    // A twentieth of the target, 1 s; the bound leaves a loaded machine ample room.
    assert!(
        elapsed < Duration::from_secs(15),
        "took {elapsed:?} of 30 s"
    );
}

#[test]
fn a_target_ends_the_deepening_long_before_the_time_limit() {
    // A quiet middle game: no forced win for either side to stop the search early.
    let quiet = ["h8", "i9", "g9", "h10", "j8", "i7"];
    let (_, depth, elapsed) = timed_gomoku(&quiet, 30_000, Some(400));
    assert!(depth >= 2, "depth {depth}");
    // No iteration starts past 1.2 s (three times the target, at the most changes of the
    // best move); the one running then is cut at its end or at 30 s. Where the limit alone
    // decides, the search runs 27 s or more.
    assert!(
        elapsed < Duration::from_secs(15),
        "took {elapsed:?} of 30 s"
    );
}

#[test]
fn a_stop_request_ends_a_long_search() {
    let game = kalah(6, 6, false);
    let stop = StopFlag::new();
    stop.raise();
    let s = settings(Algorithm::Full, 60);
    let mut rng = SmallRng::seed_from_u64(1);
    let r = full::search(
        &game,
        &NoiseEval,
        &s,
        &mut rng,
        &mut NoopObserver,
        &stop,
        &mut |_| {},
        None,
    );
    assert!(!r.completed);
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert!(moves.contains(&r.best.expect("any legal move")));
    // It stopped within the first poll interval, far from the 60 moves asked for.
    assert!(r.stats.nodes < 10_000, "{} nodes", r.stats.nodes);
}

/// Two threads split the nodes of the principal variation (from depth 5 up); their value and
/// their set of tied root moves must be one thread's, which the tests above tie to minimax.
fn check_threads_agree<G: Game, E: Evaluator<G>>(game: &G, eval: &E, depth: u32) {
    if game.outcome().is_some() {
        return;
    }
    let mut one = settings(Algorithm::Full, depth);
    one.random_ties = true;
    let mut two = one.clone();
    two.threads = 2;
    for (pvs, aspiration) in [(true, true), (false, false)] {
        one.pvs = pvs;
        two.pvs = pvs;
        one.aspiration = aspiration;
        two.aspiration = aspiration;
        let a = run(game, eval, &one, None);
        let b = run(game, eval, &two, None);
        assert_eq!(a.value, b.value, "depth {depth} pvs {pvs}\n{game}");
        let (mut ta, mut tb) = (a.ties.clone(), b.ties.clone());
        ta.sort_by_key(|m| format!("{m:?}"));
        tb.sort_by_key(|m| format!("{m:?}"));
        assert_eq!(ta, tb, "tied moves, depth {depth} pvs {pvs}\n{game}");
    }
}

#[test]
fn two_threads_agree_with_one_where_they_split() {
    for seed in 0..12 {
        let k = random_position(kalah(6, 4, seed % 2 == 0), (seed % 8) as usize, seed);
        check_threads_agree(&k, &NoiseEval, 6 + (seed % 3) as u32);
        let d = random_position(dots(3, 3), 4 + (seed % 6) as usize, seed);
        check_threads_agree(&d, &NoiseEval, 5 + (seed % 2) as u32);
        let t = random_position(TicTacToe::new(), (seed % 3) as usize, seed);
        check_threads_agree(&t, &NoiseEval, 7);
        let g = random_position(gomoku(6, 4), 2 + (seed % 4) as usize, seed);
        check_threads_agree(&g, &NoiseEval, 5);
    }
}

#[test]
fn counting_passes_shortens_only_the_lines_that_keep_the_turn() {
    // Kalah 6x4's start: pit c sows its last stone into the store, so South moves again (5
    // pits then hold stones); the other five moves pass the turn to North (6 moves). At depth
    // 2 with passes counted, the position after c is a leaf: 5 nodes fewer, and only those.
    let game = Kalah::new(6, 4);
    let nodes = |algorithm, depth, count_passes| {
        let mut s = settings(algorithm, depth);
        s.count_passes = count_passes;
        run(&game, &NoiseEval, &s, None).stats.nodes
    };
    assert_eq!(
        nodes(Algorithm::Minimax, 2, false) - nodes(Algorithm::Minimax, 2, true),
        5
    );
    for algorithm in [Algorithm::AlphaBeta, Algorithm::Full] {
        assert!(
            nodes(algorithm, 8, true) < nodes(algorithm, 8, false),
            "{algorithm}"
        );
    }
}

/// Solves with `threads` threads in a small table (entries replaced often, bounds of both
/// kinds in one bucket); returns the first player's margin.
fn solve_threaded<G: Game>(game: &G, threads: usize, tt_mb: usize) -> i32 {
    let s = EngineSettings {
        solve: true,
        random_ties: false,
        tt_mb,
        threads,
        limits: gametree::engine::limits::Limits::default(),
        ..EngineSettings::to_depth(Algorithm::Full, 0)
    };
    let r = run(game, &NoiseEval, &s, None);
    assert!(r.completed);
    score::game_value::<G>(r.value) * game.to_move().sign()
}

/// Threads split nodes inside each other's splits, and a thread whose share of a split is
/// done (the main thread often first) helps with the splits below it while it waits: with
/// more threads than cores, in a table small enough to replace entries all the time, the
/// solves still give the reference values (tests/data/reference/kalah.md).
#[test]
fn threads_helping_each_other_solve_kalah_exactly() {
    // (pits, stones, empty capture, value for the first player)
    for (pits, stones, empty, expected) in [
        (4, 3, false, 6),
        (4, 3, true, 8),
        (3, 4, true, 2),
        (4, 2, true, 6),
        (2, 6, false, 8),
        (2, 4, true, -12),
    ] {
        let game = kalah(pits, stones, empty);
        for threads in [2, 3, 4] {
            for tt_mb in [1, 16] {
                assert_eq!(
                    solve_threaded(&game, threads, tt_mb),
                    expected,
                    "Kalah({pits},{stones}), empty capture {empty}, {threads} threads, {tt_mb} MiB"
                );
            }
        }
    }
}
