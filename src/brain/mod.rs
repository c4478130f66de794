//! `gametree brain` and `pbrain-gametree`: the Gomocup brain protocol on stdin/stdout, a
//! third front end (beside the command line and the TUI) over the same [`EnginePlayer`].
//! [`protocol`] reads and writes the lines; this module keeps the match (board, clock,
//! rule) and thinks on a worker thread so that `END`, `INFO` and the end of the input are
//! heard while it does. The engine learns nothing about the protocol.
//!
//! Coordinates: protocol `X,Y` is column `X` and row `Y` from 0 at the top-left; gametree
//! names points from the bottom-left (`h8`), so on an N x N board `X,Y` is the column letter
//! `a + X` and the row number `N - Y` (on 15x15, `7,7` is `h8` and `0,0` is `a15`).

pub mod client;
pub mod protocol;

use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Args;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::cli::EngineFlags;
use crate::config::Config;
use crate::engine::clock::Clock;
use crate::engine::job_thread::JobThread;
use crate::engine::limits::StopFlag;
use crate::engine::result::SearchResult;
use crate::engine::score;
use crate::engine::{Game, Player};
use crate::games::gomoku::{Cell, Gomoku, GomokuOptions, Rule};
use crate::player::EnginePlayer;
use crate::serve::lines::{BACKLOG_LIMIT, Backlog, CloseOnDrop, Input, Waiting, read_bounded};
use crate::tournament::entrants::opening_lines;
use protocol::{Command, CommandReader, Coord, Field, Info, MAX_LINE_BYTES, Response};

/// The brain's name, version and author as `ABOUT` gives them.
pub const ABOUT: [(&str, &str); 3] = [
    ("name", "gametree"),
    ("version", env!("CARGO_PKG_VERSION")),
    ("author", "gametree developers"),
];

/// Stones in a row that win: the protocol's games are all five in a row.
const CONNECT: usize = 5;
/// The board sides the Gomoku rules here support.
const SIZES: std::ops::RangeInclusive<u32> = 5..=20;
/// The most search threads `INFO thread_num` may ask for (the settings' own limit).
const MAX_THREADS: u64 = 256;
/// The memory a brain process takes besides its table, in MiB, as `max_memory` leaves it
/// room: a base and a share for each search thread. Measured with a 1 MiB table on START 20
/// (docs/brain.md, "Time and memory"): about 18 - 27 MiB at peak with one thread over a short
/// game, 4 - 5 MiB more for each further thread.
const PROCESS_BASE_MB: u64 = 22;
/// See [`PROCESS_BASE_MB`].
const PROCESS_THREAD_MB: u64 = 5;

/// The table size in MiB for a brain told `max_memory` bytes (0: no limit) searching on
/// `threads` threads, with `configured_mb` from its settings: what is left of the allowance
/// after the process's own memory ([`PROCESS_BASE_MB`], [`PROCESS_THREAD_MB`]), at least
/// 1 MiB, at most `configured_mb`.
fn table_mb_for(max_memory: u64, configured_mb: usize, threads: usize) -> usize {
    if max_memory == 0 {
        return configured_mb;
    }
    let process = PROCESS_BASE_MB.saturating_add(PROCESS_THREAD_MB.saturating_mul(threads as u64));
    let left = (max_memory >> 20).saturating_sub(process);
    configured_mb.min(usize::try_from(left).unwrap_or(usize::MAX).max(1))
}

/// Past its own limit, a search is told to stop after this much more, or half its time when
/// that is less (the engine stops itself first; this covers a busy machine).
const DEADLINE_GRACE: Duration = Duration::from_millis(30);

/// `gametree brain`: engine settings as flags; the protocol sets board, rule and time.
#[derive(Debug, Args)]
pub struct BrainArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub engine: EngineFlags,
}

/// Runs the protocol on stdin and stdout until `END` or the end of the input, with the
/// engine settings of `players.second` in `config` (the engine side by default) and
/// `args` applied; `gomoku.candidates` comes from the config too.
pub fn run(config: &Config, args: &BrainArgs) -> Result<()> {
    let options = config.game_options::<Gomoku>()?;
    args.engine.validate::<Gomoku>(&options)?;
    let mut side = config.players.side(Player::Second).clone();
    // The manager sets the match clock; the config's is for the engine side of a game here.
    side.engine.match_time = None;
    args.engine.apply(&mut side.engine)?;
    if side.engine.match_time.is_some() {
        anyhow::bail!(
            "--match-ms: a brain's match clock is the manager's to set (INFO timeout_match and \
             time_left)"
        );
    }
    let engine = EnginePlayer::<Gomoku>::new(&side, &options, "command line", "players.second")?;
    let input = std::io::BufReader::new(std::io::stdin());
    serve(engine, &options, input, std::io::stdout())?;
    Ok(())
}

/// Runs the protocol over `input` and `output` (stdin/stdout, or memory in tests) with
/// `engine`, until `END` or the end of the input. Input is read on a thread of its own, so
/// `END` stops a search at once, unanswered, even behind other lines: once it is read no
/// search starts (the lines before it that would search get no answer, the others are
/// answered in order). The end of the input stops a search too, answered with the move
/// found so far, unless lines arrived after the search started (a script piped in): those
/// are answered in order first, each search taking its time. The reading thread is left
/// behind blocked on its read when `END` comes first (the process is about to exit).
pub fn serve<R, W>(
    engine: EnginePlayer<Gomoku>,
    options: &GomokuOptions,
    input: R,
    output: W,
) -> std::io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let (tx, rx) = mpsc::channel();
    let reader_tx = tx.clone();
    let mut brain = Brain::new(engine, options, output, tx);
    let ending = Arc::clone(&brain.ending);
    let backlog = Arc::clone(&brain.backlog);
    let _close = CloseOnDrop(Arc::clone(&backlog));
    std::thread::spawn(move || read_lines(input, &reader_tx, &ending, &backlog));
    brain.serve(&rx)
}

