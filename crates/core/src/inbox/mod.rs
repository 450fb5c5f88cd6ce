//! What needs the person, across every computer, in one list: cards waiting for an answer
//! (yes/no, choice, link-only), tasks that failed, a sign-in the connection needs, a computer
//! that cannot be woken. Nothing new is stored for it: the list is derived ([`derive`]) from
//! the state the app already keeps (the conversations, the connection, the machine list last
//! read, wakes that failed), so answering a card in its task or here is one and the same
//! answer and the list follows by itself.
//!
//! No Tauri here: [`Inbox`] keeps the little the derivation needs beside that state and says
//! when the list changed; `window.rs` tells the page, the tray and the window's title. Only
//! what the person put away is saved (`inbox.json`), so it stays away after a restart.

#[cfg(test)]
mod tests;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Mutex;

use porthole_client::approvals::ApprovalRequest;
use serde::{Deserialize, Serialize};

use crate::connection::{Connection, ConnectionInfo, ConnectionState};
use crate::conversations::model::title_from;
use crate::conversations::{Conversation, Conversations, TaskStatus};
use crate::error::{UiAction, UiError};
use crate::machines::{Availability, MachineRow};
use crate::store::{Document, Persisted};

/// What an item of the inbox asks of the person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum InboxKind {
    /// A card to answer here or in its task (yes/no or choice).
    Card,
    /// A card answered on the service's own web page.
    LinkOnly,
    /// A task ended in failure.
    TaskFailed,
    /// The account needs signing in again.
    SignIn,
    /// A computer is asleep and the service will not wake it from here, or waking it failed.
    CannotWake,
}

/// One thing that needs the person.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct InboxItem {
    /// Stable while the item is the same thing (a card's id, a failed task's turn): the page
    /// keys its rows by it, and dismissing names it.
    pub key: String,
    pub kind: InboxKind,
    pub machine_id: Option<String>,
    /// The computer's name as the sidebar shows it, when the machine list was read.
    pub machine_name: Option<String>,
    pub conversation_id: Option<String>,
    /// What the item is about: the first line of the task that asks (a conversation holds
    /// many tasks, and its title is only the first one's), or the computer's name.
    pub title: String,
    /// The card to answer, for [`InboxKind::Card`] and [`InboxKind::LinkOnly`].
    pub approval: Option<ApprovalRequest>,
    /// Why, in words, for a failed task, a sign-in or a computer that cannot be woken.
    pub error: Option<UiError>,
    /// When it happened (Unix ms), newest first in the list.
    pub at: f64,
}

/// The list and its count, as the sidebar, the tray and the window's title show them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct InboxView {
    pub items: Vec<InboxItem>,
    pub count: u32,
}

/// What the inbox is derived from: the app's own state, read at one moment.
pub struct Sources<'a> {
    /// The active connection's scope; `None` while none is active.
    pub scope: Option<&'a str>,
    pub conversations: &'a [Conversation],
    pub connection: &'a ConnectionInfo,
    pub machines: &'a [MachineRow],
    pub wake_failures: &'a HashMap<String, UiError>,
    pub dismissed: &'a HashSet<String>,
}

