//! The command line: clap definitions and the subcommands that need no terminal UI
//! (`selfplay`, `tree`, `solve`, `perft`, and `play --text`). Each prints plain text, or one
//! JSON object per result with `--json`.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};
use serde_json::json;

use crate::brain::client::BrainLine;
use crate::config::{Config, PlayerKind};
use crate::engine::clock::{ClockReading, clock_text};
use crate::engine::limits::StopFlag;
use crate::engine::perft;
use crate::engine::score;
use crate::engine::settings::{Algorithm, EngineSettings};
use crate::engine::stats::group_digits;
use crate::engine::{Game, Player};
use crate::error::quote;
pub use crate::flags::{EngineFlags, GameFlags, options_with_flags, parse_game, start_position};
use crate::games::{GameKind, Playable};
use crate::player::{EnginePlayer, Forfeit, SidePlayer};
use crate::session::Session;

/// gametree: play Tic-tac-toe, Gomoku, Kalah and Dots and Boxes against a game-tree search
/// engine, and watch it think. With no command it opens the full-screen program.
#[derive(Debug, Parser)]
#[command(name = "gametree", version, about)]
pub struct Cli {
    /// Read settings from this file instead of the built-in defaults (see config.toml).
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// What to do; none opens the full-screen program.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a game: the full-screen program, or line mode with --text.
    Play(PlayArgs),
    /// The engine plays itself; prints every move with its value, then the result.
    Selfplay(SelfplayArgs),
    /// Prints the engine's search tree from a position, one line per node.
    Tree(TreeArgs),
    /// Solves a position exactly by full-depth search (first player's point of view).
    Solve(SolveArgs),
    /// Counts move sequences of exactly N moves (rules check and move-generation speed).
    Perft(PerftArgs),
    /// A fixed suite of searches: nodes, time and nodes/s per line, and a node signature.
    Bench(BenchArgs),
    /// Engine settings play each other: standings, Elo and the pairing matrix.
    Tournament(crate::tournament::command::TournamentArgs),
    /// Chooses an evaluator's weights by tournament (e.g. `gametree tune kalah`).
    Tune(crate::tournament::command::TuneArgs),
    /// Plays Gomoku as a Gomocup brain: the protocol on stdin and stdout (see docs/brain.md).
    Brain(crate::brain::BrainArgs),
    /// A machine interface for every game: JSON lines on stdin and stdout, for programs
    /// (GUIs, bots, autograders); see docs/protocol.md.
    Serve(crate::serve::ServeArgs),
}

/// `gametree bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Only this game's part of the suite.
    pub game: Option<String>,
    /// One JSON object per line, then one with the totals and the signature.
    #[arg(long)]
    pub json: bool,
    /// Run the full-engine lines only, with this many threads (0 = one per core), to
    /// compare time to depth; node counts then vary from run to run (no signature check).
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(0..=256))]
    pub threads: Option<u64>,
}

/// `gametree bench [GAME]`: the fixed suite (see [`crate::bench`]).
pub fn bench_command(args: &BenchArgs) -> Result<()> {
    let only = args.game.as_deref().map(parse_game).transpose()?;
    let mut out = std::io::stdout().lock();
    let mut failed: Option<std::io::Error> = None;
    if !args.json {
        writeln!(
            out,
            "{:<10} {:<30} {:<13} {:>13} {:>10} {:>8}  value",
            "game", "position", "search", "nodes", "ms", "M/s"
        )?;
    }
    let threads = args.threads.map(|t| t as usize);
    let lines = crate::bench::run(only, threads, |line| {
        let written = if args.json {
            writeln!(
                out,
                "{}",
                json!({
                    "game": line.game.name(),
                    "position": line.position,
                    "search": line.task.to_string(),
                    "nodes": line.nodes,
                    "millis": micros(line.elapsed),
                    "nodes_per_second": line.nodes_per_second().round(),
                    "value": line.value,
                })
            )
        } else {
            writeln!(
                out,
                "{:<10} {:<30} {:<13} {:>13} {:>10.3} {:>8.2}  {}",
                line.game.name(),
                line.position,
                line.task.to_string(),
                group_digits(line.nodes),
                line.elapsed.as_secs_f64() * 1000.0,
                line.nodes_per_second() / 1e6,
                line.value
            )
        };
        if let Err(e) = written {
            failed.get_or_insert(e);
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    let signature = crate::bench::signature(&lines);
    // Perft leaves are far cheaper than search nodes: the speed total is over searches only.
    let searches = lines
        .iter()
        .filter(|l| !matches!(l.task, crate::bench::Task::Perft(_)));
    let (nodes, elapsed) = searches.fold((0, std::time::Duration::ZERO), |(n, t), l| {
        (n + l.nodes, t + l.elapsed)
    });
    let nps = nodes as f64 / elapsed.as_secs_f64().max(1e-9);
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"search_nodes": nodes, "search_millis": micros(elapsed), "nodes_per_second": nps.round(), "signature": signature})
        )?;
    } else {
        writeln!(
            out,
            "\nsearches: {} nodes in {:.3} s, {:.2} M nodes/s\nsignature {signature}",
            group_digits(nodes),
            elapsed.as_secs_f64(),
            nps / 1e6
        )?;
    }
    Ok(())
}

/// Milliseconds with microsecond precision.
fn micros(d: std::time::Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1000.0
}

