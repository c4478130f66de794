//! Kalah's endgame databases: the exact value of every position with at most `S` stones left
//! in the pits, for one board size and capture rule, so that a search stops as soon as it
//! reaches such a position.
//!
//! **What is stored.** A position is seen from the side to move: its `n` pits from its left,
//! then the opponent's `n` pits from the opponent's left; the stores do not matter. Its value
//! is the best *remaining* margin for the side to move: the final (own store − opponent's
//! store) minus the same difference now. That is what the search adds to the banked margin
//! ([`Game::banked`](crate::engine::Game::banked)). Values lie within ±`S`: one signed byte.
//!
//! **Index.** The positions with exactly `k` stones in `m = 2n` pits are the compositions of
//! `k` into `m` parts; with bars after each of the first `m − 1` pits at `b_j = (a_0 + … +
//! a_j) + j`, the rank `Σ C(b_j, j + 1)` (the combinatorial number system) numbers them
//! densely, and the layers follow each other in `k` order: index = `C(k + m − 1, m)` +
//! rank. `S` stones on 6 pits a side make `C(S + 12, 12)` positions (16: 30 M, 20: 226 M).
//!
//! **Building.** Layer by layer, fewest stones first. A move either banks a stone (its store,
//! a capture: the child is in a lower layer, already known) or keeps every stone in the
//! mover's row and moves them towards its store, so that within a layer the sum of every
//! stone's distance to its owner's store falls: no cycles. Each position of a layer is solved
//! by memoised recursion over its same-layer children; the layer's positions are dealt to
//! every core in chunks (two threads that meet the same position store the same value).
//!
//! **Cache.** The table is written to the user's cache directory (`GAMETREE_CACHE_DIR`, else
//! `$XDG_CACHE_HOME/gametree`, else `~/.cache/gametree`) with a header (magic, format
//! version, pits, rule, `S`, size, checksum). A file whose header or checksum does not match
//! is rebuilt, never trusted; a new file is written under a temporary name and renamed, so a
//! second process building the same table at once cannot leave half a file behind.
//!
//! **Use.** [`prepare`] loads or builds a table and registers it for the process; a game with
//! [`Kalah::with_endgame`](super::Kalah::with_endgame) then probes it at every node through
//! [`Game::exact_value`](crate::engine::Game::exact_value).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicI8, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::MAX_PITS;
use crate::engine::limits::StopFlag;

/// The most stones a database may be built for (values must fit a signed byte, and the
/// tables grow as `C(S + 2n, 2n)`; [`MAX_BYTES`] is the real limit).
pub const MAX_ENDGAME_STONES: u32 = 40;
/// The largest table built, in bytes (one per position): 4 GiB.
pub const MAX_BYTES: u64 = 1 << 32;
/// The version of the cache file's layout; a file of another version is rebuilt.
pub const FORMAT_VERSION: u32 = 1;
/// First bytes of a cache file.
const MAGIC: &[u8; 8] = b"GTKALAHE";
/// Header: magic, version, pits, rule, stones (u32 each), positions, checksum (u64 each).
const HEADER_LEN: usize = 8 + 4 * 4 + 8 * 2;
/// A value not computed yet (values lie within ±[`MAX_ENDGAME_STONES`]).
const UNKNOWN: i8 = i8::MIN;
/// Positions handed to a thread at a time.
const CHUNK: u64 = 1 << 14;

/// The exact values of every Kalah position with at most [`EndgameDb::stones`] stones in the
/// pits, for one board size and capture rule.
#[derive(Debug)]
pub struct EndgameDb {
    pits: usize,
    empty_capture: bool,
    stones: u32,
    /// `rank_terms[j * (stones + 1) + p]` = `C(p + j, j + 1)`: bar `j`'s share of the rank
    /// when the first `j + 1` pits hold `p` stones.
    rank_terms: Vec<u64>,
    /// `offsets[k]`: positions with fewer than `k` stones, for `k` in `0..=stones + 1`.
    offsets: Vec<u64>,
    values: Vec<AtomicI8>,
}

