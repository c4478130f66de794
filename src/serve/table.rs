//! The game being served, whatever its type: [`Table`] is what the protocol asks of a game
//! (state, legal moves, moves, searches), [`GameTable`] answers it for any [`Describe`]
//! game. Searches come back as [`Job`]s to run on the worker thread, already bound to
//! a copy of the position, so the protocol loop never waits on the engine.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use serde_json::{Map, Value, json};

use super::position::Describe;
use super::request::{ErrorKind, MoveRef, ProtocolError};
use crate::config::{PlayerKind, SideConfig};
use crate::engine::api::{Algorithm, EngineSettings, SearchResult};
use crate::engine::limits::StopFlag;
use crate::engine::{Game, Outcome, Player, Scoring, score};
use crate::games::{GameKind, GameOptions, Playable};
use crate::player::EnginePlayer;

/// A search to run on the worker: it hands progress lines to the sink and returns the last
/// line (the answer). Lines are complete JSON objects without the line ending.
pub type Job = Box<dyn FnOnce(&StopFlag, &mut dyn FnMut(String)) -> String + Send>;

/// How often a `preparing` line reports a build's progress.
const PREPARE_INTERVAL: std::time::Duration = std::time::Duration::from_millis(250);

/// Loads or builds what searches of `G` with `options` use (Kalah's endgame database, cached
/// on disk) before a search job, as the command line does: while it builds, a `preparing`
/// line with its progress at most every [`PREPARE_INTERVAL`], so that a client is not left
/// waiting in silence. `stop` ends the build, and the search after it then answers at once
/// as stopped. A database that cannot be had (an error) leaves the search without it, as
/// before it was ready.
fn prepare<G: Playable>(
    options: &G::Options,
    id: &Value,
    stop: &StopFlag,
    sink: &mut dyn FnMut(String),
) {
    let mut last: Option<Instant> = None;
    let _ = G::prepare_search(
        options,
        &mut |done, total| {
            if last.is_none_or(|t| t.elapsed() >= PREPARE_INTERVAL) {
                last = Some(Instant::now());
                let mut fields = Map::new();
                fields.insert("what".into(), json!("endgame database"));
                fields.insert("done".into(), json!(done));
                fields.insert("total".into(), json!(total));
                sink(line(id, "preparing", fields));
            }
        },
        stop,
    );
}

/// What the protocol asks of the game being served.
pub trait Table: Send {
    /// Which game.
    fn kind(&self) -> GameKind;
    /// The `state` response's fields.
    fn state(&self) -> Map<String, Value>;
    /// The `legal` response's fields.
    fn legal(&self) -> Map<String, Value>;
    /// Plays one move for the side to move; nothing changes on error.
    fn play(&mut self, mv: &MoveRef) -> Result<(), ProtocolError>;
    /// Replaces the game's moves with `moves` from the start; nothing changes on error.
    fn position(&mut self, moves: &[MoveRef]) -> Result<(), ProtocolError>;
    /// Takes back `count` moves; nothing changes on error.
    fn undo(&mut self, count: usize) -> Result<(), ProtocolError>;
    /// A search of the position with `settings` over the base ones.
    fn go(&mut self, id: &Value, settings: &Map<String, Value>) -> Result<Job, ProtocolError>;
    /// An exact solve of the position.
    fn solve(&mut self, id: &Value, threads: usize, tt_mb: usize) -> Result<Job, ProtocolError>;
    /// Move sequences of `depth` moves from the position.
    fn perft(&mut self, id: &Value, depth: u32, divide: bool) -> Job;
    /// A search with its tree recorded.
    fn tree(
        &mut self,
        id: &Value,
        max_nodes: usize,
        settings: &Map<String, Value>,
    ) -> Result<Job, ProtocolError>;
}

/// An engine player kept between searches (its table too), with the settings it was made for.
type SharedEngine<G> = Arc<Mutex<EnginePlayer<G>>>;

/// A game of type `G`: its options, the moves from the start and the position they reach.
pub struct GameTable<G: Describe> {
    options: G::Options,
    /// The configured engine settings (`players.second` and the command line).
    base: EngineSettings,
    moves: Vec<G::Move>,
    /// Who played each move.
    movers: Vec<Player>,
    game: G,
    engine: Option<(EngineSettings, SharedEngine<G>)>,
}

impl<G: Describe> GameTable<G> {
    /// A new game with (validated) `options`, searching with `base` unless asked otherwise.
    pub fn new(options: G::Options, base: EngineSettings) -> Self {
        let game = G::new_game(&options);
        Self {
            options,
            base,
            moves: Vec::new(),
            movers: Vec::new(),
            game,
            engine: None,
        }
    }

