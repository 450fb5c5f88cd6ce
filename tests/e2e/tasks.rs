//! A task streams the agent's work and ends with an answer; Stop ends a running task.

use porthole_e2e::{App, Eventually};

use crate::flows::{select_machine, send_task, thread_texts, wait_for_status};

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_task_streams_narration_and_ends_with_an_answer() {
    let app = App::launch().await.expect("the app opens");
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    send_task(&app, "Look up the weather in Lisbon")
        .await
        .expect("send");

    wait_for_status(&app, &["running", "succeeded"])
        .await
        .expect("the task starts");
    let answer = Eventually::new(&app.driver)
        .text("final-answer", |t| !t.trim().is_empty())
        .await
        .expect("a final answer");
    assert!(
        answer.contains("Lisbon"),
        "the answer is about the task: {answer}"
    );
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );

    let narration = thread_texts(&app, "narration").await.unwrap();
    let progress = thread_texts(&app, "progress").await.unwrap();
    assert!(
        !narration.is_empty() || !progress.is_empty(),
        "the agent's work was shown while it ran"
    );
    let usage = Eventually::new(&app.driver)
        .text("task-usage", |t| t.contains('$'))
        .await
        .expect("the task's cost is shown");
    assert!(!usage.is_empty());

    app.screenshot("task-answer").await.expect("screenshot");
    app.quit().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn stop_ends_a_running_task() {
    let app = App::launch().await.expect("the app opens");
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    send_task(&app, "Take your time and tidy up the desktop")
        .await
        .expect("send");
    wait_for_status(&app, &["running"])
        .await
        .expect("the task runs");

    let stop = Eventually::new(&app.driver)
        .element("stop-button")
        .await
        .expect("a Stop button");
    stop.click().await.expect("click Stop");
    let status = wait_for_status(&app, &["stopped", "failed", "succeeded"])
        .await
        .unwrap();
    assert_eq!(status, "stopped", "Stop ends the task as stopped");
    Eventually::new(&app.driver)
        .gone("stop-button")
        .await
        .expect("no Stop once it stopped");

    app.screenshot("task-stopped").await.expect("screenshot");
    app.quit().await;
}