/// Where a prepared table came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Already in memory (prepared earlier in this process).
    Memory,
    /// Read from the cache file.
    Loaded(PathBuf),
    /// Built now, in `elapsed`; `saved` is the cache file written, or why none was.
    Built {
        /// Time the build took.
        elapsed: Duration,
        /// The file written, or the reason it could not be.
        saved: Result<PathBuf, String>,
        /// Why an existing file was not used, if there was one.
        rejected: Option<String>,
    },
}

/// Why no table is available.
#[derive(Debug, thiserror::Error)]
pub enum EndgameError {
    /// The table would be too large.
    #[error(
        "kalah.endgame_stones = {stones} with {pits} pits a side needs {bytes} bytes (at most {MAX_BYTES}); choose fewer stones"
    )]
    TooLarge {
        /// Stones asked for.
        stones: u32,
        /// Pits per side.
        pits: usize,
        /// Bytes the table would take.
        bytes: u128,
    },
    /// The build was stopped.
    #[error("the endgame database build was stopped")]
    Stopped,
    /// Pits or stones out of range.
    #[error("endgame database: {0}")]
    Invalid(String),
}

/// `C(a, b)` in 128 bits (saturating): table sizes before they are known to fit.
fn binomial(a: u64, b: u64) -> u128 {
    if b > a {
        return 0;
    }
    let b = b.min(a - b);
    let mut result: u128 = 1;
    for i in 0..b {
        result = result.saturating_mul(u128::from(a - i)) / u128::from(i + 1);
    }
    result
}

/// The number of positions a table for `pits` pits a side and `stones` stones holds.
pub fn positions(pits: usize, stones: u32) -> u128 {
    let m = 2 * pits as u64;
    binomial(u64::from(stones) + m, m)
}

/// Sows the side to move's pit `mv` in `a` (its pits `0..n`, the opponent's `n..2n`) and
/// says how many stones it banked (sown into its store and captured) and whether it moves
/// again. The same rules as [`super::Kalah`]'s own sowing, on the compact board.
#[inline]
fn sow(a: &mut [u8], n: usize, mv: usize, empty_capture: bool) -> (u32, bool) {
    let cycle = 2 * n + 1;
    let stones = a[mv] as usize;
    a[mv] = 0;
    let laps = stones / cycle;
    let rest = stones % cycle;
    let mut gain = laps as u32;
    if laps > 0 {
        for pit in a.iter_mut() {
            *pit += laps as u8;
        }
    }
    let mut step = mv;
    for _ in 0..rest {
        step += 1;
        if step == cycle {
            step = 0;
        }
        match step.cmp(&n) {
            std::cmp::Ordering::Less => a[step] += 1,
            std::cmp::Ordering::Equal => gain += 1,
            std::cmp::Ordering::Greater => a[step - 1] += 1,
        }
    }
    let last = (mv + stones) % cycle;
    if last == n {
        return (gain, true);
    }
    if last < n && a[last] == 1 {
        let facing = n + (n - 1 - last);
        let prize = a[facing];
        if prize > 0 || empty_capture {
            a[last] = 0;
            a[facing] = 0;
            gain += u32::from(prize) + 1;
        }
    }
    (gain, false)
}

impl EndgameDb {
    /// An empty table (every value unknown) for `pits` pits a side and at most `stones`
    /// stones in the pits.
    fn empty(pits: usize, empty_capture: bool, stones: u32) -> Result<Self, EndgameError> {
        if !(1..=MAX_PITS).contains(&pits) {
            return Err(EndgameError::Invalid(format!(
                "{pits} pits a side: expected 1..={MAX_PITS}"
            )));
        }
        if stones > MAX_ENDGAME_STONES {
            return Err(EndgameError::Invalid(format!(
                "{stones} stones: expected at most {MAX_ENDGAME_STONES}"
            )));
        }
        let total = positions(pits, stones);
        if total > u128::from(MAX_BYTES) {
            return Err(EndgameError::TooLarge {
                stones,
                pits,
                bytes: total,
            });
        }
        let m = 2 * pits as u64;
        let width = stones as usize + 1;
        let mut rank_terms = vec![0; (2 * pits - 1) * width];
        for j in 0..2 * pits - 1 {
            for p in 0..width {
                rank_terms[j * width + p] = binomial(p as u64 + j as u64, j as u64 + 1) as u64;
            }
        }
        let offsets = (0..=u64::from(stones) + 1)
            .map(|k| {
                if k == 0 {
                    0
                } else {
                    binomial(k - 1 + m, m) as u64
                }
            })
            .collect();
        // Huge pages for the table's random reads, asked for before it is first written.
        let mut values = Vec::with_capacity(total as usize);
        crate::engine::memory::advise_huge_pages(values.spare_capacity_mut());
        values.extend((0..total).map(|_| AtomicI8::new(UNKNOWN)));
        Ok(Self {
            pits,
            empty_capture,
            stones,
            rank_terms,
            offsets,
            values,
        })
    }

