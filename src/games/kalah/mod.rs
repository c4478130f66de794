//! Kalah (mancala) with `pits` per side and `stones` per pit: sowing, extra turns, captures
//! (with or without the "empty capture" rule), the end sweep and a margin outcome.
//! Rules and notation only: no search internals and no drawing beyond the plain-text board.
//! The position hash is in `hash.rs`, the evaluators in `eval.rs`, the `[kalah]` options in
//! `options.rs`.

pub mod endgame;
mod eval;
mod hash;
mod options;

use std::fmt;

use super::{GameKind, Playable};
use crate::engine::{Game, Outcome, Player, Scoring};
use crate::error::{IllegalMove, ParseMoveError};
pub use eval::{KalahEval, LinearEval, StoreEval};
use hash::{CYCLE_KEYS, CycleKeys, VIEWS};
pub use options::{ENDGAME_CHOSEN_MAX_BYTES, ENDGAME_MAX_BYTES, KalahOptions, LinearWeights};

/// The most pits per side.
pub const MAX_PITS: usize = 12;
/// The most stones per pit at the start.
pub const MAX_STONES: u16 = 20;
/// The most stones on a board: any one pit or store holds at most this many.
pub const MAX_TOTAL_STONES: u16 = 2 * MAX_PITS as u16 * MAX_STONES;

/// A solve looks up a position's children in the table first (see
/// [`Game::transposition_lookahead`]) when this many stones more than the endgame database
/// holds are in play. Kalah(6,4), 18-stone database, one thread: no look-ahead 110.9 M nodes
/// in 57.7 s of CPU; from 19 stones 67.4 M nodes but no faster per second of CPU; from 26
/// stones 100.8 M nodes in 50.7 s (docs/performance.md).
const LOOKAHEAD_STONES: u32 = 8;

/// Holes around the board: each side's pits followed by that side's store.
const RING: usize = 2 * MAX_PITS + 2;

/// A move: the index of the pit to sow, counted from the mover's left (0 = pit `a`). The
/// same index means a different pit for each side, as in the notation.
pub type Pit = u8;

/// A hole of the board: a pit or a store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hole {
    /// Pit `index` (from its owner's left, 0-based) on `side`'s row.
    Pit {
        /// The owner of the row.
        side: Player,
        /// 0-based from the owner's left; the pit next to the owner's store is `pits - 1`.
        index: u8,
    },
    /// A player's store.
    Store(Player),
}

/// What a move does, computed without playing it (see [`Kalah::effect`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveEffect {
    /// Where the last stone lands.
    pub landing: Hole,
    /// The mover moves again (the last stone fell into their own store).
    pub extra_turn: bool,
    /// Stones moved to the mover's store by a capture, the capturing stone included; 0 when
    /// there is no capture.
    pub captured: u16,
    /// The move leaves a side without stones, which ends the game.
    pub ends_game: bool,
}

/// A Kalah position. South ([`Player::First`]) moves first; North is [`Player::Second`].
///
/// The board is a ring of holes, counter-clockwise: South's pits `a`.. from South's left,
/// South's store, North's pits `a`.. from North's left, North's store. Each side's pit `i`
/// faces the other side's pit `pits - 1 - i`.
///
/// The hash covers the pits seen from the side to move, not the stores (see
/// [`Game::banked`]): a position and its mirror image (rows swapped, the other side to
/// move) hash alike. Once the game is over every pit is empty: the end sweep has moved
/// every stone to a store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kalah {
    /// Stone counts around the ring: South's pits `0..pits`, South's store at `pits`,
    /// North's pits `pits + 1..2 * pits + 1`, North's store at `2 * pits + 1`.
    ring: [u16; RING],
    pits: u8,
    to_move: Player,
    empty_capture: bool,
    over: bool,
    /// The hash in each view (see [`VIEWS`]).
    hashes: [u64; VIEWS],
    /// This board size's [`CYCLE_KEYS`].
    cycle_keys: &'static CycleKeys,
    /// Every stone on the board (constant through a game).
    total: u16,
    /// The endgame database this game probes (see [`Kalah::with_endgame`]).
    endgame: EndgameLink,
}

