//! `cargo bench`: our engine against the `minimax` crate (0.6) on the same positions and
//! depths, in four groups: perft, fixed-depth alpha-beta without a table, iterative deepening
//! with a 64 MB table, and full solves. Criterion prints nodes/s from node counts taken
//! outside the timed loops (the crate's randomised searches also count each timed run, see
//! [`rescaled`]). What each side counts, and the measured ratios: `docs/performance.md`.

#![allow(
    clippy::expect_used,
    reason = "a benchmark whose fixed setup fails should stop at once, saying where"
)]

mod adapter;
mod passing;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkGroup, Criterion, Throughput, measurement::WallTime};
use gametree::engine::api::{Algorithm, EngineSettings, SearchResult, search};
use gametree::engine::full;
use gametree::engine::limits::StopFlag;
use gametree::engine::score::{self, MAX_PLY};
use gametree::engine::tree::NoopObserver;
use gametree::engine::tt::TranspositionTable;
use gametree::engine::{Evaluator, Game, perft::perft};
use gametree::games::dots::{Dots, DotsEval};
use gametree::games::gomoku::{Gomoku, GomokuEval};
use gametree::games::kalah::{Kalah, StoreEval};
use gametree::games::tictactoe::{LinesEval, TicTacToe};
use minimax::{IterativeOptions, IterativeSearch, Negamax, Strategy};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use adapter::{Adaptable, Eval, State};
use passing::{Passing, PassingEval};

/// The depth of Kalah 6x4's iterative searches, with and without the forced passes.
const KALAH_ITERATIVE_DEPTH: u32 = 12;

/// The environment variable that sets another depth for Kalah 6x4's iterative searches (to
/// compare tree sizes depth by depth).
const KALAH_DEPTH_VAR: &str = "GAMETREE_BENCH_KALAH_DEPTH";

/// [`KALAH_ITERATIVE_DEPTH`], or the depth in [`KALAH_DEPTH_VAR`].
fn kalah_iterative_depth() -> u32 {
    std::env::var(KALAH_DEPTH_VAR).map_or(KALAH_ITERATIVE_DEPTH, |text| {
        text.parse()
            .expect("GAMETREE_BENCH_KALAH_DEPTH is a depth in plies, like 9")
    })
}

/// The transposition table of both sides' iterative searches.
const TABLE_MB: usize = 64;

/// Runs of the `minimax` crate's searches whose node counts are averaged for the throughput
/// figure: both of its searches shuffle the root moves at random, so the count varies from
/// run to run (threefold in Gomoku).
const COUNT_RUNS: u64 = 8;

/// The environment variable that adds the Dots and Boxes 3x3 solve (minutes for the crate).
const SLOW_SOLVE_VAR: &str = "GAMETREE_BENCH_DOTS_3X3";

/// The environment variable that narrows a run to the groups whose name contains its value
/// (`alphabeta/kalah`), setup included: criterion's own filter skips only the timing, while
/// the node counts of every group would still be taken (which spoils a profile).
const ONLY_VAR: &str = "GAMETREE_BENCH_ONLY";

/// True when the group `name` is to run (see [`ONLY_VAR`]).
fn selected(name: &str) -> bool {
    std::env::var(ONLY_VAR).map_or(true, |only| name.contains(&only))
}

/// Our side of the iterative-deepening and solve groups: the full engine.
const OURS_FULL: Algorithm = Algorithm::Full;

/// Our engine's search of `game` to `depth`, one thread, no random ties.
fn ours<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    algorithm: Algorithm,
    depth: u32,
    ordering: bool,
) -> SearchResult<G::Move> {
    let settings = EngineSettings {
        ordering,
        random_ties: false,
        candidates: 0,
        tt_mb: TABLE_MB,
        threads: 1,
        // No time limit: the depth decides.
        ..EngineSettings::to_depth(algorithm, depth)
    };
    search(
        game,
        eval,
        &settings,
        &mut SmallRng::seed_from_u64(0),
        &mut NoopObserver,
        &StopFlag::new(),
        &mut |_| {},
    )
}

thread_local! {
    /// Our 64 MB table, made once and cleared before each search outside the timer (as the
    /// crate's is made before its timer starts).
    static TABLE: TranspositionTable = TranspositionTable::new(TABLE_MB);
}

