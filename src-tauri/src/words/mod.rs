//! Every sentence the Rust side of Porthole says to a person. What went wrong is chosen by
//! [`UiCode`] in one exhaustive match ([`of`]): a new code without words does not compile.
//! The rest (the thread's notices, notifications, the tray, file dialogs, the shared report,
//! the page the browser shows after signing in) sits beside it, one file per part of the app;
//! nothing else writes sentences, and none is chosen by reading a message's text. The page
//! gets the error words and the notices' sentences through the generated bindings ([`table`],
//! [`notices::table`]).

use serde::Serialize;

use crate::error::{AppError, Problem, UiAction, UiCode, UiError};

mod account;
mod app;
pub mod catalog;
mod console;
mod files;
pub mod language;
mod live;
pub mod notices;
pub mod report;
pub mod schedules;
mod service;
pub mod sign_in_page;
pub mod stored;
mod tasks;
pub mod tray;
pub mod window;

#[cfg(test)]
mod tests;

/// A code's words: a short title, a sentence or two, and what the person can do.
///
/// The fields are in alphabetical order, and `table` is keyed by the code's name, because the
/// generated bindings must read the same whether or not serde_json keeps insertion order (a
/// workspace build turns `preserve_order` on, a build of this crate alone does not).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Words {
    pub action: Option<UiAction>,
    pub detail: &'static str,
    pub title: &'static str,
}

impl Words {
    pub const fn new(title: &'static str, detail: &'static str, action: Option<UiAction>) -> Self {
        Self {
            title,
            detail,
            action,
        }
    }
}