/// The size (stones) of the endgame database a game probes; 0 for none. Not part of the
/// position: two games that differ only in it are equal.
#[derive(Clone, Copy, Debug, Default)]
struct EndgameLink(u8);

impl PartialEq for EndgameLink {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for EndgameLink {}

impl Kalah {
    /// The starting position with `pits` pits per side (clamped to 1..=12) and `stones`
    /// stones in each (clamped to 1..=20), South to move, standard capture.
    pub fn new(pits: usize, stones: u16) -> Self {
        let n = pits.clamp(1, MAX_PITS);
        let stones = stones.clamp(1, MAX_STONES);
        let row = [stones; MAX_PITS];
        let mut game = Self::empty(n);
        game.ring[..n].copy_from_slice(&row[..n]);
        game.ring[n + 1..=2 * n].copy_from_slice(&row[..n]);
        game.hashes = game.hashes_from_scratch();
        game.total = game.total_stones();
        game
    }

    /// The same position under the "empty capture" rule (`true`: a last stone in an own
    /// empty pit is captured even when the opposite pit is empty) or the standard one.
    pub fn with_empty_capture(mut self, empty_capture: bool) -> Self {
        self.empty_capture = empty_capture;
        self
    }

    /// The same position, probing the endgame database of `stones` stones for this board
    /// size and rule once it is ready ([`endgame::prepare`]); 0 probes none. Until the
    /// database is prepared in this process, the game searches as without it.
    pub fn with_endgame(mut self, stones: u32) -> Self {
        self.endgame = EndgameLink(stones.min(endgame::MAX_ENDGAME_STONES) as u8);
        self
    }

    /// The endgame database size this game asks for (0: none).
    pub fn endgame_stones(&self) -> u32 {
        u32::from(self.endgame.0)
    }

    /// The best remaining margin for the side to move according to the endgame database,
    /// when the game probes one, it is prepared and the position has few enough stones.
    #[inline(never)]
    pub fn endgame_value(&self) -> Option<i32> {
        let (db, board) = self.endgame_entry()?;
        db.value(&board[..2 * self.pit_count()])
    }

    /// The endgame database that holds this position and the position as its board (the
    /// mover's pits, then the opponent's), when the game probes one, it is prepared and the
    /// position has few enough stones.
    #[inline]
    fn endgame_entry(&self) -> Option<(&'static endgame::EndgameDb, [u8; 2 * MAX_PITS])> {
        let stones = self.endgame.0;
        if stones == 0 || self.over {
            return None;
        }
        let n = self.pit_count();
        let left = self.total - self.ring[n] - self.ring[2 * n + 1];
        if left > u16::from(stones) {
            return None;
        }
        let db = endgame::registered(n, self.empty_capture, u32::from(stones))?;
        let mut board = [0u8; 2 * MAX_PITS];
        let own = self.hole_of(self.to_move, 0);
        let theirs = self.hole_of(self.to_move.other(), 0);
        for i in 0..n {
            board[i] = self.ring[own + i] as u8;
            board[n + i] = self.ring[theirs + i] as u8;
        }
        Some((db, board))
    }

    fn empty(n: usize) -> Self {
        Self {
            ring: [0; RING],
            pits: n as u8,
            to_move: Player::First,
            empty_capture: false,
            over: false,
            hashes: [0; VIEWS],
            cycle_keys: &CYCLE_KEYS[n],
            total: 0,
            endgame: EndgameLink(0),
        }
    }

