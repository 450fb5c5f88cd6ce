//! The console's leases against the simulator: the countdown is the service's real idle
//! deadline under a scaled clock, and a switch of service or account ends the old leases.

use super::*;
use porthole_client::control::LeaseStatus;
use porthole_client::{ClientConfig, Credential};
use porthole_sim::{Config, FaultSpec, RunningSim, Sim};

const SCALE: f64 = 0.01;

async fn sim() -> RunningSim {
    Sim::start(Config {
        time_scale: SCALE,
        ..Config::default()
    })
    .await
    .expect("the simulator starts")
}

/// The connection the app would make to `sim` as ada, as generation `generation`.
fn active(sim: &RunningSim, generation: u64) -> Active {
    let key = sim.account("ada").api_key.clone().expect("ada has a key");
    let client = Client::with_config(
        &sim.base_url,
        Credential::api_key(&key).unwrap(),
        ClientConfig::time_scaled(SCALE),
    )
    .unwrap();
    Active {
        client,
        scope: "demo".into(),
        generation,
    }
}

async fn design_laptop(active: &Active) -> String {
    let list = active.client.machines().list().await.unwrap();
    list.machines
        .into_iter()
        .find(|m| m.name.as_deref() == Some("Design laptop"))
        .expect("ada's cloud computer")
        .machine_id
}

fn now() -> f64 {
    crate::error::now_ms()
}

#[tokio::test]
async fn the_countdown_is_the_scaled_services_real_idle_deadline() {
    let sim = sim().await;
    let active = active(&sim, 1);
    let machine = design_laptop(&active).await;
    let consoles = Consoles::default();
    // The service releases an idle lease after 600 s of its clock: 6 s of ours here.
    let scaled_limit_ms = 600_000.0 * SCALE;

    let opened = consoles.open(&active, &machine).await.unwrap();
    let deadline = opened.idle_deadline_ms.expect("an open lease counts down");
    assert!(opened.open);
    assert!(
        deadline - now() <= scaled_limit_ms,
        "the countdown starts within the scaled idle limit, not the documented 600 s: {} ms left",
        deadline - now()
    );

    let ran = consoles
        .run(&active, &machine, &ExecRequest::new("1 + 1"), false)
        .await
        .unwrap();
    let after_block = ran.state.idle_deadline_ms.expect("still counting down");
    assert!(after_block >= deadline, "a block restarts the countdown");
    assert!(after_block - now() <= scaled_limit_ms);

    // Once the countdown has run out, the service has really closed the lease for idleness.
    let mut state = consoles.refresh(&active, &machine).await.unwrap();
    let give_up = after_block + 20_000.0;
    while state.open && now() < give_up {
        tokio::time::sleep(Duration::from_millis(200)).await;
        state = consoles.refresh(&active, &machine).await.unwrap();
    }
    assert!(
        !state.open,
        "the service closed the lease after the countdown"
    );
    assert_eq!(
        state.ended,
        Some(lease_ended(&ClosedReason::IdleTimeout)),
        "it ended for idleness"
    );
    assert_eq!(state.idle_deadline_ms, None, "no countdown once closed");
}

#[tokio::test]
async fn an_unscaled_service_counts_down_its_full_idle_limit() {
    let sim = sim().await;
    let mut active = active(&sim, 1);
    // A real service's client: its hour is an hour.
    active.client = Client::new(
        &sim.base_url,
        Credential::api_key(sim.account("ada").api_key.as_deref().unwrap()).unwrap(),
    )
    .unwrap();
    let machine = design_laptop(&active).await;
    let consoles = Consoles::default();
    let opened = consoles.open(&active, &machine).await.unwrap();
    let left = opened.idle_deadline_ms.unwrap() - now();
    assert!(
        left > 590_000.0 && left <= 600_000.0,
        "the reported 600 s are shown as they are: {left} ms"
    );
    consoles.close(&active, &machine).await.unwrap();
}

#[tokio::test]
async fn a_switch_closes_the_old_accounts_lease_and_the_next_never_sees_it() {
    let (old_service, new_service) = (sim().await, sim().await);
    let old = active(&old_service, 1);
    let old_machine = design_laptop(&old).await;
    let consoles = Consoles::default();
    consoles.open(&old, &old_machine).await.unwrap();

    // What `switching` does before the next connection is activated.
    close_all(consoles.retire_all()).await;

    let on_old = old.client.control().get(&old_machine).await.unwrap();
    assert_eq!(
        on_old.status,
        LeaseStatus::Closed,
        "the old lease was closed"
    );
    assert_eq!(on_old.closed_reason, Some(ClosedReason::Closed));

    let new = active(&new_service, 2);
    let new_machine = design_laptop(&new).await;
    let seen = consoles.refresh(&new, &new_machine).await.unwrap();
    assert!(!seen.open && seen.ended.is_none(), "nothing carried over");
    let sent = consoles
        .run(&new, &new_machine, &ExecRequest::new("1"), false)
        .await;
    assert!(
        matches!(sent, Err(AppError::LeaseNotOpen)),
        "no block is sent"
    );
    // The new service never got a lease or a block for it.
    assert!(new.client.control().get(&new_machine).await.is_err());
    // Nor does the old connection's handle come back if asked for again.
    let again = consoles.refresh(&old, &old_machine).await.unwrap();
    assert!(!again.open);
}

#[tokio::test]
async fn a_lease_opened_during_a_switch_is_closed_rather_than_kept() {
    // Every request is held a moment, so the switch lands while the open is on its way.
    let sim = Sim::start(Config {
        time_scale: SCALE,
        faults: FaultSpec::parse("slow=1:400ms").unwrap(),
        ..Config::default()
    })
    .await
    .unwrap();
    let old = active(&sim, 1);
    let machine = design_laptop(&old).await;
    let consoles = Consoles::default();
    let opening = consoles.open(&old, &machine);
    let switch = async {
        tokio::time::sleep(Duration::from_millis(150)).await;
        close_all(consoles.retire_all()).await;
    };
    let (opened, ()) = tokio::join!(opening, switch);
    assert!(!opened.unwrap().open, "the page is not told it is open");
    let on_service = old.client.control().get(&machine).await.unwrap();
    assert_eq!(
        on_service.status,
        LeaseStatus::Closed,
        "and the service released it"
    );
    assert!(!consoles.refresh(&old, &machine).await.unwrap().open);
}
