//! Kalah's options (the `[kalah]` section of `config.toml`) and their validation.

use serde::{Deserialize, Serialize};

use super::endgame::MAX_ENDGAME_STONES;
use super::{MAX_PITS, MAX_STONES};
use crate::error::ConfigError;
use crate::games::GameOptions;
use crate::games::options::OptionDoc;

/// Weights of the `linear` evaluator, from the side to move's point of view:
/// `store * own store + opponent_store * their store + Σ pits[k] * own pit k + Σ
/// opponent_pits[k] * their pit k`, where `k` counts from the pit nearest the owner's store
/// (k = 0). A list shorter than the number of pits repeats its last weight for the rest, so
/// `pits = [0.25]` weighs every pit alike.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LinearWeights {
    /// Per stone in the mover's store.
    pub store: f64,
    /// Per stone in the opponent's store.
    pub opponent_store: f64,
    /// Per stone in the mover's pits, from the pit nearest the store; 1..=12 entries.
    pub pits: Vec<f64>,
    /// Per stone in the opponent's pits, from the pit nearest their store; 1..=12 entries.
    pub opponent_pits: Vec<f64>,
}

impl Default for LinearWeights {
    /// Stores count in full; a stone still in a pit counts a quarter, for the side it sits
    /// on (the end sweep gives it to that side unless it is sown or captured first).
    fn default() -> Self {
        Self {
            store: 1.0,
            opponent_store: -1.0,
            pits: vec![0.25],
            opponent_pits: vec![-0.25],
        }
    }
}

/// Kalah's options (the `[kalah]` section of `config.toml`).
///
/// `empty_capture` defaults to `false`, the **standard capture**: a last stone in an own
/// empty pit captures only when the opposite pit holds stones. That is the rule of most rule
/// sheets and of `OpenSpiel`'s `mancala`, so games and values compare with theirs. `true` is
/// the rule of Irving, Donkers & Uiterwijk, "Solving Kalah" (2000), whose published tables
/// use it; the two rules give different values (Kalah(4,3): +6 standard, +8 empty capture).
///
/// Every key with its default:
///
/// ```toml
/// [kalah]
/// pits = 6                 # pits per side, 1..=12
/// stones = 4               # stones per pit at the start, 1..=20
/// empty_capture = false    # false: standard capture; true: Irving et al.'s rule
/// depth = 8                # engine depth when a player's own depth is 0, 1..=64
/// endgame_stones = 16      # endgame database: exact values with at most this many stones
///                          # in the pits, 0..=40 (0 = none); built once, cached on disk
///
/// [kalah.linear]           # the "linear" evaluator, from the side to move
/// store = 1.0              # per stone in the own store
/// opponent_store = -1.0    # per stone in the opponent's store
/// pits = [0.25]            # per stone in the own pits, from the pit next to the store;
/// opponent_pits = [-0.25]  # 1..=12 weights, the last one repeats for the remaining pits
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct KalahOptions {
    /// Pits per side, 1..=12 (default 6).
    pub pits: u32,
    /// Stones per pit at the start, 1..=20 (default 4).
    pub stones: u32,
    /// Capture even when the opposite pit is empty (default false: standard capture).
    pub empty_capture: bool,
    /// Engine search depth when a player's own depth is 0, 1..=64 (default 8).
    pub depth: u32,
    /// Stones in the pits up to which the search reads exact values from an endgame
    /// database instead of searching, 0..=40 (default 16; 0: no database). The database is
    /// built on first use and cached (see [`super::endgame`]).
    pub endgame_stones: u32,
    /// Weights of the `linear` evaluator.
    pub linear: LinearWeights,
    /// Weights of the `tuned` evaluator: the same linear form, with the weights that won
    /// `gametree tune kalah` (+44 ± 15 Elo over `store` at depth 6, 2000 games).
    pub tuned: LinearWeights,
}

impl LinearWeights {
    /// The weights found by `gametree tune kalah` (examples/kalah-tuned.toml): a stone in
    /// the opponent's pits counts half as much as one in the own pits.
    pub fn tuned() -> Self {
        Self {
            opponent_pits: vec![-0.125],
            ..Self::default()
        }
    }
}

impl Default for KalahOptions {
    fn default() -> Self {
        Self {
            pits: 6,
            stones: 4,
            empty_capture: false,
            depth: 8,
            endgame_stones: DEFAULT_ENDGAME_STONES,
            linear: LinearWeights::default(),
            tuned: LinearWeights::tuned(),
        }
    }
}

/// The largest endgame database the program builds for `kalah.endgame_stones` on any board:
/// on 8 pits or more the default's table would be hundreds of megabytes or more, so such
/// boards get a table for fewer stones instead (see [`KalahOptions::endgame_stones_for_board`]).
pub const ENDGAME_MAX_BYTES: u128 = 256 << 20;
/// The largest endgame database built for an `endgame_stones` other than the default (6
/// pits: 23 stones): a 22-stone table for 6 pits is 548 MB.
pub const ENDGAME_CHOSEN_MAX_BYTES: u128 = 1 << 30;

