//! Choosing an evaluator's weights by tournament: coordinate hill-climbing in which every
//! candidate plays a sequential match (SPRT) against the current best at a fixed depth.
//! Works for any game whose evaluator keeps its weights in the game options under its own
//! name (`[kalah.linear]`); knows nothing of Kalah itself.
//!
//! The method, in full:
//! 1. The weights are the floating-point numbers (and lists of them) in the evaluator's
//!    table of the game options; lists can be expanded first (`expand`), so that
//!    `pits = [0.25]` becomes one weight per pit.
//! 2. Coordinate hill-climbing: for each weight in turn, the candidate "current best + step"
//!    and, if that is not accepted, "current best − step" each play a match against the
//!    current best. An accepted candidate becomes the current best at once. After a sweep
//!    over all weights with no acceptance, the step is halved; the climb ends when the step
//!    falls below `min_step`, or after `max_candidates` matches or `max_games` games.
//!    Games whose weights span orders of magnitude (Gomoku's patterns, 3 to 100000) step
//!    by a factor instead ([`Playable::RELATIVE_WEIGHTS`]): "best × (1 + step)" and
//!    "best / (1 + step)"; a weight of 0 then stays 0. A candidate the game's options
//!    refuse (a weight out of range) is skipped without a match.
//! 3. A match is a run of game pairs from random openings, each opening played twice with
//!    colours swapped, checked after every pair by an SPRT of H0: Elo = `elo0` against H1:
//!    Elo = `elo1` (see [`Sprt`]). The candidate is accepted only when the SPRT accepts H1
//!    **and** it scored more than half the points (which the SPRT already implies; the
//!    second check guards the rule). A match that reaches `max_match_games` undecided, or
//!    is interrupted, keeps the current best. So a change that is no better is accepted
//!    with probability at most `alpha` per match, and a change worth `elo1` is missed with
//!    probability at most `beta`.

use std::fmt::Write as _;

use serde::Serialize;

use super::elo::{SprtDecision, Tally};
use super::entrants::{Entrant, Tournament, merge};
use super::{ScheduledGame, Standings, derive_seed, run_games, schedule};
use crate::config::SideConfig;
use crate::engine::limits::StopFlag;
use crate::engine::settings::{Algorithm, EngineSettings};
use crate::error::ConfigError;
use crate::games::{GameOptions, Playable, evaluator_for};

pub use super::elo::Sprt;

const MATCH_STREAM: u64 = 3;
const FINAL_STREAM: u64 = 4;

/// One tunable weight: a key of the evaluator's table, and the position in it for lists.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Weight {
    /// The key in the evaluator's table (`store`, `pits`).
    pub key: String,
    /// The position in a list, or `None` for a single number.
    pub index: Option<usize>,
}

impl Weight {
    /// `store`, `pits[2]`.
    pub fn name(&self) -> String {
        match self.index {
            Some(i) => format!("{}[{i}]", self.key),
            None => self.key.clone(),
        }
    }
}

/// The tunable weights of one evaluator and how to put values back into the game options.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightSpace {
    /// The game's name (the section of config.toml).
    pub game: String,
    /// The evaluator whose table holds the weights.
    pub evaluator: String,
    /// The weights, in tuning order.
    pub weights: Vec<Weight>,
    /// The whole game options as TOML, into which values are written.
    base: toml::Table,
}