/// Sends every line of `input` (invalid UTF-8 replaced; one over [`MAX_LINE_BYTES`] skipped
/// and sent as its length), then the end: the reader `serve` uses. An `END` line raises
/// `ending` before it is sent, ahead of any lines still waiting to be handled. No line is
/// read while the `backlog` of unhandled ones is full.
fn read_lines<R: BufRead>(input: R, tx: &Sender<Event>, ending: &EndSignal, backlog: &Backlog) {
    read_bounded(input, MAX_LINE_BYTES, |input| {
        if let Input::Line(line) = &input
            && protocol::is_end(line)
        {
            ending.end();
        }
        backlog.admit(input.cost()) && tx.send(Event::Input(input)).is_ok()
    });
}

/// `END` as the input reader saw it, ahead of the lines before it that wait their turn: once
/// raised, the search under way is stopped and no other starts.
#[derive(Debug, Default)]
struct EndSignal(Mutex<EndState>);

#[derive(Debug, Default)]
struct EndState {
    ended: bool,
    /// The stop flag of the latest search.
    search: Option<StopFlag>,
}

impl EndSignal {
    fn lock(&self) -> std::sync::MutexGuard<'_, EndState> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `END` was read: stops the search under way.
    fn end(&self) {
        let mut state = self.lock();
        state.ended = true;
        if let Some(stop) = &state.search {
            stop.raise();
        }
    }

    /// True once `END` was read.
    fn ended(&self) -> bool {
        self.lock().ended
    }

    /// Registers the stop flag of a search about to start, so that `END` stops it; false
    /// (the search must not start) once `END` was read.
    fn start_search(&self, stop: &StopFlag) -> bool {
        let mut state = self.lock();
        if state.ended {
            return false;
        }
        state.search = Some(stop.clone());
        true
    }
}

/// What the brain's loop waits for.
enum Event {
    /// What the input reader read: a line, one longer than [`MAX_LINE_BYTES`] (skipped: its
    /// length in bytes), or the end of the input (or that it could no longer be read).
    Input(Input),
    /// The search's progress: the best line so far.
    Progress(SearchResult<Cell>),
    /// The search finished: the engine comes back with its answer.
    Done(Box<EnginePlayer<Gomoku>>, SearchResult<Cell>),
    /// The search panicked; the engine was lost with it.
    Failed,
}

/// Why the brain is thinking, which decides what it answers.
#[derive(Clone, Copy, Debug)]
enum Purpose {
    /// A move (`BEGIN`, `TURN`, `BOARD`).
    Move,
    /// The swap2 choice after 3 or 5 opening stones: `SWAP`, or a move as White.
    SwapChoice,
}

/// A search under way.
struct Thinking {
    purpose: Purpose,
    stop: StopFlag,
    deadline: Instant,
    reported: Option<(u32, Option<Cell>)>,
    /// The value each depth ended with so far (the last report of that depth), for
    /// [`swap_value`].
    depth_values: Vec<(u32, i32)>,
}

/// The match as the protocol's manager set it up, and the engine.
struct Brain<W: Write> {
    output: W,
    events: Sender<Event>,
    /// `None` while lent to the search thread.
    engine: Option<EnginePlayer<Gomoku>>,
    /// A fresh copy, should a search thread panic and lose the engine.
    spare: EnginePlayer<Gomoku>,
    /// Where searches run, one at a time: one thread for the brain's life.
    searcher: JobThread,
    /// The table size the settings asked for, before `max_memory` caps it.
    configured_tt_mb: usize,
    /// The settings' search threads (0: one per core).
    configured_threads: usize,
    /// `INFO max_memory` in bytes (0: no limit), `None` until told: the table is made once
    /// its size is known (see [`Brain::new_game`]).
    max_memory: Option<u64>,
    /// Games begun (`START`, `RESTART`).
    games_started: u32,
    /// Search threads for the next search, once `INFO thread_num` said (the settings'
    /// `threads` until then).
    threads: Option<usize>,
    options: GomokuOptions,
    /// `None` before `START`.
    game: Option<Gomoku>,
    /// The moves that built `game`, in order, for `TAKEBACK` and a changed rule.
    moves: Vec<Cell>,
    clock: Clock,
    reader: CommandReader,
    thinking: Option<Thinking>,
    /// Lines that came while thinking (a line, or one too long to read), answered once the
    /// move is out.
    queued: Waiting<Input>,
    /// What the input reader has sent and the loop not yet handled (the channel and
    /// `queued`).
    backlog: Arc<Backlog>,
    /// Answers to lines handled while thinking (an `INFO`'s error), sent after the move: a
    /// manager reads the first line after `BEGIN` or `TURN` as the move.
    held: Vec<Response>,
    /// Raised by the input reader when it reads `END`.
    ending: Arc<EndSignal>,
}

/// The protocol point of `cell`.
pub fn coord_of(game: &Gomoku, cell: Cell) -> Coord {
    let (row, col) = game.row_col(cell);
    Coord {
        x: col as u32,
        y: (game.size() - 1 - row) as u32,
    }
}

/// The cell at protocol point `at`, if it is on the board.
pub fn cell_of(game: &Gomoku, at: Coord) -> Option<Cell> {
    let n = game.size();
    let (x, y) = (at.x as usize, at.y as usize);
    (x < n && y < n).then(|| game.cell(n - 1 - y, x)).flatten()
}

/// A line of the `TURN`/`BOARD` answer that is not a move: refused, with the reason.
type Refusal = String;

