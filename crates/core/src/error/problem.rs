//! Which [`UiCode`] a failure is, and the facts its words need (when to try again): the
//! client's codes, read with the operation that failed where one code means different things
//! (a 429 on key creation is the five-an-hour limit; on uploads, the thirty-an-hour one), the
//! app's own errors, a task's end, a console lease's end, a live view's end. No words here.

use porthole_client::control::ClosedReason;
use porthole_client::events::EventErrorCode;
use porthole_client::turns::ReasonCode;
use porthole_client::{Error, ErrorCode, Limit, Operation, TaskFailure};
use porthole_live::EndReason;

use crate::error::{now_ms, AppError, Problem, UiCode};

const DAY_MS: f64 = 86_400_000.0;

impl From<&AppError> for Problem {
    fn from(error: &AppError) -> Self {
        use UiCode as U;
        let code = match error {
            AppError::Client(err) => return of_client(err),
            AppError::Keychain(_) => U::Keychain,
            AppError::Store(_) => U::Store,
            AppError::DemoUnavailable(_) => U::DemoUnavailable,
            AppError::NotConnected => U::NotConnected,
            AppError::UnknownConversation => U::UnknownConversation,
            AppError::FinishedConversation => U::FinishedConversation,
            AppError::TaskRunningHere => U::TaskRunningHere,
            AppError::NoPendingApproval => U::NoPendingApproval,
            AppError::CannotWake => U::CannotWake,
            AppError::NoTurnYet => U::NoTurnYet,
            AppError::UnknownReusableTask => U::UnknownReusableTask,
            AppError::LeaseNotOpen => U::LeaseNotOpen,
            AppError::NoScreenshot => U::NoScreenshot,
            AppError::NoCriteria => U::NoCriteria,
            AppError::InvalidSchema => U::InvalidSchema,
            AppError::UnknownSchedule => U::UnknownSchedule,
            AppError::UnfitSchedule(unfit) => unfit_schedule(*unfit),
            AppError::Autostart(_) => U::AutostartUnavailable,
            AppError::InvalidCap => U::InvalidCap,
            AppError::SignInNeeded => U::SignInNeeded,
            AppError::SignInExpired => U::SignInExpired,
            AppError::SignInTimedOut => U::SignInTimedOut,
            AppError::SignInCancelled => U::SignInCancelled,
            AppError::SignInUnavailable(_) => U::SignInUnavailable,
            AppError::NotASignInToken => U::NotASignInToken,
            AppError::NotTheService(verdict) => {
                use porthole_client::service_check::Verdict;
                match verdict {
                    Verdict::Unreachable => U::AddressUnreachable,
                    Verdict::NotTheService => U::NotTheService,
                    Verdict::SomethingElse | Verdict::Service => U::NotLikeTheService,
                }
            }
            AppError::SignInNotHere => U::SignInNotHere,
            AppError::OwnKeyLeft => U::OwnKeyNotRevoked,
            AppError::KeyNameTooLong => U::KeyNameTooLong,
            AppError::NewKeyGone => U::NewKeyGone,
            AppError::ComputerNotOnline => U::ComputerNotOnline,
            AppError::FileUnreadable => U::FileUnreadable,
            AppError::FolderNotFile => U::FolderNotFile,
            AppError::NotAFile => U::NotAFile,
            AppError::ReportNotSaved(_) => U::ReportNotSaved,
            AppError::RedactionsRefused(_) => U::RedactionsRefused,
        };
        Problem::new(code)
    }
}

fn unfit_schedule(unfit: crate::schedules::timing::Unfit) -> UiCode {
    use crate::schedules::timing::Unfit;
    match unfit {
        Unfit::BadTime => UiCode::ScheduleBadTime,
        Unfit::NoDays => UiCode::ScheduleNoDays,
        Unfit::BadInterval => UiCode::ScheduleBadInterval,
        Unfit::NoTask => UiCode::ScheduleNoTask,
        Unfit::InThePast => UiCode::ScheduleInThePast,
        Unfit::TooFar => UiCode::ScheduleTooFar,
    }
}

