//! Reusable tasks: a recorded task becomes a template with placeholders, is learned (with
//! progress), saved in the library, and runs again with new inputs.

use porthole_e2e::{by_testid, App, Eventually};
use std::time::Duration;
use thirtyfour::prelude::*;

use crate::replay::keep_screenshot;
use crate::replay::run_recorded_task;

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_recorded_task_becomes_reusable_and_runs_with_new_inputs() {
    let app = App::launch().await.expect("the app opens");
    run_recorded_task(&app, "Look up the weather in Paris")
        .await
        .expect("a recorded task");
    let wait = Eventually::new(&app.driver);
    wait.element("answer-reusable")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    // The task as it will run, its changeable word marked with its name, in plain words: no
    // {{place}} in the way.
    let suggestions = wait
        .text("reusable-suggestions", |t| t.contains("Paris"))
        .await
        .unwrap();
    let filled = wait
        .text("reusable-filled", |t| !t.is_empty())
        .await
        .unwrap();
    assert!(
        filled.starts_with("Look up the weather in")
            && filled.contains("Place")
            && filled.contains("Paris"),
        "the sentence with its changeable word: {filled}"
    );
    assert!(!suggestions.contains("{{"), "no placeholder: {suggestions}");
    // The template is there for those who want it, folded under Details.
    let details = app
        .driver
        .find(by_testid("reusable-template-details"))
        .await
        .unwrap();
    assert_eq!(details.attr("open").await.unwrap(), None, "folded");
    let template = app
        .driver
        .find(by_testid("reusable-template"))
        .await
        .unwrap();
    keep_screenshot(&app, "reusable-suggested").await;
    // Folded out of sight (WebKit keeps a closed <details>' contents laid out, hidden:
    // WebDriver's own "displayed" says shown).
    assert!(
        !porthole_e2e::visible(&app.driver, &template).await,
        "not in the way"
    );
    let suggested = template.prop("value").await.unwrap().unwrap_or_default();
    assert_eq!(
        suggested, "Look up the weather in {{place}}",
        "a placeholder is suggested"
    );

    app.driver
        .find(by_testid("reusable-learn"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.element("reusable-progress")
        .await
        .expect("learning shows progress");
    keep_screenshot(&app, "reusable-learning").await;
    let long = Eventually::new(&app.driver).within(Duration::from_secs(120));
    let saved = long
        .text("reusable-saved", |t| !t.trim().is_empty())
        .await
        .expect("learned and saved");
    // Saved tasks have one name: no directions to a place called anything else.
    assert!(
        saved.contains("Saved tasks") && saved.contains("Open it"),
        "saved, with a way to open it: {saved}"
    );
    let params = wait
        .text("reusable-parameters", |t| t.contains("Place"))
        .await
        .unwrap();
    assert!(
        params.contains("Paris"),
        "the default comes from the task: {params}"
    );
    wait.element("reusable-title").await.unwrap();
    keep_screenshot(&app, "reusable-learned").await;

    wait.element("saved-task")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.at_least("library-item", 1)
        .await
        .expect("in the library");
    let input = wait.element("reusable-input").await.unwrap();
    assert_eq!(
        input.attr("data-name").await.unwrap().as_deref(),
        Some("place")
    );
    input.clear().await.unwrap();
    input.send_keys("Rome").await.unwrap();
    app.driver
        .find(by_testid("reusable-run"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let result = long
        .text("reusable-result", |t| !t.trim().is_empty())
        .await
        .expect("the run's result");
    assert!(result.contains("Rome"), "the new input was used: {result}");
    assert!(
        !result.contains('"') && !result.contains("\\n"),
        "the result is plain text: {result}"
    );
    assert!(
        app.driver.find(by_testid("run-error")).await.is_err(),
        "the run finished"
    );
    keep_screenshot(&app, "reusable-run").await;
    let _ = app.driver.find(By::Css("body")).await;
    app.quit().await;
}
