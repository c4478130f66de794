//! `gametree tournament` and `gametree tune`: their flags, the progress bar, Ctrl-C, and
//! the printed results. The command line's only contact with the terminal for these two.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;

use super::elo::{EloEstimate, Tally, format_elo, format_margin};
use super::entrants::{TournamentSpec, opening_lines, parse_entrant_flag};
use super::report::{
    GAMES_HEADER, format_points, game_line, json_report, pairing_matrix, standings_table,
    thinking_line,
};
use super::tune::{Candidate, ClimbSettings, Sprt, TuneSettings, WeightSpace, format_weight};
use super::{GameRecord, Standings, job_count, run_games, schedule};
use crate::config::Config;
use crate::engine::limits::StopFlag;
use crate::flags::{GameFlags, options_with_flags, parse_game};
use crate::games::Playable;

/// `gametree tournament`: engine settings play each other; prints standings and the
/// pairing matrix.
#[derive(Debug, Args)]
pub struct TournamentArgs {
    /// The tournament file (see examples/kalah-tournament.toml for every field).
    pub file: Option<PathBuf>,
    /// The game, when there is no file (or to override it).
    #[arg(long)]
    pub game: Option<String>,
    /// Games per side per pairing: each entrant moves first this often against each other.
    #[arg(long)]
    pub games: Option<u32>,
    /// Seed of every game's randomness: the same seed and settings give the same games.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Games played at once (default: the file's `jobs`, else one per core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Random plies at the start of each opening (instead of the file's).
    #[arg(long)]
    pub random_plies: Option<u32>,
    /// Openings to use, one per line in move notation.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// An entrant, added after the file's: `name=d6,depth=6,evaluator=linear,weights.store=1.5`.
    #[arg(long = "entrant", value_name = "SPEC")]
    pub entrants: Vec<String>,
    /// Write every game (one line each: number, players, result, margin, moves) to FILE.
    #[arg(long, value_name = "FILE")]
    pub games_out: Option<PathBuf>,
    /// Print the results as one JSON document (with every game) instead of tables.
    #[arg(long)]
    pub json: bool,
}

/// `gametree tune`: chooses an evaluator's weights by tournament (coordinate hill-climbing,
/// each candidate judged by an SPRT match against the current best at a fixed depth).
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// The game (kalah, gomoku; any game whose evaluator has weights in its options).
    pub game: String,
    /// The evaluator whose weights are tuned [default: the game's first with weights:
    /// kalah linear, gomoku patterns].
    #[arg(long)]
    pub evaluator: Option<String>,
    /// The evaluator the result is measured against at the same depth.
    #[arg(long, default_value = "default")]
    pub baseline: String,
    /// Search depth of every game.
    #[arg(long, default_value_t = 6)]
    pub depth: u32,
    /// Seed of every game's randomness.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies at the start of each opening.
    #[arg(long, default_value_t = 4)]
    pub random_plies: u32,
    /// Lengthen lists of weights to this many entries first (6 = one weight per Kalah pit).
    #[arg(long, default_value_t = 0)]
    pub expand: usize,
    /// First step added to or taken from a weight (Gomoku's weights are multiplied or
    /// divided by 1 + step instead).
    #[arg(long, default_value_t = 0.125)]
    pub step: f64,
    /// The climb ends when the step is halved below this.
    #[arg(long, default_value_t = 0.03)]
    pub min_step: f64,
    /// At most this many candidates (`--candidates` is Gomoku's rule option).
    #[arg(long, default_value_t = 100)]
    pub max_candidates: usize,
    /// At most this many games over the whole climb.
    #[arg(long, default_value_t = 40_000)]
    pub budget: u64,
    /// At most this many games per candidate's match (undecided = rejected).
    #[arg(long, default_value_t = 1000)]
    pub match_games: u32,
    /// SPRT: Elo of H0 (the candidate is no better).
    #[arg(long, default_value_t = 0.0)]
    pub elo0: f64,
    /// SPRT: Elo of H1 (the smallest gain worth finding).
    #[arg(long, default_value_t = 20.0)]
    pub elo1: f64,
    /// SPRT: chance of accepting a candidate that is no better.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// SPRT: chance of rejecting a candidate that is `elo1` better.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Games per side per pairing in the final check (tuned, start, baseline).
    #[arg(long, default_value_t = 500)]
    pub final_games: u32,
    /// Games played at once (0 = one per core).
    #[arg(long, default_value_t = 0)]
    pub jobs: usize,
    /// Also write the tuned weights as a config.toml snippet to FILE.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Print one JSON document instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub game_flags: GameFlags,
}

