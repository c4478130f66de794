//! Helpers shared by the integration tests: random positions, games built from options, an
//! evaluator made of noise, and the extra-turn check.

#![allow(dead_code, clippy::unwrap_used)]

use gametree::engine::score::MARGIN_UNIT;
use gametree::engine::{Evaluator, Game, Scoring};
use gametree::games::dots::{Dots, DotsOptions};
use gametree::games::kalah::{Kalah, KalahOptions};
use gametree::games::{GameOptions, Playable};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// A deterministic evaluator with many ties: independent of evaluation quality, it makes
/// agreement failures show up as wrong values rather than hide behind distinct scores. For
/// margin games it is the banked margin plus noise that depends on the hashed position only,
/// as the full engine's table requires of an evaluator (what is still to be won may not
/// depend on points already banked).
pub struct NoiseEval;

impl<G: Game> Evaluator<G> for NoiseEval {
    fn name(&self) -> &'static str {
        "noise"
    }
    fn evaluate(&self, game: &G) -> i32 {
        let noise = (game.hash() % 7) as i32 * 10 - 30;
        match G::SCORING {
            Scoring::WinLoss => noise,
            Scoring::Margin => game.banked() * game.to_move().sign() * MARGIN_UNIT + noise,
        }
    }
}

/// Plays `plies` random moves from `game` (stopping at the end), returning the position.
pub fn random_position<G: Game>(mut game: G, plies: usize, seed: u64) -> G {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.random_range(0..moves.len())]);
    }
    game
}

/// Kalah with `pits` pits of `stones` stones and the given capture rule.
pub fn kalah(pits: u32, stones: u32, empty_capture: bool) -> Kalah {
    let mut options = KalahOptions::default();
    options.set("pits", &pits.to_string()).unwrap();
    options.set("stones", &stones.to_string()).unwrap();
    options
        .set("empty_capture", &empty_capture.to_string())
        .unwrap();
    Kalah::new_game(&options)
}

/// Dots and Boxes with `rows` x `cols` boxes.
pub fn dots(rows: u32, cols: u32) -> Dots {
    let mut options = DotsOptions::default();
    options.set("rows", &rows.to_string()).unwrap();
    options.set("cols", &cols.to_string()).unwrap();
    Dots::new_game(&options)
}

/// Does some line of at most `depth` moves from `game` let a player move twice in a row?
pub fn extra_turn_within<G: Game>(game: &mut G, depth: u32) -> bool {
    if depth == 0 || game.outcome().is_some() {
        return false;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.into_iter().any(|mv| {
        let mover = game.to_move();
        let undo = game.play(mv);
        let found = game.to_move() == mover || extra_turn_within(game, depth - 1);
        game.undo(mv, undo);
        found
    })
}
