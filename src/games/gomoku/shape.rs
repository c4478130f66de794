//! Line shapes: what one player's stones form along one line through one point (five, open
//! four, ... closed two), for any `connect` k. Works on bit masks of a single line only; it
//! knows nothing of boards, players or the search.
//!
//! A shape is classified by a small exhaustive look-ahead along the line (see [`Shape`]) and
//! memoised in a table per `(connect, rule)`, indexed by the cells within k-1 of the point
//! (k under the standard rule, which must see a run's neighbours to refuse overlines)
//! written as base-3 digits (own / empty / blocked), so each distinct neighbourhood is
//! classified once per process.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use crate::engine::memory::prefetch;

/// The largest `connect` offered. Its memo table has up to 3^(2k) = 4.8 million one-byte
/// entries; k-in-a-row with k >= 8 is a known draw on every board (Zetters 1980), so nothing
/// is lost.
pub const MAX_CONNECT: usize = 7;

/// What a player's stones along one line through a point can still become, weakest first.
///
/// With k = `connect`: a *five* is k in a row (exactly k under the standard rule, where a
/// longer run is dead); a *four* is one stone short of a five, *open* when two or more
/// different points complete it (so `.XXXX.` and `X.XXX.X` are open, `XXXX.` and `XX.XX`
/// closed); a *three* is one stone short of a four, *open* when some point turns it into an
/// open four; a *two* is one stone short of a three, *open* when some point makes an open
/// three. Only cells of this one line count, and only five-windows through the point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Shape {
    /// Nothing that can grow into a five here (or further than a two from one).
    None,
    /// A two that can become only a closed three.
    ClosedTwo,
    /// A two that can become an open three.
    OpenTwo,
    /// A three that can become only a closed four.
    ClosedThree,
    /// A three that can become an open four.
    OpenThree,
    /// A four with one completing point.
    ClosedFour,
    /// A four with two or more completing points: it cannot be stopped.
    OpenFour,
    /// `connect` in a row: the game is won.
    Five,
}

impl Shape {
    /// Every shape, weakest first; `Shape::ALL[s as usize] == s`.
    pub const ALL: [Self; 8] = [
        Self::None,
        Self::ClosedTwo,
        Self::OpenTwo,
        Self::ClosedThree,
        Self::OpenThree,
        Self::ClosedFour,
        Self::OpenFour,
        Self::Five,
    ];

    /// The shape's name, generalised to `connect` ("four" = one short of a win).
    pub fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::ClosedTwo => "closed two",
            Self::OpenTwo => "open two",
            Self::ClosedThree => "closed three",
            Self::OpenThree => "open three",
            Self::ClosedFour => "closed four",
            Self::OpenFour => "open four",
            Self::Five => "five",
        }
    }

    /// True for the fours (open or closed): one move from a five.
    pub fn is_four(self) -> bool {
        matches!(self, Self::ClosedFour | Self::OpenFour)
    }
}

/// Base-3 value of a binary number: bit i becomes the digit 3^i. Combining an own mask `o`
/// and a disjoint blocked mask `b` as `TERNARY[o] + 2 * TERNARY[b]` numbers every
/// own/empty/blocked pattern of up to 14 cells densely.
static TERNARY: [u32; 1 << (2 * MAX_CONNECT)] = ternary_table();

// Evaluated at compile time into the static; the array never lives on a runtime stack.
#[allow(clippy::large_stack_arrays)]
const fn ternary_table() -> [u32; 1 << (2 * MAX_CONNECT)] {
    let mut table = [0u32; 1 << (2 * MAX_CONNECT)];
    let mut i = 1;
    while i < table.len() {
        // Drop the lowest bit: i = 2 * (i >> 1) + (i & 1), so base 3 gives 3 * t[i >> 1] + bit.
        table[i] = 3 * table[i >> 1] + (i as u32 & 1);
        i += 1;
    }
    table
}

/// One lazily filled memo per `(connect, exact)`; entry 0 = not yet classified, else shape+1.
static MEMOS: [[OnceLock<Box<[AtomicU8]>>; 2]; MAX_CONNECT + 1] =
    [const { [const { OnceLock::new() }, const { OnceLock::new() }] }; MAX_CONNECT + 1];

