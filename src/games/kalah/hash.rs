//! Kalah's position hash: a linear sum of stones times keys over the pits, kept in both
//! players' views so that a sowing, a capture and the end sweep update it in constant time.

use super::{Kalah, MAX_PITS, Pit, RING};
use crate::games::zobrist_keys;

/// Hash keys of the pits: `BASE[side][i]` for side `side`'s pit `i`. The hash is linear,
/// `sum of stones x key` over the pits (wrapping), so that a sowing, which adds a stone to a
/// run of holes, updates it from prefix sums in constant time. Odd keys keep every stone
/// count apart. Stores are not hashed (see [`Game::banked`](crate::engine::Game::banked)).
static BASE: [[u64; MAX_PITS]; 2] = {
    let keys: [u64; 2 * MAX_PITS] = zobrist_keys(3);
    let mut base = [[0; MAX_PITS]; 2];
    let mut i = 0;
    while i < MAX_PITS {
        base[0][i] = keys[i] | 1;
        base[1][i] = keys[MAX_PITS + i] | 1;
        i += 1;
    }
    base
};

/// The two views of a position's hash: view 0 as it stands, view 1 with the sides' roles
/// swapped. [`Game::hash`](crate::engine::Game::hash) is the view of the side to move, so a position and its mirror
/// image with the other side to move (the same game from the mover's seat) hash alike and
/// share a transposition-table entry. No key for the side to move is needed.
pub(super) const VIEWS: usize = 2;

/// Per board size, mover and view: prefix sums of the keys along the mover's sowing cycle
/// (its pits, its store, the opponent's pits), `CYCLE_KEYS[n][mover][view][step]` being the
/// sum over the first `step` holes of the cycle.
pub(super) type CycleKeys = [[[u64; RING]; VIEWS]; 2];

pub(super) static CYCLE_KEYS: std::sync::LazyLock<Vec<CycleKeys>> =
    std::sync::LazyLock::new(|| {
        (0..=MAX_PITS)
            .map(|n| {
                let mut table = [[[0; RING]; VIEWS]; 2];
                for (mover, views) in table.iter_mut().enumerate() {
                    for (view, prefix) in views.iter_mut().enumerate() {
                        let mut sum = 0u64;
                        for step in 0..=(2 * n) {
                            prefix[step] = sum;
                            let key = match step.cmp(&n) {
                                std::cmp::Ordering::Less => BASE[mover ^ view][step],
                                std::cmp::Ordering::Equal => 0,
                                std::cmp::Ordering::Greater => BASE[mover ^ 1 ^ view][step - n - 1],
                            };
                            sum = sum.wrapping_add(key);
                        }
                        if n > 0 {
                            prefix[2 * n + 1] = sum;
                        }
                    }
                }
                table
            })
            .collect()
    });

impl Kalah {
    /// The key of ring hole `hole` (a pit) in view `view`.
    #[inline]
    pub(super) fn pit_key(&self, hole: usize, view: usize) -> u64 {
        let n = self.pit_count();
        let (side, i) = if hole < n {
            (0, hole)
        } else {
            (1, hole - n - 1)
        };
        BASE[side ^ view][i]
    }

    /// The hash of the stones in the pits, in both views, computed from nothing.
    pub(super) fn hashes_from_scratch(&self) -> [u64; VIEWS] {
        let n = self.pit_count();
        let mut hashes = [0u64; VIEWS];
        for (view, h) in hashes.iter_mut().enumerate() {
            for hole in (0..n).chain(n + 1..=2 * n) {
                *h = h.wrapping_add(
                    u64::from(self.ring[hole]).wrapping_mul(self.pit_key(hole, view)),
                );
            }
        }
        hashes
    }

    /// Empties the mover's pit at step `step` of its sowing cycle (ring hole `own`) and the
    /// opponent's pit facing it (ring hole `facing`, step `2n - step`), keeping the hash: a
    /// capture. The keys are differences of the cycle's prefix sums.
    #[inline]
    pub(super) fn empty_pits(&mut self, step: usize, own: usize, facing: usize) {
        let n = self.pit_count();
        let own_stones = u64::from(self.ring[own]);
        let facing_stones = u64::from(self.ring[facing]);
        let facing_step = 2 * n - step;
        for view in 0..VIEWS {
            let prefix = &self.cycle_keys[self.to_move.index()][view];
            let own_key = prefix[step + 1].wrapping_sub(prefix[step]);
            let facing_key = prefix[facing_step + 1].wrapping_sub(prefix[facing_step]);
            self.hashes[view] = self.hashes[view]
                .wrapping_sub(own_stones.wrapping_mul(own_key))
                .wrapping_sub(facing_stones.wrapping_mul(facing_key));
        }
        self.ring[own] = 0;
        self.ring[facing] = 0;
    }

    /// Moves the hash along a sowing by the side to move from its pit `mv` (step `mv` of its
    /// cycle) of `stones` stones: `laps` into every hole of the cycle, then one into each of
    /// the `rest` holes after the origin.
    #[inline]
    pub(super) fn hash_sowing(&mut self, mv: Pit, stones: u16, laps: u16, rest: usize) {
        let cycle = 2 * self.pit_count() + 1;
        // The ring moved by exactly these amounts, and the hash is linear in the stones.
        let origin = mv as usize;
        let first = origin + 1;
        let last = origin + rest; // inclusive; may pass the end of the cycle
        for view in 0..VIEWS {
            let prefix = &self.cycle_keys[self.to_move.index()][view];
            let origin_key = prefix[first].wrapping_sub(prefix[origin]);
            let run = if last < cycle {
                prefix[last + 1].wrapping_sub(prefix[first])
            } else {
                prefix[cycle]
                    .wrapping_sub(prefix[first.min(cycle)])
                    .wrapping_add(prefix[last + 1 - cycle])
            };
            let mut hash = self.hashes[view]
                .wrapping_sub(u64::from(stones).wrapping_mul(origin_key))
                .wrapping_add(run);
            if laps > 0 {
                hash = hash.wrapping_add(u64::from(laps).wrapping_mul(prefix[cycle]));
            }
            self.hashes[view] = hash;
        }
    }
}
