//! Tasks on a schedule: once at a time, daily, on chosen weekdays, or every N hours, each on
//! one computer. A due run is an ordinary task sent through the conversations core into the
//! computer's current conversation (held there behind a task already running).
//!
//! Nothing here knows Tauri: [`Schedules`] takes the connection, the conversations core, a
//! [`Clock`] and a [`ScheduleNotify`]; the window's side is `window.rs` and `commands.rs`.
//! Rules, each tested with a clock the test moves (`tests.rs`):
//! - a due time is run at most once, across restarts (`book.rs` says how);
//! - a due time that passed more than [`GRACE`] ago (Porthole was closed, or the computer
//!   slept) is shown as missed with "Run now" and never run by itself: a task the person
//!   expected at 8:00 could do harm at 15:00, so they choose;
//! - a run the client's hourly message budget cannot pay for is skipped, with a sentence.

pub mod autostart;
pub mod book;
pub mod clock;
pub mod commands;
pub mod runner;
pub mod timing;
pub mod tray;
pub mod window;

#[cfg(test)]
mod tests;

use std::sync::Arc;

use chrono::{DateTime, Utc};
use porthole_client::Limit;
use serde::{Deserialize, Serialize};

use crate::connection::Connection;
use crate::conversations::{Conversations, SendRequest};
use crate::error::{AppError, AppResult, UiError};
use crate::store::{Document, Persisted, SetAside};
pub use book::{LastRun, Outcome, Schedule, ScheduleBook};
pub use clock::{Clock, SystemClock};
pub use timing::Repeat;
use timing::{from_ms, to_ms};

/// How late a run may start and still count as on time.
pub const GRACE: chrono::Duration = chrono::Duration::minutes(10);

/// How news of schedules reaches the window and the tray (or a test).
pub trait ScheduleNotify: Send + Sync + 'static {
    /// The list changed: read it again.
    fn schedules_changed(&self);
    /// Something the person should hear of even with the window closed: a run ended, was
    /// missed, skipped or not sent.
    fn tell(&self, schedule: &Schedule, title: &str, body: &str);
}

/// A new schedule as the page asks for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct NewSchedule {
    pub machine_id: String,
    pub machine_name: String,
    /// The task; for a reusable task, its template with the inputs filled in.
    pub text: String,
    pub reusable_id: Option<String>,
    pub repeat: Repeat,
}

/// A schedule as the list shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ScheduleRow {
    pub schedule: Schedule,
    /// The next due time still to come (Unix ms); none when paused or done.
    pub next_at: Option<f64>,
}

/// The list and its switches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ScheduleList {
    pub rows: Vec<ScheduleRow>,
    pub all_paused: bool,
    pub autostart_asked: bool,
    /// Whether closing the window leaves Porthole running in the tray.
    pub keeps_running: bool,
}

/// The schedules of the app. Cheap to clone: clones share all.
#[derive(Clone)]
pub struct Schedules {
    shared: Arc<Shared>,
}

struct Shared {
    kept: Persisted<ScheduleBook>,
    connection: Connection,
    conversations: Conversations,
    clock: Arc<dyn Clock>,
    notify: Arc<dyn ScheduleNotify>,
    /// Wakes the runner when a schedule changed.
    changed: tokio::sync::Notify,
    /// One look at a time, so two looks never both take the same due time.
    looking: tokio::sync::Mutex<()>,
}

impl Schedules {
    pub fn open_in(
        dir: &std::path::Path,
        connection: Connection,
        conversations: Conversations,
        clock: Arc<dyn Clock>,
        notify: Arc<dyn ScheduleNotify>,
    ) -> AppResult<Self> {
        let kept = Persisted::open(Document::new(dir.join("schedules.json"), "schedules"))?;
        Ok(Self {
            shared: Arc::new(Shared {
                kept,
                connection,
                conversations,
                clock,
                notify,
                changed: tokio::sync::Notify::new(),
                looking: tokio::sync::Mutex::new(()),
            }),
        })
    }

    /// The file that could not be read at start, if any.
    pub fn set_aside(&self) -> Option<&SetAside> {
        self.shared.kept.set_aside()
    }

    fn clock(&self) -> &dyn Clock {
        self.shared.clock.as_ref()
    }

