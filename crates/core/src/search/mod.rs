//! Searching every conversation, on every computer, from one box: a full-text index of the
//! threads' lines (`lines.rs` says which) in the data folder, `search.sqlite3`.
//!
//! Why SQLite's FTS5 (through `rusqlite`, SQLite built from its C source by the `bundled`
//! feature) rather than tantivy: both answer a prefix query over 10,000 tasks in well under
//! 50 ms, but FTS5 adds about 1.9 MB to a release binary and one C build of SQLite, where
//! tantivy adds about 5.8 MB and four times the build time (BENCHMARKS.md, "Search", has the figures and
//! how they were measured); the release binary is kept small, so the smaller wins. FTS5 also
//! keeps the index and its updates in one file with transactions, so a crash mid-update
//! never leaves half a conversation.
//!
//! The index follows the conversations: the core tells it of every saved change
//! ([`Conversations::index_into`]), and each change rewrites only the lines that changed. A
//! missing, unreadable or older index is rebuilt from the saved conversations at start
//! ([`SearchIndex::open_in`]): the conversations are the truth, the index only a copy.

pub mod lines;
mod plain;
pub mod query;

#[cfg(test)]
mod bench;
#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use rusqlite::{params, Connection as Db};
use serde::{Deserialize, Serialize};

use crate::connection::Connection;
use crate::conversations::{Conversation, Conversations};
use crate::error::{AppError, AppResult};
use lines::{lines_of, Line};

/// Raised whenever the tables change shape or what goes in them: an index of another version
/// is rebuilt. 2: the agent's lines are indexed as plain text, not Markdown.
const VERSION: i64 = 2;
const FILE: &str = "search.sqlite3";
/// Results shown for one query: more than a person reads while typing.
pub const MAX_HITS: usize = 50;
/// Marks around the matched words in a hit's excerpt; control characters, so no text a
/// person can write is taken for one, and the page highlights without parsing HTML.
pub const MARK_START: char = '\u{2}';
pub const MARK_END: char = '\u{3}';

/// One line that matched, with where to open it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SearchHit {
    pub conversation_id: String,
    pub machine_id: String,
    pub title: String,
    /// The line's place in the conversation's thread (`Conversation::items`).
    pub item: u32,
    /// `task`, `answer`, `narration`, `progress`, `notice` or `elsewhere`.
    pub kind: String,
    /// A few words around the match, the matched words between [`MARK_START`] and [`MARK_END`].
    pub excerpt: String,
}

/// The search index on disk.
pub struct SearchIndex {
    db: Mutex<Db>,
}

impl SearchIndex {
    /// Opens the index in `dir`, rebuilt from `conversations` when it is missing, unreadable,
    /// or of another version. Only a folder that cannot be written fails.
    pub fn open_in(dir: &Path, conversations: &[Conversation]) -> AppResult<Self> {
        let path = dir.join(FILE);
        // Every line of every conversation is in here: the person's alone, also a file an
        // earlier version made with SQLite's default mode (security review N9).
        for file in [path.clone(), wal(&path, "-wal"), wal(&path, "-shm")] {
            crate::store::atomic::make_file_private(&file)
                .map_err(crate::store::document::store_error)?;
        }
        let db = open_existing(&path);
        if let Err(err) = crate::store::atomic::create_private_file(&wal(&path, OPEN_MARK)) {
            tracing::warn!(error = %err, "the search index's open mark could not be made");
        }
        let db = match db {
            Some(db) => db,
            None => {
                for stale in [path.clone(), wal(&path, "-wal"), wal(&path, "-shm")] {
                    let _ = std::fs::remove_file(stale);
                }
                let db = create(&path).map_err(store_error)?;
                let index = Self { db: Mutex::new(db) };
                index.rebuild(conversations)?;
                return Ok(index);
            }
        };
        Ok(Self { db: Mutex::new(db) })
    }

    fn lock(&self) -> MutexGuard<'_, Db> {
        self.db.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Indexes every conversation afresh, in one transaction.
    pub fn rebuild(&self, conversations: &[Conversation]) -> AppResult<()> {
        let mut db = self.lock();
        let tx = db.transaction().map_err(store_error)?;
        tx.execute_batch("DELETE FROM lines; DELETE FROM conversations;")
            .map_err(store_error)?;
        for conversation in conversations {
            put(&tx, conversation).map_err(store_error)?;
        }
        tx.commit().map_err(store_error)
    }

    /// The conversation changed: its row and the lines that differ are written again.
    pub fn update(&self, conversation: &Conversation) -> AppResult<()> {
        let mut db = self.lock();
        let tx = db.transaction().map_err(store_error)?;
        put(&tx, conversation).map_err(store_error)?;
        tx.commit().map_err(store_error)
    }