/// Classifies shapes for one `connect` and rule. Cheap to copy; the memo is shared by every
/// game with the same settings and filled as positions are met (classification is a pure
/// function, so threads racing on an entry store the same byte).
#[derive(Clone, Copy)]
pub struct ShapeTable {
    k: u32,
    exact: bool,
    /// Cells read on each side of the point: k-1, or k under the standard rule.
    r: u32,
    /// The 2r+1 cells of a neighbourhood, centre at bit r.
    window: u64,
    /// Cells within k-1 of the centre: the only ones a five through it can use.
    near: u64,
    memo: &'static [AtomicU8],
}

impl PartialEq for ShapeTable {
    fn eq(&self, other: &Self) -> bool {
        self.k == other.k && self.exact == other.exact
    }
}

impl Eq for ShapeTable {}

impl std::fmt::Debug for ShapeTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShapeTable")
            .field("connect", &self.k)
            .field("exact", &self.exact)
            .finish_non_exhaustive()
    }
}

impl ShapeTable {
    /// The table for `connect` in a row (2..=[`MAX_CONNECT`]); `exact` = the standard rule,
    /// where only exactly `connect` wins.
    ///
    /// # Panics
    /// If `connect` is outside 2..=[`MAX_CONNECT`] (options are validated before this).
    pub fn new(connect: usize, exact: bool) -> Self {
        assert!(
            (2..=MAX_CONNECT).contains(&connect),
            "connect {connect} out of range"
        );
        let k = connect as u32;
        let r = if exact { k } else { k - 1 };
        let memo = MEMOS[connect][usize::from(exact)].get_or_init(|| {
            std::iter::repeat_with(|| AtomicU8::new(0))
                .take(3usize.pow(2 * r))
                .collect()
        });
        Self {
            k,
            exact,
            r,
            window: (1u64 << (2 * r + 1)) - 1,
            near: ((1u64 << (2 * k - 1)) - 1) << (r + 1 - k),
            memo,
        }
    }

    /// How many in a row win.
    pub fn connect(&self) -> u32 {
        self.k
    }

    /// A line's stones in the padded form [`ShapeTable::shape_at`] reads: cell i at bit
    /// i + r (r = k-1, or k under the standard rule), and the blocked mask (opponent stones,
    /// and everything off the line) beside it.
    #[inline]
    pub fn pad(&self, own: u32, opponent: u32, len: u32) -> (u64, u64) {
        let off_line = !0u64 << len;
        let blocked = (u64::from(opponent) | off_line) << self.r | ((1u64 << self.r) - 1);
        (u64::from(own) << self.r, blocked)
    }

    /// The shape a stone of the owner of the padded line (from [`ShapeTable::pad`]) makes at
    /// the empty cell `pos`.
    #[inline]
    pub fn shape_if_placed(&self, own: u64, blocked: u64, pos: u32) -> Shape {
        if self.is_lone(own, pos) {
            return Shape::None;
        }
        self.shape_at(own | 1 << (pos + self.r), blocked, pos)
    }

    /// True when a stone at `pos` would have no own stone within k-1 along the line, and a
    /// lone stone is no shape at all (connect >= 5: one stone is not yet a two). Skipping the
    /// table there is most of the saving in candidate ranking.
    #[inline]
    fn is_lone(&self, own: u64, pos: u32) -> bool {
        self.k >= 5 && (own >> pos) & self.near & !(1u64 << self.r) == 0
    }