    /// Pits per side.
    pub fn pits(&self) -> usize {
        self.pits
    }

    /// Whether the table is for the "empty capture" rule.
    pub fn empty_capture(&self) -> bool {
        self.empty_capture
    }

    /// The most stones in the pits of a position in the table.
    pub fn stones(&self) -> u32 {
        self.stones
    }

    /// Positions (and bytes) in the table.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True for a table of no positions (never: the empty board is always in it).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The index of the position `a` (2n pits, `k` stones in all, `k <= stones`).
    #[inline]
    fn index(&self, a: &[u8], k: u32) -> usize {
        let width = self.stones as usize + 1;
        let mut prefix = 0usize;
        let mut rank = self.offsets[k as usize];
        for (j, &stones) in a[..a.len() - 1].iter().enumerate() {
            prefix += stones as usize;
            rank += self.rank_terms[j * width + prefix];
        }
        rank as usize
    }

    /// The best remaining margin for the side to move in `a` (its pits, then the opponent's,
    /// each from its owner's left), or `None` when the position has more stones than the
    /// table or the table is not complete.
    #[inline]
    pub fn value(&self, a: &[u8]) -> Option<i32> {
        let v = self.slot(a)?.load(Ordering::Relaxed);
        (v != UNKNOWN).then_some(i32::from(v))
    }

    /// Starts loading the value of `a` (as [`EndgameDb::value`] reads it): a hint for a
    /// search that will ask for it soon. Nothing for a position the table does not hold.
    #[inline]
    pub fn prefetch(&self, a: &[u8]) {
        if let Some(slot) = self.slot(a) {
            crate::engine::memory::prefetch(slot);
        }
    }

    /// Where the value of `a` is kept, or `None` when the table does not hold `a` (another
    /// board size, or more stones than the table).
    #[inline]
    fn slot(&self, a: &[u8]) -> Option<&AtomicI8> {
        if a.len() != 2 * self.pits {
            return None;
        }
        let k: u32 = a.iter().map(|&s| u32::from(s)).sum();
        if k > self.stones {
            return None;
        }
        self.values.get(self.index(a, k))
    }

    /// The value of `a` with `k` stones, solving it (and its same-layer descendants) if it
    /// is not known yet. Every lower layer must be complete.
    fn solve(&self, a: &[u8], k: u32) -> i32 {
        let slot = &self.values[self.index(a, k)];
        let known = slot.load(Ordering::Relaxed);
        if known != UNKNOWN {
            return i32::from(known);
        }
        let value = self.compute(a, k);
        slot.store(value as i8, Ordering::Relaxed);
        value
    }

    fn compute(&self, a: &[u8], k: u32) -> i32 {
        let n = self.pits;
        let own: u32 = a[..n].iter().map(|&s| u32::from(s)).sum();
        if own == 0 || own == k {
            // A finished game: the sweep gives each side its own stones.
            return 2 * own as i32 - k as i32;
        }
        let mut best = i32::MIN;
        let mut board = [0u8; 2 * MAX_PITS];
        for mv in 0..n {
            if a[mv] == 0 {
                continue;
            }
            let b = &mut board[..2 * n];
            b.copy_from_slice(a);
            let (gain, extra) = sow(b, n, mv, self.empty_capture);
            let left = k - gain;
            let own_left: u32 = b[..n].iter().map(|&s| u32::from(s)).sum();
            let value = if own_left == 0 || own_left == left {
                gain as i32 + 2 * own_left as i32 - left as i32
            } else if extra {
                gain as i32 + self.solve(b, left)
            } else {
                let mut swapped = [0u8; 2 * MAX_PITS];
                swapped[..n].copy_from_slice(&b[n..]);
                swapped[n..2 * n].copy_from_slice(&b[..n]);
                gain as i32 - self.solve(&swapped[..2 * n], left)
            };
            best = best.max(value);
        }
        best
    }

