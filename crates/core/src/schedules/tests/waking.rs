//! Runs whose computer sleeps, against the simulator's computers of the Demo account: the
//! Research box (asleep, woken by the service's wake call), the Studio archive (asleep, and the
//! service says it cannot wake it) and the Design laptop (awake). The schedules' clock is the
//! test's; the simulator wakes a computer in its own (scaled) time, which the test waits for.

use porthole_client::machines::MachineStatus;

use super::running::{app, app_scaled, started_in, App};
use super::*;

const TASK: &str = "Look for new invoices";

impl App {
    pub(super) async fn machine_named(&self, name: &str) -> String {
        self.client
            .machines()
            .list()
            .await
            .unwrap()
            .machines
            .into_iter()
            .find(|m| m.name.as_deref() == Some(name))
            .unwrap_or_else(|| panic!("{name} is one of ada's computers"))
            .machine_id
    }

    pub(super) async fn status_of(&self, machine_id: &str) -> Option<MachineStatus> {
        let list = self.client.machines().list().await.unwrap().machines;
        list.into_iter()
            .find(|m| m.machine_id == machine_id)
            .unwrap()
            .status
    }

    /// Waits (in the simulator's time) until the computer's status is `status`.
    pub(super) async fn until_status(&self, machine_id: &str, status: MachineStatus) {
        let mut changes = self.sim.state().changes();
        let wait = async {
            while self.status_of(machine_id).await.as_ref() != Some(&status) {
                changes.changed().await.unwrap();
            }
        };
        tokio::time::timeout(Duration::from_secs(60), wait)
            .await
            .unwrap_or_else(|_| panic!("{machine_id} did not become {status:?}"));
    }

    /// How many wake calls the simulator has served.
    pub(super) fn wakes(&self) -> usize {
        let seen = self.sim.state().requests_seen();
        seen.iter().filter(|r| r.path == "/v1/agents/wake").count()
    }

    pub(super) async fn schedule_on(&self, computer: &str, text: &str, repeat: Repeat) -> Schedule {
        self.schedules
            .create(NewSchedule {
                machine_id: self.machine_named(computer).await,
                machine_name: computer.into(),
                text: text.into(),
                reusable_id: None,
                repeat,
                cap_usd: None,
            })
            .await
            .unwrap()
    }
}

#[tokio::test]
async fn a_sleeping_computer_is_woken_ahead_and_the_run_sent_at_its_time_once_awake() {
    let clock = TestClock::at("2026-03-27 07:50");
    let app = app(clock.clone()).await;
    let research = app.machine_named("Research box").await;
    let daily = app
        .schedule_on("Research box", TASK, Repeat::Daily { time: at(8, 0) })
        .await;
    app.schedules.tick().await;
    assert_eq!(app.wakes(), 0, "not yet");

    // The free computer's first start takes about two minutes: three minutes ahead, with a
    // margin, the computer is woken, once.
    clock.set("2026-03-27 07:56");
    app.schedules.tick().await;
    assert_eq!(app.wakes(), 0, "four minutes ahead is too early");
    clock.set("2026-03-27 07:57");
    app.schedules.tick().await;
    app.schedules.tick().await;
    assert_eq!(app.wakes(), 1, "woken three minutes ahead, once");
    assert_ne!(
        app.status_of(&research).await,
        Some(MachineStatus::Hibernated),
        "the service is waking it"
    );
    assert!(app.sent().is_empty(), "the task waits for its time");
    app.until_status(&research, MachineStatus::Active).await;

    // Awake at its time, the task goes out at once.
    clock.set("2026-03-27 08:00");
    app.schedules.tick().await;
    assert_eq!(app.sent(), vec![TASK]);
    let schedule = app.get(&daily.id);
    assert_eq!(schedule.missed, None);
    let id = started_in(&schedule);
    assert_eq!(
        app.until_ended(&id).await.status,
        TaskStatus::Succeeded,
        "it ran"
    );

    // It was first seen awake three minutes after the wake: the next lead is four minutes.
    let took = app.schedules.read(|b| b.wake_took.get(&research).copied());
    assert_eq!(took, Some(180_000.0));
    let ada = app.sim.account("ada").user_id.clone();
    assert!(app.sim.state().hibernate(&ada, &research));
    app.until_status(&research, MachineStatus::Hibernated).await;
    app.schedules.tick().await;
    clock.set("2026-03-28 07:55");
    app.schedules.tick().await;
    assert_eq!(app.wakes(), 1, "five minutes ahead is too early");
    clock.set("2026-03-28 07:56");
    app.schedules.tick().await;
    assert_eq!(
        app.wakes(),
        2,
        "woken four minutes ahead, as it took longer"
    );
}

