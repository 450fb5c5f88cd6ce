//! A value the app keeps in memory and saves whole after each change: settings, the library
//! of reusable tasks, usage figures. Small enough that a whole rewrite is the simple choice.

use std::sync::{Mutex, MutexGuard};

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::document::Document;
use super::set_aside::SetAside;
use crate::error::AppResult;

pub struct Persisted<T> {
    document: Document,
    value: Mutex<T>,
    set_aside: Option<SetAside>,
}

impl<T: Serialize + DeserializeOwned + Default> Persisted<T> {
    pub fn open(document: Document) -> AppResult<Self> {
        let opened = document.open::<T>()?;
        Ok(Self {
            document,
            value: Mutex::new(opened.value.unwrap_or_default()),
            set_aside: opened.set_aside,
        })
    }

    /// What could not be read when the file was opened.
    pub fn set_aside(&self) -> Option<&SetAside> {
        self.set_aside.as_ref()
    }

    pub fn read<R>(&self, f: impl FnOnce(&T) -> R) -> R {
        f(&self.lock())
    }

    /// Changes the value and saves it; the change stays in memory even when the disk refuses.
    pub fn write<R>(&self, f: impl FnOnce(&mut T) -> R) -> AppResult<R> {
        let mut value = self.lock();
        let out = f(&mut value);
        self.document.save(&*value)?;
        Ok(out)
    }

    /// Like [`Self::write`], saving only when `f` says something changed.
    pub fn write_if(&self, f: impl FnOnce(&mut T) -> bool) -> AppResult<bool> {
        let mut value = self.lock();
        let changed = f(&mut value);
        if changed {
            self.document.save(&*value)?;
        }
        Ok(changed)
    }

    fn lock(&self) -> MutexGuard<'_, T> {
        self.value.lock().unwrap_or_else(|e| e.into_inner())
    }
}
