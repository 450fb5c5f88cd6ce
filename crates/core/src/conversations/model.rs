//! Conversations as the app keeps them: one per chat with a machine, with its thread, its
//! status and what the follower needs to resume (`sessionId`, cursor).
//!
//! Pure data and rules, no Tauri: `persist::ConversationStore` keeps a [`ConversationBook`].
//! Invariant: every change goes through a method here, so what is saved and what is shown
//! are the same thing.

use porthole_client::approvals::{ApprovalKind, ApprovalRequest};
use porthole_client::card_reading::Deletion;
use porthole_client::events::{StatusKind, TaskUsage};
use porthole_client::sessions::ContextRole;
use porthole_client::{FollowerState, TaskUpdate};
use serde::{Deserialize, Serialize};

use crate::error::problem::of_task_failure;
use crate::error::Problem;

/// At most this many thread items are kept per conversation (oldest dropped).
const MAX_ITEMS: usize = 400;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum TaskStatus {
    /// Nothing sent yet, or a plain reply.
    Idle,
    Running,
    NeedsApproval,
    Succeeded,
    Failed,
    Stopped,
}

impl TaskStatus {
    pub fn is_active(self) -> bool {
        matches!(self, Self::Running | Self::NeedsApproval)
    }
}

/// One line of the thread.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum ThreadItem {
    /// What the person wrote; `joined` when it joined a task already running.
    User {
        text: String,
        joined: bool,
        /// Names of the files sent with it, so the thread shows what went with each message.
        /// Absent in conversations saved before files were recorded.
        #[serde(default)]
        attachments: Vec<String>,
    },
    Narration {
        text: String,
    },
    Progress {
        text: String,
    },
    Tool {
        name: String,
        title: Option<String>,
    },
    ToolFailed {
        text: String,
    },
    /// Delivery news from the service (the computer is waking, the agent is offline), or from
    /// the client (sending again, saved without words: `text` is empty); `about` says which.
    Status {
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        about: Option<StatusKind>,
    },
    /// An answer of the agent, Markdown.
    Answer {
        text: String,
    },
    /// A reply that started no task.
    Reply {
        text: String,
    },
    /// The agent asked something: `asks` says what kind of card (a permission, a choice, a
    /// web page), `deletes` what Porthole read it would delete, so the line is worded in the
    /// person's language rather than the agent's. Earlier versions saved only the title.
    Approval {
        title: String,
        #[serde(default = "permission")]
        asks: ApprovalKind,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        deletes: Vec<Deletion>,
    },
    /// Something Porthole said (the person stopped the task, answered a card…): what happened
    /// and its facts, beside `kind` (`{"kind": "notice", "what": "stoppedAtCap", …}`); the
    /// words are made when it is shown. Earlier versions saved the words, under `text`.
    Notice {
        #[serde(flatten, deserialize_with = "notice::deserialize_stored")]
        #[specta(type = Notice)]
        notice: Notice,
    },
    /// The task failed: its code and when to try again; the words are made when shown.
    Failure {
        error: Problem,
    },
    /// The message above was not taken by the service (or, after a restart during a resend,
    /// is not known to be): no task started. `error` says why; the conversation's `unsent`
    /// is what Retry sends.
    NotSent {
        error: Problem,
    },
    /// A line of the service's history this copy of Porthole did not send or hear: said from
    /// another copy, or while the app was closed.
    Elsewhere {
        by: Speaker,
        text: String,
    },
}

/// A card line saved before cards had kinds was a permission's.
fn permission() -> ApprovalKind {
    ApprovalKind::YesNo
}

/// Who said a line of the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum Speaker {
    Person,
    Agent,
}

