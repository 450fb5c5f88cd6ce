//! Where the app keeps its files (tauri-plugin-store), and the conversation book on disk.
//!
//! `PORTHOLE_DATA_DIR` moves everything (tests use a temp folder). The book is saved after
//! every change, so a restart mid-task finds the cursor of the last update shown.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use tauri::{AppHandle, Manager, Wry};
use tauri_plugin_store::{Store, StoreExt};

use crate::conversations::{Conversation, ConversationBook};
use crate::error::{AppError, AppResult};
use crate::settings::Settings;

const BOOK_KEY: &str = "book";
const SETTINGS_KEY: &str = "settings";

pub fn data_dir(app: &AppHandle) -> PathBuf {
    match std::env::var_os("PORTHOLE_DATA_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => app
            .path()
            .app_data_dir()
            .unwrap_or_else(|_| std::env::temp_dir().join("porthole")),
    }
}

fn open(app: &AppHandle, file: &str) -> AppResult<Arc<Store<Wry>>> {
    let path = data_dir(app).join(file);
    app.store(path).map_err(|e| AppError::Store(e.to_string()))
}

fn save_value<T: serde::Serialize>(store: &Store<Wry>, key: &str, value: &T) -> AppResult<()> {
    let json = serde_json::to_value(value).map_err(|e| AppError::Store(e.to_string()))?;
    store.set(key, json);
    store.save().map_err(|e| AppError::Store(e.to_string()))
}

/// Settings on disk.
pub struct SettingsStore {
    store: Arc<Store<Wry>>,
    current: Mutex<Settings>,
}

impl SettingsStore {
    pub fn open(app: &AppHandle) -> AppResult<Self> {
        let store = open(app, "settings.json")?;
        let current = store
            .get(SETTINGS_KEY)
            .and_then(|v| serde_json::from_value(v).ok())
            .unwrap_or_default();
        Ok(Self {
            store,
            current: Mutex::new(current),
        })
    }

    pub fn get(&self) -> Settings {
        self.current
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub fn update(&self, change: impl FnOnce(&mut Settings)) -> AppResult<()> {
        let mut current = self.current.lock().unwrap_or_else(|e| e.into_inner());
        change(&mut current);
        save_value(&self.store, SETTINGS_KEY, &*current)
    }
}

/// The conversation book on disk.
pub struct ConversationStore {
    store: Arc<Store<Wry>>,
    book: Mutex<ConversationBook>,
}

impl ConversationStore {
    pub fn open(app: &AppHandle) -> AppResult<Self> {
        let store = open(app, "conversations.json")?;
        let book = store
            .get(BOOK_KEY)
            .and_then(|v| serde_json::from_value(v).ok())
            .unwrap_or_default();
        Ok(Self {
            store,
            book: Mutex::new(book),
        })
    }

    /// Reads the book.
    pub fn read<T>(&self, f: impl FnOnce(&ConversationBook) -> T) -> T {
        f(&self.book.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Changes the book and saves it.
    pub fn write<T>(&self, f: impl FnOnce(&mut ConversationBook) -> T) -> AppResult<T> {
        let mut book = self.book.lock().unwrap_or_else(|e| e.into_inner());
        let out = f(&mut book);
        save_value(&self.store, BOOK_KEY, &*book)?;
        Ok(out)
    }

    /// Changes one conversation, saves, and returns its new state.
    pub fn update(&self, id: &str, f: impl FnOnce(&mut Conversation)) -> AppResult<Conversation> {
        self.write(|book| {
            book.get_mut(id).map(|c| {
                f(c);
                c.clone()
            })
        })?
        .ok_or(AppError::UnknownConversation)
    }

    pub fn get(&self, id: &str) -> AppResult<Conversation> {
        self.read(|b| b.get(id).cloned())
            .ok_or(AppError::UnknownConversation)
    }
}
