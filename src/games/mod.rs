//! The games: rules, notation and evaluators. Nothing here knows about the terminal or the
//! search internals beyond the [`Game`] and [`Evaluator`] traits.

pub mod dots;
pub mod gomoku;
pub mod kalah;
pub mod options;
pub mod tictactoe;

use std::fmt::Debug;
use std::str::FromStr;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::engine::{Evaluator, Game, Player};
use crate::error::{ConfigError, IllegalMove};

/// Which game. Parsed from the config, the command line and the setup screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    /// Tic-tac-toe on 3x3.
    #[serde(rename = "tictactoe")]
    TicTacToe,
    /// Gomoku (k in a row on an n x n board).
    Gomoku,
    /// Kalah (mancala).
    Kalah,
    /// Dots and Boxes.
    Dots,
}

impl GameKind {
    /// Every game, in menu order.
    pub const ALL: [Self; 4] = [Self::TicTacToe, Self::Gomoku, Self::Kalah, Self::Dots];

    /// The name used in config files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Self::TicTacToe => "tictactoe",
            Self::Gomoku => "gomoku",
            Self::Kalah => "kalah",
            Self::Dots => "dots",
        }
    }

    /// The name people use.
    pub fn title(self) -> &'static str {
        match self {
            Self::TicTacToe => "Tic-tac-toe",
            Self::Gomoku => "Gomoku",
            Self::Kalah => "Kalah",
            Self::Dots => "Dots and Boxes",
        }
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let key: String = s
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_lowercase();
        match key.as_str() {
            "tictactoe" | "ttt" => Ok(Self::TicTacToe),
            "gomoku" => Ok(Self::Gomoku),
            "kalah" | "mancala" => Ok(Self::Kalah),
            "dots" | "dotsandboxes" | "boxes" => Ok(Self::Dots),
            _ => Err(format!(
                "unknown game `{s}`: expected one of tictactoe, gomoku, kalah, dots"
            )),
        }
    }
}

/// A game's options (its section of `config.toml`).
pub trait GameOptions:
    Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// Refuses out-of-range values, naming `source` (the file), the key and what is allowed.
    fn validate(&self, source: &str) -> Result<(), ConfigError>;

    /// The search depth an engine player uses when its own `depth` is 0.
    fn default_depth(&self) -> u32;

    /// Label, help and flag of each top-level option (see [`options::OptionDoc`]): the
    /// command line's game flags (`flags::GameFlags`) and the setup screen's labels come
    /// from here.
    const DOCS: &'static [options::OptionDoc] = &[];

    /// Candidate moves a playing search considers per node (0 = all legal moves).
    fn candidates(&self) -> usize {
        0
    }

    /// Sets the option at the dotted `key` (`linear.store`) from text as people type it (the
    /// command line and the setup screen), checked by [`GameOptions::validate`]; nothing
    /// changes on error, which says what is expected.
    fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        let mut next = self.clone();
        options::set(&mut next, key, value)?;
        if let Err(e) = next.validate("") {
            // `kalah.pits` in a file is `pits` here: the game is known. Only this option's
            // own range is checked here: one that clashes with another option (Gomoku's
            // `connect` with `size`) may be set before the other, and the caller validates
            // the whole once every option is set.
            let refused = e
                .key
                .split_once('.')
                .map_or(e.key.as_str(), |(_, rest)| rest);
            if refused == key {
                return Err(format!("{key} = {}: {}", e.value, e.expected));
            }
        }
        *self = next;
        Ok(())
    }

    /// Every option as `(dotted key, value)` text, in declaration order.
    fn entries(&self) -> Vec<(String, String)> {
        options::entries(self)
    }
}