impl<W: Write> Brain<W> {
    fn new(
        engine: EnginePlayer<Gomoku>,
        options: &GomokuOptions,
        output: W,
        events: Sender<Event>,
    ) -> Self {
        let options = GomokuOptions {
            connect: CONNECT,
            rule: Rule::Freestyle,
            ..options.clone()
        };
        let backlog = Backlog::new(BACKLOG_LIMIT);
        Self {
            output,
            events,
            configured_tt_mb: engine.settings.tt_mb,
            configured_threads: engine.settings.threads,
            max_memory: None,
            games_started: 0,
            threads: None,
            spare: engine.clone(),
            searcher: JobThread::new("brain-search"),
            engine: Some(engine),
            options,
            game: None,
            moves: Vec::new(),
            clock: Clock::default(),
            reader: CommandReader::new(),
            thinking: None,
            queued: Waiting::new(Arc::clone(&backlog), Input::cost),
            backlog,
            held: Vec::new(),
            ending: Arc::default(),
        }
    }

    fn send(&mut self, response: &Response) -> std::io::Result<()> {
        writeln!(self.output, "{response}")?;
        self.output.flush()
    }

    /// Answers a command: at once, or after the move when thinking.
    fn reply(&mut self, response: Response) -> std::io::Result<()> {
        if self.thinking.is_some() {
            self.held.push(response);
            Ok(())
        } else {
            self.send(&response)
        }
    }

    /// Sends the answers held while thinking, once the move is out.
    fn send_held(&mut self) -> std::io::Result<()> {
        for response in std::mem::take(&mut self.held) {
            self.send(&response)?;
        }
        Ok(())
    }

    /// The loop: lines are answered in order; while thinking only `END` (and the end of
    /// the input) and `INFO` act at once, the rest waits for the move.
    fn serve(&mut self, events: &Receiver<Event>) -> std::io::Result<()> {
        let mut input_ended = false;
        loop {
            while self.thinking.is_none() {
                let Some(pending) = self.queued.pop_front() else {
                    break;
                };
                let flow = match pending {
                    Input::Line(line) => self.handle_line(&line)?,
                    Input::TooLong(length) => self.handle_too_long(length)?,
                    // Never queued: the end of the input is an event of its own.
                    Input::End => Flow::Continue,
                };
                if flow == Flow::Exit {
                    return Ok(());
                }
            }
            if input_ended && self.thinking.is_none() {
                return Ok(());
            }
            let event = match &self.thinking {
                Some(thinking) => {
                    let wait = thinking.deadline.saturating_duration_since(Instant::now());
                    match events.recv_timeout(wait) {
                        Ok(event) => event,
                        Err(RecvTimeoutError::Timeout) => {
                            thinking.stop.raise();
                            // Wait on: the search answers once it sees the flag.
                            if let Some(thinking) = &mut self.thinking {
                                thinking.deadline = Instant::now() + Duration::from_secs(3600);
                            }
                            continue;
                        }
                        Err(RecvTimeoutError::Disconnected) => return Ok(()),
                    }
                }
                None => match events.recv() {
                    Ok(event) => event,
                    Err(_) => return Ok(()),
                },
            };
            if let Event::Input(input) = &event {
                self.backlog.release(input.cost());
            }
            match event {
                Event::Input(Input::Line(line)) => {
                    if self.thinking.is_none() {
                        if self.handle_line(&line)? == Flow::Exit {
                            return Ok(());
                        }
                    } else if self.handle_line_while_thinking(line)? == Flow::Exit {
                        return Ok(());
                    }
                }
                Event::Input(Input::TooLong(length)) => {
                    if self.thinking.is_none() {
                        self.handle_too_long(length)?;
                    } else {
                        self.queued.push_back(Input::TooLong(length));
                    }
                }
                Event::Input(Input::End) if self.queued.is_empty() => {
                    // Nothing more will come: the move found so far, at once, is the last
                    // answer (unheard if the manager is gone, so a failed write is fine).
                    if let Some((thinking, result)) = self.stop_thinking(events)
                        && !self.ending.ended()
                    {
                        let _ = self.answer(&thinking, &result);
                    }
                    let _ = self.send_held();
                    return Ok(());
                }
                Event::Input(Input::End) => {
                    // A script piped in: its commands are all here. Answer them in order,
                    // each search within its time, then stop.
                    input_ended = true;
                }
                Event::Progress(result) => {
                    if !self.ending.ended() {
                        self.report_progress(&result)?;
                    }
                }
                Event::Done(engine, result) => {
                    self.engine = Some(*engine);
                    // Stopped by END (read behind other lines): no move.
                    if let Some(thinking) = self.thinking.take()
                        && !self.ending.ended()
                    {
                        self.answer(&thinking, &result)?;
                    }
                    self.send_held()?;
                    // `max_memory` or `thread_num` came while it thought: the table is
                    // remade now, after the answer, not in the next move's time.
                    if !self.ending.ended()
                        && self
                            .engine
                            .as_ref()
                            .is_some_and(|e| e.settings.tt_mb != self.table_mb())
                    {
                        self.prepare_table();
                    }
                }
                Event::Failed => {
                    self.engine = Some(self.spare.clone());
                    self.thinking = None;
                    if !self.ending.ended() {
                        self.send(&Response::Error("the search failed".to_string()))?;
                    }
                    self.send_held()?;
                }
            }
        }
    }

    /// Raises the stop flag and waits for the search thread to hand the engine back with
    /// its answer, so nothing runs on after the brain returns.
    fn stop_thinking(
        &mut self,
        events: &Receiver<Event>,
    ) -> Option<(Thinking, SearchResult<Cell>)> {
        let thinking = self.thinking.take()?;
        thinking.stop.raise();
        while let Ok(event) = events.recv_timeout(Duration::from_secs(5)) {
            match event {
                Event::Done(engine, result) => {
                    self.engine = Some(*engine);
                    return Some((thinking, result));
                }
                Event::Failed => return None,
                _ => {}
            }
        }
        None
    }

    fn handle_line_while_thinking(&mut self, line: String) -> std::io::Result<Flow> {
        if !self.reader.in_block() && self.queued.is_empty() {
            match protocol::command_word(&line) {
                Some("END") => {
                    if let Some(thinking) = &self.thinking {
                        thinking.stop.raise();
                    }
                    return Ok(Flow::Exit);
                }
                Some("INFO") => return self.handle_line(&line),
                _ => {}
            }
        }
        self.queued.push_back(Input::Line(line));
        Ok(Flow::Continue)
    }

