//! Signing in through the browser, in the window, as the real service signs in: "Sign in with
//! Google" opens the system's default browser (xdg-open) on Google's page (played by the
//! simulator), the person chooses their account there, the browser comes back to the app's
//! loopback address, Porthole trades Google's ID token for a Firebase ID token (the simulator
//! again), and the Keys page opens signed in. The ID token stays out of the app's files and
//! the page. A refusal on Google's page is said in a sentence with a way to start again.
//! While the app waits for the browser, Cancel stops the wait at once: the form is back, and
//! the browser's late answer finds the app's address closed.
//!
//! The browser is `tests/browser/sign-in-browser.py`, made the default web browser the
//! freedesktop way (a `.desktop` entry and a `mimeapps.list` in the app's XDG dirs), so the
//! app's real "open in the browser" call (tauri-plugin-opener → xdg-open) is what runs it.

use std::path::{Path, PathBuf};

use porthole_e2e::{App, AppOptions, Eventually};
use porthole_sim::{Config, RunningSim, Sim};
use thirtyfour::prelude::*;

use crate::flows::files_mention;
use crate::replay::keep_screenshot;

pub(crate) const SCALE: f64 = 0.05;

/// XDG folders that make the test browser the default for web links.
pub(crate) struct DefaultBrowser {
    dir: tempfile::TempDir,
}

impl DefaultBrowser {
    pub(crate) fn install() -> DefaultBrowser {
        let dir = tempfile::tempdir().expect("a folder for the browser's settings");
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("browser/sign-in-browser.py");
        let script = script.canonicalize().expect("the test browser exists");
        std::fs::create_dir_all(dir.path().join("config")).unwrap();
        std::fs::create_dir_all(dir.path().join("data/applications")).unwrap();
        std::fs::write(
            dir.path().join("config/mimeapps.list"),
            "[Default Applications]\nx-scheme-handler/http=porthole-e2e-browser.desktop\n\
             x-scheme-handler/https=porthole-e2e-browser.desktop\n",
        )
        .unwrap();
        std::fs::write(
            dir.path()
                .join("data/applications/porthole-e2e-browser.desktop"),
            format!(
                "[Desktop Entry]\nType=Application\nName=Porthole test browser\n\
                 Exec={} %u\nMimeType=x-scheme-handler/http;x-scheme-handler/https;\n",
                script.display()
            ),
        )
        .unwrap();
        DefaultBrowser { dir }
    }

    fn log(&self) -> PathBuf {
        self.dir.path().join("browser.log")
    }

    /// What the person will do on the next sign-in page: an account's name, `deny`, or
    /// `wait` (leave the page open until this names an account, then sign in late).
    pub(crate) fn will_choose(&self, choice: &str) {
        // Written beside and renamed into place: the browser polls this file while it waits,
        // and a plain write could be read between truncating and writing (an empty choice).
        let partial = self.dir.path().join("choice.partial");
        std::fs::write(&partial, choice).unwrap();
        std::fs::rename(partial, self.dir.path().join("choice")).unwrap();
    }

    pub(crate) fn seen(&self) -> String {
        std::fs::read_to_string(self.log()).unwrap_or_default()
    }

    /// The app's environment: the Demo is `sim` without a sign-in of its own, and web links
    /// open in the test browser.
    pub(crate) fn env(&self, sim: &RunningSim) -> Vec<(String, String)> {
        let system_data =
            std::env::var("XDG_DATA_DIRS").unwrap_or_else(|_| "/usr/local/share:/usr/share".into());
        let system_config = std::env::var("XDG_CONFIG_DIRS").unwrap_or_else(|_| "/etc/xdg".into());
        let at = |p: &str| self.dir.path().join(p).display().to_string();
        vec![
            ("PORTHOLE_DEMO_URL".into(), sim.base_url.clone()),
            (
                "PORTHOLE_DEMO_KEY".into(),
                sim.account("ada").api_key.clone().unwrap(),
            ),
            (
                "XDG_CONFIG_DIRS".into(),
                format!("{}:{system_config}", at("config")),
            ),
            (
                "XDG_DATA_DIRS".into(),
                format!("{}:{system_data}", at("data")),
            ),
            (
                "PORTHOLE_E2E_BROWSER_LOG".into(),
                self.log().display().to_string(),
            ),
            (
                "PORTHOLE_E2E_BROWSER_CHOICE".into(),
                self.dir.path().join("choice").display().to_string(),
            ),
        ]
    }
}

