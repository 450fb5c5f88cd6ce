//! The runner: one task in the app that looks at the clock, runs what is due, and sleeps until
//! the next due time. It never trusts a long sleep: it naps at most [`super::Clock::nap`] and
//! reads the wall clock afresh, so a computer that slept, or a clock that was set, is noticed
//! at the next nap; a change to the schedules wakes it at once.

use super::Schedules;

/// Runs forever (the app's lifetime).
pub async fn run(schedules: Schedules) {
    loop {
        // Each look runs as a task of its own: were one to panic (a bug, or a schedule file
        // holding numbers no person chose), that look is lost, not every schedule after it.
        let looking = schedules.clone();
        if let Err(err) = tokio::spawn(async move { looking.tick().await }).await {
            tracing::error!(error = %err, "a look at the schedules failed; looking again later");
        }
        let wait = schedules.until_next();
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = schedules.changed() => {}
        }
    }
}
