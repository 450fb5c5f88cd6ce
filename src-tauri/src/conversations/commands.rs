//! The conversation commands the page may call: each unpacks its arguments and calls
//! [`Conversations`]. No logic here.

use std::sync::Arc;

use porthole_client::approvals::Answer;
use tauri::ipc::Channel;
use tauri::{AppHandle, State};
use tauri_plugin_opener::OpenerExt;
use tauri_specta::Event;

use porthole_client::models::ModelList;

use super::usage::UsageView;
use super::window::Watchers;
use super::{Conversation, ConversationSummary, Conversations, SendRequest};
use crate::connection::Connection;
use crate::error::{AppError, UiCode, UiError};
use crate::persist::SettingsStore;

type Res<T> = Result<T, UiError>;

#[tauri::command]
#[specta::specta]
pub async fn list_conversations(
    conversations: State<'_, Conversations>,
    machine_id: String,
) -> Res<Vec<ConversationSummary>> {
    Ok(conversations.list(&machine_id).await?)
}

/// The computer's current conversation (made empty when it has none).
#[tauri::command]
#[specta::specta]
pub async fn current_conversation(
    conversations: State<'_, Conversations>,
    machine_id: String,
) -> Res<Conversation> {
    Ok(conversations.current(&machine_id).await?)
}

/// The receipts of the conversation's finished tasks, each with its film when Porthole
/// recorded one; the last one's outcome is the service's check of it when the person had it
/// checked (kept with the conversation, [`keep_check`]).
// Off the main thread: it reads the conversations, which may still be loading.
#[tauri::command(async)]
#[specta::specta]
pub fn conversation_receipts(
    conversations: State<'_, Conversations>,
    films: State<'_, crate::film::Films>,
    conversation_id: String,
) -> Res<Vec<porthole_core::receipt::Receipt>> {
    use porthole_core::receipt;
    let conversation = conversations.store().get(&conversation_id)?;
    let receipts = receipt::receipts(&conversation, conversation.last_check());
    Ok(receipt::with_films(
        &conversation,
        receipts,
        &films.shelf.films_of(&conversation_id),
    ))
}

/// Keeps the service's check of task `turn_id` the person ran ("Check this result") with its
/// conversation, for its receipt; `None`: the service could not tell.
// Off the main thread: it changes the conversations, which may still be loading.
#[tauri::command(async)]
#[specta::specta]
pub fn keep_check(
    conversations: State<'_, Conversations>,
    conversation_id: String,
    turn_id: String,
    check: Option<porthole_core::receipt::Check>,
) -> Res<()> {
    Ok(conversations.keep_check(&conversation_id, &turn_id, check)?)
}

/// The person asked for a new conversation: a fresh session on the service.
#[tauri::command]
#[specta::specta]
pub async fn new_conversation(
    conversations: State<'_, Conversations>,
    machine_id: String,
) -> Res<Conversation> {
    Ok(conversations.start_new(&machine_id).await?)
}

/// Deletes the conversation here (its thread, search lines and films) and returns the one to
/// show in its place; refused while a task runs there.
#[tauri::command]
#[specta::specta]
pub async fn delete_conversation(
    app: AppHandle,
    conversations: State<'_, Conversations>,
    films: State<'_, crate::film::Films>,
    inbox: State<'_, crate::inbox::Inbox>,
    watchers: State<'_, Arc<Watchers>>,
    conversation_id: String,
) -> Res<Conversation> {
    let shown = conversations.delete(&conversation_id, &films.shelf).await?;
    watchers.unwatch(&conversation_id);
    inbox.conversation_deleted(&conversation_id);
    crate::inbox::window::refresh(&app);
    let _ = crate::navigation::events::ConversationsChanged {
        machine_id: shown.machine_id.clone(),
    }
    .emit(&app);
    Ok(shown)
}

/// Sends the conversation now and after every change, until another is watched.
// Off the main thread: it reads the conversations, which may still be loading.
#[tauri::command(async)]
#[specta::specta]
pub fn watch_conversation(
    conversations: State<'_, Conversations>,
    watchers: State<'_, Arc<Watchers>>,
    conversation_id: String,
    on_change: Channel<Conversation>,
) -> Res<()> {
    let conversation = conversations.store().get(&conversation_id)?;
    watchers.watch(&conversation, on_change);
    Ok(())
}

#[tauri::command]
#[specta::specta]
pub fn unwatch_conversation(watchers: State<'_, Arc<Watchers>>, conversation_id: String) {
    watchers.unwatch(&conversation_id);
}

/// Reads what was said on the service while this conversation was not followed here.
#[tauri::command]
#[specta::specta]
pub async fn catch_up_conversation(
    conversations: State<'_, Conversations>,
    conversation_id: String,
) -> Res<()> {
    conversations.catch_up(&conversation_id).await?;
    Ok(())
}

#[tauri::command]
#[specta::specta]
pub async fn send_message(
    conversations: State<'_, Conversations>,
    request: SendRequest,
) -> Res<()> {
    Ok(conversations.send(request).await?)
}

/// Sends again a message the service did not take.
#[tauri::command]
#[specta::specta]
pub async fn retry_send(
    conversations: State<'_, Conversations>,
    conversation_id: String,
) -> Res<()> {
    Ok(conversations.retry(&conversation_id).await?)
}

