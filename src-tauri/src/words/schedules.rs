//! Words for schedules: tasks run at a time or every few hours.

use super::Words;
use crate::conversations::TaskStatus;
use crate::error::UiAction::*;

pub const UNKNOWN_SCHEDULE: Words = Words::new(
    "Schedule not found",
    "This schedule was deleted. The list has been refreshed.",
    None,
);
const UNFIT: &str = "The schedule can't be kept";
pub const BAD_TIME: Words =
    Words::new(UNFIT, "Choose a time of day between 00:00 and 23:59.", None);
pub const NO_DAYS: Words = Words::new(UNFIT, "Choose at least one day of the week.", None);
pub const BAD_INTERVAL: Words = Words::new(
    UNFIT,
    "Choose a number of hours from 1 to 168 (a week).",
    None,
);
pub const NO_TASK: Words = Words::new(UNFIT, "Write the task to run first.", None);
pub const IN_THE_PAST: Words = Words::new(
    UNFIT,
    "That time has already passed. Choose a time to come.",
    None,
);
const SKIPPED: &str = "A scheduled task was skipped";
pub const OTHER_SERVICE: Words = Words::new(
    SKIPPED,
    "Skipped: Porthole is connected to another service than the one this schedule was made on.",
    None,
);
/// The number is the client's hourly message budget (`Limit::Messages`), checked in a test.
pub const HOURLY_LIMIT: Words = Words::new(
    SKIPPED,
    "Skipped: Porthole already sent 60 tasks in the past hour, the most the service takes. The next run is as planned.",
    None,
);

/// A due time passed while Porthole was not running.
pub const MISSED_TITLE: &str = "A scheduled task was missed";
pub fn missed(title: &str) -> String {
    format!("“{title}” did not run: Porthole was not running at the time. Open Schedules to run it now.")
}

/// A run was refused by the service (its words are the failure's).
pub const NOT_SENT_TITLE: &str = "A scheduled task could not start";

/// A scheduled run ended: the notification's title and line.
pub fn ended_title(title: &str) -> String {
    format!("Scheduled task: {title}")
}
pub fn ended(status: TaskStatus, computer: &str) -> String {
    let how = match status {
        TaskStatus::Succeeded => "It is done.",
        TaskStatus::Failed => "It did not finish.",
        TaskStatus::Stopped => "It was stopped.",
        _ => "It ended.",
    };
    format!("{how} On {computer}.")
}

/// The tray's line for what runs next: "Next: Check the weather at 16:30".
pub fn tray_next(title: &str, when: &str) -> String {
    format!("Next: {title} {when}")
}
pub const TRAY_ALL_PAUSED: &str = "Schedules are paused";
pub const TRAY_NONE_NEXT: &str = "No schedule runs next";

/// "at 14:00" today, "tomorrow at 08:00", or "on Tue 31 Mar at 08:00".
pub fn when(days_from_today: i64, time: &str, date: &str) -> String {
    match days_from_today {
        0 => format!("at {time}"),
        1 => format!("tomorrow at {time}"),
        _ => format!("on {date} at {time}"),
    }
}

pub const AUTOSTART_UNAVAILABLE: Words = Words::new(
    "Couldn't change starting at login",
    "Porthole could not change whether it starts when you log in, which schedules need to run. Try again, or change it in your system's settings.",
    Some(Retry),
);