/// A game the program can set up, play and show: the rules plus construction from options
/// and a choice of evaluators.
pub trait Playable: Game {
    /// Which game this is.
    const KIND: GameKind;
    /// Its options.
    type Options: GameOptions;
    /// Its evaluators (an enum over the ones it offers).
    type Eval: Evaluator<Self> + Clone + Send + Sync + 'static;
    /// Evaluator names, the default first.
    const EVALUATORS: &'static [&'static str];
    /// Whether `gametree tune` steps this game's weights by a factor rather than by adding
    /// (weights spanning orders of magnitude, like Gomoku's pattern table).
    const RELATIVE_WEIGHTS: bool = false;

    /// The starting position for these (validated) options.
    fn new_game(options: &Self::Options) -> Self;

    /// The evaluator called `name` ("default" = the first), or `None` if there is none such.
    fn evaluator(options: &Self::Options, name: &str) -> Option<Self::Eval>;

    /// This game's options among every game's (`None` for a game outside the config, such
    /// as a test's).
    fn options_in(_games: &GamesConfig) -> Option<&Self::Options> {
        None
    }

    /// This game's options among every game's, to change.
    fn options_in_mut(_games: &mut GamesConfig) -> Option<&mut Self::Options> {
        None
    }

    /// The Gomoku position this game is, for players that only know Gomoku (external
    /// Gomocup brains, see `brain::client`); `None` for every other game.
    fn as_gomoku(&self) -> Option<&gomoku::Gomoku> {
        None
    }

    /// The move that puts a stone on Gomoku `cell` (the inverse of [`Playable::as_gomoku`]
    /// for moves); `None` for every other game.
    fn move_from_gomoku(_cell: gomoku::Cell) -> Option<Self::Move> {
        None
    }

    /// Loads or builds what searches of a game with `options` use beyond the rules (Kalah's
    /// endgame database), calling `progress(done, total)` while it builds and giving up once
    /// `stop` is raised; says what it did in one line, `None` when there is nothing to do
    /// (the default). Games made by [`Playable::new_game`] use it once it is ready.
    fn prepare_search(
        options: &Self::Options,
        progress: &mut dyn FnMut(u64, u64),
        stop: &crate::engine::limits::StopFlag,
    ) -> anyhow::Result<Option<String>> {
        let _ = (options, progress, stop);
        Ok(None)
    }

    /// What people call `player`'s side in this game (X/O, Black/White, South/North).
    fn side_name(player: Player) -> &'static str {
        match player {
            Player::First => "first",
            Player::Second => "second",
        }
    }

    /// A short note for the move log on what `mv` does in this position beyond the move
    /// itself (a Kalah capture); `None` for nothing worth saying. Extra turns are noted by
    /// the log itself.
    fn move_note(&self, mv: Self::Move) -> Option<String> {
        let _ = mv;
        None
    }
}

/// Every game's options: the `[tictactoe]`, `[gomoku]`, `[kalah]` and `[dots]` sections of
/// `config.toml`, typed. Reached generically through [`GamesConfig::get`] (each game's
/// [`Playable::options_in`] names its own field).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GamesConfig {
    /// Tic-tac-toe.
    pub tictactoe: tictactoe::TicTacToeOptions,
    /// Gomoku.
    pub gomoku: gomoku::GomokuOptions,
    /// Kalah.
    pub kalah: kalah::KalahOptions,
    /// Dots and Boxes.
    pub dots: dots::DotsOptions,
}

impl GamesConfig {
    /// Game `G`'s options.
    pub fn get<G: Playable>(&self) -> Option<&G::Options> {
        G::options_in(self)
    }

    /// Game `G`'s options, to change.
    pub fn get_mut<G: Playable>(&mut self) -> Option<&mut G::Options> {
        G::options_in_mut(self)
    }

    /// Replaces game `G`'s options (a game outside the config has none to replace).
    pub fn set<G: Playable>(&mut self, options: G::Options) {
        if let Some(slot) = G::options_in_mut(self) {
            *slot = options;
        }
    }
}

