//! Closing the app mid-task and opening it again resumes following the task, with nothing
//! lost and nothing shown twice. The app's own Demo dies with the app, so this test runs the
//! simulator itself and points the app's Demo at it. A saved file damaged while the app was
//! closed is moved aside, never overwritten, and the app offers "Show the file" rather than
//! its path (light and dark: `stored-data-set-aside-<scheme>.png`).

use porthole_e2e::{App, AppOptions, Eventually};

use crate::flows::{
    own_demo, select_machine, send_task, shown_files, thread_texts, wait_for_status,
};

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
async fn a_damaged_saved_file_is_set_aside_and_shown_in_the_file_manager() {
    set_aside_and_shown("light").await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_damaged_saved_file_is_set_aside_and_shown_in_the_file_manager_dark() {
    set_aside_and_shown("dark").await;
}

async fn set_aside_and_shown(scheme: &str) {
    let dir = tempfile::tempdir().expect("a data folder");
    let damaged = b"{\"library\": {\"tasks\": [{\"id\": ".to_vec();
    std::fs::write(dir.path().join("library.json"), &damaged).expect("a damaged library");
    let record = tempfile::tempdir().expect("a folder for what was shown");
    let shown = record.path().join("shown.txt");
    let gtk = if scheme == "dark" {
        "Adwaita:dark"
    } else {
        "Adwaita"
    };

    let app = App::launch_with(AppOptions {
        data_dir: Some(dir.path().to_path_buf()),
        env: vec![
            ("PORTHOLE_E2E_SHOWN".into(), shown.display().to_string()),
            ("PORTHOLE_THEME".into(), scheme.into()),
            ("GTK_THEME".into(), gtk.into()),
        ],
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver);
    let notice = wait
        .text("stored-data-notice", |t| t.contains("saved tasks"))
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
    // No path in a person's way: "Show the file" shows it in the file manager.
    assert!(
        !notice.contains("unreadable-") && !notice.contains(&dir.path().display().to_string()),
        "no path in the notice: {notice}"
    );
    assert!(
        notice.contains("moved the file aside") && notice.contains("Show the file"),
        "{notice}"
    );
    app.screenshot(&format!("stored-data-set-aside-{scheme}"))
        .await
        .expect("screenshot");
    wait.element("stored-data-notice-action")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(
        shown_files(&shown).await,
        vec![moved[0].display().to_string()],
        "the file set aside is the one shown"
    );
    assert_eq!(
        std::fs::read(&moved[0]).unwrap(),
        damaged,
        "moved untouched"
    );
    app.quit().await;
}