    /// A position built by hand: the pits of each side from its owner's left, the stores
    /// `[south, north]`, the side to move and the capture rule. Both rows must have the same
    /// length, 1..=12, and the board at most [`MAX_TOTAL_STONES`] stones. A position with
    /// an empty row is finished: the end sweep is applied at once.
    pub fn from_position(
        south: &[u16],
        north: &[u16],
        stores: [u16; 2],
        to_move: Player,
        empty_capture: bool,
    ) -> Result<Self, String> {
        let n = south.len();
        if n != north.len() || !(1..=MAX_PITS).contains(&n) {
            return Err(format!(
                "both rows need the same number of pits, 1..={MAX_PITS} (got {} and {})",
                south.len(),
                north.len()
            ));
        }
        let total: u32 = south
            .iter()
            .chain(north)
            .chain(&stores)
            .map(|&c| u32::from(c))
            .sum();
        if total > u32::from(MAX_TOTAL_STONES) {
            return Err(format!(
                "{total} stones on the board: at most {MAX_TOTAL_STONES}"
            ));
        }
        let mut game = Self::empty(n);
        game.ring[..n].copy_from_slice(south);
        game.ring[n] = stores[0];
        game.ring[n + 1..=2 * n].copy_from_slice(north);
        game.ring[2 * n + 1] = stores[1];
        game.to_move = to_move;
        game.empty_capture = empty_capture;
        game.hashes = game.hashes_from_scratch();
        game.total = game.total_stones();
        if game.side_is_empty(Player::First) || game.side_is_empty(Player::Second) {
            game.sweep();
        }
        Ok(game)
    }

    /// Pits per side.
    pub fn pit_count(&self) -> usize {
        self.pits as usize
    }

    /// Whether the "empty capture" rule is on.
    pub fn empty_capture(&self) -> bool {
        self.empty_capture
    }

    /// Stones in `side`'s pit `index` (0-based from that side's left); 0 for an index past
    /// the last pit.
    pub fn stones(&self, side: Player, index: usize) -> u16 {
        if index < self.pit_count() {
            self.ring[self.hole_of(side, index)]
        } else {
            0
        }
    }

    /// Stones in `side`'s store.
    pub fn store(&self, side: Player) -> u16 {
        self.ring[self.store_hole(side)]
    }

    /// Stones in the hole `hole` (0 for a pit index past the last pit).
    pub fn hole(&self, hole: Hole) -> u16 {
        match hole {
            Hole::Pit { side, index } => self.stones(side, index as usize),
            Hole::Store(side) => self.store(side),
        }
    }

    /// Stones still in `side`'s pits (not in the store).
    pub fn side_stones(&self, side: Player) -> u16 {
        let start = self.hole_of(side, 0);
        self.ring[start..start + self.pit_count()].iter().sum()
    }

    /// Every stone on the board, pits and stores; constant through a game.
    pub fn total_stones(&self) -> u16 {
        self.ring[..2 * self.pit_count() + 2].iter().sum()
    }

    /// True once the game is over (every stone is in a store).
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The index of the pit facing pit `index` across the board (the other side's
    /// numbering).
    pub fn opposite(&self, index: usize) -> usize {
        self.pit_count() - 1 - index.min(self.pit_count() - 1)
    }

    /// Stones the side to move would sow from `mv`: 0 for an empty pit, a pit index past
    /// the last pit, or a finished game.
    fn sowable(&self, mv: Pit) -> u16 {
        if self.over || mv as usize >= self.pit_count() {
            0
        } else {
            self.ring[self.hole_of(self.to_move, mv as usize)]
        }
    }

    /// Where the last stone of `mv` lands, computed in constant time without playing it.
    /// A cheap ordering hint: a landing in the mover's store means an extra turn. For a
    /// move that is not legal the answer is the pit itself.
    pub fn landing(&self, mv: Pit) -> Hole {
        let n = self.pit_count();
        let stones = self.sowable(mv) as usize;
        // Sowing visits the 2n+1 holes other than the opponent's store; count steps along
        // that cycle, with the mover's own pits at positions 0..n and the store at n.
        let step = (mv as usize + stones) % (2 * n + 1);
        self.cycle_hole(step)
    }

    /// Whether `mv` ends in the mover's store and so earns another move.
    pub fn gives_extra_turn(&self, mv: Pit) -> bool {
        self.landing(mv) == Hole::Store(self.to_move)
    }

    /// The holes `mv` drops a stone into, in order, one per stone (a lap visits a hole
    /// twice); empty for a move that is not legal. Computed without playing the move, for
    /// drawing it; does not allocate.
    pub fn sowing_path(&self, mv: Pit) -> SowingPath<'_> {
        SowingPath {
            game: self,
            step: mv as usize,
            left: self.sowable(mv),
        }
    }