    /// The position now.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The move `mv` names in `game`, legal there.
    fn resolve(game: &G, mv: &MoveRef) -> Result<G::Move, ProtocolError> {
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        match mv {
            MoveRef::Notation(text) => {
                let parsed = game
                    .parse_move(text)
                    .map_err(|e| ProtocolError::new(ErrorKind::BadMove, e.to_string()))?;
                if legal.contains(&parsed) {
                    Ok(parsed)
                } else {
                    let mut copy = game.clone();
                    let reason = match copy.try_play(parsed) {
                        Err(e) => e.to_string(),
                        Ok(_) => format!("{text}: not a legal move here"),
                    };
                    Err(ProtocolError::new(ErrorKind::IllegalMove, reason))
                }
            }
            MoveRef::Index(index) => legal
                .iter()
                .copied()
                .find(|&m| game.move_index(m) as u64 == *index)
                .ok_or_else(|| {
                    let why = if game.outcome().is_some() {
                        "the game is over".to_string()
                    } else {
                        "`legal` lists the indexes of the moves there are".to_string()
                    };
                    ProtocolError::new(
                        ErrorKind::IllegalMove,
                        format!("no legal move has index {index} here: {why}"),
                    )
                }),
        }
    }

    /// The settings `overrides` make of the base ones, checked against the schema and this
    /// game's evaluators.
    fn settings_with(
        &self,
        base: &EngineSettings,
        overrides: &Map<String, Value>,
    ) -> Result<EngineSettings, ProtocolError> {
        let mut settings = base.clone();
        for (key, value) in overrides {
            let Some(field) = EngineSettings::field(key) else {
                return Err(ProtocolError::new(
                    ErrorKind::UnknownField,
                    format!("unknown engine setting `{key}`"),
                ));
            };
            settings.set_from(field, value.clone()).map_err(|e| {
                ProtocolError::new(ErrorKind::InvalidValue, format!("`{key}`: {e}"))
            })?;
        }
        settings
            .validate()
            .map_err(|e| ProtocolError::new(ErrorKind::InvalidValue, e.to_string()))?;
        if settings.match_time.is_some() {
            return Err(ProtocolError::new(
                ErrorKind::InvalidValue,
                format!("`match_ms`: {}", super::NO_MATCH_CLOCK),
            ));
        }
        if G::evaluator(&self.options, &settings.evaluator).is_none() {
            return Err(ProtocolError::new(
                ErrorKind::InvalidValue,
                format!(
                    "evaluator `{}`: {} offers default, {}",
                    settings.evaluator,
                    G::KIND.name(),
                    G::EVALUATORS.join(", ")
                ),
            ));
        }
        Ok(settings)
    }

    /// The engine for `settings`: the kept one when only search limits and switches
    /// changed (its table and tie-breaking stay), a new one for a new evaluator, seed or
    /// table size.
    fn engine_for(&mut self, settings: &EngineSettings) -> Result<SharedEngine<G>, ProtocolError> {
        let side = SideConfig {
            kind: PlayerKind::Engine,
            engine: settings.clone(),
            ..SideConfig::default()
        };
        if let Some((made_for, engine)) = &mut self.engine
            && made_for.evaluator == settings.evaluator
            && made_for.seed == settings.seed
            && made_for.tt_mb == settings.tt_mb
        {
            engine
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .settings = side.search_settings(&self.options);
            *made_for = settings.clone();
            return Ok(Arc::clone(engine));
        }
        let engine = EnginePlayer::new(&side, &self.options, "request", "go")
            .map_err(|e| ProtocolError::new(ErrorKind::InvalidValue, e.to_string()))?;
        let engine = Arc::new(Mutex::new(engine));
        self.engine = Some((settings.clone(), Arc::clone(&engine)));
        Ok(engine)
    }

    fn refuse_finished(&self) -> Result<(), ProtocolError> {
        if self.game.outcome().is_some() {
            return Err(ProtocolError::new(
                ErrorKind::GameOver,
                "the game is over: there is nothing to search (`undo`, `position` or `new`)",
            ));
        }
        Ok(())
    }
}

/// A finished game as data: `{"winner": "first", "margin": 2}` or `{"winner": null}` for
/// a draw; `null` while the game goes on.
pub fn outcome_json(outcome: Option<Outcome>) -> Value {
    match outcome {
        None => Value::Null,
        Some(Outcome::Win { winner, margin }) => json!({"winner": winner, "margin": margin}),
        Some(Outcome::Draw) => json!({"winner": null, "margin": 0}),
    }
}