/// Which sides a human plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Humans {
    /// The human moves first.
    First,
    /// The human moves second.
    Second,
    /// Human against human.
    Both,
    /// The engine plays itself.
    None,
}

/// `gametree play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// tictactoe, gomoku, kalah or dots (not needed with --load).
    pub game: Option<String>,
    /// Line mode at the prompt instead of the full-screen program: for people. Programs
    /// are better served by `gametree serve` (JSON lines, every game; docs/protocol.md).
    #[arg(long)]
    pub text: bool,
    /// With --text: no board redraws and no prompts, only the engine's moves and the
    /// result; a refused line (illegal move, nothing to undo) ends the program with its
    /// error on stderr and exit status 1.
    #[arg(long, requires = "text")]
    pub quiet: bool,
    /// Which sides a human plays (default: from the config).
    #[arg(long, value_enum)]
    pub human: Option<Humans>,
    /// Open a saved game.
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,
    /// An external Gomocup brain (Gomoku only) plays the sides the engine would: its
    /// program and arguments as one string split at spaces (`--brain "pbrain-x --fast"`);
    /// `--time-ms` is its time per move. See docs/brain.md.
    #[arg(long, value_name = "CMD")]
    pub brain: Option<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game_flags: GameFlags,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub engine: EngineFlags,
}

/// The sides `selfplay --brain` plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BrainSide {
    /// The side moving first (Black).
    First,
    /// The side moving second (White).
    Second,
    /// Both: the brain plays itself.
    Both,
}

/// Makes `side` an external brain started by `command` (program and arguments split at
/// spaces).
pub fn set_brain(side: &mut crate::config::SideConfig, command: &str) -> Result<()> {
    let mut words = command.split_whitespace().map(ToString::to_string);
    let Some(program) = words.next() else {
        bail!("--brain: name the brain's program (like --brain ./pbrain-x)")
    };
    side.kind = PlayerKind::Brain;
    side.brain = crate::config::BrainCommand {
        command: program,
        args: words.collect(),
    };
    Ok(())
}

/// `gametree selfplay`.
#[derive(Debug, Args)]
pub struct SelfplayArgs {
    /// tictactoe, gomoku, kalah or dots.
    pub game: String,
    /// One JSON object per move and one for the result.
    #[arg(long)]
    pub json: bool,
    /// Stop after this many moves (0 = play to the end).
    #[arg(long, allow_negative_numbers = true, default_value_t = 0)]
    pub max_moves: usize,
    /// An external Gomocup brain (Gomoku only) plays `--brain-side` against the engine: its
    /// program and arguments as one string split at spaces (`--brain "pbrain-x --fast"`);
    /// `--time-ms` is its time per move. See docs/brain.md.
    #[arg(long, value_name = "CMD")]
    pub brain: Option<String>,
    /// Which side the `--brain` plays.
    #[arg(long, value_enum, default_value_t = BrainSide::Second, requires = "brain")]
    pub brain_side: BrainSide,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game_flags: GameFlags,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub engine: EngineFlags,
}

/// Output formats of `gametree tree`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TreeFormat {
    /// An indented tree, one node per line.
    Text,
    /// Nodes with ids and parent ids and every recorded field.
    Json,
    /// Graphviz DOT: cut-off branches dashed, the principal variation bold.
    Dot,
}

/// `gametree tree`.
#[derive(Debug, Args)]
pub struct TreeArgs {
    /// tictactoe, gomoku, kalah or dots.
    pub game: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TreeFormat::Text)]
    pub format: TreeFormat,
    /// The same as `--format json`: one JSON object.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Record at most this many nodes (default: `tree.max_nodes` from the config).
    #[arg(long, allow_negative_numbers = true)]
    pub max_nodes: Option<usize>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game_flags: GameFlags,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub engine: EngineFlags,
}

/// `gametree solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// tictactoe, gomoku, kalah or dots.
    pub game: String,
    /// Print one JSON object: `value`, `best_move`, `nodes`, `millis` (the search), `table_millis`.
    #[arg(long)]
    pub json: bool,
    /// Search threads (0 = one per core).
    #[arg(long, allow_negative_numbers = true, default_value_t = 1, value_parser = clap::value_parser!(u64).range(0..=256))]
    pub threads: u64,
    /// Transposition table size in MiB. Small games solve fastest in a small table that
    /// stays in the processor's caches (Kalah(4,3): 2.8 ms at 1 MiB, 11 ms at 64 MiB).
    #[arg(long, allow_negative_numbers = true, value_name = "MB", default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    pub tt_mb: u64,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game_flags: GameFlags,
}

/// `gametree perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// tictactoe, gomoku, kalah or dots.
    pub game: String,
    /// Moves per sequence (at most 64, as the engine's `--depth`).
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub depth: u32,
    /// List the count under each first move.
    #[arg(long)]
    pub divide: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game_flags: GameFlags,
}

/// Loads the config named on the command line, or the built-in one.
pub fn load_config(path: Option<&PathBuf>) -> Result<Config> {
    Ok(match path {
        Some(p) => Config::load(p)?,
        None => Config::builtin()?,
    })
}

