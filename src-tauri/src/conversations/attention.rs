//! Getting the person's attention when the agent waits for an answer and the window is not
//! focused: an OS notification, and when the window is focused again, the app shows that task.
//!
//! A plain yes/no card's notification offers Approve and Deny; every other card's offers Open
//! (a choice needs the card's options, a link-only card its web page, and a card that
//! destroys something, works elsewhere than the task named or runs a command needs the
//! card's own reading of it: security review N5). Each answer given from a
//! notification names its card, so a notification left on screen never answers a newer card.
//! Whether the buttons show is the notification server's affair: where it shows none, a click
//! on the notification opens the card.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use porthole_client::approvals::{Answer, ApprovalKind, ApprovalRequest};
use tauri::{AppHandle, Manager};
use tauri_plugin_notification::{Action, ActionPerformed, ActionType, NotificationExt};
use tauri_specta::Event;

use crate::conversations::{CapQuestion, Conversation, Conversations};
use crate::navigation::events::FocusConversation;
use crate::words::window as words;

/// The action types of card notifications, and the actions they offer.
const YES_NO: &str = "porthole-card-yes-no";
const OPEN: &str = "porthole-card-open";
const APPROVE: &str = "approve";
const DENY: &str = "deny";

/// The conversation to show when the window comes back; whether notification actions are
/// listened to yet.
#[derive(Default)]
pub struct AttentionTarget {
    target: Mutex<Option<FocusConversation>>,
    listening: AtomicBool,
}

pub fn ask(app: &AppHandle, conversation: &Conversation, approval: &ApprovalRequest) {
    if !away(app, conversation) {
        return;
    }
    let body = words::card_notification_body(approval.title.trim());
    let yes_no = offers_answers(approval);
    if let Err(err) = app
        .notification()
        .builder()
        .title(words::card_notification_title())
        .body(body)
        .action_type_id(if yes_no { YES_NO } else { OPEN })
        .extra("machineId", &conversation.machine_id)
        .extra("conversationId", &conversation.id)
        .extra("approvalId", &approval.approval_id)
        .show()
    {
        tracing::info!(error = %err, "notification not shown");
    }
}

/// Whether the window is not in front; if so, the conversation to show when it comes back
/// is `conversation`, and notification clicks are listened to.
fn away(app: &AppHandle, conversation: &Conversation) -> bool {
    let focused = app
        .get_webview_window("main")
        .and_then(|w| w.is_focused().ok())
        .unwrap_or(false);
    if focused {
        return false;
    }
    let attention = app.state::<AttentionTarget>();
    *attention.target.lock().unwrap_or_else(|e| e.into_inner()) = Some(FocusConversation {
        machine_id: conversation.machine_id.clone(),
        conversation_id: conversation.id.clone(),
    });
    if !attention.listening.swap(true, Ordering::SeqCst) {
        listen(app);
    }
    true
}

/// A task nears its cap and the window is not in front: the notification asks what the
/// thread's card asks, and offers Open only. Raising a cap spends the person's money, so it
/// is answered where the card shows the cost, the cap and both choices, never by a button on
/// a notification the person may press without reading (or that a desktop shows without its
/// buttons); unanswered, the cap holds as the person set it.
pub fn ask_near_cap(app: &AppHandle, conversation: &Conversation, question: &CapQuestion) {
    if !away(app, conversation) {
        return;
    }
    if let Err(err) = app
        .notification()
        .builder()
        .title(words::near_cap_notification_title())
        .body(words::near_cap_question(question))
        .action_type_id(OPEN)
        .extra("machineId", &conversation.machine_id)
        .extra("conversationId", &conversation.id)
        .show()
    {
        tracing::info!(error = %err, "notification not shown");
    }
}

/// Whether a notification may answer this card: a plain yes/no question, with nothing the
/// card in the window would warn about (`ApprovalRequest::needs_the_window`).
fn offers_answers(approval: &ApprovalRequest) -> bool {
    approval.kind == ApprovalKind::YesNo && !approval.is_link_only && !approval.needs_the_window()
}

/// Registers the card notifications' buttons and what a click on them does.
fn listen(app: &AppHandle) {
    let notifications = app.notification();
    let types = vec![
        ActionType::builder(YES_NO)
            .actions(vec![
                Action::builder(APPROVE, "Approve").build(),
                Action::builder(DENY, "Deny").build(),
            ])
            .build(),
        ActionType::builder(OPEN)
            .actions(vec![Action::builder("open", "Open").build()])
            .build(),
    ];
    if let Err(err) = notifications.register_action_types(types) {
        tracing::info!(error = %err, "notification buttons not registered");
    }
    let app = app.clone();
    let _ = notifications.on_action(move |performed| acted(&app, performed));
}

fn acted(app: &AppHandle, performed: &ActionPerformed) {
    let extra = |key: &str| {
        performed
            .notification()
            .and_then(|n| n.extra().get(key))
            .and_then(|v| v.as_str())
            .map(str::to_owned)
    };
    let (Some(machine_id), Some(conversation_id), Some(approval_id)) = (
        extra("machineId"),
        extra("conversationId"),
        extra("approvalId"),
    ) else {
        bring_forward(app);
        return;
    };
    let shown = FocusConversation {
        machine_id,
        conversation_id,
    };
    let answer = match performed.action_id() {
        APPROVE => Answer::Yes,
        DENY => Answer::No,
        // A click on the notification itself, or Open: show the card.
        _ => {
            bring_forward(app);
            let _ = shown.emit(app);
            return;
        }
    };
    // Any program on the session bus can claim a button was clicked, and on an Open-only
    // notification too: an answer is taken only for the card still waiting, and only when a
    // notification may answer it at all.
    let conversations = app.state::<Conversations>();
    let may_answer = conversations
        .store()
        .get(&shown.conversation_id)
        .ok()
        .and_then(|c| c.pending_approval)
        .is_some_and(|a| a.approval_id == approval_id && offers_answers(&a));
    if !may_answer {
        tracing::info!("answer from a notification refused: the card needs the window");
        bring_forward(app);
        let _ = shown.emit(app);
        return;
    }
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        let conversations = app.state::<Conversations>();
        let answered = conversations
            .answer(&shown.conversation_id, &approval_id, answer)
            .await;
        if let Err(err) = answered {
            // Already answered, replaced by a newer card, or refused: the window says what
            // waits now.
            tracing::info!(error = %err, "answer from a notification not taken");
            bring_forward(&app);
            let _ = shown.emit(&app);
        }
    });
}

/// The window got focus: show the task that asked, once.
pub fn window_focused(app: &AppHandle) {
    let target = app
        .state::<AttentionTarget>()
        .target
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
