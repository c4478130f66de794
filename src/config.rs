//! `config.toml`: every default of the program, compiled in (so it runs with no file at all)
//! and overridable with `--config PATH`. Unknown keys, wrong types and out-of-range values
//! are refused with a message naming the file, the key, the value and what is allowed.

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::engine::Player;
use crate::engine::settings::{EngineSettings, next_known_key};
use crate::error::{ConfigError, quote};
use crate::games::{GameKind, GameOptions, GamesConfig, Playable};

/// The shipped defaults, the same text as `config.toml` at the crate root.
pub const DEFAULT_CONFIG: &str = include_str!("../config.toml");

/// Name used in messages for the compiled-in defaults.
pub const BUILTIN_NAME: &str = "config.toml (built in)";

/// The whole configuration. Every key may be left out of a file: it then keeps its default,
/// so a user's file need only hold what it changes.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The game the program opens with.
    pub game: GameKind,
    /// Who plays each side and how the engine searches for it.
    pub players: PlayersConfig,
    /// Search-tree recording.
    pub tree: TreeConfig,
    /// The terminal UI.
    pub ui: UiConfig,
    /// Every game's options, each under the game's name (`[kalah]`).
    pub games: GamesConfig,
    /// Where this configuration came from (a path, or the built-in defaults).
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
            games: GamesConfig::default(),
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

/// Human at the keyboard, the engine, or an external Gomocup brain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerKind {
    /// Moves come from the keyboard or mouse.
    Human,
    /// Moves come from the search engine.
    Engine,
    /// Moves come from an external program speaking the Gomocup brain protocol (Gomoku
    /// only): `command` and `args` start it, `time_ms` is its time per move.
    Brain,
}

/// The program an external brain runs as: `command = "pbrain-x"`, `args = [...]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BrainCommand {
    /// The program (a path, or a name found on `PATH`).
    pub command: String,
    /// Its arguments.
    pub args: Vec<String>,
}

/// One side: who plays it and, for the engine, how it searches. In a file the engine
/// settings sit beside `kind` in the side's table (`[players.second] kind = "engine"
/// depth = 6`).
#[derive(Clone, Debug, PartialEq)]
pub struct SideConfig {
    /// Human, engine or brain.
    pub kind: PlayerKind,
    /// How the engine searches for this side (for a human: hints and the tree pane; for a
    /// brain: `time_ms` is the brain's time per move, `tt_mb` its memory).
    pub engine: EngineSettings,
    /// The external brain's program, for `kind = "brain"`.
    pub brain: BrainCommand,
}

impl Default for SideConfig {
    fn default() -> Self {
        Self {
            kind: PlayerKind::Engine,
            engine: EngineSettings::default(),
            brain: BrainCommand::default(),
        }
    }
}

/// The keys of a side's table besides the engine settings.
const SIDE_KEYS: &[&str] = &["kind", "command", "args"];

impl Serialize for SideConfig {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("kind", &self.kind)?;
        if self.kind == PlayerKind::Brain || !self.brain.command.is_empty() {
            map.serialize_entry("command", &self.brain.command)?;
            map.serialize_entry("args", &self.brain.args)?;
        }
        self.engine.serialize_fields(&mut map)?;
        map.end()
    }
}

impl<'de> Deserialize<'de> for SideConfig {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SideVisitor;

        impl<'de> serde::de::Visitor<'de> for SideVisitor {
            type Value = SideConfig;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(
                    "a table with `kind`, a brain's `command` and `args`, and engine settings",
                )
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<SideConfig, A::Error> {
                let mut side = SideConfig::default();
                // `kind` first, then the engine settings, then a brain's program.
                let known: Vec<&str> = SIDE_KEYS[..1]
                    .iter()
                    .copied()
                    .chain(crate::engine::settings::keys())
                    .chain(SIDE_KEYS[1..].iter().copied())
                    .collect();
                while let Some(key) = next_known_key(&mut map, &known)? {
                    if key == "kind" {
                        side.kind = map.next_value()?;
                    } else if key == "command" {
                        side.brain.command = map.next_value()?;
                    } else if key == "args" {
                        side.brain.args = map.next_value()?;
                    } else {
                        side.engine.deserialize_field(&key, &mut map, SIDE_KEYS)?;
                    }
                }
                Ok(side)
            }
        }

        deserializer.deserialize_map(SideVisitor)
    }
}