    fn now(&self) -> DateTime<Utc> {
        self.clock().now()
    }

    /// Saves a change, wakes the runner and tells the window.
    fn write<R>(&self, f: impl FnOnce(&mut ScheduleBook) -> R) -> AppResult<R> {
        let out = self.shared.kept.write(f)?;
        self.shared.changed.notify_one();
        self.shared.notify.schedules_changed();
        Ok(out)
    }

    pub fn read<R>(&self, f: impl FnOnce(&ScheduleBook) -> R) -> R {
        self.shared.kept.read(f)
    }

    /// The schedules of the active connection, soonest first, and the switches.
    pub async fn list(&self) -> AppResult<ScheduleList> {
        let scope = self.shared.connection.active().await?.scope;
        Ok(self.list_of(&scope))
    }

    fn list_of(&self, scope: &str) -> ScheduleList {
        let now = self.now();
        self.read(|book| {
            let mut rows: Vec<ScheduleRow> = book
                .schedules
                .iter()
                .filter(|s| s.scope == scope)
                .map(|s| ScheduleRow {
                    next_at: s.next_at(now, self.clock()).filter(|_| !book.all_paused),
                    schedule: s.clone(),
                })
                .collect();
            rows.sort_by(|a, b| {
                let key = |r: &ScheduleRow| r.next_at.unwrap_or(f64::MAX);
                key(a)
                    .total_cmp(&key(b))
                    .then(a.schedule.created_at.total_cmp(&b.schedule.created_at))
            });
            ScheduleList {
                rows,
                all_paused: book.all_paused,
                autostart_asked: book.autostart_asked,
                keeps_running: self.keeps_running_in(book, now),
            }
        })
    }

    /// Whether some schedule will still run: closing the window then leaves Porthole in the
    /// tray; otherwise closing quits as it always did.
    pub fn keeps_running(&self) -> bool {
        let now = self.now();
        self.read(|book| self.keeps_running_in(book, now))
    }

    fn keeps_running_in(&self, book: &ScheduleBook, now: DateTime<Utc>) -> bool {
        !book.all_paused
            && book
                .schedules
                .iter()
                .any(|s| s.next_at(now, self.clock()).is_some())
    }

    /// The next run of any schedule: its title and time (Unix ms), for the tray.
    pub fn next_run(&self) -> Option<(String, f64)> {
        let now = self.now();
        self.read(|book| {
            if book.all_paused {
                return None;
            }
            book.schedules
                .iter()
                .filter_map(|s| s.next_at(now, self.clock()).map(|at| (s.title.clone(), at)))
                .min_by(|a, b| a.1.total_cmp(&b.1))
        })
    }

    /// Makes a schedule on the active connection; its first run is its next due time.
    pub async fn create(&self, new: NewSchedule) -> AppResult<Schedule> {
        let scope = self.shared.connection.active().await?.scope;
        let text = new.text.trim().to_owned();
        if text.is_empty() {
            return Err(AppError::UnfitSchedule(timing::Unfit::NoTask));
        }
        new.repeat.check().map_err(AppError::UnfitSchedule)?;
        let now = self.now();
        if new.repeat.next_after(now, self.clock()).is_none() {
            return Err(AppError::UnfitSchedule(timing::Unfit::InThePast));
        }
        let schedule = Schedule {
            id: format!("sched-{}-{}", now.timestamp_millis(), rand::random::<u32>()),
            scope,
            machine_id: new.machine_id,
            machine_name: new.machine_name,
            title: title_of(&text),
            text,
            reusable_id: new.reusable_id,
            repeat: new.repeat,
            paused: false,
            created_at: to_ms(now),
            settled_until: to_ms(now),
            missed: None,
            last: None,
        };
        self.write(|book| book.schedules.push(schedule.clone()))?;
        Ok(schedule)
    }

    pub fn delete(&self, id: &str) -> AppResult<()> {
        self.write(|book| book.schedules.retain(|s| s.id != id))
    }

