use porthole_client::control::{ClosedReason, ExecErrorKind, ExecRequest, LeaseStatus};
use porthole_client::learn::Parameter;
use porthole_client::{learned_exec_block, Error, ErrorCode, Lease, LeaseState};
use serde_json::json;

use crate::support::*;

#[tokio::test]
async fn a_block_brings_back_a_screenshot() {
    // The simulator's clock at a twentieth, not the suite's hundredth: a block's budget is
    // scaled with it, and drawing and encoding a debug build's screenshot on a busy 2-core
    // machine has taken longer than 3 s (the longest budget at a hundredth), ending the block
    // without its picture.
    let sim = porthole_sim::Sim::start(porthole_sim::Config {
        time_scale: 0.05,
        ..porthole_sim::Config::default()
    })
    .await
    .expect("the simulator starts");
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let mut lease = Lease::open(&ada, &laptop).await.unwrap();
    let shot = lease
        .exec(&ExecRequest {
            timeout_ms: Some(300_000),
            ..ExecRequest::new("machine.screenshot()")
        })
        .await
        .unwrap();
    assert!(shot.error.is_none(), "the block ran: {:?}", shot.error);
    let image = shot.observations.unwrap().screenshot.unwrap();
    assert_eq!(&image.decode().unwrap()[..2], &[0xFF, 0xD8]);
}

#[tokio::test]
async fn a_lease_runs_blocks_keeps_variables_and_closes() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let mut lease = Lease::open(&ada, &laptop).await.unwrap();
    assert!(lease.is_open() && lease.newly_opened());
    assert!(lease.idle_deadline_ms().is_some());
    let joined = ada.control().open(&laptop).await.unwrap();
    assert!(
        !joined.newly_opened,
        "an open lease answers 200 with the same body"
    );

    let first = lease
        .exec(&ExecRequest::new(
            "var total = 40 + 2; console.log('hello'); total",
        ))
        .await
        .unwrap();
    assert_eq!(first.result, json!(42));
    assert_eq!(first.logs, vec!["hello".to_owned()]);
    assert!(first.variables.iter().any(|v| v.name == "total"));

    let thrown = lease
        .exec(&ExecRequest::new("total + 1; throw new Error('boom')"))
        .await
        .unwrap();
    assert_eq!(
        thrown.error.as_ref().unwrap().kind,
        ExecErrorKind::Exception
    );
    let kept = lease.exec(&ExecRequest::new("total")).await.unwrap();
    assert_eq!(kept.result, json!(42), "variables survive a throw");

    let idle = lease.interrupt().await.unwrap();
    assert!(!idle.interrupted, "nothing was running");
    let info = lease.refresh().await.unwrap();
    assert_eq!(info.status, LeaseStatus::Open);
    assert!(info.last_exec_at.is_some());

    lease.close().await.unwrap();
    assert_eq!(
        lease.state(),
        &LeaseState::Closed {
            reason: ClosedReason::Closed
        }
    );
    let refused = lease.exec(&ExecRequest::new("1")).await.unwrap_err();
    assert!(
        matches!(refused, Error::LeaseClosed { .. }),
        "nothing sent on a closed lease"
    );
    let info = ada.control().get(&laptop).await.unwrap();
    assert_eq!(info.status, LeaseStatus::Closed);
    assert_eq!(info.closed_reason, Some(ClosedReason::Closed));
    let direct = ada
        .control()
        .exec(&laptop, &ExecRequest::new("1"))
        .await
        .unwrap_err();
    assert!(
        matches!(
            direct.code(),
            ErrorCode::ControlNotOpen | ErrorCode::ControlClosed { .. }
        ),
        "{direct:?}"
    );
    ada.control()
        .close(&laptop)
        .await
        .expect("closing twice is fine");
    lease.reopen().await.unwrap();
    assert!(lease.is_open());
    let fresh = lease.exec(&ExecRequest::new("typeof total")).await.unwrap();
    assert_eq!(
        fresh.result,
        json!("undefined"),
        "a fresh lease has a fresh REPL"
    );
    lease.close().await.unwrap();
}