/// Holds a message until the running task ends (sends it at once when nothing runs).
#[tauri::command]
#[specta::specta]
pub async fn run_next(conversations: State<'_, Conversations>, request: SendRequest) -> Res<()> {
    Ok(conversations.run_next(request).await?)
}

// Off the main thread: it reads the conversations, which may still be loading.
#[tauri::command(async)]
#[specta::specta]
pub fn remove_waiting(
    conversations: State<'_, Conversations>,
    conversation_id: String,
    waiting_id: String,
) -> Res<()> {
    Ok(conversations.remove_waiting(&conversation_id, &waiting_id)?)
}

#[tauri::command]
#[specta::specta]
pub async fn stop_task(
    conversations: State<'_, Conversations>,
    conversation_id: String,
) -> Res<()> {
    Ok(conversations.stop(&conversation_id).await?)
}

/// Answers the "it seems stuck" card: a hint for the task, or let it keep going.
#[tauri::command]
#[specta::specta]
pub async fn answer_stuck(
    conversations: State<'_, Conversations>,
    conversation_id: String,
    answer: super::stuck::StuckAnswer,
) -> Res<()> {
    Ok(conversations.answer_stuck(&conversation_id, answer).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn answer_approval(
    conversations: State<'_, Conversations>,
    conversation_id: String,
    approval_id: String,
    approve: bool,
) -> Res<()> {
    let answer = if approve { Answer::Yes } else { Answer::No };
    Ok(conversations
        .answer(&conversation_id, &approval_id, answer)
        .await?)
}

/// Answers a choice card: one list of option values per question, in the card's order.
#[tauri::command]
#[specta::specta]
pub async fn choose_approval(
    conversations: State<'_, Conversations>,
    conversation_id: String,
    approval_id: String,
    selections: Vec<Vec<String>>,
) -> Res<()> {
    let answer = Answer::Choose(selections);
    Ok(conversations
        .answer(&conversation_id, &approval_id, answer)
        .await?)
}

#[tauri::command]
#[specta::specta]
pub async fn open_approval_page(
    app: AppHandle,
    conversations: State<'_, Conversations>,
    conversation_id: String,
    approval_id: String,
) -> Res<()> {
    let url = conversations
        .approval_page(&conversation_id, &approval_id)
        .await?;
    app.opener()
        .open_url(url, None::<&str>)
        .map_err(|_| UiError::from(UiCode::BrowserUnavailable))
}

#[tauri::command]
#[specta::specta]
pub async fn list_models(connection: State<'_, Connection>) -> Res<ModelList> {
    let active = connection.active().await?;
    Ok(active
        .client
        .models()
        .list()
        .await
        .map_err(AppError::from)?)
}

#[tauri::command]
#[specta::specta]
pub async fn conversation_usage(
    conversations: State<'_, Conversations>,
    conversation_id: String,
) -> Res<UsageView> {
    Ok(conversations.usage_view(&conversation_id).await?)
}

/// The spending cap a new task starts with (`None`: no cap).
#[tauri::command]
#[specta::specta]
pub fn default_cap(settings: State<'_, SettingsStore>) -> Option<f64> {
    super::spending_cap::default_cap(&settings)
}

/// Keeps the spending cap a new task starts with; answers it as kept.
#[tauri::command]
#[specta::specta]
pub fn set_default_cap(
    settings: State<'_, SettingsStore>,
    cap_usd: Option<f64>,
) -> Res<Option<f64>> {
    Ok(super::spending_cap::set_default_cap(&settings, cap_usd)?)
}

/// Whether to offer a cap for every task (once, on first use).
#[tauri::command]
#[specta::specta]
pub fn cap_offer_pending(settings: State<'_, SettingsStore>) -> bool {
    super::spending_cap::cap_offer_pending(&settings)
}

/// The answer to that offer: a cap for every new task, or `None` for none; never asked again.
#[tauri::command]
#[specta::specta]
pub fn answer_cap_offer(
    settings: State<'_, SettingsStore>,
    cap_usd: Option<f64>,
) -> Res<Option<f64>> {
    Ok(super::spending_cap::answer_cap_offer(&settings, cap_usd)?)
}

/// Each model's typical cost over the person's own ended tasks (`default_model`: the one a
/// task sent without a model ran on).
#[tauri::command]
#[specta::specta]
pub fn model_costs(
    conversations: State<'_, Conversations>,
    default_model: String,
) -> Vec<super::money::ModelCost> {
    conversations.model_costs(&default_model)
}

/// What a schedule of `text` at `repeat` may cost, from earlier tasks with the same words.
#[tauri::command]
#[specta::specta]
pub fn schedule_estimate(
    conversations: State<'_, Conversations>,
    text: String,
    repeat: Option<crate::schedules::timing::Repeat>,
) -> super::money::RunEstimate {
    conversations.schedule_estimate(&text, repeat.as_ref())
}

/// "Let it go up to …" on the question a task asks near its cap: raises this task's cap.
#[tauri::command]
#[specta::specta]
pub async fn raise_cap(
    conversations: State<'_, Conversations>,
    conversation_id: String,
) -> Res<()> {
    conversations.raise_cap(&conversation_id)?;
    Ok(())
}

/// "Stop at …" on the question a task asks near its cap: the cap holds.
#[tauri::command]
#[specta::specta]
pub async fn keep_cap(conversations: State<'_, Conversations>, conversation_id: String) -> Res<()> {
    conversations.keep_cap(&conversation_id)?;
    Ok(())
}
