//! Tournaments between engine settings: the schedule (every pairing, every opening twice with
//! colours swapped), reproducible games played in parallel, and the standings. Knows no
//! particular game and no terminal; the command line lives in [`command`].
//!
//! - [`entrants`]: the tournament file and `--entrant` flags (format documented there and in
//!   `examples/kalah-tournament.toml`);
//! - [`elo`]: tallies, Elo with a 95% margin, the SPRT;
//! - [`report`]: standings table, pairing matrix, games file, JSON;
//! - [`tune`]: choosing evaluator weights by tournament (`gametree tune kalah`);
//! - [`command`]: the two subcommands, progress bar and Ctrl-C.
//!
//! Output: the standings rank entrants by points (1 per win, ½ per draw) and give games,
//! wins, draws, losses, points, score % over all their games, and the Elo difference to the
//! *first* entrant of the file measured from their games against each other, with its 95%
//! margin (see [`elo::EloEstimate`]). The pairing matrix gives each pairing's points.
//!
//! Reproducibility: game `i` draws all its randomness (opening plies, engine tie-breaks)
//! from the tournament seed and `i` alone, so the same seed and settings give the same games
//! whatever the number of threads and however they are scheduled. (Entrants limited by
//! time instead of depth, or searching on several threads, are the exception: their moves
//! depend on the clock.)

pub mod command;
pub mod elo;
pub mod entrants;
pub mod report;
pub mod tune;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;

use crate::engine::clock::ClockReading;
use crate::engine::limits::StopFlag;
use crate::engine::tt::TranspositionTable;
use crate::engine::{Game, Outcome, Player};
use crate::error::ConfigError;
use crate::games::{Playable, splitmix64};
use crate::player::{EnginePlayer, SidePlayer};
use elo::{GamePoints, Tally};
use entrants::Tournament;

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ScheduledGame {
    /// Its index in the schedule, from 0: with the seed, it fixes the game.
    pub index: usize,
    /// The entrant moving first.
    pub first: usize,
    /// The entrant moving second.
    pub second: usize,
    /// Which opening it starts from.
    pub opening: usize,
}

/// Every game of a round robin between `entrants` entrants with `games_per_side` games per
/// side per pairing.
///
/// Opening `k` is played by every pairing, once with each colour, before opening `k + 1`
/// starts, so a tournament stopped early is still balanced between pairings and colours.
pub fn schedule(entrants: usize, games_per_side: u32) -> Vec<ScheduledGame> {
    let mut pairs = Vec::new();
    for a in 0..entrants {
        for b in a + 1..entrants {
            pairs.push((a, b));
        }
    }
    let mut games = Vec::new();
    for opening in 0..games_per_side as usize {
        for &(a, b) in &pairs {
            for (first, second) in [(a, b), (b, a)] {
                games.push(ScheduledGame {
                    index: games.len(),
                    first,
                    second,
                    opening,
                });
            }
        }
    }
    games
}

/// A finished game. Two records are equal when they are the same game: the time its moves
/// took is the machine's, not the game's, and is not compared.
#[derive(Clone, Debug, Serialize)]
pub struct GameRecord {
    /// Its index in the schedule.
    pub index: usize,
    /// The entrant that moved first.
    pub first: usize,
    /// The entrant that moved second.
    pub second: usize,
    /// The opening it started from.
    pub opening: usize,
    /// How many of `moves` were the opening.
    pub opening_plies: usize,
    /// Every move from the initial position, in the game's notation.
    pub moves: Vec<String>,
    /// How it ended.
    pub outcome: Outcome,
    /// Why the loser lost without the board deciding: an external brain that crashed,
    /// hung, said `ERROR` or played an illegal move (`outcome` is then the other's win).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<String>,
    /// The moves each side chose after the opening, and the time they took (wall clock,
    /// from asking to answer), by [`Player::index`].
    pub thinking: Thinking,
}

