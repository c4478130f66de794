//! `gametree serve`: a machine interface for every game, JSON lines on stdin/stdout, as UCI
//! is for chess (docs/protocol.md). A fourth front end beside the command line, the TUI and
//! the Gomocup brain, with the brain's shape: input is read on a thread of its own
//! ([`lines`], which never holds more than [`MAX_LINE`] bytes of a line), searches run one at a
//! time on a worker thread kept for the server's life ([`JobThread`]), `stop` ends the one
//! under way at once, and everything else is answered on the spot.
//!
//! [`Core`] answers requests (and is driven in-process by tests); [`serve`] is the loop
//! around it that owns the threads.

pub mod lines;
pub mod position;
pub mod request;
pub mod table;

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};

use anyhow::Result;
use clap::Args;
use serde_json::{Map, Value, json};

use crate::config::Config;
use crate::engine::job_thread::JobThread;
use crate::engine::limits::StopFlag;
use crate::engine::settings::{EngineSettings, FIELDS, FieldKind};
use crate::flags::EngineFlags;
use crate::games::{GameKind, GameOptions, Playable};
use lines::{BACKLOG_LIMIT, Backlog, CloseOnDrop, Input, Waiting};
use request::{Command, ErrorKind, ProtocolError, Request};
use table::{Job, Table, line};

/// The protocol's version, reported by `hello`: raised when a request or response changes
/// in a way an existing client could trip over.
pub const PROTOCOL_VERSION: u32 = 1;
/// The longest request line read, in bytes; a longer one is refused unread.
pub const MAX_LINE: usize = 1 << 20;

/// `gametree serve`: engine settings as flags, the defaults of every `go`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub engine: EngineFlags,
}

/// Why `match_ms` is refused here.
const NO_MATCH_CLOCK: &str = "the machine interface searches one position a request and keeps \
                              no match clock; give `time_ms` a search (a client keeps its own clock)";

/// Runs the protocol on stdin and stdout until `quit` or the end of the input, searching
/// with the engine settings of `players.second` in `config` and `args` over them.
pub fn run(config: &Config, args: &ServeArgs) -> Result<()> {
    let mut base = config
        .players
        .side(crate::engine::Player::Second)
        .engine
        .clone();
    // A match clock belongs to a game; the protocol searches one position a request.
    base.match_time = None;
    args.engine.apply(&mut base)?;
    if base.match_time.is_some() {
        anyhow::bail!("--match-ms: {NO_MATCH_CLOCK}");
    }
    base.validate()
        .map_err(|e| crate::error::ConfigError::from_field("command line", "engine", e))?;
    let core = Core::new(config.clone(), base)?;
    let input = std::io::BufReader::new(std::io::stdin());
    serve(core, input, std::io::stdout().lock())?;
    Ok(())
}

/// What a request leads to.
pub enum Reply {
    /// These lines, at once.
    Lines(Vec<String>),
    /// A search for the worker.
    Job(Job),
    /// The search under way is to stop; answered `ok` once it has.
    Stop(Value),
    /// `bye`, then the end.
    Quit(Value),
}

/// The protocol without its threads: the game being served and the answers to requests.
pub struct Core {
    config: Config,
    base: EngineSettings,
    table: Box<dyn Table>,
}

impl Core {
    /// Serves `config`'s game with its options, searching with `base` by default.
    pub fn new(config: Config, base: EngineSettings) -> Result<Self> {
        let kind = config.game;
        let table = crate::with_game!(kind, G => {
            let options = config.game_options::<G>()?;
            table::table_for::<G>(options, base.clone())
        });
        Ok(Self {
            config,
            base,
            table,
        })
    }

    /// The answer to one line of input.
    pub fn handle(&mut self, text: &str) -> Reply {
        match request::parse(text) {
            Ok(request) => self.request(request),
            Err((id, e)) => Reply::Lines(vec![e.response(&id)]),
        }
    }

    /// Answers `line` to the end: a search runs here, on this thread, unstoppable. For
    /// tests and scripts driving the protocol in-process.
    pub fn respond(&mut self, text: &str) -> Vec<String> {
        match self.handle(text) {
            Reply::Lines(lines) => lines,
            Reply::Job(job) => {
                let mut lines = Vec::new();
                let last = job(&StopFlag::new(), &mut |progress| lines.push(progress));
                lines.push(last);
                lines
            }
            Reply::Stop(id) => vec![line(&id, "ok", Map::new())],
            Reply::Quit(id) => vec![line(&id, "bye", Map::new())],
        }
    }

