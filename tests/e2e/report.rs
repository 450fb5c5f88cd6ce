//! "Share a report": a recorded Demo task saved as one HTML file (the save dialog's answer is
//! given by the test, as the system's dialog is not part of the page), then read back (the
//! task, the answer, each step's picture inside, the cost; no key, no service address, no
//! script) and opened in a browser apart from Porthole, where every picture shows.

use porthole_e2e::{App, AppOptions, Browser, Eventually};

use crate::replay::{keep_screenshot, run_recorded_task};

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_recorded_task_is_shared_as_one_file_that_opens_in_a_browser() {
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("weather-report.html");
    let app = App::launch_with(AppOptions {
        env: vec![(
            "PORTHOLE_E2E_SAVE_AS".into(),
            file.to_string_lossy().into_owned(),
        )],
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    run_recorded_task(&app, "Look up the weather in Paris")
        .await
        .expect("a recorded task");
    let wait = Eventually::new(&app.driver);
    wait.element("answer-steps")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let steps = wait.at_least("replay-step", 2).await.expect("steps listed");
    wait.element("share-report-save")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let saved = wait
        .text("share-report-saved", |t| t.contains("weather-report.html"))
        .await
        .expect("the report saved");
    assert!(saved.contains("Print"), "says how to make a PDF: {saved}");
    keep_screenshot(&app, "report-saved").await;

    let html = std::fs::read_to_string(&file).expect("the file was written");
    assert!(html.contains("Look up the weather in Paris"), "the task");
    assert!(html.contains("data-part=\"answer\""), "the answer");
    assert_eq!(
        html.matches("<img src=\"data:image/jpeg;base64,").count(),
        steps.len(),
        "each step's picture, inside the file"
    );
    assert!(html.contains("data-part=\"cost\">$") || html.contains("less than $0.01"));
    assert!(!html.to_lowercase().contains("<script"), "no script");
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no address"
    );
    assert!(
        !html.contains("127.0.0.1"),
        "not the Demo's loopback address"
    );
    assert!(!html.contains("/v1/"), "no path of the service");
    // The Demo's key and sign-in token stay in the app: neither's shape is in the file's text
    // (the pictures' base64 set apart, where any three letters may occur by chance).
    let text: String = html
        .split("data:image/jpeg;base64,")
        .map(|part| {
            part.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || "+/=".contains(c))
        })
        .collect();
    assert!(!text.contains(porthole_sim::auth::KEY_PREFIX), "no API key");
    assert!(!text.contains("eyJ"), "no sign-in token (a JWT)");
    app.quit().await;

    // Porthole is closed: the file opens on its own, pictures and all.
    let browser = Browser::open(&file).await.expect("a browser");
    let shown = browser
        .driver
        .execute(
            "return [...document.images].filter(i => i.complete && i.naturalWidth > 0).length",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        shown.json().as_u64(),
        Some(steps.len() as u64),
        "every picture shows"
    );
    let title = browser.driver.title().await.unwrap();
    assert!(title.contains("Look up the weather in Paris"), "{title}");
    browser.screenshot("report-in-a-browser").await.unwrap();
    browser.close().await;
}
