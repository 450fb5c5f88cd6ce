//! Ranges and estimates from kept tasks: few and many tasks, no history, tasks that are not
//! earlier tasks (running, never billed), another service's tasks and rows kept before the
//! model was recorded.

use std::collections::BTreeMap;

use porthole_client::events::{TaskUsage, UsageFigures};

use super::*;
use crate::schedules::timing::TimeOfDay;

fn figures(cost: f64, calls: u64) -> UsageFigures {
    UsageFigures {
        cost_usd: cost,
        model_calls: calls,
        ..Default::default()
    }
}

fn task(words: &str, model: Option<&str>, cost: f64) -> TaskUsageRow {
    TaskUsageRow {
        turn_id: format!("turn_{words}_{cost}"),
        task: words.into(),
        usage: TaskUsage {
            total: figures(cost, 2),
            by_model: BTreeMap::new(),
        },
        running: false,
        model: model.map(str::to_owned),
        scope: Some("demo".into()),
    }
}

#[test]
fn a_few_tasks_range_from_the_cheapest_to_the_costliest() {
    assert_eq!(range(&[]), None);
    let one = range(&[0.04]).unwrap();
    assert_eq!((one.low_usd, one.high_usd, one.tasks), (0.04, 0.04, 1));
    let three = range(&[0.09, 0.02, 0.05]).unwrap();
    assert_eq!(
        (three.low_usd, three.high_usd, three.tasks),
        (0.02, 0.09, 3)
    );
}

#[test]
fn many_tasks_leave_one_odd_task_out_of_the_typical_range() {
    let mut costs = vec![0.03; 9];
    costs.push(4.0);
    costs[0] = 0.02;
    let r = range(&costs).unwrap();
    assert_eq!(r.tasks, 10);
    assert_eq!(r.low_usd, 0.02);
    assert_eq!(r.high_usd, 0.03, "one $4 task among ten is not typical");
}

#[test]
fn each_model_has_the_range_of_its_own_ended_billed_tasks() {
    let mut running = task("Still going", Some("openai/gpt-5"), 3.0);
    running.running = true;
    let mut unbilled = task("Never billed", Some("openai/gpt-5"), 0.0);
    unbilled.usage.total = figures(0.0, 0);
    let free = task("Free model", Some("google/gemini-2.5-flash"), 0.0);
    let rows = vec![
        task("A", Some("openai/gpt-5"), 0.09),
        task("B", Some("openai/gpt-5"), 0.02),
        task("C", None, 0.01),
        running,
        unbilled,
        free,
    ];
    let ranges = model_ranges(&rows, "demo", "auto");
    let of = |m: &str| ranges.iter().find(|r| r.model == m).map(|r| r.range);
    let gpt = of("openai/gpt-5").unwrap();
    assert_eq!((gpt.low_usd, gpt.high_usd, gpt.tasks), (0.02, 0.09, 2));
    let auto = of("auto").expect("a task sent without a model ran on the default");
    assert_eq!((auto.low_usd, auto.high_usd, auto.tasks), (0.01, 0.01, 1));
    let flash = of("google/gemini-2.5-flash").expect("a billed free task cost nothing");
    assert_eq!(flash.high_usd, 0.0);
    assert_eq!(of("anthropic/claude-opus-4"), None, "no history, no range");
    assert!(model_ranges(&[], "demo", "auto").is_empty());
}

#[test]
fn another_services_tasks_and_unknown_old_rows_do_not_count() {
    let mut elsewhere = task("A", Some("openai/gpt-5"), 1.0);
    elsewhere.scope = Some("https://svc.example".into());
    // Kept before the model and scope were recorded: counts only when one model did it all.
    let mut old_one = task("B", None, 0.05);
    old_one.scope = None;
    old_one
        .usage
        .by_model
        .insert("openai/gpt-5".into(), figures(0.05, 2));
    let mut old_two = old_one.clone();
    old_two
        .usage
        .by_model
        .insert("openai/gpt-5-mini".into(), figures(0.01, 1));
    let ranges = model_ranges(&[elsewhere, old_one, old_two], "demo", "auto");
    assert_eq!(ranges.len(), 1);
    assert_eq!(ranges[0].model, "openai/gpt-5");
    assert_eq!(ranges[0].range.high_usd, 0.05);
}

#[test]
fn a_schedule_is_estimated_from_earlier_runs_of_the_same_words() {
    let rows = vec![
        task("Check the weather in Rome", None, 0.04),
        task("  check the weather  in ROME ", None, 0.06),
        task("Check the weather in Paris", None, 1.0),
    ];
    let every_3h = Repeat::EveryHours {
        hours: 3,
        from: 0.0,
    };
    let e = run_estimate(&rows, "demo", "Check the weather in Rome", Some(&every_3h));
    assert_eq!(e.runs, 2);
    assert!((e.per_run_usd.unwrap() - 0.05).abs() < 1e-9);
    assert!((e.per_day_usd.unwrap() - 0.40).abs() < 1e-9, "8 runs a day");

    let daily = Repeat::Daily {
        time: TimeOfDay { hour: 8, minute: 0 },
    };
    let e = run_estimate(&rows, "demo", "Check the weather in Rome", Some(&daily));
    assert!((e.per_day_usd.unwrap() - 0.05).abs() < 1e-9);
    let once = Repeat::Once { at: 0.0 };
    let e = run_estimate(&rows, "demo", "Check the weather in Rome", Some(&once));
    assert_eq!(e.per_day_usd, None, "a single run has no day");
    assert!(e.per_run_usd.is_some());
    let e = run_estimate(&rows, "demo", "Check the weather in Rome", None);
    assert_eq!(e.per_day_usd, None, "no rhythm yet");
}

#[test]
fn words_never_run_before_or_no_words_estimate_nothing() {
    let rows = vec![task("Check the weather in Rome", None, 0.04)];
    let none = RunEstimate {
        runs: 0,
        per_run_usd: None,
        per_day_usd: None,
    };
    let daily = Repeat::Daily {
        time: TimeOfDay { hour: 8, minute: 0 },
    };
    assert_eq!(
        run_estimate(&rows, "demo", "Something new", Some(&daily)),
        none
    );
    assert_eq!(run_estimate(&rows, "demo", "   ", Some(&daily)), none);
    assert_eq!(
        run_estimate(&[], "demo", "Check the weather in Rome", Some(&daily)),
        none
    );
}

#[test]
fn rhythms_slower_than_a_day_have_no_day_figure() {
    assert_eq!(
        runs_a_day(&Repeat::EveryHours {
            hours: 24,
            from: 0.0
        }),
        Some(1.0)
    );
    assert_eq!(
        runs_a_day(&Repeat::EveryHours {
            hours: 48,
            from: 0.0
        }),
        None
    );
    assert_eq!(
        runs_a_day(&Repeat::EveryHours {
            hours: 6,
            from: 0.0
        }),
        Some(4.0)
    );
}
