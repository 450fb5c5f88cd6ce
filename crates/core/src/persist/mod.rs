//! Where the app keeps its files, the settings, and the conversation book on disk.
//!
//! `PORTHOLE_DATA_DIR` moves everything (tests use a temp folder). Each conversation has its
//! own journal in `conversations/` (see `store::journals`), so a task's update writes that
//! update only, right away: a restart mid-task finds the cursor of the last update shown.
//! Files a version before wrote (`settings.json`, `conversations.json`) are read and moved
//! to the new form on first start.

use std::path::Path;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};

use crate::connection::settings::Settings;
use crate::conversations::model::{Conversation, ConversationBook};
use crate::error::{AppError, AppResult, UiError};
use crate::search::SearchIndex;
use crate::store::document::store_error;
use crate::store::{Document, Journals, Persisted, SetAside};
use crate::words::stored;
use writer::Writer;

mod writer;

/// Makes the data folder the person's alone (0700 on Unix), also one an earlier version made
/// with the system's default mode: it holds every conversation (security review N9).
pub fn make_private(dir: &Path) -> AppResult<()> {
    crate::store::atomic::create_private_dir(dir).map_err(store_error)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
            .map_err(store_error)?;
    }
    Ok(())
}

/// Settings on disk.
pub struct SettingsStore {
    kept: Persisted<Settings>,
}

impl SettingsStore {
    pub fn open_in(dir: &Path) -> AppResult<Self> {
        Ok(Self {
            kept: Persisted::open(Document::new(dir.join("settings.json"), "settings"))?,
        })
    }

    pub fn get(&self) -> Settings {
        self.kept.read(Settings::clone)
    }

    pub fn update(&self, change: impl FnOnce(&mut Settings)) -> AppResult<()> {
        self.kept.write(change)
    }
}

/// The conversation book: in memory for reading, on disk through one writer
/// (`persist_writer.rs`, security review N14).
///
/// It may be made before its files are read ([`Self::loading`], then [`Self::load`] on a
/// thread of its own): with a long history, reading every journal takes seconds, and the
/// first screen does not wait for it (security review N10). Until the load ends, every
/// reader and every change waits for it, so nothing sees an empty book or saves over one;
/// async callers can wait without holding a thread ([`Self::loaded`]).
pub struct ConversationStore {
    kept: Mutex<Option<Kept>>,
    /// Woken when the load ends.
    load_ended: Condvar,
    loaded: tokio::sync::watch::Sender<bool>,
    /// Saves and indexes every change; none when the files could not be opened.
    writer: OnceLock<Writer>,
}

struct Kept {
    book: ConversationBook,
    set_aside: Vec<SetAside>,
}

/// The book as a version before kept it, whole in one file, and where it goes once read.
const LEGACY_BOOK: &str = "conversations.json";
const LEGACY_BOOK_READ: &str = "conversations.before-journals.json";

impl ConversationStore {
    /// Opens the book now, reading every journal before it returns (tests, benchmarks).
    pub fn open_in(dir: &Path) -> AppResult<Self> {
        let store = Self::loading();
        store.load(dir)?;
        Ok(store)
    }

    /// A book whose files are not read yet: readers wait for [`Self::load`].
    pub fn loading() -> Self {
        Self {
            kept: Mutex::new(None),
            load_ended: Condvar::new(),
            loaded: tokio::sync::watch::Sender::new(false),
            writer: OnceLock::new(),
        }
    }

    /// Reads every journal in `dir` (and a book a version before kept whole). When they
    /// cannot be read, the book stays empty and refuses changes, and the error is returned
    /// for the person to be told; either way the waiting readers go on.
    pub fn load(&self, dir: &Path) -> AppResult<()> {
        let read = read_book(dir);
        let (kept, out) = match read {
            Ok((kept, journals)) => {
                let _ = self.writer.set(Writer::start(journals));
                (kept, Ok(()))
            }
            Err(err) => {
                let empty = Kept {
                    book: ConversationBook::default(),
                    set_aside: Vec::new(),
                };
                (empty, Err(err))
            }
        };
        *self.kept.lock().unwrap_or_else(|e| e.into_inner()) = Some(kept);
        self.load_ended.notify_all();
        self.loaded.send_replace(true);
        out
    }

    /// Waits, without holding a thread, until the load has ended.
    pub async fn loaded(&self) {
        let _ = self.loaded.subscribe().wait_for(|loaded| *loaded).await;
    }

