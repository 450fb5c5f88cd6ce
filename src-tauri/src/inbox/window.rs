//! The window's side of the inbox: when what needs the person changed, the page is told, the
//! tray shows the count, and so does the window (its badge, or its title where there is none).

use tauri::{AppHandle, Manager};
use tauri_specta::Event;

use super::Inbox;
use crate::connection::Connection;
use crate::conversations::Conversations;
use crate::navigation::events::InboxChanged;

/// Derives the inbox again and, when it changed, tells the page, the tray and the window.
/// Cheap when nothing changed: it reads the state in memory and compares.
/// `conversation` changed: the inbox follows when it changed anything the inbox shows.
pub fn refresh_for(app: &AppHandle, conversation: &crate::conversations::Conversation) {
    let shows = app
        .try_state::<Inbox>()
        .is_some_and(|inbox| inbox.shows_change_of(conversation));
    if shows {
        refresh(app);
    }
}

pub fn refresh(app: &AppHandle) {
    let (Some(inbox), Some(conversations), Some(connection)) = (
        app.try_state::<Inbox>(),
        app.try_state::<Conversations>(),
        app.try_state::<Connection>(),
    ) else {
        // Called during setup, before every piece of state is registered.
        return;
    };
    let Some(view) = inbox.changed(&conversations, &connection) else {
        return;
    };
    let _ = InboxChanged { count: view.count }.emit(app);
    crate::tray::show_count(app, view.count);
    show_on_window(app, view.count);
}

/// The count on the window. The badge is the dock's or launcher's (macOS; Linux only under a
/// launcher with the Unity count API, and Tauri's Linux badge needs the app's installed
/// .desktop file); Windows has none. So outside macOS the title carries it: "Porthole (2)".
fn show_on_window(app: &AppHandle, count: u32) {
    let Some(window) = app.get_webview_window("main") else {
        return;
    };
    let badge = (count > 0).then_some(i64::from(count));
    let _ = window.set_badge_count(badge);
    if !cfg!(target_os = "macos") {
        let title = if count > 0 {
            format!("Porthole ({count})")
        } else {
            "Porthole".to_owned()
        };
        let _ = window.set_title(&title);
    }
}
