//! The transposition table: a fixed-size, lock-free table keyed by [`Game::hash`] and shared
//! by every search thread. It knows scores only as plain `i32`s; turning them into
//! node-relative values and back is the search's business (see `full/node.rs`).
//!
//! Each slot is two `AtomicU64`s: the packed entry and the key XOR the entry. A reader that
//! catches a slot half-written by another thread sees a key mismatch and treats it as a miss
//! (Hyatt and Mann's lockless hashing, as in Stockfish and most parallel engines), so no lock
//! and no `unsafe` are needed.
//!
//! A position may hold two slots of its bucket: a lower bound and an upper bound, each with
//! its own depth. Null-window searches (MTD(f)'s tests, PVS's scouts) store a lower bound in
//! one pass and an upper bound in the next; with one slot a position, each pass would erase
//! what the other proved.
//!
//! [`Game::hash`]: super::Game::hash

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use zerocopy::FromZeros;

use super::tree::Bound;

/// The largest depth an entry can record.
pub const MAX_DEPTH: u32 = 1023;

/// One stored result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The stored score (node-relative, as the search wrote it).
    pub value: i32,
    /// What kind of bound `value` is.
    pub bound: Bound,
    /// Moves searched below the node. For a proven entry: the longest line the value relied
    /// on, so that it holds for a search of this depth or more.
    pub depth: u32,
    /// No horizon evaluation influenced the value: it was searched to the end of the game
    /// (or built from other proven values), so it holds at every depth from `depth` on.
    pub proven: bool,
    /// [`super::Game::move_index`] of the best move found, if any.
    pub best: Option<u16>,
}

/// Bytes per slot: two `u64`s.
const SLOT_BYTES: usize = 16;
/// Slots per bucket (one cache line): a probe looks at all of them.
const BUCKET: usize = 4;
/// Words of one cache line, to which buckets are aligned.
const LINE_WORDS: usize = 8;

/// What the table holds for a position: an exact value or a lower bound first, an upper
/// bound second (or first, when there is no lower bound).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stored {
    /// The exact value, else the lower bound, else the upper bound.
    pub first: Entry,
    /// The upper bound, when `first` is a lower bound and there is one.
    pub second: Option<Entry>,
}

impl Stored {
    /// The entries, `first` first.
    pub fn entries(self) -> impl Iterator<Item = Entry> {
        std::iter::once(self.first).chain(self.second)
    }

    /// The best move stored, the lower bound's (the move that cut off) before the upper's.
    pub fn best(&self) -> Option<u16> {
        self.first.best.or_else(|| self.second.and_then(|e| e.best))
    }
}

/// A lock-free transposition table of a fixed number of slots (a power of two).
#[derive(Debug)]
pub struct TranspositionTable {
    /// Slot `i` is `words[base + 2 * i]` (the key XOR the entry) and `words[base + 2 * i +
    /// 1]` (the entry): a bucket's slots fill one cache line.
    words: Box<[AtomicU64]>,
    /// The first word of a cache line.
    base: usize,
    /// `slots - 1`, with the bucket bit cleared.
    mask: usize,
    generation: AtomicU8,
    /// The tag of the current contents (see [`Self::reset`]): a value within `mask`'s bits.
    epoch: AtomicU64,
}

/// Why a table of the asked size cannot be had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// More than the machine has available: the table would swap, or fail half-way through a
    /// game when its pages are first written.
    #[error("{requested_mb} MiB is more than the {available_mb} MiB of memory available")]
    TooLarge {
        /// The size asked for.
        requested_mb: usize,
        /// What `/proc/meminfo` says is available.
        available_mb: usize,
    },
    /// The allocator refused.
    #[error("cannot allocate {requested_mb} MiB for the transposition table")]
    Allocation {
        /// The size asked for.
        requested_mb: usize,
    },
}

/// The memory the machine has available now, in MiB (`MemAvailable` in `/proc/meminfo`);
/// `None` where that cannot be read (another system, a sandbox), and no limit is then known.
pub fn available_memory_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_mem_available_mb(&text)
}