/// "Sign in with Google", once the app has said it can work at the address typed.
pub(crate) async fn google_button(app: &App) -> WebElement {
    let wait = Eventually::new(&app.driver);
    for _ in 0..200 {
        let button = wait
            .element("signin-browser")
            .await
            .expect("the Google button");
        if button.is_enabled().await.unwrap_or(false) {
            return button;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the Google button never became usable");
}

/// Every ID token the identity provider has issued or seeded.
pub(crate) fn id_tokens(sim: &RunningSim) -> Vec<String> {
    sim.state().db().id_tokens.keys().cloned().collect()
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn signing_in_through_the_browser_says_each_failure_in_words() {
    let sim = Sim::start(Config {
        time_scale: SCALE,
        ..Config::default()
    })
    .await
    .expect("an identity provider and service");
    let browser = DefaultBrowser::install();
    let app = App::launch_with(AppOptions {
        demo_time_scale: Some(SCALE),
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
    wait.element("signin-form")
        .await
        .expect("nobody is signed in yet: the sign-in form shows");
    // The service's address is under "Use an API key instead / Advanced" (open already
    // when the app could not connect).
    let toggle = wait.element("account-advanced-toggle").await.unwrap();
    let shown = match app
        .driver
        .find(porthole_e2e::by_testid("signin-base-url"))
        .await
    {
        Ok(el) => porthole_e2e::visible(&app.driver, &el).await,
        Err(_) => false,
    };
    if !shown {
        toggle.click().await.unwrap();
    }
    let address = wait.element("signin-base-url").await.unwrap();
    address.clear().await.unwrap();
    address.send_keys(&sim.base_url).await.unwrap();

    // The Demo's address: this copy signs in there with the simulator's Google and
    // Firebase, so the button is there and says where the person signs in.
    let google = google_button(&app).await;
    assert_eq!(google.text().await.unwrap().trim(), "Sign in with Google");
    assert!(app
        .driver
        .find(By::Css("[data-testid=signin-not-configured]"))
        .await
        .is_err());
    keep_screenshot(&app, "signin-google").await;

    // The person leaves the browser's page open and cancels in the app instead: the wait
    // stops at once, in plain words, and the form is back.
    browser.will_choose("wait");
    google_button(&app).await.click().await.unwrap();
    let cancel = wait
        .element("signin-cancel")
        .await
        .expect("the waiting state offers Cancel");
    wait.element("signin-waiting").await.unwrap();
    for _ in 0..200 {
        if browser.seen().contains("opened") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(browser.seen().contains("opened"), "{}", browser.seen());
    keep_screenshot(&app, "signin-waiting-cancel").await;
    cancel.click().await.unwrap();
    let notice = wait
        .text("signin-notice", |t| !t.trim().is_empty())
        .await
        .expect("a plain word that the sign-in stopped");
    assert_eq!(notice.trim(), "Sign-in cancelled.");
    assert!(app
        .driver
        .find(By::Css("[data-testid=signin-error]"))
        .await
        .is_err());
    assert!(wait
        .element("signin-browser")
        .await
        .unwrap()
        .is_enabled()
        .await
        .unwrap());
    // The person finishes in the browser after all: its redirect finds the app's address
    // closed, and nobody is signed in.
    browser.will_choose("ulla");
    for _ in 0..200 {
        if browser.seen().contains("unreachable") || browser.seen().contains("landed") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let seen = browser.seen();
    assert!(
        seen.contains("late: ulla") && seen.contains("unreachable"),
        "{seen}"
    );
    assert!(!seen.contains("You are signed in"), "{seen}");
    wait.element("signin-form")
        .await
        .expect("still not signed in");
    std::fs::write(browser.log(), "").unwrap();

    // The person refuses on the provider's page: said in a sentence, with Try again.
    browser.will_choose("deny");
    google_button(&app).await.click().await.unwrap();
    let refused = wait
        .text("signin-error", |t| t.contains("cancelled"))
        .await
        .expect("a sentence about the refused sign-in");
    assert!(refused.contains("start again"), "with a way out: {refused}");
    assert!(
        browser.seen().contains("Sign-in was cancelled"),
        "the browser tab says so too: {}",
        browser.seen()
    );
    keep_screenshot(&app, "signin-refused").await;

    // Then signs in as nophone, a free account whose phone is not verified: signed in, but
    // Porthole cannot make itself a key there, and says so plainly with what to do.
    browser.will_choose("nophone");
    google_button(&app).await.click().await.unwrap();
    let who = match wait
        .text("keys-identity", |t| t.contains("Signed in"))
        .await
    {
        Ok(who) => who,
        Err(e) => {
            keep_screenshot(&app, "signin-browser-not-signed-in").await;
            panic!(
                "the browser came back and the account page is signed in: {e}; the browser saw: {:?}",
                browser.seen()
            );
        }
    };
    assert!(
        who.contains("nophone"),
        "signed in as the account chosen in the browser: {who}"
    );
    assert!(!who.contains("http"), "no service address shown: {who}");
    let refused = wait
        .element("account-connect-error")
        .await
        .expect("the reason Porthole could not connect");
    assert_eq!(
        refused.attr("data-code").await.unwrap().as_deref(),
        Some("signed_in_needs_phone")
    );
    let words = porthole_e2e::text_of(&refused).await;
    assert!(
        words.contains("phone") && words.contains("web portal"),
        "{words}"
    );
    wait.element("demo-badge")
        .await
        .expect("still on the Demo, as the page says");
    let seen = browser.seen();
    assert!(seen.contains("pressed: Sign in as nophone"), "{seen}");
    assert!(
        seen.contains("landed: http://127.0.0.1:") && seen.contains("You are signed in"),
        "the browser was sent back to the app: {seen}"
    );
    keep_screenshot(&app, "signin-needs-phone").await;
    // The way out: a new sign-in (the phone is read from it), so the form is back.
    wait.element("account-sign-in-again")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.element("signin-browser")
        .await
        .expect("the sign-in form is back");

    let tokens = id_tokens(&sim);
    assert!(!tokens.is_empty());
    let page = app.driver.source().await.unwrap_or_default();
    for token in &tokens {
        assert!(
            !page.contains(token.as_str()),
            "an ID token reached the page"
        );
    }
    let data_dir = app.data_dir().to_path_buf();
    let keep = app.quit().await;
    for token in &tokens {
        assert!(
            !files_mention(&data_dir, token),
            "an ID token was written to the app's data folder"
        );
    }
    drop(keep);
    sim.shutdown().await;
}

/// The sign-in screens in German: "Mit Google anmelden" at the Demo's address, and at an
/// address that is not the Demo's, in this copy built without Google sign-in, the sentence
/// that says so in place of the button, with the token and the API key open below.
#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn the_sign_in_screens_speak_german_and_say_when_google_sign_in_is_missing() {
    let sim = Sim::start(Config {
        time_scale: SCALE,
        ..Config::default()
    })
    .await
    .expect("a service");
    let browser = DefaultBrowser::install();
    let mut env = browser.env(&sim);
    env.push(("LC_ALL".into(), "de_DE.UTF-8".into()));
    let app = App::launch_with(AppOptions {
        demo_time_scale: Some(SCALE),
        env,
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
    crate::flows::unfold_advanced(&app).await.unwrap();
    let address = wait.element("signin-base-url").await.unwrap();
    address.clear().await.unwrap();
    address.send_keys(&sim.base_url).await.unwrap();
    let google = google_button(&app).await;
    assert_eq!(google.text().await.unwrap().trim(), "Mit Google anmelden");
    keep_screenshot(&app, "signin-de-google").await;

    address.send_keys(Key::Control + "a").await.unwrap();
    address.send_keys("http://127.0.0.1:9").await.unwrap();
    let said = wait
        .text("signin-not-configured", |t| !t.trim().is_empty())
        .await
        .expect("the sentence in place of the button");
    assert!(said.contains("ohne Google-Anmeldung gebaut"), "{said}");
    assert!(app
        .driver
        .find(By::Css("[data-testid=signin-browser]"))
        .await
        .is_err());
    assert!(porthole_e2e::visible(&app.driver, &wait.element("signin-token").await.unwrap()).await);
    keep_screenshot(&app, "signin-de-not-configured").await;
    let _ = app.quit().await;
    sim.shutdown().await;
}