impl SideConfig {
    /// The search settings for this side in a game with `options` (see
    /// [`EngineSettings::resolved`]).
    pub fn search_settings(&self, options: &impl GameOptions) -> EngineSettings {
        self.engine
            .resolved(options.default_depth(), options.candidates())
    }

    /// The match clock this side plays on: `match_ms` for a human (it runs while the human
    /// thinks) and a brain, the full engine's for an engine ([`EngineSettings::match_clock`]).
    pub fn clock(&self) -> Option<std::time::Duration> {
        match self.kind {
            PlayerKind::Human | PlayerKind::Brain => self.engine.match_time,
            PlayerKind::Engine => self.engine.match_clock(),
        }
    }

    /// Refuses out-of-range values; `key` (`players.first`) prefixes the field in messages.
    pub fn validate(&self, source: &str, key: &str) -> Result<(), ConfigError> {
        self.engine
            .validate()
            .map_err(|e| ConfigError::from_field(source, key, e))?;
        if self.kind == PlayerKind::Brain && self.brain.command.trim().is_empty() {
            return Err(ConfigError::new(
                source,
                format!("{key}.command"),
                "",
                "must name the brain's program (kind = \"brain\" needs `command = \"path/to/pbrain-x\"`)",
            ));
        }
        Ok(())
    }

    /// Refuses a brain on this side for a game other than Gomoku; `key` (`players.first`)
    /// names the side.
    pub fn check_game(&self, game: GameKind, source: &str, key: &str) -> Result<(), ConfigError> {
        if self.kind == PlayerKind::Brain && game != GameKind::Gomoku {
            return Err(ConfigError::new(
                source,
                format!("{key}.kind"),
                "brain",
                format!(
                    "only Gomoku can have a brain player (Gomocup brains play five in a row), \
                     not {}",
                    game.title()
                ),
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
        let (text, name) = ConfigError::read_file(path)?;
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
                        side.check_game(kind, &self.source, &format!("players.{player}"))?;
                        crate::games::evaluator_for::<G>(&options, &side.engine.evaluator, &self.source, &key)?;
                    }
                }
            });
        }
        Ok(())
    }

    /// The options of game `G`, validated (a config changed in code may hold bad ones).
    pub fn game_options<G: Playable>(&self) -> Result<G::Options, ConfigError> {
        let options = self.games.get::<G>().ok_or_else(|| {
            ConfigError::new(
                &self.source,
                G::KIND.name(),
                "",
                "is not a game of the config",
            )
        })?;
        options.validate(&self.source)?;
        Ok(options.clone())
    }
}

/// The top-level keys besides the games' sections.
const TOP_KEYS: &[&str] = &["game", "players", "tree", "ui"];

