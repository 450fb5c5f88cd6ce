//! The data folder, from the window's side: where it is (the platform's app data folder,
//! which only Tauri knows) and what in it could not be read at start. The stores themselves
//! are the core's (`porthole_core::store`, `porthole_core::persist`).

pub mod commands;
pub mod show;

use std::path::PathBuf;

use tauri::{AppHandle, Manager};

use crate::error::AppResult;

/// The app's data folder. Without one (no home folder) the app says so rather than keeping
/// the person's history in the shared temp folder (security review N9).
pub fn data_dir(app: &AppHandle) -> AppResult<PathBuf> {
    match std::env::var_os("PORTHOLE_DATA_DIR") {
        Some(dir) if !dir.is_empty() => Ok(PathBuf::from(dir)),
        _ => app
            .path()
            .app_data_dir()
            .map_err(crate::store::document::store_error),
    }
}
