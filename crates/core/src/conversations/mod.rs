//! Conversations and the tasks they run: the model ([`model`]), sending, stopping and
//! answering ([`send`], [`answering`]), following a task to its end ([`following`]) and catching up on what
//! happened elsewhere. None of it knows the window: [`Conversations`] holds what it touches
//! (the connection, the conversation store, the usage kept per task, the running followers)
//! and tells the window through a [`Notify`]. The Tauri side is [`window`] and [`commands`];
//! `tests` drives the same struct against the simulator with a collecting `Notify`.

pub mod answering;
pub mod cap_question;
pub mod deleting;
pub mod delivery;
pub mod file_names;
pub mod following;
pub mod local_time;
pub mod model;
pub mod money;
pub mod run_next;
pub mod send;
pub mod send_options;
pub mod spending_cap;
pub mod stopping;
pub mod stuck;
pub mod usage;

#[cfg(test)]
mod tests;

use std::sync::Arc;

use porthole_client::approvals::ApprovalRequest;
use porthole_client::{Client, TaskFollower};

use crate::connection::Connection;
use crate::conversations::usage::UsageStore;
use crate::error::{now_ms, AppResult};
use crate::persist::ConversationStore;
use crate::search::SearchIndex;

pub use file_names::FileNames;
pub use following::Followers;
pub use model::{
    CapQuestion, Conversation, ConversationSummary, Notice, PastTask, TaskStatus, ThreadItem,
};
pub use send::SendRequest;
pub use send_options::SendOptions;

/// How news of conversations reaches whoever shows them (the window, or a test).
pub trait Notify: Send + Sync + 'static {
    /// `conversation` changed and is saved; `listed` when its row in the list changed too
    /// (created, renamed, or its status moved).
    fn conversation_changed(&self, conversation: &Conversation, listed: bool);
    /// The agent waits for the person's answer to `approval`.
    fn needs_answer(&self, conversation: &Conversation, approval: &ApprovalRequest);
    /// A task was sent to a computer that starts first (asleep, or the free computer).
    fn machine_starting(&self, machine_id: &str);
    /// The machine list may have changed (a task ended).
    fn machines_changed(&self);
    /// The task nears its cap and asks whether it may go further (`cap_question.rs`); the
    /// thread shows the question with the conversation, so by default nothing more is said.
    fn near_cap(&self, _conversation: &Conversation, _question: &CapQuestion) {}
}

/// The conversations of the app and the tasks they run. Cheap to clone: clones share all.
#[derive(Clone)]
pub struct Conversations {
    shared: Arc<Shared>,
}

struct Shared {
    connection: Connection,
    store: ConversationStore,
    usage: UsageStore,
    followers: Followers,
    file_names: FileNames,
    notify: Arc<dyn Notify>,
}

impl Conversations {
    pub fn new(
        connection: Connection,
        store: ConversationStore,
        usage: UsageStore,
        notify: Arc<dyn Notify>,
    ) -> Self {
        Self {
            shared: Arc::new(Shared {
                connection,
                store,
                usage,
                followers: Followers::default(),
                file_names: FileNames::default(),
                notify,
            }),
        }
    }

    pub fn store(&self) -> &ConversationStore {
        &self.shared.store
    }

    pub fn usage(&self) -> &UsageStore {
        &self.shared.usage
    }

    pub fn file_names(&self) -> &FileNames {
        &self.shared.file_names
    }

    fn connection(&self) -> &Connection {
        &self.shared.connection
    }

    fn notify(&self) -> &dyn Notify {
        self.shared.notify.as_ref()
    }

    /// Changes a conversation, saves it, and tells the window once it is saved.
    pub fn change(&self, id: &str, f: impl FnOnce(&mut Conversation)) -> AppResult<Conversation> {
        let notify = self.shared.notify.clone();
        self.store().update_then(id, |c| {
            let was = (c.status, c.title.clone());
            f(c);
            // Its row in the list changed too.
            let listed = was.0 != c.status || was.1 != c.title;
            move |saved: &Conversation| notify.conversation_changed(saved, listed)
        })
    }

    /// From now on every saved change of a conversation is indexed for search too (by the
    /// store's writer), and so is each that changed since `indexed`, what the index was
    /// opened from.
    pub fn index_into(&self, index: Arc<SearchIndex>, indexed: &[Conversation]) {
        self.store().index_into(index, indexed);
    }

    /// The conversations of the active connection on one computer, newest first.
    pub async fn list(&self, machine_id: &str) -> AppResult<Vec<model::ConversationSummary>> {
        let scope = self.connection().active().await?.scope;
        self.store().loaded().await;
        Ok(self.store().read(|b| b.list(&scope, machine_id)))
    }