    /// The conversation was deleted: its row and every line of it leave the index.
    pub fn remove(&self, conversation_id: &str) -> AppResult<()> {
        let mut db = self.lock();
        let tx = db.transaction().map_err(store_error)?;
        tx.execute(
            "DELETE FROM lines WHERE conversation_id = ?1",
            [conversation_id],
        )
        .map_err(store_error)?;
        tx.execute("DELETE FROM conversations WHERE id = ?1", [conversation_id])
            .map_err(store_error)?;
        tx.commit().map_err(store_error)
    }

    /// The lines of `scope`'s conversations that hold every word of `typed` (the last one
    /// possibly half typed), best first. Text with no word in it finds nothing.
    pub fn search(&self, scope: &str, typed: &str) -> AppResult<Vec<SearchHit>> {
        let Some(expression) = query::match_expression(typed) else {
            return Ok(Vec::new());
        };
        let db = self.lock();
        let mut statement = db
            .prepare_cached(
                "SELECT l.conversation_id, c.machine_id, c.title, l.item, l.kind,
                        snippet(lines_fts, 0, ?3, ?4, '…', 12)
                 FROM lines_fts
                 JOIN lines l ON l.id = lines_fts.rowid
                 JOIN conversations c ON c.id = l.conversation_id
                 WHERE lines_fts MATCH ?1 AND c.scope = ?2
                 ORDER BY lines_fts.rank
                 LIMIT ?5",
            )
            .map_err(store_error)?;
        let rows = statement
            .query_map(
                params![
                    expression,
                    scope,
                    MARK_START.to_string(),
                    MARK_END.to_string(),
                    MAX_HITS as i64
                ],
                |row| {
                    Ok(SearchHit {
                        conversation_id: row.get(0)?,
                        machine_id: row.get(1)?,
                        title: row.get(2)?,
                        item: row.get(3)?,
                        kind: row.get(4)?,
                        excerpt: row.get(5)?,
                    })
                },
            )
            .map_err(store_error)?;
        rows.collect::<Result<_, _>>().map_err(store_error)
    }
}

fn wal(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The index as left by an earlier run, when it is of this version and, after a run that
/// did not end cleanly (see [`OPEN_MARK`]), whole: the full checks read the whole index, so a
/// clean start skips them (security review N10). A damaged index is rebuilt.
fn open_existing(path: &Path) -> Option<Db> {
    if !path.exists() {
        return None;
    }
    let db = Db::open(path).ok()?;
    let version: i64 = db.query_row("PRAGMA user_version", [], |r| r.get(0)).ok()?;
    let whole = !wal(path, OPEN_MARK).exists() || {
        let quick: Option<String> = db.query_row("PRAGMA quick_check", [], |r| r.get(0)).ok();
        // FTS5's own check reads the whole index against its table.
        quick.as_deref() == Some("ok")
            && db
                .execute(
                    "INSERT INTO lines_fts(lines_fts) VALUES('integrity-check')",
                    [],
                )
                .is_ok()
    };
    (version == VERSION && whole && tune(&db).is_ok()).then_some(db)
}

/// Beside the index while the app has it open, removed when the app ends cleanly
/// ([`Search::closed`]): found at start, the last run was killed or crashed, and the index is
/// checked whole before it is used.
const OPEN_MARK: &str = ".open";

fn tune(db: &Db) -> rusqlite::Result<()> {
    // WAL with NORMAL sync: an update is one small append; a crash may lose the last few,
    // which the next start does not notice, as the conversations stay the truth. Rebuilding
    // is there for a lost or damaged file.
    db.pragma_update(None, "journal_mode", "WAL")?;
    db.pragma_update(None, "synchronous", "NORMAL")
}

fn create(path: &Path) -> rusqlite::Result<Db> {
    // Made empty with 0600 first: SQLite keeps an existing file's mode, and gives its `-wal`
    // and `-shm` files the same one.
    if let Err(err) = crate::store::atomic::create_private_file(path) {
        tracing::warn!(error = %err, "the search index could not be made private");
    }
    let db = Db::open(path)?;
    tune(&db)?;
    db.execute_batch(
        "CREATE TABLE conversations(
            id TEXT PRIMARY KEY, scope TEXT NOT NULL, machine_id TEXT NOT NULL,
            title TEXT NOT NULL, updated_at REAL NOT NULL);
         CREATE TABLE lines(
            id INTEGER PRIMARY KEY, conversation_id TEXT NOT NULL, item INTEGER NOT NULL,
            kind TEXT NOT NULL, text TEXT NOT NULL, UNIQUE(conversation_id, item));
         -- The words live once, in `lines`; the FTS5 table indexes them (external content).
         CREATE VIRTUAL TABLE lines_fts USING fts5(
            text, content='lines', content_rowid='id',
            tokenize='unicode61 remove_diacritics 2');
         CREATE TRIGGER lines_added AFTER INSERT ON lines BEGIN
            INSERT INTO lines_fts(rowid, text) VALUES (new.id, new.text);
         END;
         CREATE TRIGGER lines_removed AFTER DELETE ON lines BEGIN
            INSERT INTO lines_fts(lines_fts, rowid, text) VALUES('delete', old.id, old.text);
         END;",
    )?;
    db.pragma_update(None, "user_version", VERSION)?;
    Ok(db)
}