fn parse_mem_available_mb(meminfo: &str) -> Option<usize> {
    let line = meminfo
        .lines()
        .find_map(|line| line.strip_prefix("MemAvailable:"))?;
    let mut words = line.split_whitespace();
    let kib: usize = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") | None => Some(kib / 1024),
        Some(_) => None,
    }
}

/// The number of slots a table of at most `megabytes` MiB has (a power of two, at least one
/// bucket).
fn slots_for(megabytes: usize) -> usize {
    let bytes = megabytes.max(1).saturating_mul(1 << 20);
    let wanted = (bytes / SLOT_BYTES).max(BUCKET);
    if wanted.is_power_of_two() {
        wanted
    } else {
        wanted.next_power_of_two() / 2
    }
}

impl TranspositionTable {
    /// A table of at most `megabytes` MiB (at least one bucket), rounded down to a power of
    /// two slots; smaller when the machine has less memory available or the allocator
    /// refuses (halved until it accepts), so that it never fails. [`Self::try_new`] refuses
    /// instead.
    pub fn new(megabytes: usize) -> Self {
        let mut megabytes = megabytes.max(1);
        if let Some(available) = available_memory_mb() {
            megabytes = megabytes.min(available.max(1));
        }
        let mut slots = slots_for(megabytes);
        loop {
            match Self::allocate(slots) {
                Some(table) => return table,
                None if slots > BUCKET => slots /= 2,
                None => return Self::with_slots(BUCKET),
            }
        }
    }

    /// A table of at most `megabytes` MiB, or why not: more than the machine has available,
    /// or refused by the allocator.
    pub fn try_new(megabytes: usize) -> Result<Self, TableError> {
        if let Some(available_mb) = available_memory_mb()
            && megabytes > available_mb
        {
            return Err(TableError::TooLarge {
                requested_mb: megabytes,
                available_mb,
            });
        }
        Self::allocate(slots_for(megabytes)).ok_or(TableError::Allocation {
            requested_mb: megabytes,
        })
    }

    /// A table of exactly `slots` slots (a power of two, at least 2).
    ///
    /// # Panics
    /// If the memory cannot be had (callers with sizes from users go through [`Self::new`]
    /// or [`Self::try_new`]).
    pub fn with_slots(slots: usize) -> Self {
        #[allow(clippy::expect_used)]
        Self::allocate(slots).expect("memory for the transposition table")
    }

    fn allocate(slots: usize) -> Option<Self> {
        let slots = slots.max(BUCKET).checked_next_power_of_two()?;
        // Zeroed memory straight from the allocator: the operating system hands out zero
        // pages lazily, so a large table costs nothing until the search touches it.
        let words = <[AtomicU64] as FromZeros>::new_box_zeroed_with_elems(
            slots.checked_mul(2)?.checked_add(LINE_WORDS - 1)?,
        )
        .ok()?;
        // Untouched so far: huge pages can still back it.
        super::memory::advise_huge_pages(&words);
        let line = LINE_WORDS * std::mem::size_of::<AtomicU64>();
        let base =
            (line - words.as_ptr() as usize % line) % line / std::mem::size_of::<AtomicU64>();
        Some(Self {
            words,
            base,
            mask: (slots - 1) & !(BUCKET - 1),
            generation: AtomicU8::new(0),
            epoch: AtomicU64::new(0),
        })
    }

    /// Number of slots.
    pub fn slots(&self) -> usize {
        (self.words.len() - (LINE_WORDS - 1)) / 2
    }

    #[inline]
    fn key_word(&self, slot: usize) -> &AtomicU64 {
        &self.words[self.base + 2 * slot]
    }

    /// The words of the bucket `hash` falls in (slot `i`: key word `2 * i`, entry `2 * i +
    /// 1`), taken once so that the slots are read without a bounds check each. `None` never
    /// happens (the mask keeps a bucket inside the table).
    #[inline]
    fn bucket(&self, hash: u64) -> Option<&[AtomicU64; 2 * BUCKET]> {
        let start = self.base + 2 * (hash as usize & self.mask);
        self.words.get(start..start + 2 * BUCKET)?.try_into().ok()
    }

