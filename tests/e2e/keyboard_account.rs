//! The account dialog with the keyboard alone (Tab, Shift+Tab, Enter, Escape, and typing): open
//! it, unfold "Use an API key instead / Advanced", fill the service address, try a sign-in
//! token and an API key (each refused in words), then the Demo's keys: make one, read its
//! secret, copy it, close the display, revoke the key after confirming, and close the dialog.
//! Every place the focus lands shows it.

use porthole_e2e::{by_testid, App, Eventually};
use thirtyfour::prelude::*;

use crate::keyboard_walk::{focus_here, focus_inside, press, retype, tab_to, tab_to_id, type_text};
use crate::replay::keep_screenshot;

const KEY_NAME: &str = "Keyboard walk";

/// The `data-name`s of the keys listed, read again while the list re-renders.
async fn key_names(app: &App) -> Vec<String> {
    let v = app
        .driver
        .execute(
            "return Array.from(document.querySelectorAll('[data-testid=\"key-row\"]'))\
             .map((r) => r.getAttribute('data-name'));",
            vec![],
        )
        .await
        .expect("the key rows");
    serde_json::from_value(v.json().clone()).unwrap_or_default()
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn the_account_dialog_and_its_keys_are_used_with_the_keyboard_alone() {
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    wait.at_least("machine-row", 3).await.expect("computers");

    // The dialog, opened with Enter; the focus goes into it.
    tab_to_id(&app, false, "open-keys").await;
    press(&app, Key::Enter).await;
    wait.element("keys-page")
        .await
        .expect("Enter opened the account");
    wait.at_least("key-row", 1).await.expect("the Demo's keys");
    focus_here(&app, "opening the account").await;
    assert!(
        focus_inside(&app, "keys-page").await,
        "the focus is in the dialog"
    );

    // "Use an API key instead / Advanced" folds and unfolds with Enter. This build has no
    // Google sign-in, so the form unfolds it by itself once Rust says so (flows.rs,
    // `unfold_advanced`): after that answer, Enter folds it, and Enter again unfolds it.
    crate::flows::sign_in_answered(&app).await;
    let advanced = app
        .driver
        .find(by_testid("account-advanced"))
        .await
        .unwrap();
    tab_to_id(&app, false, "account-advanced-toggle").await;
    if advanced.attr("open").await.unwrap().is_some() {
        press(&app, Key::Enter).await;
        assert!(
            advanced.attr("open").await.unwrap().is_none(),
            "Enter folded the advanced part"
        );
    }
    press(&app, Key::Enter).await;
    assert!(
        advanced.attr("open").await.unwrap().is_some(),
        "Enter unfolded the advanced part"
    );

    // The service address: a dead one typed, so nothing below can reach a service by chance.
    tab_to_id(&app, false, "signin-base-url").await;
    retype(&app, "http://127.0.0.1:9").await;
    let address = app.driver.find(by_testid("signin-base-url")).await.unwrap();
    assert_eq!(
        address.prop("value").await.unwrap().as_deref(),
        Some("http://127.0.0.1:9"),
        "the address was typed"
    );
    // Not the Demo's address, and this copy was built without Google sign-in: a sentence says
    // so where the button was, and no Tab stop is a button that cannot work.
    let said = wait
        .text("signin-not-configured", |t| !t.trim().is_empty())
        .await
        .expect("the sentence about Google sign-in");
    assert!(said.contains("built without Google sign-in"), "{said}");
    assert!(app.driver.find(by_testid("signin-browser")).await.is_err());

    // A pasted sign-in token, sent with Enter on its button: refused in words.
    tab_to_id(&app, false, "signin-token").await;
    type_text(&app, "not-a-real-token").await;
    tab_to_id(&app, false, "signin-token-button").await;
    press(&app, Key::Enter).await;
    wait.text("signin-error", |t| !t.trim().is_empty())
        .await
        .expect("the token's sign-in says why it failed");
    focus_here(&app, "the token's sign-in failed").await;

    // An API key, sent with Enter in its field: refused in words, never repeated.
    tab_to_id(&app, false, "connect-api-key").await;
    type_text(&app, "phk_keyboard_wrong").await;
    tab_to_id(&app, false, "connect-advanced-toggle").await;
    press(&app, Key::Enter).await;
    tab_to_id(&app, false, "connect-version-tag").await;
    tab_to_id(&app, true, "connect-api-key").await;
    press(&app, Key::Enter).await;
    let error = wait
        .text("connect-error", |t| !t.trim().is_empty())
        .await
        .expect("the key's connection says why it failed");
    assert!(!error.contains("phk_keyboard_wrong"), "{error}");
    keep_screenshot(&app, "keyboard-account-advanced").await;

    // A new key: its name typed, made with Enter, listed, its secret shown once.
    tab_to_id(&app, false, "key-name").await;
    type_text(&app, KEY_NAME).await;
    press(&app, Key::Enter).await;
    let secret = wait
        .element("new-key-secret")
        .await
        .expect("the new key is shown");
    assert!(
        secret
            .prop("value")
            .await
            .unwrap()
            .unwrap_or_default()
            .starts_with("phk_sim_"),
        "the secret itself is shown"
    );
    assert!(
        key_names(&app).await.iter().any(|n| n == KEY_NAME),
        "the new key is listed"
    );
    let field = tab_to_id(&app, true, "new-key-secret").await;
    assert!(
        field.keyboard,
        "the secret's field is reached by the keyboard"
    );
    tab_to_id(&app, false, "new-key-copy").await;
    press(&app, Key::Enter).await;
    wait.text("new-key-copy", |t| t == "Copied")
        .await
        .expect("Enter copied the key");
    keep_screenshot(&app, "keyboard-account-new-key").await;
    tab_to_id(&app, false, "new-key-done").await;
    press(&app, Key::Enter).await;
    wait.gone("new-key").await.expect("Done closed the secret");
    focus_here(&app, "Done").await;
    assert!(
        focus_inside(&app, "keys-page").await,
        "the focus stays in the dialog after Done"
    );

    // Revoked after confirming: the confirmation takes the focus, Enter on Revoke acts.
    tab_to(&app, false, "the new key's Revoke…", |f| {
        f.testid == "key-revoke" && f.name == KEY_NAME
    })
    .await;
    press(&app, Key::Enter).await;
    wait.element("revoke-confirm")
        .await
        .expect("a confirmation");
    let now = focus_here(&app, "Revoke…").await;
    assert!(
        now.testid == "revoke-yes" || now.testid == "revoke-no",
        "the confirmation's buttons take the focus: {now:?}"
    );
    tab_to_id(&app, true, "revoke-yes").await;
    keep_screenshot(&app, "keyboard-account-revoke").await;
    press(&app, Key::Enter).await;
    let start = std::time::Instant::now();
    while key_names(&app).await.iter().any(|n| n == KEY_NAME) {
        assert!(
            start.elapsed().as_secs() < 30,
            "the revoked key left the list"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    focus_here(&app, "revoking").await;
    assert!(
        focus_inside(&app, "keys-page").await,
        "the focus stays in the dialog after revoking"
    );

    // Escape closes it, back on the button that opened it.
    press(&app, Key::Escape).await;
    wait.gone("keys-page")
        .await
        .expect("Escape closed the account");
    assert_eq!(focus_here(&app, "closing").await.testid, "open-keys");
    app.quit().await;
}

/// "+ New computer" with the keyboard: its name typed, made with Enter, followed until
/// online, the dialog closed with Escape, and the sidebar listing it.
#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_new_computer_is_made_with_the_keyboard_alone() {
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    wait.at_least("machine-row", 3).await.expect("computers");
    tab_to_id(&app, false, "new-computer").await;
    press(&app, Key::Enter).await;
    wait.element("new-computer-dialog")
        .await
        .expect("Enter opened the new computer");
    assert_eq!(
        focus_here(&app, "opening the new computer").await.testid,
        "computer-name"
    );
    type_text(&app, "Keyboard box").await;
    press(&app, Key::Enter).await;
    wait.element("computer-progress")
        .await
        .expect("Enter asked for the computer");
    assert_eq!(
        focus_here(&app, "asking for the computer").await.testid,
        "computer-name",
        "the keyboard stays in the field while the computer is made"
    );
    let start = std::time::Instant::now();
    loop {
        let progress = wait.element("computer-progress").await.unwrap();
        if progress.attr("data-stage").await.unwrap().as_deref() == Some("online") {
            break;
        }
        assert!(
            start.elapsed().as_secs() < 90,
            "the new computer came online"
        );
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    }
    let back = focus_here(&app, "the computer coming online").await;
    assert!(
        focus_inside(&app, "new-computer-dialog").await,
        "the focus is back in the dialog: {back:?}"
    );
    press(&app, Key::Escape).await;
    wait.gone("new-computer-dialog")
        .await
        .expect("Escape closed it");
    assert_eq!(focus_here(&app, "closing").await.testid, "new-computer");
    tab_to(&app, true, "the new computer in the sidebar", |f| {
        f.testid == "machine-select" && f.row == "Keyboard box"
    })
    .await;
    app.quit().await;
}
