//! Command-line flags shared by every command and by tournaments: the game's name, its
//! options (`--pits 4`) and the engine settings (`--depth 6`, generated from
//! [`FIELDS`]), with what turns them into options, settings and a starting position.

use anyhow::{Context, Result, bail};
use clap::Args;

use crate::config::Config;
use crate::engine::settings::{EngineSettings, FIELDS, Field, FieldKind};
use crate::error::{ConfigError, MAX_MESSAGE_CHARS, quote_within};
use crate::games::{GameKind, GameOptions, Playable};

/// Game options as flags; each applies to the games that have it.
#[derive(Debug, Clone, Default, Args)]
pub struct GameFlags {
    /// Gomoku board size (3..=20).
    #[arg(long)]
    pub size: Option<String>,
    /// Gomoku: stones in a row that win.
    #[arg(long)]
    pub connect: Option<String>,
    /// Gomoku rule: freestyle (k or more wins) or standard (exactly k).
    #[arg(long)]
    pub rule: Option<String>,
    /// Gomoku: candidate moves the playing search considers per node.
    #[arg(long)]
    pub candidates: Option<String>,
    /// Kalah pits per side (1..=12).
    #[arg(long)]
    pub pits: Option<String>,
    /// Kalah stones per pit.
    #[arg(long)]
    pub stones: Option<String>,
    /// Kalah: capture even when the opposite pit is empty (true|false).
    #[arg(long, value_name = "BOOL")]
    pub empty_capture: Option<String>,
    /// Kalah: endgame database size, in stones left in the pits (0 = none).
    #[arg(long, value_name = "STONES")]
    pub endgame_stones: Option<String>,
    /// Dots and Boxes rows of boxes.
    #[arg(long)]
    pub rows: Option<String>,
    /// Dots and Boxes columns of boxes.
    #[arg(long)]
    pub cols: Option<String>,
    /// Start from the position these moves reach, e.g. "b2 a1 c3".
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    pub moves: Option<String>,
}

impl GameFlags {
    fn pairs(&self) -> Vec<(&'static str, &str)> {
        [
            ("size", &self.size),
            ("connect", &self.connect),
            ("rule", &self.rule),
            ("candidates", &self.candidates),
            ("pits", &self.pits),
            ("stones", &self.stones),
            ("empty_capture", &self.empty_capture),
            ("endgame_stones", &self.endgame_stones),
            ("rows", &self.rows),
            ("cols", &self.cols),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.as_deref().map(|v| (k, v)))
        .collect()
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
                arg.value_name(field.value_name).help(format!(
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
