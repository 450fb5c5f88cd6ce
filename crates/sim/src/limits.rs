//! Per-account hourly limits from the spec's Limits table. Each subject has a fixed window
//! of one (scaled) hour that starts at the first counted call; a refused call is not counted.
//! Endpoints build their own documented 429 body from the `RetryAfter` they get back.

use crate::clock::Clock;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A subject of the Limits table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limit {
    Messages,
    MachineCreation,
    LiveRequests,
    ControlLeases,
    ControlExec,
    Learn,
    Judge,
    Uploads,
    Aborts,
    EventPolls,
    KeyCreation,
    /// Ours: the real service answers 429 here but publishes no number.
    NewSessions,
}

impl Limit {
    /// Calls allowed per hour.
    pub fn per_hour(self) -> u32 {
        match self {
            Limit::Messages => 60,
            Limit::MachineCreation => 3,
            Limit::LiveRequests => 120,
            Limit::ControlLeases => 30,
            Limit::ControlExec => 3000,
            Limit::Learn => 30,
            Limit::Judge => 120,
            Limit::Uploads => 30,
            Limit::Aborts => 20,
            Limit::EventPolls => 1200,
            Limit::KeyCreation => 5,
            Limit::NewSessions => 30,
        }
    }
}

/// Whole seconds (at least 1) until the caller may try again: the `Retry-After` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryAfter(pub u64);

struct Window {
    started: Instant,
    count: u32,
}

/// Counters of every account and subject.
pub struct Limits {
    clock: Clock,
    windows: Mutex<HashMap<(String, Limit), Window>>,
}

impl Limits {
    pub fn new(clock: Clock) -> Self {
        Self {
            clock,
            windows: Mutex::default(),
        }
    }

    /// Counts one call of `user_id` against `limit`, or says how long to wait.
    pub fn hit(&self, user_id: &str, limit: Limit) -> Result<(), RetryAfter> {
        let hour = self.clock.hour();
        let now = Instant::now();
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        let w = windows
            .entry((user_id.to_owned(), limit))
            .or_insert(Window {
                started: now,
                count: 0,
            });
        if now.duration_since(w.started) >= hour {
            w.started = now;
            w.count = 0;
        }
        if w.count >= limit.per_hour() {
            let left = hour.saturating_sub(now.duration_since(w.started));
            return Err(RetryAfter(ceil_secs(left)));
        }
        w.count += 1;
        Ok(())
    }
}

fn ceil_secs(d: Duration) -> u64 {
    let secs = d.as_secs() + u64::from(d.subsec_nanos() > 0);
    secs.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_past_the_limit_until_the_window_ends() {
        let limits = Limits::new(Clock::new(1.0));
        for _ in 0..3 {
            assert!(limits.hit("u", Limit::MachineCreation).is_ok());
        }
        let RetryAfter(secs) = limits.hit("u", Limit::MachineCreation).unwrap_err();
        assert!(secs > 3500 && secs <= 3600);
        assert!(limits.hit("other", Limit::MachineCreation).is_ok());
    }
}