/// The state of `game` after `moves` (in notation), the last played by `last_mover`.
pub fn state_of<G: Describe>(
    game: &G,
    moves: &[String],
    last_mover: Option<Player>,
) -> Map<String, Value> {
    let outcome = game.outcome();
    let to_move = outcome.is_none().then(|| game.to_move());
    let extra_turn = last_mover.is_some() && to_move == last_mover;
    let mut state = Map::new();
    state.insert("game".into(), json!(G::KIND.name()));
    state.insert("to_move".into(), json!(to_move));
    state.insert("to_move_name".into(), json!(to_move.map(G::side_name)));
    state.insert("extra_turn".into(), json!(extra_turn));
    state.insert("ply".into(), json!(moves.len()));
    state.insert("last_move".into(), json!(moves.last()));
    state.insert("moves".into(), json!(moves));
    state.insert(
        "scores".into(),
        json!(
            game.scores()
                .map(|[first, second]| json!({"first": first, "second": second}))
        ),
    );
    state.insert("outcome".into(), outcome_json(outcome));
    state.insert("position".into(), game.position());
    state
}

/// The `legal` fields of `game`: every legal move in notation with its index.
pub fn legal_of<G: Game>(game: &G) -> Map<String, Value> {
    let mut legal = Vec::new();
    game.legal_moves(&mut legal);
    let moves: Vec<Value> = legal
        .iter()
        .map(|&m| json!({"move": game.format_move(m), "index": game.move_index(m)}))
        .collect();
    let mut out = Map::new();
    out.insert(
        "to_move".into(),
        json!(game.outcome().is_none().then(|| game.to_move())),
    );
    out.insert("moves".into(), Value::Array(moves));
    out
}

fn millis(elapsed: std::time::Duration) -> f64 {
    elapsed.as_micros() as f64 / 1000.0
}

/// A search's result as the fields of `info` and `bestmove`.
fn search_fields<G: Game>(game: &G, result: &SearchResult<G::Move>) -> Map<String, Value> {
    let stats = &result.stats;
    let mut out = Map::new();
    out.insert(
        "move".into(),
        json!(result.best.map(|m| game.format_move(m))),
    );
    out.insert(
        "index".into(),
        json!(result.best.map(|m| game.move_index(m))),
    );
    out.insert("value".into(), json!(result.value));
    out.insert("value_text".into(), json!(score::format::<G>(result.value)));
    out.insert("depth".into(), json!(stats.depth));
    out.insert("nodes".into(), json!(stats.nodes));
    out.insert("millis".into(), json!(millis(stats.elapsed)));
    out.insert("nps".into(), json!(stats.nodes_per_second().round()));
    out.insert("pv".into(), pv_notation(game, &result.pv));
    out
}

/// A principal variation as the `pv` field: its moves in `game`'s notation.
fn pv_notation<G: Game>(game: &G, pv: &[G::Move]) -> Value {
    json!(pv.iter().map(|&m| game.format_move(m)).collect::<Vec<_>>())
}

/// One response line: `id` and `type` first (for people reading transcripts), then
/// `fields` (in alphabetical order).
pub fn line(id: &Value, kind: &str, fields: Map<String, Value>) -> String {
    let rest = Value::Object(fields).to_string();
    let inner = rest
        .strip_prefix('{')
        .and_then(|r| r.strip_suffix('}'))
        .unwrap_or("");
    let separator = if inner.is_empty() { "" } else { "," };
    format!("{{\"id\":{id},\"type\":{}{separator}{inner}}}", json!(kind))
}

impl<G: Describe> Table for GameTable<G> {
    fn kind(&self) -> GameKind {
        G::KIND
    }

    fn state(&self) -> Map<String, Value> {
        let initial = G::new_game(&self.options);
        let mut replay = initial;
        let mut notation = Vec::with_capacity(self.moves.len());
        for &mv in &self.moves {
            notation.push(replay.format_move(mv));
            replay.play(mv);
        }
        state_of(&self.game, &notation, self.movers.last().copied())
    }

    fn legal(&self) -> Map<String, Value> {
        legal_of(&self.game)
    }

    fn play(&mut self, mv: &MoveRef) -> Result<(), ProtocolError> {
        let mv = Self::resolve(&self.game, mv)?;
        let mover = self.game.to_move();
        self.game.play(mv);
        self.moves.push(mv);
        self.movers.push(mover);
        Ok(())
    }