    fn handle_line(&mut self, line: &str) -> std::io::Result<Flow> {
        for read in self.reader.feed(line) {
            let flow = match read {
                Err(e) => {
                    self.reply(e.response())?;
                    Flow::Continue
                }
                Ok(command) => self.handle(command)?,
            };
            if flow == Flow::Exit {
                return Ok(Flow::Exit);
            }
        }
        Ok(Flow::Continue)
    }

    /// A line too long to read: refused, or the open block spoilt.
    fn handle_too_long(&mut self, length: usize) -> std::io::Result<Flow> {
        if let Some(e) = self.reader.too_long(length) {
            self.reply(e.response())?;
        }
        Ok(Flow::Continue)
    }

    fn handle(&mut self, command: Command) -> std::io::Result<Flow> {
        let response = match command {
            Command::End => return Ok(Flow::Exit),
            Command::About => Some(Response::About(
                ABOUT
                    .iter()
                    .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
                    .collect(),
            )),
            Command::Start(size) => Some(self.start(size)),
            Command::RectStart { width, height } => Some(if width == height {
                self.start(width)
            } else {
                Response::Error(format!(
                    "rectangular boards ({width}x{height}) are not supported: this brain \
                     plays square boards {}..={}",
                    SIZES.start(),
                    SIZES.end()
                ))
            }),
            Command::Restart => Some(match &self.game {
                Some(_) => {
                    self.moves.clear();
                    self.rebuild();
                    self.new_game();
                    Response::Ok
                }
                None => not_started(),
            }),
            Command::Info(info) => self.info(&info),
            Command::Begin => self.begin(),
            Command::Turn(at) => self.turn(at),
            Command::Board(stones) => self.board(&stones),
            Command::Takeback(at) => Some(self.takeback(at)),
            Command::Play(at) => Some(self.play_own(at)),
            Command::Swap2Board(stones) => self.swap2(&stones),
        };
        if let Some(response) = response {
            self.reply(response)?;
        }
        Ok(Flow::Continue)
    }

    fn start(&mut self, size: u32) -> Response {
        if !SIZES.contains(&size) {
            return Response::Error(format!(
                "board size {size} is not supported: this brain plays square boards {}..={}",
                SIZES.start(),
                SIZES.end()
            ));
        }
        self.options.size = size as usize;
        self.moves.clear();
        self.rebuild();
        self.new_game();
        Response::Ok
    }

    /// A new game (`START`, `RESTART`): the engine as the brain started it, with an empty
    /// table and its tie-breaking from the seed again, so each game is answered as a freshly
    /// started brain would (within a game the table is kept: a position asked twice, or
    /// after a `TAKEBACK`, is answered with what the first search learnt).
    ///
    /// The table is made at once when `max_memory` was told (in this game or before): a
    /// manager usually sends it right after `START`, and a table of the configured size
    /// made before it would take its memory first (`INFO max_memory` makes it then; with
    /// none told by the first game's search, that search makes it, and `START` or `RESTART`
    /// from then on).
    fn new_game(&mut self) {
        if let Some(engine) = &mut self.engine {
            engine.new_game();
        }
        // A manager that did not say `max_memory` by the second game will not say it.
        if self.max_memory.is_some() || self.games_started > 0 {
            self.prepare_table();
        }
        self.games_started = self.games_started.saturating_add(1);
    }

    /// The search threads of the next search.
    fn search_threads(&self) -> usize {
        match self.threads.unwrap_or(self.configured_threads) {
            0 => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            threads => threads,
        }
    }

    /// The table size in MiB for the next search (see [`table_mb_for`]).
    fn table_mb(&self) -> usize {
        table_mb_for(
            self.max_memory.unwrap_or(0),
            self.configured_tt_mb,
            self.search_threads(),
        )
    }

    /// Makes the engine's table now, outside any move's time: making and touching a large
    /// table takes tens of milliseconds on a busy machine, too much of a short turn. A
    /// table of another size is let go first, so that the two are never held at once.
    fn prepare_table(&mut self) {
        let table_mb = self.table_mb();
        let threads = self.threads;
        if let (Some(engine), Some(game)) = (&mut self.engine, &self.game) {
            if engine.settings.tt_mb != table_mb {
                engine.clear_table();
            }
            engine.settings.tt_mb = table_mb;
            if let Some(threads) = threads {
                engine.settings.threads = threads;
            }
            let stop = StopFlag::new();
            stop.raise();
            engine.think(game, &stop, &mut |_| {});
        }
    }

    /// The game rebuilt from `moves` under the current options; false (and the moves cut
    /// back to the longest prefix the rules allow) when a move is refused.
    fn rebuild(&mut self) -> bool {
        let mut game = Gomoku::new(self.options.size, CONNECT, self.options.rule);
        let mut played = 0;
        for &mv in &self.moves {
            if game.try_play(mv).is_err() {
                break;
            }
            played += 1;
        }
        let complete = played == self.moves.len();
        self.moves.truncate(played);
        self.game = Some(game);
        complete
    }

    fn info(&mut self, info: &Info) -> Option<Response> {
        match *info {
            Info::TimeoutTurn(ms) => self.clock.turn = Some(Duration::from_millis(ms)),
            Info::TimeoutMatch(ms) => self.clock.match_limit = ms,
            Info::TimeLeft(ms) => self.clock.time_left = Some(ms),
            Info::MaxMemory(bytes) => {
                self.max_memory = Some(bytes);
                self.prepare_table();
            }
            Info::ThreadNum(threads) => {
                // 0 is read as 1, as Rapfi does: the manager asks for a count, not for
                // the settings' "one per core".
                self.threads = Some(threads.clamp(1, MAX_THREADS) as usize);
                // Each thread takes memory of its own: the table may have to shrink.
                if self.max_memory.is_some() {
                    self.prepare_table();
                }
            }
            Info::Rule(bits) => return self.set_rule(bits),
            Info::GameType(_) | Info::Evaluate(_) | Info::Folder(_) | Info::Other { .. } => {}
        }
        None
    }