/// The config with the command line's game options and engine flags written in, for the TUI.
pub fn config_for_play<G: Playable>(mut config: Config, args: &PlayArgs) -> Result<Config> {
    let options = options_with_flags::<G>(&config, &args.game_flags)?;
    args.engine.validate::<G>(&options)?;
    config.games.set::<G>(options);
    config.game = G::KIND;
    for player in [Player::First, Player::Second] {
        let side = config.players.side_mut(player);
        args.engine.apply(&mut side.engine)?;
        if let Some(humans) = args.human {
            let human = matches!(
                (humans, player),
                (Humans::Both, _)
                    | (Humans::First, Player::First)
                    | (Humans::Second, Player::Second)
            );
            side.kind = if human {
                PlayerKind::Human
            } else {
                PlayerKind::Engine
            };
        }
        if let Some(command) = &args.brain
            && side.kind != PlayerKind::Human
        {
            set_brain(side, command)?;
        }
    }
    config.validate()?;
    Ok(config)
}

fn engines<G: Playable>(
    config: &Config,
    options: &G::Options,
    flags: &EngineFlags,
) -> Result<[SidePlayer<G>; 2]> {
    flags.validate::<G>(options)?;
    let make = |player: Player| -> Result<SidePlayer<G>> {
        let mut side = config.players.side(player).clone();
        flags.apply(&mut side.engine)?;
        Ok(SidePlayer::new(
            &side,
            options,
            "command line",
            &format!("players.{player}"),
        )?)
    };
    Ok([make(Player::First)?, make(Player::Second)?])
}

fn outcome_text<G: Playable>(game: &G) -> String {
    match game.outcome() {
        Some(crate::engine::Outcome::Win { winner, margin }) => match G::SCORING {
            crate::engine::Scoring::Margin => {
                format!(
                    "{} ({winner} player) wins by {margin}",
                    G::side_name(winner)
                )
            }
            crate::engine::Scoring::WinLoss => {
                format!("{} ({winner} player) wins", G::side_name(winner))
            }
        },
        Some(crate::engine::Outcome::Draw) => "draw".to_string(),
        None => "unfinished".to_string(),
    }
}

/// `gametree selfplay GAME`.
pub fn selfplay<G: Playable>(config: &Config, args: &SelfplayArgs) -> Result<()> {
    let options = options_with_flags::<G>(config, &args.game_flags)?;
    let mut game: G = start_position(&options, &args.game_flags)?;
    let mut config = config.clone();
    if let Some(command) = &args.brain {
        for player in [Player::First, Player::Second] {
            let plays = matches!(
                (args.brain_side, player),
                (BrainSide::Both, _)
                    | (BrainSide::First, Player::First)
                    | (BrainSide::Second, Player::Second)
            );
            if plays {
                set_brain(config.players.side_mut(player), command)?;
            }
        }
    }
    let mut players = engines::<G>(&config, &options, &args.engine)?;
    prepare_for_command::<G>(&options)?;
    let mut out = std::io::stdout().lock();
    if !args.json {
        let describe = |p: &SidePlayer<G>| match p.seed() {
            Some(seed) => format!("seed {seed}"),
            None => format!("brain {}", p.name()),
        };
        writeln!(
            out,
            "{} selfplay; first: {}, second: {}\n{game}",
            G::KIND.title(),
            describe(&players[0]),
            describe(&players[1])
        )?;
    }
    let stop = StopFlag::new();
    let mut ply = 0;
    let mut forfeit: Option<(Player, Forfeit)> = None;
    // The time each engine side's moves took, for its match clock (a brain keeps its own).
    let mut used = [Duration::ZERO; 2];
    while game.outcome().is_none() && (args.max_moves == 0 || ply < args.max_moves) {
        let mover = game.to_move();
        let mut lines = Vec::new();
        let reading = ClockReading {
            ply,
            used: used[mover.index()],
        };
        let asked = Instant::now();
        let played = players[mover.index()].play(&game, reading, &stop, &mut |_| {}, &mut |line| {
            lines.push(line);
        });
        let reading = reading.after(asked.elapsed());
        used[mover.index()] = reading.used;
        let result = match played {
            Ok(result) => result,
            Err(lost) => {
                forfeit = Some((mover, lost));
                break;
            }
        };
        let Some(mv) = result.best else { break };
        let notation = game.format_move(mv);
        game.try_play(mv)?;
        ply += 1;
        if let SidePlayer::Brain(brain) = &players[mover.index()] {
            let messages: Vec<String> = lines
                .iter()
                .filter_map(|line| match line {
                    BrainLine::Message(text) => Some(text.clone()),
                    BrainLine::Debug(_) => None,
                })
                .collect();
            if args.json {
                let line = json!({
                    "ply": ply, "player": mover.to_string(), "move": notation,
                    "brain": brain.name(), "millis": json_millis(result.stats.elapsed),
                    "messages": messages,
                });
                writeln!(out, "{line}")?;
            } else {
                writeln!(
                    out,
                    "{ply:>3}. {:<6} {notation:<8} brain {}  {:>9.1} ms{}",
                    G::side_name(mover),
                    brain.name(),
                    result.stats.millis(),
                    messages
                        .last()
                        .map_or_else(String::new, |m| format!("  ({m})"))
                )?;
            }
            continue;
        }
        let clock_left = players[mover.index()]
            .engine_mut()
            .and_then(|engine| engine.clock_left(reading));
        if args.json {
            let stats = &result.stats;
            let mut line = json!({
                "ply": ply, "player": mover.to_string(), "move": notation,
                "value": result.value, "nodes": stats.nodes, "millis": json_millis(stats.elapsed),
                "leaf_evals": stats.leaf_evals, "cutoffs": stats.cutoffs,
                "nps": stats.nodes_per_second().round(), "depth": stats.depth,
                "pv": result.pv.iter().map(|&m| format_pv_move(&game, m)).collect::<Vec<_>>(),
            });
            if let (Some(left), Some(line)) = (clock_left, line.as_object_mut()) {
                line.insert("clock_ms".to_string(), json!(left.as_millis() as u64));
            }
            writeln!(out, "{line}")?;
        } else {
            writeln!(
                out,
                "{ply:>3}. {:<6} {notation:<8} value {:>10}  depth {:>2}  nodes {:>12}  {:>9.1} ms{}",
                G::side_name(mover),
                score::format::<G>(result.value),
                result.stats.depth,
                group_digits(result.stats.nodes),
                result.stats.millis(),
                clock_left.map_or_else(String::new, |left| format!("  clock {}", clock_text(left)))
            )?;
        }
    }
    if let Some((loser, lost)) = forfeit {
        let winner = loser.other();
        let text = format!("{} ({winner} player) wins: {lost}", G::side_name(winner));
        let value = if winner == Player::First { 1 } else { -1 };
        if args.json {
            writeln!(
                out,
                "{}",
                json!({"result": text, "value": value, "moves": ply, "forfeit": lost.reason})
            )?;
        } else {
            writeln!(out, "\n{game}\nresult: {text}")?;
        }
        return Ok(());
    }
    let value = game.outcome().map(|o| o.value_for(Player::First));
    if args.json {
        writeln!(
            out,
            "{}",
            json!({"result": outcome_text(&game), "value": value, "moves": ply})
        )?;
    } else {
        writeln!(out, "\n{game}\nresult: {}", outcome_text(&game))?;
    }
    Ok(())
}

