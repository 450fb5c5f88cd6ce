//! Plain words for every error, chosen by code. The only file that writes error sentences.

use porthole_client::events::EventErrorCode;
use porthole_client::{ErrorCode, TaskFailure};

use crate::error::{code_name, now_ms, UiAction, UiError};

const DAY_MS: f64 = 86_400_000.0;

/// The next midnight UTC, in Unix ms: when free-plan budgets reset.
pub fn next_utc_midnight(now: f64) -> f64 {
    (now / DAY_MS).floor() * DAY_MS + DAY_MS
}

/// Words for an error the client raised.
pub fn for_client_code(code: &ErrorCode, retry_after_ms: Option<f64>) -> UiError {
    use ErrorCode as C;
    use UiAction::*;
    let name = code_name(code);
    let at = |ms: Option<f64>| ms.map(|ms| now_ms() + ms);
    let e = |title: &str, detail: &str, action: Option<UiAction>| {
        UiError::new(&name, title, detail, action)
    };
    match code {
        C::Unauthorized => e(
            "Your key was not accepted",
            "The service did not accept this API key. It may be mistyped or revoked. Connect again with a current key.",
            Some(SignIn),
        ),
        C::Forbidden | C::MachineRefused => e(
            "Not allowed for this account",
            "Your account is not allowed to do this. Your plan may not include it.",
            None,
        ),
        C::RateLimited { retry_after_ms: ms } => e(
            "Too many requests for now",
            "You have reached this hour's limit for this kind of request. You can try again later.",
            Some(WaitUntil),
        )
        .retry_at(at(ms.map(|m| m as f64).or(retry_after_ms)).or(Some(now_ms() + 60_000.0))),
        C::MachineBusy { retry_after_ms: ms } => e(
            "The computer is busy",
            "Another task is using this computer right now. Try again in a little while.",
            Some(WaitUntil),
        )
        .retry_at(at(ms.map(|m| m as f64).or(retry_after_ms)).or(Some(now_ms() + 30_000.0))),
        C::MachineUnavailable { retry_after_ms: ms } | C::NoCapacity { retry_after_ms: ms } => e(
            "The computer is not available",
            "The computer did not come online in time. Try again shortly.",
            Some(WaitUntil),
        )
        .retry_at(at(ms.map(|m| m as f64).or(retry_after_ms)).or(Some(now_ms() + 30_000.0))),
        C::MachineNotRunning => e(
            "The computer is asleep",
            "This computer is asleep or still starting. Wake it, then try again.",
            Some(Wake),
        ),
        C::MachineNotFound | C::InvalidMachine => e(
            "Computer not found",
            "This computer is no longer on your account. The list has been refreshed.",
            Some(Retry),
        ),
        C::MessageNotAccepted | C::DispatcherUnavailable | C::LiveUnavailable => e(
            "The computer could not take this",
            "The computer could not be reached just now. Make sure it is awake, then try again.",
            Some(Retry),
        ),
        C::MessageNotSent => e(
            "Your message was not sent",
            "The service did not take your message, even sent again. Send it again in a moment.",
            Some(Retry),
        ),
        C::NoMachine => e(
            "No computer yet",
            "Your account has no computer to work on. Add one in the web portal first.",
            None,
        ),
        C::SeveralMachines { .. } => e(
            "Choose a computer",
            "Several computers could take this task. Pick one in the list on the left.",
            None,
        ),
        C::ModelNotAllowedForPlan { .. } | C::ModelRefused { out_of_credits: false } => e(
            "This model is not on your plan",
            "Your plan does not include the chosen model. Pick another one, or choose Auto.",
            Some(ChooseModel),
        ),
        C::InsufficientCredits | C::ModelRefused { out_of_credits: true } => out_of_credits(None),
        C::BudgetExhausted => free_time_exhausted(),
        C::PhoneVerificationRequired | C::PhoneAllowanceInUse => e(
            "Phone check needed",
            "Verify your phone number in the web portal, sign in again, then try again.",
            Some(SignIn),
        ),
        C::SessionNotFound | C::SessionIdRequired => e(
            "This conversation has ended",
            "The service no longer knows this conversation. Start a new conversation to go on.",
            Some(NewConversation),
        ),
        C::ApprovalResolved | C::ApprovalNotFound => e(
            "Already answered",
            "This request was already answered or has expired.",
            None,
        ),
        C::SelectionRejected => e(
            "That choice wasn't accepted",
            "The service did not accept this choice. The question is still waiting: pick again.",
            None,
        ),
        C::ApprovalLinkOnly => e(
            "Answer on the web page",
            "This request can only be answered on its web page. Open it in your browser.",
            None,
        ),
        C::SessionRequired { .. } => e(
            "Sign-in needed",
            "This needs you to sign in through the web portal; an API key is not enough.",
            Some(SignIn),
        ),
        C::Network | C::NetworkTimeout | C::TimedOut => e(
            "Can't reach the service",
            "Porthole could not reach the service. Check your internet connection, then try again.",
            Some(Retry),
        ),
        C::ServerError { .. } | C::BadResponse | C::Unknown { .. } => e(
            "Something went wrong on the service",
            "The service had a problem with this request. Try again in a moment.",
            Some(Retry),
        ),
        C::InvalidBaseUrl => e(
            "That address doesn't look right",
            "Enter the service address as a web address, for example https://service.example.com.",
            None,
        ),
        C::InsecureAddress => e(
            "This address needs https://",
            "Porthole sends your key and sign-in only over a secure connection. Use the address that starts with https://; plain http:// works only for a service on this computer (localhost or 127.0.0.1).",
            None,
        ),
        C::InvalidCredential => e(
            "That key doesn't look right",
            "An API key is one word with no spaces. Copy it again from the web portal.",
            None,
        ),
        C::StorageQuotaExceeded => e(
            "Storage is full",
            "Your account's file storage is full. Remove old files in the web portal.",
            None,
        ),
        C::FileTooLarge | C::EmptyFile => e(
            "This file can't be sent",
            "Files must not be empty and at most 25 MB.",
            None,
        ),
        // Direct control, replay, learn and judge.
        C::ControlClosed { reason } => lease_ended(reason),
        C::ControlNotOpen => e(
            "The console is closed",
            "No control session is open on this computer. Open the console again to run code.",
            Some(Retry),
        ),
        C::MachineNotSupported => e(
            "Not for this computer",
            "The console works only with cloud computers, not with your own desktop.",
            None,
        ),
        C::NotFreeTier => e(
            "Your plan changed",
            "This free computer is only for the free plan, and your account is no longer on it. Use one of your own cloud computers.",
            None,
        ),
        C::InvalidBody { .. } => e(
            "The code could not be sent",
            "The block was empty, too long (over 200,000 characters) or had a setting out of range.",
            None,
        ),
        C::TurnNotFound => e(
            "That task is gone",
            "The service no longer has this task or its screenshots.",
            None,
        ),
        C::TurnNotFinished => e(
            "The task is still running",
            "Wait until the task has finished, then try again.",
            Some(Retry),
        ),
        C::TrajectoryNotRecorded => e(
            "Steps were not recorded",
            "This task ran without \"Record steps\". Turn it on in the composer, run the task again, then make it reusable.",
            None,
        ),
        C::NoSteps => e(
            "Nothing to learn from",
            "The agent took no steps on the computer in this task, so there is nothing to turn into a reusable task.",
            None,
        ),
        C::TemplateMismatch => e(
            "The template doesn't match the task",
            "With every {{placeholder}} filled in with its word, the template must read exactly like the task you sent. Check the text around the placeholders.",
            None,
        ),
        C::MixedSessions => e(
            "Tasks from different conversations",
            "Only tasks from one conversation can be used together.",
            None,
        ),
        C::Validation => e(
            "The service could not take this request",
            "Something in the request was missing or not allowed. Check the template or criteria and try again.",
            None,
        ),
        C::NotSupported => e(
            "Not available",
            "The service does not offer this kind of check yet.",
            None,
        ),
        C::ModelOutputInvalid | C::LearnFailed => e(
            "Learning did not work this time",
            "The service could not produce working code on this try. Try again; you will not be charged twice for the same try.",
            Some(Retry),
        ),
        C::LearnNotFound | C::JudgementNotFound => e(
            "Result not found",
            "The service no longer has this result.",
            None,
        ),
        _ => e(
            "That didn't work",
            "The service refused this request. Try again, or start a new conversation.",
            Some(Retry),
        ),
    }
}

