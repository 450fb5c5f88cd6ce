//! Getting the person's attention when the agent waits for an answer and the window is not
//! focused: an OS notification, and when the window is focused again, the app shows that task.
//!
//! A plain yes/no card's notification offers Approve and Deny; every other card's offers Open
//! (a choice needs the card's options, a link-only card its web page, and a card that
//! destroys something, works elsewhere than the task named or runs a command needs the
//! card's own reading of it: security review N5). Each answer given from a
//! notification names its card, so a notification left on screen never answers a newer card.
//! Whether the buttons show is the notification server's affair: where it shows none, a click
//! on the notification opens the card. On Linux a click counts only when the notification
//! server sent it (`notification_bus`, security review N6).

use std::sync::{Arc, Mutex};

use porthole_client::approvals::{Answer, ApprovalKind, ApprovalRequest};
use tauri::{AppHandle, Manager};
use tauri_specta::Event;

use crate::conversations::{CapQuestion, Conversation, Conversations};
use crate::navigation::events::FocusConversation;
use crate::words::window as words;

/// The actions a card notification offers.
const APPROVE: &str = "approve";
const DENY: &str = "deny";
const OPEN: &str = "open";

/// The conversation to show when the window comes back; how notifications are shown and
/// their clicks heard.
#[derive(Default)]
pub struct AttentionTarget {
    target: Mutex<Option<FocusConversation>>,
    #[cfg(target_os = "linux")]
    bus: std::sync::OnceLock<Option<NotificationBus<About>>>,
    #[cfg(not(target_os = "linux"))]
    listening: std::sync::atomic::AtomicBool,
}

#[cfg(target_os = "linux")]
use crate::conversations::notification_bus::NotificationBus;

/// What a notification is about: the conversation to show, and the card it may answer.
#[derive(Debug, Clone)]
struct About {
    shown: FocusConversation,
    approval_id: Option<String>,
}

pub fn ask(
    app: &AppHandle,
    attention: &Arc<AttentionTarget>,
    conversation: &Conversation,
    approval: &ApprovalRequest,
) {
    if !away(app, attention, conversation) {
        return;
    }
    let about = About {
        shown: focus(conversation),
        approval_id: Some(approval.approval_id.clone()),
    };
    notify(
        app,
        attention,
        words::card_notification_title(),
        words::card_notification_body(approval.title.trim()),
        offers_answers(approval),
        about,
    );
}

fn focus(conversation: &Conversation) -> FocusConversation {
    FocusConversation {
        machine_id: conversation.machine_id.clone(),
        conversation_id: conversation.id.clone(),
    }
}

/// Whether the window is not in front; if so, the conversation to show when it comes back
/// is `conversation`.
fn away(app: &AppHandle, attention: &AttentionTarget, conversation: &Conversation) -> bool {
    let focused = app
        .get_webview_window("main")
        .and_then(|w| w.is_focused().ok())
        .unwrap_or(false);
    if focused {
        return false;
    }
    *attention.target.lock().unwrap_or_else(|e| e.into_inner()) = Some(focus(conversation));
    true
}

/// A task nears its cap and the window is not in front: the notification asks what the
/// thread's card asks, and offers Open only. Raising a cap spends the person's money, so it
/// is answered where the card shows the cost, the cap and both choices, never by a button on
/// a notification the person may press without reading (or that a desktop shows without its
/// buttons); unanswered, the cap holds as the person set it.
pub fn ask_near_cap(
    app: &AppHandle,
    attention: &Arc<AttentionTarget>,
    conversation: &Conversation,
    question: &CapQuestion,
) {
    if !away(app, attention, conversation) {
        return;
    }
    let about = About {
        shown: focus(conversation),
        approval_id: None,
    };
    notify(
        app,
        attention,
        words::near_cap_notification_title(),
        words::near_cap_question(question),
        false,
        about,
    );
}

/// Whether a notification may answer this card: a plain yes/no question, with nothing the
/// card in the window would warn about (`ApprovalRequest::needs_the_window`).
fn offers_answers(approval: &ApprovalRequest) -> bool {
    approval.kind == ApprovalKind::YesNo && !approval.is_link_only && !approval.needs_the_window()
}

