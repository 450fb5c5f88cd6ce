//! Tasks on a schedule: once at a time, daily, on chosen weekdays, or every N hours, each on
//! one computer. A due run is an ordinary task sent through the conversations core into the
//! computer's current conversation.
//!
//! Nothing here knows Tauri: [`Schedules`] takes the connection, the conversations core, a
//! [`Clock`] and a [`ScheduleNotify`]; the window's side is `window.rs` and `commands.rs`.
//! Rules, each tested with a clock the test moves (`tests.rs`):
//! - a due time is run at most once, across restarts (`book.rs` says how);
//! - a due time that passed more than [`GRACE`] ago (Porthole was closed, or the computer
//!   slept) is shown as missed with "Run now" and never run by itself: a task the person
//!   expected at 8:00 could do harm at 15:00, so they choose;
//! - a run the client's hourly message budget cannot pay for is skipped, with a sentence;
//! - a run due while the computer's task before it still runs is held by the schedule, one at
//!   most (a later due time takes its place); it starts at a look that finds the computer
//!   free, checked again as a due run is, and one held more than [`GRACE`] becomes a missed
//!   run instead (`running.rs`);
//! - a run's computer is woken ahead of its due time, by the service's figures for a start or
//!   what it took before; a run whose computer the service cannot wake, or that is not awake
//!   within [`GRACE`], is a missed run with its reason (`waking.rs`);
//! - runs that end while the person is away are told in one digest, and shown on a card when
//!   they come back (`digest.rs`).

pub mod book;
pub mod clock;
pub mod digest;
pub mod runner;
mod running;
pub mod timing;
pub mod tray_lines;
pub mod tray_words;
pub mod waking;

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
pub use book::{LastRun, MissedWhy, Outcome, Schedule, ScheduleBook};
pub use clock::{Clock, SystemClock};
pub use digest::{Digest, DigestLine};
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
    /// The runs that ended while the person was away, in one notification (`digest.rs`).
    fn tell_digest(&self, title: &str, body: &str);
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
    /// The most each run may cost, in dollars; the dialog starts it at the person's "every
    /// task" cap. A run goes out unattended, so this is its only spending limit.
    #[serde(default)]
    pub cap_usd: Option<f64>,
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
    /// The runs that ended while the person was away, shown on a card until dismissed.
    pub digest: Option<digest::Digest>,
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
    /// Whether the person is away, and the runs kept for them (`digest.rs`).
    away: digest::AwayState,
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
                away: digest::AwayState::open_in(dir),
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
                digest: self.digest(),
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
                .any(|s| s.next_at(now, self.clock()).is_some() || s.held.is_some())
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
        let now = self.now();
        new.repeat.check(now).map_err(AppError::UnfitSchedule)?;
        let cap_usd = crate::conversations::spending_cap::checked(new.cap_usd)?;
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
            cap_usd,
            paused: false,
            created_at: to_ms(now),
            settled_until: to_ms(now),
            missed: None,
            missed_why: MissedWhy::default(),
            held: None,
            held_for_wake: false,
            woken_for: None,
            last: None,
        };
        self.write(|book| book.schedules.push(schedule.clone()))?;
        Ok(schedule)
    }

    /// Gives a schedule another cap (`None`: none), from the next run on.
    pub fn set_cap(&self, id: &str, cap_usd: Option<f64>) -> AppResult<()> {
        let cap_usd = crate::conversations::spending_cap::checked(cap_usd)?;
        self.write(|book| {
            let schedule = book.get_mut(id).ok_or(AppError::UnknownSchedule)?;
            schedule.cap_usd = cap_usd;
            Ok(())
        })?
    }

    pub fn delete(&self, id: &str) -> AppResult<()> {
        self.write(|book| book.schedules.retain(|s| s.id != id))
    }

    /// Pauses or resumes one schedule. Due times that pass while paused are not missed runs:
    /// resuming settles them. Pausing drops a run held for the computer: paused means none
    /// starts.
    pub fn set_paused(&self, id: &str, paused: bool) -> AppResult<()> {
        let now = to_ms(self.now());
        self.write(|book| {
            let schedule = book.get_mut(id).ok_or(AppError::UnknownSchedule)?;
            schedule.paused = paused;
            if paused {
                schedule.held = None;
            } else {
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
            for schedule in &mut book.schedules {
                if paused {
                    schedule.held = None;
                } else {
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

    /// How long until something may be due, or a held run be too late to start: the runner
    /// sleeps this, or its nap if shorter (a held run starts at a look after its computer is
    /// free, so within a nap).
    pub fn until_next(&self) -> std::time::Duration {
        let now = self.now();
        let nap = self.clock().nap();
        let next = self.read(|book| {
            book.schedules
                .iter()
                .filter_map(|s| {
                    // In plain milliseconds: a damaged file's numbers cannot panic here.
                    let late = s
                        .held
                        .map(|due| due + GRACE.num_milliseconds() as f64 + 1.0);
                    let next = s.next_at(now, self.clock());
                    next.into_iter().chain(late).min_by(f64::total_cmp)
                })
                .min_by(f64::total_cmp)
        });
        match next {
            // In milliseconds: a time past chrono's range (a damaged file) waits a nap, not
            // none, so the runner never spins on it.
            Some(at) => {
                let ms = (at - to_ms(now)).clamp(0.0, nap.as_millis() as f64);
                std::time::Duration::from_millis(ms as u64)
            }
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