    /// Pauses or resumes one schedule. Due times that pass while paused are not missed runs:
    /// resuming settles them.
    pub fn set_paused(&self, id: &str, paused: bool) -> AppResult<()> {
        let now = to_ms(self.now());
        self.write(|book| {
            let schedule = book.get_mut(id).ok_or(AppError::UnknownSchedule)?;
            schedule.paused = paused;
            if !paused {
                schedule.settled_until = schedule.settled_until.max(now);
            }
            Ok(())
        })?
    }

    /// "Pause all schedules" and "Resume" (the tray and the list).
    pub fn set_all_paused(&self, paused: bool) -> AppResult<()> {
        let now = to_ms(self.now());
        self.write(|book| {
            book.all_paused = paused;
            if !paused {
                for schedule in &mut book.schedules {
                    schedule.settled_until = schedule.settled_until.max(now);
                }
            }
        })
    }

    pub fn set_autostart_asked(&self) -> AppResult<()> {
        self.write(|book| book.autostart_asked = true)
    }

    /// Runs a schedule now, by the person's hand (a missed run's "Run now"); the limits
    /// still apply.
    pub async fn run_now(&self, id: &str) -> AppResult<()> {
        let _one = self.shared.looking.lock().await;
        let schedule = self
            .read(|b| b.get(id).cloned())
            .ok_or(AppError::UnknownSchedule)?;
        let now = self.now();
        self.write(|book| {
            if let Some(s) = book.get_mut(id) {
                s.missed = None;
            }
        })?;
        self.launch(&schedule, now).await;
        Ok(())
    }

    /// Looks at the clock once: runs what is due, marks as missed what was due while the app
    /// was not running, and notes the end of runs under way. The runner calls this after
    /// every nap; tests call it after moving their clock.
    pub async fn tick(&self) {
        let _one = self.shared.looking.lock().await;
        let Ok(active) = self.shared.connection.active().await else {
            // Not connected yet: nothing is settled, so the look after connecting decides.
            return;
        };
        let now = self.now();
        let due: Vec<(Schedule, DateTime<Utc>)> = self.read(|book| {
            if book.all_paused {
                return Vec::new();
            }
            book.schedules
                .iter()
                .filter(|s| s.scope == active.scope && !s.paused)
                .filter_map(|s| s.due(now, self.clock()).map(|at| (s.clone(), at)))
                .collect()
        });
        for (schedule, at) in due {
            // Settled before anything is sent: whatever happens next, never twice.
            let late = now - at > GRACE;
            let settled = self.write(|book| {
                let Some(s) = book.get_mut(&schedule.id) else {
                    return false;
                };
                s.settled_until = to_ms(at);
                if late {
                    s.missed = Some(to_ms(at));
                }
                true
            });
            match settled {
                Ok(true) if late => self.shared.notify.tell(
                    &schedule,
                    "A scheduled task was missed",
                    &format!(
                        "“{}” did not run: Porthole was not running at the time. Open Schedules to run it now.",
                        schedule.title
                    ),
                ),
                Ok(true) => self.launch(&schedule, at).await,
                Ok(false) => {}
                Err(err) => tracing::warn!(error = %err, "a due schedule could not be saved; not run"),
            }
        }
        self.note_ends();
    }

    /// Sends one run of `schedule` for due time `due_at`, unless the limits say no.
    async fn launch(&self, schedule: &Schedule, due_at: DateTime<Utc>) {
        let outcome = match self.send(schedule).await {
            Ok(outcome) => outcome,
            Err(err) => Outcome::NotSent {
                reason: UiError::from(&err).detail,
            },
        };
        let (title, body) = match &outcome {
            Outcome::Skipped { reason } => ("A scheduled task was skipped", reason.clone()),
            Outcome::NotSent { reason } => ("A scheduled task could not start", reason.clone()),
            _ => ("", String::new()),
        };
        if !title.is_empty() {
            self.shared.notify.tell(schedule, title, &body);
        }
        self.record(&schedule.id, due_at, outcome);
    }

