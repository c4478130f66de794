//! The tournament file: which game, its options, the openings and the entrants (named engine
//! settings), read from TOML or from `--entrant` flags. Every refusal names the file, the
//! entrant and the field. Nothing here plays a game.
//!
//! ```toml
//! game = "kalah"          # tictactoe, gomoku, kalah or dots (required)
//! games = 10              # games per side per pairing (each entrant moves first this often)
//! seed = 1                # same seed and settings: the same games
//! jobs = 0                # games played at once; 0 = one per core
//!
//! [options]               # game options over the config's [kalah] section
//! pits = 6
//!
//! [openings]              # each opening is played twice, colours swapped
//! random_plies = 2        # random legal moves from the seed, or:
//! # file = "openings.txt" # one opening per line in move notation (relative to this file)
//! # moves = ["a b", "c"]  # or the same lines inline
//!
//! [[entrant]]
//! name = "store-d4"       # required, unique
//! algorithm = "alphabeta" # minimax or alphabeta (default alphabeta)
//! depth = 4               # 0 = the game's default depth
//! time_ms = 0             # time per move (iterative engine); 0 = depth only
//! evaluator = "store"     # the game's evaluator names; default = the game's first
//! ordering = true
//! random_ties = true      # ties broken by the game's seed, so games stay reproducible
//! threads = 1
//! tt_mb = 64
//! weights = { store = 1.0, pits = [0.3] }   # the evaluator's weights: [options.<evaluator>]
//! options = { depth = 6 } # any other game option for this entrant's engine only
//!
//! [[entrant]]             # an external Gomocup brain (Gomoku only; see docs/brain.md)
//! name = "x"
//! brain = "./pbrain-x"    # its program, and arguments split at spaces
//! args = ["--fast"]       # more arguments (ones with spaces)
//! time_ms = 1000          # its time per move; tt_mb is the memory it is told it has
//! match_ms = 0            # its time for all its moves in a game (a match clock); 0 = none
//! ```

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use crate::config::{Config, PlayerKind, SideConfig};
use crate::engine::settings::{EngineSettings, FieldKind};
use crate::error::ConfigError;
use crate::games::{GameKind, GameOptions, Playable, evaluator_for};

/// Games per side per pairing when the file does not say.
pub const DEFAULT_GAMES: u32 = 10;
/// Random opening plies when the file does not say.
pub const DEFAULT_RANDOM_PLIES: u32 = 2;

/// A tournament as written, before the game type is known.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentSpec {
    /// The file (or `command line`) named in messages.
    pub source: String,
    /// The game.
    pub game: Option<GameKind>,
    /// Game options laid over the config's section for the game.
    pub options: toml::Table,
    /// Games per side per pairing.
    pub games_per_side: u32,
    /// The tournament seed.
    pub seed: u64,
    /// Games played at once; 0 = one per core.
    pub jobs: usize,
    /// Where games start.
    pub openings: OpeningsSpec,
    /// The entrants, in file order (the first is the Elo reference).
    pub entrants: Vec<EntrantSpec>,
}

impl Default for TournamentSpec {
    fn default() -> Self {
        Self {
            source: "command line".to_string(),
            game: None,
            options: toml::Table::new(),
            games_per_side: DEFAULT_GAMES,
            seed: 1,
            jobs: 0,
            openings: OpeningsSpec::default(),
            entrants: Vec::new(),
        }
    }
}

/// Where games start: a number of random plies, or listed openings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningsSpec {
    /// Random legal plies from the initial position (used when `lines` is empty).
    pub random_plies: u32,
    /// Openings in move notation, each with where it came from (`file:line`).
    pub lines: Vec<(String, String)>,
}

impl Default for OpeningsSpec {
    fn default() -> Self {
        Self {
            random_plies: DEFAULT_RANDOM_PLIES,
            lines: Vec::new(),
        }
    }
}