impl WeightSpace {
    /// The weights of `evaluator` in `options`, and their current values. Lists shorter
    /// than `expand` are lengthened by repeating their last value.
    pub fn from_options<G: Playable>(
        options: &G::Options,
        evaluator: &str,
        expand: usize,
    ) -> Result<(Self, Vec<f64>), ConfigError> {
        let game = G::KIND.name().to_string();
        let key = format!("{game}.{evaluator}");
        let base = toml::Table::try_from(options).map_err(|e| {
            ConfigError::new("tune", &game, "", format!("cannot be written as TOML: {e}"))
        })?;
        let Some(toml::Value::Table(table)) = base.get(evaluator) else {
            return Err(ConfigError::new(
                "tune",
                "--evaluator",
                evaluator,
                format!("has no weights: the {game} options have no [{key}] table"),
            ));
        };
        let mut pairs = Vec::new();
        for (name, value) in table {
            match value {
                toml::Value::Float(x) => {
                    pairs.push((
                        Weight {
                            key: name.clone(),
                            index: None,
                        },
                        *x,
                    ));
                }
                toml::Value::Array(items) => {
                    let mut list: Vec<f64> =
                        items.iter().filter_map(toml::Value::as_float).collect();
                    if list.len() != items.len() || list.is_empty() {
                        continue;
                    }
                    if let Some(&last) = list.last() {
                        list.resize(list.len().max(expand), last);
                    }
                    for (i, x) in list.into_iter().enumerate() {
                        pairs.push((
                            Weight {
                                key: name.clone(),
                                index: Some(i),
                            },
                            x,
                        ));
                    }
                }
                _ => {}
            }
        }
        // Tune (and write) the weights in the order the game lists its options, not the
        // alphabetical order of the TOML table.
        let menu: Vec<String> = options.entries().into_iter().map(|(k, _)| k).collect();
        let rank = |w: &Weight| {
            let dotted = format!("{evaluator}.{}", w.key);
            menu.iter().position(|k| *k == dotted).unwrap_or(menu.len())
        };
        pairs.sort_by_key(|(w, _)| rank(w));
        let (weights, values): (Vec<Weight>, Vec<f64>) = pairs.into_iter().unzip();
        if weights.is_empty() {
            return Err(ConfigError::new(
                "tune",
                "--evaluator",
                evaluator,
                format!("has no weights: [{key}] holds no numbers"),
            ));
        }
        Ok((
            Self {
                game,
                evaluator: evaluator.to_string(),
                weights,
                base,
            },
            values,
        ))
    }

    /// The evaluator's table with `values` written in.
    pub fn table(&self, values: &[f64]) -> toml::Table {
        let mut table = toml::Table::new();
        for (weight, &x) in self.weights.iter().zip(values) {
            if weight.index.is_none() {
                table.insert(weight.key.clone(), toml::Value::Float(x));
            } else {
                let entry = table
                    .entry(weight.key.clone())
                    .or_insert_with(|| toml::Value::Array(Vec::new()));
                if let toml::Value::Array(list) = entry {
                    list.push(toml::Value::Float(x));
                }
            }
        }
        table
    }

    /// The game options with `values` as the evaluator's weights, validated.
    pub fn options<G: Playable>(&self, values: &[f64]) -> Result<G::Options, ConfigError> {
        let mut merged = self.base.clone();
        let mut over = toml::Table::new();
        over.insert(
            self.evaluator.clone(),
            toml::Value::Table(self.table(values)),
        );
        merge(&mut merged, &over);
        let options: G::Options = crate::config::from_toml_table(&merged, "tune", &self.game)?;
        options.validate("tune")?;
        Ok(options)
    }

    /// The weights as a TOML snippet to paste into config.toml.
    pub fn snippet(&self, values: &[f64]) -> String {
        let mut out = format!("[{}.{}]\n", self.game, self.evaluator);
        let table = self.table(values);
        let mut written: Vec<&str> = Vec::new();
        for weight in &self.weights {
            if written.contains(&weight.key.as_str()) {
                continue;
            }
            written.push(&weight.key);
            if let Some(value) = table.get(&weight.key) {
                let _ = writeln!(out, "{} = {}", weight.key, format_value(value));
            }
        }
        out
    }
}

/// Numbers rounded to 4 decimals, so snippets stay readable.
fn format_value(value: &toml::Value) -> String {
    match value {
        toml::Value::Float(x) => format_weight(*x),
        toml::Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(format_value).collect();
            format!("[{}]", parts.join(", "))
        }
        other => other.to_string(),
    }
}

/// A weight as written in snippets and logs: at most 4 decimals, always with a point.
pub fn format_weight(x: f64) -> String {
    let rounded = (x * 10_000.0).round() / 10_000.0;
    let text = format!("{rounded}");
    if text.contains('.') || text.contains('e') || text.contains("inf") || text.contains("NaN") {
        text
    } else {
        format!("{text}.0")
    }
}

/// How the climb proceeds and when a candidate is accepted.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClimbSettings {
    /// The first step added to or taken from a weight.
    pub step: f64,
    /// The climb ends when the step is halved below this.
    pub min_step: f64,
    /// At most this many candidates (matches).
    pub max_candidates: usize,
    /// At most this many games over the whole climb.
    pub max_games: u64,
    /// At most this many games per match; a match that reaches it undecided is a rejection.
    pub max_match_games: u32,
    /// The acceptance test.
    pub sprt: Sprt,
    /// Steps multiply a weight by `1 + step` or divide it by that, rather than add or
    /// subtract `step` (set from [`Playable::RELATIVE_WEIGHTS`] by [`tune`]).
    pub relative: bool,
}

