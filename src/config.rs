//! `config.toml`: every default of the program, compiled in (so it runs with no file at all)
//! and overridable with `--config PATH`. Unknown keys, wrong types and out-of-range values
//! are refused with a message naming the file, the key, the value and what is allowed.

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::engine::Player;
use crate::engine::api::{Algorithm, SearchSettings};
use crate::error::ConfigError;
use crate::games::{GameKind, GameOptions, Playable};

/// The shipped defaults, the same text as `config.toml` at the crate root.
pub const DEFAULT_CONFIG: &str = include_str!("../config.toml");

/// Name used in messages for the compiled-in defaults.
pub const BUILTIN_NAME: &str = "config.toml (built in)";

/// The whole configuration. Every key may be left out of a file: it then keeps its default,
/// so a user's file need only hold what it changes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The game the program opens with.
    pub game: GameKind,
    /// Who plays each side and how the engine searches for it.
    pub players: PlayersConfig,
    /// Search-tree recording.
    pub tree: TreeConfig,
    /// The terminal UI.
    pub ui: UiConfig,
    /// Tic-tac-toe options (see `games::tictactoe`); checked by [`Config::game_options`].
    pub tictactoe: toml::Table,
    /// Gomoku options.
    pub gomoku: toml::Table,
    /// Kalah options.
    pub kalah: toml::Table,
    /// Dots and Boxes options.
    pub dots: toml::Table,
    /// Where this configuration came from (a path, or the built-in defaults).
    #[serde(skip)]
    pub source: String,
}

/// The two sides. `first` moves first from the initial position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlayersConfig {
    /// The side that moves first (X, Black, South, the first to draw a line).
    pub first: SideConfig,
    /// The other side.
    pub second: SideConfig,
}

impl Default for PlayersConfig {
    fn default() -> Self {
        Self {
            first: SideConfig {
                kind: PlayerKind::Human,
                ..SideConfig::default()
            },
            second: SideConfig::default(),
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            game: GameKind::TicTacToe,
            players: PlayersConfig::default(),
            tree: TreeConfig::default(),
            ui: UiConfig::default(),
            tictactoe: toml::Table::new(),
            gomoku: toml::Table::new(),
            kalah: toml::Table::new(),
            dots: toml::Table::new(),
            source: BUILTIN_NAME.to_string(),
        }
    }
}

impl PlayersConfig {
    /// The settings of `player`'s side.
    pub fn side(&self, player: Player) -> &SideConfig {
        match player {
            Player::First => &self.first,
            Player::Second => &self.second,
        }
    }

    /// The settings of `player`'s side, to change.
    pub fn side_mut(&mut self, player: Player) -> &mut SideConfig {
        match player {
            Player::First => &mut self.first,
            Player::Second => &mut self.second,
        }
    }
}

/// Human at the keyboard or the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerKind {
    /// Moves come from the keyboard or mouse.
    Human,
    /// Moves come from the search engine.
    Engine,
}

/// One side: who plays it and, for the engine, how it searches.
// The engine's switches are independent on/off settings, as in the file: not a state machine.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SideConfig {
    /// Human or engine.
    pub kind: PlayerKind,
    /// Search algorithm.
    pub algorithm: Algorithm,
    /// Moves to look ahead; 0 = the game's own default (its `depth` option).
    pub depth: u32,
    /// Time per move in milliseconds for the full engine; 0 = depth only.
    pub time_ms: u64,
    /// Pick at random among equally good moves.
    pub random_ties: bool,
    /// Seed of the tie-breaking randomness; absent = different every run.
    pub seed: Option<u64>,
    /// Order moves by static evaluation (alpha-beta prunes far more with it).
    pub ordering: bool,
    /// Evaluator name; `default` = the game's first.
    pub evaluator: String,
    /// Transposition table size in MiB (full engine).
    pub tt_mb: usize,
    /// Search threads (full engine); 0 = one per core.
    pub threads: usize,
    /// Full engine: use the transposition table.
    pub tt: bool,
    /// Full engine: killer moves in the ordering.
    pub killers: bool,
    /// Full engine: the history heuristic in the ordering.
    pub history: bool,
    /// Full engine: principal variation search.
    pub pvs: bool,
    /// Full engine: aspiration windows.
    pub aspiration: bool,
}

impl Default for SideConfig {
    fn default() -> Self {
        Self {
            kind: PlayerKind::Engine,
            algorithm: Algorithm::Full,
            depth: 0,
            time_ms: 1000,
            random_ties: true,
            seed: None,
            ordering: true,
            evaluator: "default".to_string(),
            tt_mb: 64,
            threads: 0,
            tt: true,
            killers: true,
            history: true,
            pvs: true,
            aspiration: true,
        }
    }
}