    /// What `mv` would do (landing, extra turn, capture, end of game), or `None` if it is
    /// not a legal move here.
    pub fn effect(&self, mv: Pit) -> Option<MoveEffect> {
        if self.sowable(mv) == 0 {
            return None;
        }
        let mut copy = *self;
        Some(copy.sow(mv))
    }

    /// The name of a side: South moves first.
    pub fn side_name(side: Player) -> &'static str {
        match side {
            Player::First => "South",
            Player::Second => "North",
        }
    }

    /// The letter of pit `index` (0 = `a`).
    pub fn pit_letter(index: usize) -> char {
        char::from(b'a' + (index.min(25) as u8))
    }

    /// The hole at `step` along the sowing cycle of the side to move (0..n its pits, n its
    /// store, n+1..2n+1 the opponent's pits).
    fn cycle_hole(&self, step: usize) -> Hole {
        let n = self.pit_count();
        let me = self.to_move;
        match step.cmp(&n) {
            std::cmp::Ordering::Less => Hole::Pit {
                side: me,
                index: step as u8,
            },
            std::cmp::Ordering::Equal => Hole::Store(me),
            std::cmp::Ordering::Greater => Hole::Pit {
                side: me.other(),
                index: (step - n - 1) as u8,
            },
        }
    }

    #[inline]
    fn hole_of(&self, side: Player, index: usize) -> usize {
        side.index() * (self.pit_count() + 1) + index
    }

    #[inline]
    fn store_hole(&self, side: Player) -> usize {
        side.index() * (self.pit_count() + 1) + self.pit_count()
    }

    #[inline]
    fn side_is_empty(&self, side: Player) -> bool {
        let start = self.hole_of(side, 0);
        self.ring[start..start + self.pit_count()]
            .iter()
            .all(|&c| c == 0)
    }

    /// Every stone left in a pit goes to its owner's store; the game is over.
    fn sweep(&mut self) {
        for side in [Player::First, Player::Second] {
            let start = self.hole_of(side, 0);
            let mut swept = 0;
            for hole in start..start + self.pit_count() {
                swept += self.ring[hole];
                self.ring[hole] = 0;
            }
            self.ring[self.store_hole(side)] += swept;
        }
        // Every pit is empty: the hash of nothing.
        self.hashes = [0; VIEWS];
        self.over = true;
    }