impl Default for ClimbSettings {
    fn default() -> Self {
        Self {
            step: 0.125,
            min_step: 0.03,
            max_candidates: 100,
            max_games: 40_000,
            max_match_games: 1000,
            sprt: Sprt {
                elo1: 20.0,
                ..Sprt::default()
            },
            relative: false,
        }
    }
}

/// The result of one candidate's match against the current best.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Candidate {
    /// 1 for the first candidate.
    pub number: usize,
    /// The weight changed (index into [`WeightSpace::weights`]).
    pub weight: usize,
    /// The change, `+step` or `-step`.
    pub delta: f64,
    /// The candidate's weights.
    pub values: Vec<f64>,
    /// The candidate's results against the current best.
    pub tally: Tally,
    /// The SPRT's log-likelihood ratio at the end of the match.
    pub llr: f64,
    /// The SPRT's verdict (`Continue` when the match hit its game cap).
    pub decision: SprtDecision,
    /// Whether the candidate became the current best.
    pub accepted: bool,
}

/// What a match between a candidate and the current best produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchResult {
    /// The candidate's results.
    pub tally: Tally,
    /// True when an interrupt cut the match short.
    pub interrupted: bool,
}

/// The acceptance rule: the SPRT accepted H1, the candidate scored more than half the
/// points, and the match was not cut short.
pub fn is_accepted(sprt: &Sprt, result: &MatchResult) -> bool {
    !result.interrupted
        && sprt.decide(&result.tally) == SprtDecision::Accept
        && result.tally.points() > f64::from(result.tally.games()) / 2.0
}

/// Where a climb ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClimbOutcome {
    /// The weights the climb started from.
    pub start: Vec<f64>,
    /// The best weights found.
    pub best: Vec<f64>,
    /// Every candidate, in order.
    pub candidates: Vec<Candidate>,
    /// Games played in all matches.
    pub games: u64,
    /// The step when the climb ended.
    pub final_step: f64,
    /// True when an interrupt ended it.
    pub interrupted: bool,
}

/// `best` with weight `weight` moved by `delta` (`±step`): added, or as a factor when
/// `relative` (see the module documentation).
fn stepped(best: &[f64], weight: usize, delta: f64, relative: bool) -> Vec<f64> {
    let mut values = best.to_vec();
    if relative {
        let factor = 1.0 + delta.abs();
        if delta > 0.0 {
            values[weight] *= factor;
        } else {
            values[weight] /= factor;
        }
    } else {
        values[weight] += delta;
    }
    values
}

/// Coordinate hill-climbing from `start` (see the module documentation). `play_match`
/// plays candidate (first argument) against current best (second), with the candidate
/// number, or gives `None` for a candidate that cannot play (its weights are refused:
/// skipped, as rejected without a match); `on_candidate` hears every verdict.
pub fn climb<E>(
    start: &[f64],
    settings: &ClimbSettings,
    mut play_match: impl FnMut(&[f64], &[f64], usize) -> Result<Option<MatchResult>, E>,
    mut on_candidate: impl FnMut(&Candidate),
) -> Result<ClimbOutcome, E> {
    let mut best = start.to_vec();
    let mut step = settings.step;
    let mut candidates = Vec::new();
    let mut games = 0u64;
    let mut interrupted = false;
    'climb: while step >= settings.min_step && !start.is_empty() {
        let mut improved = false;
        for weight in 0..best.len() {
            for delta in [step, -step] {
                if candidates.len() >= settings.max_candidates || games >= settings.max_games {
                    break 'climb;
                }
                let values = stepped(&best, weight, delta, settings.relative);
                if values == best {
                    // A relative step leaves a weight of 0 where it is: nothing to try.
                    continue;
                }
                let Some(result) = play_match(&values, &best, candidates.len() + 1)? else {
                    continue;
                };
                games += u64::from(result.tally.games());
                let accepted = is_accepted(&settings.sprt, &result);
                let candidate = Candidate {
                    number: candidates.len() + 1,
                    weight,
                    delta,
                    values: values.clone(),
                    tally: result.tally,
                    llr: settings.sprt.llr(&result.tally),
                    decision: settings.sprt.decide(&result.tally),
                    accepted,
                };
                on_candidate(&candidate);
                candidates.push(candidate);
                if result.interrupted {
                    interrupted = true;
                    break 'climb;
                }
                if accepted {
                    best = values;
                    improved = true;
                    break;
                }
            }
        }
        if !improved {
            step /= 2.0;
        }
    }
    Ok(ClimbOutcome {
        start: start.to_vec(),
        best,
        candidates,
        games,
        final_step: step,
        interrupted,
    })
}

