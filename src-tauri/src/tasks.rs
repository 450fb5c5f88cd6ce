//! Sending, stopping and answering: the task flows a command starts.

use porthole_client::approvals::Answer;
use porthole_client::messages::{MessageOutcome, MessageRequest};
use porthole_client::{TaskFollower, Transport};
use tauri::{AppHandle, Manager};

use crate::connection::Connection;
use crate::conversations::{Conversation, TaskStatus};
use crate::error::{now_ms, AppError, AppResult, UiError};
use crate::following::{self, change, Followers};
use crate::persist::ConversationStore;

pub fn new_conversation(app: &AppHandle, scope: &str, machine_id: &str) -> AppResult<Conversation> {
    let id = format!("conv-{}-{}", now_ms() as u64, rand_suffix());
    let conversation = app
        .state::<ConversationStore>()
        .write(|book| book.create(id, scope, machine_id, now_ms()).clone())?;
    following::publish(app, None, &conversation);
    Ok(conversation)
}

fn rand_suffix() -> u32 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(now_ms() as u64);
    h.finish() as u32
}

pub async fn send(app: &AppHandle, id: &str, text: &str, model: Option<String>) -> AppResult<()> {
    let active = app.state::<Connection>().active().await?;
    let client = &active.client;
    let conversation = app.state::<ConversationStore>().get(id)?;
    let model = model.filter(|m| !m.is_empty());
    let running = conversation.status.is_active() && app.state::<Followers>().is_following(id);
    // Named in the thread with the message; `attach` puts the files themselves on the request.
    let files = crate::account::attachments::staged_names(app, id);

    if running {
        // Joins the running task; the follower already running shows what follows, so this
        // message's own stream (a replay of the task) is never read.
        let mut request = MessageRequest::new(text, &conversation.machine_id);
        crate::account::attachments::attach(app, id, &mut request);
        match client.messages().send(&request).await? {
            MessageOutcome::Started(started) => {
                change(app, id, |c| {
                    c.record_user_message_with_files(text, &files, started.queued, now_ms())
                })?;
                if !started.queued {
                    let follower = TaskFollower::follow_session(client, &started.session_id);
                    following::spawn(app, id, follower);
                }
            }
            MessageOutcome::Reply { text: reply } => {
                change(app, id, |c| {
                    c.record_user_message_with_files(text, &files, true, now_ms());
                    c.record_notice(&reply, now_ms());
                })?;
            }
        }
        return Ok(());
    }

    change(app, id, |c| {
        c.record_user_message_with_files(text, &files, false, now_ms());
        if model.is_some() {
            c.model = model.clone();
        }
    })?;
    if let Ok(list) = client.machines().list().await {
        if let Some(machine) = list
            .machines
            .iter()
            .find(|m| m.machine_id == conversation.machine_id)
        {
            if crate::machines::needs_start(machine) {
                crate::machines::watch_starting(app, &machine.machine_id);
            }
        }
    }
    if conversation.session_id.is_none() {
        // A new conversation: the service's current one on this computer is rotated, since a
        // message always lands in the current one. Without it the message continues the
        // computer's current conversation, which still works; so a failure is not fatal.
        if let Err(err) = client.sessions().new(&conversation.machine_id).await {
            tracing::info!(error = %err, "no new session; using the computer's");
        }
    }
    let mut request = MessageRequest::new(text, &conversation.machine_id);
    request.model = model;
    crate::features::advanced::apply(app, &mut request);
    crate::account::attachments::attach(app, id, &mut request);
    match TaskFollower::start(client, &request, Transport::Stream).await {
        Ok(follower) => {
            following::spawn(app, id, follower);
            Ok(())
        }
        Err(err) => {
            let error = AppError::Client(err);
            change(app, id, |c| c.record_error(UiError::from(&error), now_ms()))?;
            Err(error)
        }
    }
}

pub async fn stop(app: &AppHandle, id: &str) -> AppResult<()> {
    let active = app.state::<Connection>().active().await?;
    let conversation = app.state::<ConversationStore>().get(id)?;
    if let Some(session_id) = &conversation.session_id {
        active.client.abort().session(session_id).await?;
    }
    app.state::<Followers>().stop(id);
    change(app, id, |c| c.record_stopped(now_ms()))?;
    Ok(())
}

/// Answers the waiting yes/no card.
pub async fn decide(app: &AppHandle, id: &str, approve: bool) -> AppResult<()> {
    let answer = if approve { Answer::Yes } else { Answer::No };
    answer_card(app, id, answer).await
}

/// Answers the waiting choice card with one list of option values per question.
pub async fn choose(app: &AppHandle, id: &str, selections: Vec<Vec<String>>) -> AppResult<()> {
    answer_card(app, id, Answer::Choose(selections)).await
}

async fn answer_card(app: &AppHandle, id: &str, answer: Answer) -> AppResult<()> {
    let active = app.state::<Connection>().active().await?;
    let conversation = app.state::<ConversationStore>().get(id)?;
    let approval = conversation
        .pending_approval
        .ok_or(AppError::NoPendingApproval)?;
    let result = active
        .client
        .approvals()
        .answer(&approval.approval_id, &answer)
        .await;
    match result {
        Ok(_) => {
            change(app, id, |c| c.approval_answered(&answer, now_ms()))?;
            Ok(())
        }
        Err(err) => {
            use porthole_client::ErrorCode as C;
            // A refused pick leaves the card waiting: it stays on screen to pick again.
            if matches!(err.code(), C::ApprovalResolved | C::ApprovalNotFound) {
                change(app, id, |c| {
                    c.pending_approval = None;
                    if c.status == TaskStatus::NeedsApproval {
                        c.status = TaskStatus::Running;
                    }
                })?;
            }
            Err(AppError::Client(err))
        }
    }
}

/// The approval page of the waiting approval, checked to be on the service's own address.
pub async fn approval_page(app: &AppHandle, id: &str) -> AppResult<String> {
    let active = app.state::<Connection>().active().await?;
    let conversation = app.state::<ConversationStore>().get(id)?;
    let url = conversation
        .pending_approval
        .and_then(|a| a.approval_url)
        .ok_or(AppError::NoPendingApproval)?;
    let parsed = url::Url::parse(&url).map_err(|_| AppError::NoPendingApproval)?;
    let base =
        url::Url::parse(active.client.base_url()).map_err(|_| AppError::NoPendingApproval)?;
    // A web page over https, or the service's own address (the Demo is plain http).
    let same_host = parsed.host_str().is_some() && parsed.host_str() == base.host_str();
    if !(parsed.scheme() == "https" || (parsed.scheme() == "http" && same_host)) {
        tracing::warn!("approval link is not a web page; not opened");
        return Err(AppError::NoPendingApproval);
    }
    Ok(url)
}
