//! One of our games with the crate's forced passes, for our engine: after a move that keeps
//! the turn (Kalah's last stone in the own store, a completed box), the opponent must play a
//! pass, a move and a ply of its own, exactly as the adapter shows the game to the crate.
//! Our engine searching `Passing<G>` to a depth therefore searches the tree that the crate
//! searches to the same depth: the like-for-like row of the iterative group. Without it, our
//! depth counts only real moves and looks further ahead than the crate at the same nominal
//! depth in Kalah.

use gametree::engine::{Evaluator, Game, Outcome, Player, Scoring};
use gametree::error::ParseMoveError;

use crate::adapter::Adaptable;

/// Keys the pass-pending positions apart (the adapter's value).
const PASS_KEY: u64 = 0x9E37_79B9_7F4A_7C15;

/// `G` with a forced pass after every extra turn.
#[derive(Clone, Debug)]
pub struct Passing<G> {
    game: G,
    /// The side to move must pass: `game.to_move()` has just moved and moves again.
    pass_pending: bool,
}

impl<G> Passing<G> {
    pub fn new(game: G) -> Self {
        Self {
            game,
            pass_pending: false,
        }
    }
}

impl<G: std::fmt::Display> std::fmt::Display for Passing<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.game.fmt(f)?;
        if self.pass_pending {
            write!(f, "\n(the side to move passes)")?;
        }
        Ok(())
    }
}

/// What undoes a move of [`Passing`].
pub enum PassingUndo<U> {
    /// A pass: the pass is pending again.
    Pass,
    /// A real move, with the game's undo.
    Move(U),
}

impl<G: Adaptable> Game for Passing<G> {
    type Move = G::Move;
    type Undo = PassingUndo<G::Undo>;
    const SCORING: Scoring = G::SCORING;
    const ORDER_HINTS: bool = G::ORDER_HINTS;
    const CUTOFF_ORDERING: bool = G::CUTOFF_ORDERING;

    #[inline]
    fn to_move(&self) -> Player {
        if self.pass_pending {
            self.game.to_move().other()
        } else {
            self.game.to_move()
        }
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<G::Move>) {
        if self.pass_pending {
            out.clear();
            out.push(G::PASS);
        } else {
            self.game.legal_moves(out);
        }
    }

    #[inline]
    fn play(&mut self, mv: G::Move) -> Self::Undo {
        if self.pass_pending {
            self.pass_pending = false;
            return PassingUndo::Pass;
        }
        let mover = self.game.to_move();
        let undo = self.game.play(mv);
        self.pass_pending = self.game.outcome().is_none() && self.game.to_move() == mover;
        PassingUndo::Move(undo)
    }

    #[inline]
    fn undo(&mut self, mv: G::Move, undo: Self::Undo) {
        match undo {
            PassingUndo::Pass => self.pass_pending = true,
            PassingUndo::Move(undo) => {
                self.pass_pending = false;
                self.game.undo(mv, undo);
            }
        }
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.game.hash() ^ if self.pass_pending { PASS_KEY } else { 0 }
    }

    fn hash_from_scratch(&self) -> u64 {
        self.game.hash_from_scratch() ^ if self.pass_pending { PASS_KEY } else { 0 }
    }

    #[inline]
    fn banked(&self) -> i32 {
        self.game.banked()
    }

    #[inline]
    fn unbanked(&self) -> Option<i32> {
        self.game.unbanked()
    }

    #[inline]
    fn move_index(&self, mv: G::Move) -> usize {
        if mv == G::PASS {
            self.game.move_space()
        } else {
            self.game.move_index(mv)
        }
    }

    #[inline]
    fn table_move_index_in(&self, orientation: usize, mv: G::Move) -> usize {
        if mv == G::PASS {
            self.game.move_space()
        } else {
            self.game.table_move_index_in(orientation, mv)
        }
    }

    #[inline]
    fn table_orientation(&self) -> usize {
        self.game.table_orientation()
    }

    #[inline]
    fn table_move(&self, orientation: usize, index: usize, solving: bool) -> Option<G::Move> {
        if self.pass_pending {
            (index == self.game.move_space()).then_some(G::PASS)
        } else {
            self.game.table_move(orientation, index, solving)
        }
    }

    #[inline]
    fn order_hint(&self, mv: G::Move) -> i32 {
        if mv == G::PASS {
            0
        } else {
            self.game.order_hint(mv)
        }
    }

    fn move_space(&self) -> usize {
        self.game.move_space() + 1
    }

    fn format_move(&self, mv: G::Move) -> String {
        if mv == G::PASS {
            "pass".to_string()
        } else {
            self.game.format_move(mv)
        }
    }

    fn parse_move(&self, text: &str) -> Result<G::Move, ParseMoveError> {
        self.game.parse_move(text)
    }
}

/// An evaluator of `G` for [`Passing`]: while a pass is pending, the side to move is the
/// other one, so the value changes sign (as the adapter's evaluator does for the crate).
#[derive(Clone, Copy)]
pub struct PassingEval<E>(pub E);

impl<G: Adaptable, E: Evaluator<G>> Evaluator<Passing<G>> for PassingEval<E> {
    fn name(&self) -> &str {
        self.0.name()
    }

    #[inline]
    fn evaluate(&self, game: &Passing<G>) -> i32 {
        let value = self.0.evaluate(&game.game);
        if game.pass_pending { -value } else { value }
    }
}