/// Words for a task that ended badly.
pub fn for_task_failure(failure: &TaskFailure) -> UiError {
    match &failure.code {
        Some(EventErrorCode::InsufficientCredits) => out_of_credits(failure.resets_at.as_deref()),
        Some(EventErrorCode::FreeComputerTimeExhausted) => free_time_exhausted(),
        _ => UiError::new(
            "task_failed",
            "The task did not finish",
            "The agent could not finish this task. You can try again, perhaps with more detail.",
            Some(UiAction::Retry),
        ),
    }
}

fn out_of_credits(resets_at: Option<&str>) -> UiError {
    let at = resets_at
        .and_then(parse_iso_ms)
        .unwrap_or_else(|| next_utc_midnight(now_ms()));
    UiError::new(
        "insufficient_credits",
        "You are out of credits",
        "There is no credit left for tasks. Free credits come back at midnight UTC; paid plans can top up in the web portal.",
        Some(UiAction::WaitUntil),
    )
    .retry_at(Some(at))
}

fn free_time_exhausted() -> UiError {
    UiError::new(
        "free_computer_time_exhausted",
        "Today's free computer time is used up",
        "The free computer has run for all of today's time and was shut down. It can be used again after midnight UTC.",
        Some(UiAction::WaitUntil),
    )
    .retry_at(Some(next_utc_midnight(now_ms())))
}