/// A flag raised by the first Ctrl-C (games stop, results so far are printed); a second
/// Ctrl-C ends the process at once. Installed once per process.
pub fn interrupt_flag() -> StopFlag {
    static FLAG: OnceLock<StopFlag> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = StopFlag::new();
        let raised = flag.clone();
        // Without a handler (another part of the program owns SIGINT), Ctrl-C simply ends
        // the process, as it would anyway.
        let _ = ctrlc::set_handler(move || {
            if raised.is_raised() {
                std::process::exit(130);
            }
            eprintln!("\nstopping: results so far follow (Ctrl-C again to quit at once)");
            raised.raise();
        });
        flag
    })
    .clone()
}

fn progress_bar(total: Option<u64>, template: &str) -> ProgressBar {
    if !std::io::stdout().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

fn short_standings(standings: &Standings) -> String {
    standings
        .ranking()
        .into_iter()
        .map(|a| {
            let t = standings.total(a);
            format!(
                "{} {}/{}",
                standings.names[a],
                format_points(t.points()),
                t.games()
            )
        })
        .collect::<Vec<_>>()
        .join("  ")
}

/// `gametree tournament [FILE] ...`.
pub fn tournament(config: &Config, args: &TournamentArgs) -> Result<()> {
    let mut spec = match &args.file {
        Some(path) => TournamentSpec::load(path)?,
        None => TournamentSpec::default(),
    };
    if let Some(game) = &args.game {
        spec.game = Some(parse_game(game)?);
    }
    if let Some(games) = args.games {
        if !(1..=100_000).contains(&games) {
            bail!("--games {games}: must be 1..=100000");
        }
        spec.games_per_side = games;
    }
    if let Some(seed) = args.seed {
        spec.seed = seed;
    }
    if let Some(jobs) = args.jobs {
        if jobs > 1024 {
            bail!("--jobs {jobs}: must be 0..=1024 (0 = one per core)");
        }
        spec.jobs = jobs;
    }
    if let Some(plies) = args.random_plies {
        spec.openings.random_plies = plies;
        spec.openings.lines.clear();
    }
    if let Some(path) = &args.openings {
        let text = crate::files::read_text(path, crate::files::MAX_SETTINGS_BYTES)
            .with_context(|| format!("--openings {}", path.display()))?;
        spec.openings.lines = opening_lines(&text)
            .map(|(number, line)| (format!("{}:{number}", path.display()), line.to_string()))
            .collect();
        if spec.openings.lines.is_empty() {
            bail!("--openings {}: no openings in it", path.display());
        }
    }
    for (i, text) in args.entrants.iter().enumerate() {
        let table = parse_entrant_flag(text).map_err(|e| {
            anyhow::anyhow!(
                "--entrant {}: {}",
                crate::error::quote(text),
                crate::error::quote_within(&e, crate::error::MAX_MESSAGE_CHARS)
            )
        })?;
        spec.add_entrant(&table, &format!("--entrant {}", i + 1))?;
    }
    let Some(kind) = spec.game else {
        bail!("which game? write `game = \"kalah\"` in the tournament file or pass --game")
    };
    crate::with_game!(kind, G => run_tournament::<G>(config, &spec, args))
}

fn run_tournament<G: Playable>(
    config: &Config,
    spec: &TournamentSpec,
    args: &TournamentArgs,
) -> Result<()> {
    let tournament = spec.resolve::<G>(config)?;
    // Open the games file first: a path that cannot be written should not cost the games.
    let games_file = args
        .games_out
        .as_ref()
        .map(|path| {
            std::fs::File::create(path).with_context(|| format!("--games-out {}", path.display()))
        })
        .transpose()?;
    let names: Vec<String> = tournament.entrants.iter().map(|e| e.name.clone()).collect();
    let games = schedule(names.len(), tournament.games_per_side);
    let jobs = job_count(tournament.jobs);
    let interrupt = interrupt_flag();
    let bar = progress_bar(
        Some(games.len() as u64),
        "{bar:30} {pos}/{len} games  {elapsed} left {eta}  {wide_msg}",
    );
    let started = Instant::now();
    let mut standings = Standings::new(names.clone());
    let run = run_games(&tournament, &games, jobs, &interrupt, |record| {
        standings.record(record);
        if let Some(reason) = &record.forfeit {
            bar.println(format!("game {}: {reason}; it loses", record.index + 1));
        }
        bar.inc(1);
        bar.set_message(short_standings(&standings));
        true
    })?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    if let (Some(path), Some(file)) = (&args.games_out, games_file) {
        write_games(path, file, &run.records, &names)?;
    }
    let played = run.records.len();
    if args.json {
        let header = json!({
            "game": G::KIND.name(),
            "games_per_side": tournament.games_per_side,
            "seed": tournament.seed,
            "jobs": jobs,
            "scheduled": games.len(),
            "played": played,
            "interrupted": run.interrupted,
            "seconds": seconds,
        });
        writeln!(
            std::io::stdout(),
            "{}",
            json_report(&standings, &header, Some(&run.records))
        )?;
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} tournament: {} entrants, {} games ({} per side per pairing), seed {}, {} at once, {:.1} s",
        G::KIND.title(),
        names.len(),
        games.len(),
        tournament.games_per_side,
        tournament.seed,
        jobs,
        seconds
    )?;
    if run.interrupted {
        writeln!(
            out,
            "stopped by Ctrl-C after {played} of {} games: the standings so far",
            games.len()
        )?;
    }
    writeln!(out, "\n{}", standings_table(&standings))?;
    writeln!(
        out,
        "points of the row against the column, out of games played:\n{}",
        pairing_matrix(&standings)
    )?;
    writeln!(
        out,
        "Elo is measured from each entrant's games against {} (95% margin);",
        names[0]
    )?;
    writeln!(out, "score % counts all its games.")?;
    let thinking = thinking_line(&run.records, &names);
    if !thinking.is_empty() {
        writeln!(out, "time a move, after the openings: {thinking}")?;
    }
    let forfeits: Vec<&GameRecord> = run.records.iter().filter(|r| r.forfeit.is_some()).collect();
    if !forfeits.is_empty() {
        writeln!(out, "\n{} games lost by forfeit:", forfeits.len())?;
        for record in forfeits {
            if let Some(reason) = &record.forfeit {
                writeln!(out, "  game {}: {reason}", record.index + 1)?;
            }
        }
    }
    if let Some(path) = &args.games_out {
        writeln!(out, "games written to {}", path.display())?;
    }
    Ok(())
}

