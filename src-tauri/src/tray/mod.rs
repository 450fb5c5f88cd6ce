//! The icon in the system tray (the notification area): its menu and the count of what needs
//! the person in its title and tooltip.
//!
//! The menu's entries are listed in [`menu`], each with what a click does; an entry added
//! later (a schedule's) goes there. Where the desktop has no tray (a bare X server, some
//! Wayland desktops) the icon is simply not shown: the app works the same without it.

mod menu;

use tauri::tray::TrayIconBuilder;
use tauri::{AppHandle, Manager};

const TRAY_ID: &str = "porthole";

/// The count last shown, for a menu built again for another reason (a schedule changed).
static LAST_COUNT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// Builds the menu again with the count last shown: a schedule changed.
pub fn refresh(app: &AppHandle) {
    show_count(app, LAST_COUNT.load(std::sync::atomic::Ordering::Relaxed));
}

/// Puts the icon in the tray. A desktop without a tray is not an error worth stopping for.
pub fn create(app: &AppHandle) {
    let built = menu::build(app, 0).and_then(|menu| {
        let mut tray = TrayIconBuilder::with_id(TRAY_ID)
            .menu(&menu)
            .tooltip("Porthole")
            .on_menu_event(|app, event| menu::clicked(app, event.id().as_ref()));
        if let Some(icon) = app.default_window_icon() {
            tray = tray.icon(icon.clone());
        }
        tray.build(app)
    });
    if let Err(err) = built {
        tracing::info!(error = %err, "no tray icon");
    }
}

/// Shows `count` things needing the person: in the tooltip (macOS, Windows), the title beside
/// the icon (Linux shows no tooltip, and its title only beside an icon), and the menu.
pub fn show_count(app: &AppHandle, count: u32) {
    LAST_COUNT.store(count, std::sync::atomic::Ordering::Relaxed);
    let Some(tray) = app.tray_by_id(TRAY_ID) else {
        return;
    };
    let words = menu::count_words(count);
    let _ = tray.set_tooltip(Some(format!("Porthole — {words}")));
    let _ = tray.set_title((count > 0).then(|| count.to_string()));
    if let Ok(menu) = menu::build(app, count) {
        let _ = tray.set_menu(Some(menu));
    }
}

/// Brings the window forward (also from a hidden or minimized state).
pub fn show_window(app: &AppHandle) {
    if let Some(window) = app.get_webview_window("main") {
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
        // Shown is back, also where the desktop gives it no focus.
        crate::schedules::window::presence_changed(app, true);
    }
}
