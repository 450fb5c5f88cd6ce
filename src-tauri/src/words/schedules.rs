//! Words for schedules: tasks run at a time or every few hours.

use super::Words;
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
pub const AUTOSTART_UNAVAILABLE: Words = Words::new(
    "Couldn't change starting at login",
    "Porthole could not change whether it starts when you log in, which schedules need to run. Try again, or change it in your system's settings.",
    Some(Retry),
);