/// The moves one game's sides chose and the time they took, by [`Player::index`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Thinking {
    /// Moves chosen (the opening's not counted).
    pub moves: [u32; 2],
    /// Their time in milliseconds.
    pub ms: [u64; 2],
}

impl PartialEq for GameRecord {
    fn eq(&self, other: &Self) -> bool {
        self.game() == other.game()
    }
}

impl Eq for GameRecord {}

impl GameRecord {
    /// What makes it this game: everything but the time its moves took.
    fn game(&self) -> ([usize; 5], &[String], &Outcome, &Option<String>) {
        let Self {
            index,
            first,
            second,
            opening,
            opening_plies,
            moves,
            outcome,
            forfeit,
            thinking: _,
        } = self;
        (
            [*index, *first, *second, *opening, *opening_plies],
            moves,
            outcome,
            forfeit,
        )
    }

    /// The result for the first player as people write it: `1-0`, `0-1`, `1/2-1/2`.
    pub fn result_text(&self) -> &'static str {
        match self.outcome.value_for(Player::First).signum() {
            1 => "1-0",
            -1 => "0-1",
            _ => "1/2-1/2",
        }
    }

    /// What the game scored for the entrant moving as `player`.
    pub fn points_for(&self, player: Player) -> GamePoints {
        match self.outcome.value_for(player).signum() {
            1 => GamePoints::Win,
            -1 => GamePoints::Loss,
            _ => GamePoints::Draw,
        }
    }
}

/// Mixes a seed with a stream number and an index: independent, well-spread sub-seeds.
pub fn derive_seed(seed: u64, stream: u64, index: u64) -> u64 {
    splitmix64(splitmix64(seed ^ stream.wrapping_mul(0xA076_1D64_78BD_642F)) ^ index)
}

const OPENING_STREAM: u64 = 1;
const ENGINE_STREAM: u64 = 2;

/// The opening of number `k`: a listed opening (taken in turn), or `random_plies` random
/// legal moves drawn from the seed and `k`. A random move that would end the game is
/// avoided when another exists; if every move ends it, the opening stops short.
pub fn opening<G: Playable>(tournament: &Tournament<G>, k: usize) -> Vec<G::Move> {
    if !tournament.openings.is_empty() {
        return tournament.openings[k % tournament.openings.len()].clone();
    }
    random_opening(
        &G::new_game(&tournament.options),
        tournament.random_plies,
        derive_seed(tournament.seed, OPENING_STREAM, k as u64),
    )
}

/// `plies` random legal moves from `start`, avoiding moves that end the game.
pub fn random_opening<G: Game>(start: &G, plies: u32, seed: u64) -> Vec<G::Move> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = start.clone();
    let mut moves = Vec::new();
    let mut legal = Vec::new();
    for _ in 0..plies {
        game.legal_moves(&mut legal);
        // Try the moves in a random order; keep the first that leaves the game going.
        let mut chosen = None;
        while !legal.is_empty() {
            let mv = legal.swap_remove(rng.random_range(0..legal.len()));
            let mut trial = game.clone();
            trial.play(mv);
            if trial.outcome().is_none() {
                chosen = Some(mv);
                break;
            }
        }
        let Some(mv) = chosen else { break };
        game.play(mv);
        moves.push(mv);
    }
    moves
}

/// The seed of one side's tie-breaking in game `index`.
pub fn engine_seed(seed: u64, index: usize, player: Player) -> u64 {
    derive_seed(
        seed,
        ENGINE_STREAM,
        (index as u64) * 2 + player.index() as u64,
    )
}

/// The transposition tables one worker thread of a run hands from game to game: each game's
/// players take tables of their size from it (emptied in constant time) and give them back
/// when the game ends. Making fresh tables for every game spent most of a tournament in
/// the kernel, handing out and zeroing pages (400 Kalah games at depth 6: 51.7 s of system
/// time against 8.7 s of user time).
#[derive(Debug, Default)]
pub struct TablePool {
    /// Tables and the sizes in MiB they were made for.
    tables: Vec<(usize, Arc<TranspositionTable>)>,
}

