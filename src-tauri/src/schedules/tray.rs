//! The schedules' lines in the tray menu: what runs next, and Pause all / Resume. The menu
//! itself is the tray's (`src/tray/menu.rs`); it asks here for these lines and hands clicks
//! on them back.

use tauri::{AppHandle, Manager};

use super::tray_words::TrayWords;
use super::Schedules;
use crate::words::schedules as words;

/// The tray menu's entries for schedules; none when there is no schedule.
pub struct TrayLines {
    /// "Next: Check the weather at 14:00" (the time in the page's words, `tray_words.rs`), or
    /// "No schedule runs next".
    pub next: String,
    pub all_paused: bool,
}

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

impl Schedules {
    /// The tray menu's lines for schedules, or none when there is no schedule; the next run's
    /// time in the words the page said for it, or none yet.
    pub fn tray_lines(&self, said: &TrayWords) -> Option<TrayLines> {
        if self.read(|b| b.schedules.is_empty()) {
            return None;
        }
        let all_paused = self.read(|b| b.all_paused);
        let next = match self.next_run() {
            Some((title, at)) => match said.of(self, at) {
                Some(when) => words::tray_next(&title, &when),
                None => words::tray_next_untimed(&title),
            },
            None if all_paused => words::tray_all_paused(),
            None => words::tray_none_next(),
        };
        Some(TrayLines { next, all_paused })
    }
}