/// The service's page that is the way out of `error`, when it names one: `createUrl` on a
/// refused new computer. Only `http`/`https`, so a service cannot hand the browser a
/// `file:` or `javascript:` address.
pub fn link_of(error: &AppError) -> Option<String> {
    let AppError::Client(err) = error else {
        return None;
    };
    let ErrorCode::SessionRequired {
        create_url: Some(url),
    } = err.code()
    else {
        return None;
    };
    web_link(&url)
}

/// `url` when it is a web address the browser may be handed.
pub fn web_link(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url).ok()?;
    matches!(parsed.scheme(), "http" | "https").then(|| url.to_owned())
}

/// An error the client raised: its code, and when trying again makes sense.
pub fn of_client(err: &Error) -> Problem {
    let operation = err.api().map(|a| a.operation);
    let limit = match err {
        Error::BudgetSpent { limit, .. } => Some(*limit),
        _ => None,
    };
    let after = err.retry_after().map(|d| d.as_millis() as f64);
    let is = |op: Operation, lim: Limit| operation == Some(op) || limit == Some(lim);
    let code = err.code();
    let by_feature = match &code {
        ErrorCode::RateLimited { .. } if is(Operation::CreateKey, Limit::KeyCreation) => {
            Some(UiCode::KeyRateLimited)
        }
        ErrorCode::RateLimited { .. } if is(Operation::Upload, Limit::Uploads) => {
            Some(UiCode::UploadRateLimited)
        }
        ErrorCode::RateLimited { .. } if is(Operation::CreateMachine, Limit::MachineCreation) => {
            Some(UiCode::CreationBusy)
        }
        ErrorCode::PhoneVerificationRequired if operation == Some(Operation::CreateKey) => {
            Some(UiCode::KeyNeedsPhone)
        }
        ErrorCode::Forbidden | ErrorCode::Unauthorized
            if matches!(
                operation,
                Some(Operation::CreateKey | Operation::ListKeys | Operation::RevokeKey)
            ) =>
        {
            Some(UiCode::SignInNeeded)
        }
        // An upload that failed for a reason not about the file itself.
        ErrorCode::StorageQuotaExceeded
        | ErrorCode::EmptyFile
        | ErrorCode::FileTooLarge
        | ErrorCode::SessionRequired { .. } => None,
        _ if operation == Some(Operation::Upload) => Some(UiCode::UploadFailed),
        _ => None,
    };
    match by_feature {
        Some(code) => Problem::new(code).retry_at(after.map(|ms| now_ms() + ms)),
        None => of_code_with_retry(&code, after),
    }
}

/// A client code read alone, with the time to try again for those that wait.
fn of_code_with_retry(code: &ErrorCode, retry_after_ms: Option<f64>) -> Problem {
    let asked = |ms: &Option<u64>| ms.map(|m| m as f64).or(retry_after_ms);
    let wait = |ms: &Option<u64>, default_ms: f64| Some(now_ms() + asked(ms).unwrap_or(default_ms));
    let retry_at = match code {
        ErrorCode::RateLimited { retry_after_ms: ms } => wait(ms, 60_000.0),
        ErrorCode::MachineBusy { retry_after_ms: ms }
        | ErrorCode::MachineUnavailable { retry_after_ms: ms }
        | ErrorCode::NoCapacity { retry_after_ms: ms } => wait(ms, 30_000.0),
        ErrorCode::InsufficientCredits
        | ErrorCode::ModelRefused {
            out_of_credits: true,
        }
        | ErrorCode::BudgetExhausted => Some(next_utc_midnight(now_ms())),
        ErrorCode::CreationBusy => retry_after_ms.map(|ms| now_ms() + ms),
        _ => None,
    };
    Problem::new(of_code(code)).retry_at(retry_at)
}