/// One entrant as written: a name, engine settings and option overrides.
#[derive(Clone, Debug, PartialEq)]
pub struct EntrantSpec {
    /// Unique name.
    pub name: String,
    /// Engine settings (`kind`, `seed` unused: every game seeds its own).
    pub side: SideConfig,
    /// Game options for this entrant's engine (evaluator weights, default depth ...),
    /// `weights` already moved under the evaluator's name.
    pub options: toml::Table,
    /// How messages name it: `entrant 2 ("fast")`.
    pub label: String,
    /// Where it was written (file or `--entrant`).
    pub source: String,
}

/// The fields an entrant may have besides the engine settings (all of
/// [`crate::engine::settings::FIELDS`]), in the order messages list them.
pub const ENTRANT_FIELDS: &[&str] = &["name", "weights", "options", "brain", "args"];

const TOP_FIELDS: &[&str] = &[
    "game", "games", "seed", "jobs", "options", "openings", "entrant",
];
const OPENING_FIELDS: &[&str] = &["random_plies", "file", "moves"];

fn value_text(value: &toml::Value) -> String {
    value.to_string()
}

fn field<T: DeserializeOwned>(
    value: &toml::Value,
    source: &str,
    key: &str,
    expected: &str,
) -> Result<T, ConfigError> {
    value
        .clone()
        .try_into()
        .map_err(|_| ConfigError::new(source, key, value_text(value), expected))
}

fn unknown(source: &str, key: &str, known: &[&str]) -> ConfigError {
    ConfigError {
        source_name: source.to_string(),
        key: key.to_string(),
        value: String::new(),
        expected: format!("unknown field; expected one of {}", known.join(", ")),
    }
}

impl TournamentSpec {
    /// Reads a tournament file.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let (text, name) = ConfigError::read_file(path)?;
        Self::parse(&text, &name, path.parent())
    }

    /// Parses tournament text; `source` names it in messages and `dir` is where relative
    /// opening files are looked for.
    pub fn parse(text: &str, source: &str, dir: Option<&Path>) -> Result<Self, ConfigError> {
        let table: toml::Table =
            toml::from_str(text).map_err(|e| crate::config::syntax_error(source, text, &e))?;
        let mut spec = Self {
            source: source.to_string(),
            ..Self::default()
        };
        for (key, value) in &table {
            match key.as_str() {
                "game" => {
                    let name: String = field(value, source, key, "a game name")?;
                    spec.game = Some(name.parse().map_err(|e: String| {
                        ConfigError::new(source, key, value_text(value), e)
                    })?);
                }
                "games" => {
                    spec.games_per_side = field(value, source, key, "must be 1..=100000")?;
                    if !(1..=100_000).contains(&spec.games_per_side) {
                        return Err(ConfigError::new(
                            source,
                            key,
                            value_text(value),
                            "must be 1..=100000",
                        ));
                    }
                }
                "seed" => spec.seed = field(value, source, key, "a whole number 0 or more")?,
                "jobs" => {
                    spec.jobs = field(value, source, key, "must be 0..=1024 (0 = one per core)")?;
                    if spec.jobs > 1024 {
                        return Err(ConfigError::new(
                            source,
                            key,
                            value_text(value),
                            "must be 0..=1024 (0 = one per core)",
                        ));
                    }
                }
                "options" => {
                    spec.options = field(value, source, key, "a table of game options")?;
                }
                "openings" => spec.openings = parse_openings(value, source, dir)?,
                "entrant" => {
                    let list: Vec<toml::Value> =
                        field(value, source, key, "a list of [[entrant]] tables")?;
                    for (i, item) in list.iter().enumerate() {
                        let label = format!("entrant {}", i + 1);
                        let entrant: toml::Table =
                            field(item, source, &label, "an [[entrant]] table")?;
                        spec.add_entrant(&entrant, source)?;
                    }
                }
                _ => return Err(unknown(source, key, TOP_FIELDS)),
            }
        }
        Ok(spec)
    }

    /// Adds an entrant from its table (from the file or an `--entrant` flag), checking
    /// every field and that its name is new.
    pub fn add_entrant(&mut self, table: &toml::Table, source: &str) -> Result<(), ConfigError> {
        let number = self.entrants.len() + 1;
        let entrant = parse_entrant(table, source, number)?;
        if let Some(other) = self.entrants.iter().find(|e| e.name == entrant.name) {
            return Err(ConfigError::new(
                source,
                format!("{}.name", entrant.label),
                format!("{:?}", entrant.name),
                format!("is already the name of {}", other.label),
            ));
        }
        self.entrants.push(entrant);
        Ok(())
    }
}

