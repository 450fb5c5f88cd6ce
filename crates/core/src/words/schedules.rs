//! Words for schedules outside the window: the notifications of missed, refused and ended
//! runs, and the tray's line for what runs next. Why a run was skipped or refused is a code
//! (`errors.json`); these are the rest, from `locales/<language>/scheduleNotes.json`.

use super::catalog::{text, text_with};
use crate::conversations::TaskStatus;

/// A due time passed while Porthole was not running.
pub fn missed_title() -> String {
    text("scheduleNotes.missedTitle")
}
pub fn missed(title: &str) -> String {
    text_with("scheduleNotes.missed", &[("title", title.into())])
}

/// A run held for the computer's task before it could not start within `minutes` of its
/// due time.
pub fn missed_busy(title: &str, computer: &str, minutes: i64) -> String {
    text_with(
        "scheduleNotes.missedBusy",
        &[
            ("title", title.into()),
            ("computer", computer.into()),
            ("minutes", minutes.to_string().into()),
        ],
    )
}

/// The run's computer is asleep and the service says it cannot wake it.
pub fn missed_cannot_wake(title: &str, computer: &str) -> String {
    text_with(
        "scheduleNotes.missedCannotWake",
        &[("title", title.into()), ("computer", computer.into())],
    )
}

/// The run's computer is the free one, which cannot be woken ahead, and it was not ready.
pub fn missed_free_computer(title: &str, computer: &str, minutes: i64) -> String {
    text_with(
        "scheduleNotes.missedFreeComputer",
        &[
            ("title", title.into()),
            ("computer", computer.into()),
            ("minutes", minutes.to_string().into()),
        ],
    )
}

/// The run's computer was asked to wake but was not awake `minutes` after the run was due.
pub fn missed_not_awake(title: &str, computer: &str, minutes: i64) -> String {
    text_with(
        "scheduleNotes.missedNotAwake",
        &[
            ("title", title.into()),
            ("computer", computer.into()),
            ("minutes", minutes.to_string().into()),
        ],
    )
}

/// The digest's headline: "3 scheduled runs while you were away: 2 done, 1 needs you".
pub fn digest_headline(count: usize, summary: &str) -> String {
    text_with(
        "scheduleNotes.digestHeadline",
        &[("count", count.into()), ("summary", summary.into())],
    )
}
pub fn digest_done(count: usize) -> String {
    text_with("scheduleNotes.digestDone", &[("count", count.into())])
}
pub fn digest_needs_you(count: usize) -> String {
    text_with("scheduleNotes.digestNeedsYou", &[("count", count.into())])
}
/// One run in the digest's notification: "Check the weather: Done".
pub fn digest_line(title: &str, words: &str) -> String {
    text_with(
        "scheduleNotes.digestLine",
        &[("title", title.into()), ("words", words.into())],
    )
}
/// How a run of the digest ended.
pub fn digest_ended(status: TaskStatus) -> String {
    match status {
        TaskStatus::Succeeded => text("scheduleNotes.digestDoneOne"),
        TaskStatus::Failed => text("scheduleNotes.digestFailed"),
        TaskStatus::Stopped => text("scheduleNotes.digestStopped"),
        _ => text("scheduleNotes.digestEnded"),
    }
}
pub fn digest_waiting() -> String {
    text("scheduleNotes.digestWaiting")
}
/// A run of the digest that was missed, and why.
pub fn digest_missed(why: crate::schedules::MissedWhy, computer: &str) -> String {
    use crate::schedules::MissedWhy;
    let key = match why {
        MissedWhy::Closed => "scheduleNotes.digestMissedClosed",
        MissedWhy::Busy => "scheduleNotes.digestMissedBusy",
        MissedWhy::CannotWake => "scheduleNotes.digestMissedCannotWake",
        MissedWhy::NotAwake => "scheduleNotes.digestMissedNotAwake",
        MissedWhy::FreeComputer => "scheduleNotes.digestMissedFreeComputer",
    };
    text_with(key, &[("computer", computer.into())])
}
/// A run of the digest that was skipped or refused, with the reason's words.
pub fn digest_not_run(reason: &str) -> String {
    text_with("scheduleNotes.digestNotRun", &[("reason", reason.into())])
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

/// The tray's line for what runs next: "Next: Check the weather at 16:30", `when` in the
/// page's words (`schedules::tray_words`).
pub fn tray_next(title: &str, when: &str) -> String {
    text_with(
        "scheduleNotes.trayNext",
        &[("title", title.into()), ("when", when.into())],
    )
}
/// The line before the page has worded when: "Next: Check the weather".
pub fn tray_next_untimed(title: &str) -> String {
    text_with("scheduleNotes.trayNextUntimed", &[("title", title.into())])
}
pub fn tray_all_paused() -> String {
    text("scheduleNotes.trayAllPaused")
}
pub fn tray_none_next() -> String {
    text("scheduleNotes.trayNoneNext")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::catalog::text_in;
    use crate::words::language::Language;

    #[test]
    fn the_tray_says_what_runs_next_with_or_without_the_page_s_words_for_when() {
        assert_eq!(
            tray_next("Check the weather", "at 14:00"),
            "Next: Check the weather at 14:00"
        );
        assert_eq!(
            tray_next_untimed("Check the weather"),
            "Next: Check the weather"
        );
        assert_eq!(
            text_in(
                Language::De,
                "scheduleNotes.trayNextUntimed",
                &[("title", "Wetter prüfen".into())]
            ),
            "Als Nächstes: Wetter prüfen"
        );
        assert_eq!(
            ended(TaskStatus::Failed, "Design laptop"),
            "It did not finish. On Design laptop."
        );
    }
}