impl Serialize for Config {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("game", &self.game)?;
        map.serialize_entry("players", &self.players)?;
        map.serialize_entry("tree", &self.tree)?;
        map.serialize_entry("ui", &self.ui)?;
        for kind in GameKind::ALL {
            crate::with_game!(kind, G => {
                if let Some(options) = self.games.get::<G>() {
                    map.serialize_entry(kind.name(), options)?;
                }
            });
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Config {
    /// Any subset of the sections; a game's section is read as that game's typed options.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ConfigVisitor;

        impl<'de> serde::de::Visitor<'de> for ConfigVisitor {
            type Value = Config;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a configuration table")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Config, A::Error> {
                let mut config = Config::default();
                let known: Vec<&str> = TOP_KEYS
                    .iter()
                    .copied()
                    .chain(GameKind::ALL.iter().map(|k| k.name()))
                    .collect();
                while let Some(key) = next_known_key(&mut map, &known)? {
                    match key.as_str() {
                        "game" => config.game = map.next_value()?,
                        "players" => config.players = map.next_value()?,
                        "tree" => config.tree = map.next_value()?,
                        "ui" => config.ui = map.next_value()?,
                        other => {
                            // A known key that is not a section above is a game's name.
                            let Some(kind) = GameKind::ALL.into_iter().find(|k| k.name() == other)
                            else {
                                map.next_value::<serde::de::IgnoredAny>()?;
                                continue;
                            };
                            crate::with_game!(kind, G => {
                                config.games.set::<G>(map.next_value()?);
                            });
                        }
                    }
                }
                Ok(config)
            }
        }

        deserializer.deserialize_map(ConfigVisitor)
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

/// A TOML syntax error: where it is, and what is wrong. A duplicate key or table is named
/// (with the table it is in), since TOML's own message says only "duplicate key".
pub fn syntax_error(source: &str, text: &str, e: &toml::de::Error) -> ConfigError {
    let mut expected = e.message().trim().to_string();
    let location = e.span().map_or_else(String::new, |span| {
        let before = text.get(..span.start).unwrap_or(text);
        let line = before.matches('\n').count() + 1;
        let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
        if expected.starts_with("duplicate") {
            let written = text.get(span.clone()).unwrap_or("").trim();
            if let Some(key) = duplicate_key(before, written) {
                expected = format!("{expected}: {key}");
            }
        }
        format!("line {line}, column {column}")
    });
    if expected == "recursion limit" {
        // The parser gives up on deep nesting with no place to point at.
        expected = "tables or arrays nested too deeply for a config".to_string();
    }
    let location = if location.is_empty() {
        "(file)".to_string()
    } else {
        location
    };
    ConfigError {
        source_name: source.to_string(),
        key: location,
        value: String::new(),
        expected,
    }
}

/// The full dotted name of the key `written` at the end of `before`: inside the last
/// `[table]` header unless it is a header itself.
fn duplicate_key(before: &str, written: &str) -> Option<String> {
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    // A dotted key (`ui.mouse = 1`) is reported at its last part: the line gives the rest.
    let on_line = format!("{}{written}", before.get(line_start..).unwrap_or(""));
    let name = on_line.split('=').next().unwrap_or("").trim();
    if name.is_empty() {
        return None;
    }
    if name.starts_with('[') {
        return Some(format!(
            "the table [{}] appears twice",
            quote(name.trim_matches(['[', ']']).trim())
        ));
    }
    let table = before
        .get(..line_start)
        .unwrap_or("")
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('['))
        .map(|l| {
            let header = l.split(']').next().unwrap_or("");
            header.trim_matches(['[', ']']).trim().to_string()
        });
    Some(match table {
        Some(table) if !table.is_empty() => {
            format!("{} is set twice", quote(&format!("{table}.{name}")))
        }
        _ => format!("{} is set twice", quote(name)),
    })
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
        assert_eq!(c.players.second.engine.limits.depth, Some(3));
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
            "mine.toml: players.first.depth = \"deep\": must be a whole number 0..=64 (0 = the \
             game's default) (line 2)"
        );
        assert_eq!(
            error("game = \"chess\"\n"),
            "mine.toml: game = \"chess\": must be one of tictactoe, gomoku, kalah, dots (line 1)"
        );
        assert_eq!(
            error("[tictactoe]\ndepht = 3\n"),
            "mine.toml: tictactoe.depht: unknown key; the known ones are depth (line 2)"
        );
        assert_eq!(
            error("[kalah]\npits = \"six\"\n"),
            "mine.toml: kalah.pits = \"six\": must be a whole number 0..=4294967295 (line 2)"
        );
        assert_eq!(
            error("[kalah.linear]\npits = [1.0, true]\n"),
            "mine.toml: kalah.linear.pits[1] = true: must be a number (line 2)"
        );
        let range = error("[tictactoe]\ndepth = 12\n");
        assert_eq!(range, "mine.toml: tictactoe.depth = 12: must be 1..=9");
        let syntax = error("[ui\n");
        assert!(syntax.starts_with("mine.toml: line 1"), "{syntax}");
    }

    #[test]
    fn an_unknown_engine_setting_is_named_with_its_line() {
        let e = error("[players.first]\nkind = \"human\"\ncolour = 1\n");
        assert!(
            e.starts_with("mine.toml: players.first.colour: unknown key; the known ones are kind, algorithm, depth"),
            "{e}"
        );
        assert!(e.ends_with("(line 3)"), "{e}");
        let e = error("[players.second]\ntt = \"yes\"\n");
        assert_eq!(
            e,
            "mine.toml: players.second.tt = \"yes\": must be true or false (line 2)"
        );
    }

    #[test]
    fn an_unknown_evaluator_lists_the_choices() {
        let e = error("[players.second]\nevaluator = \"magic\"\n");
        assert!(e.contains("players.second.evaluator = magic"), "{e}");
        assert!(e.contains("lines"), "{e}");
    }
}
