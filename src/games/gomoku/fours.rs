//! The VCF at a playing search's leaves, over the lines' stone bits alone.
//!
//! A leaf's question is narrow: can the side to move win by continuous fours within a few
//! moves? [`Gomoku::play`] answers far more than that needs (every shape of four lines, the
//! board totals, the undo record), and the leaf VCF was 45 % of a timed search, most of it
//! inside `play` (docs/performance.md, "Wave 13"). Here a move only sets a bit in its four
//! lines, and fours and fives are read from the stones with shifts: a point makes five when
//! a window of `connect` points holds it and `connect - 1` own stones, and makes a four when
//! a window holds it, one more empty point and `connect - 2` own stones (under the standard
//! rule the window must not touch another own stone at either end, so the run is exact).
//! The shape counts and codes are left as they were and are stale until the stones are
//! taken back, so nothing here may read them past the root.

use super::{Cell, Gomoku, Rule, stone_key};
use crate::engine::Game;

/// Fours the attacker tries in one node, at most (each line gives a handful; past this the
/// rest are left out, which can miss a win but never make one up).
const MOVES: usize = 64;

/// Positions one VCF call remembers, at most: as many as the leaves' node budget.
const SEARCHED: usize = super::LEAF_VCF_NODES as usize;

/// The positions one VCF call has searched below an attacker's node, by a hash of the stones
/// it put since its root. Each of them was lost (a win ends the call at once), and the same
/// fours played in another order reach the same position with the same depth left, so a
/// transposition is not searched again: the answer stays the same, the nodes are spared.
pub(super) struct Searched {
    hashes: [u64; SEARCHED],
    len: usize,
}

impl Searched {
    pub(super) fn new() -> Self {
        Self {
            hashes: [0; SEARCHED],
            len: 0,
        }
    }

    /// Whether `hash` is new (remembering it while there is room), or was searched before.
    #[inline]
    pub(super) fn first_visit(&mut self, hash: u64) -> bool {
        if self.hashes[..self.len].contains(&hash) {
            return false;
        }
        if let Some(slot) = self.hashes.get_mut(self.len) {
            *slot = hash;
            self.len += 1;
        }
        true
    }
}

/// The windows of `K` (the game's `connect`) points along a line, read with shifts; a
/// constant, so that the loops over a window's points unroll.
#[derive(Clone, Copy)]
struct Windows<const K: u32> {
    /// The standard rule: a run longer than `K` does not win.
    exact: bool,
}

impl<const K: u32> Windows<K> {
    /// The starts of windows that may make a run: all of them in freestyle; under the
    /// standard rule those without an `own` stone just before or just after.
    #[inline]
    fn open_starts(self, own: u32) -> u32 {
        if self.exact {
            !(own << 1) & !(own >> K)
        } else {
            u32::MAX
        }
    }

    /// The starts of windows (of `K` points, none the opponent's) holding exactly `gaps`
    /// empty points (1 or 2) among `own` stones, spread back over the windows' empty points.
    #[inline]
    fn gaps(self, own: u32, empty: u32, gaps: u32) -> u32 {
        // Most lines hold too few stones for any such window: drop `K - gaps - 1` stones and
        // see whether one is left (cheaper than the windows, and than a software popcount).
        let needed = K - gaps;
        if needed > 0 {
            let mut fewer = own;
            for _ in 1..needed {
                fewer &= fewer.wrapping_sub(1);
            }
            if fewer == 0 {
                return 0;
            }
        }
        // Per window start: whether every point is own or empty, and (saturating) whether
        // it holds at least one, two, three empty points.
        let free = own | empty;
        let (mut clear, mut one, mut two, mut three) = (self.open_starts(own), 0, 0, 0);
        for i in 0..K {
            let e = empty >> i;
            clear &= free >> i;
            three |= two & e;
            two |= one & e;
            one |= e;
        }
        let windows = clear & if gaps == 1 { one & !two } else { two & !three };
        let mut spread = 0;
        for i in 0..K {
            spread |= windows << i;
        }
        spread & empty
    }

    /// The points of a line where a stone would make `K` in a row: windows of `K - 1` own
    /// stones and the point.
    #[inline]
    fn fives(self, own: u32, empty: u32) -> u32 {
        self.gaps(own, empty, 1)
    }

    /// The points of a line where a stone would make a four: windows of `K - 2` own stones
    /// and two empty points, either of which is such a point (the other then makes five).
    #[inline]
    fn fours(self, own: u32, empty: u32) -> u32 {
        self.gaps(own, empty, 2)
    }
}

