//! An engine player: one side's search settings, evaluator and tie-breaking randomness,
//! built from the config. Used alike by the command line, the TUI worker and tournaments.

use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::config::SideConfig;
use crate::engine::limits::StopFlag;
use crate::engine::search::{SearchResult, SearchSettings, search};
use crate::engine::tree::{NoopObserver, SearchObserver, SearchTree, TreeRecorder};
use crate::error::ConfigError;
use crate::games::{Playable, evaluator_for};

/// The engine playing one side.
#[derive(Clone, Debug)]
pub struct EnginePlayer<G: Playable> {
    /// How it searches.
    pub settings: SearchSettings,
    /// How it evaluates positions at the horizon.
    pub evaluator: G::Eval,
    /// The seed its tie-breaking started from (printed so a game can be repeated).
    pub seed: u64,
    rng: SmallRng,
}

impl<G: Playable> EnginePlayer<G> {
    /// An engine for `side` in a game with `options`; `source` and `key` name the config
    /// entry in errors (an unknown evaluator).
    pub fn new(
        side: &SideConfig,
        options: &G::Options,
        source: &str,
        key: &str,
    ) -> Result<Self, ConfigError> {
        let evaluator = evaluator_for::<G>(
            options,
            &side.evaluator,
            source,
            &format!("{key}.evaluator"),
        )?;
        let seed = side.seed.unwrap_or_else(fresh_seed);
        Ok(Self {
            settings: side.search_settings(options),
            evaluator,
            seed,
            rng: SmallRng::seed_from_u64(seed),
        })
    }

    /// Searches `game` and returns the engine's choice (recording nothing: the no-op
    /// observer compiles away).
    pub fn think(
        &mut self,
        game: &G,
        stop: &StopFlag,
        progress: &mut dyn FnMut(&SearchResult<G::Move>),
    ) -> SearchResult<G::Move> {
        self.think_observed(game, &mut NoopObserver, stop, progress)
    }

    /// Searches `game` reporting every node to `observer` (a recorder, or one wrapping it),
    /// with progress as [`EnginePlayer::think`] has it.
    pub fn think_observed<O: SearchObserver<G::Move>>(
        &mut self,
        game: &G,
        observer: &mut O,
        stop: &StopFlag,
        progress: &mut dyn FnMut(&SearchResult<G::Move>),
    ) -> SearchResult<G::Move> {
        search(
            game,
            &self.evaluator,
            &self.settings,
            &mut self.rng,
            observer,
            stop,
            progress,
        )
    }

    /// Searches `game` recording the tree (at most `max_nodes` nodes).
    pub fn think_recorded(
        &mut self,
        game: &G,
        max_nodes: usize,
        stop: &StopFlag,
    ) -> (SearchResult<G::Move>, SearchTree<G::Move>) {
        let mut recorder = TreeRecorder::new(max_nodes);
        let result = self.think_observed(game, &mut recorder, stop, &mut |_| {});
        let mut tree = recorder.finish();
        tree.mark_pv(&result.pv);
        (result, tree)
    }
}

/// A seed that differs from run to run (time and process id), for `seed` left unset.
pub fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    crate::games::splitmix64(nanos ^ (u64::from(std::process::id()) << 32))
}
