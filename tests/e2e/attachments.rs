//! Attachments on the composer: a file uploaded with its progress and sent with the task, and
//! an empty file refused with a sentence before any upload. The system file dialog cannot be
//! driven over WebDriver, so the test names the files it returns (`PORTHOLE_E2E_PICKED_FILES`);
//! checking, uploading from Rust and sending are the app's own. Dropping files on the window
//! is `drop.rs`.

use porthole_e2e::{by_testid, text_of, App, Eventually};

use crate::flows::{select_machine, send_task, wait_for_status};

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_file_is_uploaded_and_sent_and_an_empty_one_refused() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("shopping notes.md");
    std::fs::write(&notes, "milk\n".repeat(60_000)).unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, b"").unwrap();
    std::env::set_var(
        "PORTHOLE_E2E_PICKED_FILES",
        format!("{}\n{}", notes.display(), empty.display()),
    );
    let app = App::launch().await.expect("the app opens");
    std::env::remove_var("PORTHOLE_E2E_PICKED_FILES");
    let wait = Eventually::new(&app.driver);
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");

    wait.element("attach-button")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let chips = wait
        .at_least("attachment-chip", 2)
        .await
        .expect("a chip per file");
    let mut ready = false;
    for _ in 0..150 {
        if chips[0].attr("data-state").await.unwrap().as_deref() == Some("ready") {
            ready = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(ready, "the file finished uploading");
    let progress = chips[0]
        .find(by_testid("attachment-progress"))
        .await
        .unwrap();
    assert_eq!(
        progress.attr("aria-valuenow").await.unwrap().as_deref(),
        Some("100")
    );
    assert_eq!(
        chips[1].attr("data-state").await.unwrap().as_deref(),
        Some("refused")
    );
    let why = text_of(&chips[1].find(by_testid("attachment-error")).await.unwrap()).await;
    assert!(why.contains("empty"), "the refusal says why: {why}");
    app.screenshot("attachments-uploaded-and-refused")
        .await
        .unwrap();

    chips[1]
        .find(by_testid("attachment-remove"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    send_task(&app, "Read the attached shopping notes")
        .await
        .expect("send");
    wait.gone("attachment-chip")
        .await
        .expect("sent files leave the composer");
    let sent = wait
        .element("sent-attachment")
        .await
        .expect("the message in the thread names its file");
    assert_eq!(text_of(&sent).await, "shopping notes.md");
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded",
        "the service took the message with its attachment"
    );
    app.screenshot("attachments-sent").await.unwrap();
    app.quit().await;
}