    fn position(&mut self, moves: &[MoveRef]) -> Result<(), ProtocolError> {
        let mut game = G::new_game(&self.options);
        let mut played = Vec::with_capacity(moves.len());
        let mut movers = Vec::with_capacity(moves.len());
        for (i, mv) in moves.iter().enumerate() {
            let resolved = Self::resolve(&game, mv).map_err(|e| ProtocolError {
                message: format!("move {} of `moves`: {}", i + 1, e.message),
                ..e
            })?;
            movers.push(game.to_move());
            game.play(resolved);
            played.push(resolved);
        }
        self.game = game;
        self.moves = played;
        self.movers = movers;
        Ok(())
    }

    fn undo(&mut self, count: usize) -> Result<(), ProtocolError> {
        if count > self.moves.len() {
            return Err(ProtocolError::new(
                ErrorKind::NothingToUndo,
                match self.moves.len() {
                    0 => format!("undo {count}: no move has been played"),
                    1 => format!("undo {count}: only 1 move has been played"),
                    n => format!("undo {count}: only {n} moves have been played"),
                },
            ));
        }
        let keep = self.moves.len() - count;
        let mut game = G::new_game(&self.options);
        for &mv in &self.moves[..keep] {
            game.play(mv);
        }
        self.game = game;
        self.moves.truncate(keep);
        self.movers.truncate(keep);
        Ok(())
    }

    fn go(&mut self, id: &Value, overrides: &Map<String, Value>) -> Result<Job, ProtocolError> {
        let base = self.base.clone();
        let settings = self.settings_with(&base, overrides)?;
        self.refuse_finished()?;
        let engine = self.engine_for(&settings)?;
        let game = self.game.clone();
        let options = self.options.clone();
        let id = id.clone();
        Ok(Box::new(move |stop, sink| {
            prepare::<G>(&options, &id, stop, sink);
            let mut engine = engine.lock().unwrap_or_else(PoisonError::into_inner);
            let result = engine.think(&game, stop, &mut |progress| {
                sink(line(&id, "info", search_fields(&game, progress)));
            });
            let mut fields = search_fields(&game, &result);
            fields.insert("completed".into(), json!(result.completed));
            line(&id, "bestmove", fields)
        }))
    }

    fn solve(&mut self, id: &Value, threads: usize, tt_mb: usize) -> Result<Job, ProtocolError> {
        self.refuse_finished()?;
        let evaluator = G::evaluator(&self.options, "default").ok_or_else(|| {
            ProtocolError::new(ErrorKind::Internal, "the game has no default evaluator")
        })?;
        let settings = EngineSettings {
            limits: crate::engine::limits::Limits::default(),
            solve: true,
            random_ties: false,
            threads,
            tt_mb,
            ..EngineSettings::to_depth(Algorithm::Full, 0)
        };
        let table = crate::engine::tt::TranspositionTable::try_new(tt_mb).map_err(|e| {
            ProtocolError::new(ErrorKind::InvalidValue, format!("`tt_mb` {tt_mb}: {e}"))
        })?;
        let game = self.game.clone();
        let options = self.options.clone();
        let id = id.clone();
        Ok(Box::new(move |stop, sink| {
            prepare::<G>(&options, &id, stop, sink);
            let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(0);
            let result = crate::engine::full::search(
                &game,
                &evaluator,
                &settings,
                &mut rng,
                &mut crate::engine::tree::NoopObserver,
                stop,
                &mut |_| {},
                Some(&table),
            );
            let value = score::game_value::<G>(result.value) * game.to_move().sign();
            let mut fields = Map::new();
            fields.insert("value".into(), json!(value));
            fields.insert(
                "units".into(),
                json!(match G::SCORING {
                    Scoring::WinLoss => "win_loss",
                    Scoring::Margin => "margin",
                }),
            );
            fields.insert(
                "move".into(),
                json!(result.best.map(|m| game.format_move(m))),
            );
            fields.insert("pv".into(), pv_notation(&game, &result.pv));
            fields.insert("nodes".into(), json!(result.stats.nodes));
            fields.insert("millis".into(), json!(millis(result.stats.elapsed)));
            fields.insert("completed".into(), json!(result.completed));
            line(&id, "solved", fields)
        }))
    }

