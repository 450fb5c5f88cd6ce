//! The session task: get a URL, run a connection, and when it ends decide whether and when to
//! try again (backoff, the hourly URL budget, and reasons that stop for good).

use super::connection;
use super::shared::Shared;
use super::ViewerOptions;
use crate::budget::{Backoff, UrlBudget};
use crate::end_reason::{EndReason, Status};
use crate::url_source::{UrlError, UrlSource};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::Instant;

pub(super) async fn run(shared: Arc<Shared>, source: impl UrlSource, options: ViewerOptions) {
    let reason = reconnect_loop(&shared, &source, &options).await;
    shared.push_status(Status::Ended(reason));
    shared.finish();
}

async fn reconnect_loop(
    shared: &Shared,
    source: &impl UrlSource,
    options: &ViewerOptions,
) -> EndReason {
    let mut budget = UrlBudget::new(options.urls_per_window, options.url_window);
    let mut backoff = Backoff::new(options.backoff_initial, options.backoff_max);
    let mut attempt = 0u32;
    let mut failures = 0u32;
    let mut connection = 0u64;
    loop {
        let wait = budget.wait_needed(Instant::now().into_std());
        if !wait.is_zero() {
            let reason = EndReason::RateLimited {
                retry_after: Some(wait),
            };
            shared.push_status(Status::Reconnecting {
                reason,
                retry_in: wait,
            });
            if sleep_unless_stopped(shared, wait).await {
                return EndReason::Stopped;
            }
            continue;
        }
        attempt += 1;
        shared.push_status(Status::Connecting { attempt });
        budget.record(Instant::now().into_std());
        let fetched = tokio::select! {
            fetched = source.fresh_url() => fetched,
            () = stopped(shared) => return EndReason::Stopped,
        };
        let (reason, healthy, retry_after) = match fetched {
            Ok(url) => {
                connection += 1;
                let outcome = connection::run(shared, options, url, connection).await;
                (outcome.reason, outcome.healthy, None)
            }
            Err(UrlError::Asleep) => return EndReason::Asleep,
            Err(UrlError::RateLimited { retry_after }) => {
                (EndReason::RateLimited { retry_after }, false, retry_after)
            }
            Err(UrlError::Other(detail)) => (EndReason::UrlUnavailable { detail }, false, None),
        };
        if reason.is_final() {
            return reason;
        }
        if healthy {
            backoff.reset();
            failures = 0;
        } else {
            failures += 1;
        }
        if options
            .max_failed_attempts
            .is_some_and(|max| failures >= max)
        {
            return reason;
        }
        let retry_in = retry_after.unwrap_or_else(|| backoff.next_delay());
        tracing::debug!(
            reason = reason.code(),
            ?retry_in,
            "live view ended; reconnecting"
        );
        shared.push_status(Status::Reconnecting { reason, retry_in });
        if sleep_unless_stopped(shared, retry_in).await {
            return EndReason::Stopped;
        }
    }
}

/// Resolves once the consumer asked to stop.
pub(super) async fn stopped(shared: &Shared) {
    loop {
        let notified = shared.to_session.notified();
        if shared.lock().stop_requested {
            return;
        }
        notified.await;
    }
}

/// Sleeps; true if the consumer asked to stop meanwhile.
async fn sleep_unless_stopped(shared: &Shared, duration: Duration) -> bool {
    tokio::select! {
        () = tokio::time::sleep(duration) => false,
        () = stopped(shared) => true,
    }
}
