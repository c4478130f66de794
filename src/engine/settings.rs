//! How an engine player searches: one typed [`EngineSettings`], whose keys, ranges and
//! meanings are declared once, in [`FIELDS`]. Everything that reads or writes engine
//! settings goes through it: `config.toml` and saved games (serde, driven by the table), the
//! command-line flags (generated from the table), the setup screen (its rows), tournament
//! entrants and `gametree tune`.
//!
//! Adding a switch: a field in [`EngineSettings`] with its default, one [`Field`] entry in
//! [`FIELDS`] (key, help, kind, getter, setter), its use in the search, and its test. The
//! unit test `every_field_is_in_the_table` fails until the table lists the new field.

use std::fmt;
use std::time::Duration;

use serde::de::{self, DeserializeSeed, MapAccess, Unexpected, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::limits::Limits;

/// Which search a player uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Plain minimax: every node to the full depth, no pruning. The reference.
    Minimax,
    /// Alpha-beta (negamax, fail-soft), with optional move ordering.
    #[serde(rename = "alphabeta")]
    AlphaBeta,
    /// The full engine: iterative deepening, transposition table, PVS, aspiration windows,
    /// killer and history ordering, time control and threads.
    Full,
}

impl Algorithm {
    /// Every algorithm, in the order menus show them.
    pub const ALL: [Self; 3] = [Self::Minimax, Self::AlphaBeta, Self::Full];
    /// Their names, in the same order.
    pub const NAMES: &'static [&'static str] = &["minimax", "alphabeta", "full"];

    /// The name used in config files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Self::Minimax => "minimax",
            Self::AlphaBeta => "alphabeta",
            Self::Full => "full",
        }
    }

    /// Whether the algorithm prunes (alpha-beta and the full engine do, minimax does not).
    pub fn prunes(self) -> bool {
        self != Self::Minimax
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Algorithm {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| {
                format!("unknown algorithm `{s}`: expected one of minimax, alphabeta, full")
            })
    }
}

/// An engine player's settings: what the user chooses (the fields in [`FIELDS`]) and what
/// a game fills in for one search ([`EngineSettings::resolved`]).
// Independent switches, each measured on its own: not a state machine.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Depth and time. As the user sets it, no depth means the game's own default depth
    /// (or, for the timed full engine, as deep as the time allows); after
    /// [`EngineSettings::resolved`] no depth means no depth limit.
    pub limits: Limits,
    /// The side's match clock: the time for all its moves in one game; `None` = none. An
    /// external brain is told it (the Gomocup protocol's `timeout_match`, with `time_left`
    /// before every move); the full engine plans each move's time from what is left of it
    /// ([`crate::engine::clock`]), within `limits.time` a move when that is set as well.
    pub match_time: Option<Duration>,
    /// Pick at random among root moves of exactly equal value; otherwise the first in
    /// move-generation order.
    pub random_ties: bool,
    /// Seed of the tie-breaking randomness; `None` = different every run.
    pub seed: Option<u64>,
    /// Evaluator name; `default` = the game's first.
    pub evaluator: String,
    /// Sort children by static evaluation before searching them (alpha-beta and full).
    pub ordering: bool,
    /// A move after which the same side moves again (Kalah's extra turn, a completed box)
    /// takes two plies of depth, the move and the opponent's skipped turn, as in searches
    /// that model the skipped turn as a pass move. Every algorithm counts depth the same
    /// way, so they still agree at equal depth; a solve counts one ply per move.
    pub count_passes: bool,
    /// Search threads (full engine); 0 = one per core.
    pub threads: usize,
    /// Transposition table size in MiB (full engine).
    pub tt_mb: usize,
    /// Full engine: use the transposition table (values and its move for ordering).
    pub tt: bool,
    /// Full engine: killer moves in the ordering.
    pub killers: bool,
    /// Full engine: the history heuristic in the ordering.
    pub history: bool,
    /// Full engine: principal variation search (null windows after the first move).
    pub pvs: bool,
    /// Full engine: aspiration windows around the previous iteration's value.
    pub aspiration: bool,
    /// Full engine, playing searches with a candidate limit (Gomoku): late moves are tried
    /// first at a smaller depth (late move reductions).
    pub reductions: bool,
    /// Full engine, playing searches with a candidate limit (Gomoku): a null-window test one
    /// to three moves from the horizon, facing no four, searches only its first few moves
    /// (late move pruning), and leaves out the moves that neglect a threat far from the play
    /// (distraction pruning, [`crate::engine::Neglect::is_distraction`]).
    pub pruning: bool,
    /// Full engine, playing searches with a candidate limit (Gomoku): a null-window test near
    /// the horizon (where the evaluator gives a margin: Gomoku's one and two moves away),
    /// facing no four, whose static value is above beta by that margin fails high without a
    /// search (reverse futility pruning).
    pub futility: bool,
    /// Full engine, playing searches with a candidate limit (Gomoku): a node far from the
    /// horizon whose table move stands out (searched without it, at half the depth, every
    /// other move stays a margin below the table's value) searches that move one ply deeper
    /// (singular extensions); if another move reaches beta too, the node fails high
    /// unsearched (multi-cut). Off by default: it played even against PentaZen and in
    /// self-play (docs/performance.md, "Wave 24").
    pub singular: bool,
    /// Search only this many candidate moves per node where the game prunes heuristically
    /// (Gomoku); 0 means every legal move. A game option, filled in by `resolved`.
    pub candidates: usize,
    /// Exact solving (full engine): the game's value-preserving pruning rules
    /// ([`super::Game::solver_moves`]) apply. Only for searches to the end of the game.
    pub solve: bool,
}

