//! The engine as the game screen drives it: which search runs and what for, its progress,
//! the last answer, the hint, the pace and pause of engine-vs-engine play, and whether the
//! engine's own searches are recorded for the tree pane. It knows nothing of keys, panes or
//! the board: `App` asks it to launch, stop and receive, and routes what comes back.

use std::time::Duration;

use super::event::TICK_MS;
use super::worker::{Job, MinimaxEstimate, Purpose, Report, SearchId, TreeSearch};
use crate::brain::client::BrainLine;
use crate::engine::api::SearchResult;
use crate::engine::tree::SearchTree;
use crate::engine::{Game, Player};

/// The search the app is waiting for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pending {
    /// Its id.
    pub id: SearchId,
    /// Whose engine searches.
    pub side: Player,
    /// A move or a hint.
    pub purpose: Purpose,
    /// The tick it started at.
    pub started: u64,
    /// "Move now" was asked: it was told to stop and its answer is awaited.
    pub hurried: bool,
    /// How a `t` search runs ([`TreeSearch::Own`] for every other purpose).
    pub how: TreeSearch,
}

/// A finished search, kept for the engine pane.
#[derive(Clone, Debug, PartialEq)]
pub struct LastSearch<M> {
    /// Its id.
    pub id: SearchId,
    /// Whose engine it was.
    pub side: Player,
    /// A move or a hint.
    pub purpose: Purpose,
    /// What it found.
    pub result: SearchResult<M>,
    /// Plain minimax's node count to the depth the answer came from.
    pub minimax: MinimaxCount,
    /// It was told to stop ("move now", a tree search stopped) before it finished.
    pub hurried: bool,
    /// Ticks it took, as the app counted them.
    pub ticks: u64,
    /// How it ran ([`Pending::how`]): a `t` search may not use the side's own settings.
    pub how: TreeSearch,
    /// The principal variation in notation, played out from the searched position.
    pub pv: Vec<String>,
}

/// Plain minimax's node count for a finished search, as far as it is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MinimaxCount {
    /// Not counted: the search was plain minimax, was stopped, or searched no move.
    NotCounted,
    /// The worker is counting.
    Counting,
    /// More than [`super::worker::MINIMAX_COUNT_BUDGET`] nodes: the count was given up,
    /// with what the shallower trees that fitted say of its size.
    TooMany(Option<MinimaxEstimate>),
    /// This many nodes.
    Nodes(u64),
}

/// A recorded search under way: the position it started from, and the tree it sends ahead
/// of its `Finished`.
struct Recording<G: Game> {
    root: G,
    tree: Option<Box<SearchTree<G::Move>>>,
}

/// An engine move that arrived while a question was open: who played it, the move and its
/// value (none when the search was stopped before any root move) and the time it took.
type HeldMove<M> = (Player, M, Option<i32>, Duration);

/// What a report from the worker means for the app, once the driver has taken its part.
pub enum Arrival<G: Game> {
    /// Nothing more to do: progress, a tree sent ahead, a minimax count, or a report of a
    /// search the app no longer waits for.
    Absorbed,
    /// One search of a comparison finished.
    Compared {
        /// The position the comparison searched.
        root: G,
        /// Which search of the comparison.
        index: usize,
        /// Its answer.
        result: SearchResult<G::Move>,
        /// Its tree.
        tree: Box<SearchTree<G::Move>>,
        /// It was plain minimax and gave up at its node budget.
        gave_up: bool,
        /// Then: the size of its whole tree, estimated.
        estimate: Option<MinimaxEstimate>,
    },
    /// The search the app waited for ended.
    Finished {
        /// What it was.
        search: Pending,
        /// Its answer.
        result: SearchResult<G::Move>,
        /// The position it searched and its tree, when it was recorded.
        recorded: Option<(G, Box<SearchTree<G::Move>>)>,
    },
    /// The search the app waited for failed (the driver has paused the engine).
    Failed(String),
    /// The external brain or engine the app waited for forfeits the game (the driver has
    /// paused; the app resumes an engine, which forfeits only on time).
    Forfeit {
        /// The forfeiting side.
        side: Player,
        /// Why, in words.
        reason: String,
    },
}

