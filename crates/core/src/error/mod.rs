//! The app's one error type, and what the page is given for it: a [`UiError`] (code and
//! words, made in `words/`), or a [`Problem`] (code and facts) where it is saved.
//!
//! Invariant: words are chosen by code ([`UiCode`], read from the client's code or the app's
//! own variant in `problem.rs`), never by reading message text; nothing secret is ever
//! put into either.

use serde::{Deserialize, Serialize};

pub mod code;
pub mod problem;

pub use code::UiCode;

/// What can go wrong in the app shell.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Client(#[from] porthole_client::Error),
    #[error("keychain: {0}")]
    Keychain(String),
    #[error("store: {0}")]
    Store(String),
    #[error("the Demo service could not start: {0}")]
    DemoUnavailable(String),
    #[error("not connected to a service yet")]
    NotConnected,
    #[error("no such conversation")]
    UnknownConversation,
    #[error("the conversation is finished; messages go to the current one")]
    FinishedConversation,
    #[error("a task is still running in the conversation")]
    TaskRunningHere,
    #[error("no approval is waiting")]
    NoPendingApproval,
    #[error("the computer cannot be woken")]
    CannotWake,
    // Replay, reusable tasks, checks, console.
    #[error("no task has run in this conversation yet")]
    NoTurnYet,
    #[error("no such reusable task")]
    UnknownReusableTask,
    #[error("no lease is open on this computer")]
    LeaseNotOpen,
    #[error("no screenshot was captured")]
    NoScreenshot,
    #[error("no criteria to check")]
    NoCriteria,
    #[error("the output schema is not a JSON object")]
    InvalidSchema,
    // Schedules.
    #[error("no such schedule")]
    UnknownSchedule,
    #[error("the schedule cannot be kept as asked: {0:?}")]
    UnfitSchedule(crate::schedules::timing::Unfit),
    #[error("starting at login could not be changed: {0}")]
    Autostart(String),
    #[error("the spending cap is not a positive sum of dollars")]
    InvalidCap,
    // Sign-in, keys, new computers, attachments.
    #[error("nobody is signed in with the identity provider")]
    SignInNeeded,
    #[error("the sign-in expired and cannot be renewed")]
    SignInExpired,
    #[error("the browser sign-in timed out")]
    SignInTimedOut,
    #[error("the browser sign-in was cancelled")]
    SignInCancelled,
    #[error("browser sign-in could not start: {0}")]
    SignInUnavailable(String),
    #[error("an API key was given where a sign-in token belongs")]
    NotASignInToken,
    #[error("the address typed is not the service: {0:?}")]
    NotTheService(porthole_client::service_check::Verdict),
    #[error("a sign-in token goes only to the service's own address")]
    SignInNotHere,
    #[error("signed out, but Porthole's own key could not be revoked")]
    OwnKeyLeft,
    #[error("key name over 100 characters")]
    KeyNameTooLong,
    #[error("the new key is no longer held")]
    NewKeyGone,
    #[error("the new computer did not come online in time")]
    ComputerNotOnline,
    #[error("the file could not be read")]
    FileUnreadable,
    #[error("a folder was given instead of a file")]
    FolderNotFile,
    #[error("a pipe, device or socket was given instead of a file")]
    NotAFile,
    // Sharing a report.
    #[error("the report could not be written: {0}")]
    ReportNotSaved(String),
    /// What the sheet said to hide does not fit the report's pictures (another film or task, or
    /// more than a person could hide): refused, so nothing leaves unredacted.
    #[error("what to hide was refused: {0}")]
    RedactionsRefused(String),
}

pub type AppResult<T> = Result<T, AppError>;

/// Something the person can do about an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum UiAction {
    /// Try the same thing again now.
    Retry,
    /// Try again at `retryAt`.
    WaitUntil,
    /// Connect (or reconnect) an account.
    SignIn,
    /// Wake the computer.
    Wake,
    /// Pick another model.
    ChooseModel,
    /// Start a new conversation.
    NewConversation,
    /// Show the file it names in the system's file manager (a file the app set aside).
    ShowFile,
}

/// An error as the page shows it: a title, a sentence, maybe a time and an action. Only
/// `words/` makes one (`UiError::from(code)`, from an `AppError` or a `Problem`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct UiError {
    /// What went wrong; the page may choose by it, never parse the words.
    pub code: UiCode,
    pub title: String,
    pub detail: String,
    /// Unix ms when trying again makes sense.
    pub retry_at: Option<f64>,
    pub action: Option<UiAction>,
    /// A page of the service that is the way out (only `http`/`https`), opened in the
    /// browser: the web portal's page for a new computer (`createUrl`).
    #[serde(default)]
    pub link: Option<String>,
}

/// A failure as a conversation saves it: its code and the facts its words need, no words.
/// Files of older versions saved a whole `UiError` here; its code is read leniently and its
/// words are dropped (they come from the code again).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Problem {
    #[serde(deserialize_with = "crate::error::code::deserialize_stored")]
    #[specta(type = UiCode)]
    pub code: UiCode,
    /// Unix ms when trying again makes sense.
    #[serde(default)]
    pub retry_at: Option<f64>,
}

impl Problem {
    pub fn new(code: UiCode) -> Self {
        Self {
            code,
            retry_at: None,
        }
    }

    pub fn retry_at(mut self, at_ms: Option<f64>) -> Self {
        self.retry_at = at_ms;
        self
    }
}

/// Now, in Unix ms.
pub fn now_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as f64)
        .unwrap_or(0.0)
}
