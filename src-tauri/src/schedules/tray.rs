//! The schedules' lines in the tray menu: what runs next, and Pause all / Resume. The menu
//! itself is the tray's (`src/tray/menu.rs`); it asks here for these lines and hands clicks
//! on them back.

use tauri::{AppHandle, Manager};

use super::tray_lines::TrayLines;
use super::tray_words::TrayWords;
use super::Schedules;

pub fn lines(app: &AppHandle) -> Option<TrayLines> {
    let words = app.try_state::<TrayWords>();
    let none = TrayWords::default();
    app.state::<Schedules>()
        .tray_lines(words.as_deref().unwrap_or(&none))
}

/// "Pause all schedules" or "Resume schedules" was clicked.
pub fn toggle_pause(app: &AppHandle) {
    let schedules = app.state::<Schedules>();
    let paused = schedules.read(|b| b.all_paused);
    if let Err(err) = schedules.set_all_paused(!paused) {
        tracing::warn!(error = %err, "schedules could not be paused or resumed");
    }
}