    /// Lends the book for reading, under the lock that changes take.
    pub fn read<T>(&self, f: impl FnOnce(&ConversationBook) -> T) -> T {
        f(&self.lock().book)
    }

    /// Changes the book and saves the conversations that changed in it (found by comparing
    /// with a copy taken before, cheaper than serializing each); prefer [`Self::update`]
    /// for one conversation.
    pub fn write<T>(&self, f: impl FnOnce(&mut ConversationBook) -> T) -> AppResult<T> {
        let mut kept = self.lock();
        let writer = self.writer()?;
        let before = kept.book.clone();
        let out = f(&mut kept.book);
        let book = &kept.book;
        // Sent under the lock: the writer gets the changes in the order they were made.
        for conversation in &book.conversations {
            if before.get(&conversation.id) != Some(conversation) {
                writer.save(conversation.clone(), None);
            }
        }
        for gone in before
            .conversations
            .iter()
            .filter(|c| book.get(&c.id).is_none())
        {
            writer.remove(&gone.id);
        }
        drop(kept);
        writer.take_failure()?;
        Ok(out)
    }

    /// Changes one conversation, has the change saved, and returns its new state.
    pub fn update(&self, id: &str, f: impl FnOnce(&mut Conversation)) -> AppResult<Conversation> {
        self.update_then(id, |c| {
            f(c);
            |_: &Conversation| {}
        })
    }

    /// As [`Self::update`]; what `f` returns is called with the conversation once it is
    /// saved, on the writer's thread, in the order of the changes.
    pub fn update_then<G>(
        &self,
        id: &str,
        f: impl FnOnce(&mut Conversation) -> G,
    ) -> AppResult<Conversation>
    where
        G: FnOnce(&Conversation) + Send + 'static,
    {
        let mut kept = self.lock();
        let writer = self.writer()?;
        let conversation = kept.book.get_mut(id).ok_or(AppError::UnknownConversation)?;
        let told = f(conversation);
        let after = conversation.clone();
        // Sent under the lock: the writer gets the changes in the order they were made.
        writer.save(after.clone(), Some(Box::new(told)));
        drop(kept);
        writer.take_failure()?;
        Ok(after)
    }

    /// Runs `f` on the writer's thread once every change made so far is saved.
    pub fn after_saved(&self, f: impl FnOnce() + Send + 'static) {
        if let Some(writer) = self.writer.get() {
            writer.then(f);
        }
    }

    pub fn get(&self, id: &str) -> AppResult<Conversation> {
        self.read(|b| b.get(id).cloned())
            .ok_or(AppError::UnknownConversation)
    }

    /// What could not be read at the load, each file set aside and what was kept instead.
    pub fn set_aside(&self) -> Vec<SetAside> {
        self.lock().set_aside.clone()
    }

    /// From now on every saved change is indexed too, and so is every conversation that
    /// changed since `indexed` (what the index was opened from).
    pub fn index_into(&self, index: Arc<SearchIndex>, indexed: &[Conversation]) {
        let kept = self.lock();
        let Ok(writer) = self.writer() else {
            return;
        };
        if !writer.index_into(index) {
            return;
        }
        let indexed: std::collections::HashMap<&str, &Conversation> =
            indexed.iter().map(|c| (c.id.as_str(), c)).collect();
        // Under the lock, so after every save sent before and before any sent after.
        for conversation in &kept.book.conversations {
            if indexed.get(conversation.id.as_str()) != Some(&conversation) {
                writer.index(conversation.clone());
            }
        }
    }

    /// Waits until every change made so far is on disk and in the index.
    pub fn flush(&self) {
        if let Some(writer) = self.writer.get() {
            writer.flush();
        }
    }

    fn writer(&self) -> AppResult<&Writer> {
        self.writer
            .get()
            .ok_or_else(|| AppError::Store("the conversations could not be opened at start".into()))
    }

    /// The book, once loaded: a caller before the load's end waits for it.
    fn lock(&self) -> MappedKept<'_> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        while kept.is_none() {
            kept = self
                .load_ended
                .wait(kept)
                .unwrap_or_else(|e| e.into_inner());
        }
        MappedKept(kept)
    }
}

/// The lock on a loaded book.
struct MappedKept<'a>(MutexGuard<'a, Option<Kept>>);

impl std::ops::Deref for MappedKept<'_> {
    type Target = Kept;
    fn deref(&self) -> &Kept {
        self.0.as_ref().expect("loaded")
    }
}