    fn set_rule(&mut self, bits: u32) -> Option<Response> {
        const SUPPORTED: &str =
            "this brain plays freestyle (rule 0: five or more wins) and exactly five (rule 1)";
        let refused = |what: &str| Some(Response::Error(format!("{what}: {SUPPORTED}")));
        if bits & 4 != 0 {
            return refused("renju (rule 4) is not supported");
        }
        if bits & 2 != 0 {
            return refused("the continuous game (rule 2) is not supported");
        }
        if bits & !1 != 0 {
            return refused(&format!("rule {bits} is not supported"));
        }
        let rule = if bits & 1 == 1 {
            Rule::Standard
        } else {
            Rule::Freestyle
        };
        if rule != self.options.rule {
            self.options.rule = rule;
            if self.game.is_some() && !self.rebuild() {
                return Some(Response::Error(
                    "the position does not fit the new rule; it was cut back to the last \
                     position that does"
                        .to_string(),
                ));
            }
        }
        None
    }

    fn begin(&mut self) -> Option<Response> {
        let Some(game) = &self.game else {
            return Some(not_started());
        };
        if game.stones_played() > 0 {
            return Some(Response::Error(
                "BEGIN needs an empty board (RESTART first)".to_string(),
            ));
        }
        self.think(Purpose::Move)
    }

    fn turn(&mut self, at: Coord) -> Option<Response> {
        let before = self.moves.clone();
        if let Err(refusal) = self.play_at(at) {
            return Some(Response::Error(format!("TURN {at}: {refusal}")));
        }
        self.think_or_restore(Purpose::Move, before, &format!("TURN {at}"))
    }

    /// Thinks about the position a command set up; when no search can start (the stone
    /// given ended the game: a five, the last point), the command is refused, naming it, and
    /// the position is put back as it was (`moves`).
    fn think_or_restore(
        &mut self,
        purpose: Purpose,
        moves: Vec<Cell>,
        command: &str,
    ) -> Option<Response> {
        let refusal = self.think(purpose)?;
        self.moves = moves;
        self.rebuild();
        Some(match refusal {
            Response::Error(reason) => Response::Error(format!("{command}: {reason}")),
            other => other,
        })
    }

    /// Plays a stone for the side to move at `at`.
    fn play_at(&mut self, at: Coord) -> Result<Cell, Refusal> {
        let Some(game) = &mut self.game else {
            return Err("no match: START comes first".to_string());
        };
        if let Some(over) = game_over(game) {
            return Err(over);
        }
        let cell = cell_of(game, at).ok_or_else(|| {
            format!(
                "off the board (X and Y are 0..{} on this board)",
                game.size() - 1
            )
        })?;
        game.try_play(cell).map_err(|e| e.to_string())?;
        self.moves.push(cell);
        Ok(cell)
    }

    fn play_own(&mut self, at: Coord) -> Response {
        match self.play_at(at) {
            Ok(_) => Response::Move(at),
            Err(refusal) => Response::Error(format!("PLAY {at}: {refusal}")),
        }
    }

    fn takeback(&mut self, at: Coord) -> Response {
        let Some(game) = &self.game else {
            return not_started();
        };
        let Some(cell) = cell_of(game, at) else {
            return Response::Error(format!("TAKEBACK {at}: off the board"));
        };
        match self.moves.last() {
            Some(&last) if last == cell => {
                self.moves.pop();
                self.rebuild();
                Response::Ok
            }
            Some(&last) => Response::Error(format!(
                "TAKEBACK {at}: only the last stone can be taken back, and that is {}",
                coord_of(game, last)
            )),
            None => Response::Error(format!("TAKEBACK {at}: the board is empty")),
        }
    }

    /// Sets up a `BOARD` position: own and opposing stones alternate in the order given,
    /// whoever has more stones having started (the brain when both have as many), so the
    /// brain is to move.
    fn board(&mut self, stones: &[(Coord, Field)]) -> Option<Response> {
        let Some(game) = &self.game else {
            return Some(not_started());
        };
        let mut own = Vec::new();
        let mut theirs = Vec::new();
        for &(at, field) in stones {
            let Some(cell) = cell_of(game, at) else {
                return Some(Response::Error(format!("BOARD: {at} is off the board")));
            };
            match field {
                Field::Own => own.push(cell),
                Field::Opponent => theirs.push(cell),
                Field::Continuous => {
                    return Some(Response::Error(format!(
                        "BOARD: {at},3 is a continuous-game stone, and the continuous game \
                         is not supported (rule 0 and 1 only)"
                    )));
                }
            }
        }
        let (first, second) = if own.len() == theirs.len() {
            (own, theirs)
        } else if theirs.len() == own.len() + 1 {
            (theirs, own)
        } else {
            return Some(Response::Error(format!(
                "BOARD: {} own and {} opposing stones cannot be a position with this brain \
                 to move (players alternate: as many, or one more opposing stone)",
                own.len(),
                theirs.len()
            )));
        };
        let mut order = Vec::with_capacity(first.len() + second.len());
        for (i, &cell) in first.iter().enumerate() {
            order.push(cell);
            if let Some(&reply) = second.get(i) {
                order.push(reply);
            }
        }
        let before = self.moves.clone();
        if let Err(refusal) = self.set_position(order) {
            return Some(Response::Error(format!("BOARD: {refusal}")));
        }
        self.think_or_restore(Purpose::Move, before, "BOARD")
    }

