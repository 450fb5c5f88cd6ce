//! What the app says outside its page: desktop notifications, the system's file dialogs, and
//! the names it gives a computer that has none (`locales/<language>/window.json`).

use super::catalog::{text, text_with};

/// A card waits for the person's answer and the window is not in front.
pub fn card_notification_title() -> String {
    text("window.cardNotificationTitle")
}

/// The notification's line: the card's own title (the service's words) when it has one.
pub fn card_notification_body(card_title: &str) -> String {
    let title = notification_safe(card_title);
    if title.is_empty() {
        text("window.cardWaiting")
    } else {
        text_with("window.cardAsks", &[("title", title.into())])
    }
}

/// The buttons of a card's notification: Approve and Deny, or Open.
pub fn notification_approve() -> String {
    text("window.notificationApprove")
}

pub fn notification_deny() -> String {
    text("window.notificationDeny")
}

pub fn notification_open() -> String {
    text("window.notificationOpen")
}

/// A task nears its cap and the window is not in front.
pub fn near_cap_notification_title() -> String {
    text("spending.nearCapNotificationTitle")
}

/// The question a task asks near its cap, as the thread's card asks it.
pub fn near_cap_question(question: &crate::conversations::CapQuestion) -> String {
    let usd = |sum: f64| super::money::usd_in(super::language::current(), sum).into();
    text_with(
        "spending.nearCap",
        &[
            ("cost", usd(question.cost_usd)),
            ("cap", usd(question.cap_usd)),
            ("raise", usd(question.raise_to_usd)),
        ],
    )
}

/// The longest card title a notification shows, in characters: a line or two on any desktop.
const TITLE_CHARS: usize = 100;

/// The agent's words made safe for a notification (security review N5): one line, cut at
/// [`TITLE_CHARS`], and `&`, `<`, `>` escaped, since notification servers may read the body
/// as markup (the desktop notification spec allows `<b>`, `<a href>`, `<img>`). Hand-written:
/// three characters do not need a library.
fn notification_safe(title: &str) -> String {
    let line = title.split_whitespace().collect::<Vec<_>>().join(" ");
    let cut = if line.chars().count() > TITLE_CHARS {
        let kept: String = line.chars().take(TITLE_CHARS - 1).collect();
        format!("{}…", kept.trim_end())
    } else {
        line
    };
    cut.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
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

/// The save dialog of "Save as video…" (a task's film).
pub fn video_save_title() -> String {
    text("window.videoSaveTitle")
}
pub fn video_file_name() -> String {
    text("window.videoFileName")
}
pub fn video_file_kind() -> String {
    text("window.videoFileKind")
}

/// The name of a computer the service names nothing.
pub fn unnamed_computer(free_computer: bool) -> String {
    if free_computer {
        text("window.freeCloudComputer")
    } else {
        text("window.unnamedComputer")
    }
}

#[cfg(test)]
mod notification_tests {
    use super::*;

    #[test]
    fn a_card_title_reaches_the_notification_as_text_on_one_short_line() {
        let body = card_notification_body(
            "Open <a href=\"https://evil.example\">the bank</a> & <img src=x>\nnow",
        );
        assert!(!body.contains('<') && !body.contains('>'), "{body}");
        assert!(
            body.contains("&lt;a href=") && body.contains("&amp;"),
            "{body}"
        );
        assert!(!body.contains('\n'), "{body}");
        let long = card_notification_body(&"Delete ".repeat(40));
        let title = long.trim_start_matches("The agent asks: ");
        assert_eq!(title.chars().count(), TITLE_CHARS, "{long}");
        assert!(title.ends_with('…'), "{long}");
        assert_eq!(
            card_notification_body("  "),
            "The agent is waiting for your answer."
        );
    }
}
