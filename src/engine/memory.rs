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
//! measured as nothing.
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