/// Everything `tune` needs besides the game options.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TuneSettings {
    /// The evaluator whose weights are tuned.
    pub evaluator: String,
    /// The evaluator the result is measured against (`default` = the game's first).
    pub baseline: String,
    /// The fixed search depth of every game.
    pub depth: u32,
    /// The seed all games derive from.
    pub seed: u64,
    /// Random plies of each opening.
    pub random_plies: u32,
    /// Lists of weights are lengthened to this many entries first.
    pub expand: usize,
    /// Games played at once; 0 = one per core.
    pub jobs: usize,
    /// Games per side in the final check against the baseline and the start.
    pub final_games: u32,
    /// The climb.
    pub climb: ClimbSettings,
}

impl Default for TuneSettings {
    fn default() -> Self {
        Self {
            evaluator: "linear".to_string(),
            baseline: "default".to_string(),
            depth: 6,
            seed: 1,
            random_plies: 4,
            expand: 0,
            jobs: 0,
            final_games: 500,
            climb: ClimbSettings::default(),
        }
    }
}

fn engine(depth: u32, evaluator: &str) -> SideConfig {
    SideConfig {
        engine: EngineSettings {
            algorithm: Algorithm::AlphaBeta,
            limits: crate::engine::limits::Limits {
                depth: (depth > 0).then_some(depth),
                ..EngineSettings::default().limits
            },
            ordering: true,
            random_ties: true,
            evaluator: evaluator.to_string(),
            ..EngineSettings::default()
        },
        ..SideConfig::default()
    }
}

/// A two-or-more entrant tournament of `G` at the tuning depth.
fn tournament<G: Playable>(
    options: &G::Options,
    entrants: Vec<Entrant<G>>,
    settings: &TuneSettings,
    seed: u64,
    games_per_side: u32,
) -> Tournament<G> {
    Tournament {
        options: options.clone(),
        entrants,
        games_per_side,
        seed,
        jobs: settings.jobs,
        random_plies: settings.random_plies,
        openings: Vec::new(),
    }
}

/// Plays one SPRT match: `candidate` against `incumbent` (`pair`), checked after each colour-swapped
/// pair, until the SPRT decides or `max_match_games` are played. `on_pair` hears the
/// running tally.
pub fn sprt_match<G: Playable>(
    options: &G::Options,
    space: &WeightSpace,
    (candidate, incumbent): (&[f64], &[f64]),
    number: usize,
    settings: &TuneSettings,
    interrupt: &StopFlag,
    on_pair: &mut dyn FnMut(&Tally),
) -> Result<MatchResult, ConfigError> {
    let entrant = |name: &str, values: &[f64]| -> Result<Entrant<G>, ConfigError> {
        Ok(Entrant {
            name: name.to_string(),
            side: engine(settings.depth, &settings.evaluator),
            options: space.options::<G>(values)?,
        })
    };
    let pairs = settings.climb.max_match_games.div_ceil(2).max(1);
    let t = tournament(
        options,
        vec![
            entrant("candidate", candidate)?,
            entrant("best", incumbent)?,
        ],
        settings,
        derive_seed(settings.seed, MATCH_STREAM, number as u64),
        pairs,
    );
    let games: Vec<ScheduledGame> = schedule(2, pairs);
    let mut standings = Standings::new(vec!["candidate".into(), "best".into()]);
    let sprt = settings.climb.sprt;
    let run = run_games(&t, &games, settings.jobs, interrupt, |record| {
        standings.record(record);
        let tally = standings.matrix[0][1];
        // Decide only on whole pairs, so both colours count alike.
        if record.index % 2 == 1 {
            on_pair(&tally);
            return sprt.decide(&tally) == SprtDecision::Continue;
        }
        true
    })?;
    Ok(MatchResult {
        tally: standings.matrix[0][1],
        interrupted: run.interrupted,
    })
}