    /// The position of rank `rank` among those with `k` stones (the inverse of the rank
    /// part of [`EndgameDb::index`]), as bar positions.
    fn unrank_bars(mut rank: u64, k: u32, bars: &mut [usize]) {
        let bars_len = bars.len();
        let mut limit = k as usize + bars_len; // bars lie in 0..limit
        for j in (0..bars_len).rev() {
            // The largest c < limit with C(c, j + 1) <= rank.
            let mut c = limit - 1;
            while c > j && binomial(c as u64, j as u64 + 1) as u64 > rank {
                c -= 1;
            }
            rank -= binomial(c as u64, j as u64 + 1) as u64;
            bars[j] = c;
            limit = c;
        }
    }

    /// Fills every value, layer by layer, on `threads` threads; `progress(done, total)`
    /// is called from this thread while it runs. Stops (with an error) once `stop` is raised.
    fn build(
        &self,
        threads: usize,
        progress: &mut dyn FnMut(u64, u64),
        stop: &StopFlag,
    ) -> Result<(), EndgameError> {
        let total = self.values.len() as u64;
        let done = AtomicU64::new(0);
        let m = 2 * self.pits;
        let threads = threads.max(1);
        // One counter per layer: the next rank of that layer not yet handed out.
        let next: Vec<AtomicU64> = (0..=self.stones).map(|_| AtomicU64::new(0)).collect();
        let barrier = std::sync::Barrier::new(threads);
        let work = || {
            let mut bars = vec![0usize; m - 1];
            let mut board = vec![0u8; m];
            for k in 0..=self.stones {
                let layer_len = self.offsets[k as usize + 1] - self.offsets[k as usize];
                while !stop.is_raised() {
                    let first = next[k as usize].fetch_add(CHUNK, Ordering::Relaxed);
                    if first >= layer_len {
                        break;
                    }
                    let last = (first + CHUNK).min(layer_len);
                    Self::unrank_bars(first, k, &mut bars);
                    for _ in first..last {
                        bars_to_pits(&bars, k, &mut board);
                        self.solve(&board, k);
                        next_bars(&mut bars, k);
                    }
                    done.fetch_add(last - first, Ordering::Relaxed);
                }
                // Every thread finishes layer k before any starts on k + 1, whose positions
                // read layer k's values.
                barrier.wait();
            }
        };
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
            while handles.iter().any(|h| !h.is_finished()) {
                progress(done.load(Ordering::Relaxed), total);
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        if stop.is_raised() {
            return Err(EndgameError::Stopped);
        }
        progress(total, total);
        Ok(())
    }

    /// A checksum of the values (64-bit words mixed FNV-style, then the tail bytes).
    fn checksum(bytes: impl Iterator<Item = u8>) -> u64 {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in bytes {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        hash
    }

    fn header(&self, checksum: u64) -> [u8; HEADER_LEN] {
        let mut header = [0u8; HEADER_LEN];
        header[..8].copy_from_slice(MAGIC);
        header[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        header[12..16].copy_from_slice(&(self.pits as u32).to_le_bytes());
        header[16..20].copy_from_slice(&u32::from(self.empty_capture).to_le_bytes());
        header[20..24].copy_from_slice(&self.stones.to_le_bytes());
        header[24..32].copy_from_slice(&(self.values.len() as u64).to_le_bytes());
        header[32..40].copy_from_slice(&checksum.to_le_bytes());
        header
    }

    fn bytes(&self) -> impl Iterator<Item = u8> + '_ {
        self.values
            .iter()
            .map(|v| v.load(Ordering::Relaxed).to_le_bytes()[0])
    }

    /// Writes the table to `path` through a temporary file in the same directory, renamed
    /// into place once complete.
    fn save(&self, path: &Path) -> std::io::Result<()> {
        let dir = path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir)?;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let temp = dir.join(format!(
            ".{}.{}.{nanos}.tmp",
            path.file_name()
                .map_or_else(|| "endgame".into(), |f| f.to_string_lossy()),
            std::process::id()
        ));
        let result = (|| {
            let mut file =
                std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&temp)?);
            file.write_all(&self.header(Self::checksum(self.bytes())))?;
            let mut buffer = Vec::with_capacity(1 << 20);
            for byte in self.bytes() {
                buffer.push(byte);
                if buffer.len() == buffer.capacity() {
                    file.write_all(&buffer)?;
                    buffer.clear();
                }
            }
            file.write_all(&buffer)?;
            file.into_inner()
                .map_err(std::io::IntoInnerError::into_error)?
                .sync_all()?;
            std::fs::rename(&temp, path)
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        result
    }

    /// Reads the table from `path` into this (empty) table, or says why the file is not
    /// usable: missing, unreadable, another version, board or rule, wrong size or checksum.
    fn load(&self, path: &Path) -> Result<(), String> {
        let mut file = std::fs::File::open(path).map_err(|e| format!("cannot open: {e}"))?;
        let mut header = [0u8; HEADER_LEN];
        file.read_exact(&mut header)
            .map_err(|e| format!("no complete header: {e}"))?;
        let word = |at: usize| {
            u32::from_le_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
        };
        let long = |at: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&header[at..at + 8]);
            u64::from_le_bytes(b)
        };
        if &header[..8] != MAGIC {
            return Err("not an endgame database file".to_string());
        }
        if word(8) != FORMAT_VERSION {
            return Err(format!(
                "format version {} (expected {FORMAT_VERSION})",
                word(8)
            ));
        }
        let expected = (
            self.pits as u32,
            u32::from(self.empty_capture),
            self.stones,
            self.values.len() as u64,
        );
        let found = (word(12), word(16), word(20), long(24));
        if found != expected {
            return Err(format!(
                "made for pits {}, empty capture {}, {} stones, {} positions (expected {}, {}, {}, {})",
                found.0, found.1, found.2, found.3, expected.0, expected.1, expected.2, expected.3
            ));
        }
        let mut data = Vec::with_capacity(self.values.len());
        file.take(self.values.len() as u64 + 1)
            .read_to_end(&mut data)
            .map_err(|e| format!("cannot read: {e}"))?;
        if data.len() != self.values.len() {
            return Err(format!(
                "{} value bytes (expected {})",
                data.len(),
                self.values.len()
            ));
        }
        if Self::checksum(data.iter().copied()) != long(32) {
            return Err("checksum mismatch: the file is damaged".to_string());
        }
        let limit = self.stones as i32;
        for (slot, &byte) in self.values.iter().zip(&data) {
            let value = i8::from_le_bytes([byte]);
            if i32::from(value).abs() > limit {
                return Err(format!("a value {value} outside ±{limit}"));
            }
            slot.store(value, Ordering::Relaxed);
        }
        Ok(())
    }
}

