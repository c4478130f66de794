//! The manager's side of the Gomocup protocol: an external brain (`pbrain-x`) as a player.
//! [`BrainPlayer`] starts the program, sets up the match (`START`, `INFO`, `ABOUT`), and
//! for every move tells it what happened since its last one (`BEGIN`, `TURN`, or the
//! whole position as `BOARD` after an undo or a resumed game) and reads its answer on a
//! thread of its own, so that a brain that hangs cannot hang the caller.
//!
//! A brain that cannot be started, exits, answers late (past its time and a margin), says
//! `ERROR`, or answers something that is not a legal move forfeits: [`BrainError::Forfeit`]
//! says why, and the process is killed and reaped. The next move starts it afresh, so the
//! program, a TUI session or a tournament, goes on. `MESSAGE` and `DEBUG` lines are handed
//! to the caller as they come.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::protocol::{Coord, Field, Info, MAX_LINE_BYTES, Response, shorten};
use super::{cell_of, coord_of};
use crate::config::BrainCommand;
use crate::engine::clock::{ClockReading, MATCH_GRACE, UNLIMITED_TIME_LEFT};
use crate::engine::limits::StopFlag;
use crate::engine::{Game, Player};
use crate::error::quote;
use crate::games::gomoku::{Cell, Gomoku, Rule};
use crate::serve::lines::{BACKLOG_LIMIT, Backlog, Input, read_bounded_eager};

/// Stones in a row that win in every game of the protocol.
pub const BRAIN_CONNECT: usize = 5;
/// Time a brain has to start and answer `START` (brains may load opening books).
const START_TIME: Duration = Duration::from_secs(15);
/// Time a brain has to answer `ABOUT` (no answer: it is named after its program).
const ABOUT_TIME: Duration = Duration::from_secs(3);
/// Time a brain told to play as fast as possible (`timeout_turn 0`) has for a move.
const FASTEST_TURN_LIMIT: Duration = Duration::from_secs(5);
/// Past its time per move a brain is waited for this much more, or half its time when
/// that is more: process start-up, a loaded machine.
const ANSWER_MARGIN: Duration = Duration::from_secs(1);
/// How long a brain told `END` has to exit before it is killed.
const END_GRACE: Duration = Duration::from_millis(300);
/// How often a wait for the brain looks at the caller's stop flag.
const POLL: Duration = Duration::from_millis(20);
/// The most of a brain's last line on standard error kept for a crash's reason, in bytes.
const LAST_WORDS_BYTES: usize = 400;

/// Why a brain gave no move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BrainError {
    /// The brain loses the game: the reason, in words (`crashed: exit status 3`).
    Forfeit(String),
    /// The caller stopped the wait (the brain is stopped too; nobody loses).
    Stopped,
}

/// One line of a brain's output worth showing: `MESSAGE` for the user, `DEBUG` for its
/// author.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BrainLine {
    /// `MESSAGE text`.
    Message(String),
    /// `DEBUG text`.
    Debug(String),
}

/// An external brain playing one side of Gomoku games (five in a row, freestyle or exact
/// five). Its process starts at its first move and lives on from move to move.
#[derive(Debug)]
pub struct BrainPlayer {
    program: BrainCommand,
    /// Time per move it is told (`timeout_turn`); zero: as fast as possible.
    turn: Duration,
    /// Memory it is told it may use (`max_memory`), in bytes; 0 = no limit.
    memory: u64,
    /// Its time for all its moves in one game (`timeout_match`); zero: no match clock.
    match_time: Duration,
    /// The time its moves of the current game took, as measured here (from the last line
    /// sent to its answer).
    used: Duration,
    /// Its name from `ABOUT` once it gave one (`name 1.2`), else its program's file name.
    name: String,
    process: Option<Running>,
}

/// A started brain and what it has been told.
#[derive(Debug)]
struct Running {
    child: Child,
    stdin: ChildStdin,
    /// Its output: lines, one over [`MAX_LINE_BYTES`] (reported as it passes the limit),
    /// and the end once it closed its output.
    lines: Receiver<Input>,
    /// The lines read and not yet taken: the reader stops at [`BACKLOG_LIMIT`], so a brain
    /// that floods its output while nobody waits for it (the other side's turn) blocks on
    /// its pipe instead of growing this program's memory.
    backlog: Arc<Backlog>,
    /// The last line it wrote on standard error, sent when that closes (its last words
    /// when it crashes: a usage error, a panic message).
    last_words: Receiver<String>,
    /// The board the match was started for.
    size: usize,
    rule: Rule,
    /// The side it plays.
    side: Player,
    /// The stones it knows of, in the order it learnt them.
    known: Vec<(Cell, Player)>,
}