/// The `MESSAGE` and `DEBUG` lines kept per brain for the engine pane.
pub const BRAIN_LINES_KEPT: usize = 40;

/// The engine coordination of one game screen.
// Four independent switches (paused, recording, tree pane used, one step); an enum would
// not fit.
#[allow(clippy::struct_excessive_bools)]
pub struct EngineDriver<G: Game> {
    /// The search running now.
    pub pending: Option<Pending>,
    /// Its latest progress report.
    pub progress: Option<SearchResult<G::Move>>,
    /// The last finished search.
    pub last: Option<LastSearch<G::Move>>,
    /// The engine's suggestion for the human, with its value.
    pub hint: Option<(G::Move, i32)>,
    /// Engine moves are held (Space / p); also set after an engine failure.
    pub paused: bool,
    /// The engine records its own searches (moves and hints) for the tree pane. Off until
    /// the tree pane is first used, so normal play runs with the no-op observer; `R`
    /// toggles it.
    pub record_engine: bool,
    /// Nodes a recorded tree keeps (`[tree] max_nodes`).
    pub max_nodes: usize,
    /// `t` and `v` search with the full engine (the side's own settings) rather than plain
    /// alpha-beta, the algorithm of the lesson; `E` switches.
    pub tree_full_engine: bool,
    /// The depth `t` and `v` search to, once set in the tree pane (`+`/`-`); `None`: the
    /// side's depth ([`super::worker::comparison_depth`]).
    pub tree_depth: Option<u32>,
    /// Each side's external brain: its name (from `ABOUT` once it answered), or `None`
    /// when the engine plays that side.
    pub brain_names: [Option<String>; 2],
    /// The last lines each side's brain printed (`MESSAGE` text; `DEBUG` lines marked),
    /// oldest first, at most [`BRAIN_LINES_KEPT`].
    pub brain_lines: [Vec<String>; 2],
    /// The side whose brain or engine lost the game by forfeit, and why, once one did.
    pub forfeit: Option<(Player, String)>,
    tree_used: bool,
    recording: Option<Recording<G>>,
    held: Option<HeldMove<G::Move>>,
    step_once: bool,
    pace_left_ms: u64,
    next_id: SearchId,
}

impl<G: Game> EngineDriver<G> {
    /// An idle engine whose recorded trees keep at most `max_nodes` nodes.
    pub fn new(max_nodes: usize) -> Self {
        Self {
            pending: None,
            progress: None,
            last: None,
            hint: None,
            paused: false,
            record_engine: false,
            max_nodes,
            tree_full_engine: false,
            tree_depth: None,
            brain_names: [None, None],
            brain_lines: [Vec::new(), Vec::new()],
            forfeit: None,
            tree_used: false,
            recording: None,
            held: None,
            step_once: false,
            pace_left_ms: 0,
            next_id: 1,
        }
    }

    /// What the running search is for, if one runs.
    pub fn searching(&self) -> Option<Purpose> {
        self.pending.map(|p| p.purpose)
    }

    /// True while something moves on screen without input (spinner, engine pace).
    pub fn is_animating(&self) -> bool {
        self.pending.is_some() || self.pace_left_ms > 0
    }

    /// The tree pane is in use: from now on the engine records its own searches, unless
    /// the user already switched that by hand.
    pub fn tree_pane_used(&mut self) {
        if !self.tree_used {
            self.tree_used = true;
            self.record_engine = true;
        }
    }

    /// `R`: records the engine's own searches or stops doing so; returns the new setting.
    pub fn toggle_recording(&mut self) -> bool {
        self.tree_used = true;
        self.record_engine = !self.record_engine;
        self.record_engine
    }

    /// `E`: `t` and `v` search with the full engine or with plain alpha-beta; returns the new
    /// setting (true: the full engine).
    pub fn toggle_tree_engine(&mut self) -> bool {
        self.tree_full_engine = !self.tree_full_engine;
        self.tree_full_engine
    }