impl Speaker {
    fn of(role: &ContextRole) -> Self {
        // The service names the person `user`; every other role is the agent's.
        if *role == ContextRole::User {
            Self::Person
        } else {
            Self::Agent
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Conversation {
    pub id: String,
    /// Which service this belongs to (`demo` or the account's address).
    pub scope: String,
    pub machine_id: String,
    /// Its first message's first line; empty until there is one (the window words an untitled
    /// conversation in the person's language). Files of earlier versions saved the English
    /// words instead, read back as empty.
    #[serde(deserialize_with = "untitled_if_default")]
    #[specta(type = String)]
    pub title: String,
    pub created_at: f64,
    pub updated_at: f64,
    pub session_id: Option<String>,
    pub model: Option<String>,
    pub status: TaskStatus,
    pub items: Vec<ThreadItem>,
    /// The card the agent waits on, with the words of the task that asks; read back from a
    /// file with its reading made again against them (`saved_card`).
    #[serde(default, deserialize_with = "porthole_client::approvals::saved_card")]
    #[specta(type = Option<ApprovalRequest>)]
    pub pending_approval: Option<ApprovalRequest>,
    pub usage: Option<TaskUsage>,
    pub failure: Option<Problem>,
    /// Where following stopped; saved after every update.
    pub follower: Option<FollowerState>,
    /// Messages the person asked to run after the current task, in their order: held here,
    /// since abort on the service stops everything folded into a running task. Not written
    /// when empty, so conversations without one are saved as before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waiting: Vec<Waiting>,
    /// The message that starts the task, until the service is known to have it: what Retry
    /// sends again when it was not taken. Not written when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unsent: Option<crate::conversations::SendRequest>,
    /// The follower lost the service and is trying again: the task is not failed, it reads
    /// "Reconnecting…" until the next word from the service. Not written when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reconnecting: bool,
    /// The most the running (or last) task may cost, in dollars: reaching it stops the task
    /// (`spending_cap.rs`). Not written when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cap_usd: Option<f64>,
    /// The person was told the task could not be stopped at its cap: said once per task,
    /// while the cap itself stays and is tried again. Not written when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cap_notice_shown: bool,
    /// The person pressed Stop and the service has not answered yet: the thread reads
    /// "Stopping…", and a held message does not start. Not written when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stopping: bool,
    /// The question "let it go further?" asked near the cap and not answered yet
    /// (`model/cap_question.rs`). Not written when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cap_question: Option<CapQuestion>,
    /// The running (or last) task asked it already: it asks once. Not written when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cap_asked: bool,
    /// The "it seems stuck" watch of the running task and its card (`stuck.rs`). Not written
    /// when untouched.
    #[serde(
        default,
        skip_serializing_if = "crate::conversations::stuck::Stuck::is_default"
    )]
    pub stuck: crate::conversations::stuck::Stuck,
    /// The task's updates were lost before it named where it runs, and its end has not been
    /// read since: the agent may still be working, so the window says "Checking…" and keeps
    /// Stop, not "Ready" (`model/delivery.rs`). Not written when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub updates_lost: bool,
    /// When the running (or last) task was sent, and when it ended, in ms since the epoch: the
    /// receipt's "took". Not written when unknown (conversations of earlier versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_started_at: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_ended_at: Option<f64>,
    /// The times and cost of the tasks before the running (or last) one, oldest first, one per
    /// message that started a task (the newest `past_tasks.len()` of them, counted from the
    /// end): every finished task's receipt says what it took. Not written when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub past_tasks: Vec<PastTask>,
    /// The service's check of the last task, when the person ran one ("Check this result"):
    /// its receipt's outcome, kept here so it outlives a restart and goes with the
    /// conversation. Not written when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<crate::receipt::KeptCheck>,
}

/// What a task before the conversation's last took and cost, kept when the next one starts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct PastTask {
    pub started_at: Option<f64>,
    pub ended_at: Option<f64>,
    pub cost_usd: Option<f64>,
}

/// A message held until the running task ends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Waiting {
    pub id: String,
    pub request: crate::conversations::SendRequest,
}

/// A row of the conversation list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ConversationSummary {
    pub id: String,
    pub machine_id: String,
    pub title: String,
    pub updated_at: f64,
    pub status: TaskStatus,
    /// The computer's current conversation, which a new message joins; every other one is
    /// finished: the service takes messages only into its current session.
    pub current: bool,
}

impl Conversation {
    /// The person's words of the task now running: their last message and the messages it
    /// was joined to, as the thread shows them.
    pub fn task_words(&self) -> String {
        let mut words: Vec<&str> = Vec::new();
        for item in self.items.iter().rev() {
            let ThreadItem::User { text, joined, .. } = item else {
                continue;
            };
            words.insert(0, text);
            if !joined {
                break;
            }
        }
        words.join("\n")
    }

