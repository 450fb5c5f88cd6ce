//! Client-side hourly budgets, one per limit of the spec.
//!
//! Why: the service answers `429` once an hourly limit is spent, and some limits (event polls,
//! messages) are easy to spend by accident in a loop. Each call takes a slot from a sliding
//! one-hour window first; when the window is full the call waits for the oldest slot to age
//! out (if that is soon) or fails at once with [`Error::BudgetSpent`] without sending anything.
//! The "hour" is configurable so tests against a time-scaled simulator see the same pacing.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::time::Instant;

use crate::error::Error;

/// One hourly limit of the spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum Limit {
    Messages,
    MachineCreation,
    Live,
    LeasesOpened,
    ExecBlocks,
    Learn,
    Judge,
    Uploads,
    Aborts,
    EventPolls,
    KeyCreation,
}

impl Limit {
    /// Calls per hour, from the spec's Limits table.
    pub fn per_hour(self) -> usize {
        match self {
            Self::Messages => 60,
            Self::MachineCreation => 3,
            Self::Live => 120,
            Self::LeasesOpened => 30,
            Self::ExecBlocks => 3000,
            Self::Learn => 30,
            Self::Judge => 120,
            Self::Uploads => 30,
            Self::Aborts => 20,
            Self::EventPolls => 1200,
            Self::KeyCreation => 5,
        }
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = match self {
            Self::Messages => "message",
            Self::MachineCreation => "computer creation",
            Self::Live => "live view",
            Self::LeasesOpened => "direct-control",
            Self::ExecBlocks => "code block",
            Self::Learn => "learn",
            Self::Judge => "judge",
            Self::Uploads => "upload",
            Self::Aborts => "stop",
            Self::EventPolls => "progress check",
            Self::KeyCreation => "key creation",
        };
        f.write_str(name)
    }
}

/// Sliding-window counters for every limit, shared by clones of a client.
#[derive(Debug)]
pub(crate) struct Budgets {
    hour: Duration,
    max_wait: Duration,
    windows: Mutex<HashMap<Limit, VecDeque<Instant>>>,
}

impl Budgets {
    pub(crate) fn new(hour: Duration, max_wait: Duration) -> Self {
        Self {
            hour,
            max_wait,
            windows: Mutex::new(HashMap::new()),
        }
    }

    /// Takes a slot for `limit`, waiting up to `max_wait` for one to free up.
    pub(crate) async fn take(&self, limit: Limit) -> Result<(), Error> {
        loop {
            let wait = match self.try_take(limit, Instant::now()) {
                None => return Ok(()),
                Some(wait) => wait,
            };
            if wait > self.max_wait {
                return Err(Error::BudgetSpent {
                    limit,
                    retry_after: wait,
                });
            }
            tracing::debug!(%limit, ?wait, "hourly budget spent, waiting");
            tokio::time::sleep(wait).await;
        }
    }

    /// Takes a slot now, or says how long until one frees up.
    fn try_take(&self, limit: Limit, now: Instant) -> Option<Duration> {
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        let window = windows.entry(limit).or_default();
        while window
            .front()
            .is_some_and(|&at| now.duration_since(at) >= self.hour)
        {
            window.pop_front();
        }
        if window.len() < limit.per_hour() {
            window.push_back(now);
            return None;
        }
        let oldest = *window.front()?;
        Some(self.hour.saturating_sub(now.duration_since(oldest)) + Duration::from_millis(1))
    }

    /// Counts `calls` of `limit` as made now, sending nothing.
    #[cfg(any(test, feature = "testing"))]
    pub(crate) fn count_as_spent(&self, limit: Limit, calls: usize) {
        let now = Instant::now();
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        let window = windows.entry(limit).or_default();
        window.extend(std::iter::repeat_n(now, calls));
    }

    /// Gives back a slot the service did not count (the request never left).
    pub(crate) fn refund(&self, limit: Limit) {
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(window) = windows.get_mut(&limit) {
            window.pop_back();
        }
    }

    /// Slots left in the current window.
    pub(crate) fn remaining(&self, limit: Limit) -> usize {
        let now = Instant::now();
        let windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        let used = windows.get(&limit).map_or(0, |window| {
            window
                .iter()
                .filter(|&&at| now.duration_since(at) < self.hour)
                .count()
        });
        limit.per_hour().saturating_sub(used)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_window_says_when_the_oldest_slot_frees() {
        let hour = Duration::from_secs(10);
        let budgets = Budgets::new(hour, Duration::from_secs(20));
        let t0 = Instant::now();
        for i in 0..Limit::Aborts.per_hour() {
            assert_eq!(
                budgets.try_take(Limit::Aborts, t0 + Duration::from_millis(i as u64)),
                None
            );
        }
        let wait = budgets
            .try_take(Limit::Aborts, t0 + Duration::from_secs(4))
            .expect("the window is full");
        assert!(
            wait > Duration::from_secs(5)
                && wait <= Duration::from_secs(6) + Duration::from_millis(1)
        );
        // Once the oldest slot is an hour old, a call goes through again.
        assert_eq!(budgets.try_take(Limit::Aborts, t0 + hour), None);
        // Other limits are counted apart.
        assert_eq!(budgets.try_take(Limit::Judge, t0), None);
    }

    #[tokio::test]
    async fn a_wait_longer_than_allowed_fails_at_once() {
        let strict = Budgets::new(Duration::from_secs(3600), Duration::from_secs(1));
        for _ in 0..Limit::KeyCreation.per_hour() {
            strict.take(Limit::KeyCreation).await.unwrap();
        }
        assert_eq!(strict.remaining(Limit::KeyCreation), 0);
        let err = strict.take(Limit::KeyCreation).await.unwrap_err();
        assert!(matches!(
            err,
            Error::BudgetSpent {
                limit: Limit::KeyCreation,
                ..
            }
        ));
        strict.refund(Limit::KeyCreation);
        assert_eq!(strict.remaining(Limit::KeyCreation), 1);
    }

    #[test]
    fn calls_counted_as_spent_leave_no_room_until_the_hour_passes() {
        let budgets = Budgets::new(Duration::from_secs(3600), Duration::ZERO);
        budgets.count_as_spent(Limit::Messages, Limit::Messages.per_hour());
        assert_eq!(budgets.remaining(Limit::Messages), 0);
        assert!(budgets.try_take(Limit::Messages, Instant::now()).is_some());
        assert_eq!(budgets.remaining(Limit::Judge), Limit::Judge.per_hour());
    }
}
