//! Getting the person's attention when the agent waits for an answer and the window is not
//! focused: an OS notification, and when the window is focused again, the app shows that task.

use std::sync::Mutex;

use tauri::{AppHandle, Manager};
use tauri_plugin_notification::NotificationExt;
use tauri_specta::Event;

use crate::conversations::Conversation;
use crate::events::FocusConversation;

/// The conversation to show when the window comes back.
#[derive(Default)]
pub struct AttentionTarget(Mutex<Option<FocusConversation>>);

pub fn ask(app: &AppHandle, conversation: &Conversation, title: &str) {
    let focused = app
        .get_webview_window("main")
        .and_then(|w| w.is_focused().ok())
        .unwrap_or(false);
    if focused {
        return;
    }
    *app.state::<AttentionTarget>()
        .0
        .lock()
        .unwrap_or_else(|e| e.into_inner()) = Some(FocusConversation {
        machine_id: conversation.machine_id.clone(),
        conversation_id: conversation.id.clone(),
    });
    let body = if title.trim().is_empty() {
        "The agent is waiting for your answer.".to_owned()
    } else {
        format!("The agent asks: {title}")
    };
    if let Err(err) = app
        .notification()
        .builder()
        .title("Porthole needs your answer")
        .body(body)
        .show()
    {
        tracing::info!(error = %err, "notification not shown");
    }
}

/// The window got focus: show the task that asked, once.
pub fn window_focused(app: &AppHandle) {
    let target = app
        .state::<AttentionTarget>()
        .0
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    if let Some(target) = target {
        let _ = target.emit(app);
    }
}

/// A second launch (single instance) brings the first window forward.
pub fn bring_forward(app: &AppHandle) {
    if let Some(window) = app.get_webview_window("main") {
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
    }
}
