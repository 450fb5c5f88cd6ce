//! What went wrong, as one closed list the page shares: [`UiCode`]. Each code has its words
//! in `words/` (one exhaustive match, so a code without words does not compile); the page
//! compares codes only through the generated type.
//!
//! Codes, not words, are what is saved: a failure in a conversation keeps its code and the
//! time to try again ([`crate::error::Problem`]), and the words are made when it is shown.

use serde::{Deserialize, Serialize};

/// Declares [`UiCode`] with the list of all its values, so tests and the page's words table
/// walk every code; a few lines here rather than a derive crate for one list.
macro_rules! ui_codes {
    ($($(#[$doc:meta])* $name:ident,)*) => {
        /// Every code the app gives the page. The JSON form (`"rate_limited"`) is stable: it is
        /// saved in conversations, so a rename needs an entry in [`UiCode::from_stored`].
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
            specta::Type,
        )]
        #[serde(rename_all = "snake_case")]
        pub enum UiCode {
            $($(#[$doc])* $name,)*
        }

        impl UiCode {
            /// Every code, in declaration order.
            pub const ALL: &'static [UiCode] = &[$(UiCode::$name,)*];
        }
    };
}

ui_codes! {
    // The service refused, or could not be reached.
    Unauthorized,
    Forbidden,
    /// A computer (or its task) that belongs to another account.
    NotYourComputer,
    /// The free allowance of the person's phone number is used by another account.
    PhoneAllowanceInUse,
    /// The service never started the task (`not_started`).
    TaskNotStarted,
    RateLimited,
    MachineBusy,
    MachineUnavailable,
    MachineNotRunning,
    MachineNotFound,
    MessageNotAccepted,
    MessageNotSent,
    /// The app closed while a message was being sent again: not known to be sent.
    MessageNotKnownSent,
    /// The service took the message, but its task's updates were lost before Porthole learned
    /// where it runs: neither failed nor done, the agent may still be working.
    UpdatesLost,
    NoMachine,
    SeveralMachines,
    ModelNotAllowedForPlan,
    InsufficientCredits,
    FreeComputerTimeExhausted,
    PhoneVerificationRequired,
    SessionNotFound,
    ApprovalResolved,
    SelectionRejected,
    ApprovalLinkOnly,
    Network,
    ServerError,
    InvalidBaseUrl,
    InsecureAddress,
    /// Nothing answered at an address typed by hand (asked before a key goes there).
    AddressUnreachable,
    /// Something answered at an address typed by hand, without the service's routes.
    NotTheService,
    /// Something answered at an address typed by hand, but not as the service does.
    NotLikeTheService,
    InvalidCredential,
    /// Any other refusal of the service.
    Refused,
    // The console (direct control).
    ControlNotOpen,
    MachineNotSupported,
    NotFreeTier,
    InvalidBody,
    LeaseNotOpen,
    NoScreenshot,
    ConsoleClosed,
    ConsoleIdle,
    ConsoleLockLost,
    ConsoleUnresponsive,
    ConsoleServiceRestarted,
    ConsoleEnded,
    // Tasks, replay, reusable tasks, checks.
    TaskFailed,
    OutputInvalid,
    CriteriaNotMet,
    CriteriaUnchecked,
    TurnNotFound,
    TurnNotFinished,
    TrajectoryNotRecorded,
    NoSteps,
    TemplateMismatch,
    MixedSessions,
    Validation,
    NotSupported,
    LearnFailed,
    ResultNotFound,
    NoTurnYet,
    UnknownReusableTask,
    NoCriteria,
    InvalidSchema,
    InvalidCap,
    // Schedules.
    UnknownSchedule,
    ScheduleBadTime,
    ScheduleNoDays,
    ScheduleBadInterval,
    ScheduleNoTask,
    ScheduleInThePast,
    ScheduleTooFar,
    /// A run not sent: Porthole is connected to another service than the schedule's.
    ScheduleOtherService,
    /// A run not sent: the hour's messages are spent.
    ScheduleHourlyLimit,
    AutostartUnavailable,
    // Sign-in, keys, new computers.
    SignInNeeded,
    /// New computers are made on the service's web portal (`session_required` with `createUrl`).
    CreateOnPortal,
    SignInExpired,
    SignInTimedOut,
    SignInCancelled,
    /// The person stopped the wait themselves.
    SignInStopped,
    SignInUnreachable,
    SignInUnavailable,
    NotASignInToken,
    /// A sign-in (browser or pasted token) only goes to the service's own address.
    SignInNotHere,
    /// Signed out, but the key Porthole made for itself is still on the account.
    OwnKeyNotRevoked,
    KeyRateLimited,
    KeyLimitReached,
    KeyNotFound,
    KeyNeedsPhone,
    KeyNameTooLong,
    NewKeyGone,
    CreationBusy,
    FreePlanComputer,
    NotBillable,
    ComputerNotOnline,
    /// Signed in, but Porthole could not make its key: the account has no room for one.
    SignedInKeyLimit,
    /// Signed in, but a free account needs a verified phone before Porthole can make its key.
    SignedInNeedsPhone,
    // Attached files.
    UploadRateLimited,
    StorageQuotaExceeded,
    EmptyFile,
    FileTooLarge,
    UploadFailed,
    FileUnreadable,
    FolderNotFile,
    NotAFile,
    // The app itself.
    Keychain,
    Store,
    StoredDataSetAside,
    DemoUnavailable,
    NotConnected,
    UnknownConversation,
    FinishedConversation,
    /// A conversation cannot be deleted while its task runs: Stop first.
    TaskRunningHere,
    NoPendingApproval,
    CannotWake,
    BrowserUnavailable,
    ReportNotSaved,
    /// What the redaction sheet said to hide did not fit the report's pictures.
    RedactionsRefused,
    /// Something the app did not expect (the page's own fallback).
    Unexpected,
    // The live screen.
    FullScreenUnavailable,
    SnapshotNotSaved,
    /// A task's film could not be written as a video where the person chose.
    VideoNotSaved,
    SnapshotUnreadable,
    LiveSocketUnavailable,
    /// The page could not reach the app's own live-screen socket.
    LivePageUnconnected,
    LiveClosed,
    LiveTokenRejected,
    LiveTokenExpired,
    LiveMachineStopped,
    LiveServerError,
    LiveDisconnected,
    LiveGarbled,
    LiveUnsupported,
    LiveSilent,
    LiveNetwork,
    LiveAsleep,
    LiveRateLimited,
    LiveUrlUnavailable,
    /// The app closed the live view.
    LiveStopped,
}

impl UiCode {
    /// The code a saved conversation holds, read leniently: today's names, the names older
    /// versions saved (their client codes, renamed ones), and anything else as `Refused`, so
    /// an old file always loads.
    pub fn from_stored(name: &str) -> UiCode {
        if let Ok(code) = serde_json::from_value(serde_json::Value::from(name)) {
            return code;
        }
        match name {
            "busy" => UiCode::CreationBusy,
            "control_closed" => UiCode::ConsoleEnded,
            "browser" => UiCode::BrowserUnavailable,
            "machine_refused" => UiCode::Forbidden,
            "invalid_machine" => UiCode::MachineNotFound,
            "dispatcher_unavailable" | "live_unavailable" => UiCode::MessageNotAccepted,
            "no_capacity" => UiCode::MachineUnavailable,
            "model_refused" => UiCode::ModelNotAllowedForPlan,
            "budget_exhausted" => UiCode::FreeComputerTimeExhausted,
            "session_id_required" => UiCode::SessionNotFound,
            "approval_not_found" => UiCode::ApprovalResolved,
            "session_required" => UiCode::SignInNeeded,
            "network_timeout" | "timed_out" => UiCode::Network,
            "bad_response" | "unknown" => UiCode::ServerError,
            "model_output_invalid" => UiCode::LearnFailed,
            "learn_not_found" | "judgement_not_found" => UiCode::ResultNotFound,
            _ => UiCode::Refused,
        }
    }
}

/// Reads a saved code with [`UiCode::from_stored`]; for `#[serde(deserialize_with)]`.
pub fn deserialize_stored<'de, D: serde::Deserializer<'de>>(d: D) -> Result<UiCode, D::Error> {
    let name = String::deserialize(d)?;
    Ok(UiCode::from_stored(&name))
}
