use std::time::Duration;

use crate::control::ClosedReason;
use crate::error::{ApiError, ErrorCode, Operation};

fn code(op: Operation, status: u16, body: &str) -> ErrorCode {
    ApiError::from_response(op, status, None, body.into()).code
}

#[test]
fn coded_bodies_with_extras() {
    let closed = code(
        Operation::ControlExec,
        410,
        r#"{"error":"control_closed","message":"Lease ended.","reason":"idle_timeout"}"#,
    );
    assert_eq!(
        closed,
        ErrorCode::ControlClosed {
            reason: ClosedReason::IdleTimeout
        }
    );
    let odd = code(
        Operation::ControlExec,
        410,
        r#"{"error":"control_closed","message":"x","reason":"moon_phase"}"#,
    );
    assert_eq!(
        odd,
        ErrorCode::ControlClosed {
            reason: ClosedReason::Other("moon_phase".into())
        }
    );
    let model = code(
        Operation::Message,
        403,
        r#"{"error":"model_not_allowed_for_plan","message":"No.","allowedModels":["auto","a/b"]}"#,
    );
    assert_eq!(
        model,
        ErrorCode::ModelNotAllowedForPlan {
            allowed_models: vec!["auto".into(), "a/b".into()]
        }
    );
    let session = code(
        Operation::CreateMachine,
        403,
        r#"{"error":"session_required","createUrl":"https://portal/new"}"#,
    );
    assert_eq!(
        session,
        ErrorCode::SessionRequired {
            create_url: Some("https://portal/new".into())
        }
    );
}

#[test]
fn sentence_bodies_map_by_endpoint() {
    assert_eq!(
        code(
            Operation::Events,
            400,
            r#"{"error":"sessionId is required."}"#
        ),
        ErrorCode::SessionIdRequired
    );
    assert_eq!(
        code(
            Operation::Events,
            403,
            r#"{"error":"Session not found or does not belong to your account."}"#
        ),
        ErrorCode::SessionNotFound
    );
    assert_eq!(
        code(
            Operation::CreateKey,
            422,
            r#"{"error":"API key limit reached. Maximum 1 keys per account. Revoke an existing key first."}"#
        ),
        ErrorCode::KeyLimitReached
    );
    assert_eq!(
        code(
            Operation::RevokeKey,
            404,
            r#"{"error":"API key not found."}"#
        ),
        ErrorCode::KeyNotFound
    );
    assert_eq!(
        code(
            Operation::Upload,
            413,
            r#"{"error":"File too large. Maximum is 25MB."}"#
        ),
        ErrorCode::FileTooLarge
    );
    assert_eq!(
        code(
            Operation::Message,
            400,
            r#"{"error":"Several computers qualify.","machines":[{"machineId":"m_1"},{"machineId":"m_2","name":"B"}]}"#
        ),
        ErrorCode::SeveralMachines {
            machines: vec![
                crate::machines::MachineChoice {
                    machine_id: "m_1".into(),
                    name: None
                },
                crate::machines::MachineChoice {
                    machine_id: "m_2".into(),
                    name: Some("B".into())
                },
            ]
        }
    );
    assert_eq!(
        code(
            Operation::Message,
            409,
            r#"{"error":"The agent is unavailable."}"#
        ),
        ErrorCode::MessageNotAccepted
    );
    assert_eq!(
        code(
            Operation::Learn,
            402,
            r#"{"error":"model_refused","message":"No credit."}"#
        ),
        ErrorCode::ModelRefused {
            out_of_credits: true
        }
    );
}

#[test]
fn bare_statuses_and_odd_bodies() {
    let limited = ApiError::from_response(
        Operation::Judge,
        429,
        Some(Duration::from_secs(2)),
        String::new(),
    );
    assert_eq!(
        limited.code,
        ErrorCode::RateLimited {
            retry_after_ms: Some(2000)
        }
    );
    assert_eq!(code(Operation::Live, 404, ""), ErrorCode::MachineNotFound);
    assert_eq!(
        code(Operation::Judge, 402, ""),
        ErrorCode::InsufficientCredits
    );
    assert_eq!(
        code(Operation::Abort, 400, ""),
        ErrorCode::AbortTargetMissing
    );
    assert_eq!(code(Operation::Account, 401, "{}"), ErrorCode::Unauthorized);
    let html = ApiError::from_response(
        Operation::Models,
        502,
        None,
        "<html>Bad gateway</html>".into(),
    );
    assert_eq!(html.code, ErrorCode::ServerError { status: 502 });
    assert_eq!(html.error.as_deref(), Some("<html>Bad gateway</html>"));
    assert_eq!(html.body.as_str(), "<html>Bad gateway</html>");
    // `error` that is not a string still gives a code, not a failure.
    assert_eq!(
        code(Operation::Turn, 404, r#"{"error":{"nested":1}}"#),
        ErrorCode::TurnNotFound
    );
}

#[test]
fn payment_required_is_out_of_credit_on_every_route() {
    for op in [
        Operation::Message,
        Operation::NewSession,
        Operation::WakeMachine,
        Operation::Approval,
        Operation::Context,
        Operation::Events,
        Operation::Abort,
    ] {
        for body in [
            "",
            r#"{"error":"Insufficient credits"}"#,
            r#"{"error":"Session not found or does not belong to your account."}"#,
        ] {
            assert_eq!(
                code(op, 402, body),
                ErrorCode::InsufficientCredits,
                "{op} {body}"
            );
        }
    }
}

#[test]
fn a_refused_pick_says_the_card_still_waits() {
    assert_eq!(
        code(Operation::Approval, 400, r#"{"error":"Invalid selection"}"#),
        ErrorCode::SelectionRejected
    );
    assert_eq!(
        code(Operation::WakeMachine, 404, "{}"),
        ErrorCode::MachineNotFound
    );
}

#[test]
fn a_message_the_service_did_not_take_has_its_own_final_code() {
    let refused = ApiError::from_response(Operation::Message, 500, None, String::new());
    let err = crate::error::Error::NotSent {
        sends: 4,
        last: Box::new(refused.into()),
    };
    assert_eq!(err.code(), ErrorCode::MessageNotSent);
    // Final for the follower: sending again is the person's choice now.
    assert!(!err.code().is_transient());
    assert!(err.to_string().contains("not sent"), "{err}");
}
