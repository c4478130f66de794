//! An engine player: one side's search settings, evaluator and tie-breaking randomness,
//! built from the config. Used alike by the command line, the TUI worker and tournaments.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::brain::client::{BRAIN_CONNECT, BrainError, BrainLine, BrainPlayer};
use crate::config::{PlayerKind, SideConfig};
use crate::engine::api::{Algorithm, EngineSettings, SearchResult, search_with_table};
use crate::engine::clock::ClockReading;
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

    /// Starts a new game as a new engine with the same settings and seed would: the table
    /// forgotten and the tie-breaking back at the start of its seed's sequence, so a game's
    /// answers do not depend on the games played before it.
    pub fn new_game(&mut self) {
        self.clear_table();
        self.rng = SmallRng::seed_from_u64(self.seed);
    }

    /// The table this engine's next search would use and the size in MiB it was made for,
    /// taken away (a tournament keeps it for the next game's player: see
    /// [`Self::adopt_table`]).
    pub fn take_table(&mut self) -> Option<(usize, Arc<TranspositionTable>)> {
        self.table.take()
    }

    /// Gives this engine a table made for `megabytes` MiB, to use from its next search as if
    /// it had made it (it still makes its own if its size setting differs). The caller
    /// empties it first ([`TranspositionTable::reset`]): reusing one saves the kernel's work
    /// of handing out and zeroing fresh pages for every game.
    pub fn adopt_table(&mut self, megabytes: usize, table: Arc<TranspositionTable>) {
        self.table = Some((megabytes, table));
    }

    /// The size in MiB of the table this engine's searches use, `None` when they use none.
    pub fn table_mb(&self) -> Option<usize> {
        (self.settings.algorithm == Algorithm::Full && self.settings.tt)
            .then_some(self.settings.tt_mb)
    }

    /// Searches `game` reporting every node to `observer` (a recorder, or one wrapping it),
    /// with progress as [`EnginePlayer::think`] has it; the full engine with its table. On
    /// a match clock it plans as for the first move of a game ([`Self::think_on_clock`]).
    pub fn think_observed<O: SearchObserver<G::Move>>(
        &mut self,
        game: &G,
        observer: &mut O,
        stop: &StopFlag,
        progress: &mut dyn FnMut(&SearchResult<G::Move>),
    ) -> SearchResult<G::Move> {
        self.think_on_clock(game, ClockReading::default(), observer, stop, progress)
    }

    /// [`Self::think_observed`] for a side at `reading` on its match clock: with
    /// `match_ms` set, the full engine's time comes from what is left of the match time
    /// ([`ClockReading::plan`]), within `time_ms` a move when that is set as well. Charging
    /// the time to the clock is the caller's.
    pub fn think_on_clock<O: SearchObserver<G::Move>>(
        &mut self,
        game: &G,
        reading: ClockReading,
        observer: &mut O,
        stop: &StopFlag,
        progress: &mut dyn FnMut(&SearchResult<G::Move>),
    ) -> SearchResult<G::Move> {
        let table = self.table();
        let planned;
        let mut settings = &self.settings;
        if let Some(limit) = self.settings.match_clock() {
            let plan = reading.plan(limit, self.settings.limits.time, game.moves_left());
            let mut timed = self.settings.clone();
            timed.limits.time = Some(plan.time);
            timed.limits.target = plan.target;
            planned = timed;
            settings = &planned;
        }
        search_with_table(
            game,
            &self.evaluator,
            settings,
            &mut self.rng,
            observer,
            stop,
            progress,
            table.as_deref(),
        )
    }

    /// The time left on this engine's match clock at `reading`, `None` without one.
    pub fn clock_left(&self, reading: ClockReading) -> Option<Duration> {
        self.settings.match_clock().map(|limit| reading.left(limit))
    }

    /// Why the engine lost on time, if it did, when its move `result` at `reading` took
    /// `spent` (a search stopped without a move loses nothing).
    pub fn lost_on_time(
        &self,
        reading: ClockReading,
        spent: Duration,
        result: &SearchResult<G::Move>,
    ) -> Option<String> {
        let limit = self.settings.match_clock()?;
        let why = reading.after(spent).lost_on_time(limit)?;
        result.best.is_some().then(|| format!("the engine {why}"))
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

/// Whoever plays a side without a keyboard: the engine, or an external Gomocup brain.
/// (A human side gets an engine too: it gives the hints.)
pub enum SidePlayer<G: Playable> {
    /// The search engine.
    Engine(EnginePlayer<G>),
    /// An external brain (Gomoku only).
    Brain(BrainPlayer),
}

/// A side that gave no move: a brain that forfeits the game, with why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// In words: `brain x crashed: ...`.
    pub reason: String,
}