#[tokio::test]
async fn a_computer_already_awake_gets_no_wake_call() {
    let clock = TestClock::at("2026-03-27 07:50");
    let app = app(clock.clone()).await;
    app.schedule_on("Design laptop", TASK, Repeat::Daily { time: at(8, 0) })
        .await;
    for time in ["07:57", "07:58", "08:00"] {
        clock.set(&format!("2026-03-27 {time}"));
        app.schedules.tick().await;
    }
    assert_eq!(app.sent(), vec![TASK], "sent at its time");
    assert_eq!(app.wakes(), 0, "an awake computer is not woken");
}

#[tokio::test]
async fn a_computer_the_service_cannot_wake_makes_a_missed_run_with_its_reason() {
    let clock = TestClock::at("2026-03-27 07:50");
    let app = app(clock.clone()).await;
    let daily = app
        .schedule_on("Studio archive", TASK, Repeat::Daily { time: at(8, 0) })
        .await;
    clock.set("2026-03-27 07:57");
    app.schedules.tick().await;
    clock.set("2026-03-27 08:00");
    app.schedules.tick().await;
    app.schedules.tick().await;
    assert!(
        app.sent().is_empty(),
        "nothing is sent to a computer asleep for good"
    );
    let schedule = app.get(&daily.id);
    assert_eq!(
        schedule.missed,
        Some(timing::to_ms(paris("2026-03-27 08:00")))
    );
    assert_eq!(schedule.missed_why, MissedWhy::CannotWake);
    assert_eq!(schedule.held, None);
    assert_eq!(
        app.told(),
        vec![
            "A scheduled task was missed: “Look for new invoices” did not run: Studio archive \
             is asleep and the service cannot wake it. Schedule the task on another computer, \
             or open Schedules to run it now once it is awake."
        ]
    );
    // The next day is a run of its own.
    let list = app.schedules.list().await.unwrap();
    assert_eq!(
        list.rows[0].next_at,
        Some(timing::to_ms(paris("2026-03-28 08:00")))
    );
}

#[tokio::test]
async fn a_computer_not_awake_in_time_makes_a_missed_run_with_its_reason() {
    // The simulator in real time: the Research box takes its documented 30 s to wake, while
    // the test's clock passes the whole grace period at once.
    let clock = TestClock::at("2026-03-27 07:50");
    let app = app_scaled(clock.clone(), 1.0).await;
    let daily = app
        .schedule_on("Research box", TASK, Repeat::Daily { time: at(8, 0) })
        .await;
    clock.set("2026-03-27 07:57");
    app.schedules.tick().await;
    assert_eq!(app.wakes(), 1);
    clock.set("2026-03-27 08:00");
    app.schedules.tick().await;
    let held = app.get(&daily.id);
    assert_eq!(held.held, Some(timing::to_ms(paris("2026-03-27 08:00"))));
    assert!(held.held_for_wake, "it waits for the computer to wake");
    assert!(app.sent().is_empty());

    clock.set("2026-03-27 08:11");
    app.schedules.tick().await;
    assert!(app.sent().is_empty(), "a late run never starts by itself");
    let schedule = app.get(&daily.id);
    assert_eq!(schedule.missed_why, MissedWhy::NotAwake);
    assert_eq!(
        schedule.missed,
        Some(timing::to_ms(paris("2026-03-27 08:00")))
    );
    assert_eq!(schedule.held, None);
    let told = app.told();
    assert_eq!(told.len(), 1, "{told:?}");
    assert!(
        told[0].contains(
            "Research box was asked to wake ahead of time but was still not awake 10 minutes after"
        ),
        "{told:?}"
    );
}
