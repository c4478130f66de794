//! `gametree bench`: a fixed, deterministic suite of searches per game (positions, depths,
//! one thread, no time limits), like a chess engine's `bench`. Each line reports nodes, time
//! and nodes per second; the total node count is the suite's *signature*. Node counts depend
//! only on the search, never on the machine, so a test pins the signature and any change
//! that silently alters a search shows up there (time is only reported, never checked).

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::engine::api::{Algorithm, EngineSettings, search_with_table};
use crate::engine::limits::Limits;
use crate::engine::limits::StopFlag;
use crate::engine::score;
use crate::engine::tree::NoopObserver;
use crate::engine::tt::TranspositionTable;
use crate::engine::{Game, perft, stats};
use crate::games::dots::Dots;
use crate::games::gomoku::{Gomoku, GomokuOptions};
use crate::games::kalah::Kalah;
use crate::games::tictactoe::TicTacToe;
use crate::games::{GameKind, GameOptions, Playable};

/// The table size of the suite's full-engine searches (reset before each one).
const TABLE_MB: usize = 16;

/// What one line of the suite runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// Move sequences of exactly this many moves (move generation and make/undo).
    Perft(u32),
    /// Plain alpha-beta with static ordering to this depth.
    AlphaBeta(u32),
    /// The full engine (one thread, fresh table) to this depth.
    Full(u32),
    /// The full engine to the end of the game, with the game's solver rules.
    Solve,
}

impl std::fmt::Display for Task {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Perft(d) => write!(f, "perft {d}"),
            Self::AlphaBeta(d) => write!(f, "alphabeta {d}"),
            Self::Full(d) => write!(f, "full {d}"),
            Self::Solve => f.write_str("solve"),
        }
    }
}

/// One result of the suite.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchLine {
    /// The game.
    pub game: GameKind,
    /// The position: its options and the moves that reach it.
    pub position: String,
    /// What was run.
    pub task: Task,
    /// Nodes visited (leaves, for perft).
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
    /// The value found, as people read it (empty for perft).
    pub value: String,
}

impl BenchLine {
    /// Nodes per second.
    pub fn nodes_per_second(&self) -> f64 {
        stats::per_second(self.nodes, self.elapsed)
    }
}

/// The suite's signature: the total node count (perft leaves included).
pub fn signature(lines: &[BenchLine]) -> u64 {
    lines.iter().map(|l| l.nodes).sum()
}

/// Runs the suite (or only `only`'s part of it), handing each line to `report` as it is
/// done, and returns every line. With `threads`, only the full-engine lines run, with that
/// many threads (0 = one per core).
pub fn run(
    only: Option<GameKind>,
    threads: Option<usize>,
    mut report: impl FnMut(&BenchLine),
) -> Vec<BenchLine> {
    let table = TranspositionTable::new(TABLE_MB);
    // Touch every page now, so that no line pays for first touches.
    table.clear();
    let mut suite = Suite {
        table,
        threads,
        lines: Vec::new(),
        report: &mut report,
    };
    let wanted = |kind: GameKind| only.is_none_or(|k| k == kind);
    if wanted(GameKind::TicTacToe) {
        let game = TicTacToe::new();
        for task in [
            Task::Perft(9),
            Task::AlphaBeta(9),
            Task::Full(9),
            Task::Solve,
        ] {
            suite.run(&game, "empty board", task);
        }
    }
    if wanted(GameKind::Kalah) {
        let start = kalah(6, 4);
        let middle = position(kalah(6, 4), "c f b e a d");
        for task in [Task::Perft(8), Task::AlphaBeta(10), Task::Full(12)] {
            suite.run(&start, "6x4 start", task);
        }
        for task in [Task::AlphaBeta(10), Task::Full(12)] {
            suite.run(&middle, "6x4 after c f b e a d", task);
        }
        suite.run(&kalah(4, 3), "4x3 start", Task::Solve);
    }
    if wanted(GameKind::Dots) {
        let start = dots(3, 3);
        let middle = position(dots(3, 3), "a1-b1 c3-c4 b2-c2 d1-d2 a3-a4 b4-c4");
        for task in [Task::Perft(6), Task::AlphaBeta(7), Task::Full(9)] {
            suite.run(&start, "3x3 empty", task);
        }
        suite.run(&middle, "3x3 after 6 lines", Task::Full(10));
        suite.run(&dots(2, 3), "2x3 empty", Task::Solve);
    }
    if wanted(GameKind::Gomoku) {
        let middle = position(gomoku(12), "h8 i7 g9 h9 i8 g8");
        for task in [Task::Perft(2), Task::AlphaBeta(6), Task::Full(8)] {
            suite.run(&middle, "15x15 after h8 i7 g9 h9 i8 g8", task);
        }
    }
    suite.lines
}