impl SideConfig {
    /// The search settings for this side in a game with `options`. Depth 0 means the game's
    /// own depth, except for the full engine with a time limit: the time then decides.
    pub fn search_settings(&self, options: &impl GameOptions) -> SearchSettings {
        let timed = self.algorithm == Algorithm::Full && self.time_ms > 0;
        SearchSettings {
            algorithm: self.algorithm,
            depth: match self.depth {
                0 if timed => crate::engine::score::MAX_PLY as u32,
                0 => options.default_depth(),
                d => d,
            },
            ordering: self.ordering,
            random_ties: self.random_ties,
            candidates: options.candidates(),
            time_ms: self.time_ms,
            tt_mb: self.tt_mb,
            threads: self.threads,
            tt: self.tt,
            killers: self.killers,
            history: self.history,
            pvs: self.pvs,
            aspiration: self.aspiration,
            solve: false,
        }
    }

    /// Refuses out-of-range values; `key` (`players.first`) prefixes the field in messages.
    pub fn validate(&self, source: &str, key: &str) -> Result<(), ConfigError> {
        if self.depth > 64 {
            return Err(ConfigError::new(
                source,
                format!("{key}.depth"),
                self.depth,
                "must be 0..=64 (0 = the game's default)",
            ));
        }
        if self.time_ms > 3_600_000 {
            return Err(ConfigError::new(
                source,
                format!("{key}.time_ms"),
                self.time_ms,
                "must be 0..=3600000 (0 = no time limit)",
            ));
        }
        if !(1..=65_536).contains(&self.tt_mb) {
            return Err(ConfigError::new(
                source,
                format!("{key}.tt_mb"),
                self.tt_mb,
                "must be 1..=65536",
            ));
        }
        if self.threads > 256 {
            return Err(ConfigError::new(
                source,
                format!("{key}.threads"),
                self.threads,
                "must be 0..=256 (0 = one per core)",
            ));
        }
        if self.evaluator.trim().is_empty() {
            return Err(ConfigError::new(
                source,
                format!("{key}.evaluator"),
                "\"\"",
                "must name an evaluator, or `default`",
            ));
        }
        Ok(())
    }
}

/// Search-tree recording.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TreeConfig {
    /// At most this many nodes are recorded; past it the tree is marked truncated.
    pub max_nodes: usize,
}

impl Default for TreeConfig {
    fn default() -> Self {
        Self { max_nodes: 200_000 }
    }
}

/// The terminal UI.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UiConfig {
    /// Pause between moves when the engine plays itself, in milliseconds.
    pub engine_pace_ms: u64,
    /// Capture the mouse (click to play, wheel to scroll).
    pub mouse: bool,
    /// Ask before quitting a game in progress that is not saved.
    pub confirm_quit: bool,
}

impl Default for UiConfig {
    fn default() -> Self {
        Self {
            engine_pace_ms: 400,
            mouse: true,
            confirm_quit: true,
        }
    }
}

impl Config {
    /// The compiled-in defaults.
    pub fn builtin() -> Result<Self, ConfigError> {
        Self::parse(DEFAULT_CONFIG, BUILTIN_NAME)
    }

    /// Reads and validates a config file.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            source_name: name.clone(),
            key: "(file)".to_string(),
            value: String::new(),
            expected: format!("cannot be read: {e}"),
        })?;
        Self::parse(&text, &name)
    }

    /// Parses and validates config text; `source` names it in messages.
    pub fn parse(text: &str, source: &str) -> Result<Self, ConfigError> {
        let mut config: Self = from_toml_text(text, source)?;
        config.source = source.to_string();
        config.validate()?;
        Ok(config)
    }

    /// Checks every section, including every game's options.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.players.first.validate(&self.source, "players.first")?;
        self.players
            .second
            .validate(&self.source, "players.second")?;
        if !(1..=10_000_000).contains(&self.tree.max_nodes) {
            return Err(ConfigError::new(
                &self.source,
                "tree.max_nodes",
                self.tree.max_nodes,
                "must be 1..=10000000",
            ));
        }
        if self.ui.engine_pace_ms > 60_000 {
            return Err(ConfigError::new(
                &self.source,
                "ui.engine_pace_ms",
                self.ui.engine_pace_ms,
                "must be 0..=60000",
            ));
        }
        for kind in GameKind::ALL {
            crate::with_game!(kind, G => {
                let options = self.game_options::<G>()?;
                for player in [Player::First, Player::Second] {
                    let side = self.players.side(player);
                    let key = format!("players.{player}.evaluator");
                    // An evaluator name must exist for the game being played; for the others
                    // "default" is always fine, and a game-specific name is checked when that
                    // game starts.
                    if kind == self.game {
                        crate::games::evaluator_for::<G>(&options, &side.evaluator, &self.source, &key)?;
                    }
                }
            });
        }
        Ok(())
    }

    /// The options of game `G`, parsed from its section and validated.
    pub fn game_options<G: Playable>(&self) -> Result<G::Options, ConfigError> {
        let name = G::KIND.name();
        let table = match G::KIND {
            GameKind::TicTacToe => &self.tictactoe,
            GameKind::Gomoku => &self.gomoku,
            GameKind::Kalah => &self.kalah,
            GameKind::Dots => &self.dots,
        };
        let options: G::Options = from_toml_table(table, &self.source, name)?;
        options.validate(&self.source)?;
        Ok(options)
    }
}

