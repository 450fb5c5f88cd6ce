//! First start: the Demo, with the demo account's machines in the sidebar.

use porthole_e2e::{by_testid, text_of, App, Eventually};

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn first_start_shows_the_demo_and_its_machines() {
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);

    wait.element("demo-badge")
        .await
        .expect("a visible Demo badge");
    let rows = wait
        .at_least("machine-row", 3)
        .await
        .expect("the machines appear");
    app.screenshot("machines").await.expect("screenshot");
    let mut names = Vec::new();
    for row in &rows {
        if let Ok(name) = row.find(by_testid("machine-name")).await {
            names.push(text_of(&name).await);
        }
    }
    for expected in ["Ada's MacBook", "Design laptop", "Research box"] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected:?} missing from the sidebar: {names:?}"
        );
    }
    // The sleeping cloud computer says so and offers to wake it.
    wait.element("wake-button")
        .await
        .expect("a Wake button for the sleeping computer");
    app.quit().await;
}