/// The openings of an openings file's text: each non-blank line that is not a `#` comment,
/// trimmed, with its 1-based line number.
pub fn opening_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .map(str::trim)
        .enumerate()
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .map(|(i, line)| (i + 1, line))
}

fn parse_openings(
    value: &toml::Value,
    source: &str,
    dir: Option<&Path>,
) -> Result<OpeningsSpec, ConfigError> {
    let table: toml::Table = field(value, source, "openings", "a table")?;
    let mut openings = OpeningsSpec::default();
    for (key, value) in &table {
        let dotted = format!("openings.{key}");
        match key.as_str() {
            "random_plies" => {
                openings.random_plies = field(value, source, &dotted, "must be 0..=1000")?;
                if openings.random_plies > 1000 {
                    return Err(ConfigError::new(
                        source,
                        dotted,
                        value_text(value),
                        "must be 0..=1000",
                    ));
                }
            }
            "moves" => {
                let lines: Vec<String> = field(
                    value,
                    source,
                    &dotted,
                    "a list of move strings like \"b2 a1\"",
                )?;
                if lines.is_empty() {
                    return Err(ConfigError::new(
                        source,
                        dotted,
                        "[]",
                        "holds no openings: list at least one, like [\"b2 a1\"], or leave \
                         `moves` out for random openings",
                    ));
                }
                for (i, line) in lines.into_iter().enumerate() {
                    openings
                        .lines
                        .push((format!("{source}: openings.moves[{}]", i + 1), line));
                }
            }
            "file" => {
                let name: String = field(value, source, &dotted, "a file name")?;
                let path = dir.map_or_else(|| PathBuf::from(&name), |d| d.join(&name));
                let text = crate::files::read_text(&path, crate::files::MAX_SETTINGS_BYTES)
                    .map_err(|e| {
                        ConfigError::new(source, &dotted, &name, format!("cannot be read: {e}"))
                    })?;
                for (number, line) in opening_lines(&text) {
                    openings
                        .lines
                        .push((format!("{}:{number}", path.display()), line.to_string()));
                }
                if openings.lines.is_empty() {
                    return Err(ConfigError::new(
                        source,
                        dotted,
                        name,
                        "holds no openings (one per line, `#` starts a comment)",
                    ));
                }
            }
            _ => return Err(unknown(source, &dotted, OPENING_FIELDS)),
        }
    }
    Ok(openings)
}