/// In a playing search with a candidate limit, the root considers this many times as many
/// candidates as the nodes below it: a move the candidate ranking puts low is then still
/// searched where it is played. Against Rapfi, its choice was outside our 12 root candidates
/// in a third of the moves where ours differed (among the first 24 in nine of ten); 24 root
/// candidates won 67 - 53 against 12 (docs/performance.md, "Wave 10").
pub const ROOT_CANDIDATES: usize = 2;

/// In a playing search with a candidate limit, nodes more than this many moves from the
/// horizon (below the root) consider more candidates: a sixth of the limit more for each
/// move past it, up to [`WIDEN_STEPS`] sixths, so 12, 14, 16, 18, 20 and 22 candidates
/// from 3 to 8 or more moves from the horizon where the limit is 12. Such nodes are few,
/// and a point the ranking puts low is searched deep enough there to matter. PentaZen, too,
/// searches more moves the further a node is from its horizon (up to 32). With deeper late
/// move reductions to pay for them, 43 % against PentaZen over 720 games where 16 from six
/// moves out scored 41 % (docs/performance.md, "Wave 17").
pub const WIDEN_FROM_DEPTH: u32 = 3;
/// The most sixths of the limit a node far from the horizon adds ([`WIDEN_FROM_DEPTH`]).
pub const WIDEN_STEPS: u32 = 5;

/// The candidate limit of a node `ply` moves from the root and `depth` moves from the
/// horizon, in a search limited to `candidates` per node: [`ROOT_CANDIDATES`] times as many
/// at the root, more the further a node is from the horizon ([`WIDEN_FROM_DEPTH`]); 0 when
/// the search is not limited. Every algorithm uses it, so that they search the same moves.
pub fn candidates_at(candidates: usize, ply: usize, depth: u32) -> usize {
    if ply == 0 {
        candidates.saturating_mul(ROOT_CANDIDATES)
    } else {
        let steps = depth.saturating_sub(WIDEN_FROM_DEPTH).min(WIDEN_STEPS) as usize;
        candidates.saturating_add(candidates.saturating_mul(steps) / 6)
    }
}

impl EngineSettings {
    /// [`candidates_at`] for these settings' `candidates`.
    pub fn candidates_at(&self, ply: usize, depth: u32) -> usize {
        candidates_at(self.candidates, ply, depth)
    }
}

impl Default for EngineSettings {
    /// The shipped defaults of an engine side (`config.toml`): the full engine, one second
    /// a move, every core.
    fn default() -> Self {
        Self {
            algorithm: Algorithm::Full,
            limits: Limits {
                depth: None,
                time: Some(Duration::from_secs(1)),
                target: None,
            },
            match_time: None,
            random_ties: true,
            seed: None,
            evaluator: DEFAULT_EVALUATOR.to_string(),
            ordering: true,
            count_passes: false,
            threads: 0,
            tt_mb: 64,
            tt: true,
            killers: true,
            history: true,
            pvs: true,
            aspiration: true,
            reductions: true,
            pruning: true,
            futility: true,
            singular: false,
            candidates: 0,
            solve: false,
        }
    }
}

/// The evaluator name that stands for a game's first evaluator.
pub const DEFAULT_EVALUATOR: &str = "default";

impl EngineSettings {
    /// A repeatable fixed-depth search: `algorithm` to `depth` moves, one thread, no time
    /// limit, ordering and every full-engine switch on (tests, benchmarks, `tree`, `solve`).
    pub fn to_depth(algorithm: Algorithm, depth: u32) -> Self {
        Self {
            algorithm,
            limits: Limits::depth(depth),
            threads: 1,
            ..Self::default()
        }
    }

    /// The match clock the engine plays on: `match_time` for the full engine (minimax and
    /// alpha-beta search to their depth, and keep no clock).
    pub fn match_clock(&self) -> Option<Duration> {
        self.match_time
            .filter(|_| self.algorithm == Algorithm::Full)
    }

    /// True when the full engine runs against the clock (its depth then only caps it).
    pub fn timed(&self) -> bool {
        self.algorithm == Algorithm::Full
            && (self.limits.time.is_some() || self.match_time.is_some())
    }

