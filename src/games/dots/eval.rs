//! Dots and Boxes' evaluators.

use super::Dots;
use crate::engine::score::MARGIN_UNIT;
use crate::engine::{Evaluator, Game};

/// Dots and Boxes evaluators, from the side to move, in [`MARGIN_UNIT`]s per box.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DotsEval {
    /// `score`: the box difference so far. Exact once the game is over; blind to boxes that
    /// are about to fall.
    Score,
    /// `chains`: the box difference plus every box the side to move can take at once
    /// ([`Dots::takeable_boxes`]: boxes with three sides drawn and the chains behind them).
    /// A line that hands the opponent a box thus looks as bad as it is one move earlier,
    /// which also orders moves better. It ignores that the taker must move again afterwards
    /// and may have to open a chain: exact when taking everything ends the game. The
    /// default since wave 54: at 200 ms a move on 5x5 it beat `score` 17 - 3 in 20 games, on
    /// 3x3 21 - 19 in 40 (docs/performance.md, "Wave 54").
    #[default]
    Chains,
}

impl Evaluator<Dots> for DotsEval {
    fn name(&self) -> &'static str {
        match self {
            Self::Score => "score",
            Self::Chains => "chains",
        }
    }

    fn evaluate(&self, game: &Dots) -> i32 {
        let margin = game.banked() * game.to_move().sign();
        let boxes = match self {
            Self::Score => margin,
            Self::Chains => margin + game.takeable_boxes() as i32,
        };
        // At most 81 boxes: far inside the heuristic range.
        boxes * MARGIN_UNIT
    }
}