    /// The computer's current conversation, made (empty) when it has none yet. Nothing is
    /// asked of the service: a first message joins the service's current session, and a
    /// catch-up shows what that session already holds.
    pub async fn current(&self, machine_id: &str) -> AppResult<Conversation> {
        let scope = self.connection().active().await?.scope;
        self.store().loaded().await;
        if let Some(current) = self
            .store()
            .read(|b| b.current(&scope, machine_id).cloned())
        {
            return Ok(current);
        }
        self.create(machine_id).await
    }

    /// A conversation not yet sent anything, on `machine_id` of the active connection; it
    /// becomes the computer's current one.
    pub async fn create(&self, machine_id: &str) -> AppResult<Conversation> {
        let scope = self.connection().active().await?.scope;
        let id = format!("conv-{}-{}", now_ms() as u64, rand::random::<u32>());
        let conversation = self
            .store()
            .write(|book| book.create(id, &scope, machine_id, now_ms()).clone())?;
        let (notify, made) = (self.shared.notify.clone(), conversation.clone());
        self.store()
            .after_saved(move || notify.conversation_changed(&made, true));
        Ok(conversation)
    }

    /// The person asked for a new conversation: the service starts a fresh session on the
    /// computer, and the one shown until now is finished. A current conversation with nothing
    /// in it yet is kept as the new one rather than leaving an empty one behind.
    pub async fn start_new(&self, machine_id: &str) -> AppResult<Conversation> {
        let active = self.connection().active().await?;
        let fresh = active.client.sessions().new(machine_id).await?;
        let scope = active.scope;
        let unused = self
            .store()
            .read(|b| b.current(&scope, machine_id).cloned())
            .filter(|c| c.items.is_empty() && !c.status.is_active());
        let conversation = match unused {
            Some(current) => current,
            None => self.create(machine_id).await?,
        };
        // Every message of the conversation lands in this session: kept, so a task whose
        // stream breaks before naming its session is still followed (`delivery.rs`).
        self.change(&conversation.id, |c| c.record_session(fresh.session_id))
    }

    /// Whether conversation `id` is its computer's current one (the others are finished).
    pub fn is_current(&self, id: &str) -> bool {
        self.store().read(|b| b.is_current(id))
    }

    /// Reads the computer's current conversation on the service and adds what this thread
    /// does not show yet (said from elsewhere, or while the app was closed); returns how
    /// many lines were added. Made at start, on focus, and by every task's end.
    pub async fn catch_up(&self, id: &str) -> AppResult<usize> {
        let active = self.connection().active().await?;
        let conversation = self.store().get(id)?;
        // The service's context is its current session's: it belongs to the current
        // conversation only, never to a finished one.
        if !self.is_current(id) {
            return Ok(0);
        }
        let context = active
            .client
            .sessions()
            .context(&conversation.machine_id, following::HISTORY_LINES)
            .await?;
        let mut added = 0;
        self.change(id, |c| added = c.catch_up(&context.messages, now_ms()))?;
        Ok(added)
    }

    /// The connection changed (a switch began): the old connection's tasks are no longer
    /// followed here. Their state stays saved, so switching back resumes them.
    pub fn connection_left(&self) {
        self.shared.followers.stop_all();
    }

    /// Follows again every task of `scope` that was running when last saved (after a
    /// restart, or a switch back), with the connection just made.
    pub fn resume(&self, client: &Client, scope: &str) {
        self.end_undelivered(scope);
        let unfinished = self.store().read(|b| b.unfinished(scope));
        for (id, state) in unfinished {
            self.follow(&id, TaskFollower::resume(client, state));
        }
        self.start_held(scope);
    }

    /// An in-process Demo restarts empty: tasks that were running in the last one are over.
    pub fn end_orphaned(&self, scope: &str, notice: Notice) -> AppResult<()> {
        let ids: Vec<String> = self
            .store()
            .read(|b| b.unfinished(scope).into_iter().map(|(id, _)| id).collect());
        for id in ids {
            self.change(&id, |c| {
                c.record_stopped(now_ms());
                c.record_notice(notice.clone(), now_ms());
            })?;
        }
        Ok(())
    }

    /// Removes every conversation of `scope` (the Demo's, when it is reset), their files and
    /// search lines with them; returns how many went.
    pub fn remove_all_of(&self, scope: &str) -> AppResult<usize> {
        self.store().write(|book| {
            let before = book.conversations.len();
            book.conversations.retain(|c| c.scope != scope);
            before - book.conversations.len()
        })
    }

    /// Whether a follower runs for this conversation.
    pub fn is_following(&self, id: &str) -> bool {
        self.shared.followers.is_following(id)
    }
}
