//! Money before and during a task, against the Demo: after the first task Porthole offers,
//! once, a limit for every task; while a task without a cap runs the header says "$… so far";
//! the cost popover lists each task with its
//! amount, tokens only under Details; a limit for every task set in Settings is carried by the
//! next task (while it runs the header says "$… of $1.00", the live screen's now bar the same
//! words) and by a new schedule; the model picker says what
//! the chosen model costs in words and what the person's own tasks with it cost; the schedule
//! dialog estimates a run and a day from the earlier runs of the same words. Settings, taller
//! than the window, keeps its title and × while its body scrolls. In the light and the dark
//! scheme, axe over each screen.

use std::time::Duration;

use porthole_e2e::{by_testid, text_of, App, AppOptions, Eventually};
use thirtyfour::prelude::*;

use crate::accessibility::Audit;
use crate::flows::{select_machine, send_task, wait_for_status};
use crate::schedule_flows::{close_list, open_list, save_every_hour};

/// Slow enough steps (about six seconds each at the tests' time scale) to read the header while
/// the task runs; cheap on the default model.
const TASK: &str = "Take your time and find the weather in Lisbon";

async fn launch(scheme: &str) -> App {
    App::launch_with(AppOptions {
        env: crate::flows::scheme_env(scheme),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens")
}

/// The header's cost and the now bar's, read at one moment: they come from one state.
const COSTS: &str = r#"
    const said = (id) => document.querySelector(`[data-testid="${id}"]`)?.textContent.trim() ?? '';
    return [said('task-usage'), said('now-cost')];
"#;

/// Waits until the header's cost, while the task runs, passes `pred`; answers the words, and
/// checks the now bar says the same.
async fn header_cost_while_running(app: &App, pred: impl Fn(&str) -> bool) -> String {
    let mut seen = (String::new(), String::new());
    for _ in 0..600 {
        let got = app.driver.execute(COSTS, vec![]).await.unwrap();
        let [header, now]: [String; 2] = serde_json::from_value(got.json().clone()).unwrap();
        if pred(&header) && header == now {
            return header;
        }
        seen = (header, now);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the header never said the running task's cost as expected: last {seen:?}");
}

/// Settings against the window: scrolled to its end, the dialog inside the window, its body
/// scrolling, its last control shown within the body, title and × where they were.
const SETTINGS_FIT: &str = r#"
    const q = (id) => document.querySelector(`[data-testid="${id}"]`);
    const box = q('settings-dialog'), body = q('settings-dialog-body'), close = q('settings-dialog-close');
    const title = document.getElementById('settings-title');
    const before = [close.getBoundingClientRect().top, title.getBoundingClientRect().top];
    body.scrollTop = body.scrollHeight;
    const b = box.getBoundingClientRect(), inner = body.getBoundingClientRect();
    const end = q('demo-reset').getBoundingClientRect();
    const after = [close.getBoundingClientRect().top, title.getBoundingClientRect().top];
    return {
        inWindow: b.top >= 0 && b.bottom <= window.innerHeight,
        scrolls: body.scrollHeight > body.clientHeight && body.scrollTop > 0,
        endShown: end.top >= inner.top && end.bottom <= inner.bottom,
        headStays: before[0] === after[0] && before[1] === after[1] && after[0] >= b.top,
        height: window.innerHeight,
    };
"#;

async fn click(wait: &Eventually<'_>, testid: &str) {
    wait.element(testid)
        .await
        .unwrap_or_else(|e| panic!("{testid} is there: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("{testid} takes a click: {e}"));
}

async fn money(scheme: &str) {
    let app = launch(scheme).await;
    let wait = Eventually::new(&app.driver);
    let shot = |name: &str| format!("money-{scheme}-{name}");
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    let mut audit = Audit::new(&app, scheme).await;

    // The first task, without a cap: its stream carries no cost, so Porthole looks at the
    // service's poll for it, and the header says "$… so far" while it runs, updating. The
    // limit for every task is offered once.
    send_task(&app, TASK).await.expect("send");
    let so_far = header_cost_while_running(&app, |t| t.ends_with(" so far")).await;
    assert!(so_far.starts_with('$'), "{so_far}");
    let grown = header_cost_while_running(&app, |t| t.ends_with(" so far") && t != so_far).await;
    assert!(
        grown.starts_with('$'),
        "the cost grows as the agent works: {grown}"
    );
    let offer = wait
        .text("cap-offer", |t| !t.is_empty())
        .await
        .expect("the offer");
    assert!(
        offer.contains("Set a spending limit for every task?"),
        "{offer}"
    );
    app.screenshot(&shot("running")).await.unwrap();
    audit.check("money-running").await;
    click(&wait, "cap-offer-no").await;
    wait.gone("cap-offer")
        .await
        .expect("answered, the offer goes");
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed", "stopped"])
            .await
            .unwrap(),
        "succeeded"
    );

    // The popover: each task with its amount; tokens only under Details.
    click(&wait, "usage-button").await;
    let rows = wait
        .at_least("usage-task-row", 1)
        .await
        .expect("the task listed");
    let amount = text_of(
        &rows[0]
            .find(by_testid("usage-task-row-cost"))
            .await
            .unwrap(),
    )
    .await;
    assert!(amount.starts_with('$'), "{amount}");
    assert!(
        app.driver
            .find(by_testid("usage-task-row-tokens"))
            .await
            .is_err(),
        "no tokens before Details"
    );
    app.screenshot(&shot("popover")).await.unwrap();
    audit.check("money-popover").await;
    click(&wait, "usage-details-toggle").await;
    wait.element("usage-task-row-tokens")
        .await
        .expect("tokens under Details");
    app.driver
        .action_chain()
        .send_keys(Key::Escape)
        .perform()
        .await
        .unwrap();
    wait.gone("usage-popover").await.expect("Escape closes it");

    // A limit for every task, in Settings.
    click(&wait, "computer-menu").await;
    click(&wait, "menu-settings").await;
    let cap = wait
        .element("setting-cap")
        .await
        .expect("the limit in Settings");
    cap.send_keys("1.00").await.unwrap();
    cap.send_keys(Key::Tab).await.unwrap();
    wait.text("setting-cap-saved", |t| !t.is_empty())
        .await
        .expect("kept");
    app.screenshot(&shot("settings")).await.unwrap();
    audit.check("money-settings").await;
    // Taller than the window (760 px): the title and × stay, the rest scrolls inside the
    // dialog, and its last control (the Demo's reset) is reached, nothing cut off.
    let fit: serde_json::Value = app
        .driver
        .execute(SETTINGS_FIT, vec![])
        .await
        .unwrap()
        .json()
        .clone();
    assert_eq!(fit["inWindow"], true, "the dialog fits the window: {fit}");
    assert_eq!(fit["scrolls"], true, "its body scrolls: {fit}");
    assert_eq!(fit["endShown"], true, "its end is reached: {fit}");
    assert_eq!(fit["headStays"], true, "the title and × stay: {fit}");
    app.screenshot(&shot("settings-end")).await.unwrap();
    click(&wait, "settings-dialog-close").await;
    wait.gone("settings-dialog").await.unwrap();

    // The model picker: what the model costs in words, and the person's own range.
    click(&wait, "composer-more").await;
    let words = wait
        .text("model-cost-words", |t| !t.is_empty())
        .await
        .unwrap();
    assert_eq!(words, "The service picks the model for each task.");
    let range = wait
        .text("model-cost-range", |t| !t.is_empty())
        .await
        .expect("the range of the person's own task");
    assert!(
        range.starts_with("Your task with this model cost $"),
        "{range}"
    );
    let composer_cap = wait.element("cap-input").await.unwrap();
    assert_eq!(
        composer_cap.prop("value").await.unwrap().as_deref(),
        Some("1.00"),
        "the next task starts with the limit for every task"
    );
    app.screenshot(&shot("model-picker")).await.unwrap();
    audit.check("money-model-picker").await;

    // The next task carries it: "$… of $1.00" while it runs; no offer again.
    send_task(&app, TASK).await.expect("send again");
    let capped = header_cost_while_running(&app, |t| t.ends_with(" of $1.00")).await;
    assert!(capped.starts_with('$'), "{capped}");
    assert!(
        app.driver.find(by_testid("cap-offer")).await.is_err(),
        "offered once"
    );
    app.screenshot(&shot("capped")).await.unwrap();
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed", "stopped"])
            .await
            .unwrap(),
        "succeeded"
    );

    // A schedule of the same words: the limit carried, a run and a day estimated.
    let composer = wait.element("composer").await.unwrap();
    composer.click().await.unwrap();
    composer.send_keys(TASK).await.unwrap();
    click(&wait, "schedule-button").await;
    let dialog_cap = wait.element("schedule-cap").await.unwrap();
    for _ in 0..50 {
        if dialog_cap.prop("value").await.unwrap().as_deref() == Some("1.00") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        dialog_cap.prop("value").await.unwrap().as_deref(),
        Some("1.00")
    );
    // One clock: the summary says the time as the form's own time field shows it ("08:00 AM").
    let daily = wait
        .text("schedule-summary", |t| t.starts_with("Every day at "))
        .await
        .expect("a daily schedule at first");
    assert!(
        daily.contains("08:00\u{a0}AM")
            || daily.contains("08:00 AM")
            || daily.contains("08:00\u{202f}AM"),
        "{daily}"
    );
    app.screenshot(&shot("schedule-daily")).await.unwrap();
    wait.element("schedule-kind-everyHours")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let estimate = wait
        .text("schedule-estimate", |t| t.contains("a day at this rhythm"))
        .await
        .expect("the estimate");
    assert!(estimate.starts_with("About $"), "{estimate}");
    assert!(
        estimate.contains("From 2 earlier runs of these words."),
        "{estimate}"
    );
    app.screenshot(&shot("schedule-estimate")).await.unwrap();
    audit.check("money-schedule").await;
    save_every_hour(&app).await.expect("scheduled");
    open_list(&app).await.expect("list");
    wait.text("schedule-cap", |t| t == "Up to $1.00 a run")
        .await
        .expect("the new schedule carries the limit for every task");
    close_list(&app).await.expect("closed");

    if let Some(findings) = audit.report() {
        panic!("{findings}");
    }
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn money_before_and_during_a_task_in_the_light_scheme() {
    money("light").await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn money_before_and_during_a_task_in_the_dark_scheme() {
    money("dark").await;
}