    /// These settings for one game: no depth becomes the game's `default_depth` unless the
    /// full engine is timed (the time then decides), and the game's candidate count is
    /// filled in.
    pub fn resolved(&self, default_depth: u32, candidates: usize) -> Self {
        let mut settings = self.clone();
        if settings.limits.depth.is_none() && !settings.timed() {
            settings.limits.depth = Some(default_depth);
        }
        settings.candidates = candidates;
        settings
    }

    /// The setting called `key` (as in `config.toml`).
    pub fn field(key: &str) -> Option<&'static Field> {
        FIELDS.iter().find(|f| f.key == key)
    }

    /// Sets the setting `key` from text (`"12"`, `"off"`, `"alphabeta"`), checked against
    /// its range; nothing changes on error.
    pub fn set(&mut self, key: &str, text: &str) -> Result<(), FieldError> {
        let field = Self::field(key).ok_or_else(|| FieldError {
            key: key.to_string(),
            value: String::new(),
            expected: format!(
                "unknown setting; the known ones are {}",
                keys().collect::<Vec<_>>().join(", ")
            ),
        })?;
        let value = field.parse(text).map_err(|expected| FieldError {
            key: key.to_string(),
            value: text.to_string(),
            expected,
        })?;
        (field.set)(self, value);
        Ok(())
    }

    /// The setting `key` as text (`""` for an unset seed).
    pub fn get(&self, key: &str) -> Option<String> {
        Self::field(key).map(|f| f.text(self))
    }

    /// Refuses out-of-range values, naming the first one.
    pub fn validate(&self) -> Result<(), FieldError> {
        for field in FIELDS {
            let value = (field.get)(self);
            field.check(&value).map_err(|expected| FieldError {
                key: field.key.to_string(),
                value: value.to_string(),
                expected,
            })?;
        }
        Ok(())
    }

    /// Writes every setting into `map` (for a containing struct that adds keys of its own).
    pub fn serialize_fields<M: SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        for field in FIELDS {
            match (field.get)(self) {
                FieldValue::Switch(on) => map.serialize_entry(field.key, &on)?,
                FieldValue::Number(n) => map.serialize_entry(field.key, &n)?,
                FieldValue::Text(text) => map.serialize_entry(field.key, &text)?,
                FieldValue::Unset => {}
            }
        }
        Ok(())
    }

    /// Sets `field` from a value of any serde format (a TOML or JSON value), refusing a
    /// value of the wrong type or out of range.
    pub fn set_from<'de, D: Deserializer<'de>>(
        &mut self,
        field: &'static Field,
        value: D,
    ) -> Result<(), D::Error> {
        let value = FieldSeed(field).deserialize(value)?;
        (field.set)(self, value);
        Ok(())
    }

    /// Reads the value of setting `key` from `map` (for a containing struct's visitor; see
    /// [`EngineSettings`]'s `Deserialize`). Unknown keys are refused listing `extra_keys`
    /// (the container's own) and every setting.
    pub fn deserialize_field<'de, A: MapAccess<'de>>(
        &mut self,
        key: &str,
        map: &mut A,
        extra_keys: &[&'static str],
    ) -> Result<(), A::Error> {
        let Some(field) = Self::field(key) else {
            let known: Vec<String> = extra_keys
                .iter()
                .copied()
                .chain(keys())
                .map(|k| format!("`{k}`"))
                .collect();
            // Serde's own wording, which the config reader turns into plain words.
            return Err(de::Error::custom(format_args!(
                "unknown field `{key}`, expected one of {}",
                known.join(", ")
            )));
        };
        let value = map.next_value_seed(FieldSeed(field))?;
        (field.set)(self, value);
        Ok(())
    }
}

/// The next key of `map` if it is one of `known`, else serde's "unknown field" error raised
/// while the key is read (so that a config file's message names the key and its line).
pub fn next_known_key<'de, A: MapAccess<'de>>(
    map: &mut A,
    known: &[&str],
) -> Result<Option<String>, A::Error> {
    map.next_key_seed(KnownKey(known))
}

/// Reads a key that must be one of a list.
struct KnownKey<'a>(&'a [&'a str]);

impl<'de> DeserializeSeed<'de> for KnownKey<'_> {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for KnownKey<'_> {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<String, E> {
        if self.0.contains(&key) {
            return Ok(key.to_string());
        }
        let known: Vec<String> = self.0.iter().map(|k| format!("`{k}`")).collect();
        // Serde's own wording, which the config reader turns into plain words.
        Err(E::custom(format_args!(
            "unknown field `{key}`, expected one of {}",
            known.join(", ")
        )))
    }
}

/// Every setting's key, in the table's order.
pub fn keys() -> impl Iterator<Item = &'static str> {
    FIELDS.iter().map(|f| f.key)
}

