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

    /// Empties pit `hole`, keeping the hash.
    #[inline]
    pub(super) fn empty_pit(&mut self, hole: usize) {
        let stones = u64::from(self.ring[hole]);
        for view in 0..VIEWS {
            let key = self.pit_key(hole, view);
            self.hashes[view] = self.hashes[view].wrapping_sub(stones.wrapping_mul(key));
        }
        self.ring[hole] = 0;
    }

    /// Moves the hash along a sowing by the side to move from ring hole `origin` (its pit
    /// `mv`) of `stones` stones: `laps` into every hole of the cycle, then one into each of
    /// the `rest` holes after the origin.
    #[inline]
    pub(super) fn hash_sowing(
        &mut self,
        origin: usize,
        mv: Pit,
        stones: u16,
        laps: u16,
        rest: usize,
    ) {
        let cycle = 2 * self.pit_count() + 1;
        // The ring moved by exactly these amounts, and the hash is linear in the stones.
        let first = mv as usize + 1;
        let last = mv as usize + rest; // inclusive; may pass the end of the cycle
        for view in 0..VIEWS {
            let prefix = &self.cycle_keys[self.to_move.index()][view];
            let run = if last < cycle {
                prefix[last + 1].wrapping_sub(prefix[first])
            } else {
                prefix[cycle]
                    .wrapping_sub(prefix[first.min(cycle)])
                    .wrapping_add(prefix[last + 1 - cycle])
            };
            self.hashes[view] = self.hashes[view]
                .wrapping_sub(u64::from(stones).wrapping_mul(self.pit_key(origin, view)))
                .wrapping_add(u64::from(laps).wrapping_mul(prefix[cycle]))
                .wrapping_add(run);
        }
    }
}