/// The most tables a pool keeps: one per player of a game, and a spare for entrants of
/// another size.
const POOL_TABLES: usize = 3;

impl TablePool {
    /// Lends `player` an emptied table of its size, if the pool has one.
    pub fn lend<G: Playable>(&mut self, player: &mut EnginePlayer<G>) {
        let Some(megabytes) = player.table_mb() else {
            return;
        };
        if let Some(at) = self.tables.iter().position(|(mb, _)| *mb == megabytes) {
            let (mb, table) = self.tables.swap_remove(at);
            table.reset();
            player.adopt_table(mb, table);
        }
    }

    /// Takes `player`'s table back for the next game.
    pub fn take_back<G: Playable>(&mut self, player: &mut EnginePlayer<G>) {
        if let Some((mb, table)) = player.take_table()
            // Only a table nobody else holds is reused.
            && Arc::strong_count(&table) == 1
        {
            if self.tables.len() >= POOL_TABLES {
                self.tables.remove(0);
            }
            self.tables.push((mb, table));
        }
    }
}

/// Plays one scheduled game to the end. `None` when `stop` was raised before it finished
/// (the game is then not counted).
pub fn play_game<G: Playable>(
    tournament: &Tournament<G>,
    scheduled: &ScheduledGame,
    stop: &StopFlag,
) -> Result<Option<GameRecord>, ConfigError> {
    play_game_with(tournament, scheduled, stop, &mut TablePool::default())
}

/// [`play_game`], its players' tables lent by `pool` and given back to it.
pub fn play_game_with<G: Playable>(
    tournament: &Tournament<G>,
    scheduled: &ScheduledGame,
    stop: &StopFlag,
    pool: &mut TablePool,
) -> Result<Option<GameRecord>, ConfigError> {
    let make = |entrant: usize, player: Player| -> Result<SidePlayer<G>, ConfigError> {
        let e = &tournament.entrants[entrant];
        let mut side = e.side.clone();
        side.engine.seed = Some(engine_seed(tournament.seed, scheduled.index, player));
        SidePlayer::new(&side, &e.options, "tournament", &e.name)
    };
    let mut players = [
        make(scheduled.first, Player::First)?,
        make(scheduled.second, Player::Second)?,
    ];
    for player in &mut players {
        if let SidePlayer::Engine(engine) = player {
            pool.lend(engine);
        }
    }
    let record = play_out(tournament, scheduled, stop, &mut players);
    for player in &mut players {
        if let SidePlayer::Engine(engine) = player {
            pool.take_back(engine);
        }
    }
    Ok(record)
}

/// Plays the game of `scheduled` between `players`; `None` when `stop` was raised first.
fn play_out<G: Playable>(
    tournament: &Tournament<G>,
    scheduled: &ScheduledGame,
    stop: &StopFlag,
    players: &mut [SidePlayer<G>; 2],
) -> Option<GameRecord> {
    let mut game = G::new_game(&tournament.options);
    let mut moves = Vec::new();
    let opening = opening(tournament, scheduled.opening);
    for &mv in &opening {
        moves.push(game.format_move(mv));
        game.play(mv);
    }
    let mut forfeit = None;
    let mut thinking = Thinking::default();
    // The time each side's moves of this game took: an engine entrant's match clock (a
    // brain keeps its own).
    let mut used = [std::time::Duration::ZERO; 2];
    while game.outcome().is_none() {
        if stop.is_raised() {
            return None;
        }
        let mover = game.to_move();
        let reading = ClockReading {
            ply: moves.len(),
            used: used[mover.index()],
        };
        let asked = std::time::Instant::now();
        let played = players[mover.index()].play(&game, reading, stop, &mut |_| {}, &mut |_| {});
        if stop.is_raised() {
            return None;
        }
        let spent = asked.elapsed();
        used[mover.index()] += spent;
        thinking.moves[mover.index()] += 1;
        thinking.ms[mover.index()] += spent.as_millis() as u64;
        let result = match played {
            Ok(result) => result,
            Err(lost) => {
                forfeit = Some((mover, lost.reason));
                break;
            }
        };
        let mv = result.best?;
        moves.push(game.format_move(mv));
        game.play(mv);
    }
    let (outcome, forfeit) = match forfeit {
        Some((loser, reason)) => (
            Outcome::Win {
                winner: loser.other(),
                margin: 1,
            },
            Some(reason),
        ),
        None => match game.outcome() {
            Some(outcome) => (outcome, None),
            None => return None,
        },
    };
    Some(GameRecord {
        index: scheduled.index,
        first: scheduled.first,
        second: scheduled.second,
        opening: scheduled.opening,
        opening_plies: opening.len(),
        moves,
        outcome,
        forfeit,
        thinking,
    })
}

