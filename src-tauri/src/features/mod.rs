//! Issue 6's parts of the app: step-by-step replay, reusable tasks (learn), checking results
//! (judge), the control console, and the composer's Advanced settings.

pub mod advanced;
pub mod commands;
pub mod console;
pub mod judge;
pub mod learn;
pub mod library;
pub mod placeholders;
pub mod replay;

use tauri::{AppHandle, Manager};

/// Puts this part's state under the app's management (called from `setup`).
pub fn manage(app: &AppHandle) -> Result<(), crate::error::AppError> {
    app.manage(console::Consoles::default());
    app.manage(library::Library::open(app)?);
    Ok(())
}
