//! One truth for a free computer: row, header and live screen say "Ready when you are", no Wake.

use porthole_e2e::{by_testid, text_of, Eventually};

use crate::flows::demo_env;
use crate::one_truth::{chip_when, open, present, SCALE};

async fn free_computer(scheme: &str) {
    let sim = porthole_sim::Sim::start(porthole_sim::Config {
        time_scale: SCALE,
        ..porthole_sim::Config::default()
    })
    .await
    .expect("simulator");
    let fred = sim.account("fred");
    let app = open(
        demo_env(
            &sim.base_url,
            fred.api_key.as_deref().unwrap_or_default(),
            &fred.id_token,
        ),
        scheme,
    )
    .await;
    let wait = Eventually::new(&app.driver);
    let row = wait
        .at_least("machine-row", 1)
        .await
        .expect("the free computer")
        .remove(0);
    let row_words = text_of(&row.find(by_testid("machine-status")).await.unwrap()).await;
    row.find(by_testid("machine-select"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let chip = chip_when(&app, "computer").await;
    let live = wait
        .text("live-reason", |t| !t.is_empty())
        .await
        .expect("the live screen says how the computer is");
    assert_eq!(chip, "Ready when you are");
    assert!(row_words.contains(&chip), "{row_words:?} / {chip:?}");
    assert_eq!(live, chip, "the live screen says what the chip says");
    assert!(
        !present(&app, "live-wake").await,
        "no Wake: it starts on its own"
    );
    assert!(
        !live.to_lowercase().contains("asleep"),
        "never 'Ready' and 'asleep': {live}"
    );
    app.screenshot(&format!("truth-free-computer-{scheme}"))
        .await
        .unwrap();

    // Its schedule cannot wake it ahead: the dialog says its runs start about two minutes late.
    let composer = wait.element("composer").await.unwrap();
    composer.click().await.unwrap();
    composer
        .send_keys("Check the weather in Oslo")
        .await
        .unwrap();
    wait.element("schedule-button")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let late = wait
        .text("schedule-free-late", |t| !t.is_empty())
        .await
        .expect("the dialog says the free computer's runs start late");
    assert!(late.contains("about two minutes"), "{late}");
    app.screenshot(&format!("truth-free-computer-schedule-{scheme}"))
        .await
        .unwrap();
    app.quit().await;
    sim.shutdown().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_free_computer_reads_the_same_in_its_row_header_and_live_screen_light() {
    free_computer("light").await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_free_computer_reads_the_same_in_its_row_header_and_live_screen_dark() {
    free_computer("dark").await;
}
