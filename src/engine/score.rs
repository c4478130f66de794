//! Search scores: plain `i32`s from the side to move's point of view, with a band at the top
//! and bottom for won and lost games that records how far away the end is.

use super::{Evaluator, Game, Outcome, Player, Scoring};

/// The score of a win found at the root itself; a win `n` moves ahead scores `WIN - n`.
pub const WIN: i32 = 1_000_000;
/// Larger than any score: the initial window is `[-INFINITY, INFINITY]`.
pub const INFINITY: i32 = WIN + 1;
/// The deepest search any game here can need (Gomoku 20x20 has 400 moves).
pub const MAX_PLY: i32 = 1_000;
/// Scores beyond this (in absolute value) are wins or losses, not heuristic estimates.
pub const WIN_THRESHOLD: i32 = WIN - MAX_PLY;
/// Evaluators must stay within ±this.
pub const MAX_HEURISTIC: i32 = WIN_THRESHOLD - 1;
/// Score units per point of margin (one Kalah stone, one box). Evaluators of margin games
/// work in the same units, which leaves room for fractions of a stone.
pub const MARGIN_UNIT: i32 = 100;

/// True when `score` means a forced win or loss rather than an estimate.
pub fn is_decisive(score: i32) -> bool {
    score.abs() > WIN_THRESHOLD
}

/// The score of a finished game for the side `to_move`, `ply` moves below the root.
pub fn terminal<G: Game>(outcome: Outcome, to_move: Player, ply: u32) -> i32 {
    let value = outcome.value_for(to_move);
    match G::SCORING {
        Scoring::WinLoss => match value.signum() {
            1 => WIN - ply as i32,
            -1 => -(WIN - ply as i32),
            _ => 0,
        },
        Scoring::Margin => value * MARGIN_UNIT,
    }
}

/// `evaluator`'s value of `game` (not over), from the side to move. For margin games it is
/// clamped to what can still happen: the banked margin plus or minus every unbanked point
/// ([`Game::unbanked`]). Every search evaluates through here, so they agree with each other
/// and the full engine may prune by those bounds.
#[inline]
pub fn evaluate<G: Game, E: Evaluator<G>>(evaluator: &E, game: &G) -> i32 {
    let value = evaluator.evaluate(game);
    match margin_range(game) {
        Some((low, high)) => value.clamp(low, high),
        None => value,
    }
}

/// For margin games that know their unbanked points: the lowest and highest scores the side
/// to move can still end with.
#[inline]
pub fn margin_range<G: Game>(game: &G) -> Option<(i32, i32)> {
    if G::SCORING != Scoring::Margin {
        return None;
    }
    let banked = game.banked() * game.to_move().sign();
    let open = game.unbanked()?;
    Some(((banked - open) * MARGIN_UNIT, (banked + open) * MARGIN_UNIT))
}

/// The game value a score stands for, in the game's own units: +1/0/-1 for win/loss games,
/// the margin for margin games. Heuristic scores of win/loss games map to 0.
pub fn game_value<G: Game>(score: i32) -> i32 {
    match G::SCORING {
        Scoring::WinLoss => {
            if is_decisive(score) {
                score.signum()
            } else {
                0
            }
        }
        Scoring::Margin => div_round(score, MARGIN_UNIT),
    }
}

fn div_round(a: i32, b: i32) -> i32 {
    if a >= 0 {
        (a + b / 2) / b
    } else {
        -((-a + b / 2) / b)
    }
}

/// A score as a person reads it: `+3.50` stones for margin games, `win in 5` / `loss in 4`
/// for decided win/loss positions, the raw estimate otherwise.
pub fn format<G: Game>(score: i32) -> String {
    if is_decisive(score) && G::SCORING == Scoring::WinLoss {
        let plies = WIN - score.abs();
        if score > 0 {
            format!("win in {plies}")
        } else {
            format!("loss in {plies}")
        }
    } else {
        match G::SCORING {
            Scoring::Margin if score % MARGIN_UNIT == 0 => format!("{:+}", score / MARGIN_UNIT),
            Scoring::Margin => format!("{:+.2}", f64::from(score) / f64::from(MARGIN_UNIT)),
            Scoring::WinLoss => G::describe_score(score).unwrap_or_else(|| format!("{score:+}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_is_symmetric() {
        assert_eq!(div_round(250, 100), 3);
        assert_eq!(div_round(-250, 100), -3);
        assert_eq!(div_round(-149, 100), -1);
        assert_eq!(div_round(0, 100), 0);
    }

    #[test]
    fn decisive_band() {
        assert!(is_decisive(WIN - 5));
        assert!(is_decisive(-(WIN - 5)));
        assert!(!is_decisive(MAX_HEURISTIC));
    }
}
