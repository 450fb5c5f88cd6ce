//! A spending cap per task: the person gives a task a most it may cost, in dollars; when the
//! task's cost (the service's `usage.costUsd`) reaches it, Porthole stops the task and the
//! thread says why and what it cost.
//!
//! The service reports a task's cost only on the events poll, never on the message's stream,
//! so a task with a cap is followed over the poll (`Transport::Poll`, in `delivery.rs`): each
//! page carries the task's figures so far, and the cap is checked as they arrive. The cap is
//! saved with the conversation, so a restart (which always resumes over the poll) keeps it.
//! Abort has no scope on the service: reaching the cap stops everything folded into the task.

use porthole_client::events::TaskUsage;

use super::{Conversation, Conversations, Notice, TaskStatus};
use crate::error::{now_ms, AppError, AppResult};
use crate::persist::SettingsStore;

/// The smallest cap: a cent, the smallest sum the window shows.
pub const SMALLEST: f64 = 0.01;

/// Checks a cap the person typed: at least a cent, or none.
pub fn checked(cap_usd: Option<f64>) -> AppResult<Option<f64>> {
    match cap_usd {
        None => Ok(None),
        Some(cap) if cap.is_finite() && cap >= SMALLEST => Ok(Some(cap)),
        Some(_) => Err(AppError::InvalidCap),
    }
}

/// The task's cap and cost when it runs, has a cap, and its cost reached it.
pub fn reached(conversation: &Conversation) -> Option<(f64, f64)> {
    let cap = conversation.cap_usd?;
    let cost = cost_of(conversation.usage.as_ref())?;
    (conversation.status.is_active() && cost >= cap).then_some((cap, cost))
}

fn cost_of(usage: Option<&TaskUsage>) -> Option<f64> {
    usage.map(|u| u.total.cost_usd)
}

/// The cap the composer starts with, from the settings.
pub fn default_cap(settings: &SettingsStore) -> Option<f64> {
    settings.get().default_cap_usd
}

/// Keeps `cap` (checked) as the cap the composer starts with; `None` for no cap.
pub fn set_default_cap(settings: &SettingsStore, cap: Option<f64>) -> AppResult<Option<f64>> {
    let cap = checked(cap)?;
    settings.update(|s| s.default_cap_usd = cap)?;
    Ok(cap)
}

/// Whether to offer a cap for every task: once, to someone who has none and never answered.
pub fn cap_offer_pending(settings: &SettingsStore) -> bool {
    let s = settings.get();
    !s.cap_offer_answered && s.default_cap_usd.is_none()
}

/// The person answered the offer: `Some` keeps that cap for every new task, `None` declines.
/// Either way the offer is not made again.
pub fn answer_cap_offer(settings: &SettingsStore, cap: Option<f64>) -> AppResult<Option<f64>> {
    let cap = checked(cap)?;
    settings.update(|s| {
        s.cap_offer_answered = true;
        if cap.is_some() {
            s.default_cap_usd = cap;
        }
    })?;
    Ok(settings.get().default_cap_usd)
}

impl Conversations {
    /// After each update of a followed task: when its cost reached its cap, stops the task on
    /// the service and says so in the thread. Returns whether it stopped it (the follow is
    /// then over). When the service does not take the stop, the cap stays: the person is told
    /// once, every later update tries again, and a watch tries with backoff meanwhile.
    pub(super) async fn stop_at_cap(&self, conversation: &Conversation) -> bool {
        let Some((cap, cost)) = reached(conversation) else {
            return false;
        };
        self.abort_at_cap(conversation, cap, cost).await
    }