    /// Plays `mv` (legal) and says what happened.
    #[inline]
    fn sow(&mut self, mv: Pit) -> MoveEffect {
        let n = self.pit_count();
        let len = 2 * n + 2;
        // The mover's sowing cycle: its pits, its store, the opponent's pits. Step `s` of
        // the cycle is ring hole `own_first + s` (wrapping), which never is the opponent's
        // store: that is the last hole of the ring for South and the one just before North's
        // first pit.
        let cycle = 2 * n + 1;
        let me = self.to_move;
        let own_first = self.hole_of(me, 0);
        let own_store = own_first + n;
        let start = own_first + mv as usize;
        let stones = self.ring[start];
        self.ring[start] = 0;
        // A long sowing drops `laps` stones into every hole of the cycle (the emptied origin
        // included) and one more into the `rest` holes after the origin. Most sowings are
        // shorter than a lap: no division for them.
        let (laps, rest) = if usize::from(stones) < cycle {
            (0, usize::from(stones))
        } else {
            (stones / cycle as u16, usize::from(stones % cycle as u16))
        };
        if laps > 0 {
            // The cycle is every hole but the opponent's store.
            for hole in &mut self.ring[..len] {
                *hole += laps;
            }
            self.ring[self.store_hole(me.other())] -= laps;
        }
        // One stone into each of the steps `mv + 1 ..= mv + rest`, which wrap past the end
        // of the cycle at most once; each run of steps is at most two runs of ring holes.
        let first = mv as usize + 1;
        let end = mv as usize + rest + 1;
        if end <= cycle {
            self.add_one(own_first + first, own_first + end);
        } else {
            self.add_one(own_first + first, own_first + cycle);
            self.add_one(own_first, own_first + end - cycle);
        }
        self.hash_sowing(mv, stones, laps, rest);
        // The same step as `(mv + stones) % cycle`, since `mv + rest < 2 * cycle`.
        let mut last_step = mv as usize + rest;
        if last_step >= cycle {
            last_step -= cycle;
        }
        let mut hole = own_first + last_step;
        if hole >= len {
            hole -= len;
        }
        let landing = self.cycle_hole(last_step);
        let extra_turn = hole == own_store;
        let mut captured = 0;
        if !extra_turn && (own_first..own_store).contains(&hole) && self.ring[hole] == 1 {
            // Pit i of one side faces pit n-1-i of the other: ring holes h and 2n - h.
            let facing = 2 * n - hole;
            let prize = self.ring[facing];
            if prize > 0 || self.empty_capture {
                self.empty_pits(last_step, hole, facing);
                captured = prize + 1;
                self.ring[own_store] += captured;
            }
        }
        if !extra_turn {
            self.to_move = me.other();
        }
        // Both rows had stones before the move (else the game was over). The opponent's row
        // only gains stones, unless a capture emptied one of its pits.
        let ends_game = self.side_is_empty(me) || (captured > 0 && self.side_is_empty(me.other()));
        if ends_game {
            self.sweep();
        }
        MoveEffect {
            landing,
            extra_turn,
            captured,
            ends_game,
        }
    }

    /// Adds a stone to each ring hole `lo..hi` (counted on past the end of the ring, at most
    /// one ring further: they wrap to its start).
    #[inline]
    fn add_one(&mut self, lo: usize, hi: usize) {
        let len = 2 * self.pit_count() + 2;
        let (head, tail) = if hi <= len {
            (lo..hi, 0..0)
        } else if lo >= len {
            (lo - len..hi - len, 0..0)
        } else {
            (lo..len, 0..hi - len)
        };
        for hole in &mut self.ring[head] {
            *hole += 1;
        }
        for hole in &mut self.ring[tail] {
            *hole += 1;
        }
    }
}

impl Default for Kalah {
    /// Kalah(6, 4), standard capture.
    fn default() -> Self {
        Self::new(6, 4)
    }
}

/// The holes a sowing drops stones into, in order (see [`Kalah::sowing_path`]).
#[derive(Clone, Debug)]
pub struct SowingPath<'a> {
    game: &'a Kalah,
    /// Position along the mover's sowing cycle of 2n+1 holes.
    step: usize,
    left: u16,
}

impl Iterator for SowingPath<'_> {
    type Item = Hole;

    fn next(&mut self) -> Option<Hole> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        self.step = (self.step + 1) % (2 * self.game.pit_count() + 1);
        Some(self.game.cycle_hole(self.step))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

impl ExactSizeIterator for SowingPath<'_> {}

impl Game for Kalah {
    type Move = Pit;
    /// Copy-make: the whole position is a few dozen bytes, cheaper to copy back than to
    /// unsow a lap, a capture and a sweep.
    type Undo = Kalah;
    const SCORING: Scoring = Scoring::Margin;

