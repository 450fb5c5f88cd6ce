//! Connecting with an API key (the account dialog's "Use an API key instead") with a wrong key says so and stores nothing: the app stays on the
//! Demo, also after a restart, and the key is in none of the app's files.

use porthole_e2e::{App, AppOptions, Eventually};
use porthole_sim::{Config, Sim};

const WRONG_KEY: &str = "sk-this-key-is-wrong-4b1d";

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_wrong_key_shows_the_error_and_stores_nothing() {
    let service = Sim::start(Config::default())
        .await
        .expect("a service to connect to");

    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    // "Sign in" opens the account dialog; an API key is under "Use an API key instead".
    wait.element("open-keys")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    crate::flows::unfold_advanced(&app).await.unwrap();
    // Typing the address above leaves Advanced open (it once folded back).
    let address = wait.element("signin-base-url").await.unwrap();
    address.clear().await.unwrap();
    address.send_keys(&service.base_url).await.unwrap();
    wait.element("connect-api-key").await.unwrap();
    // The service address is asked once, by the sign-in form; the key form under it uses it.
    assert!(
        app.driver
            .find_all(porthole_e2e::by_testid("connect-base-url"))
            .await
            .unwrap()
            .is_empty(),
        "no second service address field"
    );
    wait.element("connect-api-key")
        .await
        .unwrap()
        .send_keys(WRONG_KEY)
        .await
        .unwrap();
    wait.element("connect-submit")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();

    let error = wait
        .text("connect-error", |t| !t.is_empty())
        .await
        .expect("an error sentence");
    assert!(
        !error.contains(WRONG_KEY),
        "the error never repeats the key"
    );
    app.screenshot("connect-wrong-key")
        .await
        .expect("screenshot");
    wait.element("keys-page-close")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.element("demo-badge").await.expect("still on the Demo");

    let data_dir = app.data_dir().to_path_buf();
    let keep = app.quit().await;
    assert!(
        !dir_mentions(&data_dir, WRONG_KEY),
        "the key was written to the app's data folder"
    );

    let again = App::launch_with(AppOptions {
        data_dir: Some(data_dir),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens again");
    Eventually::new(&again.driver)
        .element("demo-badge")
        .await
        .expect("a restart still opens the Demo: nothing was saved");
    again.quit().await;
    drop(keep);
    service.shutdown().await;
}

fn dir_mentions(dir: &std::path::Path, needle: &str) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|e| {
        let path = e.path();
        if path.is_dir() {
            dir_mentions(&path, needle)
        } else {
            std::fs::read(&path)
                .map(|bytes| bytes.windows(needle.len()).any(|w| w == needle.as_bytes()))
                .unwrap_or(false)
        }
    })
}
