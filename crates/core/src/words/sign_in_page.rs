//! The little page the browser shows when it comes back to Porthole at the end of signing in
//! (`account::redirect_catcher`): a heading and a line for each way it can end, from
//! `locales/<language>/signInPage.json`.

use super::catalog::text;

/// A heading and its line.
pub type Page = (String, String);

/// Some other address on the catcher's port.
pub fn not_here() -> Page {
    (text("signInPage.notHere"), text("signInPage.notHereLine"))
}
/// A sign-in link of an earlier try (another state).
pub fn out_of_date() -> Page {
    (
        text("signInPage.outOfDate"),
        text("signInPage.outOfDateLine"),
    )
}
/// The person said no on the service's page.
pub fn cancelled() -> Page {
    (
        text("signInPage.cancelled"),
        text("signInPage.closeTabLine"),
    )
}
/// Signed in: Porthole has what it needs.
pub fn signed_in() -> Page {
    (text("signInPage.signedIn"), text("signInPage.closeTabLine"))
}
/// The service came back without a code or an error.
pub fn not_finished() -> Page {
    (
        text("signInPage.notFinished"),
        text("signInPage.notFinishedLine"),
    )
}