/// The inbox of `sources`, newest first.
pub fn derive(sources: &Sources) -> InboxView {
    let name_of = |machine_id: &str| {
        sources
            .machines
            .iter()
            .find(|m| m.machine_id == machine_id)
            .map(|m| m.name.clone())
    };
    let mut items = Vec::new();
    if sources.connection.state == ConnectionState::Failed {
        if let Some(error) = &sources.connection.error {
            if error.action == Some(UiAction::SignIn) {
                items.push(InboxItem {
                    key: "sign-in".into(),
                    kind: InboxKind::SignIn,
                    machine_id: None,
                    machine_name: None,
                    conversation_id: None,
                    title: error.title.clone(),
                    approval: None,
                    error: Some(error.clone()),
                    at: 0.0,
                });
            }
        }
    }
    if let Some(scope) = sources.scope {
        let current = current_of_each_computer(sources.conversations, scope);
        // The task that asks heads its item: the conversation's title is its first task,
        // and a later one may be the one asking (a delete labelled as a weather look-up).
        let asking = |c: &Conversation| {
            Some(title_from(&c.task_words()))
                .filter(|t| !t.is_empty())
                .unwrap_or_else(|| c.title.clone())
        };
        for c in sources.conversations.iter().filter(|c| c.scope == scope) {
            if let Some(card) = &c.pending_approval {
                items.push(InboxItem {
                    key: format!("card:{}", card.approval_id),
                    kind: if card.is_link_only {
                        InboxKind::LinkOnly
                    } else {
                        InboxKind::Card
                    },
                    machine_id: Some(c.machine_id.clone()),
                    machine_name: name_of(&c.machine_id),
                    conversation_id: Some(c.id.clone()),
                    // The card carries the words of the task that asked it.
                    title: Some(title_from(&card.task))
                        .filter(|t| !t.is_empty())
                        .unwrap_or_else(|| asking(c)),
                    approval: Some(card.clone()),
                    error: None,
                    at: c.updated_at,
                });
            } else if c.status == TaskStatus::Failed
                && current.get(c.machine_id.as_str()) == Some(&c.id.as_str())
            {
                let key = failure_key(c);
                if !sources.dismissed.contains(&key) {
                    items.push(InboxItem {
                        key,
                        kind: InboxKind::TaskFailed,
                        machine_id: Some(c.machine_id.clone()),
                        machine_name: name_of(&c.machine_id),
                        conversation_id: Some(c.id.clone()),
                        title: asking(c),
                        approval: None,
                        error: c.failure.as_ref().map(words),
                        at: c.updated_at,
                    });
                }
            }
        }
        for m in sources.machines {
            let refused = sources.wake_failures.get(&m.machine_id);
            // A computer that cannot be woken asks nothing of the person until they want it:
            // its row says so; it needs them once they tried to wake it or gave it a task
            // (else a first start would open on "Needs you" about a computer never touched).
            let used = sources
                .conversations
                .iter()
                .any(|c| c.scope == scope && c.machine_id == m.machine_id);
            // Not only "asleep": once a task was sent to it the row may read "starting".
            let asleep_for_good = !m.can_wake
                && !matches!(
                    m.availability,
                    Availability::Online | Availability::FreeReady
                )
                && used;
            if refused.is_none() && !asleep_for_good {
                continue;
            }
            let key = format!("wake:{}", m.machine_id);
            if sources.dismissed.contains(&key) {
                continue;
            }
            items.push(InboxItem {
                key,
                kind: InboxKind::CannotWake,
                machine_id: Some(m.machine_id.clone()),
                machine_name: Some(m.name.clone()),
                conversation_id: None,
                title: m.name.clone(),
                approval: None,
                error: Some(
                    refused
                        .cloned()
                        .unwrap_or_else(|| UiError::from(&crate::error::AppError::CannotWake)),
                ),
                at: m.updated_at.unwrap_or(0.0),
            });
        }
    }
    // The sign-in first (nothing else works without it), then the newest.
    items.sort_by(|a, b| {
        (b.kind == InboxKind::SignIn)
            .cmp(&(a.kind == InboxKind::SignIn))
            .then(b.at.total_cmp(&a.at))
    });
    InboxView {
        count: items.len() as u32,
        items,
    }
}

/// A saved failure in words (however the conversation keeps it).
fn words<T: Clone + Into<UiError>>(failure: &T) -> UiError {
    failure.clone().into()
}