/// Our side of groups 3 and 4 (see [`OURS_FULL`]): one thread, the cleared [`TABLE`]; a
/// search to the end of the game is a solve, with the game's solver rules.
fn ours_full<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    depth: u32,
    count_passes: bool,
) -> SearchResult<G::Move> {
    TABLE.with(TranspositionTable::clear);
    ours_full_on_cleared_table(game, eval, depth, count_passes)
}

/// `iters` runs of [`ours_full`], timing only the searches.
fn time_ours_full<G: Game, E: Evaluator<G>>(
    iters: u64,
    game: &G,
    eval: &E,
    depth: u32,
    count_passes: bool,
) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        TABLE.with(TranspositionTable::clear);
        let started = Instant::now();
        black_box(ours_full_on_cleared_table(
            black_box(game),
            eval,
            depth,
            count_passes,
        ));
        total += started.elapsed();
    }
    total
}

fn ours_full_on_cleared_table<G: Game, E: Evaluator<G>>(
    game: &G,
    eval: &E,
    depth: u32,
    count_passes: bool,
) -> SearchResult<G::Move> {
    let settings = EngineSettings {
        solve: depth >= MAX_PLY as u32,
        count_passes,
        random_ties: false,
        tt_mb: TABLE_MB,
        threads: 1,
        ..EngineSettings::to_depth(OURS_FULL, depth)
    };
    TABLE.with(|table| {
        full::search(
            game,
            eval,
            &settings,
            &mut SmallRng::seed_from_u64(0),
            &mut NoopObserver,
            &StopFlag::new(),
            &mut |_| {},
            Some(table),
        )
    })
}

/// The crate's iterative deepening with a 64 MB table, to `depth`, its other options at
/// their defaults (two-tier replacement, null-window search). A fresh one per search: its
/// table keeps entries across `choose_move` calls, which would let a repeated search
/// answer from the previous one.
fn theirs_iterative<G: Adaptable, E: Evaluator<G>>(
    eval: E,
    depth: u8,
) -> IterativeSearch<Eval<G, E, false>> {
    let options = IterativeOptions::new().with_table_byte_size(TABLE_MB << 20);
    let mut strategy = IterativeSearch::new(Eval::new(eval), options);
    strategy.set_max_depth(depth);
    strategy
}

/// One timed search of the crate's: its wall time and the nodes it searched.
type Run = (Duration, u64);

/// Times `iters` runs and rescales the total to `iters` searches of `nominal` nodes. The
/// crate shuffles its root moves at random, so every run searches a different number of
/// nodes; rescaled, criterion's nodes/s (`nominal` nodes per reported time) are exactly the
/// nodes over the time of the runs it timed, and its time is that of a `nominal` search.
fn rescaled(iters: u64, nominal: u64, mut run: impl FnMut() -> Run) -> Duration {
    let (mut time, mut nodes) = (Duration::ZERO, 0);
    for _ in 0..iters {
        let (t, n) = run();
        time += t;
        nodes += n;
    }
    time.mul_f64((nominal * iters) as f64 / nodes.max(1) as f64)
}

/// The crate's fixed-depth negamax once, counted by the adapter: moves applied plus the
/// root (the same positions our `SearchStats::nodes` counts), and how many were passes.
fn negamax_run<G: Adaptable, E: Evaluator<G>>(
    strategy: &mut Negamax<Eval<G, E, true>>,
    state: &State<G>,
) -> (Run, u64) {
    adapter::take_applied();
    let started = Instant::now();
    strategy.choose_move(state);
    let elapsed = started.elapsed();
    let (applied, passes) = adapter::take_applied();
    ((elapsed, applied + 1), passes)
}

/// The crate's iterative search once, with a fresh table filled before the timer starts:
/// the time, its own node count ("Explored N nodes": every negamax call below the root in
/// all iterations, null-window re-searches included) and its root value.
fn iterative_run<G: Adaptable, E: Evaluator<G>>(
    state: &mut State<G>,
    eval: E,
    depth: u8,
) -> (Run, i16) {
    let mut strategy = theirs_iterative(eval, depth);
    let started = Instant::now();
    strategy.choose_move(state);
    let elapsed = started.elapsed();
    let nodes = explored(&strategy.stats(state));
    ((elapsed, nodes), strategy.root_value())
}