    /// True when nothing holds the engine's next move back: not paused and the pace has
    /// run out, or one move was asked for while paused.
    pub fn may_move(&self) -> bool {
        self.step_once || !(self.paused || self.pace_left_ms > 0)
    }

    /// `.`: the next engine move is allowed through the pause (or, with `false`, no longer).
    pub fn set_step_once(&mut self, on: bool) {
        self.step_once = on;
    }

    /// An engine move was played: the next one waits `pace_ms` when given (engine against
    /// engine), and a single step asked for while paused is used up.
    pub fn moved(&mut self, pace_ms: Option<u64>) {
        if let Some(pace_ms) = pace_ms {
            self.pace_left_ms = pace_ms;
        }
        self.step_once = false;
    }

    /// One tick of the clock for the pace; true when the pace has just run out and the
    /// engine may move.
    pub fn tick_pace(&mut self) -> bool {
        if self.pace_left_ms == 0 {
            return false;
        }
        self.pace_left_ms = self.pace_left_ms.saturating_sub(TICK_MS);
        self.pace_left_ms == 0
    }

    /// Starts a search of `root` for `side`; returns its id and how the worker is to run
    /// it. `tree_depth` is the depth of a comparison or of a `t` search with plain
    /// alpha-beta, or with the full engine once the pane's depth was set
    /// ([`Purpose::Compare`] and [`Purpose::Tree`] only).
    pub fn launch(
        &mut self,
        side: Player,
        purpose: Purpose,
        root: &G,
        tick: u64,
        tree_depth: u32,
    ) -> (SearchId, Job) {
        let id = self.next_id;
        self.next_id += 1;
        self.forfeit = None;
        let how = match (purpose, self.tree_full_engine, self.tree_depth) {
            (Purpose::Tree, false, _) => TreeSearch::Lesson(tree_depth),
            (Purpose::Tree, true, Some(_)) => TreeSearch::FullTo(tree_depth),
            _ => TreeSearch::Own,
        };
        self.pending = Some(Pending {
            id,
            side,
            purpose,
            started: tick,
            hurried: false,
            how,
        });
        self.progress = None;
        // Normal play records nothing; the engine's own searches are recorded only once
        // the tree pane is in use.
        let job = match purpose {
            Purpose::Move | Purpose::Hint if !self.record_engine => Job::Think,
            Purpose::Compare => Job::Compare {
                max_nodes: self.max_nodes,
                depth: tree_depth,
                full_engine: self.tree_full_engine,
            },
            _ => Job::Record {
                max_nodes: self.max_nodes,
                how,
            },
        };
        self.recording = (job != Job::Think).then(|| Recording {
            root: root.clone(),
            tree: None,
        });
        (id, job)
    }

    /// Forgets the running search, if any (its answer will be ignored); true when there was
    /// one, which the worker must then be told to stop.
    pub fn cancel(&mut self) -> bool {
        if self.pending.take().is_none() {
            return false;
        }
        self.progress = None;
        self.recording = None;
        self.step_once = false;
        true
    }

    /// "Move now": true when the running search must be told to stop (once; its answer is
    /// still awaited).
    pub fn hurry(&mut self) -> bool {
        match &mut self.pending {
            // The protocol has no "move now": stopping a brain would only lose its move.
            Some(pending) if self.brain_names[pending.side.index()].is_some() => false,
            Some(pending) if !pending.hurried => {
                pending.hurried = true;
                true
            }
            _ => false,
        }
    }

    /// Keeps an engine move that arrived while a question was open.
    pub fn hold(&mut self, side: Player, mv: G::Move, value: Option<i32>, spent: Duration) {
        self.held = Some((side, mv, value, spent));
    }

    /// The held engine move, taken.
    pub fn take_held(&mut self) -> Option<HeldMove<G::Move>> {
        self.held.take()
    }

    /// Forgets what belongs to the last game: held move, hint, pause, pace, last search.
    /// Recording stays as the user set it.
    pub fn new_game(&mut self) {
        self.hint = None;
        self.paused = false;
        self.step_once = false;
        self.pace_left_ms = 0;
        self.held = None;
        self.last = None;
        self.forfeit = None;
        self.brain_lines = [Vec::new(), Vec::new()];
    }