/// A duration as JSON milliseconds with microsecond precision (`0.435`, not `0.43524999`).
fn json_millis(elapsed: std::time::Duration) -> f64 {
    elapsed.as_micros() as f64 / 1000.0
}

/// Notation of a move in a PV. PV moves are formatted against the root's notation, which for
/// every game here does not depend on the position.
fn format_pv_move<G: Game>(game: &G, mv: G::Move) -> String {
    game.format_move(mv)
}

/// `gametree solve GAME`: exact value by full-depth search over every legal move. Builds or
/// loads what the game's search uses first (Kalah's endgame database, timed apart), prints
/// progress on stderr while it runs, and stops on Ctrl-C with the bounds proved so far.
pub fn solve<G: Playable>(config: &Config, args: &SolveArgs) -> Result<()> {
    let options = options_with_flags::<G>(config, &args.game_flags)?;
    let game: G = start_position(&options, &args.game_flags)?;
    let evaluator = crate::games::evaluator_for::<G>(&options, "default", "solve", "evaluator")?;
    let stop = crate::tournament::command::interrupt_flag();
    let prepared = prepare_search::<G>(&options, &stop)?;
    if let Some(line) = &prepared
        && !args.json
    {
        writeln!(std::io::stdout(), "{line}")?;
    }
    let settings = EngineSettings {
        limits: crate::engine::limits::Limits::default(),
        solve: true,
        random_ties: false,
        threads: args.threads as usize,
        tt_mb: args.tt_mb as usize,
        ..EngineSettings::to_depth(Algorithm::Full, 0)
    };
    let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(0);
    // The table is made and every page of it touched before the clock starts, as an engine
    // does at start-up: the search time is the solve's alone.
    let preparing = std::time::Instant::now();
    // Refused rather than shrunk: every page of it is touched next.
    let table = crate::engine::tt::TranspositionTable::try_new(settings.tt_mb)
        .with_context(|| format!("--tt-mb {}", settings.tt_mb))?;
    table.clear();
    let prepared_table = preparing.elapsed();
    let sign = game.to_move().sign();
    let mut last_report = std::time::Instant::now();
    let mut report = |r: &crate::engine::result::SearchResult<G::Move>| {
        if last_report.elapsed() >= SOLVE_PROGRESS_INTERVAL {
            last_report = std::time::Instant::now();
            eprintln!("{}", solve_progress::<G>(&r.stats, sign));
        }
    };
    let result = crate::engine::full::search(
        &game,
        &evaluator,
        &settings,
        &mut rng,
        &mut crate::engine::tree::NoopObserver,
        &stop,
        &mut report,
        Some(&table),
    );
    if !result.completed {
        let (lower, upper) = proved_bounds::<G>(&result.stats, sign);
        if args.json {
            writeln!(
                std::io::stdout(),
                "{}",
                json!({"stopped": true, "lower": lower, "upper": upper, "nodes": result.stats.nodes, "millis": json_millis(result.stats.elapsed), "endgame": prepared})
            )?;
        } else {
            writeln!(
                std::io::stdout(),
                "stopped after {:.1} s: the value is proved to lie in [{lower:+}, {upper:+}] \
                 (first player's view)\nnodes {}",
                result.stats.elapsed.as_secs_f64(),
                group_digits(result.stats.nodes),
            )?;
        }
        return Ok(());
    }
    let value = score::game_value::<G>(result.value) * sign;
    let best = result.best.map(|m| game.format_move(m));
    if args.json {
        writeln!(
            std::io::stdout(),
            "{}",
            json!({"value": value, "best_move": best, "nodes": result.stats.nodes, "millis": json_millis(result.stats.elapsed), "table_millis": json_millis(prepared_table), "endgame_hits": result.stats.endgame_hits, "endgame": prepared})
        )?;
    } else {
        let meaning = match (G::SCORING, value.signum()) {
            (crate::engine::Scoring::WinLoss, 1) => "first player wins".to_string(),
            (crate::engine::Scoring::WinLoss, -1) => "second player wins".to_string(),
            (crate::engine::Scoring::Margin, 1) => format!("first player wins by {value}"),
            (crate::engine::Scoring::Margin, -1) => format!("second player wins by {}", -value),
            _ => "draw".to_string(),
        };
        writeln!(
            std::io::stdout(),
            "value {value:+} ({meaning})\nbest move {}\nnodes {}\ntime {:.3} ms (and {:.1} ms to \
             prepare the {} MiB table)",
            best.as_deref().unwrap_or("none (game over)"),
            group_digits(result.stats.nodes),
            result.stats.millis(),
            prepared_table.as_secs_f64() * 1000.0,
            settings.tt_mb
        )?;
        if result.stats.endgame_hits > 0 {
            writeln!(
                std::io::stdout(),
                "endgame database answered {} nodes; deepest ply {}",
                group_digits(result.stats.endgame_hits),
                result.stats.max_ply
            )?;
        }
    }
    Ok(())
}

