//! Schedules with a clock the test moves: the due times themselves (a named zone with summer
//! time), then runs against the simulator over real sockets through the conversations core.
//! A test sets its clock and calls `tick`, as the runner does after each nap; it never waits
//! for real time to pass, only (with a generous limit) for a task the simulator runs.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, LocalResult, NaiveDateTime, TimeZone, Utc};
use chrono_tz::Europe::Paris;
use chrono_tz::Tz;
use porthole_client::approvals::ApprovalRequest;
use porthole_client::messages::MessageRequest;
use porthole_client::{Client, ClientConfig, Credential};
use porthole_sim::{Config, RunningSim, Sim};
use tokio::sync::watch;

use super::timing::TimeOfDay;
use super::*;
use crate::conversations::usage::UsageStore;
use crate::conversations::{Conversation, Notify, TaskStatus, ThreadItem};
use crate::persist::ConversationStore;

const SCALE: f64 = 0.01;
const SCOPE: &str = "demo";

/// A clock that shows what the test sets, in Paris (summer time from the last Sunday of March
/// to the last Sunday of October).
struct TestClock {
    now: Mutex<DateTime<Utc>>,
    zone: Tz,
}

impl TestClock {
    fn at(local: &str) -> Arc<Self> {
        let clock = Arc::new(Self {
            now: Mutex::new(DateTime::default()),
            zone: Paris,
        });
        clock.set(local);
        clock
    }

    /// Sets the clock to a Paris wall time, `2026-03-28 07:00`.
    fn set(&self, local: &str) {
        let naive = NaiveDateTime::parse_from_str(local, "%Y-%m-%d %H:%M").unwrap();
        *self.now.lock().unwrap() = self
            .zone
            .from_local_datetime(&naive)
            .earliest()
            .unwrap()
            .with_timezone(&Utc);
    }

    fn advance(&self, by: chrono::Duration) {
        *self.now.lock().unwrap() += by;
    }
}

impl Clock for TestClock {
    fn now(&self) -> DateTime<Utc> {
        *self.now.lock().unwrap()
    }
    fn to_local(&self, at: DateTime<Utc>) -> NaiveDateTime {
        at.with_timezone(&self.zone).naive_local()
    }
    fn instants_at(&self, local: NaiveDateTime) -> LocalResult<DateTime<Utc>> {
        self.zone
            .from_local_datetime(&local)
            .map(|at| at.with_timezone(&Utc))
    }
}

/// A Paris wall time as the UTC instant, for expectations.
fn paris(local: &str) -> DateTime<Utc> {
    TestClock::at(local).now()
}

fn local(clock: &TestClock, at: DateTime<Utc>) -> String {
    clock.to_local(at).format("%a %Y-%m-%d %H:%M").to_string()
}

fn at(hour: u8, minute: u8) -> TimeOfDay {
    TimeOfDay { hour, minute }
}

/// The next `n` due times after the clock's now, as Paris wall times.
fn sequence(repeat: &Repeat, clock: &TestClock, n: usize) -> Vec<String> {
    let mut after = clock.now();
    let mut out = Vec::new();
    for _ in 0..n {
        let Some(next) = repeat.next_after(after, clock) else {
            break;
        };
        out.push(local(clock, next));
        after = next;
    }
    out
}