/// Mean, least and most of a node count over several runs.
fn spread(counts: &[u64]) -> (u64, u64, u64) {
    let mean = counts.iter().sum::<u64>() / counts.len().max(1) as u64;
    let least = counts.iter().copied().min().unwrap_or(0);
    let most = counts.iter().copied().max().unwrap_or(0);
    (mean, least, most)
}

/// The node count in the crate's statistics text.
fn explored(stats: &str) -> u64 {
    stats
        .split("Explored ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("the minimax crate's stats say `Explored N nodes`")
}

/// A position with the depths of each group.
struct Case<G, E> {
    name: &'static str,
    game: G,
    eval: E,
    perft_depth: u32,
    alphabeta_depth: u32,
    /// Depth of the iterative-deepening group; `None` leaves the game out of it.
    iterative_depth: Option<u32>,
}

/// A position solved to the end.
struct Solve<G, E> {
    name: &'static str,
    game: G,
    eval: E,
    /// The crate's depth limit, in its plies (forced passes count): it stops earlier once
    /// a win is proven, and at this depth a draw is proven too.
    minimax_depth: u8,
}

/// Short runs: the comparison needs medians and ratios, not fine confidence intervals.
fn configure(group: &mut BenchmarkGroup<'_, WallTime>, seconds: u64) {
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(seconds));
}

/// Group 1: move generation and make/undo only. Both count the same lines (leaves).
fn bench_perft<G: Adaptable, E>(c: &mut Criterion, case: &Case<G, E>) {
    let name = format!("perft/{}", case.name);
    if !selected(&name) {
        return;
    }
    let depth = case.perft_depth;
    let mut game = case.game.clone();
    let leaves = perft(&mut game, depth);
    let mut state = State::new(case.game.clone());
    assert_eq!(
        adapter::perft(&mut state, depth, &mut Vec::new()),
        leaves,
        "{}: both perfts must count the same lines",
        case.name
    );
    let mut group = c.benchmark_group(name);
    configure(&mut group, 2);
    group.throughput(Throughput::Elements(leaves));
    group.bench_function(format!("ours d{depth}"), |b| {
        b.iter(|| perft(black_box(&mut game), depth));
    });
    group.bench_function(format!("minimax d{depth}"), |b| {
        b.iter(|| adapter::perft(black_box(&mut state), depth, &mut Vec::new()));
    });
    group.finish();
}

/// Group 2: fixed-depth alpha-beta without a table; ours with ordering on and off, the
/// crate's `Negamax` (no ordering; root moves in random order).
fn bench_alphabeta<G: Adaptable, E: Evaluator<G> + Copy>(c: &mut Criterion, case: &Case<G, E>) {
    let name = format!("alphabeta/{}", case.name);
    if !selected(&name) {
        return;
    }
    let depth = case.alphabeta_depth;
    let search = |ordering| {
        ours(
            &case.game,
            &case.eval,
            Algorithm::AlphaBeta,
            depth,
            ordering,
        )
    };
    let our_nodes = [true, false].map(|ordering| search(ordering).stats.nodes);
    let state = State::new(case.game.clone());
    let mut strategy = Negamax::new(Eval::<G, E, true>::new(case.eval), depth as u8);
    let runs: Vec<(Run, u64)> = (0..COUNT_RUNS)
        .map(|_| negamax_run(&mut strategy, &state))
        .collect();
    let (their_nodes, least, most) = spread(&runs.iter().map(|((_, n), _)| *n).collect::<Vec<_>>());
    let passes = runs.iter().map(|(_, p)| p).sum::<u64>() / COUNT_RUNS;
    eprintln!(
        "{name}: ours nodes {} ordered, {} unordered; minimax crate nodes {their_nodes} (mean \
         of {COUNT_RUNS}, {least}..={most}; {passes} of them forced passes)",
        our_nodes[0], our_nodes[1]
    );
    let mut group = c.benchmark_group(name);
    configure(&mut group, 2);
    for (ordering, nodes) in [true, false].into_iter().zip(our_nodes) {
        group.throughput(Throughput::Elements(nodes));
        let label = if ordering { "ordered" } else { "unordered" };
        group.bench_function(format!("ours {label} d{depth}"), |b| {
            b.iter(|| search(black_box(ordering)));
        });
    }
    group.throughput(Throughput::Elements(their_nodes));
    group.bench_function(format!("minimax d{depth}"), |b| {
        b.iter_custom(|iters| {
            rescaled(iters, their_nodes, || {
                negamax_run(&mut strategy, black_box(&state)).0
            })
        });
    });
    group.finish();
}

