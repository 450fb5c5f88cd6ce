//! Closing the app mid-task and opening it again resumes following the task, with nothing
//! lost and nothing shown twice. The app's own Demo dies with the app, so this test runs the
//! simulator itself and points the app's Demo at it. A saved file damaged while the app was
//! closed is moved aside, never overwritten, and the app says where it went.

use porthole_e2e::{App, AppOptions, Eventually};

use crate::flows::{own_demo, select_machine, send_task, thread_texts, wait_for_status};

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_restart_mid_task_resumes_it() {
    let (sim, env) = own_demo(0.02).await;

    let first = App::launch_with(AppOptions {
        env: env.clone(),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    select_machine(&first, "Design laptop")
        .await
        .expect("machine");
    send_task(
        &first,
        "Take your time and count to 3, then check the weather in Oslo",
    )
    .await
    .expect("send");
    wait_for_status(&first, &["running"])
        .await
        .expect("the task runs");
    let data_dir = first.data_dir().to_path_buf();
    let keep = first.quit().await;

    let second = App::launch_with(AppOptions {
        data_dir: Some(data_dir),
        env,
        ..AppOptions::default()
    })
    .await
    .expect("the app opens again");
    select_machine(&second, "Design laptop")
        .await
        .expect("machine");
    let status = wait_for_status(&second, &["running", "succeeded"])
        .await
        .unwrap();
    assert!(status == "running" || status == "succeeded");
    let answer = Eventually::new(&second.driver)
        .text("final-answer", |t| !t.trim().is_empty())
        .await
        .expect("the resumed task ends with its answer");
    assert!(
        answer.contains("Oslo"),
        "the answer of the task sent before the restart: {answer}"
    );
    assert_eq!(
        wait_for_status(&second, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    let answers = thread_texts(&second, "answer").await.unwrap();
    assert_eq!(answers.len(), 1, "the answer is shown once: {answers:?}");
    let users = thread_texts(&second, "user").await.unwrap();
    assert_eq!(users.len(), 1, "the task is shown once: {users:?}");

    second
        .screenshot("restart-resumed")
        .await
        .expect("screenshot");
    second.quit().await;
    drop(keep);
    sim.shutdown().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_damaged_saved_file_is_set_aside_and_the_app_says_where() {
    let dir = tempfile::tempdir().expect("a data folder");
    let damaged = b"{\"library\": {\"tasks\": [{\"id\": ".to_vec();
    std::fs::write(dir.path().join("library.json"), &damaged).expect("a damaged library");

    let app = App::launch_with(AppOptions {
        data_dir: Some(dir.path().to_path_buf()),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let notice = Eventually::new(&app.driver)
        .text("stored-data-notice", |t| t.contains("unreadable-"))
        .await
        .expect("the app says the library was set aside");
    let moved: Vec<_> = std::fs::read_dir(dir.path())
        .expect("the data folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("library.unreadable-"))
        })
        .collect();
    assert_eq!(moved.len(), 1, "{moved:?}");
    assert!(
        notice.contains(&moved[0].display().to_string()),
        "the notice names where the file went: {notice}"
    );
    assert_eq!(
        std::fs::read(&moved[0]).unwrap(),
        damaged,
        "moved untouched"
    );
    app.screenshot("stored-data-set-aside")
        .await
        .expect("screenshot");
    app.quit().await;
}