#[test]
fn a_daily_schedule_keeps_its_wall_time_across_both_changes_of_summer_time() {
    // Summer time starts in Paris on Sunday 29 March 2026 (02:00 → 03:00).
    let clock = TestClock::at("2026-03-27 12:00");
    let daily = Repeat::Daily { time: at(8, 0) };
    assert_eq!(
        sequence(&daily, &clock, 3),
        vec![
            "Sat 2026-03-28 08:00",
            "Sun 2026-03-29 08:00",
            "Mon 2026-03-30 08:00"
        ]
    );
    // The same wall time is an hour less of UTC after the change.
    let before = daily
        .next_after(paris("2026-03-28 00:00"), &*clock)
        .unwrap();
    let after = daily
        .next_after(paris("2026-03-29 00:00"), &*clock)
        .unwrap();
    assert_eq!(before.format("%H:%M").to_string(), "07:00");
    assert_eq!(after.format("%H:%M").to_string(), "06:00");
    assert_eq!((after - before).num_hours(), 23);

    // 02:30 does not exist that night: it runs at the first minute after the gap, once.
    let night = Repeat::Daily { time: at(2, 30) };
    assert_eq!(
        sequence(&night, &clock, 3),
        vec![
            "Sat 2026-03-28 02:30",
            "Sun 2026-03-29 03:30",
            "Mon 2026-03-30 02:30"
        ]
    );

    // Summer time ends on Sunday 25 October 2026 (03:00 → 02:00): 02:30 happens twice and
    // runs the first time only.
    clock.set("2026-10-24 12:00");
    let runs = sequence(&night, &clock, 3);
    assert_eq!(
        runs,
        vec![
            "Sun 2026-10-25 02:30",
            "Mon 2026-10-26 02:30",
            "Tue 2026-10-27 02:30"
        ]
    );
    let first = night.next_after(clock.now(), &*clock).unwrap();
    let second = night.next_after(first, &*clock).unwrap();
    assert_eq!(
        (second - first).num_hours(),
        25,
        "the repeated hour runs once"
    );
}

#[test]
fn weekdays_run_on_the_chosen_days_only() {
    // 2026-03-27 is a Friday.
    let clock = TestClock::at("2026-03-27 09:30");
    let weekdays = Repeat::Weekdays {
        days: vec![0, 2, 4], // Monday, Wednesday, Friday
        time: at(9, 0),
    };
    assert_eq!(
        sequence(&weekdays, &clock, 4),
        vec![
            "Mon 2026-03-30 09:00",
            "Wed 2026-04-01 09:00",
            "Fri 2026-04-03 09:00",
            "Mon 2026-04-06 09:00"
        ],
        "Friday's 09:00 had passed; the weekend is skipped"
    );
    clock.set("2026-03-27 08:59");
    assert_eq!(sequence(&weekdays, &clock, 1), vec!["Fri 2026-03-27 09:00"]);
    let none = Repeat::Weekdays {
        days: vec![],
        time: at(9, 0),
    };
    assert_eq!(none.check(clock.now()), Err(timing::Unfit::NoDays));
    assert_eq!(
        Repeat::Daily { time: at(24, 0) }.check(clock.now()),
        Err(timing::Unfit::BadTime)
    );
}

#[test]
fn every_n_hours_counts_real_hours_from_its_start_even_across_summer_time() {
    let clock = TestClock::at("2026-03-28 20:00");
    let every = Repeat::EveryHours {
        hours: 3,
        from: timing::to_ms(paris("2026-03-28 21:00")),
    };
    assert_eq!(
        sequence(&every, &clock, 4),
        vec![
            "Sat 2026-03-28 21:00",
            "Sun 2026-03-29 00:00",
            // 03:00 real hours later is 04:00 on the clock: an hour was skipped.
            "Sun 2026-03-29 04:00",
            "Sun 2026-03-29 07:00"
        ]
    );
    // Asked in the middle of an interval, the next one is the next multiple of the step.
    clock.set("2026-03-29 05:00");
    assert_eq!(sequence(&every, &clock, 1), vec!["Sun 2026-03-29 07:00"]);
    assert_eq!(
        Repeat::EveryHours {
            hours: 0,
            from: 0.0
        }
        .check(clock.now()),
        Err(timing::Unfit::BadInterval)
    );
    let once = Repeat::Once {
        at: timing::to_ms(paris("2026-03-29 04:30")),
    };
    assert_eq!(sequence(&once, &clock, 3), Vec::<String>::new(), "past");
}

// ---- Runs against the simulator ----

mod running;
/// The app the schedules tests run tasks in.
mod test_app;

mod capped_runs;

mod extremes;

mod held_runs;

mod waking;

mod digest;
