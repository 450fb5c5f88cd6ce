//! Words for a saved file the app could not read at start (`locales/<language>/stored.json`).
//! Where it went is not said as a path (a temporary or data folder's path means nothing to a
//! person): the notice offers "Show the file", which shows it in the file manager.

use super::catalog::{text, text_with};
use crate::error::{UiAction, UiCode, UiError};
use crate::store::{Kept, SetAside};

/// Which of the app's files it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    Settings,
    Conversations,
    Library,
    Usage,
    Schedules,
    Inbox,
    /// The Demo's world (`connection::demo_world`).
    Demo,
}

pub fn set_aside(what: Stored, set_aside: &SetAside) -> UiError {
    let (title, file) = match what {
        Stored::Settings => (text("stored.settingsTitle"), text("stored.settingsFile")),
        Stored::Conversations => (
            text("stored.conversationTitle"),
            text("stored.conversationFile"),
        ),
        Stored::Library => (text("stored.libraryTitle"), text("stored.libraryFile")),
        Stored::Usage => (text("stored.usageTitle"), text("stored.usageFile")),
        Stored::Schedules => (text("stored.schedulesTitle"), text("stored.schedulesFile")),
        Stored::Inbox => (text("stored.inboxTitle"), text("stored.inboxFile")),
        Stored::Demo => (text("stored.demoTitle"), text("stored.demoFile")),
    };
    let started = match set_aside.kept {
        Kept::Nothing if what == Stored::Demo => text("stored.demoKeptNothing"),
        Kept::LastGoodCopy => text("stored.keptLastGoodCopy"),
        Kept::ReadablePart => text("stored.keptReadablePart"),
        Kept::Nothing => text("stored.keptNothing"),
    };
    let mut words = UiError::from(UiCode::StoredDataSetAside);
    words.title = title;
    words.detail = text_with(
        "stored.detail",
        &[("file", file.into()), ("started", started.into())],
    );
    words.action = Some(UiAction::ShowFile);
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_schedules_file_set_aside_is_said_with_show_the_file_not_its_path() {
        let aside = SetAside {
            moved_to: "/tmp/data/schedules.json.unreadable-2026-11-25".into(),
            kept: Kept::Nothing,
        };
        let words = set_aside(Stored::Schedules, &aside);
        assert_eq!(words.title, "Your schedules could not be read");
        assert!(!words.detail.contains("/tmp"), "{}", words.detail);
        assert!(words.detail.contains("moved the file aside"));
        assert!(words.detail.contains("started without it"));
        assert_eq!(words.action, Some(UiAction::ShowFile));
    }
}
