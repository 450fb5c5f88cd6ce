//! What the app says outside its page: desktop notifications, the system's file dialogs, and
//! the names it gives a computer that has none.

/// A card waits for the person's answer and the window is not in front.
pub const CARD_NOTIFICATION_TITLE: &str = "Porthole needs your answer";

/// The notification's line: the card's own title (the service's words) when it has one.
pub fn card_notification_body(card_title: &str) -> String {
    if card_title.is_empty() {
        "The agent is waiting for your answer.".to_owned()
    } else {
        format!("The agent asks: {card_title}")
    }
}

/// The file picker of the composer's paper clip.
pub const ATTACH_FILES: &str = "Attach files";

/// The save dialog of "Save a snapshot" (the live screen as a picture).
pub const SNAPSHOT_FILE_NAME: &str = "Live screen.png";
pub const SNAPSHOT_FILE_KIND: &str = "PNG image";

/// The name of a computer the service names nothing.
pub fn unnamed_computer(free_computer: bool) -> &'static str {
    if free_computer {
        "Free cloud computer"
    } else {
        "Unnamed computer"
    }
}
