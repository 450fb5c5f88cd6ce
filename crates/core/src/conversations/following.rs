//! Following tasks in the background: one follower per conversation, each update saved to
//! the conversation and told to the window.
//!
//! Followers live in Rust, not in the page, so a task keeps being followed (and saved) while
//! another conversation is shown, and a restart resumes from the saved state.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use futures::StreamExt;
use porthole_client::{ErrorCode, TaskFollower, TaskUpdate};
use tokio::task::JoinHandle;

use super::stuck::Thresholds;
use super::Conversations;
use crate::error::{now_ms, AppError, Problem};

/// How many lines of the service's history a catch-up reads: enough to cover what another
/// copy of Porthole can say between two tasks seen here.
pub const HISTORY_LINES: u32 = 20;

/// Running followers by conversation id.
#[derive(Default)]
pub struct Followers {
    running: Mutex<HashMap<String, JoinHandle<()>>>,
    /// Conversations whose stopped task has not ended on the service yet: nothing is sent
    /// into them meanwhile (it would be folded into the dying task).
    settling: std::sync::Arc<Mutex<HashSet<String>>>,
    /// Watches that hold a task to its cap while its follower cannot (spending_cap.rs).
    cap_watches: std::sync::Arc<Mutex<HashMap<String, JoinHandle<()>>>>,
}

/// Leave to start the one cap watch of a conversation.
pub struct CapWatch {
    id: String,
    watches: std::sync::Arc<Mutex<HashMap<String, JoinHandle<()>>>>,
}

impl CapWatch {
    pub fn run(self, watch: impl std::future::Future<Output = ()> + Send + 'static) {
        let task = tokio::spawn(watch);
        let mut watches = self.watches.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(old) = watches.insert(self.id, task) {
            old.abort();
        }
    }
}

/// Marks a conversation as settling while it lives.
pub struct Settling {
    id: String,
    set: std::sync::Arc<Mutex<HashSet<String>>>,
}

impl Drop for Settling {
    fn drop(&mut self) {
        self.set
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.id);
    }
}

impl Followers {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, JoinHandle<()>>> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Conversation `id` waits for its stopped task to end until the answer is dropped.
    pub fn settling(&self, id: &str) -> Settling {
        self.settling
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_owned());
        Settling {
            id: id.to_owned(),
            set: self.settling.clone(),
        }
    }

    pub fn is_settling(&self, id: &str) -> bool {
        self.settling
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(id)
    }

    pub fn is_following(&self, id: &str) -> bool {
        self.lock().get(id).is_some_and(|task| !task.is_finished())
    }

    pub fn stop(&self, id: &str) {
        if let Some(task) = self.lock().remove(id) {
            task.abort();
        }
    }

    pub fn stop_all(&self) {
        for (_, task) in self.lock().drain() {
            task.abort();
        }
        let mut watches = self.cap_watches.lock().unwrap_or_else(|e| e.into_inner());
        for (_, task) in watches.drain() {
            task.abort();
        }
    }

    /// Leave to start conversation `id`'s cap watch, unless one runs.
    pub fn cap_watch(&self, id: &str) -> Option<CapWatch> {
        let watches = self.cap_watches.lock().unwrap_or_else(|e| e.into_inner());
        if watches.get(id).is_some_and(|task| !task.is_finished()) {
            return None;
        }
        Some(CapWatch {
            id: id.to_owned(),
            watches: self.cap_watches.clone(),
        })
    }

    fn insert(&self, id: &str, task: JoinHandle<()>) {
        if let Some(old) = self.lock().insert(id.to_owned(), task) {
            old.abort();
        }
    }
}

impl Conversations {
    /// Follows `follower` for conversation `id` until the task ends, or until the connection
    /// it belongs to is left.
    pub fn follow(&self, id: &str, mut follower: TaskFollower) {
        self.shared.followers.stop(id);
        let (core, id2) = (self.clone(), id.to_owned());
        let generation = self.connection().generation();
        let task = tokio::spawn(async move {
            let id = id2;
            let mut ended_on_error = false;
            let stuck = Thresholds::current();
            loop {
                // A task that sends nothing is looked at now and then: quiet too long is stuck.
                let Ok(next) = tokio::time::timeout(stuck.check_every(), follower.next()).await
                else {
                    if core.connection().generation() != generation {
                        return;
                    }
                    core.stuck_tick(&id, &stuck);
                    continue;
                };
                let Some(update) = next else { break };
                if core.connection().generation() != generation {
                    return;
                }
                let state = follower.state();
                let result = match update {
                    Ok(update) => {
                        let now = now_ms();
                        let changed = core.change(&id, |c| {
                            c.apply(&update, state, now);
                            c.watch_stuck(&update, now, &stuck);
                        });
                        if let Ok(conversation) = &changed {
                            core.heard(conversation, &update);
                        }
                        changed
                    }
                    // Neither failed nor done: the agent may still be working.
                    Err(err) if err.code() == ErrorCode::UpdatesLost => {
                        core.change(&id, |c| c.record_updates_lost(now_ms()))
                    }
                    Err(err) => {
                        ended_on_error = true;
                        let not_sent = core.follow_failed(&id, &err.code());
                        let error = Problem::from(&AppError::Client(err));
                        if not_sent {
                            core.change(&id, |c| c.record_not_sent(error, now_ms()))
                        } else {
                            core.change(&id, |c| c.record_error(error, now_ms()))
                        }
                    }
                };
                match &result {
                    Err(err) => tracing::warn!(error = %err, "could not save a task update"),
                    Ok(conversation) if core.stop_at_cap(conversation).await => break,
                    Ok(conversation) => core.ask_near_cap(conversation),
                }
            }
            // The follow broke, but the task may run on: its cap is still kept.
            let capped = core.store().get(&id).is_ok_and(|c| c.cap_usd.is_some());
            if ended_on_error && capped {
                core.watch_cap(&id);
            }
            // The task is over: a message held for after it starts, on a task of its own
            // (starting it replaces this follower).
            tokio::spawn(async move { core.start_next(&id).await });
        });
        self.shared.followers.insert(id, task);
    }

    /// What an update means beyond the conversation itself.
    fn heard(&self, conversation: &super::Conversation, update: &TaskUpdate) {
        match update {
            TaskUpdate::NeedsApproval { approval } => {
                // The card as the conversation keeps it, read against the task that asks.
                let card = conversation.pending_approval.as_ref().unwrap_or(approval);
                self.notify().needs_answer(conversation, card);
            }
            // The service reports only the current task: keep each task's figures.
            TaskUpdate::Usage { .. } => self.remember_usage(conversation),
            TaskUpdate::Finished { .. } => {
                self.remember_usage(conversation);
                self.notify().machines_changed();
            }
            _ => {}
        }
    }

    /// Keeps the conversation's current task figures (saved only when they changed).
    pub fn remember_usage(&self, conversation: &super::Conversation) {
        if let Err(err) = self.usage().record(conversation) {
            tracing::warn!(error = %err, "could not save a task's usage");
        }
    }
}
