//! Research: fits Gomoku's point table (`src/games/gomoku/point_table.rs`) to a strong
//! engine's values, so the next person can fit it again (docs/performance.md, "Wave 30").
//!
//! Every empty point of a position has, for each side, the shapes a stone there would make
//! in its four directions; the table gives each combination of four shapes (their multiset:
//! 330 of them) a value for the side to move and one for the side that just moved, summed
//! over the empty points and added to the evaluation with the default weights and the point
//! table off (as Rapfi's classical evaluator sums its pattern table over empty cells).
//!
//! stdin: labelled positions, `moves<TAB>value` (15x15 freestyle, gametree notation; the
//! value a strong engine gives the side to move, e.g. Rapfi at depth 10 through
//! `tools/move-loss/loss.py`'s `Brain`: forced wins and losses, and values beyond `--cap`,
//! are skipped). The value `v` is read as the win chance `1 / (1 + e^(-v / rscale))`
//! (Rapfi: about 200 for 75 %, so `rscale` 182). Only quiet positions are kept (no four for
//! the side to move, no open four to face, no open three to move into an open four), with
//! at least `--skip` stones. The fit: the evaluation's scale K first (log loss, by a scan),
//! then the table by Adam with L2 on the log loss of the even-numbered lines; the odd ones
//! are held out and their loss printed beside it. Combinations seen in fewer than `--min`
//! training positions stay 0.
//!
//! stdout: the rows of `ROWS` in `src/games/gomoku/point_table.rs`, with how often each was seen.
//!
//! `--base-table P` fits on top of the evaluation with the shipped table at P % instead of
//! without it: the rows printed are then a correction to add to P % of the shipped rows.
//!
//! `cargo run --release --example gomoku_point_fit -- [--skip N] [--l2 X] [--steps N]
//! [--min N] [--rscale S] [--cap V] [--base-table P] < labels.tsv`

use std::io::BufRead;
use std::process::ExitCode;

use gametree::engine::{Evaluator, Game};
use gametree::games::gomoku::shape::Shape;
use gametree::games::gomoku::{Gomoku, GomokuEval, PatternWeights, Rule};

/// The options of one run.
struct Args {
    skip: usize,
    l2: f64,
    steps: usize,
    min: usize,
    rscale: f64,
    cap: f64,
    base_table: f64,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        skip: 10,
        l2: 1e-8,
        steps: 400,
        min: 100,
        rscale: 182.0,
        cap: 1500.0,
        base_table: 0.0,
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let value = it
            .next()
            .and_then(|v| v.parse::<f64>().ok())
            .ok_or(format!("{arg}: expected a number after it"))?;
        match arg.as_str() {
            "--skip" => args.skip = value as usize,
            "--l2" => args.l2 = value,
            "--steps" => args.steps = value as usize,
            "--min" => args.min = value as usize,
            "--rscale" => args.rscale = value,
            "--cap" => args.cap = value,
            "--base-table" => args.base_table = value,
            _ => return Err(format!("unknown option {arg}")),
        }
    }
    Ok(args)
}

/// The multiset class of every 12-bit key (four 3-bit shapes), and each class's shapes
/// (weakest first). Class 0 is the point with no shape at all.
fn classes() -> (Vec<u16>, Vec<[u8; 4]>) {
    let mut shapes: Vec<[u8; 4]> = Vec::new();
    let of_key = (0..1usize << 12)
        .map(|key| {
            let mut s: [u8; 4] = std::array::from_fn(|d| (key >> (3 * d)) as u8 & 7);
            s.sort_unstable();
            let class = shapes.iter().position(|&c| c == s).unwrap_or_else(|| {
                shapes.push(s);
                shapes.len() - 1
            });
            class as u16
        })
        .collect();
    (of_key, shapes)
}

/// One training or held-out position.
struct Sample {
    /// The evaluation without the point table, from the side to move.
    base: f64,
    /// The strong engine's win chance for the side to move.
    target: f64,
    /// (feature, count): the mover's classes, then the waiting side's (class + classes).
    features: Vec<(u16, f64)>,
    held_out: bool,
}