/// Why a control lease ended, for the console.
pub fn lease_ended(reason: &porthole_client::control::ClosedReason) -> UiError {
    use porthole_client::control::ClosedReason as R;
    let (title, detail, action) = match reason {
        R::Closed => (
            "The console was closed",
            "The control session was closed, and the computer's variables were cleared. Open it again to go on.",
            Some(UiAction::Retry),
        ),
        R::IdleTimeout => (
            "Closed after a quiet spell",
            "No code ran for a while (10 minutes, or 2 when a task was waiting for this computer), so the computer was released. Open the console again to go on.",
            Some(UiAction::Retry),
        ),
        R::LockLost => (
            "A task took the computer",
            "The agent started a task on this computer while the console was quiet, so the console lost it. Open it again when the task is done.",
            Some(UiAction::Retry),
        ),
        R::Unresponsive => (
            "The computer stopped answering",
            "A block got no answer in time, so the console was closed. The next open starts a fresh one.",
            Some(UiAction::Retry),
        ),
        R::Shutdown => (
            "The service restarted",
            "The service behind the console restarted, which ended it. Open the console again.",
            Some(UiAction::Retry),
        ),
        R::Other(_) => (
            "The console ended",
            "The control session ended. Open the console again to go on.",
            Some(UiAction::Retry),
        ),
    };
    UiError::new("control_closed", title, detail, action)
}