impl std::ops::DerefMut for MappedKept<'_> {
    fn deref_mut(&mut self) -> &mut Kept {
        self.0.as_mut().expect("loaded")
    }
}

/// Every journal read and replayed: the slow part of a start with a long history.
fn read_book(dir: &Path) -> AppResult<(Kept, Journals)> {
    let opened = Journals::open(&dir.join("conversations"))?;
    let mut journals = opened.journals;
    let mut set_aside = opened.set_aside;
    let mut conversations = Vec::new();
    for (id, value) in opened.records {
        match serde_json::from_value::<Conversation>(value) {
            Ok(conversation) => conversations.push(conversation),
            Err(_) => set_aside.extend(journals.set_aside(&id)?),
        }
    }
    let legacy = migrate(dir, &mut journals)?;
    set_aside.extend(legacy.set_aside);
    for conversation in legacy.conversations {
        conversations.retain(|c| c.id != conversation.id);
        conversations.push(conversation);
    }
    conversations.sort_by(|a, b| a.created_at.total_cmp(&b.created_at).then(a.id.cmp(&b.id)));
    let kept = Kept {
        book: ConversationBook { conversations },
        set_aside,
    };
    Ok((kept, journals))
}

fn to_value(conversation: &Conversation) -> AppResult<serde_json::Value> {
    serde_json::to_value(conversation).map_err(store_error)
}

struct Migrated {
    conversations: Vec<Conversation>,
    set_aside: Option<SetAside>,
}

/// Moves a book a version before kept whole into one journal per conversation. The old file
/// is renamed only once every journal is written: a crash before that migrates again.
fn migrate(dir: &Path, journals: &mut Journals) -> AppResult<Migrated> {
    let legacy = Document::new(dir.join(LEGACY_BOOK), "book");
    let mut migrated = Migrated {
        conversations: Vec::new(),
        set_aside: None,
    };
    if !legacy.path.exists() {
        return Ok(migrated);
    }
    let opened = legacy.open::<ConversationBook>()?;
    migrated.set_aside = opened.set_aside;
    for conversation in opened.value.unwrap_or_default().conversations {
        journals.save(&conversation.id, to_value(&conversation)?)?;
        migrated.conversations.push(conversation);
    }
    if legacy.path.exists() {
        std::fs::rename(&legacy.path, dir.join(LEGACY_BOOK_READ)).map_err(store_error)?;
    }
    Ok(migrated)
}

/// The stores the app read at start, to ask what each of them set aside.
pub struct StartedStores<'a> {
    pub settings: &'a SettingsStore,
    pub conversations: &'a crate::conversations::Conversations,
    pub library: &'a crate::reusable::library::Library,
    pub schedules: &'a crate::schedules::Schedules,
    pub inbox: &'a crate::inbox::Inbox,
    pub demo: &'a crate::connection::demo::DemoService,
}

impl StartedStores<'_> {
    /// Each file that could not be read at start and was moved aside, with which it was; in
    /// one order, so the n-th notice and the n-th file are the same one.
    pub fn set_aside(&self) -> Vec<(stored::Stored, SetAside)> {
        use stored::Stored;
        let one = |what, aside: Option<&SetAside>| aside.map(|a| (what, a.clone()));
        let book = self.conversations.store().set_aside().into_iter();
        one(Stored::Settings, self.settings.kept.set_aside())
            .into_iter()
            .chain(book.map(|a| (Stored::Conversations, a)))
            .chain(one(Stored::Library, self.library.set_aside()))
            .chain(one(Stored::Usage, self.conversations.usage().set_aside()))
            .chain(one(Stored::Schedules, self.schedules.set_aside()))
            .chain(one(Stored::Inbox, self.inbox.set_aside()))
            .chain(one(Stored::Demo, self.demo.set_aside()))
            .collect()
    }

    /// What could not be read at start, in words for the person: each file set aside, what
    /// the app started with instead, and "Show the file" (never its path in the words).
    pub fn notices(&self) -> Vec<UiError> {
        self.set_aside()
            .iter()
            .map(|(what, aside)| stored::set_aside(*what, aside))
            .collect()
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod kept_files_tests;

#[cfg(test)]
mod saved_words_tests;

#[cfg(test)]
mod bench;

#[cfg(test)]
mod private_tests;

#[cfg(test)]
mod startup_bench;
