//! Where the app keeps its files, the settings, and the conversation book on disk.
//!
//! `PORTHOLE_DATA_DIR` moves everything (tests use a temp folder). Each conversation has its
//! own journal in `conversations/` (see `store::journals`), so a task's update writes that
//! update only, right away: a restart mid-task finds the cursor of the last update shown.
//! Files a version before wrote (`settings.json`, `conversations.json`) are read and moved
//! to the new form on first start.

use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use crate::connection::settings::Settings;
use crate::conversations::model::{Conversation, ConversationBook};
use crate::error::{AppError, AppResult, UiError};
use crate::store::document::store_error;
use crate::store::{Document, Journals, Persisted, SetAside};
use crate::words::stored;

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

/// The conversation book on disk.
pub struct ConversationStore {
    kept: Mutex<Kept>,
    set_aside: Vec<SetAside>,
}

struct Kept {
    book: ConversationBook,
    journals: Journals,
}

/// The book as a version before kept it, whole in one file, and where it goes once read.
const LEGACY_BOOK: &str = "conversations.json";
const LEGACY_BOOK_READ: &str = "conversations.before-journals.json";

impl ConversationStore {
    pub fn open_in(dir: &Path) -> AppResult<Self> {
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
        Ok(Self {
            kept: Mutex::new(Kept {
                book: ConversationBook { conversations },
                journals,
            }),
            set_aside,
        })
    }

    /// Lends the book for reading, under the lock that saves take.
    pub fn read<T>(&self, f: impl FnOnce(&ConversationBook) -> T) -> T {
        f(&self.lock().book)
    }

    /// Changes the book and saves the conversations that changed in it (found by comparing
    /// with a copy taken before, cheaper than serializing each); prefer [`Self::update`]
    /// for one conversation.
    pub fn write<T>(&self, f: impl FnOnce(&mut ConversationBook) -> T) -> AppResult<T> {
        let mut kept = self.lock();
        let before = kept.book.clone();
        let out = f(&mut kept.book);
        let Kept { book, journals } = &mut *kept;
        for conversation in &book.conversations {
            if before.get(&conversation.id) != Some(conversation) {
                journals.save(&conversation.id, to_value(conversation)?)?;
            }
        }
        for gone in before
            .conversations
            .iter()
            .filter(|c| book.get(&c.id).is_none())
        {
            journals.remove(&gone.id)?;
        }
        Ok(out)
    }

    /// Changes one conversation, saves what changed, and returns its new state.
    pub fn update(&self, id: &str, f: impl FnOnce(&mut Conversation)) -> AppResult<Conversation> {
        let mut kept = self.lock();
        let Kept { book, journals } = &mut *kept;
        let conversation = book.get_mut(id).ok_or(AppError::UnknownConversation)?;
        f(conversation);
        journals.save(id, to_value(conversation)?)?;
        Ok(conversation.clone())
    }

    pub fn get(&self, id: &str) -> AppResult<Conversation> {
        self.read(|b| b.get(id).cloned())
            .ok_or(AppError::UnknownConversation)
    }

    fn lock(&self) -> MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }
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

/// What could not be read at start, in words for the person: each file set aside, where
/// it went, and what the app started with instead.
pub fn stored_data_notices(
    settings: &SettingsStore,
    conversations: &crate::conversations::Conversations,
    library: &crate::reusable::library::Library,
    schedules: &crate::schedules::Schedules,
    inbox: &crate::inbox::Inbox,
) -> Vec<UiError> {
    use stored::{set_aside, Stored};
    let settings = settings
        .kept
        .set_aside()
        .map(|a| set_aside(Stored::Settings, a));
    let book = conversations.store().set_aside.iter();
    let book = book.map(|a| set_aside(Stored::Conversations, a));
    let library = library.set_aside().map(|a| set_aside(Stored::Library, a));
    let usage = conversations.usage().set_aside();
    let usage = usage.map(|a| set_aside(Stored::Usage, a));
    let schedules = schedules
        .set_aside()
        .map(|a| set_aside(Stored::Schedules, a));
    let inbox = inbox.set_aside().map(|a| set_aside(Stored::Inbox, a));
    settings
        .into_iter()
        .chain(book)
        .chain(library)
        .chain(usage)
        .chain(schedules)
        .chain(inbox)
        .collect()
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod saved_words_tests;

#[cfg(test)]
mod bench;

#[cfg(test)]
mod private_tests;

#[cfg(test)]
mod startup_bench;
