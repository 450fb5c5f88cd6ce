//! "Run next": a message held by Porthole while a task runs, started when that task ends.
//! Abort has no scope on the service (it stops everything folded into the running task), so a
//! new, unrelated request waits here instead of joining the task. Held messages are saved with
//! their conversation, so they survive a restart.

use super::model::Waiting;
use super::{Conversations, SendRequest};
use crate::error::{now_ms, AppError, AppResult};

impl Conversations {
    /// Holds `req` until the running task ends; sends it at once when nothing runs.
    pub async fn run_next(&self, req: SendRequest) -> AppResult<()> {
        let id = req.conversation_id.clone();
        if !self.is_current(&id) {
            return Err(AppError::FinishedConversation);
        }
        // A held message's cap is checked now, not when it starts after the person left.
        super::spending_cap::checked(req.cap_usd)?;
        let conversation = self.store().get(&id)?;
        if !self.task_under_way(&conversation) {
            return self.send(req).await;
        }
        self.hold(req)
    }

    /// Puts `req` in its conversation's line, to start when the task under way has ended.
    pub(super) fn hold(&self, req: SendRequest) -> AppResult<()> {
        let id = req.conversation_id.clone();
        let held = Waiting {
            id: format!("next-{}-{}", now_ms() as u64, rand::random::<u32>()),
            request: req,
        };
        self.change(&id, |c| c.waiting.push(held))?;
        Ok(())
    }

    /// A task being stopped whose stop has not settled on the service: a message sent now
    /// would be folded into the dying task and die with it (the makers' client records it).
    pub(super) fn stop_settling(&self, conversation: &super::Conversation) -> bool {
        !conversation.status.is_active() && self.task_under_way(conversation)
    }

    /// Whether the conversation's task is still under way on the service: running, or being
    /// stopped and not yet ended there (a message sent meanwhile would join the dying task).
    pub(crate) fn task_under_way(&self, conversation: &super::Conversation) -> bool {
        conversation.status.is_active()
            || conversation.stopping
            || self.shared.followers.is_settling(&conversation.id)
    }

    /// Takes a held message out of the line; it is never sent.
    pub fn remove_waiting(&self, id: &str, waiting_id: &str) -> AppResult<()> {
        self.change(id, |c| c.waiting.retain(|w| w.id != waiting_id))?;
        Ok(())
    }

    /// The task of conversation `id` ended: the first held message starts. Its failure to
    /// start is shown in the thread by the send itself.
    pub async fn start_next(&self, id: &str) {
        let Ok(conversation) = self.store().get(id) else {
            return;
        };
        if self.task_under_way(&conversation) {
            return;
        }
        let Some(mut next) = conversation.waiting.first().cloned() else {
            return;
        };
        if let Err(err) = self.change(id, |c| c.waiting.retain(|w| w.id != next.id)) {
            tracing::warn!(error = %err, "could not take a held message out of the line");
            return;
        }
        // A new conversation begun meanwhile is where messages go now: the held one runs
        // there, or waits there behind a task already running in it.
        let current = self.store().read(|b| {
            b.current(&conversation.scope, &conversation.machine_id)
                .map(|c| (c.id.clone(), c.status.is_active()))
        });
        if let Some((current, running)) = current.filter(|(current, _)| current != id) {
            next.request.conversation_id = current.clone();
            if running {
                if let Err(err) = self.change(&current, |c| c.waiting.push(next)) {
                    tracing::warn!(error = %err, "could not move a held message");
                }
                return;
            }
        }
        let request = next.request.clone();
        match self.send(request).await {
            // Nothing was recorded: it waits again, first in line, for the next end.
            Err(AppError::NotConnected) => {
                let back = next.request.conversation_id.clone();
                if let Err(err) = self.change(&back, |c| c.waiting.insert(0, next)) {
                    tracing::warn!(error = %err, "could not keep a held message");
                }
            }
            Err(err) => tracing::info!(error = %err, "a held message did not start"),
            Ok(()) => {}
        }
    }

    /// After a restart: conversations of `scope` whose task ended while the app was closed
    /// start their first held message.
    pub fn start_held(&self, scope: &str) {
        let ids: Vec<String> = self.store().read(|b| {
            b.conversations
                .iter()
                .filter(|c| c.scope == scope && !c.status.is_active() && !c.waiting.is_empty())
                .map(|c| c.id.clone())
                .collect()
        });
        for id in ids {
            let core = self.clone();
            tokio::spawn(async move { core.start_next(&id).await });
        }
    }
}