/// The id of each computer's current conversation (its newest; the last of equals) in
/// `scope`: a failed task is the current conversation's news, a finished one's failure is old.
/// One pass over the book, where asking of each failed conversation scanned it all again
/// (BENCHMARKS.md, "Start-up and one update with 10,000 conversations").
fn current_of_each_computer<'a>(all: &'a [Conversation], scope: &str) -> HashMap<&'a str, &'a str> {
    let mut newest: HashMap<&str, &Conversation> = HashMap::new();
    for c in all.iter().filter(|c| c.scope == scope) {
        let kept = newest.entry(c.machine_id.as_str()).or_insert(c);
        if c.created_at.total_cmp(&kept.created_at) != std::cmp::Ordering::Less {
            *kept = c;
        }
    }
    newest
        .into_iter()
        .map(|(machine, c)| (machine, c.id.as_str()))
        .collect()
}

/// What of one conversation the inbox shows: a change elsewhere in it (a progress line, the
/// cursor) leaves the inbox as it was.
#[derive(PartialEq)]
struct Shown {
    scope: String,
    machine_id: String,
    title: String,
    status: TaskStatus,
    card: Option<porthole_client::approvals::ApprovalRequest>,
    turn: Option<String>,
    failure: Option<crate::error::Problem>,
    /// When it is shown with a time: a card's or a failure's.
    at: Option<f64>,
}

impl Shown {
    fn of(c: &Conversation) -> Self {
        let dated = c.pending_approval.is_some() || c.status == TaskStatus::Failed;
        Self {
            scope: c.scope.clone(),
            machine_id: c.machine_id.clone(),
            title: c.title.clone(),
            status: c.status,
            card: c.pending_approval.clone(),
            turn: c.follower.as_ref().and_then(|f| f.turn_id.clone()),
            failure: c.failure,
            at: dated.then_some(c.updated_at),
        }
    }
}

/// One failure of one task: a later task failing in the same conversation is news again.
fn failure_key(c: &Conversation) -> String {
    let turn = c
        .follower
        .as_ref()
        .and_then(|f| f.turn_id.as_deref())
        .unwrap_or("-");
    format!("failed:{}:{turn}", c.id)
}

/// What the inbox keeps beside the app's state: the machine list last read, wakes that
/// failed, items the person put away, and the list last published (to tell a change).
#[derive(Default)]
pub struct Inbox {
    kept: Mutex<Kept>,
    /// Where what was put away is saved; none in tests that do not restart.
    saved: Option<Persisted<PutAway>>,
}

/// The keys of the items put away, oldest first. A key names one failure of one task (its
/// conversation and turn) or one computer, so a new failure is news again, and a computer put
/// away comes back when a wake of it is tried.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PutAway {
    keys: Vec<String>,
}

/// How many put-away keys are kept: the oldest are long out of the inbox anyway.
const PUT_AWAY_KEPT: usize = 500;

#[derive(Default)]
struct Kept {
    machines: Vec<MachineRow>,
    wake_failures: HashMap<String, UiError>,
    dismissed: HashSet<String>,
    published: Option<InboxView>,
    /// What each conversation showed when last seen by [`Inbox::shows_change_of`].
    shown: HashMap<String, Shown>,
}

impl Inbox {
    /// The inbox with what was put away before, saved in `dir`. A file that cannot be read is
    /// set aside and the inbox starts without it: the items put away simply show again.
    pub fn open_in(dir: &Path) -> Self {
        let saved = match Persisted::<PutAway>::open(Document::new(
            dir.join("inbox.json"),
            "putAway",
        )) {
            Ok(saved) => saved,
            Err(err) => {
                tracing::warn!(error = %err, "what was put away in the inbox could not be read");
                return Self::default();
            }
        };
        let dismissed = saved.read(|p| p.keys.iter().cloned().collect());
        Self {
            kept: Mutex::new(Kept {
                dismissed,
                ..Kept::default()
            }),
            saved: Some(saved),
        }
    }