/// A refused setting: its key, the value as given and what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// The setting's key (`depth`).
    pub key: String,
    /// The value as given.
    pub value: String,
    /// What is allowed (`must be 0..=64 (0 = the game's default)`).
    pub expected: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.value.is_empty() {
            write!(f, "{}: {}", self.key, self.expected)
        } else {
            write!(f, "{} = {}: {}", self.key, self.value, self.expected)
        }
    }
}

/// What values a setting takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// On or off.
    Switch,
    /// A whole number in `min..=max`; `zero` says what 0 means when it means something.
    Number {
        /// Smallest value.
        min: u64,
        /// Largest value.
        max: u64,
        /// The meaning of 0 (`the game's default`), if it has a special one.
        zero: Option<&'static str>,
    },
    /// A whole number, or unset (written as nothing).
    OptionalNumber,
    /// One of these names.
    Choice(&'static [&'static str]),
    /// A non-empty name, checked elsewhere against what exists (an evaluator).
    Name,
}

/// A setting's value, whatever its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldValue {
    /// On or off.
    Switch(bool),
    /// A whole number.
    Number(u64),
    /// A name.
    Text(String),
    /// No value (an optional setting left unset).
    Unset,
}

impl fmt::Display for FieldValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Switch(on) => write!(f, "{on}"),
            Self::Number(n) => write!(f, "{n}"),
            Self::Text(text) => f.write_str(text),
            Self::Unset => Ok(()),
        }
    }
}

/// One setting: its key, what it does, what it takes, and how to read and write it.
#[derive(Clone, Copy)]
pub struct Field {
    /// The key in `config.toml`; the command-line flag is derived from it.
    pub key: &'static str,
    /// What it does, in one line (help and the setup screen).
    pub about: &'static str,
    /// The placeholder for its value in `--help` (`MS`, `N`...).
    pub value_name: &'static str,
    /// Its name on the setup screen; empty for settings the screen does not show (they are
    /// set in `config.toml` or on the command line).
    pub label: &'static str,
    /// Only the full engine uses it.
    pub full_only: bool,
    /// What values it takes.
    pub kind: FieldKind,
    /// Reads it.
    pub get: fn(&EngineSettings) -> FieldValue,
    /// Writes it (the value is of its kind; ranges are checked by `validate`).
    pub set: fn(&mut EngineSettings, FieldValue),
}

impl fmt::Debug for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Field")
            .field("key", &self.key)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

impl Field {
    /// What is allowed, as messages say it: `must be 0..=64 (0 = the game's default)`.
    pub fn expected(&self) -> String {
        match self.kind {
            FieldKind::Switch => "must be true or false".to_string(),
            FieldKind::Number { min, max, zero } => match zero {
                Some(meaning) => format!("must be {min}..={max} (0 = {meaning})"),
                None => format!("must be {min}..={max}"),
            },
            FieldKind::OptionalNumber => "must be a whole number 0 or more".to_string(),
            FieldKind::Choice(names) => format!("must be one of {}", names.join(", ")),
            FieldKind::Name => "must name an evaluator, or `default`".to_string(),
        }
    }

    /// Refuses a value outside the setting's range.
    pub fn check(&self, value: &FieldValue) -> Result<(), String> {
        let fits = match (self.kind, value) {
            (FieldKind::Switch, FieldValue::Switch(_))
            | (FieldKind::OptionalNumber, FieldValue::Number(_) | FieldValue::Unset) => true,
            (FieldKind::Number { min, max, .. }, FieldValue::Number(n)) => (min..=max).contains(n),
            (FieldKind::Choice(names), FieldValue::Text(name)) => names.contains(&name.as_str()),
            (FieldKind::Name, FieldValue::Text(name)) => !name.trim().is_empty(),
            _ => false,
        };
        if fits { Ok(()) } else { Err(self.expected()) }
    }

    /// Reads a value from text as people type it (`12`, `on`, `alphabeta`, nothing for an
    /// unset seed), checked against the range.
    pub fn parse(&self, text: &str) -> Result<FieldValue, String> {
        let text = text.trim();
        let value = match self.kind {
            FieldKind::Switch => match text.to_ascii_lowercase().as_str() {
                "true" | "yes" | "on" | "1" => FieldValue::Switch(true),
                "false" | "no" | "off" | "0" => FieldValue::Switch(false),
                _ => return Err(self.expected()),
            },
            FieldKind::OptionalNumber if text.is_empty() => FieldValue::Unset,
            FieldKind::Number { .. } | FieldKind::OptionalNumber => {
                FieldValue::Number(self.whole_number(text)?)
            }
            FieldKind::Choice(_) | FieldKind::Name => FieldValue::Text(text.to_string()),
        };
        self.check(&value)?;
        Ok(value)
    }

