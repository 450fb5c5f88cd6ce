//! Usage across tasks, in a popover from the header: two tasks in one conversation each keep
//! their own cost (tokens and models under Details), beside the whole conversation's, and
//! still do after a restart. The test runs the
//! simulator itself, so the conversation's session outlives the app.

use porthole_e2e::{by_testid, text_of, App, AppOptions, Eventually, Result};
use thirtyfour::WebElement;

use crate::flows::{own_demo, restart_on, select_machine, send_task, wait_for_status};

const FIRST: &str = "Look up the price of coffee";
const SECOND: &str = "Write an expensive report on tea";

/// "$1.23" as a number.
fn dollars(text: &str) -> f64 {
    text.trim()
        .trim_start_matches('$')
        .parse()
        .unwrap_or_else(|_| panic!("a cost in dollars: {text:?}"))
}

/// Each task row's words and cost, in order.
async fn task_rows(rows: &[WebElement]) -> Result<Vec<(String, f64)>> {
    let mut out = Vec::new();
    for row in rows {
        let cost = text_of(&row.find(by_testid("usage-task-row-cost")).await?).await;
        out.push((text_of(row).await, dollars(&cost)));
    }
    Ok(out)
}

/// Opens the usage panel and waits for `n` finished task rows.
async fn finished_rows(app: &App, n: usize) -> Result<Vec<(String, f64)>> {
    let wait = Eventually::new(&app.driver);
    let start = std::time::Instant::now();
    loop {
        let rows = task_rows(&wait.at_least("usage-task-row", n).await?).await?;
        if rows.len() == n && rows.iter().all(|(words, _)| !words.contains("running")) {
            return Ok(rows);
        }
        if start.elapsed() > std::time::Duration::from_secs(60) {
            return Err(format!("expected {n} finished tasks, saw {rows:?}").into());
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn usage_of_every_task_of_a_conversation_and_its_total() {
    let (sim, env) = own_demo(0.02).await;
    let app = App::launch_with(AppOptions {
        env: env.clone(),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver);
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");

    send_task(&app, FIRST).await.expect("send");
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    wait.element("usage-button")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let one = finished_rows(&app, 1).await.expect("the first task's row");
    assert!(one[0].0.contains(FIRST), "{one:?}");

    // A second task in the same conversation: the panel, left open, lists both.
    send_task(&app, SECOND).await.expect("send");
    let rows = finished_rows(&app, 2).await.expect("both tasks' rows");
    assert!(rows[0].0.starts_with(&format!("1. {FIRST}")), "{rows:?}");
    assert!(rows[1].0.starts_with(&format!("2. {SECOND}")), "{rows:?}");
    assert_eq!(
        rows[0].1, one[0].1,
        "the first task keeps its own figures: {rows:?}"
    );
    assert!(
        rows[1].1 > rows[0].1,
        "the expensive task costs more: {rows:?}"
    );
    // Money first; tokens and models only under Details.
    assert!(
        !text_of(&wait.element("usage-popover").await.unwrap())
            .await
            .contains("token"),
        "no tokens before Details"
    );
    wait.element("usage-details-toggle")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let models = wait
        .at_least("usage-task-row-model", 2)
        .await
        .expect("each task by model");
    let model = models[0]
        .attr("data-model")
        .await
        .unwrap()
        .unwrap_or_default();
    assert!(!model.is_empty());

    // The conversation's total is both tasks (each shown rounded to the cent).
    let total = wait
        .text("usage-session-cost", |t| {
            t.starts_with('$') && (dollars(t) - (rows[0].1 + rows[1].1)).abs() <= 0.011
        })
        .await
        .expect("the conversation's total is the sum of its tasks");
    assert!(dollars(&total) > rows[1].1);
    wait.text("usage-session-input", |t| {
        t.chars().any(|c| c.is_ascii_digit()) && t != "0"
    })
    .await
    .expect("the conversation's input tokens");
    assert!(
        app.driver.find(by_testid("usage-untracked")).await.is_err(),
        "every task of the conversation was followed"
    );
    crate::keys::settle().await;
    app.screenshot("usage-two-tasks").await.unwrap();

    // After a restart both tasks are still there.
    let (keep, again) = restart_on(app, env, "Design laptop").await;
    Eventually::new(&again.driver)
        .element("usage-button")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let after = finished_rows(&again, 2).await.expect("both tasks kept");
    assert_eq!(after, rows, "the same tasks and figures after a restart");
    crate::keys::settle().await;
    again.screenshot("usage-after-restart").await.unwrap();
    again.quit().await;
    drop(keep);
    sim.shutdown().await;
}
