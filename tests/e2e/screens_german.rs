//! The same walk as `screens`, for a person whose system speaks German: the app started with
//! a German locale, every main screen and dialog visited, each kept as `screen-de-NN-<name>.png`
//! (and two more: the composer's more options, scheduling a task) to be looked at for German
//! words that are cut, overflow or wrap badly. On each screen the test reads a German word
//! where the person would read it, so a screen left in English fails.
//! Elements are found by their test ids, never by their words.

use std::time::Duration;

use porthole_e2e::{by_testid, App, AppOptions, Eventually};

use crate::flows::{open_console, send_task, wait_for_status};
use crate::replay::{keep_screenshot, run_recorded_task_started};

/// Slow enough to catch a task while it runs, fast enough for a test.
const SCALE: f64 = 0.4;

async fn click(wait: &Eventually<'_>, testid: &str) {
    wait.element(testid)
        .await
        .unwrap_or_else(|e| panic!("{testid} is there: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("{testid} can be clicked: {e}"));
}

/// Waits until the element's text holds this German word.
async fn says(wait: &Eventually<'_>, testid: &str, german: &str) {
    wait.text(testid, |t| t.contains(german))
        .await
        .unwrap_or_else(|e| panic!("{testid} says {german:?}: {e}"));
}

/// The element's label for screen readers, in German.
async fn labelled(wait: &Eventually<'_>, testid: &str, german: &str) {
    let label = wait
        .element(testid)
        .await
        .unwrap_or_else(|e| panic!("{testid} is there: {e}"))
        .attr("aria-label")
        .await
        .unwrap()
        .unwrap_or_default();
    assert_eq!(label, german, "{testid}'s label is German");
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn every_main_screen_in_german() {
    let app = App::launch_with(AppOptions {
        demo_time_scale: Some(SCALE),
        env: vec![("LC_ALL".into(), "de_DE.UTF-8".into())],
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(Duration::from_secs(180));
    let shot = |name: &str| format!("screen-de-{name}");

    // 1. The computer list, a computer chosen, its live screen beside the empty conversation.
    wait.at_least("machine-row", 1).await.expect("computers");
    crate::flows::select_machine(&app, "Design laptop")
        .await
        .unwrap();
    says(&wait, "live-view-only", "Nur ansehen").await;
    says(&wait, "send-button", "Senden").await;
    // The Demo's first-run card, in German with "du".
    says(&wait, "first-run", "Das ist ein Übungscomputer").await;
    says(&wait, "first-run", "wirst du gefragt").await;
    says(&wait, "first-run", "Drück Strg+/").await;
    keep_screenshot(&app, &shot("01-computers")).await;

    // 2. A task running: the live screen is the hero.
    run_recorded_task_started(&app, "Look up the weather in Paris")
        .await
        .expect("a recorded task starts");
    let status = wait_for_status(&app, &["running", "succeeded"])
        .await
        .unwrap();
    if status == "running" {
        keep_screenshot(&app, &shot("02-running")).await;
    }
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    says(&wait, "status-chip", "Erledigt").await;

    // 3. The finished answer and what can be done with it.
    says(&wait, "answer-steps", "Schritte ansehen").await;
    keep_screenshot(&app, &shot("03-answer")).await;

    // 4–6. Its steps, checking it, saving it as a reusable task: each a sheet.
    click(&wait, "answer-steps").await;
    wait.at_least("replay-step", 1).await.expect("the steps");
    says(&wait, "sheet", "Die Schritte").await;
    keep_screenshot(&app, &shot("04-steps")).await;
    click(&wait, "sheet-close").await;
    click(&wait, "answer-check").await;
    says(&wait, "judge-run", "Prüfen").await;
    keep_screenshot(&app, &shot("05-check")).await;
    click(&wait, "sheet-close").await;
    click(&wait, "answer-reusable").await;
    wait.element("reusable-learn")
        .await
        .expect("saving as reusable");
    says(&wait, "sheet", "Diese Aufgabe speichern").await;
    keep_screenshot(&app, &shot("06-save-reusable")).await;
    click(&wait, "sheet-close").await;

    // 7. Usage.
    click(&wait, "usage-button").await;
    says(&wait, "usage-panel", "Diese Unterhaltung hat").await;
    keep_screenshot(&app, &shot("07-usage")).await;
    click(&wait, "usage-button").await;

    // 8. An approval.
    send_task(&app, "Delete the old files in Downloads")
        .await
        .unwrap();
    long.element("approval-deny")
        .await
        .expect("the agent asks first");
    says(&wait, "approval-deny", "Nicht löschen").await;
    // Porthole's own German sentence leads; the agent's English words are folded under it,
    // and the thread's line says the deletion in German too.
    says(&wait, "approval-title", "endgültig löschen").await;
    says(
        &wait,
        "approval-agent-words",
        "Was der Agent geschrieben hat",
    )
    .await;
    let folded = wait.element("approval-agent-words").await.unwrap();
    assert_eq!(
        folded.attr("open").await.unwrap(),
        None,
        "folded until asked for"
    );
    let asked = crate::flows::thread_words(&app, "approval").await;
    assert!(
        asked.iter().any(|l| l.contains("Den Ordner old-reports")),
        "the thread's line in German: {asked:?}"
    );
    keep_screenshot(&app, &shot("08-approval")).await;
    click(&wait, "approval-deny").await;
    wait_for_status(&app, &["succeeded", "failed", "stopped"])
        .await
        .unwrap();
    // Declined: the chip says what did not happen, in German, never a green "Erledigt".
    says(&wait, "status-chip", "Nicht erledigt: du hast abgelehnt").await;

    // 9–10. The account: sign-in first, the rest under "Use an API key instead / Advanced".
    click(&wait, "open-keys").await;
    says(&wait, "keys-page", "Konto").await;
    keep_screenshot(&app, &shot("09-account")).await;
    crate::flows::unfold_advanced(&app).await.unwrap();
    wait.element("connect-api-key")
        .await
        .expect("the API key form");
    says(&wait, "keys-page", "API-Schlüssel").await;
    keep_screenshot(&app, &shot("10-account-advanced")).await;
    click(&wait, "keys-page-close").await;

    // 11. A new computer, from under the computer list.
    click(&wait, "new-computer").await;
    wait.element("computer-name").await.expect("the form");
    says(&wait, "new-computer-dialog", "Computer erstellen").await;
    keep_screenshot(&app, &shot("11-new-computer")).await;
    click(&wait, "new-computer-dialog-close").await;

    // 12–13. Settings with developer tools on, then the console from the computer's menu.
    click(&wait, "open-settings").await;
    let setting = wait.element("setting-developer-tools").await.unwrap();
    if !setting.is_selected().await.unwrap() {
        setting.click().await.unwrap();
    }
    says(&wait, "settings-dialog", "Einstellungen").await;
    keep_screenshot(&app, &shot("12-settings")).await;
    click(&wait, "settings-dialog-close").await;
    open_console(&app).await.expect("the console opens");
    labelled(&wait, "console", "Steuerkonsole").await;
    keep_screenshot(&app, &shot("13-console")).await;
    click(&wait, "sheet-close").await;

    // 14. The sidebar folded away: the conversation and the live screen take the window.
    click(&wait, "sidebar-fold").await;
    labelled(&wait, "sidebar-unfold", "Seitenleiste einblenden").await;
    keep_screenshot(&app, &shot("14-sidebar-folded")).await;
    click(&wait, "sidebar-unfold").await;
    wait.element("machine-list")
        .await
        .expect("the sidebar is back");
    assert!(app.driver.find(by_testid("sidebar-unfold")).await.is_err());

    // 15–16. Two places with long German labels the English walk has no picture of: the
    // composer's more options with the answer's format unfolded, and scheduling a task.
    click(&wait, "composer-more").await;
    says(&wait, "advanced-toggle", "Antwortformat").await;
    click(&wait, "advanced-toggle").await;
    keep_screenshot(&app, &shot("15-more-options")).await;
    click(&wait, "advanced-toggle").await;
    click(&wait, "composer-more").await;
    // The declined task above is offered no schedule: the composer's Schedule… is.
    click(&wait, "schedule-button").await;
    says(&wait, "schedule-dialog", "Aufgabe planen").await;
    // The time field is drawn by WebKit in its own language, not the page's `lang`: the app
    // tells the webview German too, or the field says "08:00 AM" (seen in 16-schedule).
    let webkit = app
        .driver
        .execute("return navigator.language", vec![])
        .await
        .unwrap();
    let webkit = webkit.json().as_str().unwrap_or_default().to_owned();
    assert!(
        webkit.starts_with("de"),
        "the webview speaks German too: {webkit}"
    );
    keep_screenshot(&app, &shot("16-schedule")).await;
    click(&wait, "schedule-dialog-close").await;

    app.quit().await;
}