    /// A whole number, or what the setting allows: `must be a whole number 0..=64 ...`.
    fn whole_number(&self, text: &str) -> Result<u64, String> {
        text.parse().map_err(|_| {
            let expected = self.expected();
            let range = expected.trim_start_matches("must be ");
            if range.starts_with("a whole number") {
                expected
            } else {
                format!("must be a whole number {range}")
            }
        })
    }

    /// The current value in `settings` as text.
    pub fn text(&self, settings: &EngineSettings) -> String {
        (self.get)(settings).to_string()
    }

    /// The command-line flag without its dashes: `depth`, and for a switch that is on by
    /// default `no-tt`.
    pub fn flag(&self) -> String {
        let name = self.key.replace('_', "-");
        if self.kind == FieldKind::Switch
            && (self.get)(&EngineSettings::default()) == FieldValue::Switch(true)
        {
            format!("no-{name}")
        } else {
            name
        }
    }
}

fn number(value: &FieldValue) -> u64 {
    match value {
        FieldValue::Number(n) => *n,
        _ => 0,
    }
}

fn switch(value: &FieldValue) -> bool {
    matches!(value, FieldValue::Switch(true))
}

fn text(value: FieldValue) -> String {
    match value {
        FieldValue::Text(text) => text,
        other => other.to_string(),
    }
}

