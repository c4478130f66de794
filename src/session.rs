//! A game in progress: the initial position, the step list with a cursor (undo, redo and
//! stepping through the game without losing later moves), and saving/loading to JSON.
//!
//! Every step keeps a snapshot of the position after it, so going to any step is O(1) and
//! never replays rules. Playing a move while the cursor is before the end starts a new branch:
//! the old continuation is dropped (the TUI asks first).

use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::config::PlayersConfig;
use crate::engine::clock::ClockReading;
use crate::engine::{Game, Player};
use crate::error::{IllegalMove, MAX_MESSAGE_CHARS, MoveListError, quote_within};
use crate::games::{GameKind, GameOptions, Playable, evaluator_for};

/// One move of the game.
#[derive(Clone, Debug)]
pub struct Step<G: Game> {
    /// The move.
    pub mv: G::Move,
    /// Who played it.
    pub mover: Player,
    /// The move in the game's notation.
    pub notation: String,
    /// The engine's value of the move from the mover's side (score units), if an engine
    /// chose it.
    pub value: Option<i32>,
    /// The position after the move.
    pub after: G,
    /// The time the move took, where a player's clock ran for it (engine and brain moves,
    /// and a human's on a match clock).
    pub spent: Option<Duration>,
}

/// A game with its history.
#[derive(Clone, Debug)]
pub struct Session<G: Playable> {
    /// The rules' options.
    pub options: G::Options,
    initial: G,
    steps: Vec<Step<G>>,
    /// Number of steps applied to reach the shown position (0 = the initial position).
    cursor: usize,
}

impl<G: Playable> Session<G> {
    /// A new game with these (validated) options.
    pub fn new(options: G::Options) -> Self {
        let initial = G::new_game(&options);
        Self {
            options,
            initial,
            steps: Vec::new(),
            cursor: 0,
        }
    }

    /// The position at the cursor.
    pub fn current(&self) -> &G {
        match self.cursor.checked_sub(1).and_then(|i| self.steps.get(i)) {
            Some(step) => &step.after,
            None => &self.initial,
        }
    }

    /// The starting position.
    pub fn initial(&self) -> &G {
        &self.initial
    }

    /// Every step, including those after the cursor.
    pub fn steps(&self) -> &[Step<G>] {
        &self.steps
    }

    /// How many steps lead to the shown position.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// True when the cursor is at the last step (new moves extend the game).
    pub fn at_end(&self) -> bool {
        self.cursor == self.steps.len()
    }

    /// The step that led to the shown position.
    pub fn last_step(&self) -> Option<&Step<G>> {
        self.cursor.checked_sub(1).and_then(|i| self.steps.get(i))
    }

    /// Plays `mv` at the cursor. Later steps, if any, are dropped (a new branch).
    pub fn play(&mut self, mv: G::Move, value: Option<i32>) -> Result<(), IllegalMove> {
        self.play_spent(mv, value, None)
    }

    /// [`Session::play`] for a move that took `spent` on its player's clock.
    pub fn play_timed(
        &mut self,
        mv: G::Move,
        value: Option<i32>,
        spent: Duration,
    ) -> Result<(), IllegalMove> {
        self.play_spent(mv, value, Some(spent))
    }

    /// Where `side` stands on its match clock at the cursor: the moves played so far, and
    /// the time its own moves up to here took (a move taken back gives its time back).
    pub fn clock_reading(&self, side: Player) -> ClockReading {
        self.clock_reading_at(side, self.cursor)
    }

    /// Where `side` stands on its match clock after the first `plies` moves (a saved game's
    /// times are summed without overflow, however large).
    pub fn clock_reading_at(&self, side: Player, plies: usize) -> ClockReading {
        let plies = plies.min(self.steps.len());
        let used = self.steps[..plies]
            .iter()
            .filter(|step| step.mover == side)
            .filter_map(|step| step.spent)
            .fold(Duration::ZERO, Duration::saturating_add);
        ClockReading { ply: plies, used }
    }

