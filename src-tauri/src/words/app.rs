//! Words for what went wrong in Porthole itself: the keychain, its files, the Demo, the
//! window, and a conversation or card that is no longer there.

use super::Words;
use crate::error::UiAction::*;

pub const KEYCHAIN: Words = Words::new(
    "Couldn't use the system keychain",
    "Porthole keeps your API key in the system keychain, and it could not be reached. Unlock your keychain and try again.",
    Some(Retry),
);
pub const STORE: Words = Words::new(
    "Couldn't save",
    "Porthole could not write its data folder. Check free disk space and try again.",
    Some(Retry),
);
/// Said with the file's new place when it is known (`stored::set_aside`).
pub const STORED_DATA_SET_ASIDE: Words = Words::new(
    "A saved file could not be read",
    "Porthole could not read one of its files, moved it aside untouched, and started without it.",
    None,
);
pub const DEMO_UNAVAILABLE: Words = Words::new(
    "The Demo could not start",
    "The built-in Demo service did not start. Restart Porthole, or connect your account.",
    Some(SignIn),
);
pub const NOT_CONNECTED: Words = Words::new(
    "Still connecting",
    "Porthole is still connecting to the service. Try again in a moment.",
    Some(Retry),
);
pub const UNKNOWN_CONVERSATION: Words = Words::new(
    "Conversation not found",
    "This conversation is no longer here. Start a new one.",
    Some(NewConversation),
);
pub const FINISHED_CONVERSATION: Words = Words::new(
    "This conversation is finished",
    "New messages go to the computer's current conversation. Continue there.",
    None,
);
pub const NO_PENDING_APPROVAL: Words = Words::new(
    "Nothing to answer",
    "The agent is no longer waiting for an answer.",
    None,
);
pub const CANNOT_WAKE: Words = Words::new(
    "This computer can't be woken from here",
    "The service says this computer cannot be woken now. Wake it from the web portal, or use another computer.",
    None,
);
pub const BROWSER_UNAVAILABLE: Words = Words::new(
    "Couldn't open your browser",
    "Porthole could not open the approval page in your web browser.",
    None,
);
pub const UNEXPECTED: Words = Words::new(
    "Something went wrong",
    "Porthole hit an unexpected problem. Try again; if it keeps happening, restart the app.",
    Some(Retry),
);
/// The report's file could not be written where the person chose.
pub const REPORT_NOT_SAVED: Words = Words::new(
    "Couldn't save the report",
    "Porthole could not write the file there. Choose another folder, or check that the disk has room.",
    Some(Retry),
);