/// An attacker's node of the leaf VCF.
#[derive(Clone, Copy)]
struct Node {
    /// The attacker, with no five to make.
    p: usize,
    /// The attacker's moves left.
    depth: u32,
    /// The lines where it may make a four: those with a three at the root, and the four lines
    /// through each stone it played since.
    lines: u128,
    /// The one point where the defender would make five, which the attacker must take.
    forced: Option<Cell>,
    /// The stones put since the root, hashed as the game hashes them (0 at the root).
    hash: u64,
}

impl Gomoku {
    /// Whether the side to move wins by continuous fours within `depth` of its moves and
    /// `budget` nodes: the plies until it has made five. The defender answers each four at
    /// its completion point, and a four of its own made by that answer must be blocked by
    /// the attacker's next move, which must be a four again.
    pub(super) fn leaf_vcf(&mut self, depth: u32, budget: &mut u32) -> Option<u32> {
        if *budget == 0 {
            return None;
        }
        let me = self.to_move();
        // At the root the shapes are up to date: read the fours from them.
        if self.five_point(me).0 > 0 {
            *budget -= 1;
            return Some(1);
        }
        let forced = match self.five_point(me.other()) {
            (0, _) => None,
            (1, Some(block)) => Some(block),
            _ => {
                *budget -= 1;
                return None;
            }
        };
        let exact = self.rule == Rule::Standard;
        let node = Node {
            p: me.index(),
            depth,
            lines: self.three_lines[me.index()],
            forced,
            hash: 0,
        };
        let searched = &mut Searched::new();
        match self.connect {
            2 => self.fours_from(Windows::<2> { exact }, node, budget, searched),
            3 => self.fours_from(Windows::<3> { exact }, node, budget, searched),
            4 => self.fours_from(Windows::<4> { exact }, node, budget, searched),
            5 => self.fours_from(Windows::<5> { exact }, node, budget, searched),
            6 => self.fours_from(Windows::<6> { exact }, node, budget, searched),
            _ => self.fours_from(Windows::<7> { exact }, node, budget, searched),
        }
    }

