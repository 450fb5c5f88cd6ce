//! Whether the app turns off WebKitGTK's DMA-BUF renderer, decided before any webview exists.
//!
//! Measured on the development machine (Debian 12, no GPU, Xvfb, WebKitGTK 2.50.6): with the
//! default renderer, full 1280×800 frames drew at ~24 fps and an unpaced draw loop crashed
//! WebKitWebProcess 2 times out of 2; with
//! `WEBKIT_DISABLE_DMABUF_RENDERER=1` the same stream drew at ~60 fps without crashing. That was
//! measured without a GPU, and should be checked again with one before forcing it there, so
//! the app sets it only on Linux, only when no DRM render node (`/dev/dri/renderD*`, i.e. no
//! hardware GL) exists, and never over the person's own setting of it or of
//! `WEBKIT_DISABLE_COMPOSITING_MODE` (the other switch that fixed it).

/// The variable the app may set.
// Used on Linux only, and by the tests everywhere (a Windows or macOS check warned of both).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub const DISABLE_DMABUF: &str = "WEBKIT_DISABLE_DMABUF_RENDERER";

/// Call first thing in `run()`, while the process has a single thread (setting the
/// environment is only sound then) and before the webview is created.
pub fn choose_webkit_renderer() {
    #[cfg(target_os = "linux")]
    if should_disable_dmabuf(
        |name| std::env::var_os(name).is_some(),
        has_render_node(std::path::Path::new("/dev/dri")),
    ) {
        std::env::set_var(DISABLE_DMABUF, "1");
    }
}

/// Keeps WebKit's memory cache to a minimum ("document viewer"): the page is the app's own,
/// loaded once, so caching gains nothing. It mattered most while the live screen handed WebKit
/// a new `data:` URL image per frame (each a memory-cache resource: with the default "web
/// browser" model the web process grew for as long as a live view was open, BENCHMARKS.md,
/// "Live view in the app"); pictures are now put as pixels, and a picture the bridge cannot
/// decode still takes that path.
pub fn keep_webkit_caches_small(app: &tauri::App) {
    #[cfg(target_os = "linux")]
    {
        use tauri::Manager;
        use webkit2gtk::{WebContextExt, WebViewExt};
        if let Some(window) = app.get_webview_window("main") {
            let _ = window.with_webview(|webview| {
                if let Some(context) = webview.inner().context() {
                    context.set_cache_model(webkit2gtk::CacheModel::DocumentViewer);
                }
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = app;
}

/// The decision, apart from the environment so it can be tested.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub fn should_disable_dmabuf(is_set: impl Fn(&str) -> bool, has_hardware_gl: bool) -> bool {
    !is_set(DISABLE_DMABUF) && !is_set("WEBKIT_DISABLE_COMPOSITING_MODE") && !has_hardware_gl
}

#[cfg(target_os = "linux")]
fn has_render_node(dri: &std::path::Path) -> bool {
    std::fs::read_dir(dri)
        .map(|entries| {
            entries
                .flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with("renderD"))
        })
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_only_without_hardware_gl_and_without_the_persons_own_choice() {
        assert!(should_disable_dmabuf(|_| false, false));
        assert!(!should_disable_dmabuf(|_| false, true));
        assert!(!should_disable_dmabuf(|n| n == DISABLE_DMABUF, false));
        assert!(!should_disable_dmabuf(
            |n| n == "WEBKIT_DISABLE_COMPOSITING_MODE",
            false
        ));
    }
}