impl BrainPlayer {
    /// A brain started by `program`, given `turn` per move (zero: "as fast as possible")
    /// and `memory_bytes` (0 = no limit).
    pub fn new(program: BrainCommand, turn: Duration, memory_bytes: u64) -> Self {
        let name = std::path::Path::new(&program.command)
            .file_name()
            .map_or_else(
                || program.command.clone(),
                |n| n.to_string_lossy().into_owned(),
            );
        let name = shorten(&name);
        Self {
            program,
            turn,
            memory: memory_bytes,
            match_time: Duration::ZERO,
            used: Duration::ZERO,
            name,
            process: None,
        }
    }

    /// The same brain on a match clock: `match_time` for all its moves in one game (zero:
    /// none). It is told `timeout_match`, and `time_left` before every move; a move that
    /// takes its time left and [`MATCH_GRACE`] more loses the game. A new game (a position
    /// that does not follow from the last one it saw, a take-back included) starts the clock
    /// anew.
    #[must_use]
    pub fn with_match_time(mut self, match_time: Duration) -> Self {
        self.match_time = match_time;
        self
    }

    /// The time its moves of the current game took, as measured here.
    pub fn used(&self) -> Duration {
        self.used
    }

    /// Its match time left, in ms (negative once over); `None` without a match clock.
    fn time_left(&self) -> Option<i64> {
        (!self.match_time.is_zero()).then(|| self.reading().time_left_ms(self.match_time))
    }

    /// Its match clock as the engine's plan reads one (a brain plans its own moves).
    fn reading(&self) -> ClockReading {
        ClockReading {
            ply: 0,
            used: self.used,
        }
    }

    /// Its name: from `ABOUT` once it answered (`name version`), else its program's.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The time it is given per move.
    pub fn turn(&self) -> Duration {
        self.turn
    }

    /// The longest wait for an answer before it forfeits: its time per move and a margin,
    /// or on a match clock its time left and [`MATCH_GRACE`] when that is less.
    pub fn answer_limit(&self) -> Duration {
        let turn = if self.turn.is_zero() {
            FASTEST_TURN_LIMIT
        } else {
            self.turn + ANSWER_MARGIN.max(self.turn / 2)
        };
        match self.time_left() {
            Some(left) => turn.min(Duration::from_millis(left.max(0) as u64) + MATCH_GRACE),
            None => turn,
        }
    }

    /// Its move in `game` (it is to move). `on_line` receives `MESSAGE` and `DEBUG` lines as
    /// they come. Raising `stop` ends the wait at once with [`BrainError::Stopped`].
    pub fn choose(
        &mut self,
        game: &Gomoku,
        stop: &StopFlag,
        on_line: &mut dyn FnMut(BrainLine),
    ) -> Result<Cell, BrainError> {
        let result = self.exchange(game, stop, on_line);
        if result.is_err() {
            // A forfeit, or a stop while it was thinking: either way its state is unknown.
            self.process = None;
        }
        result
    }

    /// Ends the brain's process (it restarts at the next move).
    pub fn stop_process(&mut self) {
        self.process = None;
    }

    fn exchange(
        &mut self,
        game: &Gomoku,
        stop: &StopFlag,
        on_line: &mut dyn FnMut(BrainLine),
    ) -> Result<Cell, BrainError> {
        if game.connect() != BRAIN_CONNECT {
            return Err(BrainError::Forfeit(format!(
                "brains play five in a row; this game is {} in a row",
                game.connect()
            )));
        }
        let side = game.to_move();
        let stale = self
            .process
            .as_ref()
            .is_none_or(|p| p.size != game.size() || p.rule != game.rule());
        if stale {
            self.process = None;
            self.used = Duration::ZERO;
            self.start(game.size(), game.rule(), side, stop, on_line)?;
        }
        let stones = stones_of(game);
        if self
            .process
            .as_ref()
            .is_none_or(|running| !running.continues(&stones))
        {
            self.used = Duration::ZERO;
        }
        let limit = self.answer_limit();
        let time_left = self.time_left();
        let name = self.name.clone();
        let Some(running) = self.process.as_mut() else {
            return Err(BrainError::Stopped);
        };
        let mut lines = running.update_lines(game, &stones, side);
        if let Some(left) = time_left {
            lines.insert(0, format!("INFO {}", Info::TimeLeft(left)));
        }
        for line in &lines {
            running.send(line, &name)?;
        }
        let started = Instant::now();
        let answered = running.next_move(started, limit, stop, &name, on_line);
        if !self.match_time.is_zero() {
            self.used += started.elapsed();
            if let Some(why) = self.reading().lost_on_time(self.match_time) {
                return Err(forfeit(&name, why));
            }
        }
        let answer = answered?;
        let Some(running) = self.process.as_mut() else {
            return Err(BrainError::Stopped);
        };
        let Some(cell) = cell_of(game, answer) else {
            return Err(forfeit(
                &name,
                format!("played {answer}, off the {n}x{n} board", n = game.size()),
            ));
        };
        if game.at(cell).is_some() {
            return Err(forfeit(
                &name,
                format!(
                    "played {answer} ({}), an illegal move: the point is taken",
                    game_format(game, cell)
                ),
            ));
        }
        running.known = stones;
        running.known.push((cell, side));
        running.side = side;
        Ok(cell)
    }

