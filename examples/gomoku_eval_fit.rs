//! Research: fits the weights of Gomoku's "patterns" evaluator to labelled positions
//! (Texel's method), so the next person can try it again. docs/performance.md ("Wave 23")
//! says how it was used and what the fitted weights did in matches: they did not pay.
//!
//! stdin, either or both of:
//! - games (`gametree tournament --games-out` lines: `game first second result margin
//!   opening_plies moves`): every position from `--skip` plies past the opening is labelled
//!   with the game's result for the side to move (1, 0.5, 0);
//! - labelled positions, `moves<TAB>value` or `moves<TAB>move<TAB>value` (15x15 freestyle,
//!   gametree notation; the value a strong engine gives the side to move, as
//!   `tools/rank-fit/label.py` writes Rapfi's `Eval`: `+M12`/`-M7` are won and lost, a
//!   number `v` is a win chance of `1 / (1 + e^(-v / scale))`).
//!
//! Only quiet positions are kept (the first 100,000): no four for the side to move, no open four or open three
//! to move that the evaluation scores by fixed values. The fit first scales the starting
//! weights' values to win chances (`1 / (1 + e^(-eval / K))`, K by least squares), then
//! changes one weight at a time (times or divided by 1 + step, step halving from 0.25)
//! while the mean squared error of the even-numbered positions falls; the odd ones are
//! held out and their error is printed beside it; a value `[gomoku.patterns]` refuses is
//! not tried. stdout: the fitted `[gomoku.patterns]`, which `--start` (a config file,
//! read as `--config` reads one) takes back.
//!
//! `cargo run --release --example gomoku_eval_fit -- [--skip N] [--scale S]
//! [--start config.toml] [--combinations] [--only name,name...] < data`

use std::io::BufRead;
use std::path::Path;
use std::process::ExitCode;

use gametree::config::Config;

use gametree::engine::{Evaluator, Game, Player};
use gametree::games::GameOptions;
use gametree::games::gomoku::shape::Shape;
use gametree::games::gomoku::{Gomoku, GomokuEval, GomokuOptions, PatternWeights, Rule};

/// Positions kept at most (a position keeps its whole board: about 10 KB).
const MAX_POSITIONS: usize = 100_000;

/// The options of one run.
struct Args {
    skip: usize,
    scale: f64,
    start: Option<String>,
    combinations: bool,
    /// Fit only these weights (`--only open_two,point_open_four`), the others held.
    only: Option<Vec<String>>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        skip: 6,
        scale: 200.0,
        start: None,
        combinations: false,
        only: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = |what: &str| it.next().ok_or(format!("{arg}: expected {what}"));
        match arg.as_str() {
            "--skip" => {
                args.skip = value("a number of plies")?
                    .parse()
                    .map_err(|e| format!("--skip: {e}"))?;
            }
            "--scale" => {
                args.scale = value("a positive number")?
                    .parse()
                    .ok()
                    .filter(|s: &f64| *s > 0.0)
                    .ok_or("--scale: expected a positive number")?;
            }
            "--start" => args.start = Some(value("a file")?),
            "--combinations" => args.combinations = true,
            "--only" => {
                let list = value("weight names, comma separated")?;
                let names = PatternWeights::default().entries().map(|(n, _)| n);
                let only: Vec<String> = list.split(',').map(|n| n.trim().to_string()).collect();
                if let Some(bad) = only.iter().find(|n| !names.contains(&n.as_str())) {
                    return Err(format!("--only: {bad} is no weight of [gomoku.patterns]"));
                }
                args.only = Some(only);
            }
            _ => return Err(format!("unknown argument {arg}")),
        }
    }
    Ok(args)
}

/// A quiet position and its target: the win chance of the side to move.
struct Sample {
    game: Gomoku,
    target: f64,
}

fn quiet(game: &Gomoku) -> bool {
    let me = game.to_move();
    let mine = game.pattern_counts(me);
    let theirs = game.pattern_counts(me.other());
    game.outcome().is_none()
        && mine.fours() == 0
        && theirs.get(Shape::OpenFour) == 0
        && !(mine.get(Shape::OpenThree) > 0 && theirs.fours() == 0)
}

fn new_game() -> Gomoku {
    let mut game = Gomoku::new(15, 5, Rule::Freestyle);
    game.set_combinations(true);
    game
}

/// The position after `moves`, unless a move does not parse or the game ends on the way.
fn position(moves: &str) -> Option<Gomoku> {
    let mut game = new_game();
    for m in moves.split_whitespace() {
        let mv = game.parse_move(m).ok()?;
        if game.outcome().is_some() {
            return None;
        }
        game.play(mv);
    }
    Some(game)
}

/// A labelled value as a win chance (see the module doc).
fn chance(value: &str, scale: f64) -> Option<f64> {
    match value.strip_prefix('+').unwrap_or(value) {
        v if v.starts_with('M') => Some(1.0),
        v if v.starts_with("-M") => Some(0.0),
        v => v
            .parse::<f64>()
            .ok()
            .map(|v| 1.0 / (1.0 + (-v / scale).exp())),
    }
}

