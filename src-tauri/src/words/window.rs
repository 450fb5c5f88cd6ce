//! What the app says outside its page: desktop notifications, the system's file dialogs, and
//! the names it gives a computer that has none (`locales/<language>/window.json`).

use super::catalog::{text, text_with};

/// A card waits for the person's answer and the window is not in front.
pub fn card_notification_title() -> String {
    text("window.cardNotificationTitle")
}

/// The notification's line: the card's own title (the service's words) when it has one.
pub fn card_notification_body(card_title: &str) -> String {
    if card_title.is_empty() {
        text("window.cardWaiting")
    } else {
        text_with("window.cardAsks", &[("title", card_title.into())])
    }
}

/// The file picker of the composer's paper clip.
pub fn attach_files() -> String {
    text("window.attachFiles")
}

/// The save dialog of "Save a snapshot" (the live screen as a picture).
pub fn snapshot_file_name() -> String {
    text("window.snapshotFileName")
}
pub fn snapshot_file_kind() -> String {
    text("window.snapshotFileKind")
}

/// The name of a computer the service names nothing.
pub fn unnamed_computer(free_computer: bool) -> String {
    if free_computer {
        text("window.freeCloudComputer")
    } else {
        text("window.unnamedComputer")
    }
}