    fn request(&mut self, request: Request) -> Reply {
        let id = request.id;
        let answer = |result: Result<Map<String, Value>, ProtocolError>, kind: &str| {
            Reply::Lines(vec![match result {
                Ok(fields) => line(&id, kind, fields),
                Err(e) => e.response(&id),
            }])
        };
        let job = |result: Result<Job, ProtocolError>| match result {
            Ok(job) => Reply::Job(job),
            Err(e) => Reply::Lines(vec![e.response(&id)]),
        };
        match request.command {
            Command::Hello => answer(Ok(self.hello()), "hello"),
            Command::New { game, options } => {
                let made = self.new_game(game, &options);
                answer(made.map(|()| self.table.state()), "state")
            }
            Command::Position { moves } => {
                let done = self.table.position(&moves);
                answer(done.map(|()| self.table.state()), "state")
            }
            Command::Play { mv } => {
                let done = self.table.play(&mv);
                answer(done.map(|()| self.table.state()), "state")
            }
            Command::Undo { count } => {
                let done = self.table.undo(count);
                answer(done.map(|()| self.table.state()), "state")
            }
            Command::Legal => answer(Ok(self.table.legal()), "legal"),
            Command::State => answer(Ok(self.table.state()), "state"),
            Command::Go { settings } => job(self.table.go(&id, &settings)),
            Command::Stop => Reply::Stop(id),
            Command::Solve { threads, tt_mb } => job(self.table.solve(&id, threads, tt_mb)),
            Command::Perft { depth, divide } => Reply::Job(self.table.perft(&id, depth, divide)),
            Command::Tree {
                max_nodes,
                settings,
            } => job(self.table.tree(&id, max_nodes, &settings)),
            Command::Quit => Reply::Quit(id),
        }
    }

    fn new_game(
        &mut self,
        kind: GameKind,
        changes: &Map<String, Value>,
    ) -> Result<(), ProtocolError> {
        self.table = crate::with_game!(kind, G => {
            let configured = self.config.games.get::<G>().cloned().unwrap_or_default();
            let options = table::options_with::<G>(&configured, changes)?;
            table::table_for::<G>(options, self.base.clone())
        });
        Ok(())
    }

    fn hello(&self) -> Map<String, Value> {
        let games: Vec<Value> = GameKind::ALL
            .into_iter()
            .map(|kind| crate::with_game!(kind, G => self.game_entry::<G>()))
            .collect();
        let fields: Vec<Value> = FIELDS
            .iter()
            .map(|field| {
                let mut entry = json!({
                    "key": field.key,
                    "about": field.about,
                    "full_only": field.full_only,
                });
                let (kind, extra) = match field.kind {
                    FieldKind::Switch => ("switch", json!({})),
                    FieldKind::Number { min, max, zero } => {
                        ("number", json!({"min": min, "max": max, "zero": zero}))
                    }
                    FieldKind::OptionalNumber => ("optional_number", json!({})),
                    FieldKind::Choice(names) => ("choice", json!({"choices": names})),
                    FieldKind::Name => ("name", json!({})),
                };
                if let (Value::Object(entry), Value::Object(extra)) = (&mut entry, extra) {
                    entry.insert("kind".into(), json!(kind));
                    entry.extend(extra);
                }
                entry
            })
            .collect();
        let mut out = Map::new();
        out.insert("protocol".into(), json!(PROTOCOL_VERSION));
        out.insert("program".into(), json!("gametree"));
        out.insert("version".into(), json!(env!("CARGO_PKG_VERSION")));
        out.insert("games".into(), Value::Array(games));
        out.insert(
            "engine".into(),
            json!({
                "settings": serde_json::to_value(&self.base).unwrap_or(Value::Null),
                "fields": fields,
            }),
        );
        out.insert("game".into(), json!(self.table.kind().name()));
        out
    }

    fn game_entry<G: Playable>(&self) -> Value {
        let options = self.config.games.get::<G>().cloned().unwrap_or_default();
        let keys: Vec<String> = options.entries().into_iter().map(|(k, _)| k).collect();
        json!({
            "name": G::KIND.name(),
            "title": G::KIND.title(),
            "sides": {
                "first": G::side_name(crate::engine::Player::First),
                "second": G::side_name(crate::engine::Player::Second),
            },
            "scoring": match G::SCORING {
                crate::engine::Scoring::WinLoss => "win_loss",
                crate::engine::Scoring::Margin => "margin",
            },
            "evaluators": G::EVALUATORS,
            "options": serde_json::to_value(&options).unwrap_or(Value::Null),
            "option_keys": keys,
        })
    }
}

