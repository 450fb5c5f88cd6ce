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