    /// The shape through cell `pos` of a padded line (from [`ShapeTable::pad`]), whose own
    /// mask must have `pos` set (a stone there, or one about to be played).
    // Always: called millions of times a second, and a call's register saving cost a
    // third of the function (callgrind).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    pub fn shape_at(&self, own: u64, blocked: u64, pos: u32) -> Shape {
        let r = self.r;
        let own = (own >> pos) & self.window;
        let blocked = (blocked >> pos) & self.window;
        debug_assert!(own & (1 << r) != 0 && blocked & (1 << r) == 0);
        // Remove the centre (always own) so 2r cells index the table.
        let low = (1u64 << r) - 1;
        let own_key = (own & low) | ((own >> (r + 1)) << r);
        let blocked_key = (blocked & low) | ((blocked >> (r + 1)) << r);
        let index = (TERNARY[own_key as usize] + 2 * TERNARY[blocked_key as usize]) as usize;
        let cached = self.memo[index].load(Ordering::Relaxed);
        if cached != 0 {
            return Shape::ALL[usize::from(cached - 1)];
        }
        let shape = self.classify(own, !blocked & self.window & !own);
        self.memo[index].store(shape as u8 + 1, Ordering::Relaxed);
        shape
    }

    /// Shape counts of one player along a whole line, packed as 8-bit counts indexed by
    /// [`Shape`] (lane 0 unused). Stones are grouped into clusters (consecutive stones at
    /// most k-1 apart with no blocked cell between, i.e. stones that can share a five) and
    /// each cluster counts once, as the strongest shape through any of its stones.
    pub fn line_counts(&self, own: u32, opponent: u32, len: u32) -> u64 {
        if len < self.k || own == 0 {
            return 0;
        }
        let (own_padded, blocked) = self.pad(own, opponent, len);
        let mut counts = 0u64;
        let mut best = Shape::None;
        let mut previous: Option<u32> = None;
        let mut rest = own;
        while rest != 0 {
            let pos = rest.trailing_zeros();
            rest &= rest - 1;
            if let Some(prev) = previous {
                let between = (opponent >> prev) & ((1u32 << (pos - prev)) - 1);
                if pos - prev >= self.k || between != 0 {
                    counts += count_lane(best);
                    best = Shape::None;
                }
            }
            if !self.is_lone(own_padded, pos) {
                best = best.max(self.shape_at(own_padded, blocked, pos));
            }
            previous = Some(pos);
        }
        counts + count_lane(best)
    }

    /// How many empty points of a line would give a stone of `own`'s owner each shape
    /// along it, packed as [`ShapeTable::line_counts`] are (a lone stone makes none): the
    /// line's potential, what the evaluation weighs as `point_*` (see
    /// [`super::eval::PatternTable`]).
    pub fn line_points(&self, own: u32, opponent: u32, len: u32) -> u64 {
        self.line_point_codes(own, opponent, len).0
    }

    /// [`ShapeTable::line_points`], and the shape itself on each point: 3 bits a position
    /// along the line, a [`Shape`] as a number (0 on taken points, and everywhere on a line
    /// shorter than `connect`).
    pub fn line_point_codes(&self, own: u32, opponent: u32, len: u32) -> (u64, u64) {
        if len < self.k {
            return (0, 0);
        }
        let (own_padded, blocked) = self.pad(own, opponent, len);
        let mut empty = !(own | opponent) & ((1u32 << len) - 1);
        let (mut counts, mut codes) = (0u64, 0u64);
        while empty != 0 {
            let pos = empty.trailing_zeros();
            empty &= empty - 1;
            let shape = self.shape_if_placed(own_padded, blocked, pos);
            counts += count_lane(shape);
            codes |= (shape as u64) << (3 * pos);
        }
        (counts, codes)
    }

    /// [`ShapeTable::line_counts`] and [`ShapeTable::line_points`] of both players of a
    /// line, from a per-thread cache of recent lines: `play` reclassifies four lines a move,
    /// and a search meets the same line contents again and again. The key is the whole line
    /// (stones, length, `connect` and rule), so a hit is exact.
    pub fn both_line_shapes(&self, black: u32, white: u32, len: u32) -> LineShapes {
        let key = self.line_key(black, white, len);
        LINE_CACHE.with_borrow_mut(|cache| {
            self.cached_line_shapes(&mut cache.0, key, [black, white, len])
        })
    }

    /// [`ShapeTable::both_line_shapes`] of the four lines through a point (each `[black,
    /// white, len]`), looked up together: the four cache entries are prefetched before the
    /// first is read, so that their memory latencies overlap instead of adding up.
    pub fn four_line_shapes(&self, lines: [[u32; 3]; 4]) -> [LineShapes; 4] {
        let keys = lines.map(|[black, white, len]| self.line_key(black, white, len));
        LINE_CACHE.with_borrow_mut(|LineCache(cache)| {
            for &(_, slot) in &keys {
                if let Some(entry) = cache.get(slot) {
                    prefetch(entry);
                }
            }
            let mut out = [LineShapes::default(); 4];
            for ((shapes, key), line) in out.iter_mut().zip(keys).zip(lines) {
                *shapes = self.cached_line_shapes(cache, key, line);
            }
            out
        })
    }

    /// A line's shapes (`[black, white, len]`, with its [`ShapeTable::line_key`]) from
    /// `cache`, worked out and kept there when its entry holds another line.
    #[inline]
    fn cached_line_shapes(
        &self,
        cache: &mut [LineEntry],
        (key, slot): (u64, usize),
        [black, white, len]: [u32; 3],
    ) -> LineShapes {
        match cache.get_mut(slot) {
            Some(entry) if entry.key == key => entry.shapes,
            Some(entry) => {
                *entry = LineEntry {
                    key,
                    shapes: self.line_shapes(black, white, len),
                };
                entry.shapes
            }
            // Never: the slot is within the cache's bits.
            None => self.line_shapes(black, white, len),
        }
    }

    /// A line's cache key and slot (see [`ShapeTable::both_line_shapes`]).
    #[inline]
    fn line_key(&self, black: u32, white: u32, len: u32) -> (u64, usize) {
        // 20 + 20 bits of stones, 5 of length, 3 of connect, 1 of rule: never 0 (connect >= 2),
        // so an unused entry (key 0) never matches.
        let key = u64::from(black)
            | u64::from(white) << 20
            | u64::from(len) << 40
            | u64::from(self.k) << 45
            | u64::from(self.exact) << 48;
        let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - LINE_CACHE_BITS)) as usize;
        (key, slot)
    }

    /// [`ShapeTable::both_line_shapes`] computed now.
    pub fn line_shapes(&self, black: u32, white: u32, len: u32) -> LineShapes {
        let (black_points, black_codes) = self.line_point_codes(black, white, len);
        let (white_points, white_codes) = self.line_point_codes(white, black, len);
        LineShapes {
            counts: [
                self.line_counts(black, white, len),
                self.line_counts(white, black, len),
            ],
            points: [black_points, white_points],
            codes: [black_codes, white_codes],
        }
    }

    /// Length of the run of own stones through the centre of a window.
    fn run(&self, own: u64) -> u32 {
        let r = self.r;
        (own >> (r + 1)).trailing_ones() + (own << (64 - r)).leading_ones() + 1
    }

    fn is_five(&self, own: u64) -> bool {
        let run = self.run(own);
        if self.exact {
            run == self.k
        } else {
            run >= self.k
        }
    }

    /// Five, open/closed four, or `None`.
    fn four_level(&self, own: u64, empty: u64) -> Shape {
        if self.is_five(own) {
            return Shape::Five;
        }
        if self.exact && self.run(own) > self.k {
            // Under the standard rule an overline through the point is dead.
            return Shape::None;
        }
        let mut completions = 0;
        let mut rest = empty & self.near;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            if self.is_five(own | bit) {
                completions += 1;
                if completions == 2 {
                    return Shape::OpenFour;
                }
            }
        }
        if completions == 1 {
            Shape::ClosedFour
        } else {
            Shape::None
        }
    }

    /// As [`ShapeTable::four_level`], down to open/closed three.
    fn three_level(&self, own: u64, empty: u64) -> Shape {
        let four = self.four_level(own, empty);
        if four != Shape::None {
            return four;
        }
        let mut best = Shape::None;
        let mut rest = empty & self.near;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            match self.four_level(own | bit, empty & !bit) {
                Shape::OpenFour => return Shape::OpenThree,
                Shape::ClosedFour => best = Shape::ClosedThree,
                _ => {}
            }
        }
        best
    }

    /// The full classification of a window (centre own), by looking ahead along the line.
    fn classify(&self, own: u64, empty: u64) -> Shape {
        let three = self.three_level(own, empty);
        if three != Shape::None {
            return three;
        }
        let mut best = Shape::None;
        let mut rest = empty & self.near;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest ^= bit;
            match self.three_level(own | bit, empty & !bit) {
                Shape::OpenThree => return Shape::OpenTwo,
                Shape::ClosedThree => best = Shape::ClosedTwo,
                _ => {}
            }
        }
        best
    }
}

