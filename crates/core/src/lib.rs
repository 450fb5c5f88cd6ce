//! Porthole's core: what the app knows and does, with no window. Conversations and their
//! tasks (sending, following, answering, stopping, the spending cap), schedules, the "Needs
//! you" inbox, search, the reusable tasks, the files on disk and every sentence the person
//! reads. The desktop shell (`src-tauri`) holds the window, the commands the page calls, the
//! tray, notifications and dialogs, and reaches this crate through a few traits (such as
//! [`conversations::Notify`]) it implements. This crate does not depend on Tauri, so the
//! compiler keeps it that way.

pub mod connection;
pub mod console;
pub mod conversations;
pub mod error;
pub mod film;
pub mod inbox;
pub mod judge;
pub mod machines;
pub mod persist;
pub mod receipt;
pub mod replay;
pub mod report;
pub mod reusable;
pub mod schedules;
pub mod search;
pub mod store;
pub mod test_switch;
pub mod words;

pub use error::{Problem, UiAction, UiCode, UiError};
