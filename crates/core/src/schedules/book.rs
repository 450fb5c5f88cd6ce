//! The schedules as data, kept whole in `schedules.json` (a versioned document, written
//! atomically): each schedule, what its last run did, and up to which due time it is settled.
//!
//! Invariant: a due time at or before a schedule's `settled_until` is never run again. It is
//! saved before the task is sent, so a crash or restart mid-send can lose a run but never
//! send it twice.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::clock::Clock;
use super::timing::{from_ms, to_ms, Repeat};
use crate::conversations::TaskStatus;
use crate::error::{Problem, UiCode};
use crate::words::language::Language;

/// One schedule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Schedule {
    pub id: String,
    /// Which service it runs on (`demo` or the account's address).
    pub scope: String,
    pub machine_id: String,
    /// The computer's name when the schedule was made, for the list and the tray.
    pub machine_name: String,
    pub title: String,
    /// The task as it is sent, a reusable task's inputs already filled in.
    pub text: String,
    /// The reusable task it was made from, if any.
    pub reusable_id: Option<String>,
    pub repeat: Repeat,
    /// The most one run may cost, in dollars; each run is sent with it and stopped at it like
    /// any capped task. `None` (also every schedule saved before caps) runs without a limit,
    /// which the list says.
    #[serde(default)]
    pub cap_usd: Option<f64>,
    pub paused: bool,
    pub created_at: f64,
    /// Every due time up to this one (Unix ms) ran, was skipped or was missed.
    pub settled_until: f64,
    /// A due time that was not run in time (Porthole was not running, or the computer was
    /// busy past [`super::GRACE`]): shown with "Run now", never run by itself.
    pub missed: Option<f64>,
    /// Why `missed` was missed, said beside "Run now".
    #[serde(default)]
    pub missed_why: MissedWhy,
    /// The due time of the one run waiting for the computer's task before it to end. At most
    /// one per schedule (a later due time takes its place), kept here rather than in the
    /// conversation's line so that, when it can start, it is checked again: within
    /// [`super::GRACE`] of its due time, the hourly budget, the schedule's cap as it is now
    /// (security review N2).
    #[serde(default)]
    pub held: Option<f64>,
    /// Whether `held` waits for the computer to wake (rather than for its task before).
    #[serde(default)]
    pub held_for_wake: bool,
    /// The due time its computer was last looked at (and woken if asleep) ahead of, so it is
    /// woken once per run (`waking.rs`).
    #[serde(default)]
    pub woken_for: Option<f64>,
    pub last: Option<LastRun>,
}

/// Why a run was missed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum MissedWhy {
    /// Porthole was not running when it was due (also every run missed before held runs
    /// could be).
    #[default]
    Closed,
    /// It waited for the computer's task before it, still running more than
    /// [`super::GRACE`] after the run was due.
    Busy,
    /// Its computer was asleep and the service said it cannot wake it.
    CannotWake,
    /// Its computer was asked to wake but was not awake [`super::GRACE`] after the run was
    /// due.
    NotAwake,
    /// Its computer is the free plan's, which the service gives no way to wake ahead (its
    /// row says `canWake: false`; only a task's message starts it), and it was not ready.
    FreeComputer,
}

/// What the last run of a schedule did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct LastRun {
    /// The due time it was for (Unix ms).
    pub due_at: f64,
    /// When it happened (Unix ms).
    pub at: f64,
    pub outcome: Outcome,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Outcome {
    /// Sent as a task in the computer's current conversation; `held` while it waits there
    /// behind a task already running.
    Started { conversation_id: String, held: bool },
    /// The task ended so.
    Ended {
        conversation_id: String,
        status: TaskStatus,
    },
    /// Not sent, on purpose: why, as a code (worded when shown).
    Skipped {
        #[serde(deserialize_with = "stored_reason")]
        #[specta(type = Problem)]
        reason: Problem,
    },
    /// The service did not take it: why, as a code (worded when shown).
    NotSent {
        #[serde(deserialize_with = "stored_reason")]
        #[specta(type = Problem)]
        reason: Problem,
    },
}