fn write_games(
    path: &std::path::Path,
    mut file: std::fs::File,
    records: &[GameRecord],
    names: &[String],
) -> Result<()> {
    let mut text = String::from(GAMES_HEADER);
    text.push('\n');
    for record in records {
        text.push_str(&game_line(record, names));
        text.push('\n');
    }
    file.write_all(text.as_bytes())
        .with_context(|| format!("--games-out {}", path.display()))
}

/// `gametree tune GAME ...`.
pub fn tune(config: &Config, args: &TuneArgs) -> Result<()> {
    let kind = parse_game(&args.game)?;
    crate::with_game!(kind, G => run_tune::<G>(config, args))
}

fn settings_from<G: Playable>(args: &TuneArgs, options: &G::Options) -> TuneSettings {
    TuneSettings {
        evaluator: args
            .evaluator
            .clone()
            .unwrap_or_else(|| super::tune::weighted_evaluator::<G>(options).to_string()),
        baseline: args.baseline.clone(),
        depth: args.depth,
        seed: args.seed,
        random_plies: args.random_plies,
        expand: args.expand,
        jobs: args.jobs,
        final_games: args.final_games,
        climb: ClimbSettings {
            step: args.step,
            min_step: args.min_step,
            max_candidates: args.max_candidates,
            max_games: args.budget,
            max_match_games: args.match_games,
            sprt: Sprt {
                elo0: args.elo0,
                elo1: args.elo1,
                alpha: args.alpha,
                beta: args.beta,
                ..Sprt::default()
            },
            relative: G::RELATIVE_WEIGHTS,
        },
    }
}