/// log2 of the entries of [`LINE_CACHE`] (64 bytes each: 4 MB a thread).
const LINE_CACHE_BITS: u32 = 16;

/// Both players' shapes along one line (`[black's, white's]`), packed in 8-bit lanes indexed
/// by [`Shape`]: the shapes of their stones ([`ShapeTable::line_counts`]) and of the empty
/// points ([`ShapeTable::line_points`]); and the shape on each empty point, 3 bits a
/// position ([`ShapeTable::line_point_codes`]). What each code counts as in a point's
/// combination of shapes is [`rank_codes`] of it, worked out when needed: kept here it made
/// a cache entry 72 bytes, two cache lines at every look-up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineShapes {
    pub counts: [u64; 2],
    pub points: [u64; 2],
    pub codes: [u64; 2],
}

/// What each position of a line's codes ([`ShapeTable::line_point_codes`]) counts as in
/// the evaluation's combinations of shapes at a point, in the same 3-bit fields: 3 a four
/// (open or closed), 2 an open three, 1 an open two, 0 any other shape or none.
pub fn rank_codes(codes: u64) -> u64 {
    const BOTTOM: u64 = 0o1111_1111_1111_1111_1111;
    let (b0, b1, b2) = (codes & BOTTOM, codes >> 1 & BOTTOM, codes >> 2 & BOTTOM);
    // Fours are 5 and 6, open threes 4: the high bit. Open twos 2, fours 5 and 6: the low.
    let high = b2 & !(b1 & b0);
    let low = (!b2 & b1 & !b0 | b2 & (b1 ^ b0)) & BOTTOM;
    high << 1 | low
}

