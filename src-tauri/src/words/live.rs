//! Words for the live screen: why it could not start, stopped or is reconnecting. The live
//! crate gives a machine reason (`porthole_live::EndReason`); its `Display` is for logs.

use super::Words;
use crate::error::UiAction::*;

pub const FULL_SCREEN_UNAVAILABLE: Words = Words::new(
    "Full screen is not available",
    "The window could not switch to full screen; the live screen fills the window instead.",
    None,
);
pub const SNAPSHOT_NOT_SAVED: Words = Words::new(
    "The snapshot was not saved",
    "Porthole could not write the file there. Try another folder.",
    None,
);
pub const SNAPSHOT_UNREADABLE: Words = Words::new(
    "The snapshot could not be made",
    "The live screen could not be turned into a picture. Try again.",
    None,
);
pub const SOCKET_UNAVAILABLE: Words = Words::new(
    "The live screen could not start",
    "Porthole could not open its own local connection for the live screen. Try again; if it keeps failing, restart Porthole.",
    Some(Retry),
);
pub const PAGE_UNCONNECTED: Words = Words::new(
    "The live screen could not start",
    "This window could not connect to Porthole for the live screen. Close the live screen and open it again; if it keeps failing, restart Porthole.",
    Some(Retry),
);
pub const CLOSED: Words = Words::new(
    "The live screen stopped",
    "The live view was closed by the service.",
    None,
);
pub const TOKEN_REJECTED: Words = Words::new(
    "The live screen stopped",
    "The live view's link was not accepted.",
    None,
);
pub const TOKEN_EXPIRED: Words = Words::new(
    "The live screen's link expired",
    "The live view's link expired.",
    None,
);
pub const MACHINE_STOPPED: Words = Words::new(
    "The computer stopped",
    "The computer stopped running.",
    None,
);
pub const SERVER_ERROR: Words = Words::new(
    "The live screen stopped",
    "The service stopped the live view.",
    None,
);
pub const DISCONNECTED: Words = Words::new(
    "The live screen stopped",
    "The service ended the live view.",
    None,
);
pub const GARBLED: Words = Words::new(
    "The live screen stopped",
    "The live view sent something Porthole could not read.",
    None,
);
pub const UNSUPPORTED: Words = Words::new(
    "The live screen can't be shown",
    "This computer sends its screen in a form Porthole cannot show.",
    None,
);
pub const SILENT: Words = Words::new(
    "The live screen went quiet",
    "Nothing came from the live view for a while.",
    None,
);
pub const NETWORK: Words = Words::new(
    "The live screen lost its connection",
    "The connection to the live view failed.",
    None,
);
pub const ASLEEP: Words = Words::new(
    "The computer is asleep",
    "The computer is asleep. Wake it to watch.",
    Some(Wake),
);
pub const RATE_LIMITED: Words = Words::new(
    "Too many live views",
    "Too many live views were opened in the last hour; waiting.",
    Some(WaitUntil),
);
pub const URL_UNAVAILABLE: Words = Words::new(
    "The live screen could not open",
    "The service did not give Porthole the live screen just now.",
    None,
);
pub const STOPPED: Words = Words::new(
    "The live screen is closed",
    "The live view was closed.",
    None,
);
