//! Move ordering for the full engine: the transposition-table move first, then the rest by
//! the static ordering key (the game's hint or the evaluation of the child), and among moves
//! the static key finds equal, the killer moves (moves that caused a cut-off in a sibling
//! node at the same ply) and then the history heuristic (how often and how deep a move caused
//! cut-offs anywhere). Every part can be switched off so its effect on the tree size can be
//! measured.
//!
//! Killers rank below the static key, as quiet killers rank below captures in chess: a
//! Kalah pit or a Dots line that refuted a sibling position says less than "this move sows
//! into the store" (Kalah at depth 12 searched 98,827 nodes with killers above the static
//! key and 54,327 without killers at all).
//!
//! Moves are sorted by one `i64` key: the TT move gets a band above every static key; below
//! it the static key dominates the killer bonus, which dominates the history score.
//!
//! A game whose static key is a cheap hint of how good a move is ([`Game::ORDER_HINTS`]) can
//! also have a second, signed history added to that hint ([`Game::HISTORY_PER_HINT`];
//! Gomoku): at every node whose best move raised alpha, that move gains and the other moves
//! searched there lose, by a bonus growing with the depth, each value pulled back
//! towards 0 as it nears [`STAT_RANGE`] (history "with gravity", as in Stockfish and Rapfi).
//! Unlike the cut-off counts it says which moves have stopped being good.
//!
//! [`Game::ORDER_HINTS`]: crate::engine::Game::ORDER_HINTS
//! [`Game::HISTORY_PER_HINT`]: crate::engine::Game::HISTORY_PER_HINT
//!
//! The node search picks in stages: the table's move first, played before any other move is
//! generated when the game can say it is legal ([`crate::engine::Game::table_move`]); then
//! the others from a [`PickList`], which sorts only as far as moves are asked for.

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
/// History counts are halved when one reaches this.
const HISTORY_LIMIT: u32 = 1 << 22;
/// The bonuses of the two killer moves (the newer killer first), above any history count.
const KILLER_BONUS: [i64; 2] = [2 * HISTORY_LIMIT as i64 + 2, HISTORY_LIMIT as i64 + 1];
/// Static keys are scores (at most about ±10^6); they are scaled above killers and history.
const STATIC_SCALE: i64 = 1 << 24;

/// The signed history's bound: every value stays within ±`STAT_RANGE`.
pub const STAT_RANGE: i32 = 10_692;

/// The signed history's bonus (and malus) for a node `depth` moves from the horizon:
/// quadratic in the depth, nothing past 17 (Rapfi's `statBonus`), never beyond
/// [`STAT_RANGE`].
pub fn stat_bonus(depth: u32) -> i32 {
    if depth > 17 {
        return 0;
    }
    let d = depth as i32;
    (29 * d * d + 138 * d - 134).clamp(0, STAT_RANGE)
}

/// Killer moves per ply and history counts per (side, move index), owned by one search thread.
#[derive(Clone, Debug)]
pub struct OrderingTables {
    killers: Vec<[Option<u16>; 2]>,
    history: [Vec<u32>; 2],
    /// The signed history (see the module docs) per (side, move index).
    stats: [Vec<i32>; 2],
    /// Per ply, the indexes of the moves searched so far at the node there, for the signed
    /// history's malus.
    tried: Vec<Vec<u16>>,
}