    fn play_spent(
        &mut self,
        mv: G::Move,
        value: Option<i32>,
        spent: Option<Duration>,
    ) -> Result<(), IllegalMove> {
        let mut after = self.current().clone();
        let mover = after.to_move();
        after.try_play(mv)?;
        let notation = self.current().format_move(mv);
        self.steps.truncate(self.cursor);
        self.steps.push(Step {
            mv,
            mover,
            notation,
            value,
            after,
            spent,
        });
        self.cursor += 1;
        Ok(())
    }

    /// Steps back one move; false at the start.
    pub fn undo(&mut self) -> bool {
        if self.cursor == 0 {
            return false;
        }
        self.cursor -= 1;
        true
    }

    /// Steps forward one move; false at the end.
    pub fn redo(&mut self) -> bool {
        if self.at_end() {
            return false;
        }
        self.cursor += 1;
        true
    }

    /// Moves the cursor to `n` steps (clamped to the game's length).
    pub fn goto(&mut self, n: usize) {
        self.cursor = n.min(self.steps.len());
    }

    /// Undoes at least one step and then on until `is_human` says the side to move is human
    /// (so in human-vs-engine play the engine's reply and the human's move go back together).
    /// Returns the number of steps undone.
    pub fn undo_turn(&mut self, is_human: impl Fn(Player) -> bool) -> usize {
        let mut undone = 0;
        while self.undo() {
            undone += 1;
            if is_human(self.current().to_move()) {
                break;
            }
        }
        undone
    }

    /// Steps forward like [`Session::undo_turn`] in reverse: at least one step, then on until
    /// a human is to move or the end is reached.
    pub fn redo_turn(&mut self, is_human: impl Fn(Player) -> bool) -> usize {
        let mut redone = 0;
        while self.redo() {
            redone += 1;
            if is_human(self.current().to_move()) || self.current().outcome().is_some() {
                break;
            }
        }
        redone
    }

    /// Starts again from the initial position (same options), forgetting every step.
    pub fn restart(&mut self) {
        self.steps.clear();
        self.cursor = 0;
    }

    /// The game as a saveable value.
    pub fn to_saved(&self, players: &PlayersConfig) -> SavedGame<G::Options> {
        SavedGame {
            format: SAVE_FORMAT.to_string(),
            version: SAVE_VERSION,
            game: G::KIND,
            options: self.options.clone(),
            players: players.clone(),
            moves: self
                .steps
                .iter()
                .map(|s| SavedStep {
                    mv: s.notation.clone(),
                    value: s.value,
                    ms: s.spent.map(|t| t.as_millis() as u64),
                })
                .collect(),
            cursor: self.cursor,
        }
    }

    /// Rebuilds a game from a saved value, replaying every move through the rules.
    pub fn from_saved(saved: &SavedGame<G::Options>, source: &str) -> Result<Self, SaveError> {
        if saved.game != G::KIND {
            return Err(SaveError::WrongGame {
                expected: G::KIND,
                found: saved.game,
            });
        }
        saved
            .options
            .validate(source)
            .map_err(|e| SaveError::Invalid(e.field_text()))?;
        let mut session = Self::new(saved.options.clone());
        for (i, step) in saved.moves.iter().enumerate() {
            let mv = session.current().parse_move(&step.mv).map_err(|error| {
                SaveError::Moves(MoveListError::Parse {
                    index: i + 1,
                    text: step.mv.clone(),
                    error,
                })
            })?;
            let spent = step.ms.map(Duration::from_millis);
            session.play_spent(mv, step.value, spent).map_err(|error| {
                SaveError::Moves(MoveListError::Illegal {
                    index: i + 1,
                    text: step.mv.clone(),
                    error,
                })
            })?;
        }
        if saved.cursor > session.steps.len() {
            return Err(SaveError::Invalid(format!(
                "cursor = {}: must be 0..={} (the number of moves)",
                saved.cursor,
                session.steps.len()
            )));
        }
        session.cursor = saved.cursor;
        Ok(session)
    }

    /// The save file's text.
    pub fn to_json(&self, players: &PlayersConfig) -> Result<String, SaveError> {
        serde_json::to_string_pretty(&self.to_saved(players))
            .map(|text| text + "\n")
            .map_err(|e| SaveError::Invalid(e.to_string()))
    }