fn describe(space: &WeightSpace, c: &Candidate, relative: bool) -> String {
    // A relative step is a factor: `x1.125`, `/1.125`.
    let change = if relative {
        let factor = format_weight(1.0 + c.delta.abs());
        if c.delta > 0.0 {
            format!("x{factor}")
        } else {
            format!("/{factor}")
        }
    } else if c.delta > 0.0 {
        format!("+{}", format_weight(c.delta))
    } else {
        format_weight(c.delta)
    };
    let elo = EloEstimate::from_tally(&c.tally).map_or_else(String::new, |e| {
        format!("{} {}", format_elo(e.elo), format_margin(e.margin))
    });
    format!(
        "#{:<3} {:<18} {:>7}  {:>4} games  +{} ={} -{}  Elo {:<12} LLR {:>+6.2}  {}",
        c.number,
        space
            .weights
            .get(c.weight)
            .map_or_else(String::new, super::tune::Weight::name),
        change,
        c.tally.games(),
        c.tally.wins,
        c.tally.draws,
        c.tally.losses,
        elo,
        c.llr,
        if c.accepted { "accepted" } else { "rejected" }
    )
}

fn vs_line(standings: &Standings, a: usize, b: usize) -> String {
    let t: Tally = standings.matrix[a][b];
    let estimate = EloEstimate::from_tally(&t);
    format!(
        "{} vs {}: {} {} Elo (95%) over {} games, score {:.1}% (+{} ={} -{})",
        standings.names[a],
        standings.names[b],
        estimate.map_or_else(|| "-".to_string(), |e| format_elo(e.elo)),
        estimate.map_or_else(String::new, |e| format_margin(e.margin)),
        t.games(),
        t.score().unwrap_or(0.0) * 100.0,
        t.wins,
        t.draws,
        t.losses
    )
}

