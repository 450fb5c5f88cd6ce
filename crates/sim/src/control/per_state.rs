//! Storage that belongs to one running simulator without a field in `AppState`.
//!
//! Control, learn and judge each keep records (leases, results by id, idempotency keys) that
//! must not leak between two simulators in one process (tests run many). `PerState<T>` keys a
//! `T` by the identity of the simulator's shared state and forgets it once that simulator is
//! gone. A `T` must not hold an `AppState` itself (that would keep the simulator alive).

use std::sync::{Arc, Mutex, Weak};

use crate::state::{AppState, Inner};

/// One `T` per running simulator.
pub(crate) struct PerState<T> {
    entries: Mutex<Vec<(Weak<Inner>, Arc<T>)>>,
}

impl<T> PerState<T> {
    pub const fn new() -> Self {
        Self {
            entries: Mutex::new(Vec::new()),
        }
    }
}

impl<T: Default> PerState<T> {
    /// This simulator's `T`, created on first use.
    pub fn get(&self, state: &AppState) -> Arc<T> {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        // A live Weak pins its allocation, so a pointer match below is this very state.
        entries.retain(|(w, _)| w.strong_count() > 0);
        let me = Arc::as_ptr(&state.0);
        if let Some((_, t)) = entries.iter().find(|(w, _)| std::ptr::eq(w.as_ptr(), me)) {
            return t.clone();
        }
        let t = Arc::new(T::default());
        entries.push((Arc::downgrade(&state.0), t.clone()));
        t
    }
}

impl<T> Default for PerState<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// The simulator a weak handle points to, while it runs.
pub(crate) fn upgrade(weak: &Weak<Inner>) -> Option<AppState> {
    weak.upgrade().map(AppState)
}

/// A weak handle on the simulator, for records that must not keep it alive.
pub(crate) fn downgrade(state: &AppState) -> Weak<Inner> {
    Arc::downgrade(&state.0)
}