/// Deserializes config text as `T`. A refused value is named by its dotted key, the value as
/// written, what is allowed and its line: `mine.toml: players.first.depth = "deep": must be
/// a whole number 0..=4294967295 (line 2)`.
pub fn from_toml_text<T: DeserializeOwned>(text: &str, source: &str) -> Result<T, ConfigError> {
    let deserializer =
        toml::Deserializer::parse(text).map_err(|e| syntax_error(source, text, &e))?;
    serde_path_to_error::deserialize(deserializer).map_err(|e| {
        let span = e.inner().span();
        let value = span
            .clone()
            .and_then(|s| text.get(s))
            .map_or_else(String::new, |v| v.trim().to_string());
        let line = span.map(|s| line_of(text, s.start));
        refusal(
            source,
            &path_key(e.path(), ""),
            value,
            e.inner().message(),
            line,
        )
    })
}

/// Deserializes a table of a config (a game's section, a tournament's options) as `T`;
/// `prefix` is the table's dotted key (`kalah`), so messages name `kalah.pits`.
pub fn from_toml_table<T: DeserializeOwned>(
    table: &toml::Table,
    source: &str,
    prefix: &str,
) -> Result<T, ConfigError> {
    let root = toml::Value::Table(table.clone());
    serde_path_to_error::deserialize(root.clone()).map_err(
        |e: serde_path_to_error::Error<toml::de::Error>| {
            let value = lookup(&root, e.path()).map_or_else(String::new, ToString::to_string);
            refusal(
                source,
                &path_key(e.path(), prefix),
                value,
                e.inner().message(),
                None,
            )
        },
    )
}

/// `prefix.a.b[2]` from a deserializer's path.
fn path_key(path: &serde_path_to_error::Path, prefix: &str) -> String {
    let inner = path.to_string();
    match (prefix.is_empty(), inner == ".") {
        (true, true) => "(top level)".to_string(),
        (true, false) => inner,
        (false, true) => prefix.to_string(),
        (false, false) if inner.starts_with('[') => format!("{prefix}{inner}"),
        (false, false) => format!("{prefix}.{inner}"),
    }
}

/// The value at `path` in `root`, if there is one.
fn lookup<'a>(root: &'a toml::Value, path: &serde_path_to_error::Path) -> Option<&'a toml::Value> {
    let mut value = root;
    for segment in path {
        value = match segment {
            serde_path_to_error::Segment::Map { key } => value.get(key.as_str())?,
            serde_path_to_error::Segment::Seq { index } => value.get(*index)?,
            _ => return None,
        };
    }
    Some(value)
}

fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset).unwrap_or(text).matches('\n').count() + 1
}

/// A deserializer's complaint as a [`ConfigError`] in plain words: an unknown key lists the
/// known ones; a value of the wrong type or out of the type's range says what is allowed.
fn refusal(
    source: &str,
    key: &str,
    value: String,
    message: &str,
    line: Option<usize>,
) -> ConfigError {
    let message = message.trim();
    let at_line = line.map_or_else(String::new, |l| format!(" (line {l})"));
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let known = rest
            .split_once("expected ")
            .map_or("", |(_, known)| known)
            .trim_start_matches("one of ")
            .replace('`', "");
        return ConfigError {
            source_name: source.to_string(),
            key: key.to_string(),
            value: String::new(),
            expected: format!("unknown key; the known ones are {known}{at_line}"),
        };
    }
    if let Some((_, known)) = message
        .strip_prefix("unknown variant ")
        .and_then(|rest| rest.split_once("expected "))
    {
        let known = known.trim_start_matches("one of ").replace('`', "");
        let choice = if known.contains(", ") {
            format!("one of {known}")
        } else {
            known
        };
        return ConfigError {
            source_name: source.to_string(),
            key: key.to_string(),
            value,
            expected: format!("must be {choice}{at_line}"),
        };
    }
    if message == "wanted string or table" {
        return ConfigError {
            source_name: source.to_string(),
            key: key.to_string(),
            value,
            expected: format!("must be a name in quotes{at_line}"),
        };
    }
    let expected = ["invalid type: ", "invalid value: "]
        .iter()
        .find_map(|p| message.strip_prefix(p))
        .and_then(|rest| rest.rsplit_once(", expected "))
        .map_or_else(
            || message.to_string(),
            |(_, wanted)| format!("must be {}", plain_type(wanted)),
        );
    ConfigError {
        source_name: source.to_string(),
        key: key.to_string(),
        value,
        expected: format!("{expected}{at_line}"),
    }
}