/// The page's code for a client code.
pub fn of_code(code: &ErrorCode) -> UiCode {
    use ErrorCode as C;
    use UiCode as U;
    match code {
        C::Unauthorized => U::Unauthorized,
        C::Forbidden | C::MachineRefused => U::Forbidden,
        C::NotYourMachine => U::NotYourComputer,
        C::RateLimited { .. } => U::RateLimited,
        C::MachineBusy { .. } => U::MachineBusy,
        C::MachineUnavailable { .. } | C::NoCapacity { .. } => U::MachineUnavailable,
        C::MachineNotRunning => U::MachineNotRunning,
        C::MachineNotFound | C::InvalidMachine => U::MachineNotFound,
        C::MessageNotAccepted | C::DispatcherUnavailable | C::LiveUnavailable => {
            U::MessageNotAccepted
        }
        C::MessageNotSent => U::MessageNotSent,
        C::UpdatesLost => U::UpdatesLost,
        C::NoMachine => U::NoMachine,
        C::SeveralMachines { .. } => U::SeveralMachines,
        C::ModelNotAllowedForPlan { .. }
        | C::ModelRefused {
            out_of_credits: false,
        } => U::ModelNotAllowedForPlan,
        C::InsufficientCredits
        | C::ModelRefused {
            out_of_credits: true,
        } => U::InsufficientCredits,
        C::BudgetExhausted => U::FreeComputerTimeExhausted,
        C::PhoneVerificationRequired => U::PhoneVerificationRequired,
        C::PhoneAllowanceInUse => U::PhoneAllowanceInUse,
        C::SessionNotFound | C::SessionIdRequired => U::SessionNotFound,
        C::ApprovalResolved | C::ApprovalNotFound => U::ApprovalResolved,
        C::SelectionRejected => U::SelectionRejected,
        C::ApprovalLinkOnly => U::ApprovalLinkOnly,
        // Only a signed-in person may do this; an API key is not enough.
        C::SessionRequired {
            create_url: Some(_),
        } => U::CreateOnPortal,
        C::SessionRequired { create_url: None } => U::SignInNeeded,
        C::Network | C::NetworkTimeout | C::TimedOut => U::Network,
        C::ServerError { .. } | C::BadResponse | C::Unknown { .. } => U::ServerError,
        C::InvalidBaseUrl => U::InvalidBaseUrl,
        C::InsecureAddress => U::InsecureAddress,
        C::InvalidCredential => U::InvalidCredential,
        C::ControlClosed { reason } => of_lease_end(reason),
        C::ControlNotOpen => U::ControlNotOpen,
        C::MachineNotSupported => U::MachineNotSupported,
        C::NotFreeTier => U::NotFreeTier,
        C::InvalidBody { .. } => U::InvalidBody,
        C::TurnNotFound => U::TurnNotFound,
        C::TurnNotFinished => U::TurnNotFinished,
        C::TrajectoryNotRecorded => U::TrajectoryNotRecorded,
        C::NoSteps => U::NoSteps,
        C::TemplateMismatch => U::TemplateMismatch,
        C::MixedSessions => U::MixedSessions,
        C::Validation => U::Validation,
        C::NotSupported => U::NotSupported,
        C::ModelOutputInvalid | C::LearnFailed => U::LearnFailed,
        C::LearnNotFound | C::JudgementNotFound => U::ResultNotFound,
        C::CreationBusy => U::CreationBusy,
        C::KeyLimitReached => U::KeyLimitReached,
        C::KeyNotFound => U::KeyNotFound,
        C::FreePlanComputer => U::FreePlanComputer,
        C::NotBillable => U::NotBillable,
        C::StorageQuotaExceeded => U::StorageQuotaExceeded,
        C::EmptyFile => U::EmptyFile,
        C::FileTooLarge => U::FileTooLarge,
        C::FilenameRequired
        | C::AbortTargetMissing
        | C::NotFound
        | C::BadRequest
        | C::Conflict
        | C::InvalidInput => U::Refused,
    }
}

/// A task that ended badly; out of credits and spent free time say when they come back.
pub fn of_task_failure(failure: &TaskFailure) -> Problem {
    match &failure.code {
        Some(EventErrorCode::InsufficientCredits) => {
            let at = failure.resets_at.as_deref().and_then(parse_iso_ms);
            Problem::new(UiCode::InsufficientCredits)
                .retry_at(Some(at.unwrap_or_else(|| next_utc_midnight(now_ms()))))
        }
        Some(EventErrorCode::FreeComputerTimeExhausted) => {
            Problem::new(UiCode::FreeComputerTimeExhausted)
                .retry_at(Some(next_utc_midnight(now_ms())))
        }
        // The computer never took the task, or could not be reached: not the agent's failure.
        _ => match &failure.reason {
            Some(ReasonCode::MachineUnavailable) => {
                Problem::new(UiCode::MachineUnavailable).retry_at(Some(now_ms() + MACHINE_RETRY_MS))
            }
            Some(ReasonCode::NotStarted) => Problem::new(UiCode::TaskNotStarted),
            _ => Problem::new(UiCode::TaskFailed),
        },
    }
}

