//! Hints about memory, to the processor: the one place the crate allows `unsafe` code (the
//! crate denies it everywhere else).
//!
//! The search's two large tables, the transposition table and Gomoku's per-thread cache of
//! line shapes, are read at random places, and most reads miss the processor's caches. A
//! prefetch issued as soon as the address is known (the child's hash before its move is
//! played, the four lines of a move before the first is looked up) lets those loads overlap
//! the work in between instead of waiting one after another: 6 - 7 % more Gomoku nodes a
//! second (docs/performance.md, "Wave 28"). A plain load whose value is dropped does not do
//! it: it holds up everything after it once the processor's reorder window fills, and
//! measured as nothing. A solve of Kalah (or of Dots and Boxes with a large table) fetches
//! every child's table bucket and endgame database entry at once
//! (`Game::prefetch_children`), and huge pages for the table and the database
//! ([`advise_huge_pages`]) spare most of those reads a walk of the page tables before the
//! load itself (docs/performance.md, "Wave 29").
#![allow(unsafe_code)]

/// Starts fetching the cache line that holds `*value`. Only a hint: no effect on what the
/// program computes, and nothing at all on processors without a stable prefetch intrinsic.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: `_mm_prefetch` only needs SSE, which every x86_64 processor has, and is a
        // hint: it reads nothing the program sees and never faults, whatever the address
        // (here a live reference's, so valid anyway).
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// Asks the operating system to back `memory` with huge pages (2 MiB on `x86_64`) where it can.
/// The transposition table and Kalah's endgame databases are read at random places, and
/// with 4 KiB pages nearly every such read also misses the processor's cache of address
/// translations and walks the page tables first: a Kalah solve with a 512 MiB table took
/// about 11 % less time on huge pages (docs/performance.md, "Wave 29"). Linux only
/// (transparent huge pages, when the system's setting is `madvise` or `always`); call it
/// before the memory is first written, since pages already in place stay as they are. Only a
/// hint: nothing the program computes changes, and a refusal leaves the memory as it was.
pub fn advise_huge_pages<T>(memory: &[T]) {
    #[cfg(target_os = "linux")]
    {
        /// Smaller regions cannot hold a huge page.
        const HUGE_PAGE: usize = 2 << 20;
        let bytes = std::mem::size_of_val(memory);
        if bytes < HUGE_PAGE {
            return;
        }
        // SAFETY: `sysconf` reads a system constant; it touches no memory of ours.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        let Ok(page) = usize::try_from(page) else {
            return;
        };
        if !page.is_power_of_two() {
            return;
        }
        let first = memory.as_ptr() as usize;
        let start = first.next_multiple_of(page);
        let end = (first + bytes) & !(page - 1);
        if end > start {
            // SAFETY: `[start, end)` is a run of whole pages inside `memory`, which is
            // borrowed for the call, so mapped. `MADV_HUGEPAGE` only changes how the kernel
            // backs those pages, never their contents or whether they are mapped. The result
            // is ignored: without huge pages the memory stays as it was.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = memory;
}
