//! Pacing reconnects: exponential backoff between attempts, and the service's limit of live URL
//! requests (120 an hour), kept as a sliding window so the viewer never asks for a URL the
//! service would refuse.

use rand::Rng;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Sliding-window count of URL requests.
#[derive(Debug)]
pub(crate) struct UrlBudget {
    limit: usize,
    window: Duration,
    requests: VecDeque<Instant>,
}

impl UrlBudget {
    pub(crate) fn new(limit: u32, window: Duration) -> Self {
        Self {
            limit: limit.max(1) as usize,
            window,
            requests: VecDeque::new(),
        }
    }

    /// How long to wait before the next request fits in the budget (zero if it fits now).
    pub(crate) fn wait_needed(&mut self, now: Instant) -> Duration {
        while let Some(&t) = self.requests.front() {
            if now.saturating_duration_since(t) < self.window {
                break;
            }
            self.requests.pop_front();
        }
        if self.requests.len() < self.limit {
            return Duration::ZERO;
        }
        self.requests.front().map_or(Duration::ZERO, |&oldest| {
            (oldest + self.window).saturating_duration_since(now)
        })
    }

    pub(crate) fn record(&mut self, now: Instant) {
        self.requests.push_back(now);
    }
}

/// Exponential backoff with ±20% jitter, reset after a healthy connection.
#[derive(Debug)]
pub(crate) struct Backoff {
    initial: Duration,
    max: Duration,
    next: Duration,
}

impl Backoff {
    pub(crate) fn new(initial: Duration, max: Duration) -> Self {
        Self {
            initial,
            max,
            next: initial,
        }
    }

    pub(crate) fn reset(&mut self) {
        self.next = self.initial;
    }

    pub(crate) fn next_delay(&mut self) -> Duration {
        let base = self.next;
        self.next = (self.next * 2).min(self.max);
        base.mul_f64(rand::rng().random_range(0.8..=1.2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_waits_for_the_oldest_request_to_leave_the_window() {
        let start = Instant::now();
        let mut budget = UrlBudget::new(2, Duration::from_secs(60));
        assert_eq!(budget.wait_needed(start), Duration::ZERO);
        budget.record(start);
        budget.record(start + Duration::from_secs(10));
        let now = start + Duration::from_secs(20);
        assert_eq!(budget.wait_needed(now), Duration::from_secs(40));
        assert_eq!(
            budget.wait_needed(start + Duration::from_secs(61)),
            Duration::ZERO
        );
    }

    #[test]
    fn backoff_doubles_to_its_cap_and_resets() {
        let mut b = Backoff::new(Duration::from_secs(1), Duration::from_secs(4));
        let delays: Vec<f64> = (0..4).map(|_| b.next_delay().as_secs_f64()).collect();
        for (d, base) in delays.iter().zip([1.0, 2.0, 4.0, 4.0]) {
            assert!((base * 0.8..=base * 1.2).contains(d), "{d} vs {base}");
        }
        b.reset();
        assert!(b.next_delay() <= Duration::from_millis(1200));
    }
}
