//! Words for sign-in, keys, creating a computer and attachments: part of `error_words` (the
//! one mapping), in its own file to keep each file one idea. Chosen by code, and by the
//! operation that failed where the same code means different things (a 429 on key creation
//! is the five-an-hour limit; on uploads, the thirty-an-hour one).

use porthole_client::{Error, ErrorCode, Limit, Operation};

use crate::error::{now_ms, UiAction, UiError};

/// Specific words for an error of these features; `None` lets the general words apply.
pub fn for_client_error(err: &Error) -> Option<UiError> {
    let operation = err.api().map(|a| a.operation);
    let limit = match err {
        Error::BudgetSpent { limit, .. } => Some(*limit),
        _ => None,
    };
    let retry_at = err.retry_after().map(|d| now_ms() + d.as_millis() as f64);
    let rate_limited = matches!(err.code(), ErrorCode::RateLimited { .. });
    let words = match (err.code(), operation) {
        (ErrorCode::RateLimited { .. }, _)
            if operation == Some(Operation::CreateKey) || limit == Some(Limit::KeyCreation) =>
        {
            e("key_rate_limited", "Five new keys an hour", "You can make at most five keys in an hour. Try again later.", Some(UiAction::WaitUntil))
        }
        (ErrorCode::RateLimited { .. }, _)
            if operation == Some(Operation::Upload) || limit == Some(Limit::Uploads) =>
        {
            e("upload_rate_limited", "Thirty files an hour", "You can attach at most 30 files in an hour. This file was not sent; the rest of your message is still here.", Some(UiAction::WaitUntil))
        }
        (ErrorCode::CreationBusy, _) | (ErrorCode::RateLimited { .. }, _)
            if operation == Some(Operation::CreateMachine) || limit == Some(Limit::MachineCreation) || matches!(err.code(), ErrorCode::CreationBusy) =>
        {
            e("busy", "A computer is already being made", "Your account is already making a computer, or has made three this hour. Wait until it is ready, then try again.", Some(UiAction::WaitUntil))
        }
        (ErrorCode::KeyLimitReached, _) => e(
            "key_limit_reached",
            "No room for another key",
            "Your account has as many keys as its plan allows (one on the free plan, twenty on paid plans). Revoke a key you no longer use, then make a new one.",
            None,
        ),
        (ErrorCode::KeyNotFound, _) => e("key_not_found", "Key already gone", "This key was already revoked. The list has been refreshed.", None),
        (ErrorCode::PhoneVerificationRequired, Some(Operation::CreateKey)) => e(
            "phone_verification_required",
            "Verify your phone first",
            "Free accounts need a verified phone number to make a key. Verify it in the web portal, then sign in again here and make the key.",
            Some(UiAction::SignIn),
        ),
        (ErrorCode::Forbidden | ErrorCode::Unauthorized, Some(Operation::CreateKey | Operation::ListKeys | Operation::RevokeKey))
        | (ErrorCode::SessionRequired { .. }, _) => e(
            "sign_in_needed",
            "Sign in again",
            "Managing keys and making computers needs you to sign in with your account. Your sign-in may have expired.",
            Some(UiAction::SignIn),
        ),
        (ErrorCode::FreePlanComputer, _) => e(
            "free_plan_computer",
            "Free plans have one shared computer",
            "On the free plan you use the free cloud computer; making more computers needs a paid plan.",
            None,
        ),
        (ErrorCode::NotBillable, _) => e(
            "not_billable",
            "Your account can't pay for a computer",
            "A new computer is paid for from your plan, and your account has no way to pay right now. Add a payment method in the web portal, then try again.",
            None,
        ),
        (ErrorCode::StorageQuotaExceeded, _) => e(
            "storage_quota_exceeded",
            "Your file storage is full",
            "This file was not sent because your account's storage is full. Remove old files in the web portal; the rest of your message is still here.",
            None,
        ),
        (ErrorCode::EmptyFile, _) => e("empty_file", "This file is empty", "There is nothing in this file to send.", None),
        (ErrorCode::FileTooLarge, _) => e("file_too_large", "This file is too big", "Files can be at most 25 MB.", None),
        (_, Some(Operation::Upload)) => e(
            "upload_failed",
            "This file didn't upload",
            "The file could not be sent to the service. Remove it and try again; the rest of your message is still here.",
            Some(UiAction::Retry),
        ),
        _ => return None,
    };
    Some(if rate_limited || retry_at.is_some() {
        words.retry_at(retry_at)
    } else {
        words
    })
}

fn e(code: &str, title: &str, detail: &str, action: Option<UiAction>) -> UiError {
    UiError::new(code, title, detail, action)
}