    /// Keeps a finished search for the engine pane. The worker counts plain minimax after
    /// a search that `prunes`, was not stopped and searched at least one move.
    pub fn remember(
        &mut self,
        search: Pending,
        result: SearchResult<G::Move>,
        prunes: bool,
        pv: Vec<String>,
        tick: u64,
    ) {
        let counted = prunes && !search.hurried && result.stats.depth > 0;
        self.last = Some(LastSearch {
            id: search.id,
            side: search.side,
            purpose: search.purpose,
            result,
            minimax: if counted {
                MinimaxCount::Counting
            } else {
                MinimaxCount::NotCounted
            },
            hurried: search.hurried,
            ticks: tick - search.started,
            how: search.how,
            pv,
        });
    }

    /// Takes in a report of the worker; what is left for the app comes back.
    pub fn receive(&mut self, report: Report<G::Move>) -> Arrival<G> {
        let waiting = self.pending.map(|p| p.id);
        match report {
            Report::Progress { id, result } if Some(id) == waiting => {
                self.progress = Some(result);
                Arrival::Absorbed
            }
            Report::Recorded { id, tree } if Some(id) == waiting => {
                if let Some(recording) = &mut self.recording {
                    recording.tree = Some(tree);
                }
                Arrival::Absorbed
            }
            Report::Compared {
                id,
                index,
                result,
                tree,
                gave_up,
                estimate,
            } if Some(id) == waiting => match &self.recording {
                Some(recording) => Arrival::Compared {
                    root: recording.root.clone(),
                    index,
                    result,
                    tree,
                    gave_up,
                    estimate,
                },
                None => Arrival::Absorbed,
            },
            Report::Finished { id, result } if Some(id) == waiting => {
                let Some(search) = self.pending.take() else {
                    return Arrival::Absorbed;
                };
                self.progress = None;
                let recorded = self.recording.take().and_then(|r| Some((r.root, r.tree?)));
                Arrival::Finished {
                    search,
                    result,
                    recorded,
                }
            }
            Report::MinimaxNodes {
                id,
                nodes,
                estimate,
            } => {
                if let Some(last) = self.last.as_mut().filter(|l| l.id == id) {
                    last.minimax =
                        nodes.map_or(MinimaxCount::TooMany(estimate), MinimaxCount::Nodes);
                }
                Arrival::Absorbed
            }
            Report::BrainSaid {
                side, name, line, ..
            } => {
                self.brain_names[side.index()] = Some(name);
                let lines = &mut self.brain_lines[side.index()];
                match line {
                    Some(BrainLine::Message(text)) => lines.push(text),
                    Some(BrainLine::Debug(text)) => lines.push(format!("(debug) {text}")),
                    None => {}
                }
                if lines.len() > BRAIN_LINES_KEPT {
                    lines.remove(0);
                }
                Arrival::Absorbed
            }
            Report::Forfeit { id, reason } if Some(id) == waiting => {
                let side = self.pending.map_or(Player::First, |p| p.side);
                self.pending = None;
                self.progress = None;
                self.recording = None;
                self.paused = true;
                self.forfeit = Some((side, reason.clone()));
                Arrival::Forfeit { side, reason }
            }
            Report::Failed { id, reason } if Some(id) == waiting => {
                self.pending = None;
                self.progress = None;
                self.recording = None;
                self.paused = true;
                Arrival::Failed(reason)
            }
            // A report of a search the app stopped waiting for.
            Report::Progress { .. }
            | Report::Finished { .. }
            | Report::Failed { .. }
            | Report::Forfeit { .. }
            | Report::Recorded { .. }
            | Report::Compared { .. } => Arrival::Absorbed,
        }
    }
}

/// Moves in notation, each formatted in the position it is played in (stops at the first
/// move that does not fit, which a stale line could hold).
pub fn format_line<G: Game>(root: &G, moves: &[G::Move]) -> Vec<String> {
    let mut position = root.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        out.push(position.format_move(mv));
        if position.try_play(mv).is_err() {
            break;
        }
    }
    out
}
