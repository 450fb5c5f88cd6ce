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
    assert_eq!(none.check(), Err(timing::Unfit::NoDays));
    assert_eq!(
        Repeat::Daily { time: at(24, 0) }.check(),
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
        .check(),
        Err(timing::Unfit::BadInterval)
    );
    let once = Repeat::Once {
        at: timing::to_ms(paris("2026-03-29 04:30")),
    };
    assert_eq!(sequence(&once, &clock, 3), Vec::<String>::new(), "past");
}

// ---- Runs against the simulator ----

#[derive(Default)]
struct Told {
    tick: watch::Sender<u64>,
    /// What the person was told, as "title: body".
    told: Mutex<Vec<String>>,
}

impl Notify for Told {
    fn conversation_changed(&self, _: &Conversation, _: bool) {
        self.tick.send_modify(|t| *t += 1);
    }
    fn needs_answer(&self, _: &Conversation, _: &ApprovalRequest) {}
    fn machine_starting(&self, _: &str) {}
    fn machines_changed(&self) {}
}

impl ScheduleNotify for Told {
    fn schedules_changed(&self) {}
    fn tell(&self, _: &Schedule, title: &str, body: &str) {
        self.told.lock().unwrap().push(format!("{title}: {body}"));
    }
}

struct App {
    _sim: RunningSim,
    dir: tempfile::TempDir,
    connection: Connection,
    told: Arc<Told>,
    conversations: Conversations,
    schedules: Schedules,
    client: Client,
    machine: String,
}

async fn app(clock: Arc<TestClock>) -> App {
    let sim = Sim::start(Config {
        time_scale: SCALE,
        ..Config::default()
    })
    .await
    .expect("the simulator starts");
    let key = sim.account("ada").api_key.clone().expect("a key");
    // A real hour for the budgets: the test spends them faster than a scaled hour could hold.
    let config = ClientConfig {
        hour: Duration::from_secs(3600),
        ..ClientConfig::time_scaled(SCALE)
    };
    let client =
        Client::with_config(&sim.base_url, Credential::api_key(&key).unwrap(), config).unwrap();
    let connection = Connection::default();
    connection.activate(client.clone(), SCOPE.into());
    let dir = tempfile::tempdir().unwrap();
    let told = Arc::new(Told::default());
    let conversations = Conversations::new(
        connection.clone(),
        ConversationStore::open_in(dir.path()).unwrap(),
        UsageStore::open_in(dir.path()).unwrap(),
        told.clone(),
    );
    let schedules = open(dir.path(), &connection, &conversations, &clock, &told);
    let machine = client
        .machines()
        .list()
        .await
        .unwrap()
        .machines
        .into_iter()
        .find(|m| m.name.as_deref() == Some("Design laptop"))
        .expect("ada's awake computer")
        .machine_id;
    App {
        _sim: sim,
        dir,
        connection,
        told,
        conversations,
        schedules,
        client,
        machine,
    }
}

fn open(
    dir: &std::path::Path,
    connection: &Connection,
    conversations: &Conversations,
    clock: &Arc<TestClock>,
    told: &Arc<Told>,
) -> Schedules {
    Schedules::open_in(
        dir,
        connection.clone(),
        conversations.clone(),
        clock.clone(),
        told.clone(),
    )
    .unwrap()
}

impl App {
    async fn schedule(&self, text: &str, repeat: Repeat) -> Schedule {
        self.schedules
            .create(NewSchedule {
                machine_id: self.machine.clone(),
                machine_name: "Design laptop".into(),
                text: text.into(),
                reusable_id: None,
                repeat,
            })
            .await
            .unwrap()
    }

    fn get(&self, id: &str) -> Schedule {
        self.schedules.read(|b| b.get(id).cloned()).unwrap()
    }

    /// The tasks the computer's conversations were sent, in order.
    fn sent(&self) -> Vec<String> {
        self.conversations.store().read(|book| {
            book.conversations
                .iter()
                .flat_map(|c| c.items.iter())
                .filter_map(|item| match item {
                    ThreadItem::User { text, .. } => Some(text.clone()),
                    _ => None,
                })
                .collect()
        })
    }

    /// Waits for the conversation's task to end (the simulator runs it), then looks again.
    async fn until_ended(&self, conversation_id: &str) -> Conversation {
        let mut changes = self.told.tick.subscribe();
        let wait = async {
            loop {
                let c = self.conversations.store().get(conversation_id).unwrap();
                if !c.status.is_active() && c.status != TaskStatus::Idle {
                    return c;
                }
                changes.changed().await.unwrap();
            }
        };
        tokio::time::timeout(Duration::from_secs(60), wait)
            .await
            .expect("the task ends")
    }

    fn told(&self) -> Vec<String> {
        self.told.told.lock().unwrap().clone()
    }
}

fn started_in(schedule: &Schedule) -> String {
    match &schedule.last.as_ref().expect("a run").outcome {
        Outcome::Started {
            conversation_id, ..
        } => conversation_id.clone(),
        other => panic!("not started: {other:?}"),
    }
}