/// The words for `code`.
pub fn of(code: UiCode) -> Words {
    use UiCode::*;
    match code {
        Unauthorized => service::UNAUTHORIZED,
        Forbidden => service::FORBIDDEN,
        RateLimited => service::RATE_LIMITED,
        MachineBusy => service::MACHINE_BUSY,
        MachineUnavailable => service::MACHINE_UNAVAILABLE,
        MachineNotRunning => service::MACHINE_NOT_RUNNING,
        MachineNotFound => service::MACHINE_NOT_FOUND,
        MessageNotAccepted => service::MESSAGE_NOT_ACCEPTED,
        MessageNotSent => service::MESSAGE_NOT_SENT,
        MessageNotKnownSent => service::MESSAGE_NOT_KNOWN_SENT,
        NoMachine => service::NO_MACHINE,
        SeveralMachines => service::SEVERAL_MACHINES,
        ModelNotAllowedForPlan => service::MODEL_NOT_ALLOWED_FOR_PLAN,
        InsufficientCredits => service::INSUFFICIENT_CREDITS,
        FreeComputerTimeExhausted => service::FREE_COMPUTER_TIME_EXHAUSTED,
        PhoneVerificationRequired => service::PHONE_VERIFICATION_REQUIRED,
        SessionNotFound => service::SESSION_NOT_FOUND,
        ApprovalResolved => service::APPROVAL_RESOLVED,
        SelectionRejected => service::SELECTION_REJECTED,
        ApprovalLinkOnly => service::APPROVAL_LINK_ONLY,
        Network => service::NETWORK,
        ServerError => service::SERVER_ERROR,
        InvalidBaseUrl => service::INVALID_BASE_URL,
        InsecureAddress => service::INSECURE_ADDRESS,
        InvalidCredential => service::INVALID_CREDENTIAL,
        Refused => service::REFUSED,
        ControlNotOpen => console::CONTROL_NOT_OPEN,
        MachineNotSupported => console::MACHINE_NOT_SUPPORTED,
        NotFreeTier => console::NOT_FREE_TIER,
        InvalidBody => console::INVALID_BODY,
        LeaseNotOpen => console::LEASE_NOT_OPEN,
        NoScreenshot => console::NO_SCREENSHOT,
        ConsoleClosed => console::CLOSED,
        ConsoleIdle => console::IDLE,
        ConsoleLockLost => console::LOCK_LOST,
        ConsoleUnresponsive => console::UNRESPONSIVE,
        ConsoleServiceRestarted => console::SERVICE_RESTARTED,
        ConsoleEnded => console::ENDED,
        TaskFailed => tasks::TASK_FAILED,
        OutputInvalid => tasks::OUTPUT_INVALID,
        CriteriaNotMet => tasks::CRITERIA_NOT_MET,
        CriteriaUnchecked => tasks::CRITERIA_UNCHECKED,
        TurnNotFound => tasks::TURN_NOT_FOUND,
        TurnNotFinished => tasks::TURN_NOT_FINISHED,
        TrajectoryNotRecorded => tasks::TRAJECTORY_NOT_RECORDED,
        NoSteps => tasks::NO_STEPS,
        TemplateMismatch => tasks::TEMPLATE_MISMATCH,
        MixedSessions => tasks::MIXED_SESSIONS,
        Validation => tasks::VALIDATION,
        NotSupported => tasks::NOT_SUPPORTED,
        LearnFailed => tasks::LEARN_FAILED,
        ResultNotFound => tasks::RESULT_NOT_FOUND,
        NoTurnYet => tasks::NO_TURN_YET,
        UnknownReusableTask => tasks::UNKNOWN_REUSABLE_TASK,
        NoCriteria => tasks::NO_CRITERIA,
        InvalidSchema => tasks::INVALID_SCHEMA,
        InvalidCap => tasks::INVALID_CAP,
        UnknownSchedule => schedules::UNKNOWN_SCHEDULE,
        ScheduleBadTime => schedules::BAD_TIME,
        ScheduleNoDays => schedules::NO_DAYS,
        ScheduleBadInterval => schedules::BAD_INTERVAL,
        ScheduleNoTask => schedules::NO_TASK,
        ScheduleInThePast => schedules::IN_THE_PAST,
        ScheduleOtherService => schedules::OTHER_SERVICE,
        ScheduleHourlyLimit => schedules::HOURLY_LIMIT,
        AutostartUnavailable => schedules::AUTOSTART_UNAVAILABLE,
        SignInNeeded => account::SIGN_IN_NEEDED,
        SignInExpired => account::SIGN_IN_EXPIRED,
        SignInTimedOut => account::SIGN_IN_TIMED_OUT,
        SignInCancelled => account::SIGN_IN_CANCELLED,
        SignInStopped => account::SIGN_IN_STOPPED,
        SignInUnreachable => account::SIGN_IN_UNREACHABLE,
        SignInUnavailable => account::SIGN_IN_UNAVAILABLE,
        NotASignInToken => account::NOT_A_SIGN_IN_TOKEN,
        KeyRateLimited => account::KEY_RATE_LIMITED,
        KeyLimitReached => account::KEY_LIMIT_REACHED,
        KeyNotFound => account::KEY_NOT_FOUND,
        KeyNeedsPhone => account::KEY_NEEDS_PHONE,
        KeyNameTooLong => account::KEY_NAME_TOO_LONG,
        NewKeyGone => account::NEW_KEY_GONE,
        CreationBusy => account::CREATION_BUSY,
        FreePlanComputer => account::FREE_PLAN_COMPUTER,
        NotBillable => account::NOT_BILLABLE,
        ComputerNotOnline => account::COMPUTER_NOT_ONLINE,
        SignedInKeyLimit => account::SIGNED_IN_KEY_LIMIT,
        SignedInNeedsPhone => account::SIGNED_IN_NEEDS_PHONE,
        UploadRateLimited => files::UPLOAD_RATE_LIMITED,
        StorageQuotaExceeded => files::STORAGE_QUOTA_EXCEEDED,
        EmptyFile => files::EMPTY_FILE,
        FileTooLarge => files::FILE_TOO_LARGE,
        UploadFailed => files::UPLOAD_FAILED,
        FileUnreadable => files::FILE_UNREADABLE,
        FolderNotFile => files::FOLDER_NOT_FILE,
        NotAFile => files::NOT_A_FILE,
        Keychain => app::KEYCHAIN,
        Store => app::STORE,
        StoredDataSetAside => app::STORED_DATA_SET_ASIDE,
        DemoUnavailable => app::DEMO_UNAVAILABLE,
        NotConnected => app::NOT_CONNECTED,
        UnknownConversation => app::UNKNOWN_CONVERSATION,
        FinishedConversation => app::FINISHED_CONVERSATION,
        NoPendingApproval => app::NO_PENDING_APPROVAL,
        CannotWake => app::CANNOT_WAKE,
        BrowserUnavailable => app::BROWSER_UNAVAILABLE,
        ReportNotSaved => app::REPORT_NOT_SAVED,
        Unexpected => app::UNEXPECTED,
        FullScreenUnavailable => live::FULL_SCREEN_UNAVAILABLE,
        SnapshotNotSaved => live::SNAPSHOT_NOT_SAVED,
        SnapshotUnreadable => live::SNAPSHOT_UNREADABLE,
        LiveSocketUnavailable => live::SOCKET_UNAVAILABLE,
        LivePageUnconnected => live::PAGE_UNCONNECTED,
        LiveClosed => live::CLOSED,
        LiveTokenRejected => live::TOKEN_REJECTED,
        LiveTokenExpired => live::TOKEN_EXPIRED,
        LiveMachineStopped => live::MACHINE_STOPPED,
        LiveServerError => live::SERVER_ERROR,
        LiveDisconnected => live::DISCONNECTED,
        LiveGarbled => live::GARBLED,
        LiveUnsupported => live::UNSUPPORTED,
        LiveSilent => live::SILENT,
        LiveNetwork => live::NETWORK,
        LiveAsleep => live::ASLEEP,
        LiveRateLimited => live::RATE_LIMITED,
        LiveUrlUnavailable => live::URL_UNAVAILABLE,
        LiveStopped => live::STOPPED,
    }
}

/// Every code's words, keyed by code: exported to the page as `UI_WORDS`.
pub fn table() -> std::collections::BTreeMap<String, Words> {
    UiCode::ALL
        .iter()
        .map(|&code| (code_name(code), of(code)))
        .collect()
}

/// A code's name as the page and the saved files know it (its serde name).
fn code_name(code: UiCode) -> String {
    match serde_json::to_value(code) {
        Ok(serde_json::Value::String(name)) => name,
        _ => unreachable!("a UiCode serializes as its name"),
    }
}

impl From<UiCode> for UiError {
    fn from(code: UiCode) -> Self {
        let words = of(code);
        UiError {
            code,
            title: words.title.to_owned(),
            detail: words.detail.to_owned(),
            retry_at: None,
            action: words.action,
        }
    }
}

impl From<&Problem> for UiError {
    fn from(problem: &Problem) -> Self {
        UiError {
            retry_at: problem.retry_at,
            ..UiError::from(problem.code)
        }
    }
}

impl From<Problem> for UiError {
    fn from(problem: Problem) -> Self {
        UiError::from(&problem)
    }
}

impl From<&AppError> for UiError {
    fn from(error: &AppError) -> Self {
        UiError::from(Problem::from(error))
    }
}

impl From<AppError> for UiError {
    fn from(error: AppError) -> Self {
        // The developer-facing text goes to the log only; it never holds a secret.
        tracing::warn!(error = %error, "command failed");
        UiError::from(&error)
    }
}