/// The pits of the composition with bars at `bars` (strictly increasing, below `k + bars.len()`).
#[inline]
fn bars_to_pits(bars: &[usize], k: u32, pits: &mut [u8]) {
    let mut previous: isize = -1;
    for (j, &b) in bars.iter().enumerate() {
        pits[j] = (b as isize - previous - 1) as u8;
        previous = b as isize;
    }
    let end = (k as usize + bars.len()) as isize;
    pits[bars.len()] = (end - previous - 1) as u8;
}

/// The next bar positions in colex order (the next rank).
#[inline]
fn next_bars(bars: &mut [usize], k: u32) {
    let len = bars.len();
    let end = k as usize + len;
    for j in 0..len {
        let bound = if j + 1 < len { bars[j + 1] } else { end };
        if bars[j] + 1 < bound {
            bars[j] += 1;
            for (i, bar) in bars[..j].iter_mut().enumerate() {
                *bar = i;
            }
            return;
        }
    }
}

/// The directory endgame databases are cached in: `GAMETREE_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/gametree`, else `~/.cache/gametree`; `None` when none is known.
pub fn cache_dir() -> Option<PathBuf> {
    let nonempty = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = nonempty("GAMETREE_CACHE_DIR") {
        return Some(PathBuf::from(dir));
    }
    if let Some(dir) = nonempty("XDG_CACHE_HOME") {
        return Some(PathBuf::from(dir).join("gametree"));
    }
    nonempty("HOME").map(|home| PathBuf::from(home).join(".cache").join("gametree"))
}

