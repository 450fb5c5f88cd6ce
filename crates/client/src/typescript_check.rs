//! With `--features specta`: every model the app may hand to its webview exports to
//! TypeScript the way tauri-specta does it (serde rules applied, no BigInt).

use specta::Types;

use crate::*;

#[test]
fn models_export_to_typescript() {
    let types = Types::default()
        .register::<auth::AuthCheck>()
        .register::<machines::MachineList>()
        .register::<machines::MachineCreation>()
        .register::<models::ModelList>()
        .register::<account::Account>()
        .register::<keys::KeyList>()
        .register::<uploads::Upload>()
        .register::<turns::Turn>()
        .register::<turns::Trajectory>()
        .register::<control::LeaseInfo>()
        .register::<control::LeaseOpened>()
        .register::<control::ExecRequest>()
        .register::<control::ExecResult>()
        .register::<control::Interrupted>()
        .register::<learn::LearnRequest>()
        .register::<learn::LearnResult>()
        .register::<judge::JudgeRequest>()
        .register::<judge::Judgement>()
        .register::<messages::MessageRequest>()
        .register::<messages::MessageOutcome>()
        .register::<events::EventsPage>()
        .register::<approvals::ApprovalRequest>()
        .register::<approvals::AnswerOutcome>()
        .register::<machines::WakeOutcome>()
        .register::<abort::AbortOutcome>()
        .register::<sessions::NewSession>()
        .register::<sessions::Context>()
        .register::<TaskUpdate>()
        .register::<FollowerState>()
        .register::<ErrorCode>()
        .register::<Operation>()
        .register::<Limit>()
        .register::<LeaseState>();
    let ts = specta_typescript::Typescript::default()
        .export(&types, specta_serde::Format)
        .unwrap_or_else(|e| panic!("export failed: {e}"));
    assert!(ts.contains("TaskUpdate"));
    assert!(ts.contains("retryAfterMs"), "camelCase fields");
}
