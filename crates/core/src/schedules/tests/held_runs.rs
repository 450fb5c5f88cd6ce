//! Runs that come due while the computer's task before them still runs (security review N2):
//! one held run per schedule, carrying its due time; started only within the grace period,
//! else missed with "Run now"; checked against the hourly budget and the schedule's cap as it
//! starts. The computer is kept busy by a task waiting on the person's answer to a card, and
//! freed by answering it, against the simulator.

use porthole_client::approvals::Answer;

use super::running::{app, App};
use super::*;

/// A task the simulator's agent stops on to ask before deleting.
const ASKS_FIRST: &str = "Delete the old screenshots";

/// Starts a task on the computer that waits for the person's answer: the computer is busy
/// until [`free`]. Its conversation and the card.
async fn busy(app: &App) -> (String, String) {
    let id = app.conversations.current(&app.machine).await.unwrap().id;
    app.conversations
        .send(SendRequest {
            conversation_id: id.clone(),
            text: ASKS_FIRST.into(),
            ..SendRequest::default()
        })
        .await
        .unwrap();
    let asked = app.until(&id, |c| c.pending_approval.is_some()).await;
    (id, asked.pending_approval.unwrap().approval_id)
}

/// Answers the card: the task before ends, and the computer is free.
async fn free(app: &App, (id, card): &(String, String)) {
    app.conversations
        .answer(id, card, Answer::Yes)
        .await
        .unwrap();
    let done = app.until_ended(id).await;
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
}

fn hourly_from(local: &str) -> Repeat {
    Repeat::EveryHours {
        hours: 1,
        from: timing::to_ms(paris(local)),
    }
}

#[tokio::test]
async fn two_due_times_passing_while_the_computer_is_busy_leave_one_held_run_that_starts_once() {
    let clock = TestClock::at("2026-03-27 07:55");
    let app = app(clock.clone()).await;
    let hourly = app
        .capped_schedule(
            "Look for new invoices",
            hourly_from("2026-03-27 08:00"),
            Some(0.2),
        )
        .await;
    let before = busy(&app).await;

    clock.set("2026-03-27 08:00");
    app.schedules.tick().await;
    clock.set("2026-03-27 08:05");
    app.schedules.tick().await;
    let held = app.get(&hourly.id);
    assert_eq!(held.held, Some(timing::to_ms(paris("2026-03-27 08:00"))));
    assert_eq!(held.last, None, "nothing went out");
    let line = app.conversations.store().get(&before.0).unwrap().waiting;
    assert!(
        line.is_empty(),
        "the schedule holds it, not the thread: {line:?}"
    );
    assert!(app.schedules.keeps_running());

    // The next due time passes with the computer still busy: the older run is too late to
    // start by itself, and the newer one takes its place.
    clock.set("2026-03-27 09:02");
    app.schedules.tick().await;
    let held = app.get(&hourly.id);
    assert_eq!(held.held, Some(timing::to_ms(paris("2026-03-27 09:00"))));
    assert_eq!(held.missed, Some(timing::to_ms(paris("2026-03-27 08:00"))));
    assert_eq!(held.missed_why, MissedWhy::Busy);
    assert_eq!(app.sent(), vec![ASKS_FIRST], "nothing started meanwhile");
    // The cap the run starts with is the schedule's as it is then.
    app.schedules.set_cap(&hourly.id, Some(0.5)).unwrap();

    free(&app, &before).await;
    clock.set("2026-03-27 09:03");
    app.schedules.tick().await;
    app.schedules.tick().await;
    assert_eq!(
        app.sent(),
        vec![ASKS_FIRST, "Look for new invoices"],
        "one run, once"
    );
    let started = app.get(&hourly.id);
    assert_eq!(started.held, None);
    let last = started.last.clone().unwrap();
    assert_eq!(last.due_at, timing::to_ms(paris("2026-03-27 09:00")));
    let conversation = app
        .conversations
        .store()
        .get(&super::running::started_in(&started))
        .unwrap();
    assert_eq!(conversation.cap_usd, Some(0.5), "sent under the new cap");
    app.until_ended(&conversation.id).await;
    app.schedules.tick().await;
    assert_eq!(app.sent().len(), 2, "{:?}", app.sent());
}

