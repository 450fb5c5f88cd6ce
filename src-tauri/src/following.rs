//! Following tasks in the background: one follower per conversation, its updates saved to
//! the conversation book and pushed to the page's channel for that conversation.
//!
//! Followers live in Rust, not in the page, so a task keeps being followed (and saved) while
//! another conversation is shown, and a restart resumes from the saved state.

use std::collections::HashMap;
use std::sync::Mutex;

use futures::StreamExt;
use porthole_client::{TaskFollower, TaskUpdate};
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager};
use tauri_specta::Event;

use crate::connection::Connection;
use crate::conversations::Conversation;
use crate::error::{now_ms, AppError, UiError};
use crate::events::{ConversationsChanged, MachinesChanged};
use crate::persist::ConversationStore;

/// Running followers by conversation id.
#[derive(Default)]
pub struct Followers {
    running: Mutex<HashMap<String, tauri::async_runtime::JoinHandle<()>>>,
}

impl Followers {
    pub fn is_following(&self, id: &str) -> bool {
        self.running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(id)
    }

    pub fn stop(&self, id: &str) {
        if let Some(task) = self
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id)
        {
            task.abort();
        }
    }

    pub fn stop_all(&self) {
        for (_, task) in self
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain()
        {
            task.abort();
        }
    }

    fn finished(&self, id: &str) {
        self.running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
    }
}

/// The page's channel for each conversation it shows.
#[derive(Default)]
pub struct Watchers {
    channels: Mutex<HashMap<String, Channel<Conversation>>>,
}

impl Watchers {
    pub fn watch(&self, conversation: &Conversation, channel: Channel<Conversation>) {
        if channel.send(conversation.clone()).is_ok() {
            let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
            channels.insert(conversation.id.clone(), channel);
        }
    }

    pub fn unwatch(&self, id: &str) {
        self.channels
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
    }

    fn send(&self, conversation: &Conversation) {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(channel) = channels.get(&conversation.id) {
            if channel.send(conversation.clone()).is_err() {
                channels.remove(&conversation.id);
            }
        }
    }
}

/// Tells the page about a changed conversation.
pub fn publish(app: &AppHandle, before: Option<&Conversation>, after: &Conversation) {
    app.state::<Watchers>().send(after);
    let listed_change = before.is_none_or(|b| b.status != after.status || b.title != after.title);
    if listed_change {
        let _ = ConversationsChanged {
            machine_id: after.machine_id.clone(),
        }
        .emit(app);
    }
}

/// Changes a conversation, saves it, and tells the page.
pub fn change(
    app: &AppHandle,
    id: &str,
    f: impl FnOnce(&mut Conversation),
) -> Result<Conversation, AppError> {
    let store = app.state::<ConversationStore>();
    let before = store.get(id).ok();
    let after = store.update(id, f)?;
    publish(app, before.as_ref(), &after);
    Ok(after)
}

/// Follows `follower` for conversation `id` until the task ends.
pub fn spawn(app: &AppHandle, id: &str, mut follower: TaskFollower) {
    let followers = app.state::<Followers>();
    followers.stop(id);
    let (app2, id2) = (app.clone(), id.to_owned());
    let generation = app.state::<Connection>().generation();
    let task = tauri::async_runtime::spawn(async move {
        let (app, id) = (app2, id2);
        while let Some(update) = follower.next().await {
            if app.state::<Connection>().generation() != generation {
                return;
            }
            let state = follower.state();
            let result = match update {
                Ok(update) => {
                    let changed = change(&app, &id, |c| c.apply(&update, state, now_ms()));
                    if let (Ok(conversation), TaskUpdate::NeedsApproval { approval }) =
                        (&changed, &update)
                    {
                        crate::attention::ask(&app, conversation, &approval.title);
                    }
                    // The service reports only the current task: keep each task's figures.
                    if let (
                        Ok(conversation),
                        TaskUpdate::Usage { .. } | TaskUpdate::Finished { .. },
                    ) = (&changed, &update)
                    {
                        crate::account::usage::remember(&app, conversation);
                    }
                    if matches!(update, TaskUpdate::Finished { .. }) {
                        let _ = MachinesChanged.emit(&app);
                    }
                    changed
                }
                Err(err) => {
                    let error = UiError::from(&AppError::Client(err));
                    change(&app, &id, |c| c.record_error(error, now_ms()))
                }
            };
            if let Err(err) = result {
                tracing::warn!(error = %err, "could not save a task update");
            }
        }
        app.state::<Followers>().finished(&id);
    });
    followers
        .running
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(id.to_owned(), task);
}