/// The suite as it runs: its table, the thread setting and the lines so far.
struct Suite<'r> {
    table: TranspositionTable,
    threads: Option<usize>,
    lines: Vec<BenchLine>,
    report: &'r mut dyn FnMut(&BenchLine),
}

impl Suite<'_> {
    fn run<G: Playable>(&mut self, game: &G, position: &str, task: Task) {
        let threads = match self.threads {
            None => 1,
            Some(_) if !matches!(task, Task::Full(_)) => return,
            Some(t) => t,
        };
        let line = run_task(game, position, task, &self.table, threads);
        (self.report)(&line);
        self.lines.push(line);
    }
}

/// Runs one task on `game` (no time limit, no random ties).
fn run_task<G: Playable>(
    game: &G,
    position: &str,
    task: Task,
    table: &TranspositionTable,
    threads: usize,
) -> BenchLine {
    let started = Instant::now();
    if let Task::Perft(depth) = task {
        let nodes = perft::perft(&mut game.clone(), depth);
        return BenchLine {
            game: G::KIND,
            position: position.to_string(),
            task,
            nodes,
            elapsed: started.elapsed(),
            value: String::new(),
        };
    }
    let (algorithm, depth) = match task {
        Task::AlphaBeta(d) => (Algorithm::AlphaBeta, Some(d)),
        Task::Full(d) => (Algorithm::Full, Some(d)),
        // No depth limit: to the end of the game.
        Task::Solve | Task::Perft(_) => (Algorithm::Full, None),
    };
    let solve = task == Task::Solve;
    let settings = EngineSettings {
        limits: Limits {
            depth,
            time: None,
            target: None,
        },
        solve,
        random_ties: false,
        candidates: if solve { 0 } else { default_candidates::<G>() },
        threads,
        tt_mb: TABLE_MB,
        ..EngineSettings::to_depth(algorithm, 0)
    };
    let evaluator = G::evaluator(&G::Options::default(), "default");
    let Some(evaluator) = evaluator else {
        unreachable!("every game has a default evaluator")
    };
    let mut rng = SmallRng::seed_from_u64(0);
    // Forget the last line (a full clear: stale entries would sway replacement decisions).
    table.clear();
    let result = search_with_table(
        game,
        &evaluator,
        &settings,
        &mut rng,
        &mut NoopObserver,
        &StopFlag::new(),
        &mut |_| {},
        Some(table),
    );
    BenchLine {
        game: G::KIND,
        position: position.to_string(),
        task,
        nodes: result.stats.nodes,
        elapsed: result.stats.elapsed,
        value: score::format::<G>(result.value),
    }
}

/// The candidate limit of the game's default options (Gomoku's 12).
fn default_candidates<G: Playable>() -> usize {
    G::Options::default().candidates()
}

fn kalah(pits: usize, stones: u16) -> Kalah {
    Kalah::new(pits, stones)
}

fn dots(rows: usize, cols: usize) -> Dots {
    Dots::new(rows, cols)
}

fn gomoku(candidates: usize) -> Gomoku {
    let options = GomokuOptions {
        candidates,
        ..GomokuOptions::default()
    };
    Gomoku::new_game(&options)
}

/// `game` after `moves` (a fixed line of the suite, legal by construction).
fn position<G: Game>(mut game: G, moves: &str) -> G {
    if let Err(e) = game.play_line(moves) {
        unreachable!("the bench line `{moves}` is legal: {e}")
    }
    game
}
