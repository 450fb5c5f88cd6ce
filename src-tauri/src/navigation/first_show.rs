//! The main window is made hidden and shown once the page has its first screen in place.
//!
//! Why: with WebKitGTK's DMA-BUF renderer off (`live/renderer.rs`), the first time GTK draws
//! a freshly mapped webview, WebKit's UI process waits for the web process's first frame, for
//! up to half a second, on the main thread. The page, meanwhile, waits for its first commands
//! (language, connection, machine list), which are answered on that same main thread: so in
//! most launches the two waited on each other until WebKit gave up, ~500 ms (seen with a
//! main-thread stack taken during the stall; BENCHMARKS.md, "Footprint"). Shown after the
//! page mounted, the window maps onto a page ready to draw, with no blank white frame either.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tauri::{AppHandle, Manager, Runtime};

/// How long the window may stay hidden when the page never says its first screen is in place
/// (its script did not load, say): then it is shown with whatever it has.
pub const AT_THE_LATEST: Duration = Duration::from_secs(4);

/// Whether the window has had its first showing: that happens once, whoever asks first.
#[derive(Default)]
pub struct FirstShow(AtomicBool);

impl FirstShow {
    /// True for the first caller only.
    pub fn take(&self) -> bool {
        !self.0.swap(true, Ordering::SeqCst)
    }
}

/// Shows the main window if nothing has shown it for the first time yet. Later showings (the
/// tray, a second launch, a notification) are theirs and never held back.
pub fn show_first<R: Runtime>(app: &AppHandle<R>) {
    if app.state::<FirstShow>().take() {
        if let Some(window) = app.get_webview_window("main") {
            let _ = window.show();
            let _ = window.set_focus();
        }
    }
}

/// Shows the window after [`AT_THE_LATEST`] if the page has not asked by then.
pub fn show_at_the_latest(app: &AppHandle) {
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(AT_THE_LATEST).await;
        show_first(&app);
    });
}

/// The page's first screen is in the document: the window can be shown.
#[tauri::command]
#[specta::specta]
pub fn first_screen_ready(app: AppHandle) {
    show_first(&app);
}

#[cfg(test)]
mod tests {
    use super::FirstShow;

    #[test]
    fn the_first_showing_happens_once_whoever_asks_first() {
        let first = FirstShow::default();
        assert!(first.take(), "the page's call shows the window");
        assert!(!first.take(), "the fallback finds it shown and leaves it");
        assert!(!first.take());
    }
}
