//! Waking a sleeping computer from the sidebar, and one the service will not wake.

use porthole_e2e::{by_testid, text_of, App, AppOptions, Eventually};
use thirtyfour::prelude::*;

/// The sidebar row of the computer called `name`.
pub(crate) async fn row(app: &App, name: &str) -> WebElement {
    let start = std::time::Instant::now();
    loop {
        let rows = Eventually::new(&app.driver)
            .at_least("machine-row", 3)
            .await
            .expect("the machines appear");
        let mut redrawn = false;
        for row in rows {
            match row.find(by_testid("machine-name")).await {
                Ok(shown) if text_of(&shown).await == name => return row,
                Ok(_) => {}
                // The list drew itself again (a computer's state changed) between finding its
                // rows and reading them: read it afresh.
                Err(_) => {
                    redrawn = true;
                    break;
                }
            }
        }
        assert!(
            redrawn && start.elapsed() < std::time::Duration::from_secs(15),
            "no {name:?} in the sidebar"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_sleeping_computer_wakes_with_words_and_one_that_cannot_says_so() {
    // Slow enough that the wake (30 s on the service) is seen under way.
    let app = App::launch_with(AppOptions {
        demo_time_scale: Some(0.5),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver);

    // The computer the service will not wake says so, and offers no Wake that could only fail.
    let archive = row(&app, "Studio archive").await;
    let why = text_of(
        &archive
            .find(by_testid("machine-cannot-wake"))
            .await
            .unwrap(),
    )
    .await;
    assert!(why.contains("Can’t be woken from here"), "{why}");
    assert!(archive
        .find_all(by_testid("wake-button"))
        .await
        .unwrap()
        .is_empty());

    let research = row(&app, "Research box").await;
    research
        .find(by_testid("wake-button"))
        .await
        .expect("Wake on the sleeping computer")
        .click()
        .await
        .unwrap();
    let words = wait
        .text("machine-starting", |t| !t.is_empty())
        .await
        .expect("it says it is waking");
    assert!(
        words.contains("Waking Research box, about a minute"),
        "{words}"
    );
    let status = text_of(
        &row(&app, "Research box")
            .await
            .find(by_testid("machine-status"))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, "Waking up…");
    app.screenshot("waking").await.expect("screenshot");

    // Once awake, the words go and it is online.
    wait.gone("machine-starting").await.expect("it wakes");
    let status = text_of(
        &row(&app, "Research box")
            .await
            .find(by_testid("machine-status"))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, "Online");
    app.quit().await;
}
