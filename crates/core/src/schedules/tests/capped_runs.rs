//! A schedule's spending cap (security review N1): a run goes out unattended, so it carries
//! the schedule's cap and is stopped at it like any capped task, against the simulator whose
//! agent pays for a model call at each step.

use super::running::{app, started_in};
use super::*;
use crate::conversations::Notice;

/// A task that costs more than two cents well before it would end.
const LONG_TASK: &str = "Find the weather in Lisbon and count to 8";

#[tokio::test]
async fn a_scheduled_run_is_stopped_at_the_schedules_cap() {
    let clock = TestClock::at("2026-03-27 07:55");
    let app = app(clock.clone()).await;
    let capped = app
        .capped_schedule(LONG_TASK, Repeat::Daily { time: at(8, 0) }, Some(0.02))
        .await;
    assert_eq!(capped.cap_usd, Some(0.02), "kept with the schedule");

    clock.set("2026-03-27 08:00");
    app.schedules.tick().await;
    let conversation = started_in(&app.get(&capped.id));
    let done = app.until_ended(&conversation).await;

    assert_eq!(done.status, TaskStatus::Stopped, "{:#?}", done.items);
    let cost = done.usage.as_ref().map_or(0.0, |u| u.total.cost_usd);
    assert!(cost >= 0.02, "stopped once the cap was reached: {cost}");
    assert!(
        done.items.iter().any(|item| matches!(
            item,
            ThreadItem::Notice {
                notice: Notice::StoppedAtCap { cap_usd, .. }
            } if *cap_usd == 0.02
        )),
        "the thread says it stopped at the cap: {:#?}",
        done.items
    );
}

#[tokio::test]
async fn a_schedules_cap_is_checked_kept_and_changed() {
    let clock = TestClock::at("2026-03-27 07:55");
    let app = app(clock.clone()).await;
    let refused = app
        .schedules
        .create(NewSchedule {
            machine_id: app.machine.clone(),
            machine_name: "Design laptop".into(),
            text: "Check the weather".into(),
            reusable_id: None,
            repeat: Repeat::Daily { time: at(8, 0) },
            cap_usd: Some(0.0),
        })
        .await
        .unwrap_err();
    assert!(matches!(refused, AppError::InvalidCap), "{refused:?}");
    assert!(app.schedules.list().await.unwrap().rows.is_empty());

    let open = app
        .capped_schedule("Check the weather", Repeat::Daily { time: at(8, 0) }, None)
        .await;
    assert_eq!(open.cap_usd, None);
    app.schedules.set_cap(&open.id, Some(1.5)).unwrap();
    assert_eq!(app.get(&open.id).cap_usd, Some(1.5));
    assert!(matches!(
        app.schedules.set_cap(&open.id, Some(f64::NAN)),
        Err(AppError::InvalidCap)
    ));
    assert_eq!(
        app.get(&open.id).cap_usd,
        Some(1.5),
        "a bad cap changes nothing"
    );
    assert!(matches!(
        app.schedules.set_cap("gone", Some(1.0)),
        Err(AppError::UnknownSchedule)
    ));

    // Kept across a restart, and a file saved before caps reads as "no limit".
    let reopened = Schedules::open_in(
        app.dir.path(),
        app.connection.clone(),
        app.conversations.clone(),
        clock.clone(),
        app.told.clone(),
    )
    .unwrap();
    assert_eq!(
        reopened.read(|b| b.get(&open.id).map(|s| s.cap_usd)),
        Some(Some(1.5))
    );
    let mut old = serde_json::to_value(app.get(&open.id)).unwrap();
    old.as_object_mut().unwrap().remove("capUsd");
    let read: Schedule = serde_json::from_value(old).unwrap();
    assert_eq!(read.cap_usd, None);
}