/// A number as a `usize`, saturating: out-of-range values stay out of range for `validate`.
fn saturating_usize(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// The deepest a `depth` setting may be (0 stands for the game's default).
pub const MAX_SETTING_DEPTH: u32 = 64;

/// Every setting a user can make, in the order files, menus and help list them.
pub const FIELDS: &[Field] = &[
    Field {
        key: "algorithm",
        about: "search algorithm: minimax, alphabeta or full",
        value_name: "NAME",
        label: "Algorithm",
        full_only: false,
        kind: FieldKind::Choice(Algorithm::NAMES),
        get: |s| FieldValue::Text(s.algorithm.name().to_string()),
        set: |s, v| {
            if let Ok(algorithm) = text(v).parse() {
                s.algorithm = algorithm;
            }
        },
    },
    Field {
        key: "depth",
        about: "moves to look ahead (0 = the game's default)",
        value_name: "N",
        label: "Depth",
        full_only: false,
        kind: FieldKind::Number {
            min: 0,
            max: MAX_SETTING_DEPTH as u64,
            zero: Some("the game's default"),
        },
        get: |s| FieldValue::Number(u64::from(s.limits.depth.unwrap_or(0))),
        set: |s, v| {
            let n = number(&v);
            s.limits.depth = (n > 0).then(|| u32::try_from(n).unwrap_or(u32::MAX));
        },
    },
    Field {
        key: "time_ms",
        about: "time per move in milliseconds, full engine (0 = no time limit)",
        value_name: "MS",
        label: "Time per move",
        full_only: true,
        kind: FieldKind::Number {
            min: 0,
            max: 3_600_000,
            zero: Some("no time limit"),
        },
        get: |s| FieldValue::Number(s.limits.time_ms()),
        set: |s, v| {
            let ms = number(&v);
            s.limits.time = (ms > 0).then(|| Duration::from_millis(ms));
        },
    },
    Field {
        key: "match_ms",
        about: "time for all of a side's moves in one game in milliseconds (a match clock; \
                0 = none): the full engine plans its moves from it, a brain is told it, and a \
                human's runs while the human thinks",
        value_name: "MS",
        label: "Match time",
        full_only: true,
        kind: FieldKind::Number {
            min: 0,
            max: 86_400_000,
            zero: Some("no match clock"),
        },
        get: |s| FieldValue::Number(s.match_time.map_or(0, |t| t.as_millis() as u64)),
        set: |s, v| {
            let ms = number(&v);
            s.match_time = (ms > 0).then(|| Duration::from_millis(ms));
        },
    },
    Field {
        key: "random_ties",
        about: "pick at random among equally good moves",
        value_name: "",
        label: "Random ties",
        full_only: false,
        kind: FieldKind::Switch,
        get: |s| FieldValue::Switch(s.random_ties),
        set: |s, v| s.random_ties = switch(&v),
    },
    Field {
        key: "seed",
        about: "seed of the tie-breaking randomness (repeatable games)",
        value_name: "N",
        label: "Seed",
        full_only: false,
        kind: FieldKind::OptionalNumber,
        get: |s| s.seed.map_or(FieldValue::Unset, FieldValue::Number),
        set: |s, v| {
            s.seed = match v {
                FieldValue::Number(n) => Some(n),
                _ => None,
            };
        },
    },
    Field {
        key: "ordering",
        about: "order moves by static evaluation before searching them",
        value_name: "",
        label: "",
        full_only: false,
        kind: FieldKind::Switch,
        get: |s| FieldValue::Switch(s.ordering),
        set: |s, v| s.ordering = switch(&v),
    },
    Field {
        key: "count_passes",
        about: "a move that keeps the turn (Kalah, Dots and Boxes) takes two plies of depth",
        value_name: "",
        label: "",
        full_only: false,
        kind: FieldKind::Switch,
        get: |s| FieldValue::Switch(s.count_passes),
        set: |s, v| s.count_passes = switch(&v),
    },
    Field {
        key: "evaluator",
        about: "evaluator name (`default` = the game's first)",
        value_name: "NAME",
        label: "Evaluator",
        full_only: false,
        kind: FieldKind::Name,
        get: |s| FieldValue::Text(s.evaluator.clone()),
        set: |s, v| s.evaluator = text(v),
    },
    Field {
        key: "tt_mb",
        about: "transposition table size in MiB, full engine",
        value_name: "MB",
        label: "",
        full_only: true,
        kind: FieldKind::Number {
            min: 1,
            max: 65_536,
            zero: None,
        },
        get: |s| FieldValue::Number(s.tt_mb as u64),
        set: |s, v| s.tt_mb = saturating_usize(number(&v)),
    },
    Field {
        key: "threads",
        about: "search threads, full engine (0 = one per core)",
        value_name: "N",
        label: "",
        full_only: true,
        kind: FieldKind::Number {
            min: 0,
            max: 256,
            zero: Some("one per core"),
        },
        get: |s| FieldValue::Number(s.threads as u64),
        set: |s, v| s.threads = saturating_usize(number(&v)),
    },
    Field {
        key: "tt",
        about: "full engine: use the transposition table",
        value_name: "",
        label: "",
        full_only: true,
        kind: FieldKind::Switch,
        get: |s| FieldValue::Switch(s.tt),
        set: |s, v| s.tt = switch(&v),
    },
    Field {
        key: "killers",
        about: "full engine: killer moves in the ordering",
        value_name: "",
        label: "",
        full_only: true,
        kind: FieldKind::Switch,
        get: |s| FieldValue::Switch(s.killers),
        set: |s, v| s.killers = switch(&v),
    },
    Field {
        key: "history",
        about: "full engine: the history heuristic in the ordering",
        value_name: "",
        label: "",
        full_only: true,
        kind: FieldKind::Switch,
        get: |s| FieldValue::Switch(s.history),
        set: |s, v| s.history = switch(&v),
    },
    Field {
        key: "pvs",
        about: "full engine: principal variation search",
        value_name: "",
        label: "",
        full_only: true,
        kind: FieldKind::Switch,
        get: |s| FieldValue::Switch(s.pvs),
        set: |s, v| s.pvs = switch(&v),
    },
    Field {
        key: "aspiration",
        about: "full engine: aspiration windows",
        value_name: "",
        label: "",
        full_only: true,
        kind: FieldKind::Switch,
        get: |s| FieldValue::Switch(s.aspiration),
        set: |s, v| s.aspiration = switch(&v),
    },
    Field {
        key: "reductions",
        about: "full engine: late move reductions where candidates are limited (Gomoku)",
        value_name: "",
        label: "",
        full_only: true,
        kind: FieldKind::Switch,
        get: |s| FieldValue::Switch(s.reductions),
        set: |s, v| s.reductions = switch(&v),
    },
    Field {
        key: "pruning",
        about: "full engine: late move and distraction pruning near the horizon where candidates are limited (Gomoku)",
        value_name: "",
        label: "",
        full_only: true,
        kind: FieldKind::Switch,
        get: |s| FieldValue::Switch(s.pruning),
        set: |s, v| s.pruning = switch(&v),
    },
    Field {
        key: "futility",
        about: "full engine: reverse futility pruning near the horizon where candidates are limited (Gomoku)",
        value_name: "",
        label: "",
        full_only: true,
        kind: FieldKind::Switch,
        get: |s| FieldValue::Switch(s.futility),
        set: |s, v| s.futility = switch(&v),
    },
    Field {
        key: "singular",
        about: "full engine: singular extensions far from the horizon where candidates are limited (Gomoku; off by default)",
        value_name: "",
        label: "",
        full_only: true,
        kind: FieldKind::Switch,
        get: |s| FieldValue::Switch(s.singular),
        set: |s, v| s.singular = switch(&v),
    },
];

/// Reads one setting's value, refusing a value of the wrong type where it stands (so a
/// config file's message names the key, the value and its line).
struct FieldSeed(&'static Field);

impl<'de> DeserializeSeed<'de> for FieldSeed {
    type Value = FieldValue;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<FieldValue, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl FieldSeed {
    /// The value if it is of the setting's type (a choice: one of its names), else serde's
    /// "invalid type" naming what is allowed. Ranges are checked by `validate`, as for
    /// values set any other way.
    fn accept<E: de::Error>(
        &self,
        value: FieldValue,
        shown: Unexpected<'_>,
    ) -> Result<FieldValue, E> {
        let fits = match (self.0.kind, &value) {
            (FieldKind::Switch, FieldValue::Switch(_))
            | (FieldKind::Number { .. }, FieldValue::Number(_))
            | (FieldKind::OptionalNumber, FieldValue::Number(_) | FieldValue::Unset)
            | (FieldKind::Name, FieldValue::Text(_)) => true,
            (FieldKind::Choice(_), FieldValue::Text(_)) => self.0.check(&value).is_ok(),
            _ => false,
        };
        if fits {
            Ok(value)
        } else {
            self.refuse(&value, shown)
        }
    }

    /// Serde's "invalid type" (or, for a name a choice does not offer, "invalid value")
    /// naming what the setting allows.
    fn refuse<E: de::Error>(
        &self,
        value: &FieldValue,
        shown: Unexpected<'_>,
    ) -> Result<FieldValue, E> {
        let expected = self.0.expected();
        let wanted = expected.trim_start_matches("must be ");
        match self.0.kind {
            FieldKind::Switch => Err(E::invalid_type(shown, &"a boolean")),
            FieldKind::Choice(_) if matches!(value, FieldValue::Text(_)) => {
                Err(E::invalid_value(shown, &wanted))
            }
            FieldKind::Number { .. } => Err(E::invalid_type(
                shown,
                &format!("a whole number {wanted}").as_str(),
            )),
            _ => Err(E::invalid_type(shown, &wanted)),
        }
    }
}

impl<'de> Visitor<'de> for FieldSeed {
    type Value = FieldValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.expected().trim_start_matches("must be "))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<FieldValue, E> {
        self.accept(FieldValue::Switch(v), Unexpected::Bool(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<FieldValue, E> {
        self.accept(FieldValue::Number(v), Unexpected::Unsigned(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<FieldValue, E> {
        match u64::try_from(v) {
            Ok(n) => self.visit_u64(n),
            Err(_) => self.refuse(&FieldValue::Number(0), Unexpected::Signed(v)),
        }
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<FieldValue, E> {
        self.refuse(&FieldValue::Number(0), Unexpected::Float(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<FieldValue, E> {
        match self.0.kind {
            FieldKind::Choice(_) | FieldKind::Name => {
                self.accept(FieldValue::Text(v.to_string()), Unexpected::Str(v))
            }
            // A number or switch written as text is refused, not guessed at.
            _ => self.refuse(&FieldValue::Text(v.to_string()), Unexpected::Str(v)),
        }
    }

    fn visit_unit<E: de::Error>(self) -> Result<FieldValue, E> {
        self.accept(FieldValue::Unset, Unexpected::Unit)
    }

    fn visit_none<E: de::Error>(self) -> Result<FieldValue, E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<FieldValue, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl Serialize for EngineSettings {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        self.serialize_fields(&mut map)?;
        map.end()
    }
}

impl<'de> Deserialize<'de> for EngineSettings {
    /// Any subset of the keys of [`FIELDS`]; the rest keep their defaults.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SettingsVisitor;

        impl<'de> Visitor<'de> for SettingsVisitor {
            type Value = EngineSettings;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a table of engine settings")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<EngineSettings, A::Error> {
                let mut settings = EngineSettings::default();
                let known: Vec<&str> = keys().collect();
                while let Some(key) = next_known_key(&mut map, &known)? {
                    settings.deserialize_field(&key, &mut map, &[])?;
                }
                Ok(settings)
            }
        }

        deserializer.deserialize_map(SettingsVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidate_limits_are_wider_at_the_root_and_far_from_the_horizon() {
        let far = WIDEN_FROM_DEPTH + WIDEN_STEPS;
        for depth in 0..far + 3 {
            assert_eq!(candidates_at(12, 0, depth), 24, "the root at depth {depth}");
            assert_eq!(candidates_at(0, 0, depth), 0, "no limit stays none");
            assert_eq!(candidates_at(0, 3, depth), 0, "no limit stays none");
        }
        for depth in 0..=WIDEN_FROM_DEPTH {
            assert_eq!(candidates_at(12, 1, depth), 12, "depth {depth}");
            assert_eq!(candidates_at(12, 5, depth), 12, "depth {depth}");
        }
        let widened: Vec<usize> = (WIDEN_FROM_DEPTH + 1..=far)
            .map(|depth| candidates_at(12, 2, depth))
            .collect();
        assert_eq!(widened, [14, 16, 18, 20, 22]);
        for depth in far..far + 3 {
            assert_eq!(candidates_at(12, 4, depth), 22, "depth {depth}");
        }
        // Small limits never shrink, and huge ones do not overflow.
        assert_eq!(candidates_at(1, 2, far), 1);
        assert_eq!(candidates_at(3, 2, far), 5);
        assert!(candidates_at(usize::MAX, 2, far) >= usize::MAX / 6);
    }

    /// Settings where every field differs from the default.
    fn changed() -> EngineSettings {
        let defaults = EngineSettings::default();
        EngineSettings {
            algorithm: Algorithm::Minimax,
            limits: Limits {
                depth: Some(7),
                time: Some(Duration::from_millis(250)),
                target: None,
            },
            match_time: Some(Duration::from_secs(60)),
            random_ties: false,
            seed: Some(42),
            evaluator: "lines".to_string(),
            ordering: false,
            count_passes: !defaults.count_passes,
            threads: 3,
            tt_mb: 8,
            tt: false,
            killers: false,
            history: false,
            pvs: false,
            aspiration: false,
            reductions: false,
            pruning: false,
            futility: false,
            singular: true,
            ..defaults
        }
    }

    #[test]
    fn every_field_is_in_the_table() {
        // A field added to the struct but not to FIELDS would not be read, written, set or
        // validated: each table entry must move exactly one field off its default.
        let defaults = EngineSettings::default();
        let target = changed();
        for field in FIELDS {
            let mut one = defaults.clone();
            (field.set)(&mut one, (field.get)(&target));
            assert_ne!(one, defaults, "{} sets nothing", field.key);
        }
        let mut all = defaults.clone();
        for field in FIELDS {
            (field.set)(&mut all, (field.get)(&target));
        }
        assert_eq!(all, target, "some field is missing from FIELDS");
        // The resolved-only fields are not user settings.
        let EngineSettings {
            algorithm: _,
            limits: _,
            match_time: _,
            random_ties: _,
            seed: _,
            evaluator: _,
            ordering: _,
            count_passes: _,
            threads: _,
            tt_mb: _,
            tt: _,
            killers: _,
            history: _,
            pvs: _,
            aspiration: _,
            reductions: _,
            pruning: _,
            futility: _,
            singular: _,
            candidates: _,
            solve: _,
        } = all;
    }

    #[test]
    fn settings_round_trip_through_toml_and_json() {
        let target = changed();
        let text = toml::to_string(&target).unwrap();
        let back: EngineSettings = toml::from_str(&text).unwrap();
        assert_eq!(back, target, "{text}");
        let json = serde_json::to_string(&EngineSettings::default()).unwrap();
        let back: EngineSettings = serde_json::from_str(&json).unwrap();
        assert_eq!(back, EngineSettings::default());
        let null_seed: EngineSettings = serde_json::from_str(r#"{"seed": null}"#).unwrap();
        assert_eq!(null_seed.seed, None);
        for refused in ["seed = -5", "seed = 1.5", "seed = \"7\"", "depth = -1"] {
            assert!(
                toml::from_str::<EngineSettings>(refused).is_err(),
                "{refused}"
            );
        }
    }

    #[test]
    fn values_are_refused_with_their_range() {
        let err = toml::from_str::<EngineSettings>("depth = \"deep\"").unwrap_err();
        assert!(err.message().contains("a whole number 0..=64"), "{err}");
        let deep: EngineSettings = toml::from_str("depth = 65").unwrap();
        assert_eq!(deep.validate().unwrap_err().key, "depth");
        let err = toml::from_str::<EngineSettings>("tt = 1").unwrap_err();
        assert!(err.message().contains("a boolean"), "{err}");
        let err = toml::from_str::<EngineSettings>("algorithm = \"fast\"").unwrap_err();
        assert!(err.message().contains("minimax, alphabeta, full"), "{err}");
        let err = toml::from_str::<EngineSettings>("colour = 1").unwrap_err();
        assert!(err.message().contains("unknown field `colour`"), "{err}");
        let mut s = EngineSettings::default();
        assert_eq!(
            s.set("threads", "999").unwrap_err().to_string(),
            "threads = 999: must be 0..=256 (0 = one per core)"
        );
        s.set("depth", "12").unwrap();
        s.set("time_ms", "0").unwrap();
        s.set("tt", "off").unwrap();
        s.set("seed", "").unwrap();
        assert_eq!(s.limits, Limits::depth(12));
        assert!(!s.tt);
        assert_eq!(s.seed, None);
        s.tt_mb = 0;
        assert_eq!(s.validate().unwrap_err().key, "tt_mb");
    }

    #[test]
    fn resolving_fills_in_the_game_depth_unless_timed() {
        let timed = EngineSettings::default();
        assert_eq!(timed.resolved(6, 0).limits.depth, None);
        let untimed = EngineSettings {
            limits: Limits::default(),
            ..EngineSettings::default()
        };
        assert_eq!(untimed.resolved(6, 5).limits.depth, Some(6));
        assert_eq!(untimed.resolved(6, 5).candidates, 5);
        let alphabeta = EngineSettings {
            algorithm: Algorithm::AlphaBeta,
            ..EngineSettings::default()
        };
        assert_eq!(alphabeta.resolved(4, 0).limits.depth, Some(4));
    }
}
