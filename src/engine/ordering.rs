//! Move ordering for the full engine: the transposition-table move first, then killer moves
//! (moves that caused a cut-off in a sibling node at the same ply), then the rest by the
//! static ordering key (the evaluation of the child) and by the history heuristic (how often
//! and how deep a move caused cut-offs anywhere). Every part can be switched off so its effect
//! on the tree size can be measured.
//!
//! Moves are sorted by one `i64` key: the TT move and killers get bands above every static
//! key, and within a band the static key dominates the history score.

use super::Player;

/// Which ordering techniques are on.
// Independent switches, each measured on its own: not a state machine.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderingSwitches {
    /// Sort by the static evaluation of each child.
    pub static_eval: bool,
    /// The move stored in the transposition table first.
    pub tt_move: bool,
    /// Two killer moves per ply.
    pub killers: bool,
    /// The history heuristic.
    pub history: bool,
}

/// The key band of the transposition-table move.
const TT_MOVE_KEY: i64 = 1 << 62;
/// The key bands of the two killer moves (the newer killer first).
const KILLER_KEYS: [i64; 2] = [1 << 61, 1 << 60];
/// Static keys are scores (at most about ±10^6); they are scaled above any history count.
const STATIC_SCALE: i64 = 1 << 24;
/// History counts are halved when one reaches this, keeping them below `STATIC_SCALE`.
const HISTORY_LIMIT: u32 = 1 << 22;

/// Killer moves per ply and history counts per (side, move index), owned by one search thread.
#[derive(Clone, Debug)]
pub struct OrderingTables {
    killers: Vec<[Option<u16>; 2]>,
    history: [Vec<u32>; 2],
}

impl OrderingTables {
    /// Empty tables for a game with `move_space` move indexes.
    pub fn new(move_space: usize) -> Self {
        Self {
            killers: Vec::new(),
            history: [vec![0; move_space], vec![0; move_space]],
        }
    }

    /// Forgets the killers (they are ply-relative, so they mean nothing for a new root) and
    /// ages the history.
    pub fn new_search(&mut self) {
        self.killers.clear();
        for side in &mut self.history {
            for h in side.iter_mut() {
                *h /= 8;
            }
        }
    }

    /// The killers of `ply`.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Option<u16>; 2] {
        self.killers.get(ply).copied().unwrap_or([None, None])
    }

    /// The history count of `side` playing the move with index `index`.
    #[inline]
    pub fn history(&self, side: Player, index: usize) -> u32 {
        self.history[side.index()].get(index).copied().unwrap_or(0)
    }

    /// Records that the move with index `index` caused a cut-off at `ply`, `depth` moves from
    /// the horizon, for `side`.
    #[inline]
    pub fn record_cutoff(&mut self, side: Player, index: usize, ply: usize, depth: u32) {
        if self.killers.len() <= ply {
            self.killers.resize(ply + 1, [None, None]);
        }
        let mv = index as u16;
        let slot = &mut self.killers[ply];
        if slot[0] != Some(mv) {
            slot[1] = slot[0];
            slot[0] = Some(mv);
        }
        let table = &mut self.history[side.index()];
        if let Some(h) = table.get_mut(index) {
            *h += depth * depth;
            if *h >= HISTORY_LIMIT {
                for x in table.iter_mut() {
                    *x /= 2;
                }
            }
        }
    }
}

/// The sort key of a move (higher first).
#[inline]
pub fn move_key(
    switches: OrderingSwitches,
    is_tt_move: bool,
    index: usize,
    killers: [Option<u16>; 2],
    static_key: i32,
    history: u32,
) -> i64 {
    let index = index as u16;
    if switches.tt_move && is_tt_move {
        return TT_MOVE_KEY;
    }
    let mut key = 0i64;
    if switches.static_eval {
        key += i64::from(static_key) * STATIC_SCALE;
    }
    if switches.history {
        key += i64::from(history);
    }
    if switches.killers {
        if killers[0] == Some(index) {
            return KILLER_KEYS[0] + key;
        }
        if killers[1] == Some(index) {
            return KILLER_KEYS[1] + key;
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: OrderingSwitches = OrderingSwitches {
        static_eval: true,
        tt_move: true,
        killers: true,
        history: true,
    };

    #[test]
    fn bands_are_ordered() {
        let k = |index, st, hist| move_key(ALL, index == 1, index, [Some(2), Some(3)], st, hist);
        let tt = k(1, -1000, 0);
        let killer0 = k(2, -1_000_000, 0);
        let killer1 = k(3, 1_000_000, 0);
        let best_static = k(4, 1_000_000, HISTORY_LIMIT);
        let worse_static = k(5, 999_999, HISTORY_LIMIT);
        assert!(tt > killer0 && killer0 > killer1 && killer1 > best_static);
        assert!(best_static > worse_static);
        assert!(k(6, 0, 10) > k(7, 0, 9), "history breaks static ties");
    }

    #[test]
    fn switches_turn_parts_off() {
        let none = OrderingSwitches {
            static_eval: false,
            tt_move: false,
            killers: false,
            history: false,
        };
        assert_eq!(move_key(none, true, 1, [Some(1), None], 50, 9), 0);
    }

    #[test]
    fn cutoffs_make_killers_and_history() {
        let mut t = OrderingTables::new(10);
        t.record_cutoff(Player::First, 4, 2, 3);
        t.record_cutoff(Player::First, 5, 2, 3);
        t.record_cutoff(Player::First, 5, 2, 3);
        assert_eq!(t.killers(2), [Some(5), Some(4)]);
        assert_eq!(t.killers(7), [None, None]);
        assert_eq!(t.history(Player::First, 5), 18);
        assert_eq!(t.history(Player::Second, 5), 0);
        t.new_search();
        assert_eq!(t.killers(2), [None, None]);
        assert_eq!(t.history(Player::First, 5), 2);
    }
}
