//! Command-line flags shared by every command and by tournaments: the game's name, its
//! options (`--pits 4`) and the engine settings (`--depth 6`, generated from
//! [`FIELDS`]), with what turns them into options, settings and a starting position.

use anyhow::{Context, Result, bail};

use crate::config::Config;
use crate::engine::settings::{EngineSettings, FIELDS, Field, FieldKind};
use crate::error::{ConfigError, MAX_MESSAGE_CHARS, quote_within};
use crate::games::{GameKind, GameOptions, Playable};

/// Game options as flags (`--pits 4`), generated from every game's top-level options and
/// their [`OptionDoc`](crate::games::options::OptionDoc)s: an option added to a game's options struct is a flag here without
/// further code (unless its doc says `no_flag`); dotted options (evaluator weights) are not
/// flags. Each flag applies to the games that have the option. `--moves` is the one flag
/// written by hand.
#[derive(Debug, Clone, Default)]
pub struct GameFlags {
    /// The option flags given, as (option key, text), in [`option_flags`] order.
    pub given: Vec<(String, String)>,
    /// Start from the position these moves reach.
    pub moves: Option<String>,
}

impl GameFlags {
    /// The text given for the option `key` (`"candidates"`), if its flag was given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.given
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.given.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

/// One game-option flag: the option's key, its help (naming the games that have it) and
/// its value name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionFlag {
    /// The option's key (`empty_capture`).
    pub key: String,
    /// `--help`'s line: "Kalah: pits per side, 1..=12".
    pub help: String,
    /// The value's name in `--help` (`BOOL`, `PITS`).
    pub value_name: String,
}

impl OptionFlag {
    /// The flag without its dashes: `empty-capture`.
    pub fn long(&self) -> String {
        self.key.replace('_', "-")
    }

    fn id(&self) -> String {
        format!("game-option.{}", self.key)
    }
}

/// Every game option that is a flag, game by game in menu order and each game's options in
/// declaration order; an option several games have is one flag whose help names each.
pub fn option_flags() -> Vec<OptionFlag> {
    let mut flags: Vec<OptionFlag> = Vec::new();
    for kind in GameKind::ALL {
        let (keys, docs) = crate::with_game!(kind, G => (
            <G as Playable>::Options::default().entries(),
            <<G as Playable>::Options as GameOptions>::DOCS,
        ));
        for (key, _) in keys {
            if key.contains('.') {
                continue;
            }
            let doc = docs.iter().find(|d| d.key == key);
            if doc.is_some_and(|d| !d.flag) {
                continue;
            }
            let help = doc.map_or_else(
                || format!("{key} (see [{}] in config.toml)", kind.name()),
                |d| d.help.to_string(),
            );
            let help = format!("{}: {help}", kind.title());
            if let Some(flag) = flags.iter_mut().find(|f| f.key == key) {
                flag.help = format!("{}; {help}", flag.help);
            } else {
                flags.push(OptionFlag {
                    value_name: doc
                        .and_then(|d| d.value_name)
                        .map_or_else(|| key.to_uppercase(), ToString::to_string),
                    key,
                    help,
                });
            }
        }
    }
    flags
}

impl clap::FromArgMatches for GameFlags {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut flags = Self::default();
        flags.update_from_arg_matches(matches)?;
        Ok(flags)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        for flag in option_flags() {
            if let Some(text) = matches.get_one::<String>(&flag.id()) {
                self.given.retain(|(k, _)| *k != flag.key);
                self.given.push((flag.key, text.clone()));
            }
        }
        if let Some(moves) = matches.get_one::<String>(MOVES_ID) {
            self.moves = Some(moves.clone());
        }
        Ok(())
    }
}

const MOVES_ID: &str = "game-moves";

