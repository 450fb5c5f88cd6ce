//! Runs against the simulator over real sockets, through the conversations core, with the
//! clock of `tests.rs`: a due run sent once, a missed run, the hourly limit, every N hours and
//! pause all, a schedule refused in words.

pub(super) use super::test_app::{app, app_scaled, open, started_in, App};
use super::*;
use crate::schedules::tray_words::{TrayTime, TrayWords};
use crate::words::language::Language;

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
    let said = TrayWords::default();
    assert!(
        app.schedules.tray_lines(&said).is_none(),
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
    let tray = app.schedules.tray_lines(&said).unwrap();
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
    let tray = app.schedules.tray_lines(&said).unwrap();
    assert!(!tray.all_paused);
    assert_eq!(
        tray.next, "Next: Look for new invoices",
        "before the page has said when"
    );

    // The page words the time (Intl); the tray carries its words, today and in its language.
    let now = timing::to_ms(clock.now());
    let next = || app.schedules.tray_lines(&said).unwrap().next;
    let say = |language, now, at, words: &str| {
        said.keep(
            &app.schedules,
            language,
            now,
            vec![TrayTime {
                at,
                words: words.into(),
            }],
        )
    };
    assert!(say(Language::En, now, at, "at\n16:30 "));
    assert_eq!(next(), "Next: Look for new invoices at 16:30");
    assert!(
        !say(Language::En, now, at, "at 16:30"),
        "the same words again change nothing"
    );
    let untimed = "Next: Look for new invoices";
    // Words are right until the day they were said on ends: here the page's clock shows
    // 23:30 the day before (a test's moved clock), so its "tomorrow" holds for half an hour.
    let before_midnight = now - 15.5 * 3_600_000.0;
    assert!(say(Language::En, before_midnight, at, "tomorrow at 16:30"));
    assert_eq!(next(), "Next: Look for new invoices tomorrow at 16:30");
    clock.set("2026-03-27 15:31");
    assert_eq!(next(), untimed, "the day they were said on has ended");
    clock.set("2026-03-27 15:00");
    for (language, when, at, words) in [
        (Language::De, now, at, "um 16:30"),
        (Language::En, f64::NAN, at, "at 16:30"),
        (Language::En, now, at, " \n "),
        (Language::En, now, f64::INFINITY, "at 16:30"),
        (Language::En, now, at + 3_600_000.0, "at 17:30"),
    ] {
        say(language, when, at, words);
        assert_eq!(next(), untimed, "{language:?} {when} {at} {words:?}");
    }
    say(Language::En, now, at, &"at 16:30 ".repeat(100_000));
    assert!(next().chars().count() < 100, "{}", next().len());
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
            cap_usd: None,
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
            cap_usd: None,
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
