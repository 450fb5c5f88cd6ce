//! The window never leaves the app: a page that tries to go elsewhere stays where it is, and
//! the address opens in the system browser only when it is https (or the service's own
//! address); `file:` and plain http elsewhere open nowhere.
//!
//! The system browser is a script that writes down each address it is given, made the default
//! web browser the freedesktop way, so the app's real opener call (xdg-open) is what runs it.

use std::path::PathBuf;

use porthole_e2e::{App, AppOptions, Eventually};

use crate::replay::keep_screenshot;

/// A default browser that only writes down the addresses it is asked to open.
pub(crate) struct RecordingBrowser {
    dir: tempfile::TempDir,
}

impl RecordingBrowser {
    pub(crate) fn install() -> RecordingBrowser {
        let dir = tempfile::tempdir().expect("a folder for the browser");
        let root = dir.path();
        std::fs::create_dir_all(root.join("config")).unwrap();
        std::fs::create_dir_all(root.join("data/applications")).unwrap();
        let script = root.join("browser.sh");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '{}'\n",
                root.join("opened").display()
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(
            root.join("config/mimeapps.list"),
            "[Default Applications]\nx-scheme-handler/http=porthole-e2e-links.desktop\n\
             x-scheme-handler/https=porthole-e2e-links.desktop\n",
        )
        .unwrap();
        std::fs::write(
            root.join("data/applications/porthole-e2e-links.desktop"),
            format!(
                "[Desktop Entry]\nType=Application\nName=Porthole link recorder\n\
                 Exec={} %u\nMimeType=x-scheme-handler/http;x-scheme-handler/https;\n",
                script.display()
            ),
        )
        .unwrap();
        RecordingBrowser { dir }
    }

    pub(crate) fn opened(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.path().join("opened"))
            .unwrap_or_default()
            .lines()
            .map(str::to_owned)
            .collect()
    }

    /// Waits (boundedly) until the browser was given `url`.
    async fn wait_for(&self, url: &str) {
        for _ in 0..200 {
            if self.opened().iter().any(|u| u == url) {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        panic!("the browser never got {url}; it got {:?}", self.opened());
    }

    pub(crate) fn env(&self) -> Vec<(String, String)> {
        let system_data =
            std::env::var("XDG_DATA_DIRS").unwrap_or_else(|_| "/usr/local/share:/usr/share".into());
        let system_config = std::env::var("XDG_CONFIG_DIRS").unwrap_or_else(|_| "/etc/xdg".into());
        let at = |p: &str| -> PathBuf { self.dir.path().join(p) };
        vec![
            (
                "XDG_CONFIG_DIRS".into(),
                format!("{}:{system_config}", at("config").display()),
            ),
            (
                "XDG_DATA_DIRS".into(),
                format!("{}:{system_data}", at("data").display()),
            ),
        ]
    }
}

async fn go(app: &App, url: &str) {
    app.driver
        .execute(
            "window.location.href = arguments[0]",
            vec![serde_json::json!(url)],
        )
        .await
        .expect("the page runs the script");
}

/// Puts a link on top of the page and clicks it, as a person would.
async fn click_link(app: &App, url: &str) {
    app.driver
        .execute(
            "const a = document.createElement('a');
             a.href = arguments[0]; a.textContent = 'a link';
             a.dataset.testid = 'e2e-link';
             a.style.cssText = 'position:fixed;top:0;left:0;z-index:2147483647;padding:8px';
             document.body.appendChild(a);",
            vec![serde_json::json!(url)],
        )
        .await
        .expect("the page runs the script");
    Eventually::new(&app.driver)
        .element("e2e-link")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn the_window_never_leaves_the_app_and_web_links_go_to_the_browser() {
    let browser = RecordingBrowser::install();
    let app = App::launch_with(AppOptions {
        env: browser.env(),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver);
    wait.element("open-keys").await.expect("the app's page");
    let own = app.driver.current_url().await.unwrap();

    // An https link: refused in the window, opened in the browser.
    let away = "https://example.test/away?from=porthole";
    click_link(&app, away).await;
    browser.wait_for(away).await;

    // Neither a file nor plain http to another host opens anywhere, however the page asks.
    // (An https address after them shows when the browser has had its chance.)
    go(&app, "file:///etc/hostname").await;
    go(&app, "http://example.test/plain").await;
    let last = "https://example.test/last";
    go(&app, last).await;
    browser.wait_for(last).await;

    assert_eq!(browser.opened(), vec![away.to_owned(), last.to_owned()]);
    assert_eq!(
        app.driver.current_url().await.unwrap(),
        own,
        "still the app's page"
    );
    assert_eq!(
        app.driver.windows().await.unwrap().len(),
        1,
        "no new window"
    );
    wait.element("open-keys")
        .await
        .expect("the app's page is still there");
    keep_screenshot(&app, "navigation-refused").await;
    app.quit().await;
}
