//! One value kept whole in one file, versioned: `{"version": 1, "<key>": …}`.
//!
//! Version 0 is what tauri-plugin-store wrote before: the same object without `version`
//! (`{"settings": …}`, `{"library": …}`, `{"tasks": …}`, `{"book": …}`), so reading it is
//! the migration; the next save writes version 1.

use std::io;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use super::atomic;
use super::set_aside::{move_aside, Kept, SetAside};
use crate::error::{AppError, AppResult};

pub const VERSION: u64 = 1;

/// Where a document lives and the key its value sits under.
#[derive(Debug, Clone)]
pub struct Document {
    pub path: PathBuf,
    pub key: &'static str,
}

/// What opening a document found.
#[derive(Debug)]
pub struct Opened<T> {
    /// `None` when there was no file (or nothing readable).
    pub value: Option<T>,
    pub set_aside: Option<SetAside>,
}

enum Read<T> {
    Missing,
    /// `None`: the file holds no value yet.
    Found(Option<T>),
    Unreadable,
}

impl Document {
    pub fn new(path: PathBuf, key: &'static str) -> Self {
        Self { path, key }
    }

    /// Reads the document, or its last good copy when it cannot be read; an unreadable
    /// file is moved aside first, so no later save can overwrite it.
    pub fn open<T: DeserializeOwned>(&self) -> AppResult<Opened<T>> {
        let previous = atomic::previous(&self.path);
        match self.read(&self.path)? {
            Read::Found(value) => Ok(opened(value, None)),
            // A crash between the two renames of a save: the last good copy is the newest.
            Read::Missing => match self.read(&previous)? {
                Read::Found(value) => Ok(opened(value, None)),
                Read::Missing => Ok(opened(None, None)),
                Read::Unreadable => {
                    let moved_to = move_aside(&previous).map_err(store_error)?;
                    Ok(opened(
                        None,
                        Some(SetAside {
                            moved_to,
                            kept: Kept::Nothing,
                        }),
                    ))
                }
            },
            Read::Unreadable => {
                let moved_to = move_aside(&self.path).map_err(store_error)?;
                let (value, kept) = match self.read(&previous)? {
                    Read::Found(value) => (value, Kept::LastGoodCopy),
                    _ => (None, Kept::Nothing),
                };
                Ok(opened(value, Some(SetAside { moved_to, kept })))
            }
        }
    }

    /// Saves `value` as the current version.
    pub fn save<T: Serialize>(&self, value: &T) -> AppResult<()> {
        let mut doc = Map::new();
        doc.insert("version".into(), VERSION.into());
        doc.insert(
            self.key.into(),
            serde_json::to_value(value).map_err(store_error)?,
        );
        let mut bytes = serde_json::to_vec(&doc).map_err(store_error)?;
        bytes.push(b'\n');
        atomic::write(&self.path, &bytes).map_err(store_error)
    }

    fn read<T: DeserializeOwned>(&self, path: &Path) -> AppResult<Read<T>> {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Read::Missing),
            // Not a question of content (permissions, a failing disk): stop rather than
            // start empty and overwrite it.
            Err(e) => return Err(store_error(e)),
        };
        Ok(match decode(&bytes, self.key) {
            Some(value) => Read::Found(value),
            None => Read::Unreadable,
        })
    }
}

fn opened<T>(value: Option<T>, set_aside: Option<SetAside>) -> Opened<T> {
    Opened { value, set_aside }
}

/// The value under `key` of a version 0 or 1 document (`Some(None)` when it has none yet);
/// `None` when it is not such a document. Public for the store's fuzz target.
pub fn decode<T: DeserializeOwned>(bytes: &[u8], key: &str) -> Option<Option<T>> {
    let Value::Object(mut doc) = serde_json::from_slice(bytes).ok()? else {
        return None;
    };
    match doc.get("version") {
        None => {}
        Some(v) if v.as_u64() == Some(VERSION) => {}
        // A newer Porthole's file: not ours to rewrite.
        Some(_) => return None,
    }
    // The plugin created a file before anything was set in it: `{}`.
    match doc.remove(key) {
        None | Some(Value::Null) => Some(None),
        Some(value) => serde_json::from_value(value).ok().map(Some),
    }
}

pub fn store_error(e: impl std::fmt::Display) -> AppError {
    AppError::Store(e.to_string())
}