fn read(args: &Args) -> Vec<Sample> {
    let mut samples = Vec::new();
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        if line.starts_with('#') || samples.len() >= MAX_POSITIONS {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        if let [moves, value] | [moves, _, value] = fields[..] {
            let target = chance(value, args.scale);
            if let (Some(game), Some(target)) = (position(moves), target)
                && quiet(&game)
            {
                samples.push(Sample { game, target });
            }
            continue;
        }
        let [_, _, _, result, _, opening, moves, ..] = fields[..] else {
            continue;
        };
        let first = match result {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        let from = opening.parse::<usize>().unwrap_or(0) + args.skip;
        let mut game = new_game();
        for (ply, m) in moves.split_whitespace().enumerate() {
            if game.outcome().is_some() || samples.len() >= MAX_POSITIONS {
                break;
            }
            if ply >= from && quiet(&game) {
                let target = match game.to_move() {
                    Player::First => first,
                    Player::Second => 1.0 - first,
                };
                samples.push(Sample {
                    game: game.clone(),
                    target,
                });
            }
            let Ok(mv) = game.parse_move(m) else { break };
            game.play(mv);
        }
    }
    samples
}

/// The mean squared error of the even (`held_out` false) or odd positions.
fn error(samples: &[Sample], weights: &PatternWeights, k: f64, held_out: bool) -> f64 {
    let eval = GomokuEval::Weighted(weights.table());
    let (mut sum, mut n) = (0.0, 0.0);
    for s in samples.iter().skip(usize::from(held_out)).step_by(2) {
        let value = f64::from(eval.evaluate(&s.game));
        sum += (1.0 / (1.0 + (-value / k).exp()) - s.target).powi(2);
        n += 1.0;
    }
    sum / f64::max(n, 1.0)
}

/// The Gomoku options of a config file (its `[gomoku.patterns]` is where the fit starts),
/// read and checked as `--config` reads them; the built-in defaults without one.
fn start(path: Option<&str>) -> Result<GomokuOptions, String> {
    let config = match path {
        Some(path) => Config::load(Path::new(path)),
        None => Config::builtin(),
    };
    config
        .and_then(|c| c.game_options::<Gomoku>())
        .map_err(|e| e.to_string())
}

/// `options` with the weight `name` set to `value`, unless `[gomoku.patterns]` refuses it.
fn with_weight(options: &GomokuOptions, name: &str, value: f64) -> Option<GomokuOptions> {
    let mut next = options.clone();
    next.set(&format!("patterns.{name}"), &value.to_string())
        .ok()?;
    Some(next)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("gomoku_eval_fit: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut options = match start(args.start.as_deref()) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("gomoku_eval_fit: {e}");
            return ExitCode::FAILURE;
        }
    };
    let samples = read(&args);
    eprintln!("{} quiet positions", samples.len());
    if samples.len() < 2 {
        eprintln!("gomoku_eval_fit: no quiet positions on stdin");
        return ExitCode::FAILURE;
    }

    let first = options.patterns.clone();
    let k = (1..=200)
        .map(|i| f64::from(i) * 20.0)
        .min_by(|&a, &b| {
            error(&samples, &first, a, false).total_cmp(&error(&samples, &first, b, false))
        })
        .unwrap_or(300.0);
    let names = first.entries().map(|(n, _)| n);
    let mut best = error(&samples, &first, k, false);
    eprintln!(
        "K = {k}: error {best:.6}, held out {:.6}",
        error(&samples, &first, k, true)
    );
    // Five and open four never reach the evaluation of a quiet position; the point
    // combinations cost 10 - 30 % of a node's time, so they are fitted only when asked.
    let fitted: Vec<usize> = (2..names.len())
        .filter(|&i| match &args.only {
            Some(only) => only.iter().any(|n| n == names[i]),
            None => {
                args.combinations
                    || !names[i].starts_with("point_double")
                        && !["point_four_three", "point_three_two"].contains(&names[i])
            }
        })
        .collect();
    let mut step = 0.25;
    while step > 0.02 {
        let mut improved = true;
        while improved {
            improved = false;
            for &i in &fitted {
                let old = options.patterns.entries()[i].1;
                let percent = names[i].starts_with("waiting");
                let tries = if percent {
                    [old + 25.0 * step, old - 25.0 * step]
                } else if old < 4.0 {
                    [old + 1.0, old - 1.0]
                } else {
                    [old * (1.0 + step), old / (1.0 + step)]
                };
                for x in tries.map(f64::round) {
                    if (x - old).abs() < 0.5 {
                        continue;
                    }
                    let Some(next) = with_weight(&options, names[i], x) else {
                        continue;
                    };
                    let e = error(&samples, &next.patterns, k, false);
                    if e < best - 1e-9 {
                        best = e;
                        improved = true;
                        options = next;
                        eprintln!("{} {old} -> {x}: error {best:.6}", names[i]);
                        break;
                    }
                }
            }
        }
        step /= 2.0;
    }
    let fit = &options.patterns;
    println!(
        "# error {best:.6}, held out {:.6} (K = {k})",
        error(&samples, fit, k, true)
    );
    println!("[gomoku.patterns]");
    for (name, value) in fit.entries() {
        println!("{name} = {value}");
    }
    ExitCode::SUCCESS
}
