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
