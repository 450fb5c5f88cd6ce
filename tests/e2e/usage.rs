//! What a conversation cost, in the cost popover the header opens: two tasks in one
//! conversation each keep their own cost in dollars, the conversation's total is theirs added
//! up, the header's figure is the last task's, tokens and AI models show only under Details,
//! and all of it is the same after a restart. The test runs the simulator itself, so the
//! conversation's session outlives the app.

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

/// Opens the cost popover from the header, as a person clicks it; a click elsewhere (the
/// message box) closes it, so it is opened again each time it is read.
async fn open_popover(app: &App) -> Result<WebElement> {
    let wait = Eventually::new(&app.driver);
    let button = wait.element("usage-button").await?;
    if button.attr("aria-expanded").await?.as_deref() != Some("true") {
        button.click().await?;
    }
    wait.element("usage-popover").await
}

/// Opens the popover and waits for `n` finished task rows in it.
async fn finished_rows(app: &App, n: usize) -> Result<Vec<(String, f64)>> {
    let start = std::time::Instant::now();
    loop {
        let popover = open_popover(app).await?;
        let rows = task_rows(&popover.find_all(by_testid("usage-task-row")).await?).await?;
        if rows.len() == n && rows.iter().all(|(words, _)| !words.contains("running")) {
            return Ok(rows);
        }
        if start.elapsed() > std::time::Duration::from_secs(60) {
            return Err(format!("expected {n} finished tasks, saw {rows:?}").into());
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

/// The header's figure: what this (the last) task cost, in dollars.
async fn header_cost(app: &App) -> Result<String> {
    let shown = Eventually::new(&app.driver)
        .text("task-usage", |t| t.trim().starts_with('$'))
        .await?;
    Ok(shown.trim().to_owned())
}

/// What the popover says the whole conversation cost.
async fn conversation_cost(app: &App) -> Result<f64> {
    let popover = open_popover(app).await?;
    Ok(dollars(
        &text_of(&popover.find(by_testid("usage-session-cost")).await?).await,
    ))
}

/// "$24.99 left" as a number.
fn left(text: &str) -> f64 {
    dollars(
        text.trim()
            .trim_end_matches('.')
            .trim_end_matches("left on your account")
            .trim_end_matches("left"),
    )
}

/// The balance, in the sidebar and in the popover, is what was left before the conversation
/// less what it cost (each figure shown rounded to the cent): read again once a task ends.
async fn balance_is(app: &App, before: f64, spent: f64) -> Result<()> {
    let wait = Eventually::new(&app.driver);
    let near = |t: &str| (left(t) - (before - spent)).abs() <= 0.016;
    wait.text("account-credits", near)
        .await
        .map_err(|e| format!("the sidebar's balance is not ${before:.2} less ${spent:.2}: {e}"))?;
    open_popover(app).await?;
    wait.text("usage-left", near)
        .await
        .map_err(|e| format!("the popover's balance is not ${before:.2} less ${spent:.2}: {e}"))?;
    Ok(())
}

/// The header, the popover's rows and its total agree: the header's figure is the last task's
/// row (and the popover's "This task" once there are several), and the conversation's total is
/// its tasks added up (each shown rounded to the cent).
async fn agrees_with_header(app: &App, rows: &[(String, f64)]) -> Result<f64> {
    let header = header_cost(app).await?;
    let last = rows.last().ok_or("no task rows")?;
    assert_eq!(
        dollars(&header),
        last.1,
        "the header's {header} is the last task's row: {rows:?}"
    );
    let popover = open_popover(app).await?;
    if rows.len() > 1 {
        let this_task = text_of(&popover.find(by_testid("usage-this-task")).await?).await;
        assert_eq!(
            this_task.trim(),
            format!("This task: {header}"),
            "the popover's This task is the header's figure"
        );
    }
    let sum: f64 = rows.iter().map(|(_, cost)| cost).sum();
    let total = conversation_cost(app).await?;
    assert!(
        (total - sum).abs() <= 0.005 * (rows.len() + 1) as f64 + 1e-9,
        "the conversation's ${total:.2} is its tasks added up: {rows:?}"
    );
    assert!(
        popover.find(by_testid("usage-untracked")).await.is_err(),
        "every task of the conversation was followed"
    );
    Ok(total)
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
    let before = left(
        &wait
            .text("account-credits", |t| t.contains('$'))
            .await
            .expect("the balance before the conversation"),
    );

    send_task(&app, FIRST).await.expect("send");
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    let one = finished_rows(&app, 1).await.expect("the first task's row");
    assert!(one[0].0.starts_with(&format!("1. {FIRST}")), "{one:?}");
    let first_total = agrees_with_header(&app, &one).await.unwrap();
    assert!(first_total > 0.0, "the first task cost something: {one:?}");

    // A second task in the same conversation: typing it closes the popover; opened again, it
    // lists both.
    send_task(&app, SECOND).await.expect("send");
    wait.gone("usage-popover")
        .await
        .expect("a click in the message box closes the popover");
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    let rows = finished_rows(&app, 2).await.expect("both tasks' rows");
    assert!(rows[0].0.starts_with(&format!("1. {FIRST}")), "{rows:?}");
    assert!(rows[1].0.starts_with(&format!("2. {SECOND}")), "{rows:?}");
    assert_eq!(
        rows[0].1, one[0].1,
        "the first task keeps its own cost: {rows:?}"
    );
    assert!(
        rows[1].1 > rows[0].1,
        "the expensive task costs more: {rows:?}"
    );
    let total = agrees_with_header(&app, &rows).await.unwrap();
    assert!(
        total > first_total && total > rows[1].1,
        "the conversation's total grew by the second task: ${total:.2}, {rows:?}"
    );
    balance_is(&app, before, total)
        .await
        .expect("the balance counts both tasks");
    let popover = open_popover(&app).await.unwrap();
    let costliest = text_of(&popover.find(by_testid("usage-costliest")).await.unwrap()).await;
    assert!(
        costliest.contains(SECOND),
        "the costliest task is named: {costliest}"
    );
    // Money first; tokens and models only under Details.
    let words = text_of(&popover).await;
    assert!(
        !words.contains("token"),
        "no tokens before Details: {words}"
    );
    assert!(
        popover
            .find_all(by_testid("usage-task-row-model"))
            .await
            .unwrap()
            .is_empty(),
        "no AI models before Details: {words}"
    );
    app.screenshot("usage-two-tasks").await.unwrap();
    popover
        .find(by_testid("usage-details-toggle"))
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
    for row in wait.at_least("usage-task-row-tokens", 2).await.unwrap() {
        let tokens = text_of(&row).await;
        assert!(
            tokens.contains("tokens") && tokens.chars().any(|c| c.is_ascii_digit()),
            "each task's tokens under Details: {tokens}"
        );
    }
    wait.text("usage-session-input", |t| {
        t.chars().any(|c| c.is_ascii_digit()) && t != "0"
    })
    .await
    .expect("the conversation's input tokens");
    let details_cost = text_of(
        &wait
            .element("usage-session")
            .await
            .unwrap()
            .find(by_testid("usage-session-cost"))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(
        dollars(&details_cost),
        total,
        "Details add up to the same total"
    );
    app.screenshot("usage-details").await.unwrap();

    // After a restart both tasks, their costs and the total are still there.
    let (keep, again) = restart_on(app, env, "Design laptop").await;
    let after = finished_rows(&again, 2).await.expect("both tasks kept");
    assert_eq!(after, rows, "the same tasks and costs after a restart");
    assert_eq!(
        agrees_with_header(&again, &after).await.unwrap(),
        total,
        "the same total after a restart"
    );
    balance_is(&again, before, total)
        .await
        .expect("the same balance after a restart");
    again.screenshot("usage-after-restart").await.unwrap();
    again.quit().await;
    drop(keep);
    sim.shutdown().await;
}