#[tokio::test]
async fn a_held_run_whose_computer_frees_up_after_the_grace_period_is_missed_and_not_sent() {
    let clock = TestClock::at("2026-03-27 07:55");
    let app = app(clock.clone()).await;
    let daily = app
        .capped_schedule(
            "Send the daily report",
            Repeat::Daily { time: at(8, 0) },
            Some(1.0),
        )
        .await;
    let before = busy(&app).await;
    clock.set("2026-03-27 08:00");
    app.schedules.tick().await;
    assert!(app.get(&daily.id).held.is_some());

    clock.set("2026-03-27 08:11");
    free(&app, &before).await;
    app.schedules.tick().await;
    app.schedules.tick().await;
    assert_eq!(
        app.sent(),
        vec![ASKS_FIRST],
        "a late run never starts by itself"
    );
    let missed = app.get(&daily.id);
    assert_eq!(missed.held, None);
    assert_eq!(
        missed.missed,
        Some(timing::to_ms(paris("2026-03-27 08:00")))
    );
    assert_eq!(missed.missed_why, MissedWhy::Busy);
    assert_eq!(
        app.told(),
        vec![
            "A scheduled task was missed: “Send the daily report” did not run: Design laptop \
             was still busy with the task before it 10 minutes after it was due, and a late \
             run never starts by itself. Open Schedules to run it now."
        ]
    );
    // The list offers Run now, as for a run missed while Porthole was closed.
    let list = app.schedules.list().await.unwrap();
    assert_eq!(list.rows[0].schedule.missed, missed.missed);

    app.schedules.run_now(&daily.id).await.unwrap();
    assert_eq!(app.sent(), vec![ASKS_FIRST, "Send the daily report"]);
    assert_eq!(app.get(&daily.id).missed, None);
}

#[tokio::test]
async fn a_held_run_is_checked_against_the_hourly_budget_when_it_starts() {
    let clock = TestClock::at("2026-03-27 07:55");
    let app = app(clock.clone()).await;
    let once = app
        .capped_schedule(
            "Book the meeting room",
            Repeat::Once {
                at: timing::to_ms(paris("2026-03-27 08:00")),
            },
            Some(1.0),
        )
        .await;
    let before = busy(&app).await;
    clock.set("2026-03-27 08:00");
    app.schedules.tick().await;
    assert!(
        app.get(&once.id).held.is_some(),
        "held with budget to spare"
    );

    free(&app, &before).await;
    // Meanwhile the hour's messages were spent.
    let limit = porthole_client::Limit::Messages;
    app.client.count_as_spent(limit, limit.per_hour());
    assert_eq!(app.client.budget_remaining(limit), 0);
    clock.set("2026-03-27 08:04");
    app.schedules.tick().await;

    assert_eq!(
        app.sent(),
        vec![ASKS_FIRST],
        "nothing is sent past the limit"
    );
    let skipped = app.get(&once.id);
    assert_eq!(skipped.held, None);
    assert_eq!(skipped.missed, None, "skipped, not missed");
    match skipped.last.unwrap() {
        LastRun {
            due_at,
            outcome: Outcome::Skipped { reason },
            ..
        } => {
            assert_eq!(due_at, timing::to_ms(paris("2026-03-27 08:00")));
            assert_eq!(reason.code, crate::error::UiCode::ScheduleHourlyLimit);
        }
        other => panic!("not skipped: {other:?}"),
    }
    assert_eq!(app.told().len(), 1, "{:?}", app.told());
    assert!(app.told()[0].starts_with("A scheduled task was skipped"));
}
