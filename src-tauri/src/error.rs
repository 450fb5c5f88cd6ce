//! The app's one error type, and the one place it becomes a [`UiError`] the page can show.
//!
//! Invariant: words are chosen by code (the client's [`ErrorCode`] or the app's own variant),
//! never by reading message text; nothing secret is ever put into a `UiError`.

use porthole_client::ErrorCode;
use serde::Serialize;

use crate::error_words::{account as account_words, for_client_code, words};

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
}

pub type AppResult<T> = Result<T, AppError>;

/// Something the person can do about an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, specta::Type)]
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
}

/// An error as the page shows it: a title, a sentence, maybe a time and an action.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct UiError {
    /// Stable identifier; the page may style by it, never parse the words.
    pub code: String,
    pub title: String,
    pub detail: String,
    /// Unix ms when trying again makes sense.
    pub retry_at: Option<f64>,
    pub action: Option<UiAction>,
}

impl UiError {
    pub fn new(code: &str, title: &str, detail: &str, action: Option<UiAction>) -> Self {
        Self {
            code: code.to_owned(),
            title: title.to_owned(),
            detail: detail.to_owned(),
            retry_at: None,
            action,
        }
    }

    pub fn retry_at(mut self, at_ms: Option<f64>) -> Self {
        self.retry_at = at_ms;
        self
    }
}

impl From<&AppError> for UiError {
    fn from(error: &AppError) -> Self {
        match error {
            AppError::Client(err) => {
                let retry_after_ms = err.retry_after().map(|d| d.as_millis() as f64);
                account_words::for_client_error(err)
                    .unwrap_or_else(|| for_client_code(&err.code(), retry_after_ms))
            }
            AppError::Keychain(_) => words::keychain(),
            AppError::Store(_) => words::store(),
            AppError::DemoUnavailable(_) => words::demo_unavailable(),
            AppError::NotConnected => words::not_connected(),
            AppError::UnknownConversation => words::unknown_conversation(),
            AppError::FinishedConversation => words::finished_conversation(),
            AppError::NoPendingApproval => words::no_pending_approval(),
            AppError::CannotWake => words::cannot_wake(),
            AppError::NoTurnYet => words::no_turn_yet(),
            AppError::UnknownReusableTask => words::unknown_reusable_task(),
            AppError::LeaseNotOpen => words::lease_not_open(),
            AppError::NoScreenshot => words::no_screenshot(),
            AppError::NoCriteria => words::no_criteria(),
            AppError::InvalidSchema => words::invalid_schema(),
            AppError::SignInNeeded => account_words::sign_in_needed(),
            AppError::SignInExpired => account_words::sign_in_expired(),
            AppError::SignInTimedOut => account_words::sign_in_timed_out(),
            AppError::SignInCancelled => account_words::sign_in_cancelled(),
            AppError::SignInUnavailable(_) => account_words::sign_in_unavailable(),
            AppError::NotASignInToken => account_words::not_a_sign_in_token(),
            AppError::KeyNameTooLong => account_words::key_name_too_long(),
            AppError::NewKeyGone => account_words::new_key_gone(),
            AppError::ComputerNotOnline => account_words::computer_not_online(),
            AppError::FileUnreadable => account_words::file_unreadable(),
            AppError::FolderNotFile => account_words::folder_not_file(),
            AppError::NotAFile => account_words::not_a_file(),
        }
    }
}

impl From<AppError> for UiError {
    fn from(error: AppError) -> Self {
        // The developer-facing text goes to the log only; it never holds a secret.
        tracing::warn!(error = %error, "command failed");
        UiError::from(&error)
    }
}

/// The wire name of a client code (`"rate_limited"`, ...), for [`UiError::code`].
pub fn code_name(code: &ErrorCode) -> String {
    serde_json::to_value(code)
        .ok()
        .and_then(|v| v.get("code").and_then(|c| c.as_str()).map(str::to_owned))
        .unwrap_or_else(|| "unknown".to_owned())
}

/// Now, in Unix ms.
pub fn now_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as f64)
        .unwrap_or(0.0)
}
