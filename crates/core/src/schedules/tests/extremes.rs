//! Numbers no person chooses (security review N13): a page's bad value is refused in words, and
//! a schedule file holding extremes never panics the runner's look at the clock.

use super::*;

const EXTREMES: [f64; 8] = [
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::MAX,
    f64::MIN,
    -1e300,
    1e300,
    -7.7e15, // about 245,000 years ago, where a wrapping step count once panicked
];

#[test]
fn a_page_cannot_ask_for_a_time_no_one_means() {
    let clock = TestClock::at("2026-03-27 09:00");
    let now = clock.now();
    for at in EXTREMES {
        assert_eq!(
            Repeat::Once { at }.check(now),
            Err(timing::Unfit::TooFar),
            "once at {at}"
        );
        assert_eq!(
            Repeat::EveryHours { hours: 1, from: at }.check(now),
            Err(timing::Unfit::TooFar),
            "every hour from {at}"
        );
    }
    let in_a_year = timing::to_ms(paris("2027-03-27 09:00"));
    assert_eq!(Repeat::Once { at: in_a_year }.check(now), Ok(()));
    let words = UiError::from(&AppError::UnfitSchedule(timing::Unfit::TooFar));
    assert!(words.detail.contains("hundred years"), "{}", words.detail);
}

#[test]
fn the_next_run_of_any_numbers_is_a_time_or_none_never_a_panic() {
    let clock = TestClock::at("2026-03-27 09:00");
    let now = clock.now();
    for from in EXTREMES {
        for hours in [1, 7, 168, u32::MAX] {
            let every = Repeat::EveryHours { hours, from };
            let _ = every.next_after(now, clock.as_ref());
        }
        let _ = Repeat::Once { at: from }.next_after(now, clock.as_ref());
    }
    let huge = Repeat::EveryHours {
        hours: u32::MAX,
        from: timing::to_ms(paris("2026-03-27 08:00")),
    };
    // Past the last instant chrono can hold: no next run, rather than a wrong one.
    assert!(huge
        .next_after(now, clock.as_ref())
        .is_none_or(|at| at > now));
}

#[tokio::test]
async fn a_schedule_file_with_extremes_is_read_and_looked_at_without_a_panic() {
    let clock = TestClock::at("2026-03-27 09:00");
    let dir = tempfile::tempdir().unwrap();
    let schedules: Vec<serde_json::Value> = EXTREMES
        .iter()
        .enumerate()
        .map(|(i, at)| {
            // JSON has no NaN or infinity: a file can only hold the finite extremes.
            let at = if at.is_finite() { *at } else { f64::MAX };
            serde_json::json!({
                "id": format!("s{i}"), "scope": SCOPE, "machineId": "m1",
                "machineName": "Design laptop", "title": "Odd", "text": "Odd",
                "reusableId": null,
                "repeat": if i % 2 == 0 {
                    serde_json::json!({ "kind": "everyHours", "hours": u32::MAX, "from": at })
                } else {
                    serde_json::json!({ "kind": "once", "at": at })
                },
                "paused": false, "createdAt": at, "settledUntil": at, "missed": at,
                // Long past, so the look misses it rather than sending it to nowhere.
                "held": -at.abs(),
                "last": null
            })
        })
        .collect();
    std::fs::write(
        dir.path().join("schedules.json"),
        serde_json::to_vec(
            &serde_json::json!({ "version": 1, "schedules": { "schedules": schedules } }),
        )
        .unwrap(),
    )
    .unwrap();
    // Connected, so the look goes as far as sending (to an address where nothing listens).
    let connection = Connection::default();
    let nowhere = Client::new(
        "http://127.0.0.1:9",
        Credential::api_key("sapi_test").unwrap(),
    )
    .unwrap();
    connection.activate(nowhere, SCOPE.into());
    let notify = std::sync::Arc::new(Quiet);
    let conversations = Conversations::new(
        connection.clone(),
        ConversationStore::open_in(dir.path()).unwrap(),
        crate::conversations::usage::UsageStore::open_in(dir.path()).unwrap(),
        notify.clone(),
    );
    let opened =
        Schedules::open_in(dir.path(), connection, conversations, clock, notify).expect("opens");
    assert!(
        opened.set_aside().is_none(),
        "the file was read, not set aside"
    );
    assert_eq!(opened.read(|b| b.schedules.len()), EXTREMES.len());
    // Every look the window and the runner take.
    assert!(opened.until_next() <= std::time::Duration::from_secs(20));
    let _ = opened.next_run();
    let _ = opened.keeps_running();
    opened.tick().await;
}

struct Quiet;

impl crate::conversations::Notify for Quiet {
    fn conversation_changed(&self, _: &Conversation, _: bool) {}
    fn needs_answer(&self, _: &Conversation, _: &ApprovalRequest) {}
    fn machine_starting(&self, _: &str) {}
    fn machines_changed(&self) {}
}

impl ScheduleNotify for Quiet {
    fn schedules_changed(&self) {}
    fn tell(&self, _: &Schedule, _: &str, _: &str) {}
    fn tell_digest(&self, _: &str, _: &str) {}
}
