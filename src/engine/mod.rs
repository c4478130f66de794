//! The game-agnostic engine: the [`Game`] and [`Evaluator`] traits and the searches over them.
//! It knows nothing about any particular game, the terminal or the command line.
//!
//! Callers start at [`api`]: `search` and `search_with_table` run the search the settings ask
//! for, and every type they need is re-exported there. Below it, with imports only pointing
//! down (no module imports one that imports it back):
//! - [`reference`](mod@reference): plain minimax and alpha-beta, the searches the others are checked against;
//! - [`full`]: the full engine, one file per concern (iterative deepening, the root, the node
//!   search, splitting among threads);
//! - [`ply`]: what both searches share: the sign rule, the per-ply buffers and PV table, and
//!   the static ordering key;
//! - [`settings`] and [`result`]: what a search is asked and what it answers;
//! - [`score`], [`stats`], [`tree`], [`tt`], [`ordering`], [`limits`]: the parts a search is
//!   built from; [`perft`] counts move paths to test move generation.

pub mod api;
pub mod clock;
pub mod full;
pub mod job_thread;
pub mod limits;
pub mod memory;
pub mod ordering;
pub mod perft;
pub mod ply;
pub mod reference;
pub mod result;
pub mod score;
pub mod settings;
pub mod stats;
pub mod tree;
pub mod tt;

use std::fmt::{Debug, Display};
use std::hash::Hash;

use serde::{Deserialize, Serialize};

use crate::error::{IllegalMove, MoveListError};

/// One of the two players. Whose turn it is is always explicit state, never ply parity:
/// in Kalah and Dots and Boxes a player may move several times in a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// The player who moves first from the initial position.
    First,
    /// The other player.
    Second,
}

impl Player {
    /// The opponent.
    #[inline]
    pub fn other(self) -> Self {
        match self {
            Self::First => Self::Second,
            Self::Second => Self::First,
        }
    }

    /// 0 for [`Player::First`], 1 for [`Player::Second`]: an index into per-player arrays.
    #[inline]
    pub fn index(self) -> usize {
        match self {
            Self::First => 0,
            Self::Second => 1,
        }
    }

    /// +1 for the first player, -1 for the second: turns a first-player value into this
    /// player's value and back.
    #[inline]
    pub fn sign(self) -> i32 {
        match self {
            Self::First => 1,
            Self::Second => -1,
        }
    }
}

impl Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::First => "first",
            Self::Second => "second",
        })
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// `winner` won by `margin` (stones in Kalah, boxes in Dots and Boxes, 1 in k-in-a-row).
    Win {
        /// Who won.
        winner: Player,
        /// By how much; at least 1.
        margin: u32,
    },
    /// Nobody won (Kalah and Dots and Boxes: equal scores).
    Draw,
}

impl Outcome {
    /// The signed result from `player`'s point of view: `margin` for a win, `-margin` for a
    /// loss, 0 for a draw.
    pub fn value_for(self, player: Player) -> i32 {
        match self {
            Self::Win { winner, margin } if winner == player => margin as i32,
            Self::Win { margin, .. } => -(margin as i32),
            Self::Draw => 0,
        }
    }

    /// An outcome from a signed margin seen from the first player.
    pub fn from_first_margin(margin: i32) -> Self {
        match margin.cmp(&0) {
            std::cmp::Ordering::Greater => Self::Win {
                winner: Player::First,
                margin: margin.unsigned_abs(),
            },
            std::cmp::Ordering::Less => Self::Win {
                winner: Player::Second,
                margin: margin.unsigned_abs(),
            },
            std::cmp::Ordering::Equal => Self::Draw,
        }
    }
}

/// What a game's result is measured in, which decides how the search scores a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// Win, draw or loss (Tic-tac-toe, Gomoku): a quicker win scores higher.
    WinLoss,
    /// A margin of points (Kalah stones, boxes): the search maximises the final margin.
    Margin,
}

/// How a move that leaves a threat unanswered stands to the play ([`Game::neglect`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Neglect {
    /// Far from the opponent's last move.
    pub far_from_theirs: bool,
    /// Far from the mover's own last move.
    pub far_from_own: bool,
}

impl Neglect {
    /// Far from both last moves: a distraction, which a playing search leaves out near its
    /// horizon.
    pub fn is_distraction(self) -> bool {
        self.far_from_theirs && self.far_from_own
    }
}