/// How often `solve` prints its progress.
const SOLVE_PROGRESS_INTERVAL: std::time::Duration = std::time::Duration::from_secs(1);

/// Loads or builds what `G`'s searches use (Kalah's endgame database) with a progress bar on
/// stderr when it is a terminal; Ctrl-C (`stop`) ends the build.
pub fn prepare_search<G: Playable>(
    options: &G::Options,
    stop: &StopFlag,
) -> Result<Option<String>> {
    use std::io::IsTerminal;
    let bar = if std::io::stderr().is_terminal() {
        let bar =
            indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr());
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "building the endgame database {bar:40} {percent}% {pos}/{len} positions, {elapsed} (eta {eta})",
        ) {
            bar.set_style(style);
        }
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let result = G::prepare_search(
        options,
        &mut |done, total| {
            bar.set_length(total);
            bar.set_position(done);
        },
        stop,
    );
    bar.finish_and_clear();
    result
}

/// [`prepare_search`] before a command that searches (`play --text`, `selfplay`, `tree`): the
/// progress bar while a database is built, and what was done on stderr when that is a
/// terminal, so that the command's output stays the same for scripts. Ctrl-C during a build
/// ends the program (the cache file is written whole or not at all).
fn prepare_for_command<G: Playable>(options: &G::Options) -> Result<()> {
    use std::io::IsTerminal;
    let prepared = prepare_search::<G>(options, &StopFlag::new())?;
    if let Some(line) = prepared
        && std::io::stderr().is_terminal()
    {
        eprintln!("{line}");
    }
    Ok(())
}

/// The root value bounds a solve has proved so far, as the first player's margin (or win
/// / loss), lowest first.
fn proved_bounds<G: Game>(stats: &crate::engine::stats::SearchStats, sign: i32) -> (i32, i32) {
    let (low, high) = stats
        .solve_bounds
        .unwrap_or((-score::INFINITY, score::INFINITY));
    let (low, high) = (
        score::game_value::<G>(low) * sign,
        score::game_value::<G>(high) * sign,
    );
    (low.min(high), low.max(high))
}

/// One line of a running solve's progress: bounds proved, nodes, time, deepest ply.
fn solve_progress<G: Game>(stats: &crate::engine::stats::SearchStats, sign: i32) -> String {
    let (lower, upper) = proved_bounds::<G>(stats, sign);
    let secs = stats.elapsed.as_secs_f64();
    format!(
        "{secs:>8.1} s  value in [{lower:+}, {upper:+}]  nodes {} ({:.1} M/s)  deepest ply {}  \
         database hits {}",
        group_digits(stats.nodes),
        stats.nodes_per_second() / 1e6,
        stats.max_ply,
        group_digits(stats.endgame_hits),
    )
}

/// `gametree perft GAME --depth N`.
pub fn perft_command<G: Playable>(config: &Config, args: &PerftArgs) -> Result<()> {
    let options = options_with_flags::<G>(config, &args.game_flags)?;
    let mut game: G = start_position(&options, &args.game_flags)?;
    let started = std::time::Instant::now();
    let (total, divided) = if args.divide {
        let d = perft::divide(&mut game, args.depth);
        (d.iter().map(|&(_, n)| n).sum(), d)
    } else {
        (perft::perft(&mut game, args.depth), Vec::new())
    };
    let elapsed = started.elapsed();
    let secs = elapsed.as_secs_f64();
    let nps = if secs > 0.0 { total as f64 / secs } else { 0.0 };
    if args.json {
        let divide: serde_json::Map<String, serde_json::Value> = divided
            .iter()
            .map(|&(m, n)| (game.format_move(m), json!(n)))
            .collect();
        writeln!(
            std::io::stdout(),
            "{}",
            json!({"depth": args.depth, "nodes": total, "millis": json_millis(elapsed), "divide": divide})
        )?;
    } else {
        for &(m, n) in &divided {
            writeln!(std::io::stdout(), "{:<8} {n}", game.format_move(m))?;
        }
        writeln!(
            std::io::stdout(),
            "perft {} = {} ({:.3} ms, {:.1} M leaves/s)",
            args.depth,
            total,
            secs * 1000.0,
            nps / 1e6
        )?;
    }
    Ok(())
}