/// Groups 3 and 4: our [`ours_full`] against the crate's iterative deepening with a fresh
/// 64 MB table per search (filled before the timer starts).
fn bench_table_search<G: Adaptable, E: Evaluator<G> + Copy>(
    c: &mut Criterion,
    group_name: &str,
    (name, game, eval): (&str, &G, E),
    depths: (u32, u8),
) {
    bench_table_search_as(
        c,
        group_name,
        (name, game, eval),
        (game, &eval, false),
        depths,
    );
}

/// [`bench_table_search`] with our engine searching `ours` (the same game in another form:
/// [`Passing`]) while the crate searches `game`, counting depth with `count_passes` (see
/// `EngineSettings::count_passes`).
fn bench_table_search_as<G: Adaptable, E: Evaluator<G> + Copy, O: Game, F: Evaluator<O>>(
    c: &mut Criterion,
    group_name: &str,
    (name, game, eval): (&str, &G, E),
    (ours, our_eval, count_passes): (&O, &F, bool),
    (our_depth, their_depth): (u32, u8),
) {
    let full_name = format!("{group_name}/{name}");
    if !selected(&full_name) {
        return;
    }
    let result = ours_full(ours, our_eval, our_depth, count_passes);
    let mut state = State::new(game.clone());
    let runs: Vec<(Run, i16)> = (0..COUNT_RUNS)
        .map(|_| iterative_run(&mut state, eval, their_depth))
        .collect();
    let (their_nodes, least, most) = spread(&runs.iter().map(|((_, n), _)| *n).collect::<Vec<_>>());
    eprintln!(
        "{full_name}: ours ({OURS_FULL}) value {} nodes {}; minimax crate value {} nodes \
         {their_nodes} (mean of {COUNT_RUNS}, {least}..={most})",
        score::format::<O>(result.value),
        result.stats.nodes,
        runs.last()
            .map_or_else(String::new, |&(_, value)| describe(value)),
    );
    let mut group = c.benchmark_group(full_name);
    configure(&mut group, 3);
    group.throughput(Throughput::Elements(result.stats.nodes));
    group.bench_function(format!("ours {OURS_FULL} d{our_depth}"), |b| {
        b.iter_custom(|iters| time_ours_full(iters, ours, our_eval, our_depth, count_passes));
    });
    group.throughput(Throughput::Elements(their_nodes));
    group.bench_function(format!("minimax d{their_depth}"), |b| {
        b.iter_custom(|iters| {
            rescaled(iters, their_nodes, || {
                iterative_run(black_box(&mut state), eval, their_depth).0
            })
        });
    });
    group.finish();
}

/// The crate's root value as a person reads it.
fn describe(value: i16) -> String {
    match value {
        minimax::BEST_EVAL => "win".to_string(),
        minimax::WORST_EVAL => "loss".to_string(),
        v => v.to_string(),
    }
}

/// Every group of one game.
fn bench_case<G: Adaptable, E: Evaluator<G> + Copy>(c: &mut Criterion, case: &Case<G, E>) {
    bench_perft(c, case);
    bench_alphabeta(c, case);
    if let Some(depth) = case.iterative_depth {
        bench_table_search(
            c,
            "iterative",
            (case.name, &case.game, case.eval),
            (depth, depth as u8),
        );
    }
}

fn bench_solve<G: Adaptable, E: Evaluator<G> + Copy>(c: &mut Criterion, solve: &Solve<G, E>) {
    bench_table_search(
        c,
        "solve",
        (solve.name, &solve.game, solve.eval),
        (MAX_PLY as u32, solve.minimax_depth),
    );
}

