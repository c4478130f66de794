//! Our games behind the `minimax` crate's traits, so that both search frameworks run on the
//! same move generation, make/undo and evaluation: the comparison is about the searches.
//!
//! Two places where the crate's traits force a different shape:
//! - Its `undo(state, move)` gets only the move, while our `undo` needs what `play` returned.
//!   The adapted state therefore keeps our undo values on a stack (a `Vec` push per move and
//!   a pop per undo: that bookkeeping is charged to the crate's side).
//! - It has no extra turns: its negamax negates at every ply. After a move that keeps the
//!   turn (Kalah's last stone in the own store, a completed box) the opponent gets a forced
//!   pass, as the crate's own mancala example does. A pass is a node and a ply of its search.

use std::cell::Cell;
use std::marker::PhantomData;

use gametree::engine::{Evaluator, Game, Outcome, Player};
use gametree::games::dots::Dots;
use gametree::games::gomoku::Gomoku;
use gametree::games::kalah::Kalah;
use gametree::games::tictactoe::TicTacToe;
use minimax::{BEST_EVAL, Evaluation, Winner};

/// One of our games, plus what the adapter needs to know about it.
pub trait Adaptable: Game<Undo: Clone> {
    /// A value that is never a legal move: the forced pass after an extra turn.
    const PASS: Self::Move;
    /// Whether a player can move twice in a row; without, the pass logic compiles away.
    const EXTRA_TURNS: bool;
}

impl Adaptable for TicTacToe {
    const PASS: u8 = u8::MAX;
    const EXTRA_TURNS: bool = false;
}

impl Adaptable for Gomoku {
    const PASS: u16 = u16::MAX;
    const EXTRA_TURNS: bool = false;
}

impl Adaptable for Kalah {
    const PASS: u8 = u8::MAX;
    const EXTRA_TURNS: bool = true;
}

impl Adaptable for Dots {
    const PASS: u8 = u8::MAX;
    const EXTRA_TURNS: bool = true;
}

/// The crate's game state: our position, the pending forced pass, and our undo values.
#[derive(Clone)]
pub struct State<G: Adaptable> {
    pub game: G,
    /// The side to move in the crate's view must pass: `game.to_move()` just moved and
    /// moves again.
    pass_pending: bool,
    undos: Vec<G::Undo>,
}

impl<G: Adaptable> State<G> {
    pub fn new(game: G) -> Self {
        Self {
            game,
            pass_pending: false,
            undos: Vec::with_capacity(64),
        }
    }

    /// Whose turn it is in the crate's view (the passer while a pass is pending).
    fn to_move(&self) -> Player {
        if G::EXTRA_TURNS && self.pass_pending {
            self.game.to_move().other()
        } else {
            self.game.to_move()
        }
    }
}

/// Keys the pass-pending states apart from the same position with the turn kept.
const PASS_KEY: u64 = 0x9E37_79B9_7F4A_7C15;

thread_local! {
    static APPLIED: Cell<u64> = const { Cell::new(0) };
    static PASSES: Cell<u64> = const { Cell::new(0) };
}

/// How many moves the counting adapter applied since the last call, and how many of them
/// were forced passes.
pub fn take_applied() -> (u64, u64) {
    (APPLIED.replace(0), PASSES.replace(0))
}

/// The rules as the crate sees them. With `COUNT`, every `apply` is counted (see
/// [`take_applied`]); the timed runs use `COUNT = false`, which costs nothing.
pub struct Rules<G, const COUNT: bool>(PhantomData<G>);

impl<G: Adaptable, const COUNT: bool> minimax::Game for Rules<G, COUNT> {
    type S = State<G>;
    type M = G::Move;

    fn generate_moves(state: &State<G>, moves: &mut Vec<G::Move>) -> Option<Winner> {
        if G::EXTRA_TURNS && state.pass_pending {
            moves.clear();
            let winner = Self::get_winner(state);
            if winner.is_none() {
                moves.push(G::PASS);
            }
            return winner;
        }
        // Our contract: no legal moves exactly when the game is over.
        state.game.legal_moves(moves);
        if moves.is_empty() {
            Self::get_winner(state)
        } else {
            None
        }
    }

