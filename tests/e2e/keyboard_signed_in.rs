//! What only a signed-in account shows, with the keyboard alone (Tab, Enter and typing): the
//! account connected with an API key from the account dialog, then "Switch to Demo", "Use my
//! account" back, and "Sign out". Every place the focus lands shows it, and it stays in the
//! account area as its buttons change.
//!
//! The service is a simulator of the test's own, its address known to the app as in
//! `signing_in_connects.rs` (`PORTHOLE_SERVICE_URL`); the key is its account's.

use std::time::Duration;

use porthole_e2e::{by_testid, App, AppOptions, Eventually};
use porthole_sim::{Config, Sim};
use thirtyfour::prelude::*;

use crate::keyboard_walk::{focus_here, focus_inside, press, tab_to_id, type_text};
use crate::replay::keep_screenshot;

/// After a switch, the focus is still in the account area, where a person can see it.
async fn focus_in_account_area(app: &App, after: &str) {
    let mut inside = false;
    for _ in 0..50 {
        inside = focus_inside(app, "account-panel").await;
        if inside {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let now = focus_here(app, after).await;
    assert!(
        inside,
        "after {after}, the focus left the account area: {now:?}"
    );
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn switching_to_the_demo_and_signing_out_are_used_with_the_keyboard_alone() {
    let sim = Sim::start(Config {
        time_scale: 0.05,
        ..Config::default()
    })
    .await
    .expect("a service");
    let key = sim.account("ada").api_key.clone().expect("ada's key");
    let app = App::launch_with(AppOptions {
        demo_time_scale: Some(0.05),
        env: vec![("PORTHOLE_SERVICE_URL".into(), sim.base_url.clone())],
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(Duration::from_secs(60));
    wait.element("demo-badge").await.expect("on the Demo first");

    // Connected with an API key, from the account dialog's advanced part.
    tab_to_id(&app, false, "open-keys").await;
    press(&app, Key::Enter).await;
    // This build has no Google sign-in: the dialog says so and unfolds the other ways itself;
    // folded (a person may have closed it), Enter on its toggle unfolds it.
    wait.element("signin-not-configured")
        .await
        .expect("the dialog says how to sign in here");
    let advanced = wait.element("account-advanced").await.unwrap();
    if advanced.attr("open").await.unwrap().is_none() {
        tab_to_id(&app, false, "account-advanced-toggle").await;
        press(&app, Key::Enter).await;
    }
    assert!(
        advanced.attr("open").await.unwrap().is_some(),
        "the API key's part is unfolded"
    );
    tab_to_id(&app, false, "connect-api-key").await;
    type_text(&app, &key).await;
    press(&app, Key::Enter).await;
    long.gone("demo-badge")
        .await
        .expect("Enter connected the account");
    if app.driver.find(by_testid("keys-page")).await.is_ok() {
        press(&app, Key::Escape).await;
        wait.gone("keys-page")
            .await
            .expect("Escape closed the dialog");
    }

    // Switch to Demo, and back to the account.
    tab_to_id(&app, false, "use-demo").await;
    keep_screenshot(&app, "keyboard-signed-in").await;
    press(&app, Key::Enter).await;
    long.element("demo-badge")
        .await
        .expect("Enter on Switch to Demo went to the Demo");
    focus_in_account_area(&app, "switching to the Demo").await;
    tab_to_id(&app, false, "use-account").await;
    press(&app, Key::Enter).await;
    long.gone("demo-badge")
        .await
        .expect("Enter on Use my account went back to the account");
    focus_in_account_area(&app, "going back to the account").await;

    // Signed out: the Demo, with no account to go back to.
    tab_to_id(&app, false, "sign-out").await;
    press(&app, Key::Enter).await;
    long.element("demo-badge")
        .await
        .expect("Enter on Sign out left the account");
    wait.gone("use-account")
        .await
        .expect("no account is kept to go back to");
    focus_in_account_area(&app, "signing out").await;
    keep_screenshot(&app, "keyboard-signed-out").await;
    app.quit().await;
    sim.shutdown().await;
}