    /// Replaces the match's moves with `order`, refusing (and keeping the old position)
    /// when the rules refuse one of them.
    fn set_position(&mut self, order: Vec<Cell>) -> Result<(), Refusal> {
        let mut game = Gomoku::new(self.options.size, CONNECT, self.options.rule);
        for &cell in &order {
            if let Some(over) = game_over(&game) {
                return Err(over);
            }
            if let Err(e) = game.try_play(cell) {
                return Err(e.to_string());
            }
        }
        if let Some(over) = game_over(&game) {
            return Err(over);
        }
        self.game = Some(game);
        self.moves = order;
        Ok(())
    }

    /// `SWAP2BOARD`: with no stones, places a balanced three-stone opening; with 3 or 5
    /// (black, white, black, ...: White to move) searches as White and answers `SWAP`
    /// (taking Black) when White stands worse, else White's move.
    fn swap2(&mut self, stones: &[Coord]) -> Option<Response> {
        let Some(game) = &self.game else {
            return Some(not_started());
        };
        let mut cells = Vec::with_capacity(stones.len());
        for &at in stones {
            let Some(cell) = cell_of(game, at) else {
                return Some(Response::Error(format!(
                    "SWAP2BOARD: {at} is off the board"
                )));
            };
            cells.push(cell);
        }
        match cells.len() {
            0 => {
                let Some(opening) = swap2_opening(self.options.size, self.spare.seed) else {
                    return Some(Response::Error(format!(
                        "SWAP2BOARD: no opening fits a {0}x{0} board",
                        self.options.size
                    )));
                };
                let order: Vec<Cell> = opening.iter().filter_map(|&at| cell_of(game, at)).collect();
                if let Err(refusal) = self.set_position(order) {
                    return Some(Response::Error(format!("SWAP2BOARD: {refusal}")));
                }
                Some(Response::Stones(opening.to_vec()))
            }
            3 | 5 => {
                let before = self.moves.clone();
                if let Err(refusal) = self.set_position(cells) {
                    return Some(Response::Error(format!("SWAP2BOARD: {refusal}")));
                }
                self.think_or_restore(Purpose::SwapChoice, before, "SWAP2BOARD")
            }
            n => Some(Response::Error(format!(
                "SWAP2BOARD with {n} stones: expected 0, 3 or 5"
            ))),
        }
    }

    /// Starts a search of the current position for the side to move.
    fn think(&mut self, purpose: Purpose) -> Option<Response> {
        let Some(game) = self.game.clone() else {
            return Some(not_started());
        };
        if let Some(over) = game_over(&game) {
            return Some(Response::Error(over));
        }
        let stop = StopFlag::new();
        if !self.ending.start_search(&stop) {
            // END is on its way: no search, and no answer.
            return None;
        }
        let Some(mut engine) = self.engine.take() else {
            return Some(Response::Error("already thinking".to_string()));
        };
        let stones = game.stones_played();
        let plan = self
            .clock
            .plan(stones, (game.size() * game.size()).saturating_sub(stones));
        let budget = plan.time;
        engine.settings.limits.time = Some(budget);
        engine.settings.limits.target = plan.target;
        engine.settings.tt_mb = self.table_mb();
        if let Some(threads) = self.threads {
            engine.settings.threads = threads;
        }
        let thread_stop = stop.clone();
        let events = self.events.clone();
        let progress_events = events.clone();
        let search = move || {
            let result = engine.think(&game, &thread_stop, &mut |progress| {
                let _ = progress_events.send(Event::Progress(progress.clone()));
            });
            (engine, result)
        };
        let spawned = self.searcher.run(search, move |searched| {
            let _ = events.send(match searched {
                Ok((engine, result)) => Event::Done(Box::new(engine), result),
                Err(_) => Event::Failed,
            });
        });
        if spawned.is_err() {
            self.engine = Some(self.spare.clone());
            return Some(Response::Error(
                "could not start a search thread".to_string(),
            ));
        }
        self.thinking = Some(Thinking {
            purpose,
            stop,
            deadline: Instant::now() + budget + DEADLINE_GRACE.min(budget / 2),
            reported: None,
            depth_values: Vec::new(),
        });
        None
    }

    /// A `MESSAGE` with depth, value, nodes, speed, time and principal variation, once
    /// per new depth or new best move, laid out as strong brains (Rapfi) do and clients
    /// (pygomo) read: `depth 9-9 ev +35 n 120034 n/ms 412 tm 291 pv 7,7 8,6 ...`, the value
    /// from the brain's side in evaluation units or `+M5`/`-M5` for a win or loss in 5
    /// moves, the line in protocol coordinates.
    fn report_progress(&mut self, result: &SearchResult<Cell>) -> std::io::Result<()> {
        let (Some(thinking), Some(game)) = (&mut self.thinking, &self.game) else {
            return Ok(());
        };
        if result.best.is_none() {
            return Ok(());
        }
        let depth = result.stats.depth;
        match thinking.depth_values.last_mut() {
            Some(last) if last.0 == depth => last.1 = result.value,
            _ => thinking.depth_values.push((depth, result.value)),
        }
        let key = (depth, result.best);
        if thinking.reported == Some(key) {
            return Ok(());
        }
        thinking.reported = Some(key);
        let text = progress_message(game, result);
        self.send(&Response::Message(text))
    }

    fn answer(&mut self, thinking: &Thinking, result: &SearchResult<Cell>) -> std::io::Result<()> {
        let Some(best) = result.best else {
            return self.send(&Response::Error("no move: the game is over".to_string()));
        };
        if let Purpose::SwapChoice = thinking.purpose
            && swap_value(result, &thinking.depth_values) < 0
        {
            return self.send(&Response::Swap);
        }
        let Some(game) = &mut self.game else {
            return self.send(&not_started());
        };
        let at = coord_of(game, best);
        if let Err(e) = game.try_play(best) {
            return self.send(&Response::Error(format!("the engine's move {at}: {e}")));
        }
        self.moves.push(best);
        self.send(&Response::Move(at))
    }
}