/// Writes `conversation`'s row and its lines that are not already as they are now.
fn put(db: &Db, conversation: &Conversation) -> rusqlite::Result<()> {
    db.prepare_cached(
        "INSERT INTO conversations(id, scope, machine_id, title, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT(id) DO UPDATE SET scope = ?2, machine_id = ?3, title = ?4, updated_at = ?5",
    )?
    .execute(params![
        conversation.id,
        conversation.scope,
        conversation.machine_id,
        conversation.title,
        conversation.updated_at
    ])?;
    let kept: Vec<Line> = db
        .prepare_cached("SELECT item, kind, text FROM lines WHERE conversation_id = ?1")?
        .query_map([&conversation.id], |row| {
            Ok(Line {
                item: row.get(0)?,
                kind: kind_name(&row.get::<_, String>(1)?),
                text: row.get(2)?,
            })
        })?
        .collect::<Result<_, _>>()?;
    let now = lines_of(conversation);
    let mut remove =
        db.prepare_cached("DELETE FROM lines WHERE conversation_id = ?1 AND item = ?2")?;
    for old in &kept {
        if !now.contains(old) {
            remove.execute(params![conversation.id, old.item])?;
        }
    }
    let mut add = db.prepare_cached(
        "INSERT INTO lines(conversation_id, item, kind, text) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for line in &now {
        if !kept.contains(line) {
            add.execute(params![conversation.id, line.item, line.kind, line.text])?;
        }
    }
    Ok(())
}

/// The kind names `lines.rs` writes, as `'static` again.
fn kind_name(kind: &str) -> &'static str {
    [
        "task",
        "answer",
        "narration",
        "progress",
        "notice",
        "elsewhere",
    ]
    .into_iter()
    .find(|k| *k == kind)
    .unwrap_or("other")
}

fn store_error(err: rusqlite::Error) -> AppError {
    AppError::Store(format!("search index: {err}"))
}

/// The app's index, as managed state: being opened beside the first screen, then open, or
/// why it could not be. Cheap to clone: clones share it.
#[derive(Clone)]
pub struct Search {
    index: Arc<tokio::sync::watch::Sender<Option<Opened>>>,
}

/// The index once opened, or why it could not be.
type Opened = Result<Arc<SearchIndex>, String>;

impl Search {
    /// The index, not open yet: a search made meanwhile waits for [`Self::open`].
    pub fn opening() -> Self {
        Self {
            index: Arc::new(tokio::sync::watch::Sender::new(None)),
        }
    }

    /// Opens the index in the app's data folder and hands it to the conversations core, which
    /// keeps it up to date; off the main thread, as it may rebuild (security review N10).
    /// It waits for the conversations' load; those changed while it opened are indexed again. A folder that cannot be
    /// written leaves the app without search, and the box says why, rather than the app not
    /// starting.
    pub fn open(&self, dir: &Path, conversations: &Conversations) {
        let saved = conversations.store().read(|b| b.conversations.clone());
        let index = SearchIndex::open_in(dir, &saved).map(Arc::new);
        match &index {
            Ok(index) => conversations.index_into(index.clone(), &saved),
            Err(err) => tracing::warn!(error = %err, "the search index could not be opened"),
        }
        self.index
            .send_replace(Some(index.map_err(|err| err.to_string())));
    }

    /// The app ends cleanly: the next start need not check the index whole.
    pub fn closed(&self, dir: &Path) {
        closed_in(dir);
    }

    /// What `typed` finds among the active service's conversations.
    pub async fn find(&self, connection: &Connection, typed: &str) -> AppResult<Vec<SearchHit>> {
        let index = self
            .index
            .subscribe()
            .wait_for(Option::is_some)
            .await
            .map_err(|err| AppError::Store(err.to_string()))?
            .clone()
            .ok_or_else(|| AppError::Store("search index".into()))?
            .map_err(AppError::Store)?;
        let scope = connection.active().await?.scope;
        index.search(&scope, typed)
    }
}

/// The index in `dir` was closed cleanly: its open mark goes.
fn closed_in(dir: &Path) {
    let _ = std::fs::remove_file(wal(&dir.join(FILE), OPEN_MARK));
}

/// How many lines of this conversation are indexed.
#[cfg(test)]
fn indexed_lines(index: &SearchIndex, conversation_id: &str) -> usize {
    index
        .lock()
        .query_row(
            "SELECT count(*) FROM lines WHERE conversation_id = ?1",
            [conversation_id],
            |r| r.get::<_, i64>(0),
        )
        .unwrap_or(0) as usize
}
