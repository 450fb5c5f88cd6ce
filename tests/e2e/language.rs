//! The app speaks the system's language, or the one chosen in Settings: a German locale gives
//! German words in the window and in the tray menu; choosing English changes both at once and
//! is kept across a restart; going back to "As the system" speaks German again.

use porthole_e2e::{App, AppOptions, Eventually};
use thirtyfour::prelude::*;

use crate::tray::TrayWatcher;

fn german_system(data_dir: Option<std::path::PathBuf>) -> AppOptions {
    AppOptions {
        data_dir,
        env: vec![("LC_ALL".into(), "de_DE.UTF-8".into())],
        ..AppOptions::default()
    }
}

pub(crate) async fn open_settings(wait: &Eventually<'_>) -> WebElement {
    wait.element("open-settings")
        .await
        .expect("the settings button")
        .click()
        .await
        .expect("click");
    wait.element("settings-dialog").await.expect("settings")
}

pub(crate) async fn choose(wait: &Eventually<'_>, value: &str) {
    let select = wait
        .element("setting-language")
        .await
        .expect("the language choice");
    // Enabled once the app has said what is chosen now.
    for _ in 0..300 {
        if select.is_enabled().await.unwrap_or(false) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // Settings holds more than fits its dialog: the choice may sit below the fold, where an
    // option cannot be clicked until the select is scrolled into view.
    select.scroll_into_view().await.expect("the choice in view");
    select
        .find(By::Css(format!("option[value='{value}']")))
        .await
        .expect("the option")
        .click()
        .await
        .expect("choose");
}

async fn heading(wait: &Eventually<'_>, expected: &str) {
    wait.text("settings-dialog", |t| {
        t.lines().any(|line| line == expected)
    })
    .await
    .unwrap_or_else(|e| panic!("the settings dialog says {expected}: {e}"));
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_german_system_gets_german_words_and_a_choice_in_settings_is_spoken_and_kept() {
    let tray = TrayWatcher::start();
    let app = App::launch_with(german_system(None))
        .await
        .expect("the app opens");
    let wait = Eventually::new(&app.driver);
    wait.at_least("machine-row", 3)
        .await
        .expect("the Demo's computers");
    let menu = tray.icon();
    menu.until(|l| l.label == "Porthole öffnen", "the German Open line");

    open_settings(&wait).await;
    heading(&wait, "Einstellungen").await;
    app.screenshot("language-german-settings")
        .await
        .expect("screenshot");

    // English, chosen: the dialog and the tray change at once.
    choose(&wait, "en").await;
    heading(&wait, "Settings").await;
    menu.until(|l| l.label == "Open Porthole", "the English Open line");

    // Kept across a restart, although the system still speaks German.
    let data_dir = app.data_dir().to_path_buf();
    let keep = app.quit().await;
    let app = App::launch_with(german_system(Some(data_dir)))
        .await
        .expect("the app opens again");
    let wait = Eventually::new(&app.driver);
    wait.at_least("machine-row", 3)
        .await
        .expect("the Demo's computers");
    open_settings(&wait).await;
    heading(&wait, "Settings").await;
    let select = wait.element("setting-language").await.unwrap();
    assert_eq!(select.value().await.unwrap().as_deref(), Some("en"));

    // Back to the system's language.
    choose(&wait, "system").await;
    heading(&wait, "Einstellungen").await;
    app.screenshot("language-back-to-german")
        .await
        .expect("screenshot");
    app.quit().await;
    drop(keep);
}