/// A two-player, perfect-information, deterministic game, as the search sees it.
///
/// Contract (checked by the property tests for every game):
/// - `outcome()` is `Some` exactly when `legal_moves` yields nothing;
/// - `undo(mv, play(mv))` restores the exact state, `to_move` and `hash` included;
/// - `hash()` is maintained incrementally and equals [`Game::hash_from_scratch`];
/// - `to_move()` after `play` may equal `to_move()` before it (an extra turn).
pub trait Game: Clone + Display + Send + Sync + 'static {
    /// A move; small and `Copy`.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// What `play` returns so that `undo` can reverse it (may be a copy of the state).
    type Undo: Send;
    /// How a finished game is scored.
    const SCORING: Scoring;

    /// The side to move.
    fn to_move(&self) -> Player;

    /// Clears `out` and fills it with every legal move (none once the game is over).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Clears `out` and fills it with the moves a playing search should consider, at most
    /// `limit` of them where the game prunes by heuristics (Gomoku's candidate points).
    /// Exact solving never calls this. The default is every legal move.
    fn candidate_moves(&self, out: &mut Vec<Self::Move>, limit: usize) {
        let _ = limit;
        self.legal_moves(out);
    }

    /// Plays a legal move. Calling it with an illegal move is a bug in the caller (use
    /// [`Game::try_play`] for moves from users); it may panic or corrupt the state.
    fn play(&mut self, mv: Self::Move) -> Self::Undo;

    /// Takes back `mv`, which was the last move played and returned `undo`.
    fn undo(&mut self, mv: Self::Move, undo: Self::Undo);

    /// The result once the game is over, `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// Zobrist hash of everything that decides the rest of the game, the side to move
    /// included. Margin games leave out the points already banked (see [`Game::banked`]),
    /// so that positions differing only in banked score share a transposition-table entry.
    fn hash(&self) -> u64;

    /// The [`Game::hash`] the position will have after `mv`, where that is known without
    /// playing it (a Zobrist XOR): the full engine then starts reading the child's table
    /// entry before playing the move, so that the memory's latency overlaps the move's work.
    /// `None` (the default) where it is not cheap.
    fn hash_after(&self, _mv: Self::Move) -> Option<u64> {
        None
    }

    /// The same hash computed from nothing; used by tests to check the incremental one.
    fn hash_from_scratch(&self) -> u64;

    /// Points already banked, as a margin for the first player (Kalah stores, boxes won);
    /// 0 for games scored by win/loss. The search's value of a position is this banked
    /// margin plus the value of what is still to be won.
    fn banked(&self) -> i32 {
        0
    }

    /// Points not yet banked (stones in Kalah's pits, boxes nobody owns): the final margin
    /// lies within this many points of [`Game::banked`]. The search clamps evaluations to
    /// that range and prunes nodes whose whole range lies outside the window. `None` (the
    /// default) when the game does not know such a bound.
    fn unbanked(&self) -> Option<i32> {
        None
    }

    /// The exact value of this position (not over) for the side to move, in the game's own
    /// units and with the banked points included (for margin games: the final margin), when
    /// the game knows it without searching: Kalah's endgame databases. `None` (the default)
    /// when it does not. The full engine uses it, for margin games, in place of searching
    /// the node.
    fn exact_value(&self) -> Option<i32> {
        None
    }

    /// Starts loading what [`Game::exact_value`] of this position will read, where that is a
    /// table too large for the processor's caches (Kalah's endgame database): a hint, with
    /// no effect on any value. The default does nothing.
    fn prefetch_exact(&self) {}

    /// The same position without the knowledge [`Game::exact_value`] reads (Kalah's endgame
    /// database detached), for searches that must see the same tree as plain minimax does
    /// to the same depth: the TUI's comparison of algorithms. The default is the position
    /// itself.
    #[must_use]
    fn without_exact_values(&self) -> Self {
        self.clone()
    }

    /// A dense index of `mv`, below [`Game::move_space`] (for killer and history tables).
    fn move_index(&self, mv: Self::Move) -> usize;

    /// The index under which the transposition table keeps `mv` as this position's best
    /// move: [`Game::move_index`] seen in the orientation that [`Game::hash`] is canonical
    /// in. Games whose hash folds board symmetries map the move the same way, so that a
    /// stored move means the same move in every symmetric position.
    fn table_move_index(&self, mv: Self::Move) -> usize {
        self.table_move_index_in(self.table_orientation(), mv)
    }

    /// The orientation [`Game::hash`] is canonical in (0 for games without symmetries):
    /// computed once per node when many moves are mapped.
    fn table_orientation(&self) -> usize {
        0
    }

    /// [`Game::table_move_index`] for a known [`Game::table_orientation`].
    fn table_move_index_in(&self, orientation: usize, mv: Self::Move) -> usize {
        let _ = orientation;
        self.move_index(mv)
    }

    /// The move whose [`Game::table_move_index_in`] `orientation` is `index`, if it is one
    /// the search generates here: a legal move, and when `solving` one of
    /// [`Game::solver_moves`]. The full engine then searches the table's move before it
    /// generates and orders the others, which a cut-off by that move saves. The default,
    /// `None`, has it generate the moves first.
    fn table_move(&self, orientation: usize, index: usize, solving: bool) -> Option<Self::Move> {
        let _ = (orientation, index, solving);
        None
    }

    /// True when [`Game::order_hint`] is worth using instead of evaluating each child.
    const ORDER_HINTS: bool = false;

    /// Whether killer moves and the history heuristic help this game's move ordering; the
    /// full engine uses them only where they do (and where its settings ask for them).
    const CUTOFF_ORDERING: bool = true;

    /// For a game with [`Game::ORDER_HINTS`]: how many units of the engine's signed history
    /// (within ±[`ordering::STAT_RANGE`]) make one unit of [`Game::order_hint`] when the two
    /// are added for ordering. 0, the default, keeps the history below the hint, where it
    /// only breaks ties. Gomoku's hint is its ranking in hundredths of a logit, and 100 lets
    /// a move's history move it by up to about one logit (docs/performance.md, "Wave 33").
    const HISTORY_PER_HINT: i32 = 0;

    /// A cheap guess of how good `mv` is for the side to move (higher first), computed
    /// without playing it: Kalah's extra turns and captures, Dots and Boxes' completed and
    /// offered boxes, Gomoku's candidate ranking. Used for ordering by the full engine when
    /// [`Game::ORDER_HINTS`] is set.
    fn order_hint(&self, mv: Self::Move) -> i32 {
        let _ = mv;
        0
    }

    /// For exact solving only: the solve's first guess of the value (for MTD(f)) comes from
    /// iterations below this depth. Deeper guesses cost little and save whole passes in long
    /// proofs (Kalah), but can cost more than they save where the evaluation is a poor
    /// guide (Dots and Boxes 3x3: 1.5 M nodes with 6, 3.4 M with 16).
    const SOLVE_GUESS_DEPTH: u32 = 6;

    /// For exact solving only: whether the children of this position are worth looking up
    /// in the transposition table before any of them is searched (enhanced transposition
    /// cut-offs: one may already prove a cut-off). It costs a move and a probe per child, so
    /// it pays only where subtrees are large. The default is never.
    fn transposition_lookahead(&self) -> bool {
        false
    }

    /// For exact solving only: whether a node should start loading every child's table
    /// bucket and exact value ([`Game::prefetch_exact`]) before it searches the first, so
    /// that their cache misses overlap instead of coming one after another, with a
    /// transposition table of `table_bytes`. It costs a move per child; it pays where a
    /// solve waits on memory (a table much larger than the processor's caches, an endgame
    /// database) and loses where it does not (Dots and Boxes 3x3 with a 16 MiB table: 15 %
    /// slower). The default is never.
    fn prefetch_children(&self, _table_bytes: usize) -> bool {
        false
    }

    /// For exact solving only: fills `out` with legal moves among which some move is
    /// optimal in the game-theoretic sense (a rule such as "always take a free box"); the
    /// default is every legal move. Depth-limited searches never use it, since such rules
    /// hold for the true game value, not for evaluations at a horizon.
    fn solver_moves(&self, out: &mut Vec<Self::Move>) {
        self.legal_moves(out);
    }

    /// The most moves the game can still last, both sides' together, where the game knows
    /// it (the empty points of a board, the undrawn lines): a match clock spreads its time
    /// over no more moves than these. `None` (the default): no such bound (Kalah).
    fn moves_left(&self) -> Option<usize> {
        None
    }

    /// True when the game has its own threat search ([`Game::forced_win`],
    /// [`Game::leaf_forced_win`]); the full engine calls them only then, and only in a
    /// playing search (one with a candidate limit), never when solving.
    const THREATS: bool = false;

    /// A forced win for the side to move found by the game's own threat search (Gomoku:
    /// victory by continuous fours, then by threes and fours), proven against every defence
    /// and bounded by `nodes`, `deadline` and the caller's `stop`: the line from the winning
    /// move to the end of the game, the opponent's replies included (`None` proves nothing),
    /// and the nodes the search visited. The full engine asks this at the root and plays a
    /// line it gets at once.
    fn forced_win(
        &self,
        nodes: u64,
        deadline: Option<std::time::Instant>,
        stop: &limits::StopFlag,
    ) -> (Option<Vec<Self::Move>>, u64) {
        let _ = (nodes, deadline, stop);
        (None, 0)
    }

    /// For the root of a playing search: when the opponent would have a forced win if the
    /// side to move passed, the moves (among `candidates` best ones and any others the game
    /// knows to defend) after which the game's threat search finds no forced win for the
    /// opponent, bounded by `nodes`, `deadline` and the caller's `stop`. `None` when no threat
    /// is found or no move stops it; the engine then searches its usual moves.
    fn threat_defences(
        &self,
        candidates: usize,
        nodes: u64,
        deadline: Option<std::time::Instant>,
        stop: &limits::StopFlag,
    ) -> Option<Vec<Self::Move>> {
        let _ = (candidates, nodes, deadline, stop);
        None
    }

    /// A cheap forced-win check for the leaves of a playing search (Gomoku: a short search
    /// of continuous fours): the number of moves until the side to move has won, counting
    /// both sides' moves and the winning one. `None` proves nothing.
    fn leaf_forced_win(&mut self) -> Option<u32> {
        None
    }

    /// For the horizon of a playing search: when the side to move is forced to answer a
    /// threat (Gomoku: block a four) fills `out` with its only replies that do not lose
    /// at once, else leaves it empty. The full engine then searches
    /// those replies a few plies past the horizon (a quiescence search) instead of scoring
    /// the position as if the threat could not be answered. The default is never.
    fn forced_replies(&self, out: &mut Vec<Self::Move>) {
        out.clear();
    }

    /// Whether `mv` leaves a threat unanswered, and how far it is from where the play is:
    /// `None` when the side to move faces no threat it must soon answer, or `mv` answers it
    /// (Gomoku: the opponent has an open three or a four, and would make no four at `mv`);
    /// otherwise whether `mv` is far from the opponent's last move and from the mover's own.
    /// A playing search leaves such moves out near its horizon when far from both
    /// (distraction pruning, [`Neglect::is_distraction`]). The default is `None`.
    fn neglect(&self, mv: Self::Move) -> Option<Neglect> {
        let _ = mv;
        None
    }

    /// A heuristic score in words, for the scores a game gives a meaning of their own
    /// (Gomoku's "four to move" instead of `+500000`); `None` shows the number. Used by
    /// [`score::format`] for scores of win/loss games that are not decided.
    fn describe_score(score: i32) -> Option<String> {
        let _ = score;
        None
    }

    /// The number of distinct move indexes for this game's configuration.
    fn move_space(&self) -> usize;

    /// The move in the game's notation (`b2`, `h8`, pit `c`, edge `h1,2` ...).
    fn format_move(&self, mv: Self::Move) -> String;

    /// Reads a move in the game's notation. Does not check legality in this position.
    fn parse_move(&self, text: &str) -> Result<Self::Move, crate::error::ParseMoveError>;

    /// Plays `mv` if it is legal here, or says why not.
    fn try_play(&mut self, mv: Self::Move) -> Result<Self::Undo, IllegalMove> {
        if self.outcome().is_some() {
            return Err(IllegalMove {
                mv: self.format_move(mv),
                reason: "the game is over".to_string(),
            });
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if moves.contains(&mv) {
            Ok(self.play(mv))
        } else {
            Err(IllegalMove {
                mv: self.format_move(mv),
                reason: "not a legal move in this position".to_string(),
            })
        }
    }

    /// Parses and plays a whitespace-separated list of moves, refusing the first
    /// one that cannot be read or played with its 1-based index.
    fn play_line(&mut self, line: &str) -> Result<Vec<Self::Move>, MoveListError> {
        let mut played = Vec::new();
        for (i, text) in line.split_whitespace().enumerate() {
            let mv = self
                .parse_move(text)
                .map_err(|error| MoveListError::Parse {
                    index: i + 1,
                    text: text.to_string(),
                    error,
                })?;
            self.try_play(mv).map_err(|error| MoveListError::Illegal {
                index: i + 1,
                text: text.to_string(),
                error,
            })?;
            played.push(mv);
        }
        Ok(played)
    }
}

