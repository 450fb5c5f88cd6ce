//! The tray's "Next: <title> at 16:30" line, from the page's side: when the next run is, and
//! the page's words for it (`porthole_core::schedules::tray_words` says why the page words it).

use tauri::{AppHandle, State};

use super::tray_words::{TrayTime, TrayWords};
use super::Schedules;
use crate::words::language::Language;

/// When the run the tray names runs (Unix ms), for the page to word; none when none runs.
#[tauri::command]
#[specta::specta]
pub fn tray_next_at(schedules: State<'_, Schedules>) -> Option<f64> {
    schedules.next_run().map(|(_, at)| at)
}

/// The page's words for when each schedule runs next; the tray's line follows.
#[tauri::command]
#[specta::specta]
pub fn set_tray_times(
    app: AppHandle,
    schedules: State<'_, Schedules>,
    words: State<'_, TrayWords>,
    language: Language,
    now: f64,
    times: Vec<TrayTime>,
) {
    if words.keep(&schedules, language, now, times) {
        // Menus are built on the main thread.
        let handle = app.clone();
        let _ = app.run_on_main_thread(move || crate::tray::refresh(&handle));
    }
}