impl std::fmt::Display for Forfeit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

impl<G: Playable> SidePlayer<G> {
    /// The player for `side` in a game with `options`: its brain for `kind = "brain"` (only
    /// for Gomoku, five in a row), else its engine. `source` and `key` name the config
    /// entry in errors.
    pub fn new(
        side: &SideConfig,
        options: &G::Options,
        source: &str,
        key: &str,
    ) -> Result<Self, ConfigError> {
        if side.kind != PlayerKind::Brain {
            return EnginePlayer::new(side, options, source, key).map(Self::Engine);
        }
        side.check_game(G::KIND, source, key)?;
        side.validate(source, key)?;
        let start = G::new_game(options);
        if let Some(gomoku) = start.as_gomoku()
            && gomoku.connect() != BRAIN_CONNECT
        {
            return Err(ConfigError::new(
                source,
                format!("{key}.kind"),
                "brain",
                format!(
                    "Gomocup brains play five in a row; this game is gomoku.connect = {}",
                    gomoku.connect()
                ),
            ));
        }
        let memory = (side.engine.tt_mb as u64).saturating_mul(1 << 20);
        let turn = side.engine.limits.time.unwrap_or_default();
        let match_time = side.engine.match_time.unwrap_or_default();
        Ok(Self::Brain(
            BrainPlayer::new(side.brain.clone(), turn, memory).with_match_time(match_time),
        ))
    }

    /// The engine's tie-breaking seed (none for a brain).
    pub fn seed(&self) -> Option<u64> {
        match self {
            Self::Engine(engine) => Some(engine.seed),
            Self::Brain(_) => None,
        }
    }

    /// How to name it: `engine`, or the brain's name (from `ABOUT` once it answered).
    pub fn name(&self) -> String {
        match self {
            Self::Engine(_) => "engine".to_string(),
            Self::Brain(brain) => brain.name().to_string(),
        }
    }

    /// The engine, if this side is one.
    pub fn engine_mut(&mut self) -> Option<&mut EnginePlayer<G>> {
        match self {
            Self::Engine(engine) => Some(engine),
            Self::Brain(_) => None,
        }
    }

    /// Its move in `game`: the engine's search (progress as [`EnginePlayer::think`]; at
    /// `reading` on its match clock, if it has one), or the brain's answer as a result with
    /// only `best` (and `pv`) set, its `MESSAGE` and `DEBUG` lines handed to `on_line` (a
    /// brain keeps its own clock). A stop gives a result without a move, as a stopped
    /// search does; a brain that fails forfeits, and so does either once its moves took
    /// more than its match time and [`crate::engine::clock::MATCH_GRACE`]. Charging the
    /// time to an engine's clock is the caller's.
    pub fn play(
        &mut self,
        game: &G,
        reading: ClockReading,
        stop: &StopFlag,
        progress: &mut dyn FnMut(&SearchResult<G::Move>),
        on_line: &mut dyn FnMut(BrainLine),
    ) -> Result<SearchResult<G::Move>, Forfeit> {
        match self {
            Self::Engine(engine) => {
                let started = Instant::now();
                let result =
                    engine.think_on_clock(game, reading, &mut NoopObserver, stop, progress);
                match engine.lost_on_time(reading, started.elapsed(), &result) {
                    Some(reason) => Err(Forfeit { reason }),
                    None => Ok(result),
                }
            }
            Self::Brain(brain) => {
                let Some(gomoku) = game.as_gomoku() else {
                    return Err(Forfeit {
                        reason: format!(
                            "brain {} cannot play {}: only Gomoku",
                            brain.name(),
                            G::KIND.title()
                        ),
                    });
                };
                let started = std::time::Instant::now();
                match brain.choose(gomoku, stop, on_line) {
                    Ok(cell) => {
                        let mv = G::move_from_gomoku(cell);
                        let mut result = SearchResult::fallback(mv, true);
                        result.stats.elapsed = started.elapsed();
                        Ok(result)
                    }
                    Err(BrainError::Stopped) => Ok(SearchResult::fallback(None, false)),
                    Err(BrainError::Forfeit(reason)) => Err(Forfeit { reason }),
                }
            }
        }
    }
}