fn parse_entrant(
    table: &toml::Table,
    source: &str,
    number: usize,
) -> Result<EntrantSpec, ConfigError> {
    let name = match table.get("name") {
        Some(toml::Value::String(s)) if !s.trim().is_empty() => s.trim().to_string(),
        Some(other) => {
            return Err(ConfigError::new(
                source,
                format!("entrant {number}.name"),
                value_text(other),
                "must be a non-empty string",
            ));
        }
        None => {
            return Err(ConfigError::new(
                source,
                format!("entrant {number}"),
                "",
                "has no `name`",
            ));
        }
    };
    let label = format!("entrant {number} ({name:?})");
    let mut side = SideConfig::default();
    let mut options = toml::Table::new();
    let mut weights: Option<toml::Table> = None;
    for (key, value) in table {
        let at = format!("{label}.{key}");
        let text = value_text(value);
        let refuse = |expected: &str| ConfigError::new(source, &at, &text, expected);
        match key.as_str() {
            "name" => {}
            "weights" => {
                weights = Some(field(
                    value,
                    source,
                    &at,
                    "a table of the evaluator's weights, like { store = 1.0 }",
                )?);
            }
            "options" => options = field(value, source, &at, "a table of game options")?,
            "brain" => {
                let command: String = field(
                    value,
                    source,
                    &at,
                    "the brain's program (and arguments) in quotes, like \"./pbrain-x\"",
                )?;
                let mut words = command.split_whitespace().map(ToString::to_string);
                let Some(program) = words.next() else {
                    return Err(refuse("must name the brain's program, like \"./pbrain-x\""));
                };
                side.kind = PlayerKind::Brain;
                side.brain.command = program;
                let mut leading: Vec<String> = words.collect();
                leading.append(&mut side.brain.args);
                side.brain.args = leading;
            }
            "args" => {
                let args: Vec<String> = field(
                    value,
                    source,
                    &at,
                    "a list of the brain's arguments in quotes, like [\"--fast\"]",
                )?;
                side.brain.args.extend(args);
            }
            _ => {
                let Some(setting) = EngineSettings::field(key) else {
                    let (name, own) = ENTRANT_FIELDS.split_at(1);
                    let known: Vec<&str> = name
                        .iter()
                        .copied()
                        .chain(crate::engine::settings::keys())
                        .chain(own.iter().copied())
                        .collect();
                    return Err(unknown(source, &at, &known));
                };
                side.engine
                    .set_from(setting, value.clone())
                    .map_err(|_| refuse(&setting.expected()))?;
            }
        }
    }
    side.validate(source, &label)?;
    if side.kind != PlayerKind::Brain && table.contains_key("args") {
        return Err(ConfigError::new(
            source,
            format!("{label}.args"),
            "",
            "belongs to a brain entrant: add `brain = \"path/to/pbrain-x\"`",
        ));
    }
    if let Some(weights) = weights {
        // The evaluator's weights live in the game options under the evaluator's name
        // (`[kalah.linear]` for Kalah's `linear`), so `weights` is a shorthand for them.
        let evaluator = side.engine.evaluator.clone();
        if evaluator == "default" {
            return Err(ConfigError::new(
                source,
                format!("{label}.weights"),
                "",
                "needs `evaluator` to name the evaluator the weights belong to",
            ));
        }
        let mut nested = toml::Table::new();
        nested.insert(evaluator, toml::Value::Table(weights));
        merge(&mut options, &nested);
    }
    Ok(EntrantSpec {
        name,
        side,
        options,
        label,
        source: source.to_string(),
    })
}

/// Lays `over` onto `base`: tables merge key by key, anything else is replaced.
pub fn merge(base: &mut toml::Table, over: &toml::Table) {
    for (key, value) in over {
        match (base.get_mut(key), value) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
            _ => {
                base.insert(key.clone(), value.clone());
            }
        }
    }
}

/// Reads an `--entrant` flag: `key=value` pairs separated by commas, such as
/// `name=d6,depth=6,evaluator=linear,weights.store=1.5,weights.pits=[0.3,0.2]`. Values are
/// TOML (numbers, booleans, `[lists]`); anything else is taken as text. Dotted keys make
/// nested tables.
pub fn parse_entrant_flag(text: &str) -> Result<toml::Table, String> {
    let mut table = toml::Table::new();
    for item in split_top_level(text) {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let Some((key, value)) = item.split_once('=') else {
            return Err(format!(
                "`{item}` is not key=value (like name=d6,depth=6,evaluator=store)"
            ));
        };
        let key = key.trim();
        let value = value.trim();
        let is_name = key == "name"
            || EngineSettings::field(key)
                .is_some_and(|f| matches!(f.kind, FieldKind::Choice(_) | FieldKind::Name));
        let parsed = if is_name {
            toml::Value::String(value.trim_matches('"').to_string())
        } else {
            toml::from_str::<toml::Table>(&format!("v = {value}"))
                .ok()
                .and_then(|mut t| t.remove("v"))
                .unwrap_or_else(|| toml::Value::String(value.to_string()))
        };
        let mut path: Vec<&str> = key.split('.').map(str::trim).collect();
        let Some(last) = path.pop() else {
            return Err(format!("`{item}` has an empty key"));
        };
        if last.is_empty() || path.iter().any(|p| p.is_empty()) {
            return Err(format!("`{item}` has an empty key"));
        }
        let mut nested = toml::Table::new();
        nested.insert(last.to_string(), parsed);
        for part in path.into_iter().rev() {
            let mut outer = toml::Table::new();
            outer.insert(part.to_string(), toml::Value::Table(nested));
            nested = outer;
        }
        merge(&mut table, &nested);
    }
    Ok(table)
}

