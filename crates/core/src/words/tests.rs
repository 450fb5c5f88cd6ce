use super::*;
use crate::error::now_ms;
use crate::error::problem::{next_utc_midnight, of_client, of_code, of_task_failure, parse_iso_ms};
use crate::words::language::Language;
use porthole_client::events::EventErrorCode;
use porthole_client::{Error, ErrorCode, InputError, Limit, TaskFailure};
use std::time::Duration;

/// Every code's saved name. A code's name is saved in conversations, so it never changes: a
/// new code is added here, a renamed one also gets its old name in `UiCode::from_stored`.
const NAMES: &[&str] = &[
    "unauthorized",
    "forbidden",
    "not_your_computer",
    "phone_allowance_in_use",
    "task_not_started",
    "rate_limited",
    "machine_busy",
    "machine_unavailable",
    "machine_not_running",
    "machine_not_found",
    "message_not_accepted",
    "message_not_sent",
    "message_not_known_sent",
    "updates_lost",
    "no_machine",
    "several_machines",
    "model_not_allowed_for_plan",
    "insufficient_credits",
    "free_computer_time_exhausted",
    "phone_verification_required",
    "session_not_found",
    "approval_resolved",
    "selection_rejected",
    "approval_link_only",
    "network",
    "server_error",
    "invalid_base_url",
    "insecure_address",
    "address_unreachable",
    "not_the_service",
    "not_like_the_service",
    "invalid_credential",
    "refused",
    "control_not_open",
    "machine_not_supported",
    "not_free_tier",
    "invalid_body",
    "lease_not_open",
    "no_screenshot",
    "console_closed",
    "console_idle",
    "console_lock_lost",
    "console_unresponsive",
    "console_service_restarted",
    "console_ended",
    "task_failed",
    "output_invalid",
    "criteria_not_met",
    "criteria_unchecked",
    "turn_not_found",
    "turn_not_finished",
    "trajectory_not_recorded",
    "no_steps",
    "template_mismatch",
    "mixed_sessions",
    "validation",
    "not_supported",
    "learn_failed",
    "result_not_found",
    "no_turn_yet",
    "unknown_reusable_task",
    "no_criteria",
    "invalid_schema",
    "invalid_cap",
    "unknown_schedule",
    "schedule_bad_time",
    "schedule_no_days",
    "schedule_bad_interval",
    "schedule_no_task",
    "schedule_in_the_past",
    "schedule_too_far",
    "schedule_other_service",
    "schedule_hourly_limit",
    "autostart_unavailable",
    "sign_in_needed",
    "create_on_portal",
    "sign_in_expired",
    "sign_in_timed_out",
    "sign_in_cancelled",
    "sign_in_stopped",
    "sign_in_unreachable",
    "sign_in_unavailable",
    "not_a_sign_in_token",
    "sign_in_not_here",
    "own_key_not_revoked",
    "key_rate_limited",
    "key_limit_reached",
    "key_not_found",
    "key_needs_phone",
    "key_name_too_long",
    "new_key_gone",
    "creation_busy",
    "free_plan_computer",
    "not_billable",
    "computer_not_online",
    "signed_in_key_limit",
    "signed_in_needs_phone",
    "upload_rate_limited",
    "storage_quota_exceeded",
    "empty_file",
    "file_too_large",
    "upload_failed",
    "file_unreadable",
    "folder_not_file",
    "not_a_file",
    "keychain",
    "store",
    "stored_data_set_aside",
    "demo_unavailable",
    "not_connected",
    "unknown_conversation",
    "finished_conversation",
    "task_running_here",
    "no_pending_approval",
    "cannot_wake",
    "browser_unavailable",
    "report_not_saved",
    "redactions_refused",
    "unexpected",
    "full_screen_unavailable",
    "snapshot_not_saved",
    "video_not_saved",
    "snapshot_unreadable",
    "live_socket_unavailable",
    "live_page_unconnected",
    "live_closed",
    "live_token_rejected",
    "live_token_expired",
    "live_machine_stopped",
    "live_server_error",
    "live_disconnected",
    "live_garbled",
    "live_unsupported",
    "live_silent",
    "live_network",
    "live_asleep",
    "live_rate_limited",
    "live_url_unavailable",
    "live_stopped",
];