    /// One attacker node of [`Gomoku::leaf_vcf`] (see [`Node`]).
    fn fours_from<const K: u32>(
        &mut self,
        windows: Windows<K>,
        node: Node,
        budget: &mut u32,
        searched: &mut Searched,
    ) -> Option<u32> {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        if node.depth == 0 {
            return None;
        }
        let p = node.p;
        let mut moves = [0 as Cell; MOVES];
        let count = match node.forced {
            Some(block) => {
                moves[0] = block;
                1
            }
            None => self.fours_on(windows, p, node.lines, &mut moves),
        };
        for &mv in &moves[..count] {
            let through = self.put(mv, p);
            let found = match self.fives_through(windows, &through, p) {
                (1, Some(reply)) => {
                    let q = 1 - p;
                    let hash = node.hash ^ stone_key(p, mv) ^ stone_key(q, reply);
                    if !searched.first_visit(hash) {
                        // A transposition: nothing to put, read or take back.
                        self.take(&through, p);
                        continue;
                    }
                    let answer = self.put(reply, q);
                    // Nor had the defender: a five it can make now runs through its reply.
                    let (threats, block) = self.fives_through(windows, &answer, q);
                    let found = if threats > 1 {
                        // Lost: the node is counted all the same (as the test's reference,
                        // which plays it out, does).
                        *budget = budget.saturating_sub(1);
                        None
                    } else {
                        // The attacker had no five to make, so any it has now runs through
                        // its stone.
                        let lines = through
                            .iter()
                            .fold(node.lines, |along, &(index, _)| along | 1 << index);
                        let child = Node {
                            p,
                            depth: node.depth - 1,
                            lines,
                            forced: block,
                            hash,
                        };
                        self.fours_from(windows, child, budget, searched)
                            .map(|plies| plies + 2)
                    };
                    self.take(&answer, q);
                    found
                }
                (0, _) => None,
                _ => Some(3),
            };
            self.take(&through, p);
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// How many points make five for player `p` along the four lines `through` a stone
    /// (counted only as one or more than one: no popcnt instruction is assumed), and one.
    fn fives_through<const K: u32>(
        &self,
        windows: Windows<K>,
        through: &[(usize, u32); 4],
        p: usize,
    ) -> (u32, Option<Cell>) {
        let (mut count, mut first) = (0, None);
        for &(index, _) in through {
            let points = windows.fives(self.lines[index].stones[p], self.empty_in(index));
            if points != 0 {
                count += 1 + u32::from(points & (points - 1) != 0);
                first = Some(self.line_point(index, points.trailing_zeros()));
            }
        }
        (count, first)
    }

    /// Writes into `out` the points (each once, up to its length) where player `p`'s stone
    /// makes a four along one of `lines`, line by line in index order; returns how many.
    fn fours_on<const K: u32>(
        &self,
        windows: Windows<K>,
        p: usize,
        mut lines: u128,
        out: &mut [Cell],
    ) -> usize {
        let mut count = 0;
        while lines != 0 {
            let index = lines.trailing_zeros() as usize;
            lines &= lines - 1;
            let mut points = windows.fours(self.lines[index].stones[p], self.empty_in(index));
            while points != 0 && count < out.len() {
                let pos = points.trailing_zeros();
                points &= points - 1;
                let cell = self.line_point(index, pos);
                if !out[..count].contains(&cell) {
                    out[count] = cell;
                    count += 1;
                }
            }
        }
        count
    }

    /// Puts player `p`'s stone on `cell` in its four lines' stones only (see the module
    /// doc); returns the lines, for [`Gomoku::take`].
    #[inline]
    fn put(&mut self, cell: Cell, p: usize) -> [(usize, u32); 4] {
        let (row, col) = self.row_col(cell);
        let through = self.lines_through(row, col);
        for &(index, pos) in &through {
            self.lines[index].stones[p] |= 1 << pos;
        }
        through
    }

    /// Takes back what [`Gomoku::put`] did.
    #[inline]
    fn take(&mut self, through: &[(usize, u32); 4], p: usize) {
        for &(index, pos) in through {
            self.lines[index].stones[p] &= !(1 << pos);
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::tests::Walk;
    use super::*;

    /// The VCF over bits against the one over full moves ([`Gomoku::quick_vcf`]): the same
    /// answer, nodes spent and position after, at every depth and budget tried.
    fn agrees(game: &Gomoku) -> Result<Option<u32>, TestCaseError> {
        let mut deepest = None;
        for depth in [0, 1, 2, 4, 6] {
            for nodes in [1, 8, 64, 4096] {
                let (mut light, mut full) = (game.clone(), game.clone());
                let (mut light_budget, mut full_budget) = (nodes, nodes);
                let found = light.leaf_vcf(depth, &mut light_budget);
                prop_assert_eq!(found, full.quick_vcf(depth, &mut full_budget), "{}", game);
                prop_assert_eq!(light_budget, full_budget, "{}", game);
                prop_assert!(
                    light == *game,
                    "the stones were not all taken back\n{}",
                    game
                );
                deepest = deepest.or(found);
            }
        }
        Ok(deepest)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn the_bit_vcf_agrees_with_the_vcf_over_full_moves(
            size in 5usize..=16,
            connect in 2usize..=7,
            standard in any::<bool>(),
            steps in proptest::collection::vec((any::<u16>(), 0u8..8), 1..120),
        ) {
            let mut walk = Walk::new(size, connect, standard);
            for (choice, action) in steps {
                walk.step(choice, action.max(1));
                if walk.game.winner().is_none() {
                    agrees(&walk.game)?;
                }
            }
        }
    }

    /// Two closed threes on rows far apart, none of it a win: each row offers two fours, and
    /// the defender's answer leaves the other row's two. A four on each row, in either order,
    /// is one position (four of them), searched once: the root, its four children and those
    /// four positions are 9 nodes, where searching every order would take 13.
    #[test]
    fn fours_played_in_another_order_are_searched_once() {
        let mut game = Gomoku::new(15, 5, Rule::Freestyle);
        for text in [
            "c3", "b3", "d3", "b10", "e3", "n14", "c10", "l14", "d10", "n12", "e10", "l12",
        ] {
            let mv = game.parse_move(text).unwrap();
            game.play(mv);
        }
        assert_eq!(game.winner(), None);
        let (mut light, mut full) = (game.clone(), game.clone());
        let (mut light_budget, mut full_budget) = (4096, 4096);
        assert_eq!(light.leaf_vcf(6, &mut light_budget), None);
        assert_eq!(full.quick_vcf(6, &mut full_budget), None);
        assert_eq!(4096 - light_budget, 9);
        assert_eq!(4096 - full_budget, 9);
    }

    /// Not a vacuous agreement: the walks above reach many positions with a VCF.
    #[test]
    fn random_positions_hold_wins_by_fours_that_both_find() {
        let (mut positions, mut wins) = (0, 0);
        for seed in 0..200u32 {
            let mut walk = Walk::new(9 + (seed % 7) as usize, 5, seed % 3 == 0);
            let mut state = seed;
            for _ in 0..60 {
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                walk.step((state >> 16) as u16, 2);
                if walk.game.winner().is_some() {
                    break;
                }
                positions += 1;
                wins += usize::from(agrees(&walk.game).unwrap().is_some_and(|plies| plies > 1));
            }
        }
        println!("{wins} of {positions} positions won by fours");
        assert!(wins * 20 > positions, "{wins} of {positions}");
    }
}