/// A line's contents and both players' shapes there: 56 bytes, aligned to one cache line
/// (64 bytes) so that a look-up reads one.
#[derive(Clone, Copy, Default)]
#[repr(align(64))]
struct LineEntry {
    key: u64,
    shapes: LineShapes,
}

thread_local! {
    /// Recent lines and their counts, by a hash of the line (see
    /// [`ShapeTable::both_line_shapes`]); taken on a thread's first use.
    static LINE_CACHE: RefCell<LineCache> = RefCell::new(LineCache::take());
}

/// The line caches of threads that have ended, for the next threads to take up: a search
/// on several threads starts its helpers afresh at every move, and they then begin with
/// a warm cache instead of 4 MB to allocate, zero and fill (and the process's memory stays
/// at its most threads' caches at once, where freed ones piled up in the allocator's
/// per-thread arenas). A key is the whole line, so an entry is right in any game.
static SPARE_LINE_CACHES: Mutex<Vec<Box<[LineEntry]>>> = Mutex::new(Vec::new());

/// How many line caches of ended threads wait to be taken up (`tests/line_cache.rs`).
pub fn spare_line_caches() -> usize {
    SPARE_LINE_CACHES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .len()
}

/// One thread's line cache, given back to [`SPARE_LINE_CACHES`] when the thread ends.
struct LineCache(Box<[LineEntry]>);

impl LineCache {
    /// A spare cache, or a new one.
    fn take() -> Self {
        let spare = SPARE_LINE_CACHES
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop();
        Self(
            spare.unwrap_or_else(|| {
                vec![LineEntry::default(); 1 << LINE_CACHE_BITS].into_boxed_slice()
            }),
        )
    }
}

impl Drop for LineCache {
    fn drop(&mut self) {
        let cache = std::mem::take(&mut self.0);
        SPARE_LINE_CACHES
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(cache);
    }
}

