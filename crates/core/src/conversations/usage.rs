//! Usage of a conversation: every task's tokens and cost, by model, and the whole session's.
//!
//! The service only ever reports the *current* task (`usage`) and the session (`sessionUsage`)
//! on the events poll; the next task starts from zero. So the app keeps each task's last
//! figures itself, in a [`UsageBook`] saved in its own file (`usage.json`, a versioned
//! document, one entry per conversation), recorded whenever a follower applies a usage update. The session total is
//! read from one events poll, which does not wait and moves no follower's cursor.

use std::collections::BTreeMap;
use std::path::Path;

use porthole_client::events::TaskUsage;
use serde::{Deserialize, Serialize};

use crate::conversations::Conversations;
use crate::conversations::{Conversation, ThreadItem};
use crate::error::{AppError, AppResult, UiError};
use crate::store::{Document, Persisted, SetAside};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct UsageView {
    /// The task the last message started; `None` before its first model call.
    pub task: Option<TaskUsage>,
    /// The whole conversation (service session).
    pub session: Option<TaskUsage>,
    /// Every task of the conversation the app followed, oldest first.
    pub tasks: Vec<TaskUsageRow>,
    /// Why the session's total could not be read; the kept tasks are still worth showing.
    pub session_error: Option<UiError>,
}

/// One task's figures as last reported while it ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TaskUsageRow {
    pub turn_id: String,
    /// The words that started the task, so a person can tell tasks apart.
    pub task: String,
    pub usage: TaskUsage,
    /// Still running: its figures will grow.
    #[serde(default)]
    pub running: bool,
    /// The model the person chose for it (`None`: the service's default); rows kept before
    /// this was recorded have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[specta(optional)]
    pub model: Option<String>,
    /// Which service it ran on (`demo` or the account's address), so the Demo's made-up
    /// costs never stand for an account's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[specta(optional)]
    pub scope: Option<String>,
}

/// Per-task usage of every conversation, by conversation id.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct UsageBook {
    conversations: BTreeMap<String, Vec<TaskUsageRow>>,
}

impl UsageBook {
    /// Keeps the conversation's current task figures under its turn; `true` when that
    /// changed what is kept. A conversation without a turn or without usage yet keeps nothing.
    pub fn record(&mut self, conversation: &Conversation) -> bool {
        let Some(usage) = &conversation.usage else {
            return false;
        };
        let Some(turn_id) = conversation
            .follower
            .as_ref()
            .and_then(|f| f.turn_id.clone())
        else {
            return false;
        };
        let rows = self
            .conversations
            .entry(conversation.id.clone())
            .or_default();
        if let Some(row) = rows.iter_mut().find(|r| r.turn_id == turn_id) {
            if &row.usage == usage {
                return false;
            }
            row.usage = usage.clone();
        } else {
            rows.push(TaskUsageRow {
                turn_id,
                task: task_words(conversation),
                usage: usage.clone(),
                running: false,
                model: conversation.model.clone(),
                scope: Some(conversation.scope.clone()),
            });
        }
        true
    }

    /// The conversation was deleted: its tasks' words go with it, while their figures stay
    /// counted in what was spent.
    pub fn forget_words(&mut self, conversation_id: &str) -> bool {
        let Some(rows) = self.conversations.get_mut(conversation_id) else {
            return false;
        };
        rows.iter_mut().for_each(|row| row.task.clear());
        true
    }

    /// The conversation's tasks, oldest first, the one still running marked.
    pub fn tasks(&self, conversation: &Conversation) -> Vec<TaskUsageRow> {
        let current = conversation
            .status
            .is_active()
            .then(|| conversation.follower.as_ref()?.turn_id.clone())
            .flatten();
        let mut rows = self
            .conversations
            .get(&conversation.id)
            .cloned()
            .unwrap_or_default();
        for row in &mut rows {
            row.running = current.as_deref() == Some(row.turn_id.as_str());
        }
        rows
    }

    /// Every kept task of every conversation, with whether it still runs (per `running`,
    /// which answers for a conversation id and a turn id).
    pub fn all(&self, running: impl Fn(&str, &str) -> bool) -> Vec<TaskUsageRow> {
        self.conversations
            .iter()
            .flat_map(|(id, rows)| {
                rows.iter().map(|row| TaskUsageRow {
                    running: running(id, &row.turn_id),
                    ..row.clone()
                })
            })
            .collect()
    }
}

/// The last message that started a task (a message that joined one only steered it).
fn task_words(conversation: &Conversation) -> String {
    conversation
        .items
        .iter()
        .rev()
        .find_map(|item| match item {
            ThreadItem::User {
                text,
                joined: false,
                ..
            } => Some(text.clone()),
            _ => None,
        })
        .unwrap_or_default()
}

/// The book on disk.
pub struct UsageStore {
    kept: Persisted<UsageBook>,
}

impl UsageStore {
    pub fn open_in(dir: &Path) -> AppResult<Self> {
        // `tasks`: the key a version before used, kept so its files read as version 0.
        Ok(Self {
            kept: Persisted::open(Document::new(dir.join("usage.json"), "tasks"))?,
        })
    }

    /// Records the conversation's current task figures, saving them when they changed.
    pub fn record(&self, conversation: &Conversation) -> AppResult<bool> {
        self.kept.write_if(|book| book.record(conversation))
    }

    pub fn tasks(&self, conversation: &Conversation) -> Vec<TaskUsageRow> {
        self.kept.read(|book| book.tasks(conversation))
    }

    /// See [`UsageBook::forget_words`].
    pub fn forget_words(&self, conversation_id: &str) -> AppResult<bool> {
        self.kept
            .write_if(|book| book.forget_words(conversation_id))
    }

    /// Every kept task of every conversation (see [`UsageBook::all`]).
    pub fn all(&self, running: impl Fn(&str, &str) -> bool) -> Vec<TaskUsageRow> {
        self.kept.read(|book| book.all(running))
    }

    /// The file that could not be read at start, if any.
    pub fn set_aside(&self) -> Option<&SetAside> {
        self.kept.set_aside()
    }
}

impl Conversations {
    /// The conversation's usage: each task's kept figures, and the session's read from the service.
    pub async fn usage_view(&self, conversation_id: &str) -> AppResult<UsageView> {
        let conversations = self;
        let conversation = conversations.store().get(conversation_id)?;
        conversations.remember_usage(&conversation);
        let tasks = conversations.usage().tasks(&conversation);
        let Some(session_id) = conversation.session_id else {
            return Ok(UsageView {
                task: conversation.usage,
                session: None,
                tasks,
                session_error: None,
            });
        };
        let page = async {
            let client = self.connection().active().await?.client;
            Ok::<_, AppError>(client.events().poll(&session_id, None, 0).await?)
        };
        Ok(match page.await {
            Ok(page) => UsageView {
                task: page.usage.or(conversation.usage),
                session: page.session_usage,
                tasks,
                session_error: None,
            },
            Err(err) => UsageView {
                task: conversation.usage,
                session: None,
                tasks,
                session_error: Some(UiError::from(&err)),
            },
        })
    }
}

#[cfg(test)]
mod tests;
