//! Words for schedules outside the window: the notifications of missed, refused and ended
//! runs, and the tray's line for what runs next. Why a run was skipped or refused is a code
//! (`errors.json`); these are the rest, from `locales/<language>/scheduleNotes.json`.

use chrono::Weekday;

use super::catalog::{text, text_with};
use crate::conversations::TaskStatus;

/// A due time passed while Porthole was not running.
pub fn missed_title() -> String {
    text("scheduleNotes.missedTitle")
}
pub fn missed(title: &str) -> String {
    text_with("scheduleNotes.missed", &[("title", title.into())])
}

/// A run was refused by the service (its words are the failure's).
pub fn not_sent_title() -> String {
    text("scheduleNotes.notSentTitle")
}

/// A scheduled run ended: the notification's title and line.
pub fn ended_title(title: &str) -> String {
    text_with("scheduleNotes.endedTitle", &[("title", title.into())])
}
pub fn ended(status: TaskStatus, computer: &str) -> String {
    let values = [("computer", computer.into())];
    match status {
        TaskStatus::Succeeded => text_with("scheduleNotes.endedDone", &values),
        TaskStatus::Failed => text_with("scheduleNotes.endedFailed", &values),
        TaskStatus::Stopped => text_with("scheduleNotes.endedStopped", &values),
        _ => text_with("scheduleNotes.ended", &values),
    }
}

/// The tray's line for what runs next: "Next: Check the weather at 16:30".
pub fn tray_next(title: &str, when: &str) -> String {
    text_with(
        "scheduleNotes.trayNext",
        &[("title", title.into()), ("when", when.into())],
    )
}
pub fn tray_all_paused() -> String {
    text("scheduleNotes.trayAllPaused")
}
pub fn tray_none_next() -> String {
    text("scheduleNotes.trayNoneNext")
}

/// "at 14:00" today, "tomorrow at 08:00", or "on Tue 31 Mar at 08:00".
pub fn when(days_from_today: i64, time: &str, date: &str) -> String {
    let values = [("time", time.into()), ("date", date.into())];
    match days_from_today {
        0 => text_with("scheduleNotes.atTime", &values),
        1 => text_with("scheduleNotes.tomorrowAt", &values),
        _ => text_with("scheduleNotes.onDateAt", &values),
    }
}

/// A day soon, short: "Tue 31 Mar" / "Di., 31. März".
pub fn short_date(weekday: Weekday, day: u32, month: u32) -> String {
    let weekday = match weekday {
        Weekday::Mon => text("scheduleNotes.mon"),
        Weekday::Tue => text("scheduleNotes.tue"),
        Weekday::Wed => text("scheduleNotes.wed"),
        Weekday::Thu => text("scheduleNotes.thu"),
        Weekday::Fri => text("scheduleNotes.fri"),
        Weekday::Sat => text("scheduleNotes.sat"),
        Weekday::Sun => text("scheduleNotes.sun"),
    };
    let month = match month {
        1 => text("scheduleNotes.jan"),
        2 => text("scheduleNotes.feb"),
        3 => text("scheduleNotes.mar"),
        4 => text("scheduleNotes.apr"),
        5 => text("scheduleNotes.may"),
        6 => text("scheduleNotes.jun"),
        7 => text("scheduleNotes.jul"),
        8 => text("scheduleNotes.aug"),
        9 => text("scheduleNotes.sep"),
        10 => text("scheduleNotes.oct"),
        11 => text("scheduleNotes.nov"),
        _ => text("scheduleNotes.dec"),
    };
    text_with(
        "scheduleNotes.shortDate",
        &[
            ("weekday", weekday.into()),
            ("day", day.to_string().into()),
            ("month", month.into()),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tray_says_when_a_schedule_runs_next_as_before() {
        let date = short_date(Weekday::Tue, 31, 3);
        assert_eq!(date, "Tue 31 Mar");
        assert_eq!(when(2, "08:00", &date), "on Tue 31 Mar at 08:00");
        assert_eq!(when(1, "08:00", &date), "tomorrow at 08:00");
        assert_eq!(
            tray_next("Check the weather", &when(0, "14:00", &date)),
            "Next: Check the weather at 14:00"
        );
        assert_eq!(
            ended(TaskStatus::Failed, "Design laptop"),
            "It did not finish. On Design laptop."
        );
    }
}
