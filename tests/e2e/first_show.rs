//! The window is made hidden and appears once the page has its first screen in the document
//! (src-tauri/src/navigation/first_show.rs): the person never sees a blank window, and WebKit
//! never waits for a page that is itself waiting for the window's main thread.

use std::time::{Duration, Instant};

use porthole_e2e::{App, Eventually};

use crate::close_to_tray::XWindow;

/// The main window, once GTK has made it (it may not exist the moment the process starts).
fn main_window() -> XWindow {
    let started = Instant::now();
    loop {
        if !XWindow::all().is_empty() {
            return XWindow::find();
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no Porthole window after 30 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn the_window_appears_with_the_app_already_in_it() {
    let app = App::launch().await.expect("the app opens");
    let window = main_window();
    window.until_shown(true);
    // The page mounted while the window was still hidden, and only then was it shown.
    let at_mount = app
        .driver
        .execute(
            "return performance.getEntriesByName('porthole-mounted')[0]?.detail?.visibility ?? null;",
            vec![],
        )
        .await
        .expect("script runs");
    assert_eq!(
        at_mount.json().as_str(),
        Some("hidden"),
        "the window was on the screen before the app was in the page"
    );
    let now = app
        .driver
        .execute("return document.visibilityState;", vec![])
        .await
        .expect("script runs");
    assert_eq!(now.json().as_str(), Some("visible"));
    let wait = Eventually::new(&app.driver);
    wait.at_least("machine-row", 3)
        .await
        .expect("the Demo's three computers are listed");
    app.screenshot("first-show").await.expect("screenshot");
    app.quit().await;
}