/// Reads a run's reason as saved now (a code) or as the first versions saved it (the
/// sentence the person read, which is the detail of one code's words).
fn stored_reason<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Problem, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Stored {
        Now(Problem),
        Sentence(String),
    }
    Ok(match Stored::deserialize(d)? {
        Stored::Now(problem) => problem,
        Stored::Sentence(text) => Problem::new(
            UiCode::ALL
                .iter()
                .copied()
                // Those versions spoke English only.
                .find(|&code| crate::words::of_in(Language::En, code).detail == text)
                .unwrap_or(UiCode::Unexpected),
        ),
    })
}

impl Schedule {
    /// Due times after the settled one, up to `now`: the latest of them, if any. Several
    /// passed while the app was closed count as one.
    pub fn due(&self, now: DateTime<Utc>, clock: &dyn Clock) -> Option<DateTime<Utc>> {
        let mut latest = None;
        let mut after = from_ms(self.settled_until);
        while let Some(next) = self.repeat.next_after(after, clock) {
            if next > now {
                break;
            }
            latest = Some(next);
            after = next;
        }
        latest
    }

    /// The next due time still to come.
    pub fn next_at(&self, now: DateTime<Utc>, clock: &dyn Clock) -> Option<f64> {
        if self.paused {
            return None;
        }
        let after = from_ms(self.settled_until).max(now);
        self.repeat.next_after(after, clock).map(to_ms)
    }
}

/// Everything schedules keep.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScheduleBook {
    pub schedules: Vec<Schedule>,
    /// "Pause all schedules", from the tray or the list.
    #[serde(default)]
    pub all_paused: bool,
    /// Whether the person was asked once about starting Porthole at login.
    #[serde(default)]
    pub autostart_asked: bool,
    /// Computers asked to wake and not yet seen awake: since when (Unix ms), by machine id.
    #[serde(default)]
    pub wake_asked: BTreeMap<String, f64>,
    /// How long each computer took to wake the last time it was asked (ms), for its next
    /// lead.
    #[serde(default)]
    pub wake_took: BTreeMap<String, f64>,
}

impl ScheduleBook {
    pub fn get(&self, id: &str) -> Option<&Schedule> {
        self.schedules.iter().find(|s| s.id == id)
    }

    pub fn get_mut(&mut self, id: &str) -> Option<&mut Schedule> {
        self.schedules.iter_mut().find(|s| s.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(kind: &str, reason: &str) -> Outcome {
        serde_json::from_value(serde_json::json!({ "kind": kind, "reason": reason })).unwrap()
    }

    /// The first versions saved a run's reason as the sentence shown; it reads back as the code
    /// whose words those were, so the person reads the same, and is saved back as the code.
    #[test]
    fn reasons_saved_as_sentences_read_back_as_their_codes() {
        let limit = &crate::words::of_in(Language::En, UiCode::ScheduleHourlyLimit).detail;
        let network = &crate::words::of_in(Language::En, UiCode::Network).detail;
        assert_eq!(
            read("skipped", limit),
            Outcome::Skipped {
                reason: Problem::new(UiCode::ScheduleHourlyLimit)
            }
        );
        assert_eq!(
            read("notSent", network),
            Outcome::NotSent {
                reason: Problem::new(UiCode::Network)
            }
        );
        // Words no code has any more: said as an unexpected problem, not a file set aside.
        assert_eq!(
            read("notSent", "Something older versions said."),
            Outcome::NotSent {
                reason: Problem::new(UiCode::Unexpected)
            }
        );
        let saved = serde_json::to_string(&read("skipped", limit)).unwrap();
        assert!(!saved.contains("Skipped:"), "no sentence saved: {saved}");
        assert!(saved.contains("schedule_hourly_limit"), "{saved}");
        let again: Outcome = serde_json::from_str(&saved).unwrap();
        assert_eq!(again, read("skipped", limit));
    }
}