/// `gametree tree GAME --depth N`: the recorded search tree.
pub fn tree<G: Playable>(config: &Config, args: &TreeArgs) -> Result<()> {
    let options = options_with_flags::<G>(config, &args.game_flags)?;
    let game: G = start_position(&options, &args.game_flags)?;
    args.engine.validate::<G>(&options)?;
    let mut side = config.players.second.clone();
    side.kind = PlayerKind::Engine;
    // Plain alpha-beta unless asked otherwise: its tree is the one that teaches pruning
    // (the full engine's is its last iteration, with table hits and null-window re-searches).
    side.engine.algorithm = Algorithm::AlphaBeta;
    args.engine.apply(&mut side.engine)?;
    let mut engine = EnginePlayer::<G>::new(&side, &options, "command line", "players.second")?;
    let max_nodes = args.max_nodes.unwrap_or(config.tree.max_nodes);
    if !(1..=10_000_000).contains(&max_nodes) {
        bail!("--max-nodes {max_nodes}: must be 1..=10000000");
    }
    let format = if args.json {
        TreeFormat::Json
    } else {
        args.format
    };
    if let Some(fit) = recorded_nodes_that_fit::<G>(format)
        && max_nodes > fit
    {
        bail!(
            "--max-nodes {max_nodes}: must be at most {fit} with this machine's available memory"
        );
    }
    prepare_for_command::<G>(&options)?;
    let stop = StopFlag::new();
    // Only the full engine keeps time itself; the others stop when the flag is raised.
    let timer = side
        .engine
        .limits
        .time
        .filter(|_| side.engine.algorithm != Algorithm::Full)
        .map(|time| stop_after(stop.clone(), time));
    let (result, tree) = engine.think_recorded(&game, max_nodes, &stop);
    drop(timer);
    let best = result.best.map(|m| game.format_move(m));
    let stopped = if result.completed {
        ""
    } else {
        " (stopped by --time-ms: best of the root moves searched)"
    };
    match format {
        TreeFormat::Text => {
            let exported = crate::export::export(&game, &tree);
            drop(tree);
            let mut out = std::io::stdout().lock();
            write!(out, "{}", crate::export::to_text::<G>(&exported))?;
            writeln!(
                out,
                "best {} value {} nodes {} cut-offs {}{stopped}",
                best.as_deref().unwrap_or("none"),
                score::format::<G>(result.value),
                result.stats.nodes,
                result.stats.cutoffs,
            )?;
        }
        TreeFormat::Json => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            crate::export::write_json(
                &mut out,
                &game,
                &tree,
                &[
                    ("best_move", json!(best)),
                    ("value", json!(result.value)),
                    ("completed", json!(result.completed)),
                    ("stats", serde_json::to_value(result.stats)?),
                ],
            )?;
            out.flush()?;
        }
        TreeFormat::Dot => {
            let exported = crate::export::export(&game, &tree);
            drop(tree);
            write!(
                std::io::stdout(),
                "{}",
                crate::export::to_dot::<G>(&exported)
            )?;
        }
    }
    Ok(())
}

/// How many recorded nodes `tree` can hold in half the machine's available memory, `None`
/// where that is not known. Text and DOT build their whole output as well; JSON streams.
fn recorded_nodes_that_fit<G: Game>(format: TreeFormat) -> Option<usize> {
    // The recorder's node, its growing arena (up to twice the length) and the children
    // lists; for text and DOT the exported node, its line and the child lists of the export.
    let recorded = 2 * std::mem::size_of::<crate::engine::tree::TreeNode<G::Move>>() + 16;
    let per_node = match format {
        TreeFormat::Json => recorded,
        TreeFormat::Text | TreeFormat::Dot => recorded + 400,
    };
    let available = crate::engine::tt::available_memory_mb()?;
    Some((available << 20) / 2 / per_node)
}

/// Raises `stop` after `limit` unless the returned guard is dropped first.
fn stop_after(stop: StopFlag, limit: std::time::Duration) -> std::sync::mpsc::Sender<()> {
    let (done, finished) = std::sync::mpsc::channel::<()>();
    // Without a thread the limit cannot be kept; the search then runs to its depth.
    let _ = std::thread::Builder::new()
        .name("gametree-tree-timer".to_string())
        .spawn(move || {
            if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = finished.recv_timeout(limit) {
                stop.raise();
            }
        });
    done
}

/// The longest line `play --text` reads as a command: more is skipped to its end and
/// refused, so that endless input without a line end cannot fill the memory.
const TEXT_LINE_LIMIT: usize = 64 * 1024;