/// Resolves an evaluator name for a game, with an error that lists the choices.
pub fn evaluator_for<G: Playable>(
    options: &G::Options,
    name: &str,
    source: &str,
    key: &str,
) -> Result<G::Eval, ConfigError> {
    G::evaluator(options, name).ok_or_else(|| {
        ConfigError::new(
            source,
            key,
            name,
            format!(
                "{} offers: default, {}",
                G::KIND.name(),
                G::EVALUATORS.join(", ")
            ),
        )
    })
}

/// [`Game::try_play`] with the game's own reason for refusing a move (`b2 is already taken`,
/// `pit c is empty`), so that people see why, not only that, a move was refused.
pub(crate) fn try_play_explained<G: Game>(
    game: &mut G,
    mv: G::Move,
    reason: impl FnOnce(&G) -> String,
) -> Result<G::Undo, IllegalMove> {
    let refuse = |game: &G, reason: String| IllegalMove {
        mv: game.format_move(mv),
        reason,
    };
    if game.outcome().is_some() {
        return Err(refuse(game, "the game is over".to_string()));
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if moves.contains(&mv) {
        Ok(game.play(mv))
    } else {
        let why = reason(game);
        Err(refuse(game, why))
    }
}

/// `SplitMix64`: the fixed pseudo-random sequence the Zobrist keys are drawn from, so hashes
/// are the same on every run and machine.
pub const fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `N` Zobrist keys for a game, drawn from `stream` so that games do not share keys.
pub const fn zobrist_keys<const N: usize>(stream: u64) -> [u64; N] {
    let mut keys = [0u64; N];
    let mut i = 0;
    while i < N {
        keys[i] = splitmix64(stream.wrapping_mul(0x1000_0000_0000).wrapping_add(i as u64));
        i += 1;
    }
    keys
}

/// Runs `$body` with `$G` bound to the game type of `$kind`: the one place that lists every
/// game, so the rest of the program stays generic.
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr) => {
        match $kind {
            $crate::games::GameKind::TicTacToe => {
                type $G = $crate::games::tictactoe::TicTacToe;
                $body
            }
            $crate::games::GameKind::Gomoku => {
                type $G = $crate::games::gomoku::Gomoku;
                $body
            }
            $crate::games::GameKind::Kalah => {
                type $G = $crate::games::kalah::Kalah;
                $body
            }
            $crate::games::GameKind::Dots => {
                type $G = $crate::games::dots::Dots;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_names_round_trip() {
        for kind in GameKind::ALL {
            assert_eq!(kind.name().parse::<GameKind>(), Ok(kind));
        }
        assert_eq!("Dots-and-Boxes".parse::<GameKind>(), Ok(GameKind::Dots));
        assert!(
            "chess"
                .parse::<GameKind>()
                .unwrap_err()
                .contains("expected one of")
        );
    }

    #[test]
    fn every_top_level_option_has_its_doc() {
        for kind in GameKind::ALL {
            let (keys, docs) = crate::with_game!(kind, G => (
                <G as Playable>::Options::default().entries(),
                <<G as Playable>::Options as GameOptions>::DOCS,
            ));
            let all: Vec<String> = keys.into_iter().map(|(k, _)| k).collect();
            // Top-level options need a doc; dotted ones (evaluator weights) may have one for
            // their setup label.
            let top: Vec<&String> = all.iter().filter(|k| !k.contains('.')).collect();
            for key in top {
                assert!(
                    docs.iter().any(|d| d.key == key),
                    "{kind}: option `{key}` has no OptionDoc in its options' DOCS (label, help, flag)"
                );
            }
            for doc in docs {
                assert!(
                    all.iter().any(|k| k == doc.key),
                    "{kind}: DOCS names `{}`, which is no option",
                    doc.key
                );
            }
        }
    }

    #[test]
    fn zobrist_keys_differ() {
        let keys: [u64; 64] = zobrist_keys(1);
        let mut sorted = keys.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 64);
    }
}