impl Sample {
    fn value(&self, weights: &[f64]) -> f64 {
        self.base
            + self
                .features
                .iter()
                .map(|&(i, count)| weights[usize::from(i)] * count)
                .sum::<f64>()
    }
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

fn features(game: &Gomoku, of_key: &[u16], classes: usize) -> Vec<(u16, f64)> {
    let mut counts = vec![0u16; 2 * classes];
    let mover = game.to_move();
    for cell in 0..game.size() * game.size() {
        let Ok(cell) = u16::try_from(cell) else { break };
        if game.at(cell).is_some() {
            continue;
        }
        for (side, player) in [(0, mover), (1, mover.other())] {
            let key = game
                .shapes_if_played(cell, player)
                .iter()
                .enumerate()
                .fold(0usize, |k, (d, &s)| k | (s as usize) << (3 * d));
            counts[side * classes + usize::from(of_key[key])] += 1;
        }
    }
    counts
        .iter()
        .enumerate()
        .filter(|&(i, &n)| n > 0 && i % classes != 0)
        .map(|(i, &n)| (i as u16, f64::from(n)))
        .collect()
}

/// The mean log loss of the training (or held-out) samples under `weights` and scale `k`.
fn loss(samples: &[Sample], weights: &[f64], k: f64, held_out: bool) -> f64 {
    let (mut sum, mut n) = (0.0, 0.0);
    for s in samples.iter().filter(|s| s.held_out == held_out) {
        let p = (1.0 / (1.0 + (-s.value(weights) / k).exp())).clamp(1e-9, 1.0 - 1e-9);
        sum -= s.target * p.ln() + (1.0 - s.target) * (1.0 - p).ln();
        n += 1.0;
    }
    sum / f64::max(n, 1.0)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("gomoku_point_fit: {message}");
            return ExitCode::FAILURE;
        }
    };
    let (of_key, shapes) = classes();
    let nc = shapes.len();
    // The evaluation the table is fitted on top of: the defaults with the table off (or at
    // `--base-table` percent).
    let eval = GomokuEval::Weighted(
        PatternWeights {
            point_table: args.base_table,
            ..PatternWeights::default()
        }
        .table(),
    );
    let (mut samples, mut skipped) = (Vec::new(), 0usize);
    for (number, line) in std::io::stdin()
        .lock()
        .lines()
        .map_while(Result::ok)
        .enumerate()
    {
        let Some((moves, value)) = line.split_once('\t') else {
            continue;
        };
        let Ok(value) = value.trim().parse::<f64>() else {
            continue;
        };
        if value.abs() > args.cap {
            skipped += 1;
            continue;
        }
        let mut game = Gomoku::new(15, 5, Rule::Freestyle);
        if game.play_line(moves).is_err() || game.stones_played() < args.skip || !quiet(&game) {
            continue;
        }
        samples.push(Sample {
            base: f64::from(eval.evaluate(&game)),
            target: 1.0 / (1.0 + (-value / args.rscale).exp()),
            features: features(&game, &of_key, nc),
            held_out: number % 2 == 1,
        });
    }
    eprintln!(
        "{} quiet positions ({skipped} beyond the cap skipped), {nc} classes",
        samples.len()
    );
    let mut weights = vec![0.0; 2 * nc];
    let k = (1..=200)
        .map(|i| f64::from(i) * 20.0)
        .min_by(|&a, &b| {
            loss(&samples, &weights, a, false).total_cmp(&loss(&samples, &weights, b, false))
        })
        .unwrap_or(300.0);
    eprintln!(
        "K = {k}: loss {:.5}, held out {:.5}",
        loss(&samples, &weights, k, false),
        loss(&samples, &weights, k, true)
    );
    let mut seen = vec![0usize; 2 * nc];
    for s in samples.iter().filter(|s| !s.held_out) {
        for &(i, _) in &s.features {
            seen[usize::from(i)] += 1;
        }
    }
    let (mut moment, mut second) = (vec![0.0; 2 * nc], vec![0.0; 2 * nc]);
    let rate = 2.0;
    for step in 1..=args.steps {
        let mut gradient = vec![0.0; 2 * nc];
        let mut n = 0.0;
        for s in samples.iter().filter(|s| !s.held_out) {
            let p = 1.0 / (1.0 + (-s.value(&weights) / k).exp());
            let slope = (p - s.target) / k;
            for &(i, count) in &s.features {
                gradient[usize::from(i)] += slope * count;
            }
            n += 1.0;
        }
        let step_i32 = i32::try_from(step).unwrap_or(i32::MAX);
        for (i, weight) in weights.iter_mut().enumerate() {
            if seen[i] < args.min {
                continue;
            }
            let g = gradient[i] / n + args.l2 * *weight;
            moment[i] = 0.9 * moment[i] + 0.1 * g;
            second[i] = 0.999 * second[i] + 0.001 * g * g;
            let unbiased = moment[i] / (1.0 - 0.9f64.powi(step_i32));
            let scale = second[i] / (1.0 - 0.999f64.powi(step_i32));
            *weight -= rate * unbiased / (scale.sqrt() + 1e-12);
        }
        if step % 50 == 0 {
            eprintln!(
                "step {step}: loss {:.5}, held out {:.5}",
                loss(&samples, &weights, k, false),
                loss(&samples, &weights, k, true)
            );
        }
    }
    println!(
        "// K {k}, loss {:.5}, held out {:.5}",
        loss(&samples, &weights, k, false),
        loss(&samples, &weights, k, true)
    );
    for (c, s) in shapes.iter().enumerate() {
        let (mover, waiting) = (weights[c].round(), weights[nc + c].round());
        if mover != 0.0 || waiting != 0.0 {
            println!(
                "    ([{}, {}, {}, {}], {mover}, {waiting}), // seen {} {}",
                s[0],
                s[1],
                s[2],
                s[3],
                seen[c],
                seen[nc + c]
            );
        }
    }
    ExitCode::SUCCESS
}