/// Why a structured task (output schema or success criteria) failed, when that is the reason.
pub fn for_turn_reason(reason: &porthole_client::turns::ReasonCode) -> Option<UiError> {
    use porthole_client::turns::ReasonCode as R;
    let (code, title, detail) = match reason {
        R::OutputInvalid => (
            "output_invalid",
            "The answer didn't fit the shape you asked for",
            "The agent answered, but not in the form the output schema describes. Its answer and what did not fit are shown below.",
        ),
        R::CriteriaNotMet => (
            "criteria_not_met",
            "The success checks did not pass",
            "The agent finished, but at least one of your success checks failed. Each check and its evidence are shown below.",
        ),
        R::CriteriaUnchecked => (
            "criteria_unchecked",
            "A success check could not be checked",
            "The agent finished, but at least one of your checks could not be verified from what it did. See the evidence for each check.",
        ),
        _ => return None,
    };
    Some(UiError::new(code, title, detail, None))
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

/// App-side errors, worded here too so every sentence lives in one file.
pub mod words {
    use super::*;

    pub fn keychain() -> UiError {
        UiError::new(
            "keychain",
            "Couldn't use the system keychain",
            "Porthole keeps your API key in the system keychain, and it could not be reached. Unlock your keychain and try again.",
            Some(UiAction::Retry),
        )
    }
    pub fn store() -> UiError {
        UiError::new(
            "store",
            "Couldn't save",
            "Porthole could not write its data folder. Check free disk space and try again.",
            Some(UiAction::Retry),
        )
    }
    pub fn demo_unavailable() -> UiError {
        UiError::new(
            "demo_unavailable",
            "The Demo could not start",
            "The built-in Demo service did not start. Restart Porthole, or connect your account.",
            Some(UiAction::SignIn),
        )
    }
    pub fn not_connected() -> UiError {
        UiError::new(
            "not_connected",
            "Still connecting",
            "Porthole is still connecting to the service. Try again in a moment.",
            Some(UiAction::Retry),
        )
    }
    pub fn unknown_conversation() -> UiError {
        UiError::new(
            "unknown_conversation",
            "Conversation not found",
            "This conversation is no longer here. Start a new one.",
            Some(UiAction::NewConversation),
        )
    }
    pub fn finished_conversation() -> UiError {
        UiError::new(
            "finished_conversation",
            "This conversation is finished",
            "New messages go to the computer's current conversation. Continue there.",
            None,
        )
    }
    pub fn no_turn_yet() -> UiError {
        UiError::new(
            "no_turn_yet",
            "No task yet",
            "Send a task in this conversation first.",
            None,
        )
    }
    pub fn unknown_reusable_task() -> UiError {
        UiError::new(
            "unknown_reusable_task",
            "Reusable task not found",
            "This reusable task is no longer in your library.",
            None,
        )
    }
    pub fn lease_not_open() -> UiError {
        UiError::new(
            "lease_not_open",
            "The console is not open",
            "Open the console on this computer before running code.",
            None,
        )
    }
    pub fn no_screenshot() -> UiError {
        UiError::new(
            "no_screenshot",
            "No screenshot",
            "The last block did not capture the screen.",
            None,
        )
    }
    pub fn no_criteria() -> UiError {
        UiError::new(
            "no_criteria",
            "Nothing to check",
            "Write what a good result looks like, as a sentence or as a list of checks.",
            None,
        )
    }
    pub fn invalid_schema() -> UiError {
        UiError::new(
            "invalid_schema",
            "The output schema isn't valid",
            "The output schema must be a JSON object, for example {\"type\": \"object\", \"properties\": {\"price\": {\"type\": \"number\"}}}.",
            None,
        )
    }
    pub fn cannot_wake() -> UiError {
        UiError::new(
            "cannot_wake",
            "This computer can't be woken from here",
            "The service says this computer cannot be woken now. Wake it from the web portal, or use another computer.",
            None,
        )
    }
    pub fn no_pending_approval() -> UiError {
        UiError::new(
            "no_pending_approval",
            "Nothing to answer",
            "The agent is no longer waiting for an answer.",
            None,
        )
    }
}

#[path = "error_words_account.rs"]
pub mod account;
#[path = "error_words_store.rs"]
pub mod stored;

#[cfg(test)]
#[path = "error_words_tests.rs"]
mod tests;