/// The number of games to play at once for `jobs` (0 = one per core).
pub fn job_count(jobs: usize) -> usize {
    if jobs > 0 {
        jobs
    } else {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    }
}

/// How a run of games ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunOutcome {
    /// The games handed to the caller, in schedule order.
    pub records: Vec<GameRecord>,
    /// True when the interrupt flag stopped the run before every game was played.
    pub interrupted: bool,
}

/// Plays `games` on `jobs` threads (0 = one per core), handing each finished game to
/// `on_game` in schedule order; `on_game` returns `false` to stop the run (the games after
/// it are then not played, or dropped if already finished).
///
/// Raising `interrupt` stops the run between moves: games in progress are abandoned, and
/// every game already finished is still handed over, in order, with gaps where games were
/// abandoned. Decisions made by `on_game` depend only on the games before it in the
/// schedule, never on which thread finished first, so they are reproducible too.
pub fn run_games<G: Playable>(
    tournament: &Tournament<G>,
    games: &[ScheduledGame],
    jobs: usize,
    interrupt: &StopFlag,
    mut on_game: impl FnMut(&GameRecord) -> bool,
) -> Result<RunOutcome, ConfigError> {
    let halt = StopFlag::new();
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Result<Option<GameRecord>, ConfigError>)>();
    let mut records = Vec::new();
    let mut error = None;
    let mut interrupted = false;
    std::thread::scope(|scope| {
        for _ in 0..job_count(jobs).min(games.len()) {
            let tx = tx.clone();
            let (halt, next) = (&halt, &next);
            scope.spawn(move || {
                let mut pool = TablePool::default();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games.len() || halt.is_raised() || interrupt.is_raised() {
                        break;
                    }
                    let result = play_game_with(tournament, &games[i], halt, &mut pool);
                    if tx.send((i, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<usize, Option<GameRecord>> = BTreeMap::new();
        let mut delivered = 0;
        let mut accepting = true;
        let mut received = 0;
        loop {
            if interrupt.is_raised() && !halt.is_raised() {
                interrupted = true;
                halt.raise();
            }
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok((i, Ok(record))) => {
                    received += 1;
                    pending.insert(i, record);
                }
                Ok((_, Err(e))) => {
                    error.get_or_insert(e);
                    halt.raise();
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            // Hand over the games that are next in schedule order.
            while accepting {
                let Some(slot) = pending.remove(&delivered) else {
                    break;
                };
                delivered += 1;
                if let Some(record) = slot {
                    if !on_game(&record) {
                        accepting = false;
                        halt.raise();
                    }
                    records.push(record);
                }
            }
        }
        // Workers that saw the interrupt first may have quit before this loop did.
        if accepting && error.is_none() && received < games.len() && interrupt.is_raised() {
            interrupted = true;
        }
        // Interrupted: the games finished out of order are still worth counting.
        if accepting && interrupted {
            for record in pending.into_values().flatten() {
                on_game(&record);
                records.push(record);
            }
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    Ok(RunOutcome {
        records,
        interrupted,
    })
}

/// The running results: every entrant's tally against every other.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Standings {
    /// Entrant names, in file order.
    pub names: Vec<String>,
    /// `matrix[a][b]`: entrant `a`'s results against `b`.
    pub matrix: Vec<Vec<Tally>>,
}

impl Standings {
    /// Empty standings for these entrants.
    pub fn new(names: Vec<String>) -> Self {
        let n = names.len();
        Self {
            names,
            matrix: vec![vec![Tally::default(); n]; n],
        }
    }

    /// Counts a finished game.
    pub fn record(&mut self, game: &GameRecord) {
        let points = game.points_for(Player::First);
        self.matrix[game.first][game.second].record(points);
        self.matrix[game.second][game.first].record(game.points_for(Player::Second));
    }

    /// Entrant `a`'s results over all its games.
    pub fn total(&self, a: usize) -> Tally {
        let mut t = Tally::default();
        for row in &self.matrix[a] {
            t.add(row);
        }
        t
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        (0..self.names.len())
            .map(|a| self.total(a).games())
            .sum::<u32>()
            / 2
    }

    /// Entrant `a`'s Elo difference to the first entrant, from their games against each
    /// other (0 ± 0 for the first itself; `None` before they have met).
    pub fn elo_vs_first(&self, a: usize) -> Option<elo::EloEstimate> {
        if a == 0 {
            return Some(elo::EloEstimate {
                elo: 0.0,
                margin: 0.0,
                low: 0.0,
                high: 0.0,
            });
        }
        elo::EloEstimate::from_tally(&self.matrix[a][0])
    }

    /// Entrant indexes from most to fewest points (file order among equals).
    pub fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| {
            self.total(b)
                .points()
                .total_cmp(&self.total(a).points())
                .then(a.cmp(&b))
        });
        order
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::config::Config;
    use crate::engine::api::Algorithm;
    use crate::engine::limits::Limits;
    use crate::engine::tree::Bound;
    use crate::engine::tt::Entry;
    use crate::games::kalah::Kalah;

    fn player(tt_mb: usize) -> EnginePlayer<Kalah> {
        let config = Config::builtin().unwrap();
        let options = config.game_options::<Kalah>().unwrap();
        let mut side = config.players.side(Player::First).clone();
        side.engine.algorithm = Algorithm::Full;
        side.engine.tt = true;
        side.engine.tt_mb = tt_mb;
        side.engine.threads = 1;
        side.engine.limits = Limits::depth(3);
        EnginePlayer::new(&side, &options, "test", "players.first").unwrap()
    }

    #[test]
    fn a_pool_lends_the_tables_of_earlier_games_emptied_and_of_the_right_size() {
        let mut pool = TablePool::default();
        let mut first = player(1);
        let options = Config::builtin().unwrap().game_options::<Kalah>().unwrap();
        let game = Kalah::new_game(&options);
        assert!(
            first
                .think(&game, &StopFlag::new(), &mut |_| {})
                .best
                .is_some()
        );
        pool.take_back(&mut first);
        assert_eq!(pool.tables.len(), 1);
        let table = Arc::clone(&pool.tables[0].1);
        let entry = Entry {
            value: 5,
            bound: Bound::Exact,
            depth: 2,
            proven: false,
            best: None,
        };
        table.store(0xABCD, entry);
        assert_eq!(table.probe(0xABCD), Some(entry));
        drop(table);
        // Another size gets nothing; the same size gets that table, empty.
        let mut other = player(2);
        pool.lend(&mut other);
        assert!(other.take_table().is_none());
        let mut second = player(1);
        pool.lend(&mut second);
        assert!(pool.tables.is_empty());
        let (mb, lent) = second.take_table().unwrap();
        assert_eq!(mb, 1);
        assert_eq!(lent.probe(0xABCD), None);
        assert_eq!(lent.permille_full(), 0);
    }
}
