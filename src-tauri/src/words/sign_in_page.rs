//! The little page the browser shows when it comes back to Porthole at the end of signing in
//! (`account::redirect_catcher`): a heading and a line for each way it can end.

/// A heading and its line.
pub type Page = (&'static str, &'static str);

/// Some other address on the catcher's port.
pub const NOT_HERE: Page = ("Not here", "This address only finishes a Porthole sign-in.");
/// A sign-in link of an earlier try (another state).
pub const OUT_OF_DATE: Page = (
    "This sign-in link is out of date",
    "Go back to Porthole and start signing in again.",
);
/// The person said no on the service's page.
pub const CANCELLED: Page = (
    "Sign-in was cancelled",
    "You can close this tab and go back to Porthole.",
);
/// Signed in: Porthole has what it needs.
pub const SIGNED_IN: Page = (
    "You are signed in",
    "You can close this tab and go back to Porthole.",
);
/// The service came back without a code or an error.
pub const NOT_FINISHED: Page = (
    "Sign-in did not finish",
    "Go back to Porthole and try again.",
);