/// Tunes the weights of `settings.evaluator` for game `G` starting from `options`.
/// Returns the weight space (to write the result) and the climb.
pub fn tune<G: Playable>(
    options: &G::Options,
    settings: &TuneSettings,
    interrupt: &StopFlag,
    on_candidate: &mut dyn FnMut(&WeightSpace, &Candidate),
    on_pair: &mut dyn FnMut(usize, &Tally),
) -> Result<(WeightSpace, ClimbOutcome), ConfigError> {
    check_settings::<G>(options, settings)?;
    let (space, start) =
        WeightSpace::from_options::<G>(options, &settings.evaluator, settings.expand)?;
    // The start must itself be a valid weight set.
    space.options::<G>(&start)?;
    let climb_settings = ClimbSettings {
        relative: settings.climb.relative || G::RELATIVE_WEIGHTS,
        ..settings.climb.clone()
    };
    let outcome = climb(
        &start,
        &climb_settings,
        |candidate, incumbent, number| {
            if space.options::<G>(candidate).is_err() {
                return Ok(None);
            }
            sprt_match::<G>(
                options,
                &space,
                (candidate, incumbent),
                number,
                settings,
                interrupt,
                &mut |tally| on_pair(number, tally),
            )
            .map(Some)
        },
        |candidate| on_candidate(&space, candidate),
    )?;
    Ok((space, outcome))
}

/// The evaluator `tune` works on when none is named: the first of the game's evaluators
/// whose weights are in `options` (Kalah's `linear`, Gomoku's `patterns`), else the first.
pub fn weighted_evaluator<G: Playable>(options: &G::Options) -> &'static str {
    G::EVALUATORS
        .iter()
        .copied()
        .find(|name| WeightSpace::from_options::<G>(options, name, 0).is_ok())
        .or_else(|| G::EVALUATORS.first().copied())
        .unwrap_or("default")
}

/// Refuses settings the tuner cannot run with (a bad SPRT, unknown evaluators, a depth out
/// of range, an evaluator without weights) before any game is played.
pub fn check<G: Playable>(
    options: &G::Options,
    settings: &TuneSettings,
) -> Result<(), ConfigError> {
    check_settings::<G>(options, settings)?;
    WeightSpace::from_options::<G>(options, &settings.evaluator, settings.expand).map(|_| ())
}

fn check_settings<G: Playable>(
    options: &G::Options,
    settings: &TuneSettings,
) -> Result<(), ConfigError> {
    settings
        .climb
        .sprt
        .validate()
        .map_err(|e| ConfigError::new("tune", "SPRT", "", e))?;
    evaluator_for::<G>(options, &settings.evaluator, "tune", "--evaluator")?;
    evaluator_for::<G>(options, &settings.baseline, "tune", "--baseline")?;
    if !(1..=64).contains(&settings.depth) {
        return Err(ConfigError::new(
            "tune",
            "--depth",
            settings.depth,
            "must be 1..=64",
        ));
    }
    let c = &settings.climb;
    if !(c.step.is_finite() && c.step > 0.0 && c.min_step > 0.0 && c.min_step <= c.step) {
        return Err(ConfigError::new(
            "tune",
            "--step/--min-step",
            format!("{}/{}", c.step, c.min_step),
            "need 0 < min-step <= step",
        ));
    }
    if c.max_match_games < 2 {
        return Err(ConfigError::new(
            "tune",
            "--match-games",
            c.max_match_games,
            "must be at least 2 (one pair)",
        ));
    }
    Ok(())
}

