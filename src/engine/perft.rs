//! Perft: the number of move sequences of exactly `depth` moves from a position. It pins a
//! game's rules (move generation, extra turns, game end) and measures make/undo speed.
//! An extra turn is a move of its own; lines that end the game earlier are not counted.

use super::Game;
use super::limits::StopFlag;

/// Move sequences of exactly `depth` moves from `game`.
pub fn perft<G: Game>(game: &mut G, depth: u32) -> u64 {
    let mut buffers = vec![Vec::new(); depth as usize + 1];
    count(game, depth, &mut buffers, &|| false)
}

/// [`perft`] that `stop` ends (checked at nodes 3 or more moves from the end): the count so
/// far, and whether it completed.
pub fn perft_until<G: Game>(game: &mut G, depth: u32, stop: &StopFlag) -> (u64, bool) {
    let mut buffers = vec![Vec::new(); depth as usize + 1];
    let total = count(game, depth, &mut buffers, &|| stop.is_raised());
    (total, !stop.is_raised())
}

/// Perft per first move, in move-generation order ("divide"), to find where two move
/// generators disagree.
pub fn divide<G: Game>(game: &mut G, depth: u32) -> Vec<(G::Move, u64)> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if depth == 0 {
        return Vec::new();
    }
    let mut buffers = vec![Vec::new(); depth as usize];
    moves
        .into_iter()
        .map(|mv| {
            let undo = game.play(mv);
            let n = count(game, depth - 1, &mut buffers, &|| false);
            game.undo(mv, undo);
            (mv, n)
        })
        .collect()
}

/// The count under `game`; `stopped` is asked before each move of a node 3 or more moves
/// from the end (plain perft passes `|| false`, which compiles away).
fn count<G: Game, S: Fn() -> bool>(
    game: &mut G,
    depth: u32,
    buffers: &mut [Vec<G::Move>],
    stopped: &S,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 0;
    };
    game.legal_moves(moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        if depth >= 3 && stopped() {
            break;
        }
        let undo = game.play(mv);
        total += count(game, depth - 1, rest, stopped);
        game.undo(mv, undo);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tictactoe::TicTacToe;

    #[test]
    fn tictactoe_counts_per_depth() {
        // Lines of exactly n moves; finished games drop out (reference/tictactoe.md).
        let expected = [
            1, 9, 72, 504, 3_024, 15_120, 54_720, 148_176, 200_448, 127_872,
        ];
        for (depth, &n) in expected.iter().enumerate() {
            assert_eq!(
                perft(&mut TicTacToe::new(), depth as u32),
                n,
                "depth {depth}"
            );
        }
        let divided = divide(&mut TicTacToe::new(), 3);
        assert_eq!(divided.len(), 9);
        assert_eq!(divided.iter().map(|&(_, n)| n).sum::<u64>(), 504);
    }
}