/// The cache file of a table.
pub fn cache_file(dir: &Path, pits: usize, empty_capture: bool, stones: u32) -> PathBuf {
    let rule = if empty_capture { "empty" } else { "standard" };
    dir.join(format!(
        "kalah-endgame-p{pits}-{rule}-s{stones}-v{FORMAT_VERSION}.bin"
    ))
}

/// Tables registered for the process, one slot per pits, rule and stones.
type Slots = [[[OnceLock<EndgameDb>; MAX_ENDGAME_STONES as usize + 1]; 2]; MAX_PITS + 1];
static SLOTS: Slots =
    [const { [const { [const { OnceLock::new() }; MAX_ENDGAME_STONES as usize + 1] }; 2] };
        MAX_PITS + 1];
/// The build running in this process: positions done and in all (0 in all: none).
static BUILD_PROGRESS: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];

/// How far the build running in this process has come (positions done, in all), `None`
/// when none runs: for screens that show it while they go on without the table.
pub fn build_progress() -> Option<(u64, u64)> {
    let total = BUILD_PROGRESS[1].load(Ordering::Relaxed);
    (total > 0).then(|| (BUILD_PROGRESS[0].load(Ordering::Relaxed), total))
}

/// One build at a time in a process (a second caller waits, then finds the table ready).
static BUILDING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The table registered for `pits`, the rule and `stones`, if [`prepare`] made it.
#[inline]
pub fn registered(pits: usize, empty_capture: bool, stones: u32) -> Option<&'static EndgameDb> {
    SLOTS
        .get(pits)?
        .get(usize::from(empty_capture))?
        .get(stones as usize)?
        .get()
}

/// Makes the table for `pits`, the rule and `stones` available to every game of this
/// process that asks for it ([`super::Kalah::with_endgame`]): from memory, from the cache
/// file in `cache` (normally [`cache_dir`]; `None`: no file is read or written), or built
/// now on every core (`progress(done, total)` while it runs; `stop` ends it with
/// [`EndgameError::Stopped`]). A built table is saved to the cache when possible.
pub fn prepare(
    cache: Option<&Path>,
    pits: usize,
    empty_capture: bool,
    stones: u32,
    progress: &mut dyn FnMut(u64, u64),
    stop: &StopFlag,
) -> Result<(&'static EndgameDb, Origin), EndgameError> {
    if let Some(db) = registered(pits, empty_capture, stones) {
        return Ok((db, Origin::Memory));
    }
    let _guard = BUILDING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(db) = registered(pits, empty_capture, stones) {
        return Ok((db, Origin::Memory));
    }
    let slot = SLOTS
        .get(pits)
        .and_then(|s| s.get(usize::from(empty_capture)))
        .and_then(|s| s.get(stones as usize))
        .ok_or_else(|| {
            EndgameError::Invalid(format!(
                "{pits} pits, {stones} stones: expected 1..={MAX_PITS} pits and at most {MAX_ENDGAME_STONES} stones"
            ))
        })?;
    let db = EndgameDb::empty(pits, empty_capture, stones)?;
    let path = cache.map(|dir| cache_file(dir, pits, empty_capture, stones));
    let mut rejected = None;
    if let Some(path) = &path
        && path.exists()
    {
        match db.load(path) {
            Ok(()) => {
                let db = slot.get_or_init(|| db);
                return Ok((db, Origin::Loaded(path.clone())));
            }
            Err(why) => rejected = Some(format!("{}: {why}", path.display())),
        }
        // A rejected file may have filled some values: start again from nothing.
    }
    let db = if rejected.is_some() {
        EndgameDb::empty(pits, empty_capture, stones)?
    } else {
        db
    };
    let started = Instant::now();
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    BUILD_PROGRESS[0].store(0, Ordering::Relaxed);
    BUILD_PROGRESS[1].store(db.len() as u64, Ordering::Relaxed);
    let built = db.build(
        threads,
        &mut |done, total| {
            BUILD_PROGRESS[0].store(done, Ordering::Relaxed);
            progress(done, total);
        },
        stop,
    );
    BUILD_PROGRESS[1].store(0, Ordering::Relaxed);
    built?;
    let elapsed = started.elapsed();
    let saved = match &path {
        Some(path) => db
            .save(path)
            .map(|()| path.clone())
            .map_err(|e| format!("{}: {e}", path.display())),
        None => Err("no cache directory (set GAMETREE_CACHE_DIR or HOME)".to_string()),
    };
    let db = slot.get_or_init(|| db);
    Ok((
        db,
        Origin::Built {
            elapsed,
            saved,
            rejected,
        },
    ))
}

