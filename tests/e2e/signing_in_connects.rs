//! Signing in on the Demo connects Porthole to the account: the person lands on their own
//! computers, or reads why Porthole could not make its key and what to do. Signed in through
//! the test browser of `signin.rs`, against a simulator of the test's own.

use porthole_e2e::{App, AppOptions, Eventually};
use porthole_sim::{Config, RunningSim, Sim};

use crate::flows::files_mention;
use crate::replay::keep_screenshot;
use crate::signin::{google_button, id_tokens, DefaultBrowser, SCALE};

/// A service of its own (also the identity provider), the test browser as the default one,
/// and the app on the Demo with that service's address known (`PORTHOLE_SERVICE_URL`).
async fn on_the_demo_knowing_the_service() -> (RunningSim, DefaultBrowser, App) {
    let sim = Sim::start(Config {
        time_scale: SCALE,
        ..Config::default()
    })
    .await
    .expect("an identity provider and service");
    let browser = DefaultBrowser::install();
    let mut env = browser.env(&sim);
    env.push(("PORTHOLE_SERVICE_URL".into(), sim.base_url.clone()));
    let app = App::launch_with(AppOptions {
        demo_time_scale: Some(SCALE),
        env,
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    (sim, browser, app)
}

/// A person trying the Demo presses "Sign in", picks their account in the browser, and lands
/// on their own computers: the Demo's practice ones, its badge and its words are gone, the
/// account area shows their plan, and the account dialog shows who is signed in and the key
/// Porthole made for itself. The service address is known (`PORTHOLE_SERVICE_URL`), so it
/// waits under "Use an API key instead / Advanced" and nobody types it. Signing out then
/// revokes that key on the account (the simulator's key list shows it revoked).
#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn signing_in_on_the_demo_lands_on_the_accounts_own_computers() {
    let (sim, browser, app) = on_the_demo_knowing_the_service().await;
    let wait = Eventually::new(&app.driver);
    wait.text("machine-list", |t| t.contains("Design laptop"))
        .await
        .expect("the Demo's practice computers first");

    let sign_in = wait.element("open-keys").await.unwrap();
    assert_eq!(sign_in.text().await.unwrap().trim(), "Sign in");
    sign_in.click().await.unwrap();
    let intro = wait
        .text("account-demo-intro", |t| !t.trim().is_empty())
        .await
        .expect("the dialog says why to sign in");
    assert!(intro.contains("practice computers"), "{intro}");
    let address = app
        .driver
        .find(porthole_e2e::by_testid("signin-base-url"))
        .await
        .expect("the address field is in the page");
    assert!(
        !porthole_e2e::visible(&app.driver, &address).await,
        "the known address is folded away"
    );
    assert_eq!(
        address.prop("value").await.unwrap().as_deref(),
        Some(sim.base_url.as_str())
    );
    keep_screenshot(&app, "account-demo-sign-in").await;

    browser.will_choose("ulla");
    google_button(&app).await.click().await.unwrap();
    if let Err(e) = wait
        .text("machine-list", |t| t.contains("Ulla's workstation"))
        .await
    {
        keep_screenshot(&app, "account-demo-not-landed").await;
        panic!(
            "signed in, Porthole moves to ulla's computers: {e}; the browser saw: {:?}",
            browser.seen()
        );
    }
    let list = porthole_e2e::text_of(&wait.element("machine-list").await.unwrap()).await;
    assert!(
        !list.contains("Design laptop"),
        "no practice computer: {list}"
    );
    wait.gone("keys-page")
        .await
        .expect("the dialog closed on the person's computers");
    wait.gone("demo-badge").await.expect("no Demo badge");
    wait.text("account-plan", |t| t.contains("Unlimited"))
        .await
        .expect("ulla's plan in the account area");
    let area = porthole_e2e::text_of(&wait.element("account-panel").await.unwrap()).await;
    assert!(!area.contains("Demo account"), "{area}");
    wait.text("account-where", |t| t.contains("Signed in as ulla"))
        .await
        .expect("whose account this is, by name");
    assert!(
        !area.contains("http"),
        "no service address in the account area: {area}"
    );
    keep_screenshot(&app, "account-signed-in-own-computers").await;

    let account = wait.element("open-keys").await.unwrap();
    assert_eq!(account.text().await.unwrap().trim(), "Account");
    account.click().await.unwrap();
    let who = wait
        .text("keys-identity", |t| t.contains("Signed in"))
        .await
        .unwrap();
    assert!(who.contains("ulla") && !who.contains("Demo"), "{who}");
    let rows = wait.at_least("key-row", 2).await.expect("her keys");
    let mut names = Vec::new();
    for row in rows {
        names.push(row.attr("data-name").await.unwrap().unwrap_or_default());
    }
    assert_eq!(
        names.first().map(String::as_str),
        Some("Porthole desktop app"),
        "the key Porthole made for itself, newest first: {names:?}"
    );
    keep_screenshot(&app, "account-dialog-signed-in").await;

    // Signing out leaves no live key of Porthole's on the account: the one it made is revoked
    // with the sign-in that made it, and nothing needs saying.
    let own_key_live = || {
        let db = sim.state().db();
        db.keys
            .iter()
            .filter(|k| k.owner == sim.account("ulla").user_id)
            .filter(|k| k.name.as_deref() == Some("Porthole desktop app"))
            .map(|k| !k.revoked)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        own_key_live(),
        [true],
        "Porthole's one key, live while used"
    );
    wait.element("keys-page-close")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.element("sign-out")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.element("demo-badge")
        .await
        .expect("signed out: back on the Demo");
    // The Demo is back as soon as the account's connection is gone; the key is revoked just
    // after (sign_out revokes it once nothing uses it), so wait for that, not for the badge.
    let start = std::time::Instant::now();
    while own_key_live() != [false] && start.elapsed() < std::time::Duration::from_secs(30) {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(own_key_live(), [false], "Porthole's key is revoked");
    assert!(
        app.driver
            .find(porthole_e2e::by_testid("action-error"))
            .await
            .is_err(),
        "nothing went wrong to say"
    );

    // Neither the sign-in nor the new key reached the page or the app's files (the
    // simulator keeps only a hash of a key: no key of it may appear, by its prefix).
    let mut secrets = id_tokens(&sim);
    secrets.push("phk_sim_".to_owned());
    let page = app.driver.source().await.unwrap_or_default();
    for secret in &secrets {
        assert!(!page.contains(secret.as_str()), "a secret reached the page");
    }
    let data_dir = app.data_dir().to_path_buf();
    let keep = app.quit().await;
    for secret in &secrets {
        assert!(
            !files_mention(&data_dir, secret),
            "a secret was written to the app's data folder"
        );
    }
    drop(keep);
    sim.shutdown().await;
}

/// fred's free plan allows one key and he has it already: signed in on the Demo, Porthole
/// says it has no room for its own key and what to do. He revokes the old key in the same
/// dialog, presses "Connect Porthole", and lands on his own account (its free computer).
#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_full_key_allowance_is_said_and_freeing_a_key_lets_porthole_connect() {
    let (sim, browser, app) = on_the_demo_knowing_the_service().await;
    let wait = Eventually::new(&app.driver);
    wait.element("open-keys")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    browser.will_choose("fred");
    google_button(&app).await.click().await.unwrap();
    let refused = wait
        .element("account-connect-error")
        .await
        .expect("why Porthole could not connect");
    assert_eq!(
        refused.attr("data-code").await.unwrap().as_deref(),
        Some("signed_in_key_limit")
    );
    let words = porthole_e2e::text_of(&refused).await;
    assert!(
        words.contains("Revoke a key") && words.contains("Connect Porthole"),
        "{words}"
    );
    wait.element("demo-badge").await.expect("still on the Demo");
    keep_screenshot(&app, "account-key-limit").await;

    let rows = wait.at_least("key-row", 1).await.expect("fred's one key");
    assert_eq!(rows.len(), 1, "no key of Porthole's was left behind");
    rows[0]
        .find(porthole_e2e::by_testid("key-revoke"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.element("revoke-yes")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.element("keys-empty").await.expect("the key is gone");
    wait.element("account-connect-button")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.gone("keys-page")
        .await
        .expect("connected: the dialog closed");
    wait.gone("demo-badge").await.expect("off the Demo");
    // A free account's list holds the free cloud computer.
    let list = wait
        .text("machine-list", |t| !t.trim().is_empty())
        .await
        .expect("fred's own computers");
    assert!(
        !list.contains("Design laptop") && !list.contains("Ada's MacBook"),
        "no practice computer: {list}"
    );
    wait.text("account-plan", |t| !t.contains("Pro"))
        .await
        .expect("fred's plan");
    wait.text("account-where", |t| t.contains("Signed in as fred"))
        .await
        .expect("whose account");
    keep_screenshot(&app, "account-key-limit-connected").await;
    drop(app.quit().await);
    sim.shutdown().await;
}
