//! Kalah's evaluators: the store difference and linear functions of every pit and store.

use super::{Kalah, LinearWeights, MAX_PITS};
use crate::engine::score::{MARGIN_UNIT, MAX_HEURISTIC};
use crate::engine::{Evaluator, Game};

/// The default evaluator: the store difference, from the side to move, in
/// [`MARGIN_UNIT`]s per stone. It is exact once the game is over.
#[derive(Clone, Copy, Debug, Default)]
pub struct StoreEval;

impl Evaluator<Kalah> for StoreEval {
    fn name(&self) -> &'static str {
        "store"
    }

    #[inline]
    fn evaluate(&self, game: &Kalah) -> i32 {
        game.banked() * game.to_move.sign() * MARGIN_UNIT
    }
}

/// A weighted sum of every pit and both stores, from the side to move (see
/// [`LinearWeights`]). Weights are expanded per pit once, so evaluating never allocates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearEval {
    store: f64,
    opponent_store: f64,
    /// Weight by distance from the owner's store: `[0]` for the pit next to it.
    pits: [f64; MAX_PITS],
    opponent_pits: [f64; MAX_PITS],
}

fn expand(weights: &[f64]) -> [f64; MAX_PITS] {
    let mut out = [0.0; MAX_PITS];
    let mut last = 0.0;
    for (k, slot) in out.iter_mut().enumerate() {
        if let Some(&w) = weights.get(k) {
            last = w;
        }
        *slot = last;
    }
    out
}

impl LinearEval {
    /// The evaluator for these weights (lists shorter than 12 repeat their last weight).
    pub fn new(weights: &LinearWeights) -> Self {
        Self {
            store: weights.store,
            opponent_store: weights.opponent_store,
            pits: expand(&weights.pits),
            opponent_pits: expand(&weights.opponent_pits),
        }
    }
}

impl Evaluator<Kalah> for LinearEval {
    fn name(&self) -> &'static str {
        "linear"
    }

    fn evaluate(&self, game: &Kalah) -> i32 {
        let n = game.pit_count();
        let me = game.to_move;
        let them = me.other();
        let mut value = self.store * f64::from(game.store(me))
            + self.opponent_store * f64::from(game.store(them));
        let mine = game.hole_of(me, 0);
        let theirs = game.hole_of(them, 0);
        for k in 0..n {
            // k counts from the store: pit n-1-k from the owner's left.
            let i = n - 1 - k;
            value += self.pits[k] * f64::from(game.ring[mine + i])
                + self.opponent_pits[k] * f64::from(game.ring[theirs + i]);
        }
        // A saturating cast: absurd weights give ±i32::MAX, which the clamp then bounds.
        let scaled = (value * f64::from(MARGIN_UNIT)).round() as i32;
        scaled.clamp(-MAX_HEURISTIC, MAX_HEURISTIC)
    }
}

/// Kalah's evaluators.
// Built once per player and passed by reference: the size of a variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug)]
pub enum KalahEval {
    /// [`StoreEval`], the default.
    Store(StoreEval),
    /// [`LinearEval`] with the `linear` weights.
    Linear(LinearEval),
    /// [`LinearEval`] with the `tuned` weights.
    Tuned(LinearEval),
}

impl Evaluator<Kalah> for KalahEval {
    fn name(&self) -> &'static str {
        match self {
            Self::Store(_) => "store",
            Self::Linear(_) => "linear",
            Self::Tuned(_) => "tuned",
        }
    }

    #[inline]
    fn evaluate(&self, game: &Kalah) -> i32 {
        match self {
            Self::Store(e) => e.evaluate(game),
            Self::Linear(e) | Self::Tuned(e) => e.evaluate(game),
        }
    }
}