/// When to offer a task again on a computer that was not available: the documented
/// `Retry-After` of `machine_unavailable`.
const MACHINE_RETRY_MS: f64 = 30_000.0;

/// Why a console lease ended.
pub fn of_lease_end(reason: &ClosedReason) -> UiCode {
    match reason {
        ClosedReason::Closed => UiCode::ConsoleClosed,
        ClosedReason::IdleTimeout => UiCode::ConsoleIdle,
        ClosedReason::LockLost => UiCode::ConsoleLockLost,
        ClosedReason::Unresponsive => UiCode::ConsoleUnresponsive,
        ClosedReason::Shutdown => UiCode::ConsoleServiceRestarted,
        ClosedReason::Other(_) => UiCode::ConsoleEnded,
    }
}

/// Why a structured task (output schema or success criteria) failed, when that is the reason.
pub fn of_turn_reason(reason: &ReasonCode) -> Option<UiCode> {
    match reason {
        ReasonCode::OutputInvalid => Some(UiCode::OutputInvalid),
        ReasonCode::CriteriaNotMet => Some(UiCode::CriteriaNotMet),
        ReasonCode::CriteriaUnchecked => Some(UiCode::CriteriaUnchecked),
        ReasonCode::MachineUnavailable => Some(UiCode::MachineUnavailable),
        ReasonCode::NotStarted => Some(UiCode::TaskNotStarted),
        _ => None,
    }
}

/// Why a live view stopped or is reconnecting.
pub fn of_live_end(reason: &EndReason) -> UiCode {
    match reason {
        EndReason::Closed { .. } => UiCode::LiveClosed,
        EndReason::TokenRejected { .. } => UiCode::LiveTokenRejected,
        EndReason::TokenExpired { .. } => UiCode::LiveTokenExpired,
        EndReason::MachineStopped { .. } => UiCode::LiveMachineStopped,
        EndReason::ServerError { .. } => UiCode::LiveServerError,
        EndReason::Disconnected => UiCode::LiveDisconnected,
        EndReason::Garbled { .. } => UiCode::LiveGarbled,
        EndReason::Unsupported { .. } => UiCode::LiveUnsupported,
        EndReason::Silent { .. } => UiCode::LiveSilent,
        EndReason::Network { .. } => UiCode::LiveNetwork,
        EndReason::Asleep => UiCode::LiveAsleep,
        EndReason::RateLimited { .. } => UiCode::LiveRateLimited,
        EndReason::UrlUnavailable { .. } => UiCode::LiveUrlUnavailable,
        EndReason::Stopped => UiCode::LiveStopped,
    }
}

/// The next midnight UTC, in Unix ms: when free-plan budgets reset.
pub fn next_utc_midnight(now: f64) -> f64 {
    (now / DAY_MS).floor() * DAY_MS + DAY_MS
}

/// Reads `YYYY-MM-DDTHH:MM:SS(.sss)Z` without a date library.
pub fn parse_iso_ms(text: &str) -> Option<f64> {
    let text = text.trim().trim_end_matches('Z');
    let (date, time) = text.split_once('T')?;
    let mut d = date.split('-').map(|p| p.parse::<i64>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    let mut t = time.split(':');
    let h: i64 = t.next()?.parse().ok()?;
    let min: i64 = t.next()?.parse().ok()?;
    let sec: f64 = t.next().unwrap_or("0").parse().ok()?;
    // Days from the civil date (Howard Hinnant's algorithm).
    let y2 = if m <= 2 { y - 1 } else { y };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 86_400 + h * 3600 + min * 60) as f64 + sec) * 1000.0)
}