/// One count of `shape` in the packed 8-bit lanes of [`ShapeTable::line_counts`].
#[inline]
fn count_lane(shape: Shape) -> u64 {
    if shape == Shape::None {
        0
    } else {
        1u64 << (8 * shape as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The strongest shape through any `X` of a line drawn as text: `X` own, `.` empty, `O`
    /// opponent; the line is exactly the text (its ends are the board's edges).
    fn shape(connect: usize, exact: bool, line: &str) -> Shape {
        let table = ShapeTable::new(connect, exact);
        let (mut own, mut opp) = (0u32, 0u32);
        for (i, ch) in line.chars().enumerate() {
            match ch {
                'X' => own |= 1 << i,
                'O' => opp |= 1 << i,
                _ => {}
            }
        }
        let (o, b) = table.pad(own, opp, line.len() as u32);
        (0..line.len() as u32)
            .filter(|&i| own & (1 << i) != 0)
            .map(|i| table.shape_at(o, b, i))
            .max()
            .unwrap()
    }

    #[test]
    fn five_shapes() {
        use Shape::*;
        let cases = [
            ("..XXXXX..", Five),
            ("..XXXXXX.", Five),
            ("...XXXX...", OpenFour),
            ("..X.XXX.X..", OpenFour),
            ("OXXXX....", ClosedFour),
            ("XXXX.....", ClosedFour),
            ("..XX.XX..", ClosedFour),
            ("..X.XXX..", ClosedFour),
            ("...XXX....", OpenThree),
            ("...XX.X...", OpenThree),
            ("OXXX.....", ClosedThree),
            ("..XXXO", ClosedThree),
            ("..XXX.O", OpenThree),
            ("..X..XX..", ClosedThree),
            ("...XX.....", OpenTwo),
            ("...X.X....", OpenTwo),
            ("OXX......", ClosedTwo),
            ("OXXX.O", None),
            ("....X....", None),
        ];
        for (line, expected) in cases {
            assert_eq!(shape(5, false, line), expected, "{line}");
        }
    }

    #[test]
    fn standard_rule_refuses_overlines() {
        assert_eq!(shape(5, true, "..XXXXXX.."), Shape::None);
        assert_eq!(shape(5, true, "..XXXXX..."), Shape::Five);
        // XXXX.X: filling the gap makes six, so only the left end completes a five.
        assert_eq!(shape(5, true, "..XXXX.X..."), Shape::ClosedFour);
        assert_eq!(shape(5, false, "..XXXX.X..."), Shape::OpenFour);
    }

    #[test]
    fn small_connect_generalises() {
        assert_eq!(shape(2, false, ".X."), Shape::OpenFour);
        assert_eq!(shape(2, false, "X.."), Shape::ClosedFour);
        assert_eq!(shape(3, false, "..X.."), Shape::OpenThree);
        assert_eq!(shape(3, false, ".XX."), Shape::OpenFour);
        assert_eq!(shape(3, false, "XX."), Shape::ClosedFour);
        assert_eq!(shape(3, false, "X.."), Shape::ClosedThree);
        assert_eq!(shape(3, false, "XXX"), Shape::Five);
        assert_eq!(shape(4, false, "...X..."), Shape::OpenTwo);
    }

    #[test]
    fn cached_line_shapes_equal_computed_ones() {
        use rand::{Rng, SeedableRng, rngs::SmallRng};
        let mut rng = SmallRng::seed_from_u64(7);
        for (connect, exact) in [(5, false), (5, true), (4, false), (6, true)] {
            let table = ShapeTable::new(connect, exact);
            // Few distinct lines, met many times: most calls are cache hits.
            for _ in 0..20_000 {
                let len = rng.random_range(connect as u32..=20);
                let cells = (1u32 << len) - 1;
                let black = rng.random_range(0..32u32) << rng.random_range(0..len) & cells;
                let white = rng.random_range(0..32u32) << rng.random_range(0..len) & cells & !black;
                let fresh = table.line_shapes(black, white, len);
                assert_eq!(table.both_line_shapes(black, white, len), fresh);
                // The points, one by one: every empty point counts once, as the shape a
                // stone of each player would make there.
                for (p, (own, opp)) in [(black, white), (white, black)].into_iter().enumerate() {
                    let (padded, blocked) = table.pad(own, opp, len);
                    let (mut expected, mut codes) = (0u64, 0u64);
                    for pos in (0..len).filter(|&i| (own | opp) >> i & 1 == 0) {
                        let shape = table.shape_if_placed(padded, blocked, pos);
                        expected += count_lane(shape);
                        codes |= (shape as u64) << (3 * pos);
                    }
                    assert_eq!(fresh.points[p], expected, "{own:b} {opp:b}");
                    assert_eq!(fresh.codes[p], codes, "{own:b} {opp:b}");
                    assert_eq!(fresh.counts[p], table.line_counts(own, opp, len));
                }
            }
        }
    }

    #[test]
    fn clusters_count_once() {
        let t = ShapeTable::new(5, false);
        // Two separate open twos far apart in one row of 15, and one closed three.
        let own = 0b11 << 2 | 0b11 << 10;
        let counts = t.line_counts(own, 0, 15);
        assert_eq!((counts >> (8 * Shape::OpenTwo as u32)) & 0xFF, 2);
        let counts = t.line_counts(0b111, 0b1000, 15);
        assert_eq!(counts, 0, "XXXO is dead");
        let counts = t.line_counts(0b111, 0b1_0000_0000, 15);
        assert_eq!(counts >> (8 * Shape::ClosedThree as u32) & 0xFF, 1);
    }
}