/// Our Dots and Boxes 3x3 solve, with samples (about a second each).
fn solve_dots_3x3_ours(c: &mut Criterion) {
    let name = "solve/dots 3x3";
    if !selected(name) {
        return;
    }
    let game = Dots::new(3, 3);
    let eval = DotsEval::Score;
    let result = ours_full(&game, &eval, MAX_PLY as u32, false);
    eprintln!(
        "{name}: ours ({OURS_FULL}) value {} nodes {}",
        score::format::<Dots>(result.value),
        result.stats.nodes,
    );
    let mut group = c.benchmark_group(name);
    configure(&mut group, 10);
    group.throughput(Throughput::Elements(result.stats.nodes));
    group.bench_function(format!("ours {OURS_FULL}"), |b| {
        b.iter_custom(|iters| time_ours_full(iters, &game, &eval, MAX_PLY as u32, false));
    });
    group.finish();
}

/// The crate's Dots and Boxes 3x3 solve, timed once (it needs minutes, too long for samples).
fn solve_dots_3x3_once() {
    let game = Dots::new(3, 3);
    let eval = DotsEval::Score;
    // 24 lines and at most 9 forced passes.
    let ((elapsed, nodes), value) = iterative_run(&mut State::new(game), eval, 33);
    eprintln!(
        "solve/dots 3x3: minimax crate value {} nodes {nodes} time {:.3} s",
        describe(value),
        elapsed.as_secs_f64()
    );
}

/// Gomoku 15x15 a few moves in: Black's diagonal against White's row.
fn gomoku_middle_game() -> Gomoku {
    let mut game = Gomoku::default();
    game.play_line("h8 i9 g7 h9 i7 g9")
        .expect("the Gomoku bench position is legal");
    game
}

fn benches(c: &mut Criterion) {
    bench_case(
        c,
        &Case {
            name: "tictactoe",
            game: TicTacToe::new(),
            eval: LinesEval,
            perft_depth: 9,
            alphabeta_depth: 9,
            // Depth 9 is the whole game: the solve group covers it.
            iterative_depth: None,
        },
    );
    bench_case(
        c,
        &Case {
            name: "kalah 6x4",
            game: Kalah::new(6, 4),
            eval: StoreEval,
            perft_depth: 8,
            alphabeta_depth: 10,
            iterative_depth: Some(kalah_iterative_depth()),
        },
    );
    // Like for like: our engine with the crate's forced pass after every extra turn, so that
    // both search the same tree shape to the same nominal depth (see passing.rs).
    let kalah = Kalah::new(6, 4);
    let depth = kalah_iterative_depth();
    bench_table_search_as(
        c,
        "iterative",
        ("kalah 6x4 with passes", &kalah, StoreEval),
        (&Passing::new(kalah), &PassingEval(StoreEval), false),
        (depth, depth as u8),
    );
    // The same tree without the pass nodes: our engine counting a kept turn as two plies.
    bench_table_search_as(
        c,
        "iterative",
        ("kalah 6x4 counting passes", &kalah, StoreEval),
        (&kalah, &StoreEval, true),
        (depth, depth as u8),
    );
    bench_case(
        c,
        &Case {
            name: "dots 3x3",
            game: Dots::new(3, 3),
            eval: DotsEval::Score,
            perft_depth: 6,
            alphabeta_depth: 7,
            iterative_depth: Some(9),
        },
    );
    bench_case(
        c,
        &Case {
            name: "gomoku 15x15",
            game: gomoku_middle_game(),
            eval: GomokuEval::Patterns,
            perft_depth: 3,
            alphabeta_depth: 3,
            iterative_depth: Some(3),
        },
    );
    bench_solve(
        c,
        &Solve {
            name: "tictactoe",
            game: TicTacToe::new(),
            eval: LinesEval,
            minimax_depth: 9,
        },
    );
    bench_solve(
        c,
        &Solve {
            name: "kalah 4x3",
            game: Kalah::new(4, 3),
            eval: StoreEval,
            minimax_depth: 99,
        },
    );
    bench_solve(
        c,
        &Solve {
            name: "dots 2x2",
            game: Dots::new(2, 2),
            eval: DotsEval::Score,
            minimax_depth: 16,
        },
    );
    solve_dots_3x3_ours(c);
    if std::env::var_os(SLOW_SOLVE_VAR).is_some() && selected("solve/dots 3x3") {
        solve_dots_3x3_once();
    }
}

criterion::criterion_group!(versus_minimax, benches);
criterion::criterion_main!(versus_minimax);