    fn push(&mut self, item: ThreadItem) {
        self.items.push(item);
        if self.items.len() > MAX_ITEMS {
            let extra = self.items.len() - MAX_ITEMS;
            self.items.drain(..extra);
        }
    }

    /// The person sent `text` without files; `joined` when a task was already running.
    /// Tests' shorthand: the app's send path always says which files went along.
    #[cfg(test)]
    pub fn record_user_message(&mut self, text: &str, joined: bool, now: f64) {
        self.record_user_message_with_files(text, &[], joined, now);
    }

    /// The person sent `text` with the files named in `attachments` (kept with the message,
    /// so the thread shows them after a restart too); `joined` when a task was already running.
    pub fn record_user_message_with_files(
        &mut self,
        text: &str,
        attachments: &[String],
        joined: bool,
        now: f64,
    ) {
        if self
            .items
            .iter()
            .all(|i| !matches!(i, ThreadItem::User { .. }))
        {
            self.title = title_from(text);
        }
        let started_before = self
            .items
            .iter()
            .any(|i| matches!(i, ThreadItem::User { joined: false, .. }));
        if !joined && started_before {
            // The task before is over: its figures move aside for its receipt.
            self.past_tasks.push(PastTask {
                started_at: self.task_started_at,
                ended_at: self.task_ended_at,
                cost_usd: self.usage.as_ref().map(|u| u.total.cost_usd),
            });
            if self.past_tasks.len() > MAX_ITEMS {
                self.past_tasks.remove(0);
            }
        }
        self.push(ThreadItem::User {
            text: text.to_owned(),
            joined,
            attachments: attachments.to_vec(),
        });
        if !joined {
            // A new task: asked afresh, "Let it keep going" was for the one before.
            self.stuck = Default::default();
            self.status = TaskStatus::Running;
            self.failure = None;
            self.usage = None;
            self.follower = None;
            self.updates_lost = false;
            self.forget_cap_question();
            self.task_started_at = Some(now);
            self.task_ended_at = None;
        }
        self.updated_at = now;
    }

    /// The service named the session this conversation's messages land in (the answer to a new
    /// conversation): where a task whose stream breaks before naming one is followed.
    /// `None`: the service started a session without naming it (a blank answer); the next
    /// task's stream names it, and an older one must not be followed meanwhile.
    pub fn record_session(&mut self, session_id: Option<String>) {
        self.session_id = session_id;
    }

    /// A task could not start or be followed.
    pub fn record_error(&mut self, error: Problem, now: f64) {
        self.status = TaskStatus::Failed;
        self.task_ended_at = Some(now);
        self.updates_lost = false;
        self.pending_approval = None;
        self.push(ThreadItem::Failure { error });
        self.failure = Some(error);
        self.updated_at = now;
    }

    pub fn record_notice(&mut self, notice: Notice, now: f64) {
        self.push(ThreadItem::Notice { notice });
        self.updated_at = now;
    }

    /// The agent's reply to a message that joined a running task: its own line, as a reply
    /// that started no task is.
    pub fn record_reply(&mut self, text: &str, now: f64) {
        self.push(ThreadItem::Reply {
            text: text.to_owned(),
        });
        self.updated_at = now;
    }
}

pub(crate) fn title_from(text: &str) -> String {
    let line = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    let mut title: String = line.chars().take(60).collect();
    if line.chars().count() > 60 {
        title.push('…');
    }
    title
}

/// The words earlier versions saved as an untitled conversation's title.
const OLD_UNTITLED: &str = "New conversation";

fn untitled_if_default<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let title = String::deserialize(d)?;
    Ok(if title == OLD_UNTITLED {
        String::new()
    } else {
        title
    })
}

mod answering;
mod applying;
mod book;
mod cap_question;
mod catch_up;
mod delivery;
mod notice;
mod stopping;
pub use book::ConversationBook;
pub use cap_question::CapQuestion;
pub use notice::Notice;

#[cfg(test)]
mod tests;