/// One line on a prepared table: its size and where it came from.
pub fn describe(db: &EndgameDb, origin: &Origin, took: Duration) -> String {
    let what = format!(
        "endgame database: {} positions ({:.1} MB) with at most {} stones, {} pits, {} capture",
        crate::engine::stats::group_digits(db.len() as u64),
        db.len() as f64 / 1e6,
        db.stones(),
        db.pits(),
        if db.empty_capture() {
            "empty"
        } else {
            "standard"
        },
    );
    match origin {
        Origin::Memory => format!("{what}: in memory"),
        Origin::Loaded(path) => format!(
            "{what}: loaded from {} in {:.2} s",
            path.display(),
            took.as_secs_f64()
        ),
        Origin::Built {
            elapsed,
            saved,
            rejected,
        } => {
            let rejected = rejected
                .as_ref()
                .map(|why| format!(" (cache file rejected: {why})"))
                .unwrap_or_default();
            let saved = match saved {
                Ok(path) => format!("saved to {}", path.display()),
                Err(why) => format!("not saved: {why}"),
            };
            format!(
                "{what}: built in {:.2} s{rejected}, {saved}",
                elapsed.as_secs_f64()
            )
        }
    }
}

/// Builds a table in memory only, on `threads` threads, without registering or caching it
/// (for tests and measurements).
pub fn build_uncached(
    pits: usize,
    empty_capture: bool,
    stones: u32,
    threads: usize,
) -> Result<EndgameDb, EndgameError> {
    let db = EndgameDb::empty(pits, empty_capture, stones)?;
    db.build(threads, &mut |_, _| {}, &StopFlag::new())?;
    Ok(db)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_dense_and_follow_colex_order() {
        for pits in 1..=3 {
            let db = EndgameDb::empty(pits, false, 5).unwrap();
            let m = 2 * pits;
            let mut seen = vec![false; db.len()];
            for k in 0..=5u32 {
                let layer = db.offsets[k as usize + 1] - db.offsets[k as usize];
                let mut bars = vec![0; m - 1];
                EndgameDb::unrank_bars(0, k, &mut bars);
                let mut board = vec![0u8; m];
                for r in 0..layer {
                    let mut check = vec![0; m - 1];
                    EndgameDb::unrank_bars(r, k, &mut check);
                    assert_eq!(check, bars, "rank {r} of layer {k}");
                    bars_to_pits(&bars, k, &mut board);
                    assert_eq!(board.iter().map(|&s| u32::from(s)).sum::<u32>(), k);
                    let index = db.index(&board, k);
                    assert_eq!(index as u64, db.offsets[k as usize] + r);
                    assert!(!seen[index]);
                    seen[index] = true;
                    next_bars(&mut bars, k);
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn prefetch_reads_nothing_the_table_does_not_hold_and_changes_no_value() {
        let db = build_uncached(2, true, 6, 1).unwrap();
        let mut board = [0u8; 4];
        let before: Vec<i8> = db
            .values
            .iter()
            .map(|v| v.load(Ordering::Relaxed))
            .collect();
        // Every board up to 9 stones a pit: the table holds those of at most 6 stones.
        for code in 0..10u32.pow(4) {
            for (i, pit) in board.iter_mut().enumerate() {
                *pit = (code / 10u32.pow(i as u32) % 10) as u8;
            }
            db.prefetch(&board);
            db.prefetch(&board[..3]);
        }
        db.prefetch(&[]);
        let after: Vec<i8> = db
            .values
            .iter()
            .map(|v| v.load(Ordering::Relaxed))
            .collect();
        assert_eq!(before, after);
        assert_eq!(
            db.value(&[1, 0, 0, 1]),
            Some(i32::from(after[db.index(&[1, 0, 0, 1], 2)]))
        );
    }

    #[test]
    fn sizes() {
        assert_eq!(positions(6, 16), 30_421_755);
        assert_eq!(positions(6, 20), 225_792_840);
        assert_eq!(positions(1, 0), 1);
    }
}
