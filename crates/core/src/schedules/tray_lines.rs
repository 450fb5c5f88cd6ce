//! The schedules' lines in the tray menu, as words: what runs next, and whether all are paused.
//! The menu itself is the shell's.

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