/// `gametree play GAME --text`: line mode at the prompt. Refused lines are reported on
/// stderr; with `quiet`, no board or prompt is printed and the first refused line ends the
/// program with an error.
pub fn play_text<G: Playable>(config: &Config, moves: Option<&str>, quiet: bool) -> Result<()> {
    let options = config.game_options::<G>()?;
    let mut session = Session::<G>::new(options.clone());
    for (i, text) in moves.unwrap_or("").split_whitespace().enumerate() {
        let mv = session
            .current()
            .parse_move(text)
            .with_context(|| format!("--moves: move {} ({})", i + 1, quote(text)))?;
        session
            .play(mv, None)
            .with_context(|| format!("--moves: move {} ({})", i + 1, quote(text)))?;
    }
    let kinds = [config.players.first.kind, config.players.second.kind];
    let is_human = |p: Player| kinds[p.index()] == PlayerKind::Human;
    let mut players = engines::<G>(config, &options, &EngineFlags::default())?;
    prepare_for_command::<G>(&options)?;
    let mut input = std::io::stdin().lock();
    let stop = StopFlag::new();
    if !quiet {
        writeln!(
            std::io::stdout(),
            "{} — type a move, `undo`, `hint`, `moves` or `quit`.{}\n",
            G::KIND.title(),
            if G::KIND == GameKind::Kalah {
                "\nThe numbers left and right of the pits are the stores: North's left, South's right."
            } else {
                ""
            }
        )?;
    }
    // A refused line: on stderr; in quiet mode (a script) it ends the program.
    let refuse = |message: String| -> Result<()> {
        if quiet {
            bail!("{message}");
        }
        eprintln!("{message}");
        Ok(())
    };
    // Who moved last, to announce a second move in a row (Kalah's and Dots' extra turns).
    let mut last_mover: Option<Player> = None;
    // A human on a match clock is charged the time since its position was first shown.
    let mut turn: Option<((usize, usize), Instant)> = None;
    loop {
        let game = session.current().clone();
        let position = (session.cursor(), session.steps().len());
        if turn.is_none_or(|(shown, _)| shown != position) {
            turn = Some((position, Instant::now()));
        }
        let thinking = turn.map_or(Duration::ZERO, |(_, since)| since.elapsed());
        if game.outcome().is_some() {
            // The result line says it; a board that states it as well would say it twice.
            let board = game.to_string();
            for line in board
                .lines()
                .filter(|l| !quiet && !l.starts_with("Game over"))
            {
                writeln!(std::io::stdout(), "{line}")?;
            }
            writeln!(std::io::stdout(), "result: {}", outcome_text(&game))?;
            return Ok(());
        }
        if !quiet {
            writeln!(std::io::stdout(), "{game}")?;
        }
        let mover = game.to_move();
        if last_mover == Some(mover) && session.cursor() > 0 {
            writeln!(
                std::io::stdout(),
                "{} moves again (extra turn)\n",
                G::side_name(mover)
            )?;
        }
        if !is_human(mover) {
            let player = &mut players[mover.index()];
            let reading = session.clock_reading(mover);
            let asked = Instant::now();
            let played = player.play(&game, reading, &stop, &mut |_| {}, &mut |line| {
                if let BrainLine::Message(text) = line {
                    let _ = writeln!(std::io::stdout(), "  {text}");
                }
            });
            let spent = asked.elapsed();
            let result = match played {
                Ok(result) => result,
                Err(lost) => {
                    let winner = mover.other();
                    writeln!(
                        std::io::stdout(),
                        "result: {} ({winner} player) wins: {lost}",
                        G::side_name(winner)
                    )?;
                    return Ok(());
                }
            };
            let Some(mv) = result.best else {
                bail!("the engine found no move")
            };
            if let SidePlayer::Brain(brain) = player {
                writeln!(
                    std::io::stdout(),
                    "{} plays {}  (brain {}, {:.1} ms)\n",
                    G::side_name(mover),
                    game.format_move(mv),
                    brain.name(),
                    result.stats.millis()
                )?;
            } else {
                let clock_left = player
                    .engine_mut()
                    .and_then(|engine| engine.clock_left(reading.after(spent)));
                writeln!(
                    std::io::stdout(),
                    "{} plays {}  (value {}, {} nodes, {:.1} ms{})\n",
                    G::side_name(mover),
                    game.format_move(mv),
                    score::format::<G>(result.value),
                    group_digits(result.stats.nodes),
                    result.stats.millis(),
                    clock_left
                        .map_or_else(String::new, |left| format!(", clock {}", clock_text(left)))
                )?;
            }
            session.play_timed(mv, Some(result.value), spent)?;
            last_mover = Some(mover);
            continue;
        }
        let clock = config.players.side(mover).clock();
        if !quiet {
            let left = clock.map_or_else(String::new, |limit| {
                let reading = session.clock_reading(mover).after(thinking);
                format!(" ({})", clock_text(reading.left(limit)))
            });
            write!(std::io::stdout(), "{} to move{left}> ", G::side_name(mover))?;
            std::io::stdout().flush()?;
        }
        let bytes = match crate::serve::lines::read_line_bounded(&mut input, TEXT_LINE_LIMIT)? {
            Some(Ok(bytes)) => bytes,
            Some(Err(length)) => {
                refuse(format!(
                    "that line is {} bytes long, more than a move needs (at most {}); type a \
                     move, `undo`, `hint`, `moves` or `quit`",
                    group_digits(length as u64),
                    group_digits(TEXT_LINE_LIMIT as u64)
                ))?;
                continue;
            }
            None => {
                // End of input (Ctrl-D): the shell's prompt goes on a line of its own.
                if !quiet {
                    writeln!(std::io::stdout())?;
                }
                return Ok(());
            }
        };
        let Ok(line) = String::from_utf8(bytes) else {
            refuse(
                "that line is not valid UTF-8; type a move, `undo`, `hint`, `moves` or `quit`"
                    .to_string(),
            )?;
            continue;
        };
        last_mover = None;
        match line.trim() {
            "" => {}
            "quit" | "q" | "exit" => return Ok(()),
            "undo" | "u" => {
                if session.undo_turn(is_human) == 0 {
                    refuse("nothing to undo".to_string())?;
                }
            }
            "moves" => {
                let mut moves = Vec::new();
                game.legal_moves(&mut moves);
                let list: Vec<_> = moves.iter().map(|&m| game.format_move(m)).collect();
                writeln!(std::io::stdout(), "legal: {}\n", list.join(" "))?;
            }
            "hint" | "h" => {
                let Some(engine) = players[mover.index()].engine_mut() else {
                    continue;
                };
                let result = engine.think(&game, &stop, &mut |_| {});
                if let Some(mv) = result.best {
                    writeln!(
                        std::io::stdout(),
                        "hint: {} (value {})\n",
                        game.format_move(mv),
                        score::format::<G>(result.value)
                    )?;
                }
            }
            text => match game.parse_move(text) {
                Ok(mv) => {
                    let played = match clock {
                        Some(limit) => {
                            let spent = turn.map_or(Duration::ZERO, |(_, since)| since.elapsed());
                            let reading = session.clock_reading(mover).after(spent);
                            if reading.run_out(limit) {
                                let winner = mover.other();
                                writeln!(
                                    std::io::stdout(),
                                    "result: {} ({winner} player) wins: {} ran out of its match \
                                     time ({} ms of {} ms)",
                                    G::side_name(winner),
                                    G::side_name(mover),
                                    reading.used.as_millis(),
                                    limit.as_millis()
                                )?;
                                return Ok(());
                            }
                            session.play_timed(mv, None, spent)
                        }
                        None => session.play(mv, None),
                    };
                    match played {
                        Ok(()) => last_mover = Some(mover),
                        Err(e) => refuse(e.to_string())?,
                    }
                }
                Err(e) => refuse(e.to_string())?,
            },
        }
    }
}