    /// Writes the game to `path` as JSON, replacing what is there (see [`write_atomically`]).
    pub fn save(&self, players: &PlayersConfig, path: &Path) -> Result<(), SaveError> {
        let text = self.to_json(players)?;
        write_atomically(path, text.as_bytes(), Existing::Replace)
            .map_err(|e| SaveError::Io(format!("cannot write {}: {e}", path.display())))
    }
}

/// The `format` field every save file carries, to refuse foreign JSON.
pub const SAVE_FORMAT: &str = "gametree-save";
/// The save format version this build writes and reads.
pub const SAVE_VERSION: u32 = 1;

/// A saved game: rules, options, players and the whole step list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedGame<O> {
    /// Always [`SAVE_FORMAT`].
    pub format: String,
    /// Always [`SAVE_VERSION`] for now.
    pub version: u32,
    /// Which game.
    pub game: GameKind,
    /// The game's options.
    pub options: O,
    /// Who played each side and how.
    pub players: PlayersConfig,
    /// Every move, in notation, with the engine's value where it had one.
    pub moves: Vec<SavedStep>,
    /// How many moves led to the position on screen.
    pub cursor: usize,
}

/// One saved move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedStep {
    /// The move in notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// The engine's value from the mover's side, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<i32>,
    /// The time the move took in milliseconds, where a player's clock ran for it (engine
    /// and brain moves, and a human's on a match clock): a resumed game's match clocks go on
    /// from where they stood.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ms: Option<u64>,
}

/// Why a save file was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SaveError {
    /// The file could not be read or written.
    #[error("{}", quote_within(.0, MAX_MESSAGE_CHARS))]
    Io(String),
    /// Not a gametree save (or damaged JSON).
    #[error("not a gametree save file: {}", quote_within(.0, MAX_MESSAGE_CHARS))]
    Foreign(String),
    /// A save of another game than the one asked for.
    #[error("this save is a {found} game, not {expected}")]
    WrongGame {
        /// The game asked for.
        expected: GameKind,
        /// The game in the file.
        found: GameKind,
    },
    /// The file is a save but a value in it is wrong.
    #[error("invalid save: {}", quote_within(.0, MAX_MESSAGE_CHARS))]
    Invalid(String),
    /// A saved move cannot be replayed.
    #[error("invalid save: {0}")]
    Moves(MoveListError),
}

/// The header of a save file: enough to know which game to load it as.
#[derive(Deserialize)]
struct SaveHeader {
    format: String,
    version: u32,
    game: GameKind,
}

/// Reads a save file's text and tells which game it holds, refusing foreign files.
pub fn peek_saved(text: &str) -> Result<GameKind, SaveError> {
    let header: SaveHeader = from_json_text(text).map_err(SaveError::Foreign)?;
    if header.format != SAVE_FORMAT {
        return Err(SaveError::Foreign(format!(
            "format = {:?}, expected {SAVE_FORMAT:?}",
            header.format
        )));
    }
    if header.version != SAVE_VERSION {
        return Err(SaveError::Invalid(format!(
            "version = {}: this build reads version {SAVE_VERSION}",
            header.version
        )));
    }
    Ok(header.game)
}

/// Deserializes a save's JSON text as `T`; a refusal names the field it is about, as a
/// config's does: `moves[2].ms: invalid value: integer `-5`, expected u64 at line 57 column
/// 14`.
fn from_json_text<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value: T = serde_path_to_error::deserialize(&mut deserializer).map_err(|e| {
        let path = e.path().to_string();
        match path.as_str() {
            "." => e.into_inner().to_string(),
            _ => format!("{path}: {}", e.into_inner()),
        }
    })?;
    deserializer.end().map_err(|e| e.to_string())?;
    Ok(value)
}

/// Parses a save file of game `G` from its text (see [`peek_saved`] to learn the game).
pub fn parse_saved<G: Playable>(
    text: &str,
    source: &str,
) -> Result<(Session<G>, PlayersConfig), SaveError> {
    let kind = peek_saved(text)?;
    if kind != G::KIND {
        return Err(SaveError::WrongGame {
            expected: G::KIND,
            found: kind,
        });
    }
    let saved: SavedGame<G::Options> = from_json_text(text).map_err(SaveError::Invalid)?;
    let session = Session::from_saved(&saved, source)?;
    // The players drive the engine when the game goes on: refuse what a config file would.
    for player in [Player::First, Player::Second] {
        let key = format!("players.{player}");
        let side = saved.players.side(player);
        let invalid = |e: crate::error::ConfigError| SaveError::Invalid(e.field_text());
        side.validate(source, &key).map_err(invalid)?;
        side.check_game(G::KIND, source, &key).map_err(invalid)?;
        evaluator_for::<G>(
            &saved.options,
            &side.engine.evaluator,
            source,
            &format!("{key}.evaluator"),
        )
        .map_err(invalid)?;
    }
    Ok((session, saved.players))
}