/// Splits on commas that are not inside brackets, braces or quotes.
fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut quoted = false;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '[' | '{' if !quoted => depth += 1,
            ']' | '}' if !quoted => depth -= 1,
            ',' if !quoted && depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// An entrant ready to play game `G`: its name, engine settings and its own game options.
#[derive(Clone, Debug)]
pub struct Entrant<G: Playable> {
    /// Unique name.
    pub name: String,
    /// Engine settings.
    pub side: SideConfig,
    /// The game options its engine uses (evaluator weights, default depth ...); the board
    /// always comes from the tournament's options.
    pub options: G::Options,
}

/// A tournament ready to play game `G`.
#[derive(Clone, Debug)]
pub struct Tournament<G: Playable> {
    /// The options the board is set up from.
    pub options: G::Options,
    /// The entrants; the first is the Elo reference.
    pub entrants: Vec<Entrant<G>>,
    /// Games per side per pairing.
    pub games_per_side: u32,
    /// The seed every game's randomness derives from.
    pub seed: u64,
    /// Games played at once; 0 = one per core.
    pub jobs: usize,
    /// Random opening plies (used when `openings` is empty).
    pub random_plies: u32,
    /// Listed openings, already checked against the rules.
    pub openings: Vec<Vec<G::Move>>,
}

/// The game options `table` (laid over the config's section for `G`) as `G::Options`,
/// validated; `key` names the table in messages.
pub fn options_from<G: Playable>(
    config: &Config,
    table: &toml::Table,
    source: &str,
    key: &str,
) -> Result<G::Options, ConfigError> {
    let base = config.game_options::<G>()?;
    let mut merged = toml::Table::try_from(&base).map_err(|e| {
        ConfigError::new(source, key, "", format!("cannot be written as TOML: {e}"))
    })?;
    merge(&mut merged, table);
    let options: G::Options = crate::config::from_toml_table(&merged, source, key)?;
    options.validate(source).map_err(|e| ConfigError {
        key: format!("{key}: {}", e.key),
        source_name: source.to_string(),
        ..e
    })?;
    Ok(options)
}

impl TournamentSpec {
    /// Checks the spec against game `G`: options, evaluators, weights and openings.
    pub fn resolve<G: Playable>(&self, config: &Config) -> Result<Tournament<G>, ConfigError> {
        let options = options_from::<G>(config, &self.options, &self.source, "options")?;
        if self.entrants.len() < 2 {
            return Err(ConfigError::new(
                &self.source,
                "entrant",
                "",
                format!(
                    "a tournament needs at least 2 entrants, found {}",
                    self.entrants.len()
                ),
            ));
        }
        let mut entrants = Vec::new();
        for spec in &self.entrants {
            let mut table = self.options.clone();
            merge(&mut table, &spec.options);
            let entrant_options = options_from::<G>(
                config,
                &table,
                &spec.source,
                &format!("{}.options", spec.label),
            )?;
            evaluator_for::<G>(
                &entrant_options,
                &spec.side.engine.evaluator,
                &spec.source,
                &format!("{}.evaluator", spec.label),
            )?;
            if spec.side.kind == PlayerKind::Brain {
                // Refuses a brain for another game than five-in-a-row Gomoku.
                crate::player::SidePlayer::<G>::new(
                    &spec.side,
                    &options,
                    &spec.source,
                    &spec.label,
                )?;
            }
            entrants.push(Entrant {
                name: spec.name.clone(),
                side: spec.side.clone(),
                options: entrant_options,
            });
        }
        let mut openings = Vec::new();
        for (origin, line) in &self.openings.lines {
            let mut game = G::new_game(&options);
            let moves = game.play_line(line).map_err(|e| {
                ConfigError::new(origin, "opening", line, format!("cannot be played: {e}"))
            })?;
            if game.outcome().is_some() {
                return Err(ConfigError::new(
                    origin,
                    "opening",
                    line,
                    "ends the game: an opening must leave moves to play",
                ));
            }
            openings.push(moves);
        }
        let tournament = Tournament {
            options,
            entrants,
            games_per_side: self.games_per_side,
            seed: self.seed,
            jobs: self.jobs,
            random_plies: self.openings.random_plies,
            openings,
        };
        self.check_random_plies(&tournament)?;
        Ok(tournament)
    }