    #[inline]
    fn to_move(&self) -> Player {
        self.to_move
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<Pit>) {
        out.clear();
        if self.over {
            return;
        }
        let start = self.hole_of(self.to_move, 0);
        // Branch-free compaction into a small array, then one copy: which pits are empty
        // is unpredictable, and this runs at every node of a search.
        let mut pits = [0; MAX_PITS];
        let mut count = 0;
        for (i, &stones) in self.ring[start..start + self.pit_count()]
            .iter()
            .enumerate()
        {
            pits[count] = i as Pit;
            count += usize::from(stones > 0);
        }
        // A copy of a constant length is a few moves, where one of `count` is a call.
        out.extend_from_slice(&pits);
        out.truncate(count);
    }

    #[inline]
    fn play(&mut self, mv: Pit) -> Kalah {
        let before = *self;
        self.sow(mv);
        before
    }

    #[inline]
    fn undo(&mut self, _mv: Pit, undo: Kalah) {
        *self = undo;
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.over.then(|| Outcome::from_first_margin(self.banked()))
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hashes[self.to_move.index()]
    }

    fn hash_from_scratch(&self) -> u64 {
        self.hashes_from_scratch()[self.to_move.index()]
    }

    #[inline]
    fn banked(&self) -> i32 {
        i32::from(self.store(Player::First)) - i32::from(self.store(Player::Second))
    }

    #[inline]
    fn unbanked(&self) -> Option<i32> {
        let n = self.pit_count();
        let stores = self.ring[n] + self.ring[2 * n + 1];
        Some(i32::from(self.total - stores))
    }

    #[inline]
    fn prefetch_exact(&self) {
        if let Some((db, board)) = self.endgame_entry() {
            db.prefetch(&board[..2 * self.pit_count()]);
        }
    }

    #[inline]
    fn exact_value(&self) -> Option<i32> {
        // Without a database (every playing search unless configured): the one test,
        // inlined into the node, and no call.
        if self.endgame.0 == 0 {
            return None;
        }
        self.endgame_value()
            .map(|remaining| self.banked() * self.to_move.sign() + remaining)
    }

    fn without_exact_values(&self) -> Self {
        self.with_endgame(0)
    }

    /// Kalah(6,4) with the empty-capture rule (18-stone database, one thread): from
    /// iterations below depth 6 the guess is +2 and the proof takes 169.5 M nodes (87.6 s of
    /// CPU); below 12, +6 and 127.2 M (66.0 s); below 16, +7 and 110.9 M (57.7 s); below 22
    /// the guess is the value, +10, but the one test that proves it from above, started
    /// cold, takes 123.4 M (57.5 s). Kalah(6,3) without a database: 43.9 M nodes below 6,
    /// 30.4 M below 16.
    const SOLVE_GUESS_DEPTH: u32 = 16;

    /// Where at least [`LOOKAHEAD_STONES`] more stones are in play than the endgame
    /// database holds: nearer to it, children are answered by the database anyway.
    #[inline]
    fn transposition_lookahead(&self) -> bool {
        let n = self.pit_count();
        let left = self.total - self.ring[n] - self.ring[2 * n + 1];
        u32::from(left) >= u32::from(self.endgame.0) + LOOKAHEAD_STONES
    }

    /// Always: a sowing is a copy and a few additions (small solves measured the same with
    /// it), and a Kalah solve with a large table and an endgame database spends most of its
    /// time waiting for them (24 % less time for Kalah(6,4) with the 20-stone table,
    /// together with the huge pages of [`crate::engine::memory`]; docs/performance.md,
    /// "Wave 29").
    #[inline]
    fn prefetch_children(&self, _table_bytes: usize) -> bool {
        true
    }

    fn move_index(&self, mv: Pit) -> usize {
        mv as usize
    }

    fn move_space(&self) -> usize {
        self.pit_count()
    }

    /// Every pit with stones is legal (and a solve searches all of them).
    #[inline]
    fn table_move(&self, _orientation: usize, index: usize, _solving: bool) -> Option<Pit> {
        let pit = Pit::try_from(index).ok()?;
        (self.sowable(pit) > 0).then_some(pit)
    }