/// What [`write_atomically`] does when `path` already names something.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Refuse with [`std::io::ErrorKind::AlreadyExists`] (a file, a directory or a symbolic
    /// link, dangling or not): a new name is claimed, never reused.
    Refuse,
    /// Replace it; a symbolic link is replaced itself, never followed.
    Replace,
}

/// Writes `contents` to `path` so that `path` holds either nothing new or all of it: the text
/// goes to a fresh temporary file in the same directory, is flushed to disk, and only then
/// gets its name (a hard link for [`Existing::Refuse`], which fails on any existing name; a
/// rename for [`Existing::Replace`]). A full disk or a crash leaves no empty or cut file under
/// `path`, and a symbolic link planted at `path` never redirects the write.
pub fn write_atomically(path: &Path, contents: &[u8], existing: Existing) -> std::io::Result<()> {
    use std::io::Write;
    let (temp_path, mut file) = create_temporary(path)?;
    let written = file
        .write_all(contents)
        .and_then(|()| file.sync_all())
        .and_then(|()| {
            drop(file);
            match existing {
                Existing::Refuse => claim_new_name(&temp_path, path),
                Existing::Replace => std::fs::rename(&temp_path, path),
            }
        });
    // After a rename the temporary name is gone already; otherwise it must not stay behind.
    let _ = std::fs::remove_file(&temp_path);
    written
}

/// Gives the finished temporary file the name `path` only if nothing has that name.
fn claim_new_name(temp_path: &Path, path: &Path) -> std::io::Result<()> {
    match std::fs::hard_link(temp_path, path) {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists && !path_is_taken(path) => {
            // A file system without hard links: a rename after the check, which only a
            // concurrent writer of the same name could race.
            std::fs::rename(temp_path, path).map_err(|_| e)
        }
        other => other,
    }
}