    fn apply(state: &mut State<G>, mv: G::Move) -> Option<State<G>> {
        if COUNT {
            APPLIED.set(APPLIED.get() + 1);
        }
        if G::EXTRA_TURNS && state.pass_pending {
            if COUNT {
                PASSES.set(PASSES.get() + 1);
            }
            state.pass_pending = false;
            return None;
        }
        let mover = state.game.to_move();
        let undo = state.game.play(mv);
        state.undos.push(undo);
        if G::EXTRA_TURNS {
            state.pass_pending = state.game.to_move() == mover;
        }
        None
    }

    fn undo(state: &mut State<G>, mv: G::Move) {
        if G::EXTRA_TURNS && mv == G::PASS {
            state.pass_pending = true;
            return;
        }
        state.pass_pending = false;
        if let Some(undo) = state.undos.pop() {
            state.game.undo(mv, undo);
        }
    }

    fn get_winner(state: &State<G>) -> Option<Winner> {
        Some(match state.game.outcome()? {
            Outcome::Draw => Winner::Draw,
            Outcome::Win { winner, .. } if winner == state.to_move() => Winner::PlayerToMove,
            Outcome::Win { .. } => Winner::PlayerJustMoved,
        })
    }

    fn zobrist_hash(state: &State<G>) -> u64 {
        if G::EXTRA_TURNS && state.pass_pending {
            state.game.hash() ^ PASS_KEY
        } else {
            state.game.hash()
        }
    }
}

/// One of our evaluators as the crate's evaluator: the same function, from the crate's side
/// to move, squeezed into its `i16` by [`to_evaluation`].
pub struct Eval<G, E, const COUNT: bool> {
    inner: E,
    game: PhantomData<G>,
}

impl<G, E, const COUNT: bool> Eval<G, E, COUNT> {
    pub fn new(inner: E) -> Self {
        Self {
            inner,
            game: PhantomData,
        }
    }
}

impl<G: Adaptable, E: Evaluator<G>, const COUNT: bool> minimax::Evaluator for Eval<G, E, COUNT> {
    type G = Rules<G, COUNT>;

    fn evaluate(&self, state: &State<G>) -> Evaluation {
        let value = self.inner.evaluate(&state.game);
        // While a pass is pending our evaluator speaks for the player about to move again,
        // who is the crate's player just moved.
        to_evaluation(if G::EXTRA_TURNS && state.pass_pending {
            -value
        } else {
            value
        })
    }
}

/// Our scores (up to ±999,000) in the crate's `i16`, in the same order: unchanged up to
/// ±16,384, which covers every Tic-tac-toe, Kalah and Dots and Boxes value and ordinary Gomoku
/// ones, and 64 times flatter beyond (Gomoku's four-to-move and open-four values), staying
/// clear of the crate's win band within 100 of `i16::MAX`.
pub fn to_evaluation(value: i32) -> Evaluation {
    const KNEE: i32 = 16_384;
    const LIMIT: i32 = BEST_EVAL as i32 - 101;
    let squeezed = if value.abs() <= KNEE {
        value
    } else {
        value.signum() * (KNEE + (value.abs() - KNEE) / 64)
    };
    squeezed.clamp(-LIMIT, LIMIT) as Evaluation
}

/// Perft through the crate's trait methods, as the crate's own `perft` walks them
/// (`generate_moves`, then `apply` and `undo` per move, move lists from a pool, the last ply
/// counted from the list's length), except that a forced pass spends no depth: an extra
/// turn is a move of its own in our perft, so both sides count exactly the same lines.
pub fn perft<G: Adaptable>(state: &mut State<G>, depth: u32, pool: &mut Vec<Vec<G::Move>>) -> u64 {
    type R<G> = Rules<G, false>;
    if depth == 0 {
        return 1;
    }
    let mut moves = pool.pop().unwrap_or_default();
    if <R<G> as minimax::Game>::generate_moves(state, &mut moves).is_some() {
        pool.push(moves);
        return 0;
    }
    let count = if G::EXTRA_TURNS && moves.first() == Some(&G::PASS) {
        let _ = <R<G> as minimax::Game>::apply(state, G::PASS);
        let n = perft(state, depth, pool);
        <R<G> as minimax::Game>::undo(state, G::PASS);
        n
    } else if depth == 1 {
        moves.len() as u64
    } else {
        let mut total = 0;
        for &mv in &moves {
            // The adapter always updates in place, so `apply` returns `None`.
            let _ = <R<G> as minimax::Game>::apply(state, mv);
            total += perft(state, depth - 1, pool);
            <R<G> as minimax::Game>::undo(state, mv);
        }
        total
    };
    moves.clear();
    pool.push(moves);
    count
}
