//! The Demo remembers: a task run on the Demo is still there after Porthole is closed and
//! opened again, on the same computer, and the conversation goes on; "Reset the Demo" in
//! Settings (behind a confirmation saying what goes) starts it fresh without a restart. In
//! the light and the dark scheme, with axe over the Settings dialog and its confirmation, and
//! the new button reached with the keyboard.

use std::time::Duration;

use porthole_e2e::{by_testid, App, AppOptions, Eventually};
use thirtyfour::prelude::*;

use crate::accessibility::Audit;
use crate::flows::{restart_on, select_machine, send_task, thread_texts, wait_for_status};
use crate::replay::keep_screenshot;

const TASK: &str = "Check the weather in Oslo";

fn scheme_env(scheme: &str) -> Vec<(String, String)> {
    let gtk = if scheme == "dark" {
        "Adwaita:dark"
    } else {
        "Adwaita"
    };
    vec![
        ("PORTHOLE_THEME".into(), scheme.into()),
        ("GTK_THEME".into(), gtk.into()),
        ("PORTHOLE_SIM_TIME_SCALE".into(), "0.02".into()),
    ]
}

/// Waits until the Demo's kept world holds `words` (`gone`: no longer holds them). The app
/// saves it a moment after each change; a restart before that would find the older copy, as
/// a crash of the app would.
async fn kept_world_says(dir: &std::path::Path, words: &str, gone: bool) {
    let file = dir.join("demo-world.json");
    let start = std::time::Instant::now();
    loop {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        if text.contains(words) != gone {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the Demo's kept world never {} {words:?}",
            if gone { "let go of" } else { "held" }
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn remembers_and_resets(scheme: &str) {
    let env = scheme_env(scheme);
    let first = App::launch_with(AppOptions {
        env: env.clone(),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    select_machine(&first, "Design laptop")
        .await
        .expect("machine");
    send_task(&first, TASK).await.expect("send");
    assert_eq!(
        wait_for_status(&first, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    let dir = first.data_dir().to_path_buf();
    kept_world_says(&dir, TASK, false).await;
    kept_world_says(&dir, "\"Succeeded\"", false).await;

    // Closed and opened again, as a person restarts Porthole.
    let (_keep, app) = restart_on(first, env, "Design laptop").await;
    let wait = Eventually::new(&app.driver);
    wait.text("final-answer", |t| t.contains("Oslo"))
        .await
        .expect("the answer from before the restart is shown");
    let users = thread_texts(&app, "user").await.unwrap();
    assert_eq!(users.len(), 1, "the task is there, once: {users:?}");
    assert!(users[0].contains(TASK), "{users:?}");
    let rows = wait.at_least("conversation-row", 1).await.unwrap();
    assert_eq!(
        rows.len(),
        1,
        "its conversation is listed under the same computer"
    );
    keep_screenshot(&app, &format!("demo-remembers-{scheme}-1-after-restart")).await;

    // The conversation goes on.
    send_task(&app, "Now check the weather in Rome")
        .await
        .expect("send");
    let start = std::time::Instant::now();
    let answers = loop {
        let answers = thread_texts(&app, "answer").await.unwrap();
        if answers.len() >= 2 || start.elapsed() > Duration::from_secs(90) {
            break answers;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(
        answers.len(),
        2,
        "the continued conversation answers: {answers:?}"
    );
    assert!(answers[1].contains("Rome"), "{answers:?}");
    let users = thread_texts(&app, "user").await.unwrap();
    assert_eq!(users.len(), 2, "both tasks in one thread: {users:?}");
    keep_screenshot(&app, &format!("demo-remembers-{scheme}-2-continued")).await;

    // Settings: the new control is reached with the keyboard, and its confirmation says
    // what goes.
    wait.element("open-settings")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let language = wait.element("setting-language").await.unwrap();
    app.driver
        .execute("arguments[0].focus();", vec![language.to_json().unwrap()])
        .await
        .unwrap();
    language.send_keys(Key::Tab).await.unwrap();
    let focused = app
        .driver
        .execute(
            "return document.activeElement?.dataset?.testid ?? '';",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        focused.json().as_str(),
        Some("demo-reset"),
        "Tab from the language reaches Reset the Demo"
    );
    app.driver
        .active_element()
        .await
        .unwrap()
        .send_keys(Key::Enter)
        .await
        .unwrap();
    let warning = wait
        .text("demo-reset-confirm", |t| !t.is_empty())
        .await
        .unwrap();
    assert!(
        warning.contains("come back fresh") && warning.contains("removed"),
        "says what goes: {warning}"
    );
    let focused = app
        .driver
        .execute(
            "return document.activeElement?.dataset?.testid ?? '';",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        focused.json().as_str(),
        Some("demo-reset-no"),
        "the safe answer has the focus"
    );
    let mut audit = Audit::new(&app, scheme).await;
    audit.check("settings-reset-demo").await;
    if let Some(findings) = audit.report() {
        panic!("{findings}");
    }
    keep_screenshot(&app, &format!("demo-remembers-{scheme}-3-confirm")).await;

    wait.element("demo-reset-yes")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    Eventually::new(&app.driver)
        .within(Duration::from_secs(60))
        .element("demo-reset-done")
        .await
        .expect("the Demo says it started fresh");
    keep_screenshot(&app, &format!("demo-remembers-{scheme}-4-reset-done")).await;
    wait.element("settings-dialog-close")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();

    // Fresh: the same computers, nothing said on them (a new, empty conversation is the
    // computer's current one), and the kept world forgot the task.
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    let start = std::time::Instant::now();
    let rows = loop {
        let mut rows = Vec::new();
        for row in app
            .driver
            .find_all(by_testid("conversation-row"))
            .await
            .unwrap()
        {
            rows.push(porthole_e2e::text_of(&row).await);
        }
        let old = rows
            .iter()
            .any(|r| r.contains("Oslo") || r.contains("Rome"));
        if !old || start.elapsed() > Duration::from_secs(30) {
            break rows;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(
        rows.iter()
            .all(|r| !r.contains("Oslo") && !r.contains("Rome")),
        "the Demo's conversations are removed: {rows:?}"
    );
    assert!(rows.len() <= 1, "at most the new, empty one: {rows:?}");
    let users = thread_texts(&app, "user").await.unwrap();
    assert!(
        users.is_empty(),
        "nothing said on the fresh computer: {users:?}"
    );
    kept_world_says(&dir, TASK, true).await;
    keep_screenshot(&app, &format!("demo-remembers-{scheme}-5-fresh")).await;
    app.quit().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn the_demo_remembers_after_a_restart_and_resets_in_settings_light() {
    remembers_and_resets("light").await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn the_demo_remembers_after_a_restart_and_resets_in_settings_dark() {
    remembers_and_resets("dark").await;
}