fn run_tune<G: Playable>(config: &Config, args: &TuneArgs) -> Result<()> {
    let options = options_with_flags::<G>(config, &args.game_flags)?;
    let settings = settings_from::<G>(args, &options);
    super::tune::check::<G>(&options, &settings)?;
    // Open the output first: a path that cannot be written should not cost the tuning.
    let out_file = args
        .out
        .as_ref()
        .map(|path| {
            std::fs::File::create(path).with_context(|| format!("--out {}", path.display()))
        })
        .transpose()?;
    let interrupt = interrupt_flag();
    let started = Instant::now();
    let sprt = settings.climb.sprt;
    let bar = progress_bar(None, "{spinner} {elapsed} {wide_msg}");
    let mut log: Vec<String> = Vec::new();
    let quiet = args.json;
    if !quiet {
        writeln!(
            std::io::stdout(),
            "Tuning {} `{}` at depth {}: coordinate hill-climbing, step {} down to {}; \
             each candidate plays the current best until SPRT(elo0 {}, elo1 {}, alpha {}, beta {}) \
             decides, at most {} games; budget {} games, {} candidates.",
            G::KIND.name(),
            settings.evaluator,
            settings.depth,
            settings.climb.step,
            settings.climb.min_step,
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            settings.climb.max_match_games,
            settings.climb.max_games,
            settings.climb.max_candidates
        )?;
    }
    let (space, outcome) = super::tune::tune::<G>(
        &options,
        &settings,
        &interrupt,
        &mut |space, candidate| {
            let line = describe(space, candidate, settings.climb.relative);
            if !quiet {
                // A closed stdout shows at the next write, which returns the error.
                bar.suspend(|| {
                    let _ = writeln!(std::io::stdout(), "{line}");
                });
            }
            log.push(line);
        },
        &mut |number, tally| {
            bar.set_message(format!(
                "candidate #{number}: {} games, +{} ={} -{}, LLR {:+.2} (bounds {:+.2}, {:+.2})",
                tally.games(),
                tally.wins,
                tally.draws,
                tally.losses,
                sprt.llr(tally),
                sprt.lower_bound(),
                sprt.upper_bound()
            ));
        },
    )?;
    let climb_seconds = started.elapsed().as_secs_f64();
    let accepted = outcome.candidates.iter().filter(|c| c.accepted).count();
    let snippet = space.snippet(&outcome.best);
    if !quiet {
        bar.suspend(|| {
            writeln!(
                std::io::stdout(),
                "\nclimb: {} candidates, {accepted} accepted, {} games, {:.0} s{}\n\nstart:\n{}\ntuned:\n{snippet}",
                outcome.candidates.len(),
                outcome.games,
                climb_seconds,
                if outcome.interrupted { " (stopped by Ctrl-C)" } else { "" },
                space.snippet(&outcome.start),
            )
        })?;
    }
    let mut final_standings = None;
    if !outcome.interrupted && settings.final_games > 0 {
        let total = 3 * 2 * u64::from(settings.final_games);
        bar.set_message(format!("final check: 0/{total} games"));
        let (standings, interrupted) = super::tune::final_check::<G>(
            &options,
            &space,
            &outcome,
            &settings,
            &interrupt,
            &mut |s| {
                bar.set_message(format!(
                    "final check: {}/{total} games  {}",
                    s.games(),
                    short_standings(s)
                ));
            },
        )?;
        final_standings = Some((standings, interrupted));
    }
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let measured = final_standings
        .as_ref()
        .map(|(s, _)| (vs_line(s, 1, 0), vs_line(s, 1, 2)));
    if let (Some(path), Some(mut file)) = (&args.out, out_file) {
        let mut text = format!(
            "# Tuned by `gametree tune {}` at depth {}, seed {} ({} games in {:.0} s).\n",
            G::KIND.name(),
            settings.depth,
            settings.seed,
            outcome.games,
            seconds
        );
        if let Some((against_baseline, _)) = &measured {
            let _ = writeln!(text, "# {against_baseline}");
        }
        text.push_str(&snippet);
        file.write_all(text.as_bytes())
            .with_context(|| format!("--out {}", path.display()))?;
    }
    if args.json {
        let doc = json!({
            "game": G::KIND.name(),
            "settings": settings,
            "weights": space.weights.iter().map(super::tune::Weight::name).collect::<Vec<_>>(),
            "start": outcome.start,
            "best": outcome.best,
            "snippet": snippet,
            "candidates": outcome.candidates,
            "climb_games": outcome.games,
            "interrupted": outcome.interrupted,
            "seconds": seconds,
            "final": final_standings.as_ref().map(|(s, interrupted)| {
                json_report(s, &json!({"games_per_side": settings.final_games, "interrupted": interrupted}), None)
            }),
        });
        writeln!(std::io::stdout(), "{doc}")?;
        return Ok(());
    }
    if let Some((standings, interrupted)) = &final_standings {
        writeln!(
            std::io::stdout(),
            "final check at depth {}: {} games per side per pairing{}\n\n{}\n{}",
            settings.depth,
            settings.final_games,
            if *interrupted {
                " (stopped by Ctrl-C: so far)"
            } else {
                ""
            },
            standings_table(standings),
            pairing_matrix(standings)
        )?;
        if let Some((against_baseline, against_start)) = &measured {
            writeln!(std::io::stdout(), "{against_baseline}\n{against_start}")?;
        }
    }
    writeln!(std::io::stdout(), "total time {seconds:.0} s")?;
    if let Some(path) = &args.out {
        writeln!(std::io::stdout(), "snippet written to {}", path.display())?;
    }
    Ok(())
}