/// A static evaluation of positions, kept apart from the rules so a game can offer several
/// (chosen in the config and settled by tournament).
pub trait Evaluator<G: Game>: Send + Sync {
    /// A short name for logs and the UI.
    fn name(&self) -> &str;

    /// The value of a position that is not over, from the side to move's point of view, in
    /// the units of [`score`]: for margin games [`score::MARGIN_UNIT`] per point of margin,
    /// banked points included. Must stay within ±[`score::MAX_HEURISTIC`].
    fn evaluate(&self, game: &G) -> i32;

    /// Makes a search's own copy of the root position ready for this evaluator, once per
    /// search: a game may keep counts that only some evaluators read, and only when told to
    /// (Gomoku's point combinations: the evaluator that weighs them turns them on, so the
    /// engine never pays for them silently, and one that does not turns them off).
    fn prepare(&self, _game: &mut G) {}

    /// Reverse futility pruning's margin at a node `depth` moves from the horizon whose
    /// static value is `value`: a playing search's null-window test there that faces no
    /// threat fails high without a search when `value` is above beta by at least this much.
    /// `None` (the default): never. Margins are measurements of how far a search below
    /// such a node falls short of its static value, so they belong to the evaluator.
    fn futility_margin(&self, _depth: u32, _value: i32) -> Option<i32> {
        None
    }
}