impl clap::Args for GameFlags {
    fn augment_args(command: clap::Command) -> clap::Command {
        let command = option_flags().into_iter().fold(command, |command, flag| {
            command.arg(
                clap::Arg::new(flag.id())
                    .long(flag.long())
                    .value_name(flag.value_name)
                    .allow_negative_numbers(true)
                    .help(format!("{}.", flag.help)),
            )
        });
        command.arg(
            clap::Arg::new(MOVES_ID)
                .long("moves")
                .value_name("MOVES")
                .allow_hyphen_values(true)
                .help("Start from the position these moves reach, e.g. \"b2 a1 c3\"."),
        )
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

/// The engine settings as flags (`--depth 6`, `--time-ms 500`, `--no-tt` ...), one for each
/// entry of [`FIELDS`]: a setting added there is a flag here without further code. A
/// switch that is on by default is turned off with `--no-KEY`.
#[derive(Clone, Debug, Default)]
pub struct EngineFlags {
    /// The flags given, in table order, with their text.
    pub given: Vec<(&'static Field, String)>,
}

impl EngineFlags {
    /// Refuses out-of-range values (`--depth 99`), naming the flag; the evaluator name is
    /// checked against game `G`'s evaluators with `options`.
    pub fn validate<G: Playable>(&self, options: &G::Options) -> Result<(), ConfigError> {
        let mut settings = EngineSettings::default();
        self.apply(&mut settings)?;
        if self.given.iter().any(|(field, _)| field.key == "evaluator") {
            crate::games::evaluator_for::<G>(
                options,
                &settings.evaluator,
                "command line",
                "--evaluator",
            )?;
        }
        Ok(())
    }

    /// Writes the flags into `settings`; a refused value names its flag.
    pub fn apply(&self, settings: &mut EngineSettings) -> Result<(), ConfigError> {
        for (field, text) in &self.given {
            settings.set(field.key, text).map_err(|e| {
                ConfigError::new(
                    "command line",
                    format!("--{}", field.flag()),
                    text,
                    e.expected,
                )
            })?;
        }
        Ok(())
    }
}

/// A switch's flag turns it to the opposite of its default.
fn switch_flag_value(field: &Field) -> &'static str {
    match field.text(&EngineSettings::default()).as_str() {
        "true" => "false",
        _ => "true",
    }
}

impl clap::FromArgMatches for EngineFlags {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut flags = Self::default();
        flags.update_from_arg_matches(matches)?;
        Ok(flags)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        for field in FIELDS {
            if field.kind == FieldKind::Switch {
                if matches.get_flag(field.key) {
                    self.given
                        .push((field, switch_flag_value(field).to_string()));
                }
            } else if let Some(text) = matches.get_one::<String>(field.key) {
                self.given.push((field, text.clone()));
            }
        }
        Ok(())
    }
}

impl clap::Args for EngineFlags {
    fn augment_args(command: clap::Command) -> clap::Command {
        FIELDS.iter().fold(command, |command, field| {
            let arg = clap::Arg::new(field.key).long(field.flag());
            let arg = if field.kind == FieldKind::Switch {
                let verb = if switch_flag_value(field) == "false" {
                    "Off"
                } else {
                    "On"
                };
                arg.action(clap::ArgAction::SetTrue)
                    .help(format!("{verb}: {}", field.about))
            } else {
                // `--depth -1` is a value out of range, not an unknown flag.
                arg.value_name(field.value_name)
                    .allow_negative_numbers(true)
                    .help(format!(
                        "{} [{}]",
                        capitalised(field.about),
                        field.expected()
                    ))
            };
            command.arg(arg)
        })
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// Parses a game name.
pub fn parse_game(name: &str) -> Result<GameKind> {
    name.parse::<GameKind>()
        .map_err(|e| anyhow::Error::msg(quote_within(&e, MAX_MESSAGE_CHARS)))
}

/// The options of `G` from the config with the command-line flags applied and validated.
pub fn options_with_flags<G: Playable>(config: &Config, flags: &GameFlags) -> Result<G::Options> {
    let mut options = config.game_options::<G>()?;
    let known: Vec<String> = options.entries().into_iter().map(|(k, _)| k).collect();
    for (key, value) in flags.pairs() {
        if !known.iter().any(|k| k == key) {
            bail!(
                "--{} does not apply to {} (its options: {})",
                key.replace('_', "-"),
                G::KIND.name(),
                known.join(", ")
            );
        }
        options.set(key, value).map_err(|e| {
            let e = e
                .strip_prefix(&format!("{key} = {}: ", value.trim()))
                .map_or(e.clone(), ToString::to_string);
            anyhow::anyhow!("--{} {value}: {e}", key.replace('_', "-"))
        })?;
    }
    options.validate("command line")?;
    Ok(options)
}

/// The starting position: the initial one, then `--moves` played through the rules.
pub fn start_position<G: Playable>(options: &G::Options, flags: &GameFlags) -> Result<G> {
    let mut game = G::new_game(options);
    if let Some(moves) = &flags.moves {
        game.play_line(moves).context("--moves")?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_flags_come_from_the_options() {
        let flags = option_flags();
        let longs: Vec<String> = flags.iter().map(OptionFlag::long).collect();
        assert_eq!(
            longs,
            [
                "size",
                "connect",
                "rule",
                "candidates",
                "threats",
                "pits",
                "stones",
                "empty-capture",
                "endgame-stones",
                "rows",
                "cols"
            ],
            "depth is no game flag (--depth is the engine's); weights are none"
        );
        let pits = flags.iter().find(|f| f.key == "pits");
        assert_eq!(
            pits.map(|f| f.help.as_str()),
            Some("Kalah: pits per side, 1..=12")
        );
        let capture = flags.iter().find(|f| f.key == "empty_capture");
        assert_eq!(capture.map(|f| f.value_name.as_str()), Some("BOOL"));
    }

    #[test]
    fn a_game_flag_sets_its_option() {
        use clap::Parser;
        let cli = crate::cli::Cli::try_parse_from([
            "gametree",
            "solve",
            "gomoku",
            "--threats",
            "off",
            "--size",
            "5",
        ])
        .unwrap();
        let Some(crate::cli::Command::Solve(args)) = cli.command else {
            panic!("not a solve command: {cli:?}");
        };
        let options = options_with_flags::<crate::games::gomoku::Gomoku>(
            &Config::default(),
            &args.game_flags,
        )
        .unwrap();
        assert!(!options.threats);
        assert_eq!(options.size, 5);
    }
}
