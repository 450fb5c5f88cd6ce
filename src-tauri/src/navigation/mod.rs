//! The window shows the app's own pages and nothing else. A page that tries to go elsewhere
//! (a link, `location = …`, `window.open`) is refused, and the address opens in the system
//! browser instead when it passes the rule approval pages pass: a web page over https, or the
//! service's own address. Anything else (`file:`, `data:`, plain http elsewhere) opens nowhere.
//!
//! Why refuse rather than trust the page: an answer's links come from the agent, and a remote
//! page in the app's window (which has no address bar) could pass for the app; and under a
//! script injection, navigation is a way out that the CSP's `connect-src` does not close.

mod context_menu;
pub mod events;
pub mod first_show;
pub mod start_problem;

use tauri::webview::NewWindowResponse;
use tauri::{AppHandle, Manager, Url, WebviewWindowBuilder};
use tauri_plugin_opener::OpenerExt;

use crate::connection::Connection;

/// The window named `label` in `tauri.conf.json` (which does not create it), with the guard.
pub fn create_window(app: &tauri::App, label: &str) -> tauri::Result<()> {
    let config = app
        .config()
        .app
        .windows
        .iter()
        .find(|w| w.label == label)
        .cloned()
        .ok_or_else(|| tauri::Error::WindowNotFound)?;
    // `tauri dev` serves the page from Vite; a built app serves it itself.
    let dev_url = tauri::is_dev()
        .then(|| app.config().build.dev_url.clone())
        .flatten();
    let (navigating, opening) = (app.handle().clone(), app.handle().clone());
    let window = WebviewWindowBuilder::from_config(app.handle(), &config)?
        .on_navigation(move |url| {
            let stays = is_app_page(url, dev_url.as_ref());
            if !stays {
                leave(&navigating, url.clone());
            }
            stays
        })
        .on_new_window(move |url, _| {
            leave(&opening, url);
            NewWindowResponse::Deny
        })
        .theme(chosen_theme())
        .build()?;
    context_menu::without_navigation(&window);
    Ok(())
}

/// The window follows the system's light or dark setting, unless `PORTHOLE_THEME` is `light`
/// or `dark`. On macOS and Windows the page's `prefers-color-scheme` follows the window; on
/// Linux WebKitGTK takes it from GTK's theme (`GTK_THEME=Adwaita:dark` is the system's dark
/// setting), which is what the end-to-end tests set.
fn chosen_theme() -> Option<tauri::Theme> {
    match std::env::var("PORTHOLE_THEME").ok()?.as_str() {
        "dark" => Some(tauri::Theme::Dark),
        "light" => Some(tauri::Theme::Light),
        _ => None,
    }
}

/// Whether `url` is one of the app's own pages: its custom protocol (`tauri://localhost` on
/// Linux and macOS, `http(s)://tauri.localhost` on Windows), the blank page a webview starts
/// on, or in development the dev server.
pub fn is_app_page(url: &Url, dev_url: Option<&Url>) -> bool {
    match (url.scheme(), url.host_str()) {
        ("tauri", Some("localhost")) => true,
        ("http" | "https", Some("tauri.localhost")) => true,
        ("about", _) => url.path() == "blank",
        _ => dev_url.is_some_and(|dev| dev.origin() == url.origin()),
    }
}

/// Whether `url` may open in the system browser: the rule approval pages follow.
pub fn opens_in_browser(url: &Url, service: Option<&Url>) -> bool {
    let same_host = url.host_str().is_some() && service.and_then(Url::host_str) == url.host_str();
    url.scheme() == "https" || (url.scheme() == "http" && same_host)
}

/// The page tried to leave for `url`: the browser gets it if the rule allows. Off the window's
/// thread, since the service's address may be a moment away while switching.
fn leave(app: &AppHandle, url: Url) {
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        let service = app
            .state::<Connection>()
            .active()
            .await
            .ok()
            .and_then(|active| Url::parse(active.client.base_url()).ok());
        if !opens_in_browser(&url, service.as_ref()) {
            // The address itself is not logged: it may carry what a script wanted out.
            tracing::warn!(
                scheme = url.scheme(),
                "the page tried to leave the app; refused"
            );
            return;
        }
        if app.opener().open_url(url.as_str(), None::<&str>).is_err() {
            tracing::warn!("a link could not be opened in the browser");
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn only_the_apps_own_pages_stay_in_the_window() {
        for own in [
            "tauri://localhost/",
            "tauri://localhost/index.html#keys",
            "http://tauri.localhost/",
            "https://tauri.localhost/assets/x.js",
            "about:blank",
        ] {
            assert!(is_app_page(&url(own), None), "{own}");
        }
        for away in [
            "https://example.com/",
            "http://localhost:5173/",
            "tauri://elsewhere/",
            "file:///etc/passwd",
            "data:text/html,<h1>hi</h1>",
            "about:config",
            "https://tauri.localhost.example.com/",
        ] {
            assert!(!is_app_page(&url(away), None), "{away}");
        }
        let dev = url("http://localhost:5173");
        assert!(is_app_page(
            &url("http://localhost:5173/src/App.svelte"),
            Some(&dev)
        ));
        assert!(!is_app_page(&url("http://localhost:5174/"), Some(&dev)));
    }

    #[test]
    fn links_open_in_the_browser_over_https_or_on_the_services_own_address() {
        let service = url("http://127.0.0.1:8080");
        assert!(opens_in_browser(&url("https://example.com/a?b"), None));
        assert!(opens_in_browser(
            &url("http://127.0.0.1:8080/approve/1"),
            Some(&service)
        ));
        for refused in [
            "http://example.com/",
            "file:///etc/passwd",
            "data:text/html,x",
            "javascript:alert(1)",
            "tauri://localhost/",
            "ftp://example.com/",
        ] {
            assert!(
                !opens_in_browser(&url(refused), Some(&service)),
                "{refused}"
            );
        }
        assert!(!opens_in_browser(&url("http://127.0.0.1:8080/"), None));
    }
}
