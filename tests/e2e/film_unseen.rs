//! A task on a cloud computer whose live screen is not open is recorded all the same (film.rs
//! runs this once, in the dark scheme): the films' folders in the app's data folder are read.

use std::time::Duration;

use porthole_e2e::{App, Eventually};

use crate::film::film_pictures;
use crate::flows::{select_machine, send_task, wait_for_status};

/// Each film's folder (one per task).
fn film_folders(app: &App) -> Vec<std::path::PathBuf> {
    let mut folders: Vec<_> = film_pictures(app)
        .into_iter()
        .filter_map(|p| p.parent().map(std::path::Path::to_path_buf))
        .collect();
    folders.sort();
    folders.dedup();
    folders
}

/// The pictures kept in `folder` since `since`.
fn kept_since(folder: &std::path::Path, since: std::time::SystemTime) -> usize {
    std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "jpg"))
        .filter(|e| {
            e.metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| t > since)
        })
        .count()
}

/// Waits (up to 30 s) until `enough` holds of the films' folders, oldest first.
async fn until_films(app: &App, why: &str, enough: impl Fn(&[std::path::PathBuf]) -> bool) {
    let start = std::time::Instant::now();
    loop {
        let folders = film_folders(app);
        if enough(&folders) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{why}: films {folders:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// A task on a cloud computer whose live screen is not open is recorded all the same. The
/// person sends a task that waits for their yes, holds a second one to run next, and looks at
/// another computer (the first one's live screen closes): the first task's film goes on while
/// they are away. They answer its card from "Needs you", so the second task starts while the
/// screen is still not open, and it is recorded too (it waits for a yes of its own). One film
/// a task.
pub(crate) async fn recorded_while_its_screen_is_not_open(app: &App) {
    let wait = Eventually::new(&app.driver).within(Duration::from_secs(30));
    let before = film_folders(app).len();
    send_task(app, "Delete the old files in Downloads")
        .await
        .expect("send");
    wait_for_status(app, &["needsApproval"])
        .await
        .expect("the task waits for a yes");
    let composer = wait.element("composer").await.unwrap();
    composer.click().await.unwrap();
    composer
        .send_keys("Delete the old files in Documents")
        .await
        .unwrap();
    wait.element("run-next-button")
        .await
        .expect("Run next")
        .click()
        .await
        .unwrap();
    wait.element("waiting-list")
        .await
        .expect("the second task waits its turn");

    let away = std::time::SystemTime::now();
    select_machine(app, "Research box")
        .await
        .expect("another computer");
    until_films(app, "the first task's film goes on unseen", |f| {
        f.len() == before + 1 && kept_since(&f[before], away) >= 3
    })
    .await;

    // Its card answered from "Needs you": the first task ends, the second starts, unseen.
    wait.element("inbox-open")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let approve = wait.element("approval-approve").await.expect("the card");
    app.driver
        .execute(
            "arguments[0].scrollIntoView({block: 'center'})",
            vec![approve.to_json().unwrap()],
        )
        .await
        .unwrap();
    approve.click().await.unwrap();
    wait.element("inbox-close")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until_films(
        app,
        "the second task, started while its screen is not open, is recorded",
        |f| f.len() == before + 2 && kept_since(&f[before + 1], away) >= 3,
    )
    .await;

    select_machine(app, "Design laptop")
        .await
        .expect("back to the first computer");
    wait.element("approval-approve")
        .await
        .expect("the second task's card")
        .click()
        .await
        .unwrap();
    assert_eq!(
        wait_for_status(app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    assert_eq!(
        film_folders(app).len(),
        before + 2,
        "one film a task, through its screen closing and opening again"
    );
}