    async fn send(&self, schedule: &Schedule) -> AppResult<Outcome> {
        let active = self.shared.connection.active().await?;
        if active.scope != schedule.scope {
            return Ok(Outcome::Skipped {
                reason: "Skipped: Porthole is connected to another service than the one this schedule was made on.".into(),
            });
        }
        // The client's own hourly budget is the service's limit; a run it cannot pay for is
        // skipped rather than left to wait or fail.
        if active.client.budget_remaining(Limit::Messages) == 0 {
            return Ok(Outcome::Skipped {
                reason: format!(
                    "Skipped: Porthole already sent {} tasks in the past hour, the most the service takes. The next run is as planned.",
                    Limit::Messages.per_hour()
                ),
            });
        }
        let conversations = &self.shared.conversations;
        let conversation = conversations.current(&schedule.machine_id).await?;
        let held = conversation.status.is_active();
        conversations
            .run_next(SendRequest {
                conversation_id: conversation.id.clone(),
                text: schedule.text.clone(),
                ..SendRequest::default()
            })
            .await?;
        Ok(Outcome::Started {
            conversation_id: conversation.id,
            held,
        })
    }

    fn record(&self, id: &str, due_at: DateTime<Utc>, outcome: Outcome) {
        let at = to_ms(self.now());
        let saved = self.write(|book| {
            if let Some(s) = book.get_mut(id) {
                s.last = Some(LastRun {
                    due_at: to_ms(due_at),
                    at,
                    outcome,
                });
            }
        });
        if let Err(err) = saved {
            tracing::warn!(error = %err, "a schedule's last run could not be saved");
        }
    }

    /// Runs under way whose task ended since the last look: the schedule says how, and the
    /// person hears of it.
    fn note_ends(&self) {
        let started: Vec<(Schedule, String, bool)> = self.read(|book| {
            book.schedules
                .iter()
                .filter_map(|s| match &s.last {
                    Some(LastRun {
                        outcome:
                            Outcome::Started {
                                conversation_id,
                                held,
                            },
                        ..
                    }) => Some((s.clone(), conversation_id.clone(), *held)),
                    _ => None,
                })
                .collect()
        });
        let store = self.shared.conversations.store();
        for (schedule, conversation_id, held) in started {
            let Ok(conversation) = store.get(&conversation_id) else {
                continue;
            };
            let still_held = conversation
                .waiting
                .iter()
                .any(|w| w.request.text == schedule.text);
            if held && still_held {
                continue;
            }
            if held {
                // It left the line, so it started: from now on its conversation's end is its own.
                self.set_outcome(
                    &schedule.id,
                    Outcome::Started {
                        conversation_id,
                        held: false,
                    },
                );
                continue;
            }
            if conversation.status.is_active() {
                continue;
            }
            let status = conversation.status;
            self.set_outcome(
                &schedule.id,
                Outcome::Ended {
                    conversation_id,
                    status,
                },
            );
            let body = match status {
                crate::conversations::TaskStatus::Succeeded => "It is done.",
                crate::conversations::TaskStatus::Failed => "It did not finish.",
                crate::conversations::TaskStatus::Stopped => "It was stopped.",
                _ => "It ended.",
            };
            self.shared.notify.tell(
                &schedule,
                &format!("Scheduled task: {}", schedule.title),
                &format!("{body} On {}.", schedule.machine_name),
            );
        }
    }

    fn set_outcome(&self, id: &str, outcome: Outcome) {
        let saved = self.write(|book| {
            if let Some(last) = book.get_mut(id).and_then(|s| s.last.as_mut()) {
                last.outcome = outcome;
            }
        });
        if let Err(err) = saved {
            tracing::warn!(error = %err, "a schedule's last run could not be saved");
        }
    }

    /// How long until something may be due: the runner sleeps this, or its nap if shorter.
    pub fn until_next(&self) -> std::time::Duration {
        let now = self.now();
        let nap = self.clock().nap();
        let next = self.read(|book| {
            book.schedules
                .iter()
                .filter_map(|s| s.next_at(now, self.clock()))
                .min_by(f64::total_cmp)
        });
        match next {
            Some(at) => (from_ms(at) - now).to_std().unwrap_or_default().min(nap),
            None => nap,
        }
    }

    /// Resolves when a schedule changed (the runner's wake-up).
    pub async fn changed(&self) {
        self.shared.changed.notified().await
    }
}

/// A schedule's name: the task's first line, cut to a readable length.
fn title_of(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default().trim();
    if line.chars().count() <= 60 {
        return line.to_owned();
    }
    let cut: String = line.chars().take(57).collect();
    format!("{}…", cut.trim_end())
}