#[tokio::test]
async fn a_due_schedule_sends_exactly_one_task_and_says_how_it_ended() {
    let clock = TestClock::at("2026-03-27 07:55");
    let app = app(clock.clone()).await;
    let daily = app
        .schedule(
            "Check the weather in Paris",
            Repeat::Daily { time: at(8, 0) },
        )
        .await;
    app.schedules.tick().await;
    assert!(app.sent().is_empty(), "not due yet");
    let list = app.schedules.list().await.unwrap();
    assert_eq!(
        list.rows[0].next_at,
        Some(timing::to_ms(paris("2026-03-27 08:00")))
    );
    assert!(
        list.keeps_running,
        "a schedule to come keeps the app in the tray"
    );

    clock.set("2026-03-27 08:00");
    app.schedules.tick().await;
    // Looking again at the same minute, or a minute later, sends nothing more.
    app.schedules.tick().await;
    clock.advance(chrono::Duration::minutes(1));
    app.schedules.tick().await;
    assert_eq!(app.sent(), vec!["Check the weather in Paris"]);

    let schedule = app.get(&daily.id);
    let conversation_id = started_in(&schedule);
    let current = app.conversations.current(&app.machine).await.unwrap();
    assert_eq!(
        conversation_id, current.id,
        "an ordinary task in the computer's current conversation"
    );
    let ended = app.until_ended(&conversation_id).await;
    assert_eq!(ended.status, TaskStatus::Succeeded);
    assert!(ended
        .items
        .iter()
        .any(|i| matches!(i, ThreadItem::Answer { .. })));
    app.schedules.tick().await;
    assert!(matches!(
        app.get(&daily.id).last.unwrap().outcome,
        Outcome::Ended {
            status: TaskStatus::Succeeded,
            ..
        }
    ));
    assert_eq!(
        app.told(),
        vec!["Scheduled task: Check the weather in Paris: It is done. On Design laptop."]
    );
    let next = app.schedules.list().await.unwrap().rows[0].next_at;
    assert_eq!(next, Some(timing::to_ms(paris("2026-03-28 08:00"))));

    // The next day's run is one more task, in the same conversation.
    clock.set("2026-03-28 08:03");
    app.schedules.tick().await;
    assert_eq!(app.sent().len(), 2);
    let _ = app.connection.active().await.unwrap();
}

#[tokio::test]
async fn a_run_due_while_the_app_was_closed_is_missed_never_run_twice_and_runs_now_on_request() {
    let clock = TestClock::at("2026-03-27 07:00");
    let app = app(clock.clone()).await;
    let daily = app
        .schedule("Send the daily report", Repeat::Daily { time: at(8, 0) })
        .await;
    // The first app is closed: its schedules are never looked at again.

    // Porthole is closed over two mornings; it starts again at 09:30 on the second.
    clock.set("2026-03-28 09:30");
    let reopened = open(
        app.dir.path(),
        &app.connection,
        &app.conversations,
        &clock,
        &app.told,
    );
    reopened.tick().await;
    reopened.tick().await;
    let schedule = reopened.read(|b| b.get(&daily.id).cloned()).unwrap();
    assert_eq!(
        schedule.missed,
        Some(timing::to_ms(paris("2026-03-28 08:00"))),
        "two missed mornings show as the latest one"
    );
    assert!(app.sent().is_empty(), "a missed run is not run by itself");
    assert_eq!(app.told().len(), 1, "{:?}", app.told());
    assert!(app.told()[0].starts_with("A scheduled task was missed"));

    // Run now: one task; it clears the missed mark.
    reopened.run_now(&daily.id).await.unwrap();
    reopened.tick().await;
    assert_eq!(app.sent(), vec!["Send the daily report"]);
    let schedule = reopened.read(|b| b.get(&daily.id).cloned()).unwrap();
    assert_eq!(schedule.missed, None);

    // Another restart at the same time finds nothing due: the run is never repeated.
    drop(reopened);
    let again = open(
        app.dir.path(),
        &app.connection,
        &app.conversations,
        &clock,
        &app.told,
    );
    again.tick().await;
    assert_eq!(app.sent().len(), 1);
    let conversation_id = started_in(&again.read(|b| b.get(&daily.id).cloned()).unwrap());
    app.until_ended(&conversation_id).await;

    // A run a few minutes late (the app was starting) is on time, not missed.
    clock.set("2026-03-29 08:04");
    again.tick().await;
    assert_eq!(app.sent().len(), 2);
    let schedule = again.read(|b| b.get(&daily.id).cloned()).unwrap();
    assert_eq!(schedule.missed, None);
}

