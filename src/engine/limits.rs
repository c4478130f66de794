//! Stopping a search: a shared flag another thread (the TUI, a deadline) can raise.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Raised to ask a running search to stop as soon as it can. Cheap to clone and check.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A flag that is not raised.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every search holding a clone of this flag to stop.
    pub fn raise(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// True once [`StopFlag::raise`] was called.
    #[inline]
    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// How far one search may go: a depth in moves (an extra turn is a move of its own) and a
/// time. `depth: None` means no depth limit (the time, a proven value or the end of the game
/// stops the search); `time: None` means no time limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Moves to look ahead, at least 1; `None` = unlimited.
    pub depth: Option<u32>,
    /// Time for the whole search; `None` = unlimited.
    pub time: Option<std::time::Duration>,
    /// With a time limit: the time the search aims to take, well under `time`, when a match
    /// clock lets it save time on easy moves for hard ones (set by the Gomocup brain under
    /// `timeout_match`). No iteration is started past it, scaled by how settled the best
    /// move is: less when it has not changed for many iterations or is the only move, more
    /// (up to a share of `time` that falls with the depth) when it keeps changing. `None`:
    /// a fixed time a move, used to the last iteration that is likely to finish.
    pub target: Option<std::time::Duration>,
}

impl Limits {
    /// A search to exactly `depth` moves, with no time limit.
    pub const fn depth(depth: u32) -> Self {
        Self {
            depth: Some(depth),
            time: None,
            target: None,
        }
    }

    /// The deepest iteration or search allowed: the depth limit, or the engine's ply cap.
    pub fn max_depth(&self) -> u32 {
        self.depth
            .unwrap_or(super::score::MAX_PLY as u32)
            .min(super::score::MAX_PLY as u32)
    }

    /// The time limit in milliseconds, 0 when there is none (for messages and JSON).
    pub fn time_ms(&self) -> u64 {
        self.time.map_or(0, |t| t.as_millis() as u64)
    }
}