    const ORDER_HINTS: bool = true;

    /// Extra turns first, then by the stones the move banks: those sown into the own store
    /// and those captured. Computed in constant time from the landing hole.
    #[inline]
    fn order_hint(&self, mv: Pit) -> i32 {
        let n = self.pit_count();
        // The mover's pit `mv` is ring hole `own + mv`; the pit facing own pit `i` is ring
        // hole `2n - (own + i)` (as in `sow`). Indexes are checked once, not per lookup.
        let own = self.to_move.index() * (n + 1);
        let stones = if self.over || mv as usize >= n {
            0
        } else {
            usize::from(self.ring[own + mv as usize])
        };
        if stones == 0 {
            return i32::MIN / 2;
        }
        let cycle = 2 * n + 1;
        let reach = mv as usize + stones;
        // Stones dropped into the own store (step `n` of the cycle) and the landing step.
        // Most sowings end within the first lap: no division for them (this runs for every
        // move of every node that orders its moves).
        let (sown, last) = if reach < cycle {
            (usize::from(reach >= n), reach)
        } else {
            ((reach - n) / cycle + 1, reach % cycle)
        };
        if last == n {
            return 10_000 + 100 * sown as i32;
        }
        let mut captured = 0;
        if last < n && stones < cycle && self.ring[own + last] == 0 {
            let prize = self.ring[2 * n - (own + last)];
            if prize > 0 || self.empty_capture {
                captured = usize::from(prize) + 1;
            }
        }
        100 * (sown + captured) as i32
    }

    fn format_move(&self, mv: Pit) -> String {
        Self::pit_letter(mv as usize).to_string()
    }

    fn try_play(&mut self, mv: Pit) -> Result<Kalah, IllegalMove> {
        super::try_play_explained(self, mv, |g| {
            if (mv as usize) < g.pit_count() {
                format!(
                    "{}'s pit {} is empty",
                    Self::side_name(g.to_move()),
                    g.format_move(mv)
                )
            } else {
                format!("there are only {} pits per side", g.pit_count())
            }
        })
    }

    fn parse_move(&self, text: &str) -> Result<Pit, ParseMoveError> {
        let n = self.pit_count();
        let t = text.trim().to_ascii_lowercase();
        let index = match t.as_bytes() {
            [letter @ b'a'..=b'z'] => Some((letter - b'a') as usize),
            _ => t.parse::<usize>().ok().and_then(|k| k.checked_sub(1)),
        };
        match index {
            Some(i) if i < n => Ok(i as Pit),
            _ => {
                let last = Self::pit_letter(n - 1);
                let expected = if n == 1 {
                    "the pit a (or 1)".to_string()
                } else {
                    format!("a pit a..{last} or 1..{n}, counted from the mover's left, like a")
                };
                Err(ParseMoveError::new(text, expected))
            }
        }
    }
}

impl fmt::Display for Kalah {
    /// North's row on top, as South sees the board (North's pit `a` on the right), the
    /// stores at the ends (North's on the left, South's on the right), South's row below,
    /// each row labelled with its pit letters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.pit_count();
        let north = Player::Second;
        let south = Player::First;
        write!(f, "      ")?;
        for i in (0..n).rev() {
            write!(f, "{:>4}", Self::pit_letter(i))?;
        }
        writeln!(f, "   North")?;
        write!(f, "      ")?;
        for i in (0..n).rev() {
            write!(f, "{:>4}", self.stones(north, i))?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "{:>4}  {:width$}  {}",
            self.store(north),
            "",
            self.store(south),
            width = 4 * n
        )?;
        write!(f, "      ")?;
        for i in 0..n {
            write!(f, "{:>4}", self.stones(south, i))?;
        }
        writeln!(f)?;
        write!(f, "      ")?;
        for i in 0..n {
            write!(f, "{:>4}", Self::pit_letter(i))?;
        }
        writeln!(f, "   South")?;
        match self.outcome() {
            None => writeln!(f, "{} to move", Self::side_name(self.to_move)),
            Some(Outcome::Draw) => writeln!(f, "Game over: a draw"),
            Some(Outcome::Win { winner, margin }) => {
                writeln!(f, "Game over: {} wins by {margin}", Self::side_name(winner))
            }
        }
    }
}

