//! Words for a saved file the app could not read at start, with where it went. The path is
//! the person's own data folder, shown so they can find the file; it holds nothing secret.

use crate::error::{UiCode, UiError};
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
}

pub fn set_aside(what: Stored, set_aside: &SetAside) -> UiError {
    let (title, file) = match what {
        Stored::Settings => ("Your settings could not be read", "your settings"),
        Stored::Conversations => (
            "A saved conversation could not be read",
            "a saved conversation",
        ),
        Stored::Library => (
            "Your reusable tasks could not be read",
            "your library of reusable tasks",
        ),
        Stored::Usage => (
            "Your usage figures could not be read",
            "the usage figures of your tasks",
        ),
        Stored::Schedules => ("Your schedules could not be read", "your schedules"),
        Stored::Inbox => (
            "What you put away in Needs you could not be read",
            "what you put away in Needs you (those items may show again)",
        ),
    };
    let started = match set_aside.kept {
        Kept::LastGoodCopy => "Porthole started from the copy it had saved before it, so the latest changes may be missing.",
        Kept::ReadablePart => "Porthole kept everything up to the part it could not read.",
        Kept::Nothing => "Porthole started without it.",
    };
    let mut words = UiError::from(UiCode::StoredDataSetAside);
    words.title = title.to_owned();
    words.detail = format!(
        "Porthole could not read the file holding {file}. It moved the file, untouched, to {}. {started}",
        set_aside.moved_to.display()
    );
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_schedules_file_set_aside_is_said_with_where_it_went() {
        let aside = SetAside {
            moved_to: "/data/schedules.json.unreadable-2026-11-25".into(),
            kept: Kept::Nothing,
        };
        let words = set_aside(Stored::Schedules, &aside);
        assert_eq!(words.title, "Your schedules could not be read");
        assert!(words
            .detail
            .contains("/data/schedules.json.unreadable-2026-11-25"));
        assert!(words.detail.contains("started without it"));
    }
}