/// Serde's name of an expected type in words.
fn plain_type(wanted: &str) -> String {
    match wanted {
        "u8" => "a whole number 0..=255".to_string(),
        "u16" => "a whole number 0..=65535".to_string(),
        "u32" => "a whole number 0..=4294967295".to_string(),
        "u64" | "usize" => "a whole number 0 or more".to_string(),
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number".to_string(),
        "f32" | "f64" => "a number".to_string(),
        "a boolean" => "true or false".to_string(),
        "a string" => "a string in quotes".to_string(),
        w if w.starts_with("struct ") || w.starts_with("a map") => "a table".to_string(),
        w if w.starts_with("a sequence") => "a list [...]".to_string(),
        w => w.replace('`', ""),
    }
}

/// A TOML syntax error: where it is, and what is wrong.
fn syntax_error(source: &str, text: &str, e: &toml::de::Error) -> ConfigError {
    let location = e.span().map_or_else(String::new, |span| {
        let before = text.get(..span.start).unwrap_or(text);
        let line = before.matches('\n').count() + 1;
        let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
        format!("line {line}, column {column}")
    });
    ConfigError {
        source_name: source.to_string(),
        key: location,
        value: String::new(),
        expected: e.message().trim().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_file_equals_the_defaults() {
        let shipped = Config::builtin().unwrap();
        let defaults = Config::default();
        assert_eq!(shipped.game, defaults.game);
        assert_eq!(shipped.players, defaults.players);
        assert_eq!(shipped.tree, defaults.tree);
        assert_eq!(shipped.ui, defaults.ui);
        for kind in GameKind::ALL {
            crate::with_game!(kind, G => {
                assert_eq!(
                    shipped.game_options::<G>().unwrap(),
                    defaults.game_options::<G>().unwrap(),
                    "[{kind}] in config.toml differs from the built-in defaults"
                );
            });
        }
    }

    #[test]
    fn a_partial_file_keeps_the_other_defaults() {
        let c = Config::parse("[players.second]\ndepth = 3\n", "mine.toml").unwrap();
        assert_eq!(c.players.second.depth, 3);
        assert_eq!(c.players.first, Config::default().players.first);
    }

    fn error(text: &str) -> String {
        Config::parse(text, "mine.toml").unwrap_err().to_string()
    }

    #[test]
    fn bad_values_are_named_with_file_key_and_range() {
        assert_eq!(
            error("[players.second]\ndepth = 99\n"),
            "mine.toml: players.second.depth = 99: must be 0..=64 (0 = the game's default)"
        );
        assert_eq!(
            error("[tree]\nmax_nodes = 0\n"),
            "mine.toml: tree.max_nodes = 0: must be 1..=10000000"
        );
        assert_eq!(
            error("[ui]\nmouse = true\ncolour = 3\n"),
            "mine.toml: ui.colour: unknown key; the known ones are engine_pace_ms, mouse, \
             confirm_quit (line 3)"
        );
        assert_eq!(
            error("[players.first]\ndepth = \"deep\"\n"),
            "mine.toml: players.first.depth = \"deep\": must be a whole number 0..=4294967295 \
             (line 2)"
        );
        assert_eq!(
            error("game = \"chess\"\n"),
            "mine.toml: game = \"chess\": must be one of tictactoe, gomoku, kalah, dots (line 1)"
        );
        assert_eq!(
            error("[tictactoe]\ndepht = 3\n"),
            "mine.toml: tictactoe.depht: unknown key; the known ones are depth"
        );
        assert_eq!(
            error("[kalah]\npits = \"six\"\n"),
            "mine.toml: kalah.pits = \"six\": must be a whole number 0..=4294967295"
        );
        assert_eq!(
            error("[kalah.linear]\npits = [1.0, true]\n"),
            "mine.toml: kalah.linear.pits[1] = true: must be a number"
        );
        let range = error("[tictactoe]\ndepth = 12\n");
        assert_eq!(range, "mine.toml: tictactoe.depth = 12: must be 1..=9");
        let syntax = error("[ui\n");
        assert!(syntax.starts_with("mine.toml: line 1"), "{syntax}");
    }

    #[test]
    fn an_unknown_evaluator_lists_the_choices() {
        let e = error("[players.second]\nevaluator = \"magic\"\n");
        assert!(e.contains("players.second.evaluator = magic"), "{e}");
        assert!(e.contains("lines"), "{e}");
    }
}
