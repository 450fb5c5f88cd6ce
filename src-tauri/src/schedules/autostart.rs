//! Starting Porthole when the person logs in (tauri-plugin-autostart), so schedules run after
//! a restart. Off until the person turns it on: asked once, after the first schedule, and a
//! setting in the Schedules list.

use tauri::AppHandle;
use tauri_plugin_autostart::ManagerExt;

use super::Schedules;
use crate::error::{AppError, AppResult};

pub fn enabled(app: &AppHandle) -> AppResult<bool> {
    app.autolaunch().is_enabled().map_err(failed)
}

/// Turns starting at login on or off; either answer counts as having been asked.
pub fn set(app: &AppHandle, schedules: &Schedules, on: bool) -> AppResult<()> {
    let launcher = app.autolaunch();
    if on {
        launcher.enable().map_err(failed)?;
    } else if launcher.is_enabled().map_err(failed)? {
        launcher.disable().map_err(failed)?;
    }
    schedules.set_autostart_asked()
}

fn failed(e: tauri_plugin_autostart::Error) -> AppError {
    AppError::Autostart(e.to_string())
}
