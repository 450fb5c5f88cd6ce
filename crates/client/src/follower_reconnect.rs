//! How a follower waits out a lost connection.
//!
//! A task runs on the service whatever happens to this computer's network, so losing the
//! network (refused or reset connections, timeouts, 5xx, 429) must never end the follow: only
//! the service says a task failed. The follower tries again for as long as it takes, with a
//! backoff that doubles up to a cap (so a laptop waking after an hour is back within half a
//! minute) and with jitter (so many followers do not come back in lockstep).

use std::time::Duration;

use rand::Rng;

use crate::client::ClientConfig;
use crate::error::Error;

/// The backoff stops doubling after this many steps: 64 × the first step (32 s by default).
const MAX_DOUBLINGS: u32 = 6;

/// Whether `err` is the network's or the service's passing trouble rather than an answer
/// about the task: following goes on after it.
pub(crate) fn is_passing(err: &Error) -> bool {
    err.code().is_transient()
}

/// Failed attempts since the connection was last good.
#[derive(Debug, Default)]
pub(crate) struct Outage {
    attempts: u32,
    announced: bool,
}

impl Outage {
    /// `true` once per outage: when the app should hear that the follower is reconnecting.
    pub(crate) fn announce(&mut self) -> bool {
        !std::mem::replace(&mut self.announced, true)
    }

    /// Records a failed attempt and says how long to wait before the next one.
    pub(crate) fn failed(&mut self, err: &Error, config: &ClientConfig) -> Duration {
        let step = config
            .backoff
            .saturating_mul(1 << self.attempts.min(MAX_DOUBLINGS));
        self.attempts = self.attempts.saturating_add(1);
        if let Some(asked) = err.retry_after() {
            // The service said when: no sooner, but never longer than the client waits at all.
            return asked.min(config.max_wait);
        }
        // Between half and all of the step.
        step.mul_f64(rand::rng().random_range(0.5..=1.0))
    }

    /// The connection answered again.
    pub(crate) fn ended(&mut self) {
        *self = Self::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_up_to_a_cap_and_starts_over_when_the_connection_is_back() {
        let config = ClientConfig::default();
        let mut outage = Outage::default();
        let cut = Error::StreamCut;
        assert!(is_passing(&cut));
        let waits: Vec<Duration> = (0..20).map(|_| outage.failed(&cut, &config)).collect();
        for (n, wait) in waits.iter().enumerate() {
            let step = config.backoff * (1 << n.min(6) as u32);
            assert!(*wait >= step / 2 && *wait <= step, "attempt {n}: {wait:?}");
        }
        assert!(waits.iter().all(|w| *w <= config.backoff * 64));
        assert!(outage.announce(), "the first failure is told");
        assert!(!outage.announce(), "and only the first");
        outage.ended();
        assert!(outage.announce(), "a new outage is told again");
        assert!(outage.failed(&cut, &config) <= config.backoff);
    }
}
