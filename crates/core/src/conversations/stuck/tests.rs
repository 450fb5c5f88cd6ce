//! The stuck watch alone, fed updates and the time as a task would: each signal fires once,
//! and a task making steps at a healthy pace is never asked about.

use porthole_client::events::{TaskUsage, UsageFigures};
use serde_json::json;

use super::*;

const T: Thresholds = Thresholds {
    repeats: REPEATS,
    quiet_ms: QUIET_MS,
    cost_usd: COST_USD,
    cost_rises: COST_RISES,
};
const SECOND: f64 = 1000.0;

fn step(title: &str) -> TaskUpdate {
    TaskUpdate::Tool {
        tool_call_id: format!("call-{title}"),
        tool_name: "execute".into(),
        input: Some(json!({ "title": title, "code": "" })),
    }
}

/// A step as the event stream carries it: a call without a title, named by its first line.
fn streamed_step(title: &str) -> [TaskUpdate; 2] {
    [
        TaskUpdate::Tool {
            tool_call_id: "call".into(),
            tool_name: "execute".into(),
            input: None,
        },
        TaskUpdate::Progress {
            text: title.into(),
            tool: Some("execute".into()),
        },
    ]
}

fn said(text: &str) -> TaskUpdate {
    TaskUpdate::Narration {
        id: "n".into(),
        text: text.into(),
    }
}

fn cost(usd: f64) -> TaskUpdate {
    TaskUpdate::Usage {
        usage: Some(TaskUsage {
            total: UsageFigures {
                cost_usd: usd,
                ..UsageFigures::default()
            },
            by_model: Default::default(),
        }),
        session_usage: None,
    }
}

#[test]
fn the_same_step_three_times_in_a_row_asks_once() {
    let mut w = Stuck::default();
    w.observe(&step("Open Browser"), 0.0, &T);
    for k in 1..REPEATS {
        assert_eq!(w.asking, None, "not yet after {k} looks");
        w.observe(&step("Look for the Save button"), k as f64 * SECOND, &T);
    }
    w.observe(&step("Look for the Save button"), 10.0 * SECOND, &T);
    assert_eq!(w.asking, Some(StuckSignal::Repeating));
}

#[test]
fn the_same_step_on_the_stream_path_counts_as_well() {
    let mut w = Stuck::default();
    for k in 0..REPEATS {
        for u in streamed_step("Look for the Save button") {
            w.observe(&u, k as f64 * SECOND, &T);
        }
    }
    assert_eq!(w.asking, Some(StuckSignal::Repeating));
}

#[test]
fn the_same_narration_three_times_in_a_row_asks() {
    let mut w = Stuck::default();
    for k in 0..REPEATS {
        assert_eq!(w.asking, None);
        w.observe(&said("The button is not there yet."), k as f64 * SECOND, &T);
    }
    assert_eq!(w.asking, Some(StuckSignal::Repeating));
}

#[test]
fn no_new_step_for_the_quiet_time_asks_but_not_while_the_person_is_asked() {
    let mut w = Stuck::default();
    w.observe(&step("Open Browser"), 0.0, &T);
    w.tick(QUIET_MS - SECOND, true, &T);
    assert_eq!(w.asking, None, "a minute short of quiet");
    // Waiting on a card for an hour is the person's time, not the agent's.
    w.tick(QUIET_MS - SECOND / 2.0, false, &T);
    w.tick(60.0 * 60.0 * SECOND, false, &T);
    assert_eq!(w.asking, None);
    let back = 61.0 * 60.0 * SECOND;
    w.tick(back, true, &T);
    assert_eq!(w.asking, None, "time counts again from the answer");
    w.tick(back + QUIET_MS, true, &T);
    assert_eq!(w.asking, Some(StuckSignal::Quiet));
}

#[test]
fn cost_rising_with_no_new_step_asks() {
    let mut w = Stuck::default();
    w.observe(&step("Open Browser"), 0.0, &T);
    w.observe(&cost(0.01), SECOND, &T);
    for k in 1..=COST_RISES {
        assert_eq!(w.asking, None, "{k}");
        w.observe(&cost(0.01 + k as f64 * 0.2), k as f64 * SECOND, &T);
    }
    assert_eq!(w.asking, Some(StuckSignal::CostWithoutSteps));
}

#[test]
fn one_large_model_call_is_not_a_loop() {
    let mut w = Stuck::default();
    w.observe(&step("Open Browser"), 0.0, &T);
    w.observe(&cost(0.01), SECOND, &T);
    w.observe(&cost(1.2), 2.0 * SECOND, &T);
    assert_eq!(w.asking, None);
}

#[test]
fn a_healthy_task_is_never_asked_about() {
    let mut w = Stuck::default();
    let mut now = 0.0;
    let mut spent = 0.0;
    for k in 0..200 {
        // New steps a minute apart, a look repeated twice now and then, a cent a step, and a
        // long wait on a card in the middle.
        w.observe(&said(&format!("Now item {k}.")), now, &T);
        w.observe(&step(&format!("Check item {k}")), now, &T);
        if k % 7 == 0 {
            w.observe(&step(&format!("Check item {k}")), now + SECOND, &T);
        }
        spent += 0.01;
        w.observe(&cost(spent), now + 2.0 * SECOND, &T);
        w.tick(now + 59.0 * SECOND, k != 100, &T);
        if k == 100 {
            now += 3600.0 * SECOND;
        }
        now += 60.0 * SECOND;
        assert_eq!(w.asking, None, "step {k}");
    }
}

#[test]
fn keep_going_is_never_asked_again_and_a_hint_starts_a_new_episode() {
    let mut w = Stuck::default();
    for k in 0..REPEATS {
        w.observe(&step("Look"), k as f64, &T);
    }
    assert_eq!(w.asking, Some(StuckSignal::Repeating));
    w.hinted(10.0);
    assert_eq!(w.asking, None);
    w.observe(&step("Look"), 11.0, &T);
    assert_eq!(w.asking, None, "the hint's episode counts afresh");
    for k in 0..REPEATS {
        w.observe(&step("Look"), 12.0 + k as f64, &T);
    }
    assert_eq!(w.asking, Some(StuckSignal::Repeating), "asked again");
    w.keep_going();
    for k in 0..20 {
        w.observe(&step("Look"), 20.0 + k as f64, &T);
        w.observe(&said("Again."), 20.0 + k as f64, &T);
    }
    w.tick(QUIET_MS * 10.0, true, &T);
    assert_eq!(w.asking, None);
    // Saved and read back (a restart), it still does not ask.
    let back: Stuck = serde_json::from_str(&serde_json::to_string(&w).unwrap()).unwrap();
    assert!(back.let_run);
}

#[test]
fn an_untouched_watch_is_not_written() {
    assert_eq!(serde_json::to_string(&Stuck::default()).unwrap(), "{}");
}