pub fn sign_in_needed() -> UiError {
    e("sign_in_needed", "Sign in first", "Managing keys and making computers needs you to sign in with your account in the browser, or with a sign-in token.", Some(UiAction::SignIn))
}
/// Asked before a call with a token that ran out, so no call fails on it.
pub fn sign_in_expired() -> UiError {
    e(
        "sign_in_expired",
        "Sign in again",
        "Your sign-in has expired, so Porthole did not use it. Sign in again to manage keys or make a computer.",
        Some(UiAction::SignIn),
    )
}
pub fn sign_in_timed_out() -> UiError {
    e(
        "sign_in_timed_out",
        "Sign-in took too long",
        "Porthole stopped waiting for the browser. Start signing in again when you are ready.",
        Some(UiAction::Retry),
    )
}
pub fn sign_in_cancelled() -> UiError {
    e(
        "sign_in_cancelled",
        "Sign-in was cancelled",
        "The sign-in page did not finish. You can start again.",
        Some(UiAction::Retry),
    )
}
/// The person stopped the wait themselves: said plainly, nothing to fix.
pub fn sign_in_stopped() -> UiError {
    e(
        "sign_in_stopped",
        "Sign-in cancelled",
        "Sign-in cancelled.",
        None,
    )
}
/// The sign-in address does not answer, so the browser was not opened.
pub fn sign_in_unreachable() -> UiError {
    e(
        "sign_in_unreachable",
        "Can't reach the sign-in page",
        "Porthole could not reach the sign-in address, so it did not open your browser. Check the address (leave “Sign-in address” empty to use the service's own) and your internet connection, then try again, or paste a sign-in token instead.",
        Some(UiAction::Retry),
    )
}
pub fn sign_in_unavailable() -> UiError {
    e("sign_in_unavailable", "Couldn't start signing in", "Porthole could not open your browser for signing in. You can paste a sign-in token instead.", None)
}
pub fn not_a_sign_in_token() -> UiError {
    e("not_a_sign_in_token", "That is an API key", "This box needs a sign-in token, not an API key. Use “Connect your account” for an API key.", None)
}
pub fn key_name_too_long() -> UiError {
    e(
        "key_name_too_long",
        "Name too long",
        "A key's name can be at most 100 characters.",
        None,
    )
}
pub fn new_key_gone() -> UiError {
    e(
        "new_key_gone",
        "That key is no longer at hand",
        "Porthole only keeps a new key until its window closes. Make another key to use it here.",
        None,
    )
}
pub fn computer_not_online() -> UiError {
    e(
        "computer_not_online",
        "The new computer isn't ready yet",
        "It is taking longer than usual. It will appear in your list when it is ready.",
        None,
    )
}
pub fn file_unreadable() -> UiError {
    e("file_unreadable", "Can't read this file", "Porthole could not open this file. It may have been moved, or you may not have permission to read it.", None)
}
pub fn folder_not_file() -> UiError {
    e(
        "folder_not_file",
        "Folders can't be attached",
        "Attach the files inside the folder instead.",
        None,
    )
}
pub fn not_a_file() -> UiError {
    e(
        "not_a_file",
        "Only files can be attached",
        "This is a device or a pipe, not a file with contents Porthole can send. Attach a file instead.",
        None,
    )
}

/// The app stopped while a message was being sent again: whether the service took it is not
/// known, and Porthole does not guess.
pub fn not_known_sent() -> UiError {
    e(
        "message_not_known_sent",
        "Your message may not have been sent",
        "Porthole closed while sending it. If no task started for it, send it again.",
        Some(UiAction::Retry),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use porthole_client::InputError;

    #[test]
    fn local_file_refusals_have_their_own_words() {
        let empty = for_client_error(&InputError::EmptyFile.into()).unwrap();
        assert_eq!(empty.code, "empty_file");
        let big: Error = InputError::FileTooLarge {
            size: 30,
            limit: 25,
        }
        .into();
        assert!(for_client_error(&big).unwrap().detail.contains("25 MB"));
    }

    #[test]
    fn the_key_and_upload_budgets_name_their_own_limits() {
        let keys = Error::BudgetSpent {
            limit: Limit::KeyCreation,
            retry_after: std::time::Duration::from_secs(60),
        };
        let words = for_client_error(&keys).unwrap();
        assert_eq!(words.code, "key_rate_limited");
        assert!(words.retry_at.is_some());
        let uploads = Error::BudgetSpent {
            limit: Limit::Uploads,
            retry_after: std::time::Duration::from_secs(60),
        };
        assert!(for_client_error(&uploads)
            .unwrap()
            .detail
            .contains("30 files"));
        let other = Error::BudgetSpent {
            limit: Limit::Messages,
            retry_after: std::time::Duration::from_secs(60),
        };
        assert!(for_client_error(&other).is_none());
    }
}