/// Runs the parsed command line; `tui` is called for the full-screen program. Output cut
/// short by its reader (`gametree perft ... | head`) ends the command quietly.
pub fn run(cli: Cli) -> Result<()> {
    match run_command(cli) {
        Err(e) if is_broken_pipe(&e) => Ok(()),
        result => result,
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// `play --load` takes the game, its options and the players from the save: a flag that
/// would set them is refused, naming it, rather than silently ignored.
fn refuse_with_load(args: &PlayArgs) -> Result<()> {
    let mut given: Vec<String> = Vec::new();
    if let Some(game) = &args.game {
        given.push(crate::error::quote(game));
    }
    if args.human.is_some() {
        given.push("--human".to_string());
    }
    if args.brain.is_some() {
        given.push("--brain".to_string());
    }
    if args.game_flags.moves.is_some() {
        given.push("--moves".to_string());
    }
    given.extend(
        args.game_flags
            .given
            .iter()
            .map(|(key, _)| format!("--{}", key.replace('_', "-"))),
    );
    given.extend(
        args.engine
            .given
            .iter()
            .map(|(field, _)| format!("--{}", field.flag())),
    );
    if !given.is_empty() {
        bail!(
            "play --load takes the game, its options and the players from the save; drop {}",
            given.join(", ")
        );
    }
    Ok(())
}

fn run_command(cli: Cli) -> Result<()> {
    let config = load_config(cli.config.as_ref())?;
    match cli.command {
        None => crate::tui::run(config, crate::tui::Start::Setup),
        Some(Command::Play(args)) => {
            if let Some(path) = &args.load {
                if args.text {
                    bail!("play --load opens the full-screen program; drop --text");
                }
                refuse_with_load(&args)?;
                // Refuse a damaged save here, naming the file, before the terminal changes.
                crate::tui::read_saved(path).with_context(|| path.display().to_string())?;
                return crate::tui::run(config, crate::tui::Start::Load(path.clone()));
            }
            let Some(name) = args.game.as_deref() else {
                bail!("play: name a game (tictactoe, gomoku, kalah, dots) or use --load FILE")
            };
            let kind = parse_game(name)?;
            crate::with_game!(kind, G => {
                let config = config_for_play::<G>(config, &args)?;
                let moves = args.game_flags.moves.clone().unwrap_or_default();
                // Refuse bad --moves here, before the terminal changes.
                start_position::<G>(&config.game_options::<G>()?, &args.game_flags)?;
                if args.text {
                    play_text::<G>(&config, Some(&moves), args.quiet)
                } else {
                    crate::tui::run(config, crate::tui::Start::Play { game: kind, moves })
                }
            })
        }
        Some(Command::Selfplay(args)) => {
            let kind = parse_game(&args.game)?;
            crate::with_game!(kind, G => selfplay::<G>(&config, &args))
        }
        Some(Command::Tree(args)) => {
            let kind = parse_game(&args.game)?;
            crate::with_game!(kind, G => tree::<G>(&config, &args))
        }
        Some(Command::Solve(args)) => {
            let kind = parse_game(&args.game)?;
            crate::with_game!(kind, G => solve::<G>(&config, &args))
        }
        Some(Command::Perft(args)) => {
            let kind = parse_game(&args.game)?;
            crate::with_game!(kind, G => perft_command::<G>(&config, &args))
        }
        Some(Command::Bench(args)) => bench_command(&args),
        Some(Command::Tournament(args)) => crate::tournament::command::tournament(&config, &args),
        Some(Command::Tune(args)) => crate::tournament::command::tune(&config, &args),
        Some(Command::Brain(args)) => crate::brain::run(&config, &args),
        Some(Command::Serve(args)) => crate::serve::run(&config, &args),
    }
}
