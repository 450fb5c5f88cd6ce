//! The window's side of [`Notify`]: a changed conversation goes to the page's channel for it
//! and, when its row changed, as an event; a waiting card asks for the person's attention; a
//! computer that starts is watched until it is up.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use porthole_client::approvals::ApprovalRequest;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager};
use tauri_specta::Event;

use super::{Conversation, Notify};
use crate::navigation::events::{ConversationsChanged, MachinesChanged};

/// The page's channel for each conversation it shows.
#[derive(Default)]
pub struct Watchers {
    channels: Mutex<HashMap<String, Channel<Conversation>>>,
}

impl Watchers {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Channel<Conversation>>> {
        self.channels.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends the conversation now and after every change, until it is unwatched.
    pub fn watch(&self, conversation: &Conversation, channel: Channel<Conversation>) {
        if channel.send(conversation.clone()).is_ok() {
            self.lock().insert(conversation.id.clone(), channel);
        }
    }

    pub fn unwatch(&self, id: &str) {
        self.lock().remove(id);
    }

    fn send(&self, conversation: &Conversation) {
        let mut channels = self.lock();
        if let Some(channel) = channels.get(&conversation.id) {
            if channel.send(conversation.clone()).is_err() {
                channels.remove(&conversation.id);
            }
        }
    }
}

/// [`Notify`] for the app's window.
pub struct WindowNotify {
    pub app: AppHandle,
    pub watchers: Arc<Watchers>,
    /// Where a notification leads, and how notifications are shown (`attention.rs`).
    pub attention: Arc<super::attention::AttentionTarget>,
}

impl Notify for WindowNotify {
    fn conversation_changed(&self, conversation: &Conversation, listed: bool) {
        self.watchers.send(conversation);
        // A step announced, a task ended: the film's recorders look now (and a task on a
        // computer whose screen is not open is recorded all the same).
        if let Some(films) = self.app.try_state::<crate::film::Films>() {
            films.conversation_changed();
            if listed {
                crate::film::unseen::status_changed(&self.app, conversation);
            }
        }
        // A card arrived or left, a task failed: the inbox follows.
        crate::inbox::window::refresh_for(&self.app, conversation);
        if listed {
            let _ = ConversationsChanged {
                machine_id: conversation.machine_id.clone(),
            }
            .emit(&self.app);
        }
    }

    fn needs_answer(&self, conversation: &Conversation, approval: &ApprovalRequest) {
        crate::conversations::attention::ask(&self.app, &self.attention, conversation, approval);
    }

    fn near_cap(&self, conversation: &Conversation, question: &super::CapQuestion) {
        crate::conversations::attention::ask_near_cap(
            &self.app,
            &self.attention,
            conversation,
            question,
        );
    }

    fn machine_starting(&self, machine_id: &str) {
        crate::machines::watch_starting(&self.app, machine_id);
    }

    fn machines_changed(&self) {
        let _ = MachinesChanged.emit(&self.app);
    }
}