    /// Asks the service to stop the task that reached its cap; records either outcome.
    async fn abort_at_cap(&self, conversation: &Conversation, cap: f64, cost: f64) -> bool {
        let id = conversation.id.as_str();
        let aborted = match (&conversation.session_id, self.connection().active().await) {
            (Some(session), Ok(active)) => active
                .client
                .abort()
                .session(session)
                .await
                .map(|_| active.client)
                .map_err(AppError::from),
            (None, _) => Err(AppError::NoTurnYet),
            (_, Err(err)) => Err(err),
        };
        let client = match aborted {
            Ok(client) => client,
            Err(err) => {
                // The task runs on, and so does the cap: said once, tried again.
                tracing::warn!(error = %err, "could not stop a task at its cap");
                let _ = self.change(id, |c| {
                    if !c.cap_notice_shown {
                        c.cap_notice_shown = true;
                        c.record_notice(Notice::NotStoppedAtCap { cap_usd: cap }, now_ms());
                    }
                });
                self.watch_cap(id);
                return false;
            }
        };
        // A model call may have ended while the abort went out: the figures as the service
        // has them after it, when it can say (best effort: the ones that reached the cap do).
        let after = match &conversation.session_id {
            Some(session) => client.events().poll(session, None, 0).await.ok(),
            None => None,
        };
        let usage = after
            .and_then(|page| page.usage)
            .filter(|u| u.total.cost_usd >= cost);
        let cost = cost_of(usage.as_ref()).unwrap_or(cost);
        let changed = self.change(id, |c| {
            if usage.is_some() {
                c.usage = usage.clone();
            }
            c.record_stopped_with(
                Notice::StoppedAtCap {
                    cap_usd: cap,
                    cost_usd: cost,
                },
                now_ms(),
            );
        });
        match changed {
            Ok(conversation) => self.remember_usage(&conversation),
            Err(err) => tracing::warn!(error = %err, "could not save a task stopped at its cap"),
        }
        true
    }

    /// Keeps the cap of conversation `id` while nothing else does: after a stop the service
    /// did not take, or after the task's follow ended on an error while the task may run on.
    /// Reads the task's cost from the service and stops it at the cap, waiting longer after
    /// each failed try; ends when the task has ended there, was stopped, or the connection
    /// changed. One watch per conversation.
    pub(super) fn watch_cap(&self, id: &str) {
        let generation = self.connection().generation();
        let (core, id2) = (self.clone(), id.to_owned());
        let Some(watch) = self.shared.followers.cap_watch(id) else {
            return;
        };
        watch.run(async move {
            let id = id2;
            let Ok(active) = core.connection().active().await else {
                return;
            };
            let config = active.client.config().clone();
            // First try soon (a service that blinked), then doubling; never more often than
            // the service's 20 aborts an hour allow when the stop keeps failing.
            let first = config.backoff * 4;
            let most = config.hour / 20;
            let mut delay = first;
            loop {
                tokio::time::sleep(delay).await;
                if core.connection().generation() != generation {
                    return;
                }
                let Ok(conversation) = core.store().get(&id) else {
                    return;
                };
                let (Some(cap), Some(session)) = (conversation.cap_usd, &conversation.session_id)
                else {
                    return;
                };
                if conversation.status == TaskStatus::Stopped
                    || conversation.status == TaskStatus::Succeeded
                {
                    return;
                }
                let page = match active.client.events().poll(session, None, 0).await {
                    Ok(page) => page,
                    Err(err) => {
                        tracing::info!(error = %err, "could not read a capped task's cost");
                        delay = (delay * 2).min(most);
                        continue;
                    }
                };
                if page.status.is_final() {
                    return;
                }
                let cost = cost_of(page.usage.as_ref())
                    .into_iter()
                    .chain(cost_of(conversation.usage.as_ref()))
                    .fold(0.0, f64::max);
                if cost < cap {
                    delay = first;
                    continue;
                }
                if core.abort_at_cap(&conversation, cap, cost).await {
                    core.shared.followers.stop(&id);
                    core.start_next(&id).await;
                    return;
                }
                delay = (delay * 2).min(most);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cap_is_a_cent_or_more_or_none() {
        assert_eq!(checked(None).unwrap(), None);
        assert_eq!(checked(Some(0.01)).unwrap(), Some(0.01));
        assert_eq!(checked(Some(12.5)).unwrap(), Some(12.5));
        for bad in [0.0, 0.004, -1.0, f64::NAN, f64::INFINITY] {
            assert!(
                matches!(checked(Some(bad)), Err(AppError::InvalidCap)),
                "{bad}"
            );
        }
    }
}