#[tokio::test]
async fn a_learned_function_gets_every_input_merged_over_its_defaults() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let mut lease = Lease::open(&ada, &laptop).await.unwrap();
    let code = "async function main(params = { city: 'Paris', days: 3 }) {\n  return params.city + ':' + params.days;\n}";
    let parameters = vec![
        Parameter {
            name: "city".into(),
            default_value: json!("Paris"),
        },
        Parameter {
            name: "days".into(),
            default_value: json!(3),
        },
    ];
    let inputs = json!({ "days": 5 }).as_object().cloned().unwrap();
    let block = learned_exec_block(code, &parameters, &inputs).unwrap();
    let result = lease.exec(&block).await.unwrap();
    assert_eq!(result.error, None);
    assert_eq!(result.result, json!("Paris:5"));
    lease.close().await.unwrap();
}

#[tokio::test]
async fn an_idle_lease_closes_and_the_handle_learns_why() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let mut lease = Lease::open(&ada, &laptop).await.unwrap();
    // 600 s of idleness, scaled by the simulator's 0.01: until the service says it closed,
    // read through a copy of the handle so this one learns it only from its next block.
    let mut watcher = lease.clone();
    let start = std::time::Instant::now();
    while watcher.refresh().await.is_ok() && watcher.is_open() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(30),
            "the idle lease closes"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let err = lease.exec(&ExecRequest::new("1")).await.unwrap_err();
    assert_eq!(
        err.code(),
        ErrorCode::ControlClosed {
            reason: ClosedReason::IdleTimeout
        }
    );
    assert_eq!(
        lease.state(),
        &LeaseState::Closed {
            reason: ClosedReason::IdleTimeout
        }
    );
    assert_eq!(lease.idle_deadline_ms(), None);
}

#[tokio::test]
async fn control_errors_are_typed() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let own = ada
        .machines()
        .list()
        .await
        .unwrap()
        .machines
        .into_iter()
        .find(|m| m.kind == porthole_client::machines::MachineKind::Own)
        .unwrap()
        .machine_id;
    let err = ada.control().open(&own).await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::MachineNotSupported);
    let err = ada.control().open("not a valid id!").await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidMachine);
    let err = ada.control().open("m_nobodys").await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::MachineNotFound);
    let laptop = machine(&ada, "Design laptop").await;
    let err = ada
        .control()
        .exec(&laptop, &ExecRequest::new("1"))
        .await
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::ControlNotOpen);
    let err = ada.control().get(&laptop).await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::ControlNotOpen);

    let mut too_short = ExecRequest::new("1");
    too_short.timeout_ms = Some(10);
    let local = ada.control().exec(&laptop, &too_short).await.unwrap_err();
    assert_eq!(local.code(), ErrorCode::InvalidInput);

    let nophone = idp_client(&sim, "nophone");
    let free = nophone.machines().list().await.unwrap().machines[0]
        .machine_id
        .clone();
    let err = nophone.control().open(&free).await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::PhoneVerificationRequired);
}

#[tokio::test]
async fn a_computer_busy_with_a_task_refuses_a_lease_with_retry_after() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let started = match ada
        .messages()
        .send(&porthole_client::messages::MessageRequest::new(
            "Take your time and count to 5",
            &laptop,
        ))
        .await
        .unwrap()
    {
        porthole_client::messages::MessageOutcome::Started(s) => s,
        other => panic!("{other:?}"),
    };
    let err = ada.control().open(&laptop).await.unwrap_err();
    match err.code() {
        ErrorCode::MachineBusy { retry_after_ms } => assert!(retry_after_ms.is_some()),
        other => panic!("expected machine_busy, got {other:?}"),
    }
    ada.abort().session(&started.session_id).await.unwrap();
}

#[tokio::test]
async fn free_computer_time_spent_refuses_a_lease() {
    let sim = sim().await;
    let fred = client(&sim, "fred");
    let free = fred.machines().list().await.unwrap().machines[0]
        .machine_id
        .clone();
    let follower = porthole_client::TaskFollower::start(
        &fred,
        &porthole_client::messages::MessageRequest::new("Run a marathon of edits", &free),
        porthole_client::Transport::Poll,
    )
    .await
    .unwrap();
    crate::tasks::follow_to_end(&fred, follower, porthole_client::approvals::Answer::No).await;
    let err = fred.control().open(&free).await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::BudgetExhausted);
}

#[tokio::test]
async fn a_phone_whose_free_allowance_another_account_uses_is_its_own_refusal() {
    let sim = sim_with_faults("phone-allowance=1", 0).await;
    let fred = client(&sim, "fred");
    let free = fred.machines().list().await.unwrap().machines[0]
        .machine_id
        .clone();
    let err = fred.control().open(&free).await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::PhoneAllowanceInUse, "{err:?}");
}