/// The final check: the tuned weights, the start weights and the baseline evaluator in a
/// round robin at the tuning depth (`final_games` per side per pairing, fresh openings).
/// The baseline comes first, so every Elo in the standings is measured against it.
pub fn final_check<G: Playable>(
    options: &G::Options,
    space: &WeightSpace,
    outcome: &ClimbOutcome,
    settings: &TuneSettings,
    interrupt: &StopFlag,
    on_game: &mut dyn FnMut(&Standings),
) -> Result<(Standings, bool), ConfigError> {
    let baseline_name = if settings.baseline == "default" {
        G::EVALUATORS.first().copied().unwrap_or("default")
    } else {
        settings.baseline.as_str()
    };
    let entrants: Vec<Entrant<G>> = vec![
        Entrant {
            name: baseline_name.to_string(),
            side: engine(settings.depth, &settings.baseline),
            options: options.clone(),
        },
        Entrant {
            name: "tuned".to_string(),
            side: engine(settings.depth, &settings.evaluator),
            options: space.options::<G>(&outcome.best)?,
        },
        Entrant {
            name: "start".to_string(),
            side: engine(settings.depth, &settings.evaluator),
            options: space.options::<G>(&outcome.start)?,
        },
    ];
    let names = entrants.iter().map(|e| e.name.clone()).collect();
    let t = tournament(
        options,
        entrants,
        settings,
        derive_seed(settings.seed, FINAL_STREAM, 0),
        settings.final_games,
    );
    let games = schedule(3, settings.final_games);
    let mut standings = Standings::new(names);
    let run = run_games(&t, &games, settings.jobs, interrupt, |record| {
        standings.record(record);
        on_game(&standings);
        true
    })?;
    Ok((standings, run.interrupted))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake match: the candidate's strength is how close it is to `target`, and the
    /// result is a fixed function of the two distances (so no games are needed).
    fn fake(candidate: &[f64], incumbent: &[f64], target: &[f64]) -> MatchResult {
        let dist = |v: &[f64]| -> f64 { v.iter().zip(target).map(|(a, b)| (a - b).abs()).sum() };
        let better = dist(incumbent) - dist(candidate);
        let tally = if better > 0.0 {
            Tally::new(70, 10, 20)
        } else if better < 0.0 {
            Tally::new(20, 10, 70)
        } else {
            Tally::new(45, 10, 45)
        };
        MatchResult {
            tally,
            interrupted: false,
        }
    }

    #[test]
    fn climb_walks_to_the_target_and_halves_its_step() {
        let target = [1.5, -0.5];
        let settings = ClimbSettings {
            step: 0.5,
            min_step: 0.1,
            max_candidates: 100,
            ..ClimbSettings::default()
        };
        let outcome = climb::<()>(
            &[0.0, 0.0],
            &settings,
            |c, i, _| Ok(Some(fake(c, i, &target))),
            |_| {},
        )
        .unwrap();
        assert_eq!(outcome.best, vec![1.5, -0.5]);
        assert!(outcome.final_step < 0.1);
        for c in &outcome.candidates {
            assert_eq!(c.accepted, c.tally.wins > c.tally.losses, "{c:?}");
        }
    }

    #[test]
    fn a_candidate_that_lost_or_drew_is_never_accepted() {
        let settings = ClimbSettings::default();
        for tally in [
            Tally::new(20, 10, 70),
            Tally::new(45, 10, 45),
            Tally::new(0, 600, 0),
        ] {
            let result = MatchResult {
                tally,
                interrupted: false,
            };
            assert!(!is_accepted(&settings.sprt, &result), "{tally:?}");
        }
        let won = MatchResult {
            tally: Tally::new(70, 10, 20),
            interrupted: false,
        };
        assert!(is_accepted(&settings.sprt, &won));
        let cut = MatchResult {
            interrupted: true,
            ..won
        };
        assert!(!is_accepted(&settings.sprt, &cut));
    }

    #[test]
    fn budgets_end_the_climb() {
        let settings = ClimbSettings {
            max_candidates: 3,
            ..ClimbSettings::default()
        };
        let outcome = climb::<()>(
            &[0.0, 0.0, 0.0],
            &settings,
            |_, _, _| {
                Ok(Some(MatchResult {
                    tally: Tally::new(45, 10, 45),
                    interrupted: false,
                }))
            },
            |_| {},
        )
        .unwrap();
        assert_eq!(outcome.candidates.len(), 3);
        assert_eq!(outcome.best, vec![0.0, 0.0, 0.0]);
        assert_eq!(outcome.games, 300);
    }

    #[test]
    fn relative_steps_multiply_and_divide_and_skip_zero_weights() {
        let settings = ClimbSettings {
            step: 1.0,
            min_step: 0.5,
            max_candidates: 100,
            relative: true,
            ..ClimbSettings::default()
        };
        let mut tried = Vec::new();
        let outcome = climb::<()>(
            &[0.0, 8.0],
            &settings,
            |c, _, _| {
                tried.push(c.to_vec());
                // Refuse anything above 12, as a game's options would.
                Ok((c[1] <= 12.0).then(|| MatchResult {
                    tally: Tally::new(45, 10, 45),
                    interrupted: false,
                }))
            },
            |_| {},
        )
        .unwrap();
        // The zero weight is never tried; 8 goes to 16 (refused: no match) and 4, then
        // (step 0.5) to 12 and 16/3.
        assert_eq!(
            tried,
            [
                vec![0.0, 16.0],
                vec![0.0, 4.0],
                vec![0.0, 12.0],
                vec![0.0, 16.0 / 3.0]
            ]
        );
        assert_eq!(outcome.candidates.len(), 3);
        assert_eq!(outcome.best, vec![0.0, 8.0]);
    }

    #[test]
    fn weights_format_readably() {
        assert_eq!(format_weight(1.0), "1.0");
        assert_eq!(format_weight(-0.125), "-0.125");
        assert_eq!(format_weight(0.1 + 0.2), "0.3");
    }
}