impl KalahOptions {
    /// The stones the endgame database is made for on this board: `endgame_stones`, or the
    /// most that keep the table within [`ENDGAME_MAX_BYTES`] for the default (6 pits: 20
    /// stones, 8 pits: 14, 12 pits: 10) and within [`ENDGAME_CHOSEN_MAX_BYTES`] for any other
    /// number (6 pits: 23). 0 = no database.
    pub fn endgame_stones_for_board(&self) -> u32 {
        let mut stones = self.endgame_stones.min(super::endgame::MAX_ENDGAME_STONES);
        // A number chosen on purpose may cost more than the default may.
        let limit = if self.endgame_stones == DEFAULT_ENDGAME_STONES {
            ENDGAME_MAX_BYTES
        } else {
            ENDGAME_CHOSEN_MAX_BYTES
        };
        while stones > 0 && super::endgame::positions(self.pits as usize, stones) > limit {
            stones -= 1;
        }
        stones
    }
}

/// The default of `kalah.endgame_stones`: see the README for what it costs.
pub const DEFAULT_ENDGAME_STONES: u32 = 16;

/// A refused option: its key (under `kalah.`), the value as text, what is allowed.
type Refusal = (&'static str, String, String);

fn format_weights(weights: &[f64]) -> String {
    let items: Vec<String> = weights.iter().map(f64::to_string).collect();
    format!("[{}]", items.join(", "))
}

fn check_weight(key: &'static str, w: f64) -> Result<(), Refusal> {
    if w.is_finite() {
        Ok(())
    } else {
        Err((key, w.to_string(), "must be a finite number".to_string()))
    }
}

fn check_weights(key: &'static str, weights: &[f64]) -> Result<(), Refusal> {
    if !(1..=MAX_PITS).contains(&weights.len()) {
        return Err((
            key,
            format_weights(weights),
            format!("must list 1..={MAX_PITS} weights"),
        ));
    }
    if weights.iter().all(|w| w.is_finite()) {
        Ok(())
    } else {
        Err((
            key,
            format_weights(weights),
            "must be finite numbers".to_string(),
        ))
    }
}

impl KalahOptions {
    fn check(&self) -> Result<(), Refusal> {
        if !(1..=MAX_PITS as u32).contains(&self.pits) {
            return Err((
                "pits",
                self.pits.to_string(),
                format!("must be 1..={MAX_PITS}"),
            ));
        }
        if !(1..=u32::from(MAX_STONES)).contains(&self.stones) {
            return Err((
                "stones",
                self.stones.to_string(),
                format!("must be 1..={MAX_STONES}"),
            ));
        }
        if !(1..=64).contains(&self.depth) {
            return Err((
                "depth",
                self.depth.to_string(),
                "must be 1..=64".to_string(),
            ));
        }
        if self.endgame_stones > MAX_ENDGAME_STONES {
            return Err((
                "endgame_stones",
                self.endgame_stones.to_string(),
                format!("must be 0..={MAX_ENDGAME_STONES} (0: no endgame database)"),
            ));
        }
        check_weight("linear.store", self.linear.store)?;
        check_weight("linear.opponent_store", self.linear.opponent_store)?;
        check_weights("linear.pits", &self.linear.pits)?;
        check_weights("linear.opponent_pits", &self.linear.opponent_pits)?;
        check_weight("tuned.store", self.tuned.store)?;
        check_weight("tuned.opponent_store", self.tuned.opponent_store)?;
        check_weights("tuned.pits", &self.tuned.pits)?;
        check_weights("tuned.opponent_pits", &self.tuned.opponent_pits)
    }
}

impl GameOptions for KalahOptions {
    const DOCS: &'static [OptionDoc] = &[
        OptionDoc::flag("pits", "Pits per side", "pits per side, 1..=12"),
        OptionDoc::flag(
            "stones",
            "Stones per pit",
            "stones per pit at the start, 1..=20",
        ),
        OptionDoc::flag(
            "empty_capture",
            "Empty-pit capture",
            "capture even when the opposite pit is empty (true|false)",
        )
        .value_name("BOOL"),
        OptionDoc::DEPTH,
        OptionDoc::flag(
            "endgame_stones",
            "Endgame stones",
            "endgame database size, in stones left in the pits (0 = none)",
        )
        .value_name("STONES"),
    ];

    fn validate(&self, source: &str) -> Result<(), ConfigError> {
        self.check().map_err(|(key, value, expected)| {
            ConfigError::new(source, format!("kalah.{key}"), value, expected)
        })
    }

    fn default_depth(&self) -> u32 {
        self.depth
    }
}
