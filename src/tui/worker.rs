//! The engine on a background thread: one search at a time, each with an id and its own
//! stop flag. Reports go out through an injected sink, so the worker never sees the TUI's
//! event type; the app drops reports whose id it no longer waits for.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::engine::limits::StopFlag;
use crate::engine::search::{Algorithm, SearchResult};
use crate::engine::{Game, Player};
use crate::games::Playable;
use crate::player::EnginePlayer;

/// Identifies one search; the app waits for one id at a time.
pub type SearchId = u64;

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The engine's own move.
    Move,
    /// A suggestion for the human to move.
    Hint,
}

/// A message from the worker.
#[derive(Clone, Debug, PartialEq)]
pub enum Report<M> {
    /// Intermediate result (an iteration finished, or at most every 100 ms).
    Progress {
        /// The search.
        id: SearchId,
        /// The best so far.
        result: SearchResult<M>,
    },
    /// The search ended, completed or stopped.
    Finished {
        /// The search.
        id: SearchId,
        /// Its answer.
        result: SearchResult<M>,
    },
    /// After an alpha-beta search: the nodes plain minimax visits at the same depth, when
    /// counting them stayed within [`MINIMAX_COUNT_BUDGET`].
    MinimaxNodes {
        /// The search this belongs to.
        id: SearchId,
        /// The count.
        nodes: u64,
    },
    /// The search panicked; the message says why.
    Failed {
        /// The search.
        id: SearchId,
        /// The panic message.
        reason: String,
    },
}

/// Minimax trees bigger than this are not counted (the count would cost more than it tells).
pub const MINIMAX_COUNT_BUDGET: u64 = 3_000_000;

enum Command<G: Game> {
    Search {
        id: SearchId,
        root: G,
        side: Player,
        stop: StopFlag,
    },
    Quit,
}

/// A handle to the engine thread. Dropping it stops the search and joins the thread.
pub struct Worker<G: Playable> {
    tx: Sender<Command<G>>,
    current: Option<StopFlag>,
    thread: Option<JoinHandle<()>>,
}

impl<G: Playable> Worker<G> {
    /// Starts the thread with one engine per side (index [`Player::index`]); every report is
    /// passed to `sink`.
    pub fn spawn(
        engines: [EnginePlayer<G>; 2],
        sink: impl Fn(Report<G::Move>) + Send + 'static,
    ) -> std::io::Result<Self> {
        let (tx, rx) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("gametree-engine".to_string())
            .spawn(move || worker_loop(engines, &rx, &sink))?;
        Ok(Self {
            tx,
            current: None,
            thread: Some(thread),
        })
    }

    /// Starts searching `root` for `side`'s engine, stopping any search still running.
    pub fn start(&mut self, id: SearchId, root: G, side: Player) {
        self.stop();
        let stop = StopFlag::new();
        self.current = Some(stop.clone());
        // A send error means the thread is gone; the app then never hears back, and shows
        // the search as running until the user undoes or quits, which both still work.
        let _ = self.tx.send(Command::Search {
            id,
            root,
            side,
            stop,
        });
    }

    /// Asks the running search (if any) to stop; it answers with `Finished` promptly.
    pub fn stop(&mut self) {
        if let Some(stop) = self.current.take() {
            stop.raise();
        }
    }
}

impl<G: Playable> Drop for Worker<G> {
    fn drop(&mut self) {
        self.stop();
        let _ = self.tx.send(Command::Quit);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn worker_loop<G: Playable>(
    mut engines: [EnginePlayer<G>; 2],
    rx: &Receiver<Command<G>>,
    sink: &dyn Fn(Report<G::Move>),
) {
    while let Ok(command) = rx.recv() {
        let Command::Search {
            id,
            root,
            side,
            stop,
        } = command
        else {
            break;
        };
        let engine = &mut engines[side.index()];
        let mut last_progress = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            engine.think(&root, &stop, &mut |result| {
                if last_progress.elapsed() >= Duration::from_millis(100) {
                    last_progress = Instant::now();
                    sink(Report::Progress {
                        id,
                        result: result.clone(),
                    });
                }
            })
        }));
        match outcome {
            Ok(result) => {
                // The depth the answer comes from: the full engine's last iteration.
                let depth = match engine.settings.algorithm {
                    Algorithm::Full => result.stats.depth,
                    _ => engine.settings.depth,
                };
                sink(Report::Finished { id, result });
                if engine.settings.algorithm.prunes() && !stop.is_raised() && depth > 0 {
                    let candidates = engine.settings.candidates;
                    if let Some(nodes) =
                        minimax_nodes(&root, depth, candidates, MINIMAX_COUNT_BUDGET, &stop)
                    {
                        sink(Report::MinimaxNodes { id, nodes });
                    }
                }
            }
            Err(panic) => {
                let reason = panic
                    .downcast_ref::<&str>()
                    .map(ToString::to_string)
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "the search panicked".to_string());
                sink(Report::Failed { id, reason });
            }
        }
    }
}

/// The nodes plain minimax visits searching `game` to `depth` (the root included, as
/// [`crate::engine::stats::SearchStats::nodes`] counts them), or `None` past `budget` or
/// when `stop` is raised.
pub fn minimax_nodes<G: Game>(
    game: &G,
    depth: u32,
    candidates: usize,
    budget: u64,
    stop: &StopFlag,
) -> Option<u64> {
    fn walk<G: Game>(
        game: &mut G,
        depth: u32,
        candidates: usize,
        buffers: &mut [Vec<G::Move>],
        count: &mut u64,
        budget: u64,
        stop: &StopFlag,
    ) -> bool {
        *count += 1;
        if *count > budget || (count.is_multiple_of(4096) && stop.is_raised()) {
            return false;
        }
        if depth == 0 || game.outcome().is_some() {
            return true;
        }
        let Some((moves, rest)) = buffers.split_first_mut() else {
            return true;
        };
        if candidates > 0 {
            game.candidate_moves(moves, candidates);
        } else {
            game.legal_moves(moves);
        }
        for &mv in moves.iter() {
            let undo = game.play(mv);
            let ok = walk(game, depth - 1, candidates, rest, count, budget, stop);
            game.undo(mv, undo);
            if !ok {
                return false;
            }
        }
        true
    }
    let mut position = game.clone();
    let mut buffers = vec![Vec::new(); depth as usize];
    let mut count = 0;
    walk(
        &mut position,
        depth,
        candidates,
        &mut buffers,
        &mut count,
        budget,
        stop,
    )
    .then_some(count)
}
