//! Every way a lease ends reaches the handle as its `closedReason`, and blocks stop as the
//! spec says (timeout, interrupt).

use std::time::Duration;

use porthole_client::control::{ClosedReason, ExecErrorKind, ExecRequest};
use porthole_client::messages::MessageRequest;
use porthole_client::{ErrorCode, Lease, LeaseState};

use crate::support::*;

fn closed(reason: ClosedReason) -> LeaseState {
    LeaseState::Closed { reason }
}

#[tokio::test]
async fn a_runaway_block_times_out_and_an_interrupt_stops_one() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let mut lease = Lease::open(&ada, &laptop).await.unwrap();
    let mut spin = ExecRequest::new("var before = 1; while (true) {}");
    spin.timeout_ms = Some(1_000);
    let timed_out = lease.exec(&spin).await.unwrap();
    assert_eq!(timed_out.error.unwrap().kind, ExecErrorKind::Timeout);

    let runner = {
        let mut lease = lease.clone();
        tokio::spawn(async move {
            let mut long = ExecRequest::new("while (true) {}");
            long.timeout_ms = Some(300_000);
            lease.exec(&long).await
        })
    };
    let mut stopped = false;
    for _ in 0..200 {
        if lease.interrupt().await.unwrap().interrupted {
            stopped = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(stopped, "the running block was interrupted");
    let result = runner.await.unwrap().unwrap();
    assert_eq!(result.error.unwrap().kind, ExecErrorKind::Interrupted);
    assert!(lease.is_open());
    lease.close().await.unwrap();
}

#[tokio::test]
async fn an_agent_task_takes_a_quiet_lease_lock_lost() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let mut lease = Lease::open(&ada, &laptop).await.unwrap();
    lease.exec(&ExecRequest::new("1")).await.unwrap();
    // Quiet for two scaled minutes, then a task arrives for the machine.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    ada.messages()
        .send(&MessageRequest::new("Open the calculator", &laptop))
        .await
        .unwrap();
    let mut state = lease.state().clone();
    for _ in 0..300 {
        lease.refresh().await.unwrap();
        state = lease.state().clone();
        if !lease.is_open() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(state, closed(ClosedReason::LockLost));
    let err = lease.exec(&ExecRequest::new("1")).await.unwrap_err();
    assert_eq!(
        err.code(),
        ErrorCode::ControlClosed {
            reason: ClosedReason::LockLost
        }
    );
}

#[tokio::test]
async fn a_frozen_computer_closes_the_lease_unresponsive() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let mut lease = Lease::open(&ada, &laptop).await.unwrap();
    let mut hang = ExecRequest::new("machine.hang(600000, { wholeComputer: true })");
    hang.timeout_ms = Some(1_000);
    let err = lease.exec(&hang).await.unwrap_err();
    assert_eq!(
        err.code(),
        ErrorCode::ControlClosed {
            reason: ClosedReason::Unresponsive
        }
    );
    assert_eq!(lease.state(), &closed(ClosedReason::Unresponsive));
    // The next open starts a fresh lease.
    lease.reopen().await.unwrap();
    assert!(lease.newly_opened());
}

#[tokio::test]
async fn a_service_restart_closes_the_lease_shutdown() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let mut lease = Lease::open(&ada, &laptop).await.unwrap();
    porthole_sim::control::shutdown_all(sim.state());
    let info = lease.refresh().await.unwrap();
    assert_eq!(info.closed_reason, Some(ClosedReason::Shutdown));
    assert_eq!(lease.state(), &closed(ClosedReason::Shutdown));
    assert_eq!(lease.idle_deadline_ms(), None);
}