#[test]
fn every_code_has_a_title_a_sentence_and_a_stable_name() {
    let names: Vec<String> = UiCode::ALL
        .iter()
        .map(|code| {
            serde_json::to_value(code)
                .unwrap()
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        names, NAMES,
        "a code's saved name changed, or a code is new"
    );
    for (&code, name) in UiCode::ALL.iter().zip(NAMES) {
        let words = of(code);
        assert!(!words.title.is_empty(), "{code:?}");
        assert!(words.detail.ends_with('.'), "{code:?}: {}", words.detail);
        assert_eq!(UiCode::from_stored(name), code);
    }
    assert_eq!(actions_by_code().len(), UiCode::ALL.len());
}

/// Every code has its title and sentence in the catalog, in every language, and the catalog's
/// errors are all codes' (a code renamed or removed leaves no words behind).
#[test]
fn every_code_has_its_words_in_every_language() {
    use super::catalog::messages;
    for language in [Language::En, Language::De] {
        let messages = messages(language);
        let mut expected = std::collections::BTreeSet::new();
        for &code in UiCode::ALL {
            let name = code_name(code);
            for key in [
                format!("errors.{name}.title"),
                format!("errors.{name}.detail"),
            ] {
                assert!(messages.contains_key(&key), "{language:?} lacks {key}");
                expected.insert(key);
            }
            let words = of_in(language, code);
            assert!(!words.title.is_empty(), "{language:?} {code:?}");
            assert!(
                words.detail.ends_with('.'),
                "{language:?} {code:?}: {}",
                words.detail
            );
        }
        let extra: Vec<_> = messages
            .keys()
            .filter(|k| k.starts_with("errors.") && !expected.contains(*k))
            .collect();
        assert!(
            extra.is_empty(),
            "{language:?}: words of no code: {extra:?}"
        );
    }
}

#[test]
fn a_german_person_reads_a_failure_in_german_with_the_same_action() {
    let words = of_in(Language::De, UiCode::MachineBusy);
    assert_eq!(words.title, "Der Computer ist beschäftigt");
    assert_eq!(
        words.action,
        of_in(Language::En, UiCode::MachineBusy).action
    );
    assert_eq!(
        of_in(Language::En, UiCode::MachineBusy).title,
        "The computer is busy"
    );
    assert!(of_in(Language::De, UiCode::Network)
        .detail
        .contains("Internetverbindung"));
}

#[test]
fn names_older_versions_saved_still_read_as_a_code() {
    assert_eq!(UiCode::from_stored("busy"), UiCode::CreationBusy);
    assert_eq!(UiCode::from_stored("control_closed"), UiCode::ConsoleEnded);
    assert_eq!(UiCode::from_stored("network_timeout"), UiCode::Network);
    assert_eq!(
        UiCode::from_stored("learn_not_found"),
        UiCode::ResultNotFound
    );
    assert_eq!(UiCode::from_stored("something_new"), UiCode::Refused);
    // Saved before it had words of its own: now read as what it is.
    assert_eq!(
        UiCode::from_stored("phone_allowance_in_use"),
        UiCode::PhoneAllowanceInUse
    );
}

#[test]
fn every_client_code_reads_as_the_words_it_had() {
    let cases = [
        (ErrorCode::Unauthorized, UiCode::Unauthorized),
        (ErrorCode::MachineRefused, UiCode::Forbidden),
        (ErrorCode::MachineNotRunning, UiCode::MachineNotRunning),
        (ErrorCode::NetworkTimeout, UiCode::Network),
        (ErrorCode::ServerError { status: 503 }, UiCode::ServerError),
        (ErrorCode::TurnNotFinished, UiCode::TurnNotFinished),
        (ErrorCode::SelectionRejected, UiCode::SelectionRejected),
        (ErrorCode::MessageNotSent, UiCode::MessageNotSent),
        (
            ErrorCode::BudgetExhausted,
            UiCode::FreeComputerTimeExhausted,
        ),
        (
            ErrorCode::ModelRefused {
                out_of_credits: true,
            },
            UiCode::InsufficientCredits,
        ),
        (
            ErrorCode::SessionRequired { create_url: None },
            UiCode::SignInNeeded,
        ),
        (ErrorCode::Conflict, UiCode::Refused),
        (ErrorCode::NotYourMachine, UiCode::NotYourComputer),
        (ErrorCode::PhoneAllowanceInUse, UiCode::PhoneAllowanceInUse),
    ];
    for (client, code) in cases {
        assert_eq!(of_code(&client), code, "{client:?}");
    }
}

#[test]
fn actions_follow_the_code() {
    assert_eq!(of(UiCode::Unauthorized).action, Some(UiAction::SignIn));
    assert_eq!(of(UiCode::MachineNotRunning).action, Some(UiAction::Wake));
    assert_eq!(of(UiCode::Network).action, Some(UiAction::Retry));
}

#[test]
fn rate_limit_says_when_to_try_again() {
    let before = now_ms();
    let err = Error::BudgetSpent {
        limit: Limit::Messages,
        retry_after: Duration::from_secs(90),
    };
    let ui = UiError::from(of_client(&err));
    assert_eq!(ui.code, UiCode::RateLimited);
    assert_eq!(ui.action, Some(UiAction::WaitUntil));
    let at = ui.retry_at.expect("a time");
    assert!(at >= before + 90_000.0 && at < before + 200_000.0);
    // The service's text may hold anything; the sentence comes from the code alone.
    assert!(!ui.detail.contains("Messages"));
}

#[test]
fn the_key_and_upload_budgets_name_their_own_limits() {
    let spent = |limit| Error::BudgetSpent {
        limit,
        retry_after: Duration::from_secs(60),
    };
    let keys = of_client(&spent(Limit::KeyCreation));
    assert_eq!(keys.code, UiCode::KeyRateLimited);
    assert!(keys.retry_at.is_some());
    assert_eq!(
        of_client(&spent(Limit::Uploads)).code,
        UiCode::UploadRateLimited
    );
    assert!(UiError::from(of_client(&spent(Limit::Uploads)))
        .detail
        .contains("30 files"));
}

#[test]
fn local_file_refusals_have_their_own_words() {
    assert_eq!(
        of_client(&InputError::EmptyFile.into()).code,
        UiCode::EmptyFile
    );
    let big: Error = InputError::FileTooLarge {
        size: 30,
        limit: 25,
    }
    .into();
    assert!(UiError::from(of_client(&big)).detail.contains("25 MB"));
}

#[test]
fn out_of_credits_failure_resets_at_the_given_time() {
    let failure = TaskFailure {
        text: "no credit".into(),
        code: Some(EventErrorCode::InsufficientCredits),
        resets_at: Some("2030-01-02T00:00:00.000Z".into()),
        reason: None,
    };
    let problem = of_task_failure(&failure);
    assert_eq!(problem.code, UiCode::InsufficientCredits);
    assert_eq!(problem.retry_at, Some(1_893_542_400_000.0));
}

#[test]
fn free_time_failure_resets_at_next_midnight() {
    let failure = TaskFailure {
        text: "time".into(),
        code: Some(EventErrorCode::FreeComputerTimeExhausted),
        resets_at: None,
        reason: None,
    };
    let at = of_task_failure(&failure).retry_at.expect("a time");
    assert_eq!(at % 86_400_000.0, 0.0);
    assert!(at > now_ms() && at <= now_ms() + 86_400_000.0);
    assert_eq!(next_utc_midnight(1.0), 86_400_000.0);
}

#[test]
fn a_saved_problem_is_shown_with_its_code_words_and_time() {
    let problem = Problem::new(UiCode::InsufficientCredits).retry_at(Some(5.0));
    let ui = UiError::from(problem);
    assert_eq!(ui.code, UiCode::InsufficientCredits);
    assert_eq!(ui.title, of(UiCode::InsufficientCredits).title);
    assert_eq!(ui.retry_at, Some(5.0));
    assert_eq!(ui.action, Some(UiAction::WaitUntil));
    let cannot_wake = UiError::from(&AppError::CannotWake);
    assert_eq!(cannot_wake.code, UiCode::CannotWake);
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

#[test]
fn a_turn_that_never_ran_says_why_in_its_own_words() {
    use crate::error::problem::of_turn_reason;
    use porthole_client::turns::ReasonCode;
    assert_eq!(
        of_turn_reason(&ReasonCode::MachineUnavailable),
        Some(UiCode::MachineUnavailable)
    );
    assert_eq!(
        of_turn_reason(&ReasonCode::NotStarted),
        Some(UiCode::TaskNotStarted)
    );
    assert_eq!(of_turn_reason(&ReasonCode::AgentError), None);
    let not_yours = of(UiCode::NotYourComputer);
    assert!(
        not_yours.title.contains("not on your account"),
        "{}",
        not_yours.title
    );
    assert_eq!(not_yours.action, Some(UiAction::SignIn));
}
