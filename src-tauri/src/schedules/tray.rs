//! The schedules' lines in the tray menu: what runs next, and Pause all / Resume. The menu
//! itself is the tray's (`src/tray/menu.rs`); it asks here for these lines and hands clicks
//! on them back.

use chrono::{DateTime, Datelike, Utc};
use tauri::{AppHandle, Manager};

use super::timing::from_ms;
use super::Schedules;
use crate::words::schedules as words;

/// The tray menu's entries for schedules; none when there is no schedule.
pub struct TrayLines {
    /// "Next: Check the weather at 14:00", or "No schedule runs next".
    pub next: String,
    pub all_paused: bool,
}

pub fn lines(app: &AppHandle) -> Option<TrayLines> {
    app.state::<Schedules>().tray_lines()
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
    /// The tray menu's lines for schedules, or none when there is no schedule.
    pub fn tray_lines(&self) -> Option<TrayLines> {
        if self.read(|b| b.schedules.is_empty()) {
            return None;
        }
        let all_paused = self.read(|b| b.all_paused);
        let next = match self.next_run() {
            Some((title, at)) => words::tray_next(&title, &self.local_words(from_ms(at))),
            None if all_paused => words::tray_all_paused(),
            None => words::tray_none_next(),
        };
        Some(TrayLines { next, all_paused })
    }

    /// "at 14:00" today, "tomorrow at 08:00", or "on Tue 31 Mar at 08:00", in local time.
    pub fn local_words(&self, at: DateTime<Utc>) -> String {
        let clock = self.clock();
        let local = clock.to_local(at);
        let today = clock.to_local(clock.now()).date();
        let time = local.format("%H:%M").to_string();
        let date = words::short_date(local.weekday(), local.day(), local.month());
        words::when((local.date() - today).num_days(), &time, &date)
    }
}
