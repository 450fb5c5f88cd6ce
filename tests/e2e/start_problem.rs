//! A start that cannot open the person's files (security review N11): the window still opens
//! and says what went wrong and where, with Quit, instead of a line on stderr that nobody who
//! started Porthole from the menu sees.

use std::time::{Duration, Instant};

use porthole_e2e::{App, AppOptions, Eventually};

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_data_folder_that_cannot_be_opened_is_said_in_the_window_with_quit() {
    // Where the settings file should be, something no program can read as one: a folder.
    let data = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(data.path().join("settings.json")).expect("the damage");
    let mut app = App::launch_with(AppOptions {
        data_dir: Some(data.path().to_path_buf()),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver);
    wait.element("start-problem")
        .await
        .expect("the problem is said");
    let folder = wait
        .text("start-problem-folder", |t| !t.is_empty())
        .await
        .expect("where");
    assert_eq!(
        std::path::Path::new(&folder).canonicalize().ok(),
        data.path().canonicalize().ok(),
        "it names the data folder"
    );
    let said = wait
        .text("start-problem-error", |t| !t.is_empty())
        .await
        .expect("what the system said");
    assert!(
        said.contains("Is a directory") && !said.starts_with("store"),
        "the system's own words: {said}"
    );
    app.screenshot("start-problem").await.expect("screenshot");
    assert!(
        app.driver
            .find_all(porthole_e2e::by_testid("composer"))
            .await
            .unwrap_or_default()
            .is_empty(),
        "nothing else is offered"
    );

    let quit = wait.element("start-problem-quit").await.expect("Quit");
    // The app ends while answering the click, taking the WebDriver session with it: the
    // click's own answer may be that error. Whether it ended is checked below.
    let _ = quit.click().await;
    let start = Instant::now();
    while app.running() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "Quit ends Porthole"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    app.session_lost();
    assert!(
        data.path().join("settings.json").is_dir(),
        "nothing in the folder was changed"
    );
}
