//! The tray menu's lines, from the catalog (`locales/<language>/tray.json`).

use super::catalog::{text, text_with};

pub fn open() -> String {
    text("tray.open")
}

pub fn quit() -> String {
    text("tray.quit")
}

pub fn pause_all_schedules() -> String {
    text("tray.pauseAllSchedules")
}

pub fn resume_schedules() -> String {
    text("tray.resumeSchedules")
}

/// "nothing needs you", "1 thing needs you", "3 things need you" (the tray's line and its
/// tooltip).
pub fn needs_you(count: u32) -> String {
    if count == 0 {
        text("tray.nothingNeedsYou")
    } else {
        text_with("tray.needsYou", &[("count", count.into())])
    }
}
