use super::*;
use crate::error::AppError;
use std::time::Duration;

#[test]
fn every_code_gets_a_title_and_a_sentence() {
    let codes = [
        ErrorCode::Unauthorized,
        ErrorCode::RateLimited {
            retry_after_ms: Some(5_000),
        },
        ErrorCode::MachineNotRunning,
        ErrorCode::Network,
        ErrorCode::InsufficientCredits,
        ErrorCode::ServerError { status: 503 },
        ErrorCode::TurnNotFinished,
        ErrorCode::SelectionRejected,
        ErrorCode::MessageNotSent,
    ];
    for code in codes {
        let ui = for_client_code(&code, None);
        assert!(!ui.title.is_empty() && ui.detail.ends_with('.'), "{code:?}");
        assert_eq!(ui.code, code_name(&code));
    }
    let cannot_wake = UiError::from(&AppError::CannotWake);
    assert!(cannot_wake.detail.ends_with('.') && !cannot_wake.title.is_empty());
    // Spent free time reads the same whether a lease or a task found out.
    let ui = for_client_code(&ErrorCode::BudgetExhausted, None);
    assert_eq!(ui.code, "free_computer_time_exhausted");
}

#[test]
fn actions_follow_the_code() {
    assert_eq!(
        for_client_code(&ErrorCode::Unauthorized, None).action,
        Some(UiAction::SignIn)
    );
    assert_eq!(
        for_client_code(&ErrorCode::MachineNotRunning, None).action,
        Some(UiAction::Wake)
    );
    assert_eq!(
        for_client_code(&ErrorCode::Network, None).action,
        Some(UiAction::Retry)
    );
}

#[test]
fn rate_limit_says_when_to_try_again() {
    let before = now_ms();
    let ui = for_client_code(
        &ErrorCode::RateLimited {
            retry_after_ms: Some(90_000),
        },
        None,
    );
    assert_eq!(ui.action, Some(UiAction::WaitUntil));
    let at = ui.retry_at.expect("a time");
    assert!(at >= before + 90_000.0 && at < before + 200_000.0);
}

#[test]
fn out_of_credits_failure_resets_at_the_given_time() {
    let failure = TaskFailure {
        text: "no credit".into(),
        code: Some(EventErrorCode::InsufficientCredits),
        resets_at: Some("2030-01-02T00:00:00.000Z".into()),
    };
    let ui = for_task_failure(&failure);
    assert_eq!(ui.code, "insufficient_credits");
    assert_eq!(ui.retry_at, Some(1_893_542_400_000.0));
}

#[test]
fn free_time_failure_resets_at_next_midnight() {
    let failure = TaskFailure {
        text: "time".into(),
        code: Some(EventErrorCode::FreeComputerTimeExhausted),
        resets_at: None,
    };
    let ui = for_task_failure(&failure);
    let at = ui.retry_at.expect("a time");
    assert_eq!(at % DAY_MS, 0.0);
    assert!(at > now_ms() && at <= now_ms() + DAY_MS);
}

#[test]
fn words_never_repeat_the_message_text() {
    // The service's text may hold anything; the UI sentence comes from the code alone.
    let err = AppError::Client(porthole_client::Error::BudgetSpent {
        limit: porthole_client::Limit::Messages,
        retry_after: Duration::from_secs(10),
    });
    let ui = UiError::from(&err);
    assert_eq!(ui.code, "rate_limited");
    assert!(!ui.detail.contains("Messages"));
}

#[test]
fn parses_iso_times() {
    assert_eq!(parse_iso_ms("1970-01-01T00:00:01Z"), Some(1000.0));
    assert_eq!(
        parse_iso_ms("2024-02-29T12:00:00.500Z"),
        Some(1_709_208_000_500.0)
    );
    assert_eq!(parse_iso_ms("garbage"), None);
}