    fn perft(&mut self, id: &Value, depth: u32, divide: bool) -> Job {
        let mut game = self.game.clone();
        let id = id.clone();
        Box::new(move |stop, _sink| {
            let started = Instant::now();
            let mut fields = Map::new();
            let mut completed = true;
            let total = if divide && depth > 0 {
                let mut moves = Vec::new();
                game.legal_moves(&mut moves);
                let mut per_move = Map::new();
                let mut total = 0;
                for mv in moves {
                    let name = game.format_move(mv);
                    let undo = game.play(mv);
                    let (n, done) = crate::engine::perft::perft_until(&mut game, depth - 1, stop);
                    game.undo(mv, undo);
                    completed &= done;
                    total += n;
                    per_move.insert(name, json!(n));
                    if !done {
                        break;
                    }
                }
                fields.insert("divide".into(), Value::Object(per_move));
                total
            } else {
                let (n, done) = crate::engine::perft::perft_until(&mut game, depth, stop);
                completed = done;
                n
            };
            fields.insert("depth".into(), json!(depth));
            fields.insert("nodes".into(), json!(total));
            fields.insert("millis".into(), json!(millis(started.elapsed())));
            fields.insert("completed".into(), json!(completed));
            line(&id, "perft", fields)
        })
    }

    fn tree(
        &mut self,
        id: &Value,
        max_nodes: usize,
        overrides: &Map<String, Value>,
    ) -> Result<Job, ProtocolError> {
        // Plain alpha-beta unless asked otherwise, as `gametree tree`: its tree teaches pruning.
        let base = EngineSettings {
            algorithm: Algorithm::AlphaBeta,
            ..self.base.clone()
        };
        let settings = self.settings_with(&base, overrides)?;
        self.refuse_finished()?;
        let side = SideConfig {
            kind: PlayerKind::Engine,
            engine: settings,
            ..SideConfig::default()
        };
        // A player of its own: the tree of a search that starts with a warm table would
        // show table hits where the search's work was.
        let mut engine = EnginePlayer::<G>::new(&side, &self.options, "request", "tree")
            .map_err(|e| ProtocolError::new(ErrorKind::InvalidValue, e.to_string()))?;
        let game = self.game.clone();
        let options = self.options.clone();
        let id = id.clone();
        Ok(Box::new(move |stop, sink| {
            prepare::<G>(&options, &id, stop, sink);
            let (result, tree) = engine.think_recorded(&game, max_nodes, stop);
            let best = result.best.map(|m| game.format_move(m));
            let stats = serde_json::to_value(result.stats).unwrap_or(Value::Null);
            let mut out = Vec::new();
            let written = crate::export::write_json(
                &mut out,
                &game,
                &tree,
                &[
                    ("id", id.clone()),
                    ("type", json!("tree")),
                    ("best_move", json!(best)),
                    ("value", json!(result.value)),
                    ("completed", json!(result.completed)),
                    ("stats", stats),
                ],
            );
            match written.map(|()| String::from_utf8(out)) {
                Ok(Ok(mut text)) => {
                    text.truncate(text.trim_end().len());
                    text
                }
                _ => ProtocolError::new(ErrorKind::Internal, "the tree could not be written")
                    .response(&id),
            }
        }))
    }
}

/// A table for `kind` with (validated) `options` given as its JSON form.
pub fn table_for<G: Describe>(options: G::Options, base: EngineSettings) -> Box<dyn Table> {
    Box::new(GameTable::<G>::new(options, base))
}

/// `G`'s options: `configured` with `changes` (a part of the game's config section) on top,
/// refused naming the key when unknown, of the wrong type or out of range.
pub fn options_with<G: Playable>(
    configured: &G::Options,
    changes: &Map<String, Value>,
) -> Result<G::Options, ProtocolError> {
    let mut value = serde_json::to_value(configured)
        .map_err(|e| ProtocolError::new(ErrorKind::Internal, e.to_string()))?;
    merge(&mut value, changes);
    let options: G::Options = serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        let kind = if inner.starts_with("unknown field") {
            ErrorKind::UnknownField
        } else {
            ErrorKind::InvalidValue
        };
        let at = if path == "." || path.is_empty() {
            String::new()
        } else {
            format!(" at `{path}`")
        };
        ProtocolError::new(kind, format!("{} options{at}: {inner}", G::KIND.name()))
    })?;
    options
        .validate("options")
        .map_err(|e| ProtocolError::new(ErrorKind::InvalidValue, e.to_string()))?;
    Ok(options)
}

/// Writes `changes` into `value`, object into object.
fn merge(value: &mut Value, changes: &Map<String, Value>) {
    let Value::Object(target) = value else {
        *value = Value::Object(changes.clone());
        return;
    };
    for (key, change) in changes {
        match (target.get_mut(key), change) {
            (Some(existing @ Value::Object(_)), Value::Object(inner)) => merge(existing, inner),
            _ => {
                target.insert(key.clone(), change.clone());
            }
        }
    }
}