#[tokio::test]
async fn a_run_over_the_hourly_message_limit_is_skipped_with_a_reason() {
    let clock = TestClock::at("2026-03-27 07:59");
    let app = app(clock.clone()).await;
    let once = app
        .schedule(
            "Book the meeting room",
            Repeat::Once {
                at: timing::to_ms(paris("2026-03-27 08:00")),
            },
        )
        .await;
    // The hour's messages are spent (here on a computer that is not there: each still counts).
    for _ in 0..porthole_client::Limit::Messages.per_hour() {
        let _ = app
            .client
            .messages()
            .send(&MessageRequest::new("hello", "no-such-computer"))
            .await;
    }
    assert_eq!(
        app.client
            .budget_remaining(porthole_client::Limit::Messages),
        0
    );
    clock.set("2026-03-27 08:00");
    app.schedules.tick().await;
    assert!(app.sent().is_empty(), "nothing is sent past the limit");
    let schedule = app.get(&once.id);
    match schedule.last.unwrap().outcome {
        Outcome::Skipped { reason } => {
            assert_eq!(reason.code, crate::error::UiCode::ScheduleHourlyLimit);
            let said = crate::error::UiError::from(&reason).detail;
            // The words name the client's own budget.
            let limit = porthole_client::Limit::Messages.per_hour();
            assert!(
                said.contains(&format!("{limit} tasks in the past hour")),
                "the reason is said: {said}"
            );
        }
        other => panic!("not skipped: {other:?}"),
    }
    assert!(app.told()[0].starts_with("A scheduled task was skipped"));
    // Skipped is settled: the once schedule is over, and the app no longer needs the tray.
    clock.advance(chrono::Duration::minutes(1));
    app.schedules.tick().await;
    let list = app.schedules.list().await.unwrap();
    assert_eq!(list.rows[0].next_at, None);
    assert!(!list.keeps_running);
}

#[tokio::test]
async fn every_n_hours_runs_each_step_once_and_pause_all_holds_them_without_missed_runs() {
    let clock = TestClock::at("2026-03-27 06:00");
    let app = app(clock.clone()).await;
    assert!(
        app.schedules.tray_lines().is_none(),
        "no schedule, no tray lines"
    );
    let every = app
        .schedule(
            "Look for new invoices",
            Repeat::EveryHours {
                hours: 2,
                from: timing::to_ms(paris("2026-03-27 06:30")),
            },
        )
        .await;
    let mut runs = 0;
    for time in ["06:30", "07:00", "08:30", "09:00", "10:30"] {
        clock.set(&format!("2026-03-27 {time}"));
        app.schedules.tick().await;
        if app.sent().len() > runs {
            runs = app.sent().len();
            let id = started_in(&app.get(&every.id));
            app.until_ended(&id).await;
            app.schedules.tick().await;
        }
    }
    assert_eq!(app.sent().len(), 3, "06:30, 08:30, 10:30");

    app.schedules.set_all_paused(true).unwrap();
    assert!(!app.schedules.keeps_running(), "paused: closing quits");
    assert_eq!(app.schedules.next_run(), None);
    let tray = app.schedules.tray_lines().unwrap();
    assert!(tray.all_paused, "the tray offers Resume");
    assert_eq!(tray.next, "Schedules are paused");
    clock.set("2026-03-27 15:00");
    app.schedules.tick().await;
    assert_eq!(app.sent().len(), 3, "nothing runs while paused");
    app.schedules.set_all_paused(false).unwrap();
    app.schedules.tick().await;
    let schedule = app.get(&every.id);
    assert_eq!(schedule.missed, None, "paused runs are not missed runs");
    assert_eq!(app.sent().len(), 3);
    let (title, at) = app.schedules.next_run().unwrap();
    assert_eq!(title, "Look for new invoices");
    assert_eq!(at, timing::to_ms(paris("2026-03-27 16:30")));
    let tray = app.schedules.tray_lines().unwrap();
    assert!(!tray.all_paused);
    assert_eq!(tray.next, "Next: Look for new invoices at 16:30");
}

#[tokio::test]
async fn a_schedule_that_cannot_be_kept_is_refused_in_words() {
    let clock = TestClock::at("2026-03-27 09:00");
    let app = app(clock.clone()).await;
    let past = app
        .schedules
        .create(NewSchedule {
            machine_id: app.machine.clone(),
            machine_name: "Design laptop".into(),
            text: "Too late".into(),
            reusable_id: None,
            repeat: Repeat::Once {
                at: timing::to_ms(paris("2026-03-27 08:00")),
            },
        })
        .await
        .unwrap_err();
    assert!(UiError::from(&past).detail.contains("already passed"));
    let empty = app
        .schedules
        .create(NewSchedule {
            machine_id: app.machine.clone(),
            machine_name: "Design laptop".into(),
            text: "  ".into(),
            reusable_id: None,
            repeat: Repeat::Daily { time: at(8, 0) },
        })
        .await
        .unwrap_err();
    assert!(UiError::from(&empty).detail.contains("Write the task"));
    assert!(matches!(
        app.schedules.set_paused("gone", true),
        Err(AppError::UnknownSchedule)
    ));
    assert!(app.schedules.list().await.unwrap().rows.is_empty());
}