/// What the loop waits for.
enum Event {
    Input(Input),
    /// A progress line of the search under way.
    Progress(String),
    /// The search's answer.
    Done(String),
    /// The search panicked.
    Failed,
}

/// The search under way.
struct Running {
    id: Value,
    stop: StopFlag,
    /// `stop` requests to answer `ok` once the search has answered.
    stop_ids: Vec<Value>,
    /// A `quit` came: its id, answered `bye` after the search's answer.
    quit: Option<Value>,
}

/// Runs the protocol over `input` and `output` until `quit` or the end of the input (every
/// line read by then is answered, each search running to its limits).
pub fn serve<R, W>(core: Core, input: R, output: W) -> std::io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let (tx, rx) = mpsc::channel();
    let reader_tx = tx.clone();
    let backlog = Backlog::new(BACKLOG_LIMIT);
    let _close = CloseOnDrop(Arc::clone(&backlog));
    let reader_backlog = Arc::clone(&backlog);
    // Left behind blocked on its read after `quit` (the process is about to exit). It reads
    // no further while the backlog of unhandled lines is full.
    std::thread::spawn(move || {
        lines::read_bounded(input, MAX_LINE, |input| {
            reader_backlog.admit(input.cost()) && reader_tx.send(Event::Input(input)).is_ok()
        });
    });
    Server {
        core,
        output,
        events: tx,
        running: None,
        searcher: JobThread::new("serve-search"),
        queued: Waiting::new(Arc::clone(&backlog), Input::cost),
        backlog,
    }
    .run(&rx)
}

struct Server<W: Write> {
    core: Core,
    output: W,
    events: Sender<Event>,
    running: Option<Running>,
    /// Where searches run, one at a time: one thread for the server's life.
    searcher: JobThread,
    /// Lines that came while a search ran and had to wait: taken in order once it has
    /// answered ([`Server::drain`]).
    queued: Waiting<Input>,
    /// What the input reader has sent and the loop not yet handled (the channel and
    /// `queued`).
    backlog: Arc<Backlog>,
}

/// Whether the loop goes on.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flow {
    Continue,
    Exit,
}

impl<W: Write> Server<W> {
    fn send(&mut self, text: &str) -> std::io::Result<()> {
        self.output.write_all(text.as_bytes())?;
        self.output.write_all(b"\n")?;
        self.output.flush()
    }