    /// Refuses more random plies than the game leaves room for: a random opening stops
    /// short when every further move would end the game, and the games would not start
    /// where the file says. Checked over the first [`CHECKED_OPENINGS`] openings.
    fn check_random_plies<G: Playable>(
        &self,
        tournament: &Tournament<G>,
    ) -> Result<(), ConfigError> {
        let wanted = tournament.random_plies as usize;
        if !tournament.openings.is_empty() || wanted == 0 {
            return Ok(());
        }
        let checked = (tournament.games_per_side as usize).min(CHECKED_OPENINGS);
        let short = (0..checked)
            .map(|k| (k, super::opening(tournament, k).len()))
            .find(|&(_, plies)| plies < wanted);
        match short {
            None => Ok(()),
            Some((k, plies)) => Err(ConfigError::new(
                &self.source,
                "openings.random_plies",
                wanted.to_string(),
                format!(
                    "is more than {} leaves room for: random opening {} stops after {plies} \
                     plies (every further move would end the game); use {plies} or fewer",
                    G::KIND.title(),
                    k + 1
                ),
            )),
        }
    }
}

/// How many random openings [`TournamentSpec::resolve`] plays out to check `random_plies`.
const CHECKED_OPENINGS: usize = 256;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_become_tables() {
        let t = parse_entrant_flag(
            "name=d6, depth=6,evaluator=linear,weights.store=1.5,weights.pits=[0.3, 0.2]",
        )
        .unwrap();
        assert_eq!(t["name"].as_str(), Some("d6"));
        assert_eq!(t["depth"].as_integer(), Some(6));
        assert_eq!(t["weights"]["store"].as_float(), Some(1.5));
        assert_eq!(t["weights"]["pits"].as_array().map(Vec::len), Some(2));
        assert!(
            parse_entrant_flag("name")
                .unwrap_err()
                .contains("key=value")
        );
        assert!(parse_entrant_flag("=3").unwrap_err().contains("empty key"));
    }

    #[test]
    fn merge_keeps_what_is_not_replaced() {
        let mut base: toml::Table = toml::from_str("a = 1\n[t]\nx = 1\ny = 2\n").unwrap();
        let over: toml::Table = toml::from_str("b = 2\n[t]\ny = 3\n").unwrap();
        merge(&mut base, &over);
        assert_eq!(base["a"].as_integer(), Some(1));
        assert_eq!(base["t"]["x"].as_integer(), Some(1));
        assert_eq!(base["t"]["y"].as_integer(), Some(3));
    }

    #[test]
    fn weights_go_under_the_evaluator() {
        let spec = TournamentSpec::parse(
            "game = \"kalah\"\n[[entrant]]\nname = \"a\"\nevaluator = \"linear\"\nweights = { store = 2.0 }\n",
            "t.toml",
            None,
        )
        .unwrap();
        assert_eq!(
            spec.entrants[0].options["linear"]["store"].as_float(),
            Some(2.0)
        );
    }
}