/// Whether anything (a dangling symbolic link included) has this name.
fn path_is_taken(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// A new, empty file beside `path`, created exclusively (so never through a symbolic link).
fn create_temporary(path: &Path) -> std::io::Result<(std::path::PathBuf, std::fs::File)> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or_else(|| "save".into(), |n| n.to_string_lossy());
    let mut last_error = None;
    for _ in 0..100 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp_path = dir.join(format!(".{name}.{}-{n}.tmp", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp_path)
        {
            Ok(file) => return Ok((temp_path, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last_error = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last_error.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
}

/// Reads a save file's text from `path`.
pub fn read_save_file(path: &Path) -> Result<String, SaveError> {
    crate::files::read_text(path, crate::files::MAX_SAVE_BYTES)
        .map_err(|e| SaveError::Io(format!("cannot be read: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::games::tictactoe::{TicTacToe, TicTacToeOptions};

    fn session(moves: &str) -> Session<TicTacToe> {
        let mut s = Session::<TicTacToe>::new(TicTacToeOptions::default());
        for m in moves.split_whitespace() {
            let mv = s.current().parse_move(m).unwrap();
            s.play(mv, None).unwrap();
        }
        s
    }

    #[test]
    fn a_sides_clock_counts_its_own_moves_up_to_the_cursor_and_is_saved() {
        let ms = Duration::from_millis;
        let mut s = Session::<TicTacToe>::new(TicTacToeOptions::default());
        for (text, spent) in [("a1", 300), ("b2", 1_000), ("c3", 200), ("a3", 50)] {
            let mv = s.current().parse_move(text).unwrap();
            s.play_timed(mv, None, ms(spent)).unwrap();
        }
        let mv = s.current().parse_move("c1").unwrap();
        s.play(mv, None).unwrap();
        assert_eq!(
            s.clock_reading(Player::First),
            ClockReading {
                ply: 5,
                used: ms(500)
            }
        );
        assert_eq!(s.clock_reading(Player::Second).used, ms(1_050));
        // Taking moves back gives their time back; going forward again takes it anew.
        s.goto(2);
        assert_eq!(s.clock_reading(Player::First).used, ms(300));
        assert_eq!(s.clock_reading(Player::Second).used, ms(1_000));
        assert_eq!(s.clock_reading(Player::Second).ply, 2);
        s.goto(5);
        // A saved game keeps each move's time, and a loaded one goes on from it.
        let players = Config::builtin().unwrap().players;
        let json = s.to_json(&players).unwrap();
        assert!(json.contains("\"ms\": 1000"), "{json}");
        let (loaded, _) = parse_saved::<TicTacToe>(&json, "test").unwrap();
        assert_eq!(
            loaded.clock_reading(Player::First),
            s.clock_reading(Player::First)
        );
        assert_eq!(
            loaded.clock_reading(Player::Second),
            s.clock_reading(Player::Second)
        );
        assert_eq!(loaded.steps()[4].spent, None);
        // A time that is no time is refused, with the value and where it stands.
        let bad = json.replacen("\"ms\": 300", "\"ms\": -5", 1);
        let error = parse_saved::<TicTacToe>(&bad, "bad.json")
            .unwrap_err()
            .to_string();
        assert!(error.contains("-5") && error.contains("line"), "{error}");
    }

    #[test]
    fn undo_redo_and_branching() {
        let mut s = session("a1 b2 c3");
        assert!(s.undo());
        assert!(s.undo());
        assert_eq!(s.cursor(), 1);
        assert_eq!(s.steps().len(), 3);
        assert!(s.redo());
        assert_eq!(s.current().format_move(s.last_step().unwrap().mv), "b2");
        // A new move from an earlier position drops the old continuation.
        let mv = s.current().parse_move("a3").unwrap();
        s.play(mv, Some(5)).unwrap();
        assert_eq!(s.steps().len(), 3);
        assert!(s.at_end());
        assert_eq!(s.steps()[2].notation, "a3");
    }

    #[test]
    fn undo_turn_takes_back_the_engine_reply_too() {
        let mut s = session("a1 b2 c3 a3");
        // Human plays first (X); after undoing a turn it is X's move again.
        let undone = s.undo_turn(|p| p == Player::First);
        assert_eq!(undone, 2);
        assert_eq!(s.cursor(), 2);
        assert_eq!(s.current().to_move(), Player::First);
    }

    #[test]
    fn save_and_load_give_the_same_steps() {
        let mut s = session("a1 b2 c3");
        s.undo();
        let players = Config::builtin().unwrap().players;
        let text = serde_json::to_string(&s.to_saved(&players)).unwrap();
        let (loaded, loaded_players) = parse_saved::<TicTacToe>(&text, "test").unwrap();
        assert_eq!(loaded_players, players);
        assert_eq!(loaded.cursor(), 2);
        let notes: Vec<_> = loaded.steps().iter().map(|s| s.notation.clone()).collect();
        assert_eq!(notes, ["a1", "b2", "c3"]);
        assert_eq!(loaded.current(), s.current());
    }

    #[test]
    fn foreign_and_damaged_files_are_refused() {
        assert!(matches!(
            peek_saved("{\"a\": 1}"),
            Err(SaveError::Foreign(_))
        ));
        assert!(matches!(peek_saved("not json"), Err(SaveError::Foreign(_))));
        let mut s = session("a1");
        assert!(s.play(0, None).is_err(), "an occupied cell is refused");
        assert_eq!(s.steps().len(), 1);
    }

    #[test]
    fn damaged_values_in_a_save_are_refused() {
        let players = Config::builtin().unwrap().players;
        let s = session("a1 b2");
        let text = |f: &dyn Fn(&mut SavedGame<TicTacToeOptions>)| {
            let mut saved = s.to_saved(&players);
            f(&mut saved);
            serde_json::to_string(&saved).unwrap()
        };
        let refused = |text: String| {
            parse_saved::<TicTacToe>(&text, "t")
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            refused(text(&|g| g.players.second.engine.limits.depth = Some(999))),
            "invalid save: players.second.depth = 999: must be 0..=64 (0 = the game's default)"
        );
        assert_eq!(
            refused(text(&|g| g.players.first.engine.evaluator = "magic".into())),
            "invalid save: players.first.evaluator = magic: tictactoe offers: default, lines"
        );
        assert_eq!(
            refused(text(&|g| g.cursor = 5)),
            "invalid save: cursor = 5: must be 0..=2 (the number of moves)"
        );
        assert!(refused(text(&|g| g.version = 9)).contains("version = 9"));
        // A value of the wrong type is named by its path in the file.
        let negative = text(&|_| {}).replacen("\"move\":\"b2\"", "\"move\":\"b2\",\"ms\":-5", 1);
        let message = refused(negative.clone());
        assert!(
            message.starts_with("invalid save: moves[1].ms: invalid value: integer `-5`"),
            "{message}\n{negative}"
        );
        let message = refused(text(&|_| {}).replacen("\"cursor\":2", "\"cursor\":\"two\"", 1));
        assert!(
            message.starts_with("invalid save: cursor: invalid type"),
            "{message}"
        );
        let message = refused(format!("{} x", text(&|_| {})));
        assert!(message.contains("trailing characters"), "{message}");
        let truncated = text(&|_| {});
        let message = refused(truncated[..truncated.len() / 2].to_string());
        assert!(message.starts_with("not a gametree save file"), "{message}");
        assert!(matches!(
            parse_saved::<TicTacToe>(&text(&|g| g.game = GameKind::Kalah), "t"),
            Err(SaveError::WrongGame { .. })
        ));
    }

    // A save's times are summed without overflow, however large.
    #[test]
    fn huge_saved_times_do_not_overflow_the_clock() {
        let players = Config::builtin().unwrap().players;
        let mut saved = session("a1 b2 c3").to_saved(&players);
        for step in &mut saved.moves {
            step.ms = Some(u64::MAX);
        }
        let text = serde_json::to_string(&saved).unwrap();
        let (loaded, _) = parse_saved::<TicTacToe>(&text, "t").unwrap();
        let reading = loaded.clock_reading(Player::First);
        assert_eq!(reading.used, Duration::from_millis(u64::MAX) * 2);
        assert_eq!(reading.after(Duration::MAX).used, Duration::MAX);
        let limit = Duration::from_secs(60);
        assert!(reading.over(limit));
        assert_eq!(reading.left(limit), Duration::ZERO);
        assert!(reading.time_left_ms(limit) < 0, "over, not wrapped round");
    }

    fn scratch_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("gametree-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_new_name_is_never_reused_and_no_temporary_file_stays() {
        let dir = scratch_dir("atomic-new");
        let path = dir.join("save.json");
        write_atomically(&path, b"first", Existing::Refuse).unwrap();
        let again = write_atomically(&path, b"second", Existing::Refuse).unwrap_err();
        assert_eq!(again.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&path).unwrap(), b"first");
        write_atomically(&path, b"third", Existing::Replace).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"third");
        assert_eq!(names_in(&dir), ["save.json"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_symbolic_link_never_redirects_a_save() {
        let dir = scratch_dir("atomic-link");
        let target = dir.join("elsewhere.txt");
        let link = dir.join("save.json");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let refused = write_atomically(&link, b"game", Existing::Refuse).unwrap_err();
        assert_eq!(refused.kind(), std::io::ErrorKind::AlreadyExists);
        assert!(!target.exists(), "the dangling link was followed");
        write_atomically(&link, b"game", Existing::Replace).unwrap();
        assert!(!target.exists(), "the link was followed");
        assert!(!std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read(&link).unwrap(), b"game");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_write_leaves_nothing() {
        let dir = scratch_dir("atomic-fail");
        let path = dir.join("missing-dir").join("save.json");
        assert!(write_atomically(&path, b"game", Existing::Refuse).is_err());
        assert!(names_in(&dir).is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_illegal_saved_move_is_named() {
        let players = Config::builtin().unwrap().players;
        let mut saved = session("a1 b2").to_saved(&players);
        saved.moves[1].mv = "a1".to_string();
        let err = Session::<TicTacToe>::from_saved(&saved, "t").unwrap_err();
        assert!(err.to_string().contains("move 2 (a1)"), "{err}");
    }
}