/// Shows a notification offering Approve and Deny (`answers`) or Open, on Porthole's own
/// D-Bus connection (`notification_bus`: clicks are taken from the notification server only).
#[cfg(target_os = "linux")]
fn notify(
    app: &AppHandle,
    attention: &Arc<AttentionTarget>,
    title: String,
    body: String,
    answers: bool,
    about: About,
) {
    let (app, attention) = (app.clone(), attention.clone());
    // Talking to the bus blocks.
    tauri::async_runtime::spawn_blocking(move || {
        let bus = attention.bus.get_or_init(|| {
            let clicked = app.clone();
            NotificationBus::connect(move |about, action| acted(&clicked, about, action))
                .inspect_err(|err| tracing::info!(error = %err, "no notifications: no session bus"))
                .ok()
        });
        let Some(bus) = bus else {
            return;
        };
        let (approve, deny, open) = (
            words::notification_approve(),
            words::notification_deny(),
            words::notification_open(),
        );
        let actions: &[(&str, &str)] = if answers {
            &[(APPROVE, &approve), (DENY, &deny)]
        } else {
            &[(OPEN, &open)]
        };
        if let Err(err) = bus.show(&title, &body, actions, about) {
            tracing::info!(error = %err, "notification not shown");
        }
    });
}

/// Elsewhere the notification plugin shows it: no D-Bus signal to forge there.
#[cfg(not(target_os = "linux"))]
fn notify(
    app: &AppHandle,
    attention: &Arc<AttentionTarget>,
    title: String,
    body: String,
    answers: bool,
    about: About,
) {
    use tauri_plugin_notification::NotificationExt;
    const YES_NO: &str = "porthole-card-yes-no";
    const OPEN_ONLY: &str = "porthole-card-open";
    if !attention
        .listening
        .swap(true, std::sync::atomic::Ordering::SeqCst)
    {
        listen(app);
    }
    let mut builder = app
        .notification()
        .builder()
        .title(title)
        .body(body)
        .action_type_id(if answers { YES_NO } else { OPEN_ONLY })
        .extra("machineId", &about.shown.machine_id)
        .extra("conversationId", &about.shown.conversation_id);
    if let Some(approval_id) = &about.approval_id {
        builder = builder.extra("approvalId", approval_id);
    }
    if let Err(err) = builder.show() {
        tracing::info!(error = %err, "notification not shown");
    }

    /// Registers the card notifications' buttons and what a click on them does.
    fn listen(app: &AppHandle) {
        use tauri_plugin_notification::{Action, ActionPerformed, ActionType};
        let notifications = app.notification();
        let types = vec![
            ActionType::builder(YES_NO)
                .actions(vec![
                    Action::builder(APPROVE, words::notification_approve()).build(),
                    Action::builder(DENY, words::notification_deny()).build(),
                ])
                .build(),
            ActionType::builder(OPEN_ONLY)
                .actions(vec![
                    Action::builder(OPEN, words::notification_open()).build()
                ])
                .build(),
        ];
        if let Err(err) = notifications.register_action_types(types) {
            tracing::info!(error = %err, "notification buttons not registered");
        }
        let app = app.clone();
        let _ = notifications.on_action(move |performed: &ActionPerformed| {
            let extra = |key: &str| {
                performed
                    .notification()
                    .and_then(|n| n.extra().get(key))
                    .and_then(|v| v.as_str())
                    .map(str::to_owned)
            };
            let (Some(machine_id), Some(conversation_id)) =
                (extra("machineId"), extra("conversationId"))
            else {
                bring_forward(&app);
                return;
            };
            let about = About {
                shown: FocusConversation {
                    machine_id,
                    conversation_id,
                },
                approval_id: extra("approvalId"),
            };
            acted(&app, about, performed.action_id());
        });
    }
}

/// A click on a notification: Approve or Deny answers its card, anything else shows it.
fn acted(app: &AppHandle, about: About, action: &str) {
    let About { shown, approval_id } = about;
    let Some(approval_id) = approval_id else {
        // A cap question: the window shows it when it comes back.
        bring_forward(app);
        return;
    };
    let answer = match action {
        APPROVE => Answer::Yes,
        DENY => Answer::No,
        // A click on the notification itself, or Open: show the card.
        _ => {
            bring_forward(app);
            let _ = shown.emit(app);
            return;
        }
    };
    // A server may report a button the notification never offered, and a notification left
    // on screen may name an older card: an answer is taken only for the card still waiting,
    // and only when a notification may answer it at all.
    // A clone (it is cheap), so the answer below can run after this returns.
    let conversations = app.state::<Conversations>().inner().clone();
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
        .state::<Arc<AttentionTarget>>()
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
