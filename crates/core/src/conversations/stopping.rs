//! Stop: the service is asked every time, the thread says what it answered, and a message
//! held with "Run next" waits until the stopped task has ended on the service.

use std::time::Duration;

use porthole_client::Client;

use super::model::Notice;
use super::Conversations;
use crate::error::{now_ms, AppResult};

/// After this long waiting for a stopped task to end, the thread says a held message waits.
const SETTLE_WORDS_AFTER: Duration = Duration::from_secs(5);
/// The longest a held message waits for a stopped task to end; then it starts anyway.
const SETTLE_LIMIT: Duration = Duration::from_secs(120);
/// Without a session, the task's end cannot be read: a held message waits this long instead,
/// about what the service takes to end a stopped step.
const SETTLE_BLIND: Duration = Duration::from_secs(10);
/// How long one poll of a stopping session is held.
const POLL_WAIT_SECS: u32 = 20;

impl Conversations {
    /// Stops the running task. Abort has no scope on the service: it stops everything folded
    /// into the task. The service is asked every time: by the session the task's stream named,
    /// else (pressed before it named one, as on a cold start) by the computer's `api`
    /// conversation. The thread reads "Stopping…" until the service answers, and then says
    /// what happened; the task is marked stopped only when the service stopped it.
    pub async fn stop(&self, id: &str) -> AppResult<()> {
        let active = self.connection().active().await?;
        let conversation = self.store().get(id)?;
        // The session this task's own stream named, never an earlier task's: that one may be
        // retired, and stopping it would stop nothing.
        let named = conversation
            .follower
            .as_ref()
            .and_then(|f| f.session_id.clone());
        self.change(id, |c| c.record_stopping(now_ms()))?;
        let asked = match &named {
            Some(session_id) => active.client.abort().session(session_id).await,
            None => {
                active
                    .client
                    .abort()
                    .machine(&conversation.machine_id)
                    .await
            }
        };
        let outcome = match asked {
            Ok(outcome) => outcome,
            Err(err) => {
                tracing::info!(error = %err, "the service did not take Stop");
                // Still followed: the task may well be running on.
                // The thread says so, with Stop still offered: not an error box as well.
                self.change(id, |c| c.record_not_stopped(now_ms()))?;
                return Ok(());
            }
        };
        self.shared.followers.stop(id);
        if outcome.nothing_was_running() {
            // Nothing ran on the service: nothing to wait for before a held message starts.
            self.change(id, |c| c.record_nothing_to_stop(now_ms()))?;
            let (core, id) = (self.clone(), id.to_owned());
            tokio::spawn(async move { core.start_next(&id).await });
            return Ok(());
        }
        // A message held for after the task (or asked for from now on) starts only once the
        // service has ended it: one sent before would be folded into the dying task and lost
        // with it. Marked before the task reads as stopped, so nothing slips in between.
        let settling = self.shared.followers.settling(id);
        self.change(id, |c| c.record_stopped(now_ms()))?;
        let session = named.or(conversation.session_id);
        let (core, id, client) = (self.clone(), id.to_owned(), active.client.clone());
        tokio::spawn(async move {
            core.settle_stop(&id, &client, session.as_deref()).await;
            drop(settling);
            core.start_next(&id).await;
        });
        Ok(())
    }

    /// Waits until the stopped task of conversation `id` has ended on the service (its
    /// session reads `idle` or `error`): the makers record that a message sent before the
    /// abort has finished is folded into the dying task. Bounded; when a message is held, the
    /// thread says it waits once that takes long.
    async fn settle_stop(&self, id: &str, client: &Client, session: Option<&str>) {
        let ended = async {
            let Some(session) = session else {
                tokio::time::sleep(SETTLE_BLIND).await;
                return;
            };
            let mut since: Option<String> = None;
            loop {
                match client
                    .events()
                    .poll(session, since.as_deref(), POLL_WAIT_SECS)
                    .await
                {
                    Ok(page) if page.status.is_final() => return,
                    Ok(page) => since = Some(page.cursor),
                    Err(err) => {
                        tracing::info!(error = %err, "could not read whether a stopped task ended");
                        tokio::time::sleep(Duration::from_secs(2)).await;
                    }
                }
            }
        };
        tokio::pin!(ended);
        if tokio::time::timeout(SETTLE_WORDS_AFTER, &mut ended)
            .await
            .is_ok()
        {
            return;
        }
        let held = self.store().get(id).is_ok_and(|c| !c.waiting.is_empty());
        if held {
            if let Err(err) = self.change(id, |c| c.record_notice(Notice::WaitingForStop, now_ms()))
            {
                tracing::warn!(error = %err, "could not say a held message waits");
            }
        }
        if tokio::time::timeout(SETTLE_LIMIT, ended).await.is_err() {
            tracing::info!("a stopped task did not end in time; the held message starts");
        }
    }
}
