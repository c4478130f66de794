//! An engine player: one side's search settings, evaluator and tie-breaking randomness,
//! built from the config. Used alike by the command line, the TUI worker and tournaments.

use std::sync::Arc;

use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::config::SideConfig;
use crate::engine::api::{Algorithm, EngineSettings, SearchResult, search_with_table};
use crate::engine::limits::StopFlag;
use crate::engine::tree::{NoopObserver, SearchObserver, SearchTree, TreeRecorder};
use crate::engine::tt::{TranspositionTable, available_memory_mb};
use crate::error::ConfigError;
use crate::games::{Playable, evaluator_for};

/// The largest table an engine touches in full before its first search (the default size
/// and a little more; about 0.1 s).
const PRETOUCHED_TABLE_BYTES: usize = 256 << 20;

/// The engine playing one side. The full engine keeps its transposition table from move to
/// move (made at its first search); a clone starts with a table of its own.
#[derive(Debug)]
pub struct EnginePlayer<G: Playable> {
    /// How it searches.
    pub settings: EngineSettings,
    /// How it evaluates positions at the horizon.
    pub evaluator: G::Eval,
    /// The seed its tie-breaking started from (printed so a game can be repeated).
    pub seed: u64,
    rng: SmallRng,
    /// The table and the size in MiB it was made for.
    table: Option<(usize, Arc<TranspositionTable>)>,
}

impl<G: Playable> Clone for EnginePlayer<G> {
    fn clone(&self) -> Self {
        Self {
            settings: self.settings.clone(),
            evaluator: self.evaluator.clone(),
            seed: self.seed,
            rng: self.rng.clone(),
            table: None,
        }
    }
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
            &side.engine.evaluator,
            source,
            &format!("{key}.evaluator"),
        )?;
        let settings = side.search_settings(options);
        if settings.algorithm == Algorithm::Full
            && settings.tt
            && let Some(available) = available_memory_mb()
            && settings.tt_mb > available
        {
            return Err(ConfigError::new(
                source,
                format!("{key}.tt_mb"),
                settings.tt_mb,
                format!("more than the {available} MiB of memory this machine has available"),
            ));
        }
        let seed = side.engine.seed.unwrap_or_else(fresh_seed);
        Ok(Self {
            settings,
            evaluator,
            seed,
            rng: SmallRng::seed_from_u64(seed),
            table: None,
        })
    }

    /// The full engine's table, made on first use at the configured size (and made anew if
    /// the size setting changed).
    fn table(&mut self) -> Option<Arc<TranspositionTable>> {
        if self.settings.algorithm != Algorithm::Full || !self.settings.tt {
            return None;
        }
        let size = self.settings.tt_mb;
        if self.table.as_ref().is_none_or(|(mb, _)| *mb != size) {
            // Never fails: smaller when the memory is not there (the size was checked against
            // the machine's at construction, but memory can go meanwhile).
            let table = TranspositionTable::new(size);
            // Threads faulting in one table at once wait for each other (two threads searched
            // at half speed each until every page was touched first). But touching costs the
            // whole table at once (2 GiB took 7 s before a one-move game): one thread, or a
            // table larger than a search of moments fills, is faulted in as it is used.
            if self.settings.threads != 1 && table.bytes() <= PRETOUCHED_TABLE_BYTES {
                table.clear();
            }
            self.table = Some((size, Arc::new(table)));
        }
        self.table.as_ref().map(|(_, table)| Arc::clone(table))
    }

    /// Forgets what the table learnt (a new game, or positions from another game).
    pub fn clear_table(&mut self) {
        self.table = None;
    }

    /// Searches `game` reporting every node to `observer` (a recorder, or one wrapping it),
    /// with progress as [`EnginePlayer::think`] has it; the full engine with its table.
    pub fn think_observed<O: SearchObserver<G::Move>>(
        &mut self,
        game: &G,
        observer: &mut O,
        stop: &StopFlag,
        progress: &mut dyn FnMut(&SearchResult<G::Move>),
    ) -> SearchResult<G::Move> {
        let table = self.table();
        search_with_table(
            game,
            &self.evaluator,
            &self.settings,
            &mut self.rng,
            observer,
            stop,
            progress,
            table.as_deref(),
        )
    }

    /// Searches `game` and returns the engine's choice.
    pub fn think(
        &mut self,
        game: &G,
        stop: &StopFlag,
        progress: &mut dyn FnMut(&SearchResult<G::Move>),
    ) -> SearchResult<G::Move> {
        self.think_observed(game, &mut NoopObserver, stop, progress)
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
        let mut tree = recorder.finish_for(&result);
        // The moves cut-offs skipped, as rows of their own, within the same budget.
        let room = max_nodes.saturating_sub(tree.nodes.len());
        tree.add_skipped(game, room);
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