    fn run(&mut self, events: &Receiver<Event>) -> std::io::Result<()> {
        let mut input_ended = false;
        loop {
            // While a search runs the first waiting line waits for it: nothing to take.
            if self.running.is_none() && self.drain()? == Flow::Exit {
                return Ok(());
            }
            if input_ended && self.running.is_none() {
                return Ok(());
            }
            let Ok(event) = events.recv() else {
                return Ok(());
            };
            match event {
                Event::Input(Input::End) => input_ended = true,
                Event::Input(input) => {
                    self.backlog.release(input.cost());
                    if self.running.is_none() {
                        if self.input(input)? == Flow::Exit {
                            return Ok(());
                        }
                    } else {
                        self.input_while_running(input)?;
                    }
                }
                Event::Progress(text) => self.send(&text)?,
                Event::Done(text) => {
                    self.send(&text)?;
                    if self.finished()? == Flow::Exit {
                        return Ok(());
                    }
                }
                Event::Failed => {
                    let id = self.running.as_ref().map_or(Value::Null, |r| r.id.clone());
                    let error =
                        ProtocolError::new(ErrorKind::Internal, "the search failed").response(&id);
                    self.send(&error)?;
                    if self.finished()? == Flow::Exit {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// The search has answered: the `stop`s and `quit` that waited for it are answered.
    fn finished(&mut self) -> std::io::Result<Flow> {
        let Some(running) = self.running.take() else {
            return Ok(Flow::Continue);
        };
        for id in running.stop_ids {
            self.send(&line(&id, "ok", Map::new()))?;
        }
        if let Some(id) = running.quit {
            self.send(&line(&id, "bye", Map::new()))?;
            return Ok(Flow::Exit);
        }
        Ok(Flow::Continue)
    }

    /// Whether a `quit` came while the search under way runs: nothing more is answered.
    fn quitting(&self) -> bool {
        self.running.as_ref().is_some_and(|r| r.quit.is_some())
    }

    /// Takes the lines that waited, in order, each as if it came now: answered while no
    /// search runs; once one has started a search, those behind it are lines that come
    /// while it runs (a `stop` or `quit` acts on it at once), until one must wait again.
    fn drain(&mut self) -> std::io::Result<Flow> {
        while let Some(input) = self.queued.pop_front() {
            if self.running.is_none() {
                if self.input(input)? == Flow::Exit {
                    return Ok(Flow::Exit);
                }
            } else if self.quitting() {
                self.queued.clear();
            } else if let Some(waits) = self.act_while_running(input)? {
                self.queued.push_front(waits);
                break;
            }
        }
        Ok(Flow::Continue)
    }

    /// A line while a search runs. When nothing waits before it, `stop` and `quit` act at
    /// once (the search answers with the best move so far) and `hello`, `state` and `legal`
    /// are answered; everything else, and everything behind a waiting line, waits its turn
    /// (a script's lines are answered in order).
    fn input_while_running(&mut self, input: Input) -> std::io::Result<()> {
        if self.quitting() {
            // Quitting: nothing more is answered.
            return Ok(());
        }
        if !self.queued.is_empty() {
            self.queued.push_back(input);
            return Ok(());
        }
        if let Some(waits) = self.act_while_running(input)? {
            self.queued.push_back(waits);
        }
        Ok(())
    }

    /// `input` while a search runs with no line waiting before it: acted on or answered at
    /// once, or handed back to wait until the search has answered.
    fn act_while_running(&mut self, input: Input) -> std::io::Result<Option<Input>> {
        let Input::Line(text) = &input else {
            return Ok(Some(input));
        };
        if text.trim().is_empty() {
            // Ignored, as at any time: it must not hold back a `stop` behind it.
            return Ok(None);
        }
        match request::parse(text) {
            Ok(Request {
                id,
                command: Command::Stop,
            }) => {
                if let Some(running) = &mut self.running {
                    running.stop.raise();
                    running.stop_ids.push(id);
                }
            }
            Ok(Request {
                id,
                command: Command::Quit,
            }) => {
                if let Some(running) = &mut self.running {
                    running.stop.raise();
                    running.quit = Some(id);
                }
            }
            Ok(Request {
                command: Command::Hello | Command::State | Command::Legal,
                ..
            }) => {
                self.input(input)?;
            }
            _ => return Ok(Some(input)),
        }
        Ok(None)
    }

    fn input(&mut self, input: Input) -> std::io::Result<Flow> {
        let text = match input {
            Input::Line(text) => text,
            Input::TooLong(length) => {
                let error = ProtocolError::new(
                    ErrorKind::LineTooLong,
                    format!(
                        "a line of {length} bytes: requests are at most {MAX_LINE} bytes (the line was skipped unread)"
                    ),
                );
                self.send(&error.response(&Value::Null))?;
                return Ok(Flow::Continue);
            }
            Input::End => return Ok(Flow::Continue),
        };
        if text.trim().is_empty() {
            return Ok(Flow::Continue);
        }
        match self.core.handle(&text) {
            Reply::Lines(lines) => {
                for text in lines {
                    self.send(&text)?;
                }
            }
            Reply::Stop(id) => self.send(&line(&id, "ok", Map::new()))?,
            Reply::Quit(id) => {
                self.send(&line(&id, "bye", Map::new()))?;
                return Ok(Flow::Exit);
            }
            Reply::Job(job) => self.start(job, &text),
        }
        Ok(Flow::Continue)
    }

    /// Runs `job` on a worker thread.
    fn start(&mut self, job: Job, text: &str) {
        let id = request::parse(text).map_or(Value::Null, |r| r.id);
        let stop = StopFlag::new();
        let thread_stop = stop.clone();
        let events = self.events.clone();
        let progress = events.clone();
        let search = move || {
            job(&thread_stop, &mut |text| {
                let _ = progress.send(Event::Progress(text));
            })
        };
        let spawned = self.searcher.run(search, move |answered| {
            let _ = events.send(match answered {
                Ok(text) => Event::Done(text),
                Err(_) => Event::Failed,
            });
        });
        if spawned.is_err() {
            let _ = self.events.send(Event::Failed);
        }
        self.running = Some(Running {
            id,
            stop,
            stop_ids: Vec::new(),
            quit: None,
        });
    }
}