    /// Starts the program and sets up a match: `START`, the `INFO`s, `ABOUT`.
    fn start(
        &mut self,
        size: usize,
        rule: Rule,
        side: Player,
        stop: &StopFlag,
        on_line: &mut dyn FnMut(BrainLine),
    ) -> Result<(), BrainError> {
        let name = self.name.clone();
        let mut child = Command::new(&self.program.command)
            .args(&self.program.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                forfeit(
                    &name,
                    format!(
                        "cannot be started (`{}`): {e}",
                        shorten(&self.program.command)
                    ),
                )
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(forfeit(
                &name,
                "started without its input and output".to_string(),
            ));
        };
        let (tx, rx) = mpsc::channel();
        let backlog = Backlog::new(BACKLOG_LIMIT);
        let reader_backlog = Arc::clone(&backlog);
        std::thread::Builder::new()
            .name("gametree-brain-reader".to_string())
            .spawn(move || read_output(stdout, &tx, &reader_backlog))
            .map_err(|e| forfeit(&name, format!("no thread to read its answers: {e}")))?;
        let (words_tx, last_words) = mpsc::channel();
        if let Some(stderr) = child.stderr.take() {
            // Without a thread to read it, a brain that writes much on standard error would
            // block on a full pipe; with none, its last words are just not known.
            let _ = std::thread::Builder::new()
                .name("gametree-brain-stderr".to_string())
                .spawn(move || {
                    let _ = words_tx.send(last_line(stderr));
                });
        }
        let mut running = Running {
            child,
            stdin,
            lines: rx,
            backlog,
            last_words,
            size,
            rule,
            side,
            known: Vec::new(),
        };
        running.send(&format!("START {size}"), &name)?;
        let started = Instant::now();
        loop {
            match running.next_response(started, START_TIME, stop, &name, "OK to START")? {
                Response::Ok => break,
                Response::Message(text) => on_line(BrainLine::Message(text)),
                Response::Debug(text) => on_line(BrainLine::Debug(text)),
                Response::Error(reason) => {
                    return Err(forfeit(&name, format!("refused START {size}: {reason}")));
                }
                other => {
                    return Err(forfeit(
                        &name,
                        format!("answered `{other}` to START {size}, not OK"),
                    ));
                }
            }
        }
        let exact_five = u32::from(rule == Rule::Standard);
        let infos = [
            Info::TimeoutTurn(self.turn.as_millis() as u64),
            Info::TimeoutMatch(self.match_time.as_millis() as u64),
            Info::TimeLeft(self.time_left().unwrap_or(UNLIMITED_TIME_LEFT)),
            Info::MaxMemory(self.memory),
            Info::GameType(1),
            Info::Rule(exact_five),
        ];
        for info in infos {
            running.send(&format!("INFO {info}"), &name)?;
        }
        running.send("ABOUT", &name)?;
        let asked = Instant::now();
        loop {
            match running.next_response(asked, ABOUT_TIME, stop, &name, "ABOUT") {
                Ok(Response::About(pairs)) => {
                    let get = |key: &str| {
                        pairs
                            .iter()
                            .find(|(k, _)| k.eq_ignore_ascii_case(key))
                            .map(|(_, v)| v.trim().to_string())
                            .filter(|v| !v.is_empty())
                    };
                    if let Some(brain) = get("name") {
                        // Shown in panes and reports: escaped and of a sensible length.
                        let name = match get("version") {
                            Some(version) => format!("{brain} {version}"),
                            None => brain,
                        };
                        self.name = shorten(&name);
                    }
                    break;
                }
                Ok(Response::Message(text)) => on_line(BrainLine::Message(text)),
                Ok(Response::Debug(text)) => on_line(BrainLine::Debug(text)),
                // No name to be had: it keeps its program's.
                Ok(Response::Unknown(_) | Response::Error(_)) => break,
                Ok(_) => {}
                // Silence is allowed; a crash or garbage is not.
                Err(BrainError::Forfeit(reason)) if reason.contains("no answer within") => {
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        self.process = Some(running);
        Ok(())
    }
}

impl Running {
    /// True when `stones` follow from the position it last saw: every stone it knew is
    /// still there, and there are more (a move of the same game, not a new game or a
    /// take-back).
    fn continues(&self, stones: &[(Cell, Player)]) -> bool {
        stones.len() > self.known.len() && self.known.iter().all(|s| stones.contains(s))
    }

    /// Its answer to a `TURN`, `BEGIN` or `BOARD`: a point within `limit` of `since`, with
    /// its `MESSAGE` and `DEBUG` lines on the way handed to `on_line`.
    fn next_move(
        &mut self,
        since: Instant,
        limit: Duration,
        stop: &StopFlag,
        name: &str,
        on_line: &mut dyn FnMut(BrainLine),
    ) -> Result<Coord, BrainError> {
        loop {
            match self.next_response(since, limit, stop, name, "a move")? {
                Response::Move(at) => return Ok(at),
                Response::Message(text) => on_line(BrainLine::Message(text)),
                Response::Debug(text) => on_line(BrainLine::Debug(text)),
                // A late `OK` (to an `INFO`, say) is harmless.
                Response::Ok => {}
                Response::Error(reason) => {
                    return Err(forfeit(name, format!("said ERROR: {reason}")));
                }
                other => {
                    return Err(forfeit(
                        name,
                        format!("answered `{other}` where a move X,Y was expected"),
                    ));
                }
            }
        }
    }

    /// What the brain must be told so that it knows `stones`, with `side` to move: `BEGIN`
    /// on an empty board, `TURN` after one new opponent stone, else the whole `BOARD`.
    fn update_lines(&self, game: &Gomoku, stones: &[(Cell, Player)], side: Player) -> Vec<String> {
        if stones.is_empty() {
            return vec!["BEGIN".to_string()];
        }
        let known_all = self.known.iter().all(|s| stones.contains(s));
        if self.side == side
            && known_all
            && stones.len() == self.known.len() + 1
            && let Some(&(cell, owner)) = stones.iter().find(|s| !self.known.contains(s))
            && owner != side
            && game.last_move() == Some(cell)
        {
            return vec![format!("TURN {}", coord_of(game, cell))];
        }
        // In the order it knew them, then the new ones, the last move last.
        let mut order: Vec<(Cell, Player)> = self
            .known
            .iter()
            .filter(|s| stones.contains(s))
            .copied()
            .collect();
        let last = game.last_move();
        for &stone in stones {
            if !order.contains(&stone) && Some(stone.0) != last {
                order.push(stone);
            }
        }
        if let Some(stone) = last.and_then(|cell| stones.iter().find(|s| s.0 == cell))
            && !order.contains(stone)
        {
            order.push(*stone);
        }
        let mut lines = vec!["BOARD".to_string()];
        for (cell, owner) in order {
            let field = if owner == side {
                Field::Own
            } else {
                Field::Opponent
            };
            let number = match field {
                Field::Own => 1,
                Field::Opponent => 2,
                Field::Continuous => 3,
            };
            lines.push(format!("{},{number}", coord_of(game, cell)));
        }
        lines.push("DONE".to_string());
        lines
    }

    fn send(&mut self, line: &str, name: &str) -> Result<(), BrainError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| self.crashed(name, &format!("stopped reading its input ({e})")))
    }

    /// The next answer line, read within `limit` of `since`.
    fn next_response(
        &mut self,
        since: Instant,
        limit: Duration,
        stop: &StopFlag,
        name: &str,
        waiting_for: &str,
    ) -> Result<Response, BrainError> {
        loop {
            if stop.is_raised() {
                return Err(BrainError::Stopped);
            }
            let waited = since.elapsed();
            if waited >= limit {
                return Err(forfeit(
                    name,
                    format!(
                        "gave no answer within {} ms (waiting for {waiting_for}); it hangs",
                        limit.as_millis()
                    ),
                ));
            }
            let input = self
                .lines
                .recv_timeout(POLL.min(limit.saturating_sub(waited)));
            if let Ok(input) = &input {
                self.backlog.release(input.cost());
            }
            match input {
                Ok(Input::Line(line)) => {
                    if line.trim().is_empty() {
                        continue;
                    }
                    return Response::parse(&line).map_err(|e| {
                        forfeit(
                            name,
                            format!("answered garbage: {e} (waiting for {waiting_for})"),
                        )
                    });
                }
                Ok(Input::TooLong(_)) => {
                    return Err(forfeit(
                        name,
                        format!(
                            "sent a line longer than {MAX_LINE_BYTES} bytes (waiting for \
                             {waiting_for}); a brain's lines are short"
                        ),
                    ));
                }
                Ok(Input::End) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.crashed(name, "closed its output"));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// A forfeit for a brain whose process went away, with its exit status if it has one and
    /// its last line on standard error (a usage error or a panic message says why).
    fn crashed(&mut self, name: &str, what: &str) -> BrainError {
        let deadline = Instant::now() + END_GRACE;
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(POLL),
                _ => break None,
            }
        };
        // Once it has exited its standard error ends as soon as what it wrote is read.
        let words = status
            .and_then(|_| self.last_words.recv_timeout(END_GRACE).ok())
            .filter(|words| !words.is_empty())
            .map(|words| format!("; its last words on standard error: {}", quote(&words)))
            .unwrap_or_default();
        match status {
            Some(status) => forfeit(name, format!("crashed: {what}, {status}{words}")),
            None => forfeit(name, format!("{what} (still running; killed){words}")),
        }
    }
}

impl Drop for Running {
    /// `END`, a moment to exit, then kill; the process is always reaped.
    fn drop(&mut self) {
        // A reader waiting for room goes on and finds nobody listening.
        self.backlog.close();
        let _ = writeln!(self.stdin, "END").and_then(|()| self.stdin.flush());
        let deadline = Instant::now() + END_GRACE;
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) if Instant::now() < deadline => std::thread::sleep(POLL / 4),
                _ => break,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[allow(clippy::needless_pass_by_value)] // Called with `format!`s.
fn forfeit(name: &str, reason: String) -> BrainError {
    BrainError::Forfeit(format!("brain {name} {reason}"))
}

/// Every stone on the board, bottom row first.
fn stones_of(game: &Gomoku) -> Vec<(Cell, Player)> {
    let n = game.size();
    let mut stones = Vec::new();
    for row in 0..n {
        for col in 0..n {
            if let (Some(owner), Some(cell)) = (game.stone(row, col), game.cell(row, col)) {
                stones.push((cell, owner));
            }
        }
    }
    stones
}

fn game_format(game: &Gomoku, cell: Cell) -> String {
    game.format_move(cell)
}

/// Reads a brain's standard error to its end; returns its last non-blank line (at most
/// [`LAST_WORDS_BYTES`] of it). Memory stays bounded whatever the brain writes.
fn last_line(stderr: impl Read) -> String {
    let mut reader = BufReader::new(stderr);
    let mut line = Vec::new();
    let mut kept = String::new();
    while let Ok(chunk) = reader.fill_buf() {
        if chunk.is_empty() {
            break;
        }
        let (part, ended) = match chunk.iter().position(|&b| b == b'\n') {
            Some(end) => (&chunk[..end], true),
            None => (chunk, false),
        };
        let room = LAST_WORDS_BYTES.saturating_sub(line.len());
        line.extend_from_slice(&part[..part.len().min(room)]);
        let used = part.len() + usize::from(ended);
        reader.consume(used);
        if ended {
            keep_if_words(&mut line, &mut kept);
        }
    }
    keep_if_words(&mut line, &mut kept);
    kept
}

/// Makes `line` the kept one unless it is blank; empties it for the next.
fn keep_if_words(line: &mut Vec<u8>, kept: &mut String) {
    let text = String::from_utf8_lossy(line);
    let text = text.trim();
    if !text.is_empty() {
        *kept = text.to_string();
    }
    line.clear();
}

/// Sends every line of the brain's output (invalid UTF-8 replaced), then the end. A line
/// over [`MAX_LINE_BYTES`] is not kept: it is reported as soon as it passes the limit (a
/// brain that floods its output without a line break loses at once, and memory stays
/// bounded), and the rest of it skipped. No line is read while the `backlog` is full.
fn read_output(stdout: std::process::ChildStdout, tx: &mpsc::Sender<Input>, backlog: &Backlog) {
    read_bounded_eager(BufReader::new(stdout), MAX_LINE_BYTES, |input| {
        backlog.admit(input.cost()) && tx.send(input).is_ok()
    });
}
