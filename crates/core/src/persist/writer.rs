//! The one writer of the conversations' files and their search index (security review N14).
//!
//! Why a thread of its own: every update of a running task used to be serialized, diffed,
//! appended with an fsync and indexed in a SQLite transaction on whichever thread made it, a
//! tokio worker mostly, under the book's lock. Now the caller changes the book in memory,
//! hands a copy of the conversation here, and goes on; this thread does the disk work, one
//! change after another in the order they were made (they are sent under the book's lock),
//! so a conversation's journal and its index lines are only ever written from here.
//!
//! What it costs: a change is on disk a moment (one fsync) after the caller returns. The
//! window is told of it only then (a [`Told`] runs here, after the save), so a crash in that
//! moment loses only changes the person was never shown; each conversation's saved state
//! stays whole (cursor and lines together, so the follower takes up from the saved cursor and
//! repeats nothing). [`Writer::flush`] waits for what was sent: the app calls it when it
//! ends, the store when it is dropped, tests before they read the files.
//! A change that could not be written is told to the caller of the next change, as a
//! failed save was told before; the journal rewrites that conversation whole at its next
//! save (`store::journals`).

use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;

use crate::conversations::model::Conversation;
use crate::error::{AppError, AppResult};
use crate::search::SearchIndex;
use crate::store::document::store_error;
use crate::store::Journals;

/// What is told once a conversation is saved: the window is shown only what is on disk, so a
/// crash never takes back a line the person saw (the e2e test `kill` holds it).
pub type Told = Box<dyn FnOnce(&Conversation) + Send>;

/// What the writer is asked to do, in order.
enum Job {
    Save(Box<Conversation>, Option<Told>),
    /// Run once everything sent before is written.
    Then(Box<dyn FnOnce() + Send>),
    Remove(String),
    /// Index again, without saving: the index opened after these changed.
    Index(Box<Conversation>),
    /// Everything sent before is written: answer on the channel.
    Flush(Sender<()>),
}

pub struct Writer {
    jobs: Mutex<Option<Sender<Job>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
    /// The last write that failed, said to the caller of the next change.
    failed: Arc<Mutex<Option<String>>>,
    /// The search index, once the app opened it: from then on every save is indexed too.
    index: Arc<OnceLock<Arc<SearchIndex>>>,
}

impl Writer {
    /// Starts the writer with the journals the load opened; it owns them from now on.
    pub fn start(journals: Journals) -> Self {
        let (jobs, received) = mpsc::channel();
        let failed = Arc::new(Mutex::new(None));
        let index = Arc::new(OnceLock::new());
        let thread = {
            let (failed, index) = (failed.clone(), index.clone());
            std::thread::Builder::new()
                .name("conversation-writer".into())
                .spawn(move || write_all(journals, &received, &failed, &index))
                .expect("a thread for the conversation writer")
        };
        Self {
            jobs: Mutex::new(Some(jobs)),
            thread: Mutex::new(Some(thread)),
            failed,
            index,
        }
    }

    fn send(&self, job: Job) {
        let jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(jobs) = jobs.as_ref() {
            // The thread ends only when the store is dropped: nothing is sent after that.
            let _ = jobs.send(job);
        }
    }

    pub fn save(&self, conversation: Conversation, told: Option<Told>) {
        self.send(Job::Save(Box::new(conversation), told));
    }

    pub fn then(&self, f: impl FnOnce() + Send + 'static) {
        self.send(Job::Then(Box::new(f)));
    }

    pub fn remove(&self, id: &str) {
        self.send(Job::Remove(id.to_owned()));
    }

    pub fn index(&self, conversation: Conversation) {
        self.send(Job::Index(Box::new(conversation)));
    }

    /// From now on every save is indexed too; false when an index was already given.
    pub fn index_into(&self, index: Arc<SearchIndex>) -> bool {
        self.index.set(index).is_ok()
    }

    /// Waits until everything sent before is on disk and in the index.
    pub fn flush(&self) {
        let (done, written) = mpsc::channel();
        self.send(Job::Flush(done));
        let _ = written.recv();
    }

    /// The error of a write that failed since the last call, if any.
    pub fn take_failure(&self) -> AppResult<()> {
        match self.failed.lock().unwrap_or_else(|e| e.into_inner()).take() {
            Some(said) => Err(AppError::Store(said)),
            None => Ok(()),
        }
    }
}

impl Drop for Writer {
    /// Writes what is left, then ends the thread.
    fn drop(&mut self) {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(thread) = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = thread.join();
        }
    }
}

fn write_all(
    mut journals: Journals,
    jobs: &Receiver<Job>,
    failed: &Mutex<Option<String>>,
    index: &OnceLock<Arc<SearchIndex>>,
) {
    let fail = |err: AppError, what: &str| {
        tracing::error!(error = %err, "{what}");
        let said = match err {
            AppError::Store(said) => said,
            other => other.to_string(),
        };
        *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(said);
    };
    let indexed = |conversation: &Conversation| {
        if let Some(index) = index.get() {
            // Only the lines that changed are written (search/mod.rs).
            if let Err(err) = index.update(conversation) {
                tracing::warn!(error = %err, "could not index a conversation for search");
            }
        }
    };
    for job in jobs {
        match job {
            Job::Save(conversation, told) => {
                let saved = serde_json::to_value(&*conversation)
                    .map_err(store_error)
                    .and_then(|value| journals.save(&conversation.id, value));
                match saved {
                    // Told only what is saved, as before this writer: a change that could not
                    // be saved is said to the next change's caller instead.
                    Ok(()) => {
                        if let Some(told) = told {
                            told(&conversation);
                        }
                    }
                    Err(err) => fail(err, "a conversation could not be saved"),
                }
                indexed(&conversation);
            }
            Job::Then(f) => f(),
            Job::Remove(id) => {
                if let Err(err) = journals.remove(&id) {
                    fail(err, "a conversation's file could not be removed");
                }
                // Its lines go with it: search finds nothing of a deleted conversation.
                if let Some(index) = index.get() {
                    if let Err(err) = index.remove(&id) {
                        fail(err, "a conversation's search lines could not be removed");
                    }
                }
            }
            Job::Index(conversation) => indexed(&conversation),
            Job::Flush(done) => {
                let _ = done.send(());
            }
        }
    }
}