    /// Saves the put-away keys after `change`; a disk that refuses only costs the restart.
    fn save(&self, change: impl FnOnce(&mut Vec<String>) -> bool) {
        let Some(saved) = &self.saved else {
            return;
        };
        let written = saved.write_if(|p| {
            let changed = change(&mut p.keys);
            let over = p.keys.len().saturating_sub(PUT_AWAY_KEPT);
            p.keys.drain(..over);
            changed
        });
        if let Err(err) = written {
            tracing::warn!(error = %err, "what was put away in the inbox could not be saved");
        }
    }

    /// The file of what was put away, when it could not be read and was set aside at start.
    pub fn set_aside(&self) -> Option<&crate::store::SetAside> {
        self.saved.as_ref().and_then(|s| s.set_aside())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The machine list as just read from the service.
    pub fn machines_read(&self, machines: &[MachineRow]) {
        self.lock().machines = machines.to_vec();
    }

    /// The connection changed: its computers and their wakes are not the next one's.
    pub fn connection_left(&self) {
        let mut kept = self.lock();
        kept.machines.clear();
        kept.wake_failures.clear();
    }

    /// Waking `machine_id` failed (`Some`) or was taken (`None`).
    pub fn wake_result(&self, machine_id: &str, error: Option<UiError>) {
        let key = format!("wake:{machine_id}");
        let was_put_away = {
            let mut kept = self.lock();
            match error {
                Some(error) => kept.wake_failures.insert(machine_id.to_owned(), error),
                None => kept.wake_failures.remove(machine_id),
            };
            kept.dismissed.remove(&key)
        };
        if was_put_away {
            self.save(|keys| {
                keys.retain(|k| *k != key);
                true
            });
        }
    }

    /// The person put an item away (a failed task seen, a computer they know about). Cards
    /// and the sign-in are not put away: they leave when answered or signed in.
    pub fn dismiss(&self, key: &str) {
        if !(key.starts_with("failed:") || key.starts_with("wake:")) {
            return;
        }
        if self.lock().dismissed.insert(key.to_owned()) {
            self.save(|keys| {
                keys.push(key.to_owned());
                true
            });
        }
    }

    /// Conversation `id` was deleted: what was put away of it is forgotten with it.
    pub fn conversation_deleted(&self, id: &str) {
        let prefix = format!("failed:{id}:");
        let was_put_away = {
            let mut kept = self.lock();
            kept.shown.remove(id);
            let before = kept.dismissed.len();
            kept.dismissed.retain(|k| !k.starts_with(&prefix));
            before != kept.dismissed.len()
        };
        if was_put_away {
            self.save(|keys| {
                keys.retain(|k| !k.starts_with(&prefix));
                true
            });
        }
    }

    /// Whether `conversation` changed anything the inbox shows since it was last seen here (a
    /// new conversation always does: it may end another's being current). A running task's
    /// progress lines do not, so they derive nothing over all conversations (security review
    /// N14).
    pub fn shows_change_of(&self, conversation: &Conversation) -> bool {
        let now = Shown::of(conversation);
        let mut kept = self.lock();
        if kept.shown.get(&conversation.id) == Some(&now) {
            return false;
        }
        kept.shown.insert(conversation.id.clone(), now);
        true
    }

    /// The inbox now.
    pub fn view(&self, conversations: &Conversations, connection: &Connection) -> InboxView {
        let scope = connection.scope();
        let connection = connection.info();
        let kept = self.lock();
        conversations.store().read(|book| {
            derive(&Sources {
                scope: scope.as_deref(),
                conversations: &book.conversations,
                connection: &connection,
                machines: &kept.machines,
                wake_failures: &kept.wake_failures,
                dismissed: &kept.dismissed,
            })
        })
    }

    /// The inbox now, when it differs from the one last published (which it becomes).
    pub fn changed(
        &self,
        conversations: &Conversations,
        connection: &Connection,
    ) -> Option<InboxView> {
        let view = self.view(conversations, connection);
        let mut kept = self.lock();
        if kept.published.as_ref() == Some(&view) {
            return None;
        }
        kept.published = Some(view.clone());
        Some(view)
    }
}
