//! The window's own error banners with the keyboard alone (Tab, Shift+Tab, Enter, Escape): a
//! connection that failed at start, whose Sign in opens the account dialog, where a new key
//! connects; and an action the service refused, whose banner is dismissed with its ✕, and
//! whose Sign in, the second time, opens the account dialog. Every place the focus lands
//! shows it.
//!
//! What fails is real: the simulator no longer knows the account's API key (revoked, as from
//! another device), so the service answers 401 to the start's check or to the action.

use std::time::Duration;

use porthole_client::{Client, Credential};
use porthole_e2e::{by_testid, App, Eventually};
use thirtyfour::prelude::*;

use crate::keyboard_walk::{
    as_ada, focus_here, focus_inside, open_on, press, run_task, simulator, tab_to_id, type_text,
};
use crate::replay::keep_screenshot;

/// The service stops taking Ada's API key, as when it is revoked elsewhere.
fn revoke_adas_key(sim: &porthole_sim::RunningSim) {
    let owner = sim.account("ada").user_id.clone();
    for key in sim.state().db().keys.iter_mut() {
        if key.owner == owner {
            key.revoked = true;
        }
    }
}

/// A new API key for Ada, made as on another device: with her sign-in, not the app.
async fn new_key_for_ada(sim: &porthole_sim::RunningSim) -> String {
    let signed_in = Credential::id_token(&sim.account("ada").id_token).expect("a token");
    let client = Client::new(&sim.base_url, signed_in).expect("a client");
    let created = client
        .keys()
        .create(Some("new laptop"))
        .await
        .expect("a new key");
    created.key.expose().to_owned()
}

/// The account dialog, opened: the focus is in it, and once its content has loaded, on that
/// content rather than on its × (which alone has it while the dialog loads).
async fn focus_in_the_account_dialog(app: &App) {
    focus_here(app, "Sign in").await;
    Eventually::new(&app.driver)
        .within(Duration::from_secs(60))
        .element("account-advanced")
        .await
        .expect("the account dialog loads");
    let mut now = focus_here(app, "the account dialog loading").await;
    for _ in 0..20 {
        if now.testid != "keys-page-close" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        now = focus_here(app, "the account dialog loading").await;
    }
    assert_ne!(now.testid, "keys-page-close", "the focus stayed on ×");
    assert!(
        focus_inside(app, "keys-page").await,
        "the focus is in the account dialog: {now:?}"
    );
}

/// Enter on the focused Sign in: the account dialog opens with the focus in it; Escape closes
/// it again with the focus somewhere a person sees.
async fn sign_in_opens_the_account(app: &App, wait: &Eventually<'_>, shot: &str) {
    press(app, Key::Enter).await;
    wait.element("keys-page")
        .await
        .expect("Enter on Sign in opened the account dialog");
    focus_in_the_account_dialog(app).await;
    keep_screenshot(app, shot).await;
    press(app, Key::Escape).await;
    wait.gone("keys-page")
        .await
        .expect("Escape closed the dialog");
    focus_here(app, "closing the account dialog").await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_connection_that_failed_is_mended_from_its_banner_with_the_keyboard_alone() {
    let sim = simulator().await;
    revoke_adas_key(&sim);
    // The account's address, as a build names its service (`keyboard_signed_in.rs`).
    let address = vec![("PORTHOLE_SERVICE_URL".into(), sim.base_url.clone())];
    let app = App::launch_with(as_ada(&sim, &sim.base_url, address))
        .await
        .expect("the app opens");
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(Duration::from_secs(60));
    let said = wait
        .text("connection-error", |t| !t.trim().is_empty())
        .await
        .expect("the window says it could not connect");
    keep_screenshot(&app, "keyboard-banners-connection").await;

    // Its Sign in opens the account dialog, where a new key (made elsewhere) connects.
    let action = tab_to_id(&app, false, "connection-error-action").await;
    assert!(action.what.contains("Sign in"), "{action:?} ({said})");
    press(&app, Key::Enter).await;
    wait.element("keys-page")
        .await
        .expect("Enter on Sign in opened the account dialog");
    focus_in_the_account_dialog(&app).await;
    let advanced = wait
        .element("account-advanced")
        .await
        .expect("the dialog offers an API key");
    if advanced.attr("open").await.unwrap().is_none() {
        tab_to_id(&app, false, "account-advanced-toggle").await;
        press(&app, Key::Enter).await;
    }
    tab_to_id(&app, false, "connect-api-key").await;
    type_text(&app, &new_key_for_ada(&sim).await).await;
    keep_screenshot(&app, "keyboard-banners-connection-sign-in").await;
    press(&app, Key::Enter).await;
    long.gone("connection-error")
        .await
        .expect("Enter connected with the new key, and the banner went");
    wait.at_least("machine-row", 3)
        .await
        .expect("the computers are listed");
    if app.driver.find(by_testid("keys-page")).await.is_ok() {
        press(&app, Key::Escape).await;
        wait.gone("keys-page")
            .await
            .expect("Escape closed the dialog");
    }
    focus_here(&app, "connecting again").await;
    app.quit().await;
    sim.shutdown().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn an_action_refused_is_dismissed_and_signed_in_again_with_the_keyboard_alone() {
    let sim = simulator().await;
    let app = open_on(as_ada(&sim, &sim.base_url, Vec::new()), "Design laptop").await;
    let wait = Eventually::new(&app.driver);
    assert_eq!(
        run_task(&app, "Look up the weather in Paris").await,
        "succeeded"
    );

    // The key is revoked: New conversation, pressed with Enter, is refused and says so.
    revoke_adas_key(&sim);
    tab_to_id(&app, false, "new-conversation").await;
    press(&app, Key::Enter).await;
    let said = wait
        .text("action-error", |t| !t.trim().is_empty())
        .await
        .expect("the refusal is said in a banner");
    keep_screenshot(&app, "keyboard-banners-action").await;

    // Its ✕, reached with Shift+Tab (the banner is above the conversation), puts it away.
    let dismiss = tab_to_id(&app, true, "action-error-dismiss").await;
    assert!(dismiss.what.contains("Dismiss"), "{dismiss:?} ({said})");
    press(&app, Key::Enter).await;
    wait.gone("action-error")
        .await
        .expect("Enter on ✕ put the banner away");
    focus_here(&app, "dismissing the banner").await;

    // Refused again: this time its Sign in opens the account dialog, and the banner goes.
    tab_to_id(&app, false, "new-conversation").await;
    press(&app, Key::Enter).await;
    wait.element("action-error")
        .await
        .expect("refused again, said again");
    let action = tab_to_id(&app, true, "action-error-action").await;
    assert!(action.what.contains("Sign in"), "{action:?}");
    sign_in_opens_the_account(&app, &wait, "keyboard-banners-action-sign-in").await;
    assert!(
        app.driver
            .find_all(porthole_e2e::by_testid("action-error"))
            .await
            .unwrap()
            .is_empty(),
        "the banner went once its way out was taken"
    );
    app.quit().await;
    sim.shutdown().await;
}