/// White's value in a swap2 choice, on which the brain takes Black (`SWAP`) when it is below
/// 0: the final value averaged with the one of the depth before it, when both were reached
/// and neither is a proven win or loss. A search's value swings with the parity of its
/// depth (an even depth ends on the opponent's move, an odd one on the mover's), so the
/// sign of one depth's value says more about the depth than about the position.
fn swap_value(result: &SearchResult<Cell>, depth_values: &[(u32, i32)]) -> i32 {
    let depth = result.stats.depth;
    let before = depth_values
        .iter()
        .rev()
        .find(|&&(d, _)| d + 1 == depth)
        .map(|&(_, value)| value);
    match before {
        Some(before) if !score::is_decisive(before) && !score::is_decisive(result.value) => {
            i32::midpoint(before, result.value)
        }
        _ => result.value,
    }
}

/// The text of a progress `MESSAGE` (see [`Brain::report_progress`]).
fn progress_message(game: &Gomoku, result: &SearchResult<Cell>) -> String {
    let value = if score::is_decisive(result.value) {
        let plies = score::WIN - result.value.abs();
        format!("{}M{plies}", if result.value > 0 { '+' } else { '-' })
    } else {
        format!("{:+}", result.value)
    };
    let millis = result.stats.elapsed.as_millis();
    let pv: Vec<String> = result
        .pv
        .iter()
        .map(|&cell| coord_of(game, cell).to_string())
        .collect();
    format!(
        "depth {depth}-{depth} ev {value} n {nodes} n/ms {speed} tm {millis} pv {pv}",
        depth = result.stats.depth,
        nodes = result.stats.nodes,
        speed = (result.stats.nodes_per_second() / 1000.0).round() as u64,
        pv = pv.join(" ")
    )
}

/// Whether the loop goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Exit,
}

fn not_started() -> Response {
    Response::Error("no match: START comes first".to_string())
}

/// Why no more moves can be played, if the game is over.
fn game_over(game: &Gomoku) -> Option<String> {
    if let Some(winner) = game.winner() {
        Some(format!(
            "the game is over: {} has five in a row",
            <Gomoku as crate::games::Playable>::side_name(winner)
        ))
    } else if game.outcome().is_some() {
        Some("the game is over: the board is full".to_string())
    } else {
        None
    }
}

/// The balanced openings the matches are played from (`examples/gomoku-balanced-openings.txt`:
/// three stones in the centre 5x5 of a 15x15 board, each valued near even by Rapfi with White
/// to move), from which the brain opens a swap2 game.
const BALANCED_OPENINGS: &str = include_str!("../../examples/gomoku-balanced-openings.txt");

/// The centre of the 15x15 board [`BALANCED_OPENINGS`] is written on (h8), in protocol points.
const OPENINGS_CENTRE: u32 = 7;

/// [`BALANCED_OPENINGS`] moved to the centre of a board of `size` (`size / 2` in both
/// coordinates, as h8 is on 15x15), as protocol points (black, white, black); an opening
/// that does not fit the board is left out.
fn balanced_openings(size: usize) -> Vec<[Coord; 3]> {
    let written_on = Gomoku::new(15, CONNECT, Rule::Freestyle);
    let centre = u32::try_from(size / 2).unwrap_or(u32::MAX);
    let moved = |at: Coord| {
        let x = (at.x + centre).checked_sub(OPENINGS_CENTRE)?;
        let y = (at.y + centre).checked_sub(OPENINGS_CENTRE)?;
        ((x as usize) < size && (y as usize) < size).then_some(Coord { x, y })
    };
    opening_lines(BALANCED_OPENINGS)
        .filter_map(|(_, line)| {
            let stones = line
                .split_whitespace()
                .map(|text| {
                    let cell = written_on.parse_move(text).ok()?;
                    moved(coord_of(&written_on, cell))
                })
                .collect::<Option<Vec<Coord>>>()?;
            <[Coord; 3]>::try_from(stones).ok()
        })
        .collect()
}