impl Playable for Kalah {
    const KIND: GameKind = GameKind::Kalah;
    type Options = KalahOptions;
    type Eval = KalahEval;
    const EVALUATORS: &'static [&'static str] = &["store", "linear", "tuned"];

    fn new_game(options: &KalahOptions) -> Self {
        let stones = options.stones.min(u32::from(MAX_STONES)) as u16;
        Self::new(options.pits as usize, stones)
            .with_empty_capture(options.empty_capture)
            .with_endgame(options.endgame_stones_for_board())
    }

    fn options_in(games: &crate::games::GamesConfig) -> Option<&Self::Options> {
        Some(&games.kalah)
    }

    fn options_in_mut(games: &mut crate::games::GamesConfig) -> Option<&mut Self::Options> {
        Some(&mut games.kalah)
    }

    fn evaluator(options: &KalahOptions, name: &str) -> Option<KalahEval> {
        match name {
            "default" | "store" => Some(KalahEval::Store(StoreEval)),
            "linear" => Some(KalahEval::Linear(LinearEval::new(&options.linear))),
            "tuned" => Some(KalahEval::Tuned(LinearEval::new(&options.tuned))),
            _ => None,
        }
    }

    fn side_name(player: Player) -> &'static str {
        Kalah::side_name(player)
    }

    fn move_note(&self, mv: Pit) -> Option<String> {
        let captured = self.effect(mv)?.captured;
        (captured > 0).then(|| format!("captures {captured}"))
    }

    fn prepare_search(
        options: &KalahOptions,
        progress: &mut dyn FnMut(u64, u64),
        stop: &crate::engine::limits::StopFlag,
    ) -> anyhow::Result<Option<String>> {
        let stones = options.endgame_stones_for_board();
        if stones == 0 {
            return Ok(None);
        }
        let started = std::time::Instant::now();
        let dir = endgame::cache_dir();
        let (db, origin) = match endgame::prepare(
            dir.as_deref(),
            options.pits as usize,
            options.empty_capture,
            stones,
            progress,
            stop,
        ) {
            Ok(prepared) => prepared,
            // Too large for this board (the default with 12 pits): search without it.
            Err(e @ endgame::EndgameError::TooLarge { .. }) => {
                return Ok(Some(format!("no endgame database: {e}")));
            }
            Err(e) => return Err(e.into()),
        };
        Ok(Some(endgame::describe(db, &origin, started.elapsed())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn landing_matches_the_sowing_path_and_play() {
        for n in 1..=6 {
            for stones in 1..=15 {
                let game = Kalah::from_position(
                    &vec![stones; n],
                    &vec![1; n],
                    [0, 0],
                    Player::First,
                    false,
                )
                .unwrap();
                for mv in 0..n as Pit {
                    let path: Vec<Hole> = game.sowing_path(mv).collect();
                    assert_eq!(path.len(), stones as usize);
                    assert_eq!(path.last().copied(), Some(game.landing(mv)));
                    assert_eq!(game.effect(mv).unwrap().landing, game.landing(mv));
                    assert!(!path.contains(&Hole::Store(Player::Second)));
                }
                assert_eq!(game.effect(n as Pit), None);
                assert_eq!(game.sowing_path(n as Pit).count(), 0);
            }
        }
    }

    #[test]
    fn keys_cover_the_largest_board() {
        let game = Kalah::new(12, 20);
        assert_eq!(game.total_stones(), MAX_TOTAL_STONES);
        assert_eq!(game.hash(), game.hash_from_scratch());
    }
}