impl OrderingTables {
    /// Empty tables for a game with `move_space` move indexes.
    pub fn new(move_space: usize) -> Self {
        Self {
            killers: Vec::new(),
            history: [vec![0; move_space], vec![0; move_space]],
            stats: [vec![0; move_space], vec![0; move_space]],
            tried: Vec::new(),
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
        for side in &mut self.stats {
            for v in side.iter_mut() {
                *v /= 2;
            }
        }
    }

    /// The signed history of `side` playing the move with index `index`.
    #[inline]
    pub fn stat(&self, side: Player, index: usize) -> i32 {
        self.stats[side.index()].get(index).copied().unwrap_or(0)
    }

    /// Starts the list of moves searched at the node at `ply`.
    #[inline]
    pub fn clear_tried(&mut self, ply: usize) {
        if self.tried.len() <= ply {
            self.tried.resize_with(ply + 1, Vec::new);
        }
        if let Some(tried) = self.tried.get_mut(ply) {
            tried.clear();
        }
    }

    /// Notes that the node at `ply` searched the move with index `index`.
    #[inline]
    pub fn push_tried(&mut self, ply: usize, index: usize) {
        if let Some(tried) = self.tried.get_mut(ply) {
            tried.push(index as u16);
        }
    }

    /// Records that the move with index `best` was the best of the node at `ply`, `depth`
    /// moves from the horizon, for `side`, and raised alpha: its signed history gains
    /// [`stat_bonus`] and every other move searched there loses as much, each
    /// change scaled down as the value nears [`STAT_RANGE`] in its direction.
    pub fn record_best(&mut self, side: Player, best: usize, ply: usize, depth: u32) {
        let bonus = stat_bonus(depth);
        let table = &mut self.stats[side.index()];
        let pull = |value: &mut i32, change: i32| {
            *value += change - *value * change.abs() / STAT_RANGE;
        };
        if let Some(value) = table.get_mut(best) {
            pull(value, bonus);
        }
        for &other in self.tried.get(ply).map_or(&[][..], Vec::as_slice) {
            let other = usize::from(other);
            if other != best
                && let Some(value) = table.get_mut(other)
            {
                pull(value, -bonus);
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
        key += i64::from(history.min(HISTORY_LIMIT));
    }
    if switches.killers {
        if killers[0] == Some(index) {
            key += KILLER_BONUS[0];
        } else if killers[1] == Some(index) {
            key += KILLER_BONUS[1];
        }
    }
    key
}

/// Picks after which the rest of a [`PickList`] is sorted at once: scanning for the best of
/// n moves n times would cost n² in nodes where every move is searched.
const SCANNED_PICKS: usize = 2;

/// The moves of a node with their sort keys ([`move_key`]), handed out best first and only
/// when asked for: the first picks each scan for the best remaining key, and the rest is
/// sorted only once those have not cut off. A node that cuts off on its first move does no
/// sorting. Equal keys come out in the order they were pushed (generation order), exactly
/// as from a stable sort, so that searches stay reproducible.
#[derive(Debug)]
pub struct PickList<M> {
    keyed: Vec<(i64, M)>,
    /// How many moves have been handed out (they are `keyed[..next]`, in that order).
    next: usize,
    sorted: bool,
}

impl<M: Copy> PickList<M> {
    /// An empty list in `buffer` (its contents are dropped, its room kept).
    pub fn new(mut buffer: Vec<(i64, M)>) -> Self {
        buffer.clear();
        Self {
            keyed: buffer,
            next: 0,
            sorted: false,
        }
    }

    /// Adds `mv` with the sort key `key`.
    #[inline]
    pub fn push(&mut self, key: i64, mv: M) {
        self.keyed.push((key, mv));
    }

    /// The number of moves in the list, handed out or not.
    pub fn len(&self) -> usize {
        self.keyed.len()
    }

    /// The number of moves not yet handed out.
    pub fn remaining(&self) -> usize {
        self.keyed.len().saturating_sub(self.next)
    }

    /// True when the list has no moves.
    pub fn is_empty(&self) -> bool {
        self.keyed.is_empty()
    }

    /// The best move not yet handed out.
    #[inline]
    pub fn pick(&mut self) -> Option<M> {
        let next = self.next;
        let rest = self.keyed.get_mut(next..)?;
        if rest.is_empty() {
            return None;
        }
        if !self.sorted {
            if next >= SCANNED_PICKS {
                rest.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
                self.sorted = true;
            } else {
                let mut top = 0;
                for (i, &(key, _)) in rest.iter().enumerate().skip(1) {
                    if key > rest[top].0 {
                        top = i;
                    }
                }
                // Shifting the ones before it keeps the others in their order: a stable
                // selection. Most often the best is already first.
                if top > 0 {
                    let best = rest[top];
                    for i in (0..top).rev() {
                        rest[i + 1] = rest[i];
                    }
                    rest[0] = best;
                }
            }
        }
        self.next += 1;
        Some(rest[0].1)
    }

    /// Hands out every remaining move, best first, into `out` (after what it holds).
    pub fn drain_into(&mut self, out: &mut Vec<M>) {
        while let Some(mv) = self.pick() {
            out.push(mv);
        }
    }

    /// The buffer back, for the next node at the same ply.
    pub fn into_buffer(self) -> Vec<(i64, M)> {
        self.keyed
    }
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
    fn the_best_move_gains_and_the_other_moves_tried_lose() {
        let mut t = OrderingTables::new(10);
        t.clear_tried(3);
        // One move tried before the best and one after it: both lose.
        for index in [4, 2, 7] {
            t.push_tried(3, index);
        }
        t.record_best(Player::First, 2, 3, 6);
        let bonus = stat_bonus(6);
        assert!(bonus > 0);
        assert_eq!(t.stat(Player::First, 2), bonus);
        assert_eq!(t.stat(Player::First, 4), -bonus);
        assert_eq!(t.stat(Player::First, 7), -bonus);
        assert_eq!(t.stat(Player::First, 5), 0, "not tried: unchanged");
        assert_eq!(t.stat(Player::Second, 2), 0, "the other side's table");
        // Only this node's list: another ply's moves are not touched.
        t.clear_tried(4);
        t.push_tried(4, 5);
        t.record_best(Player::First, 2, 3, 6);
        assert_eq!(t.stat(Player::First, 5), 0);
        assert!(t.stat(Player::First, 2) > bonus, "a second bonus adds");
        // A new search halves the values.
        let before = t.stat(Player::First, 4);
        t.new_search();
        assert_eq!(t.stat(Player::First, 4), before / 2);
    }

    #[test]
    fn gravity_keeps_the_signed_history_within_its_range() {
        let mut t = OrderingTables::new(4);
        for _ in 0..1_000 {
            t.clear_tried(0);
            t.push_tried(0, 1);
            t.push_tried(0, 0);
            t.record_best(Player::Second, 0, 0, 17);
        }
        let (up, down) = (t.stat(Player::Second, 0), t.stat(Player::Second, 1));
        assert!((STAT_RANGE * 9 / 10 + 1..=STAT_RANGE).contains(&up), "{up}");
        assert!(
            (-STAT_RANGE..-STAT_RANGE * 9 / 10).contains(&down),
            "{down}"
        );
        // Past the bonus's last depth nothing changes; the bonus grows with the depth.
        assert_eq!(stat_bonus(18), 0);
        assert!((1..17).all(|d| stat_bonus(d + 1) > stat_bonus(d)));
        assert!(stat_bonus(17) <= STAT_RANGE);
        // Out-of-range indexes are ignored, not a panic.
        t.push_tried(9, 3);
        t.record_best(Player::First, 99, 9, 5);
        assert_eq!(t.stat(Player::First, 99), 0);
    }

    #[test]
    fn bands_are_ordered() {
        let k = |index, st, hist| move_key(ALL, index == 1, index, [Some(2), Some(3)], st, hist);
        let tt = k(1, 1_000_000, HISTORY_LIMIT);
        let killer0 = k(2, 5, 0);
        let killer1 = k(3, 5, 0);
        let quiet = k(4, 5, HISTORY_LIMIT);
        let better_static = k(5, 6, 0);
        assert!(tt > better_static && better_static > killer0);
        assert!(
            killer0 > killer1 && killer1 > quiet,
            "killers above history"
        );
        assert!(
            k(6, 0, 10) > k(7, 0, 9),
            "history breaks the remaining ties"
        );
        assert!(
            k(1, -1_000_000, 0) > k(8, 1_000_000, HISTORY_LIMIT),
            "the TT move first"
        );
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
    fn picks_come_out_as_from_a_stable_sort() {
        let keys = [3i64, 9, 1, 9, 3, 7, 9, 0, 3];
        let mut expected: Vec<(i64, usize)> = keys.iter().copied().zip(0..).collect();
        expected.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        let expected: Vec<usize> = expected.into_iter().map(|(_, i)| i).collect();
        // Any number of single picks, then the rest at once.
        for singles in 0..=keys.len() {
            let mut list = PickList::new(vec![(5, 99)]);
            for (i, &key) in keys.iter().enumerate() {
                list.push(key, i);
            }
            assert_eq!(list.len(), keys.len());
            let mut got: Vec<usize> = (0..singles).filter_map(|_| list.pick()).collect();
            list.drain_into(&mut got);
            assert_eq!(got, expected, "{singles} single picks");
            assert_eq!(list.pick(), None);
        }
        let mut empty = PickList::<u8>::new(Vec::new());
        assert!(empty.is_empty());
        assert_eq!(empty.pick(), None);
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