    #[inline]
    fn data_word(&self, slot: usize) -> &AtomicU64 {
        &self.words[self.base + 2 * slot + 1]
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots() * SLOT_BYTES
    }

    /// Marks the start of a new search: entries of older searches are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// Forgets everything by writing every slot (this also touches every page, so that a
    /// search does not pay for the first touch).
    pub fn clear(&self) {
        for word in &self.words {
            word.store(0, Ordering::Relaxed);
        }
        self.epoch.store(0, Ordering::Relaxed);
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Forgets everything in constant time, leaving the table as a freshly made one behaves.
    ///
    /// The bits of a key that pick its bucket (`mask`) are implied by where the entry is, so
    /// the stored key word carries an epoch there instead of them. A slot of another epoch
    /// is empty to every probe and store; a reset moves to the next epoch. Only when the
    /// epochs run out (after `mask + 1` resets; at once for a one-bucket table) is every slot
    /// written.
    pub fn reset(&self) {
        let mask = self.mask as u64;
        let current = self.epoch.load(Ordering::Relaxed);
        // The next value within the bits of `mask`.
        let next = (current | !mask).wrapping_add(1) & mask;
        if next == 0 {
            self.clear();
        } else {
            self.epoch.store(next, Ordering::Relaxed);
            self.generation.store(0, Ordering::Relaxed);
        }
    }

    /// What the key word XOR the entry of a slot holding `hash` in the current epoch is.
    #[inline]
    fn tag(&self, hash: u64) -> u64 {
        (hash & !(self.mask as u64)) | self.epoch.load(Ordering::Relaxed)
    }

    /// Whether a slot whose key word XOR entry is `key` belongs to the current epoch.
    #[inline]
    fn current(&self, key: u64, epoch: u64) -> bool {
        key & self.mask as u64 == epoch
    }

    fn current_generation(&self) -> u64 {
        u64::from(self.generation.load(Ordering::Relaxed)) % GENERATIONS
    }

    /// The entry stored for `hash`, if any: its exact value or lower bound before its upper
    /// bound (see [`Self::probe_bounds`] for both bounds).
    #[inline]
    pub fn probe(&self, hash: u64) -> Option<Entry> {
        self.probe_bounds(hash).map(|stored| stored.first)
    }

    /// Starts fetching the bucket `hash` falls in (see [`crate::engine::memory::prefetch`]), so that
    /// a [`Self::probe_bounds`] soon after finds it in the processor's cache.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        if let Some(bucket) = self.bucket(hash) {
            super::memory::prefetch(bucket);
        }
    }

    /// Everything stored for `hash`: an exact value, or a lower bound, an upper bound or both.
    #[inline]
    pub fn probe_bounds(&self, hash: u64) -> Option<Stored> {
        let bucket = self.bucket(hash)?;
        let tag = self.tag(hash);
        let mut lower = None;
        let mut upper = None;
        for slot in bucket.chunks_exact(2) {
            let data = slot[1].load(Ordering::Relaxed);
            let key = slot[0].load(Ordering::Relaxed);
            if data != 0
                && key ^ data == tag
                && let Some(entry) = unpack(data)
            {
                match entry.bound {
                    Bound::Exact => {
                        return Some(Stored {
                            first: entry,
                            second: None,
                        });
                    }
                    Bound::Lower => lower = lower.or(Some(entry)),
                    Bound::Upper => upper = upper.or(Some(entry)),
                }
            }
        }
        match (lower, upper) {
            (Some(first), second) => Some(Stored { first, second }),
            (None, Some(first)) => Some(Stored {
                first,
                second: None,
            }),
            (None, None) => None,
        }
    }

    /// Stores a result for `hash`. A lower and an upper bound each have a slot of their own;
    /// an exact value takes the place of both. The slot already holding `hash`'s value of the
    /// same kind (or its exact value) is overwritten unless it holds a proven value and the
    /// new one is not, or a deeper result of the current search and the new one is only a
    /// bound; otherwise a free slot, or the one with the shallowest or oldest entry of
    /// another position, is taken.
    #[inline]
    pub fn store(&self, hash: u64, entry: Entry) {
        let Some(bucket) = self.bucket(hash) else {
            return;
        };
        let generation = self.current_generation();
        let new = pack(entry, generation);
        let tag = self.tag(hash);
        let epoch = tag & self.mask as u64;
        // This position's slot of the same kind, its slot of the other bound, and the slot
        // to take otherwise (slots of the bucket, 0..BUCKET).
        let mut same = None;
        let mut other = None;
        let mut victim = 0;
        let mut victim_worth = i64::MAX;
        for (i, slot) in bucket.chunks_exact(2).enumerate() {
            let data = slot[1].load(Ordering::Relaxed);
            let key = slot[0].load(Ordering::Relaxed) ^ data;
            if data == 0 || !self.current(key, epoch) {
                if victim_worth > i64::MIN {
                    victim = i;
                    victim_worth = i64::MIN;
                }
                continue;
            }
            if key == tag
                && let Some(old) = unpack(data)
            {
                let kind = entry.bound == Bound::Exact
                    || old.bound == Bound::Exact
                    || old.bound == entry.bound;
                if kind && same.is_none() {
                    same = Some((i, old, data));
                } else {
                    other = Some((i, old));
                }
                continue;
            }
            // Older generations are worth less: a stale deep entry goes before a fresh one.
            let age = (generation + GENERATIONS - entry_generation(data)) % GENERATIONS;
            let proven_bonus = if is_proven(data) { 4 } else { 0 };
            let worth = i64::from(depth_of(data)) + proven_bonus - 8 * age as i64;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        if let Some((i, old, data)) = same {
            let keep = (old.proven && !entry.proven)
                || (old.depth > entry.depth
                    && entry.bound != Bound::Exact
                    && !entry.proven
                    && entry_generation(data) == generation);
            if keep {
                return;
            }
            victim = i;
        }
        // Slot `i`'s entry is written before its key, as a probe reads them.
        let write = |i: usize, key_word: u64, data: u64| {
            if let Some([key, entry]) = bucket.get(2 * i..2 * i + 2) {
                entry.store(data, Ordering::Relaxed);
                key.store(key_word, Ordering::Relaxed);
            }
        };
        if entry.bound == Bound::Exact
            && let Some((i, old)) = other
            && (entry.proven || !old.proven)
        {
            // The exact value answers every probe the bound did.
            write(i, 0, 0);
        }
        write(victim, tag ^ new, new);
    }

    /// Parts per thousand of a sample of slots filled by the current search (like UCI's
    /// `hashfull`).
    pub fn permille_full(&self) -> u32 {
        let sample = self.slots().min(1000);
        let generation = self.current_generation();
        let epoch = self.epoch.load(Ordering::Relaxed);
        let used = (0..sample)
            .filter(|&i| {
                let d = self.data_word(i).load(Ordering::Relaxed);
                let key = self.key_word(i).load(Ordering::Relaxed) ^ d;
                d != 0 && self.current(key, epoch) && entry_generation(d) == generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

// Packing: value 32 bits | best move + 1: 16 | depth 10 | bound 2 | proven 1 | generation 3.
const VALUE_BITS: u32 = 32;
const MOVE_SHIFT: u32 = VALUE_BITS;
const DEPTH_SHIFT: u32 = MOVE_SHIFT + 16;
const BOUND_SHIFT: u32 = DEPTH_SHIFT + 10;
const PROVEN_SHIFT: u32 = BOUND_SHIFT + 2;
const GEN_SHIFT: u32 = PROVEN_SHIFT + 1;
const GENERATIONS: u64 = 8;

#[inline]
fn pack(entry: Entry, generation: u64) -> u64 {
    let bound = match entry.bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    let best = entry.best.map_or(0, |m| u64::from(m) + 1);
    u64::from(entry.value as u32)
        | (best & 0xFFFF) << MOVE_SHIFT
        | u64::from(entry.depth.min(MAX_DEPTH)) << DEPTH_SHIFT
        | bound << BOUND_SHIFT
        | u64::from(entry.proven) << PROVEN_SHIFT
        | (generation % GENERATIONS) << GEN_SHIFT
}

#[inline]
fn unpack(data: u64) -> Option<Entry> {
    let bound = match (data >> BOUND_SHIFT) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    let best = ((data >> MOVE_SHIFT) & 0xFFFF) as u16;
    Some(Entry {
        value: data as u32 as i32,
        bound,
        depth: depth_of(data),
        proven: is_proven(data),
        best: best.checked_sub(1),
    })
}

#[inline]
fn is_proven(data: u64) -> bool {
    (data >> PROVEN_SHIFT) & 1 == 1
}

#[inline]
fn depth_of(data: u64) -> u32 {
    ((data >> DEPTH_SHIFT) & 0x3FF) as u32
}

#[inline]
fn entry_generation(data: u64) -> u64 {
    (data >> GEN_SHIFT) % GENERATIONS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn available_memory_is_read_from_meminfo() {
        let meminfo = "MemTotal:       24684084 kB\nMemFree:  1 kB\nMemAvailable:   23208792 kB\n";
        assert_eq!(parse_mem_available_mb(meminfo), Some(22_664));
        assert_eq!(parse_mem_available_mb("MemTotal: 5 kB\n"), None);
        assert_eq!(parse_mem_available_mb("MemAvailable: lots kB\n"), None);
        assert_eq!(parse_mem_available_mb("MemAvailable: 5 GB\n"), None);
    }

    #[test]
    fn a_table_larger_than_the_machine_is_refused_with_its_size() {
        let huge = usize::MAX >> 21;
        let refused = TranspositionTable::try_new(huge).unwrap_err();
        match refused {
            TableError::TooLarge {
                requested_mb,
                available_mb,
            } => {
                assert_eq!(requested_mb, huge);
                assert!(refused.to_string().contains(&available_mb.to_string()));
            }
            TableError::Allocation { requested_mb } => assert_eq!(requested_mb, huge),
        }
        assert!(refused.to_string().contains(&huge.to_string()), "{refused}");
    }

    #[test]
    fn a_table_too_large_falls_back_to_what_can_be_had() {
        let table = TranspositionTable::new(usize::MAX >> 21);
        let limit = available_memory_mb().map_or(usize::MAX, |mb| mb.max(1) << 20);
        assert!(table.bytes() <= limit, "{} bytes", table.bytes());
        assert!(table.slots() >= BUCKET);
        assert_eq!(TranspositionTable::try_new(1).unwrap().bytes(), 1 << 20);
    }

    fn entry(value: i32, bound: Bound, depth: u32, best: Option<u16>) -> Entry {
        Entry {
            value,
            bound,
            depth,
            proven: false,
            best,
        }
    }

    #[test]
    fn packing_round_trips() {
        for e in [
            entry(-1_000_000, Bound::Upper, 0, None),
            entry(1_000_000, Bound::Lower, MAX_DEPTH, Some(0)),
            Entry {
                proven: true,
                ..entry(-7, Bound::Upper, 12, Some(3))
            },
            entry(0, Bound::Exact, 37, Some(u16::MAX - 1)),
            entry(-5, Bound::Exact, 1, Some(360)),
        ] {
            assert_eq!(unpack(pack(e, 9)), Some(e));
        }
    }

    #[test]
    fn store_then_probe_and_miss_on_other_keys() {
        let tt = TranspositionTable::with_slots(64);
        let e = entry(42, Bound::Exact, 3, Some(7));
        tt.store(0xDEAD_BEEF, e);
        assert_eq!(tt.probe(0xDEAD_BEEF), Some(e));
        assert_eq!(tt.probe(0xDEAD_BEEE), None);
        // Same bucket, different key: both fit (two slots a bucket).
        let other = 0xDEAD_BEEF ^ (1 << 40);
        tt.store(other, entry(1, Bound::Lower, 1, None));
        assert_eq!(tt.probe(0xDEAD_BEEF), Some(e));
        assert_eq!(tt.probe(other).map(|x| x.value), Some(1));
    }

    #[test]
    fn deep_entries_survive_shallow_bounds_of_the_same_search() {
        let tt = TranspositionTable::with_slots(2);
        tt.store(5, entry(10, Bound::Exact, 8, Some(1)));
        tt.store(5, entry(3, Bound::Lower, 2, Some(2)));
        assert_eq!(tt.probe(5).map(|e| e.depth), Some(8));
        // An exact result replaces it.
        tt.store(5, entry(4, Bound::Exact, 2, Some(2)));
        assert_eq!(tt.probe(5).map(|e| e.value), Some(4));
        // A proven value is kept against unproven ones, even exact ones of later searches.
        tt.store(
            5,
            Entry {
                proven: true,
                ..entry(6, Bound::Lower, 4, None)
            },
        );
        tt.store(5, entry(5, Bound::Exact, 9, None));
        tt.new_search();
        tt.store(5, entry(5, Bound::Exact, 9, None));
        assert_eq!(tt.probe(5).map(|e| (e.value, e.proven)), Some((6, true)));
    }

    #[test]
    fn a_new_search_replaces_deep_entries_of_old_ones() {
        let tt = TranspositionTable::with_slots(2);
        tt.store(5, entry(10, Bound::Exact, 8, Some(1)));
        tt.new_search();
        tt.store(5, entry(9, Bound::Upper, 1, None));
        assert_eq!(tt.probe(5).map(|e| e.value), Some(9));
    }

    #[test]
    fn replacement_prefers_shallow_and_old_slots() {
        let tt = TranspositionTable::with_slots(BUCKET);
        tt.store(2, entry(1, Bound::Exact, 9, None));
        tt.store(4, entry(2, Bound::Exact, 1, None));
        tt.store(6, entry(3, Bound::Exact, 5, None));
        tt.store(8, entry(4, Bound::Exact, 7, None));
        // A fifth key in the full bucket evicts the shallowest entry.
        tt.store(10, entry(5, Bound::Exact, 3, None));
        assert!(tt.probe(2).is_some());
        assert!(tt.probe(4).is_none());
        for key in [6, 8, 10] {
            assert!(tt.probe(key).is_some(), "{key}");
        }
    }

    #[test]
    fn a_lower_and_an_upper_bound_of_one_position_both_answer() {
        let tt = TranspositionTable::with_slots(64);
        let lower = entry(7, Bound::Lower, 12, Some(3));
        let upper = Entry {
            proven: true,
            ..entry(10, Bound::Upper, 20, Some(5))
        };
        tt.store(0xABC, lower);
        tt.store(0xABC, upper);
        let stored = tt.probe_bounds(0xABC).unwrap();
        assert_eq!(stored.first, lower);
        assert_eq!(stored.second, Some(upper));
        assert_eq!(stored.entries().count(), 2);
        // The move that cut off is the one to try first; `probe` gives the lower bound.
        assert_eq!(stored.best(), Some(3));
        assert_eq!(tt.probe(0xABC), Some(lower));
        // A new lower bound replaces the lower one only; the upper bound stays.
        let higher = entry(8, Bound::Lower, 12, None);
        tt.store(0xABC, higher);
        let stored = tt.probe_bounds(0xABC).unwrap();
        assert_eq!((stored.first, stored.second), (higher, Some(upper)));
        assert_eq!(stored.best(), Some(5));
        // An upper bound alone comes first.
        tt.store(0xDEF, upper);
        assert_eq!(tt.probe(0xDEF), Some(upper));
        assert_eq!(tt.probe_bounds(0xDEF).unwrap().second, None);
        // An exact value takes the place of both bounds (the proven upper bound stays
        // against an unproven value, and goes for a proven one).
        let exact = Entry {
            proven: true,
            ..entry(9, Bound::Exact, 20, Some(1))
        };
        tt.store(0xABC, exact);
        let stored = tt.probe_bounds(0xABC).unwrap();
        assert_eq!((stored.first, stored.second), (exact, None));
        let slots_of_abc = (0..BUCKET)
            .filter(|&i| {
                let slot = (0xABC & tt.mask) + i;
                let data = tt.data_word(slot).load(Ordering::Relaxed);
                data != 0 && tt.key_word(slot).load(Ordering::Relaxed) ^ data == tt.tag(0xABC)
            })
            .count();
        assert_eq!(slots_of_abc, 1);
    }

    #[test]
    fn the_two_bounds_of_one_position_leave_room_for_others() {
        let tt = TranspositionTable::with_slots(BUCKET);
        tt.store(1, entry(1, Bound::Lower, 5, None));
        tt.store(1, entry(4, Bound::Upper, 5, None));
        tt.store(2, entry(2, Bound::Exact, 9, None));
        tt.store(3, entry(3, Bound::Exact, 9, None));
        let stored = tt.probe_bounds(1).unwrap();
        assert_eq!(
            (stored.first.value, stored.second.map(|e| e.value)),
            (1, Some(4))
        );
        assert_eq!(tt.probe(2).map(|e| e.value), Some(2));
        assert_eq!(tt.probe(3).map(|e| e.value), Some(3));
    }

    #[test]
    fn buckets_fill_one_cache_line() {
        let tt = TranspositionTable::with_slots(64);
        let line = LINE_WORDS * std::mem::size_of::<AtomicU64>();
        for bucket in [0, BUCKET, 60] {
            assert_eq!(
                std::ptr::from_ref(tt.key_word(bucket)) as usize % line,
                0,
                "{bucket}"
            );
        }
        assert_eq!(tt.slots(), 64);
        assert_eq!(tt.bytes(), 64 * SLOT_BYTES);
    }

    #[test]
    fn clear_forgets_everything() {
        let tt = TranspositionTable::with_slots(64);
        tt.store(77, entry(1, Bound::Exact, 3, None));
        tt.clear();
        assert_eq!(tt.probe(77), None);
    }

    #[test]
    fn reset_forgets_everything_like_a_fresh_table() {
        let keys = [0x4D_u64, 0x4D ^ (1 << 40), 0x1234_5678_9ABC_DEF0, 3];
        for slots in [2, 4, 64] {
            let tt = TranspositionTable::with_slots(slots);
            // More resets than a small table has epochs: the last ones wrap to a full clear.
            for round in 0..(slots as i32 + 3) {
                for (k, &key) in keys.iter().enumerate() {
                    assert_eq!(tt.probe(key), None, "{slots} slots, round {round}, key {k}");
                }
                tt.new_search();
                for (k, &key) in keys.iter().enumerate() {
                    tt.store(key, entry(round + k as i32, Bound::Exact, 3, None));
                }
                let last = keys[keys.len() - 1];
                assert_eq!(
                    tt.probe(last).map(|e| e.value),
                    Some(round + keys.len() as i32 - 1)
                );
                tt.reset();
                assert_eq!(tt.permille_full(), 0);
            }
        }
        // After a reset, a stale slot is free: both new keys of one bucket fit, as in a new
        // table, even where the stale entries were deep.
        let tt = TranspositionTable::with_slots(64);
        tt.store(0x8, entry(1, Bound::Exact, 40, None));
        tt.store(0x8 ^ (1 << 40), entry(2, Bound::Exact, 40, None));
        tt.reset();
        tt.store(0x8 ^ (1 << 41), entry(3, Bound::Exact, 1, None));
        tt.store(0x8 ^ (1 << 42), entry(4, Bound::Exact, 1, None));
        assert_eq!(tt.probe(0x8 ^ (1 << 41)).map(|e| e.value), Some(3));
        assert_eq!(tt.probe(0x8 ^ (1 << 42)).map(|e| e.value), Some(4));
        assert_eq!(tt.probe(0x8), None);
    }

    #[test]
    fn sizes_are_powers_of_two_within_the_budget() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.bytes(), 1 << 20);
        let tt = TranspositionTable::new(3);
        assert_eq!(tt.bytes(), 2 << 20);
    }
}
