//! Connecting with an API key (the account dialog's "Use an API key instead") with a wrong key says so and stores nothing: the app stays on the
//! Demo, also after a restart, and the key is in none of the app's files. The service's public
//! address waits there already; an address typed by hand that is not the service gets no key
//! and is said in plain words; "Where do I get an API key?" opens the portal in the browser.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use porthole_e2e::{App, AppOptions, Eventually};
use porthole_sim::{Config, Sim};
use thirtyfour::prelude::Key;

use crate::replay::keep_screenshot;
use crate::signin::DefaultBrowser;

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

/// A web server on this computer that is not the service: every address answers 404, as a
/// web site does for routes it does not have. Counts the requests and notes any credential.
async fn not_the_service() -> (String, Arc<AtomicUsize>, Arc<AtomicBool>) {
    let asked = Arc::new(AtomicUsize::new(0));
    let credential = Arc::new(AtomicBool::new(false));
    let (count, saw) = (asked.clone(), credential.clone());
    let app = axum::Router::new().fallback(move |headers: axum::http::HeaderMap| {
        count.fetch_add(1, Ordering::SeqCst);
        if headers.contains_key(axum::http::header::AUTHORIZATION) {
            saw.store(true, Ordering::SeqCst);
        }
        async { (axum::http::StatusCode::NOT_FOUND, "Not Found") }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (base, asked, credential)
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_typed_address_that_is_not_the_service_gets_no_key_and_the_portal_opens_in_the_browser() {
    let sim = Sim::start(Config::default()).await.expect("a Demo service");
    let key = sim.account("ada").api_key.clone().unwrap();
    let (elsewhere, asked, credential) = not_the_service().await;
    let browser = DefaultBrowser::install();
    browser.will_choose("look");
    let app = App::launch_with(AppOptions {
        env: browser.env(&sim),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver);
    wait.element("open-keys")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    // This copy has no Google sign-in: the dialog says so and opens the API key at once, with
    // the service's public address already in place.
    wait.element("signin-not-configured")
        .await
        .expect("the dialog says Google sign-in is missing");
    let address = wait.element("signin-base-url").await.unwrap();
    assert!(porthole_e2e::visible(&app.driver, &address).await);
    assert_eq!(
        address.prop("value").await.unwrap().as_deref(),
        Some("https://api.sai.simular.ai"),
        "the service's public address is the default"
    );
    let link = wait.element("connect-portal-link").await.unwrap();
    assert_eq!(
        link.text().await.unwrap().trim(),
        "Where do I get an API key?"
    );
    keep_screenshot(&app, "connect-default-address").await;

    // The link opens the portal in the system browser.
    link.click().await.unwrap();
    for _ in 0..100 {
        if browser.seen().contains("asked:") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(
        browser.seen().contains("asked: https://sai.work"),
        "the browser was asked for the portal: {}",
        browser.seen()
    );

    // An address typed by hand that is not the service: asked, refused in plain words, and
    // the key never sent there.
    address.send_keys(Key::Control + "a").await.unwrap();
    address.send_keys(&elsewhere).await.unwrap();
    wait.element("connect-api-key")
        .await
        .unwrap()
        .send_keys(&format!(" \"{key}\" "))
        .await
        .unwrap();
    wait.element("connect-submit")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let error = wait
        .element("connect-error")
        .await
        .expect("why the address was refused");
    assert_eq!(
        error.attr("data-code").await.unwrap().as_deref(),
        Some("not_the_service")
    );
    let words = porthole_e2e::text_of(&error).await;
    assert!(words.contains("This address is not the service"), "{words}");
    assert!(words.contains("sent it nothing"), "{words}");
    for programmer in [
        "404",
        "HTTP",
        "JSON",
        "health",
        elsewhere.as_str(),
        key.as_str(),
    ] {
        assert!(!words.contains(programmer), "{programmer} in: {words}");
    }
    assert!(asked.load(Ordering::SeqCst) > 0, "the address was asked");
    assert!(
        !credential.load(Ordering::SeqCst),
        "no key or token was sent to it"
    );
    keep_screenshot(&app, "connect-not-the-service").await;

    // A typed address is one click from the usual one, and the form says nothing a
    // programmer would.
    let back = wait
        .element("signin-default-address")
        .await
        .expect("a way back to the usual address");
    assert_eq!(
        back.text().await.unwrap().trim(),
        "Use the usual address again (https://api.sai.simular.ai)"
    );
    let form = porthole_e2e::text_of(&wait.element("signin-form").await.unwrap()).await;
    for programmer in [
        "undefined",
        "null",
        "NaN",
        "base_url",
        "baseUrl",
        "Error:",
        "{",
    ] {
        assert!(!form.contains(programmer), "{programmer} in: {form}");
    }
    keep_screenshot(&app, "connect-typed-address").await;
    back.click().await.unwrap();
    assert_eq!(
        address.prop("value").await.unwrap().as_deref(),
        Some("https://api.sai.simular.ai"),
        "back at the usual address"
    );
    wait.gone("signin-default-address")
        .await
        .expect("no way back offered at the usual address");

    // The Demo's simulator, typed by hand, is the service: the same key, pasted with quotes
    // and spaces around it, connects.
    address.send_keys(Key::Control + "a").await.unwrap();
    address.send_keys(&sim.base_url).await.unwrap();
    wait.element("connect-submit")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    Eventually::new(&app.driver)
        .within(std::time::Duration::from_secs(60))
        .gone("demo-badge")
        .await
        .expect("connected with the cleaned key");
    let _ = app.quit().await;
    sim.shutdown().await;
}