/// The three stones (black, white, black) placed when the brain opens a swap2 game: one of
/// the [`BALANCED_OPENINGS`], drawn by the engine's seed (the same for the same seed, as the
/// rest of a game's answers), so that the opponent's choice of colour gains it little.
/// `None` on a board none of them fits (every size `START` accepts fits them all).
fn swap2_opening(size: usize, seed: u64) -> Option<[Coord; 3]> {
    let openings = balanced_openings(size);
    if openings.is_empty() {
        return None;
    }
    let index = SmallRng::seed_from_u64(seed).random_range(0..openings.len());
    openings.get(index).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A brain over the built-in settings, writing to memory, with its event channel's
    /// receiving end (kept alive by the caller).
    fn test_brain() -> (Brain<Vec<u8>>, mpsc::Receiver<Event>) {
        let config = Config::builtin().unwrap();
        let options = config.game_options::<Gomoku>().unwrap();
        let side = config.players.side(Player::Second).clone();
        let engine = EnginePlayer::new(&side, &options, "test", "players.second").unwrap();
        let (tx, rx) = mpsc::channel();
        (Brain::new(engine, &options, Vec::new(), tx), rx)
    }

    #[test]
    fn max_memory_leaves_the_process_its_own_memory() {
        // One thread: 27 MiB for the process, the rest for the table.
        assert_eq!(table_mb_for(0, 64, 1), 64, "0: no limit");
        assert_eq!(table_mb_for(20_000_000, 64, 1), 1, "at least 1 MiB");
        assert_eq!(table_mb_for(1000, 64, 1), 1);
        assert_eq!(table_mb_for(80 << 20, 64, 1), 53);
        assert_eq!(table_mb_for(80 << 20, 64, 2), 48, "5 MiB more a thread");
        assert_eq!(
            table_mb_for(350 << 20, 64, 1),
            64,
            "never more than configured"
        );
        assert_eq!(table_mb_for(350 << 20, 1024, 1), 323);
        assert_eq!(table_mb_for(u64::MAX, 1024, 256), 1024);

        let (mut brain, _rx) = test_brain();
        let configured = brain.configured_tt_mb;
        assert_eq!(brain.table_mb(), configured, "until told");
        assert_eq!(brain.info(&Info::ThreadNum(1)), None);
        assert_eq!(brain.info(&Info::MaxMemory(20_000_000)), None);
        assert_eq!(brain.table_mb(), 1);
        brain.info(&Info::MaxMemory(40 << 20));
        assert_eq!(brain.table_mb(), 13.min(configured));
        brain.info(&Info::ThreadNum(4));
        assert_eq!(brain.table_mb(), 1, "a thread's share more for the process");
        brain.info(&Info::MaxMemory(0));
        assert_eq!(brain.table_mb(), configured);
    }

    #[test]
    fn the_table_waits_for_max_memory() {
        // Managers send INFO max_memory after START: a table of the configured size made at
        // START would have taken its memory before the limit was known.
        let (mut brain, _rx) = test_brain();
        assert_eq!(brain.start(20), Response::Ok);
        let engine = |brain: &mut Brain<Vec<u8>>| brain.engine.as_mut().unwrap().take_table();
        assert!(engine(&mut brain).is_none(), "a table before max_memory");
        brain.info(&Info::ThreadNum(1));
        brain.info(&Info::MaxMemory(20_000_000));
        let (mb, table) = engine(&mut brain).unwrap();
        assert_eq!(mb, 1);
        assert!(table.bytes() <= 1 << 20, "{}", table.bytes());
        // Once told, a new game's table is made at its start, outside any move's time.
        assert_eq!(brain.start(20), Response::Ok);
        assert_eq!(engine(&mut brain).map(|(mb, _)| mb), Some(1));
        // A manager that has not said it by the second game will not: the table is made at
        // START from then on, not in the first move's time.
        let (mut brain, _rx) = test_brain();
        assert_eq!(brain.start(15), Response::Ok);
        assert!(engine(&mut brain).is_none());
        assert_eq!(brain.start(15), Response::Ok);
        let configured = brain.configured_tt_mb;
        assert_eq!(engine(&mut brain).map(|(mb, _)| mb), Some(configured));
    }

    #[test]
    fn thread_num_sets_the_threads_of_the_next_search() {
        let (mut brain, _rx) = test_brain();
        assert_eq!(brain.threads, None, "the settings' threads until told");
        assert_eq!(brain.info(&Info::ThreadNum(1)), None);
        assert_eq!(brain.threads, Some(1));
        brain.info(&Info::ThreadNum(0));
        assert_eq!(brain.threads, Some(1), "0 is read as 1");
        brain.info(&Info::ThreadNum(100_000));
        assert_eq!(brain.threads, Some(256));
    }

    #[test]
    fn protocol_points_map_to_notation_from_the_bottom_left() {
        let game = Gomoku::new(15, 5, Rule::Freestyle);
        let h8 = cell_of(&game, Coord { x: 7, y: 7 }).unwrap();
        assert_eq!(game.format_move(h8), "h8");
        let a15 = cell_of(&game, Coord { x: 0, y: 0 }).unwrap();
        assert_eq!(game.format_move(a15), "a15");
        let o1 = cell_of(&game, Coord { x: 14, y: 14 }).unwrap();
        assert_eq!(game.format_move(o1), "o1");
        assert_eq!(cell_of(&game, Coord { x: 15, y: 0 }), None);
        for cell in 0..225 {
            assert_eq!(cell_of(&game, coord_of(&game, cell)), Some(cell));
        }
    }

    #[test]
    fn swap2_openings_are_the_balanced_ones_centred_on_any_board() {
        let written: Vec<&str> = opening_lines(BALANCED_OPENINGS)
            .map(|(_, line)| line)
            .collect();
        let on_15 = balanced_openings(15);
        assert_eq!(on_15.len(), written.len());
        let game = Gomoku::new(15, CONNECT, Rule::Freestyle);
        for (line, opening) in written.iter().zip(&on_15) {
            let named: Vec<String> = opening
                .iter()
                .map(|&at| game.format_move(cell_of(&game, at).unwrap()))
                .collect();
            assert_eq!(named.join(" "), *line);
        }
        for size in *SIZES.start()..=*SIZES.end() {
            let openings = balanced_openings(size as usize);
            assert_eq!(openings.len(), written.len(), "size {size}");
            let centre = i64::from(size / 2);
            for opening in &openings {
                for at in opening {
                    assert!((i64::from(at.x) - centre).abs() <= 2, "{size}: {at}");
                    assert!((i64::from(at.y) - centre).abs() <= 2, "{size}: {at}");
                }
                assert!(opening[0] != opening[1] && opening[1] != opening[2]);
                assert!(opening[0] != opening[2]);
            }
        }
        let drawn: std::collections::HashSet<_> =
            (0..20).filter_map(|seed| swap2_opening(15, seed)).collect();
        assert!(drawn.len() > 5, "{drawn:?}");
        assert!(drawn.iter().all(|opening| on_15.contains(opening)));
        assert_eq!(swap2_opening(20, 7), swap2_opening(20, 7));
    }

    #[test]
    fn the_swap_choice_averages_the_last_two_depths() {
        let result = |depth: u32, value: i32| {
            let mut result = SearchResult::<Cell>::fallback(Some(0), true);
            result.value = value;
            result.stats.depth = depth;
            result
        };
        // An odd depth's +40 after an even one's -100: White stands worse.
        assert_eq!(
            swap_value(&result(9, 40), &[(7, 30), (8, -100), (9, 40)]),
            -30
        );
        assert_eq!(swap_value(&result(9, 40), &[(9, 40)]), 40);
        // A proven value is taken as it is.
        let win = score::WIN - 7;
        assert_eq!(swap_value(&result(9, win), &[(8, -100), (9, win)]), win);
        assert_eq!(swap_value(&result(9, 40), &[(8, -win)]), 40);
    }
}
