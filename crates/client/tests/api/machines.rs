use porthole_client::machines::{MachineKind, MachineStatus};
use porthole_client::ErrorCode;

use crate::support::*;

#[tokio::test]
async fn list_shows_every_kind_of_computer() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let machines = ada.machines().list().await.unwrap().machines;
    let names: Vec<_> = machines.iter().filter_map(|m| m.name.clone()).collect();
    let mut sorted = names.clone();
    sorted.sort_by_key(|n| n.to_lowercase());
    assert_eq!(names, sorted, "sorted by name");
    let laptop = machines
        .iter()
        .find(|m| m.name.as_deref() == Some("Design laptop"))
        .unwrap();
    assert_eq!(laptop.kind, MachineKind::Cloud);
    assert_eq!(laptop.status, Some(MachineStatus::Active));
    assert!(laptop.online);
    let research = machines
        .iter()
        .find(|m| m.name.as_deref() == Some("Research box"))
        .unwrap();
    assert_eq!(research.status, Some(MachineStatus::Hibernated));
    assert!(
        research.online,
        "a hibernated computer counts as online: a message wakes it"
    );
    let own = machines
        .iter()
        .find(|m| m.kind == MachineKind::Own)
        .unwrap();
    assert_eq!(own.name.as_deref(), Some("Ada's MacBook"));

    let fred = client(&sim, "fred")
        .machines()
        .list()
        .await
        .unwrap()
        .machines;
    let free = fred
        .iter()
        .find(|m| m.machine_id.starts_with("free-"))
        .unwrap();
    assert!(free.is_unclaimed_free_computer());
    assert!(!free.online && !free.can_wake);
}

#[tokio::test]
async fn creation_needs_a_sign_in_and_a_paid_plan() {
    let sim = sim().await;
    let err = client(&sim, "ada")
        .machines()
        .create(Some("New"))
        .await
        .unwrap_err();
    match err.code() {
        ErrorCode::SessionRequired { create_url } => assert!(create_url.is_some()),
        other => panic!("expected session_required, got {other:?}"),
    }
    let created = idp_client(&sim, "ada")
        .machines()
        .create(Some("New box"))
        .await
        .unwrap();
    assert!(!created.task_id.is_empty());
    let busy = idp_client(&sim, "ada")
        .machines()
        .create(None)
        .await
        .unwrap_err();
    assert!(matches!(busy.code(), ErrorCode::CreationBusy), "{busy:?}");

    let free = idp_client(&sim, "fred")
        .machines()
        .create(None)
        .await
        .unwrap_err();
    assert_eq!(free.code(), ErrorCode::FreePlanComputer);
    let unbillable = idp_client(&sim, "pat")
        .machines()
        .create(None)
        .await
        .unwrap_err();
    assert_eq!(unbillable.code(), ErrorCode::NotBillable);
}

#[tokio::test]
async fn live_view_url_is_secret_and_errors_are_typed() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let live = ada.machines().live(&laptop).await.unwrap();
    assert_eq!(live.machine_id, laptop);
    assert!(live.width > 0 && live.height > 0);
    assert!(live.websocket_url.expose().starts_with("ws"));
    assert!(!format!("{live:?}").contains(live.websocket_url.expose()));

    let research = machine(&ada, "Research box").await;
    let asleep = ada.machines().live(&research).await.unwrap_err();
    assert_eq!(asleep.code(), ErrorCode::MachineNotRunning);

    let fred_machine = client(&sim, "fred")
        .machines()
        .list()
        .await
        .unwrap()
        .machines[0]
        .machine_id
        .clone();
    let other = ada.machines().live(&fred_machine).await.unwrap_err();
    assert_eq!(other.code(), ErrorCode::MachineNotFound);
}

#[tokio::test]
async fn wake_brings_a_hibernated_computer_up_once() {
    let sim = sim().await;
    let ada = client(&sim, "ada");
    let research = machine(&ada, "Research box").await;
    let first = ada.machines().wake(&research).await.unwrap();
    assert!(
        first.waking && first.starting_up && first.can_wake,
        "{first:?}"
    );
    let statuses = |list: Vec<porthole_client::machines::Machine>| {
        list.into_iter()
            .find(|m| m.machine_id == research)
            .and_then(|m| m.status)
    };
    let mut status = statuses(ada.machines().list().await.unwrap().machines);
    if status == Some(MachineStatus::WakingUp) {
        // A second wake while it starts dispatches nothing and says it is starting.
        let second = ada.machines().wake(&research).await.unwrap();
        assert!(!second.waking, "{second:?}");
    }
    for _ in 0..200 {
        if status == Some(MachineStatus::Active) {
            break;
        }
        assert_eq!(
            status,
            Some(MachineStatus::WakingUp),
            "only waking on the way up"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        status = statuses(ada.machines().list().await.unwrap().machines);
    }
    assert_eq!(status, Some(MachineStatus::Active));
    let awake = ada.machines().wake(&research).await.unwrap();
    assert!(!awake.waking && !awake.starting_up, "{awake:?}");
    let missing = ada.machines().wake("m_does_not_exist").await.unwrap_err();
    assert_eq!(missing.code(), ErrorCode::MachineNotFound);
    let fred_machine = &client(&sim, "fred")
        .machines()
        .list()
        .await
        .unwrap()
        .machines[0];
    let foreign = ada
        .machines()
        .wake(&fred_machine.machine_id)
        .await
        .unwrap_err();
    assert_eq!(foreign.code(), ErrorCode::MachineNotFound);
}

#[tokio::test]
async fn a_computer_going_to_sleep_reads_hibernating_then_wakes_again() {
    // Unscaled: the way down lasts 10 s, far longer than the reads below.
    let sim = porthole_sim::Sim::start(porthole_sim::Config::default())
        .await
        .unwrap();
    let ada = client(&sim, "ada");
    let laptop = machine(&ada, "Design laptop").await;
    let user_id = sim.account("ada").user_id.clone();
    assert!(sim.state().hibernate(&user_id, &laptop));
    let status = |list: Vec<porthole_client::machines::Machine>| {
        list.into_iter()
            .find(|m| m.machine_id == laptop)
            .and_then(|m| m.status)
    };
    assert_eq!(
        status(ada.machines().list().await.unwrap().machines),
        Some(MachineStatus::Hibernating)
    );
    // Woken on its way down, it turns back.
    let outcome = ada.machines().wake(&laptop).await.unwrap();
    assert!(outcome.starting_up, "{outcome:?}");
}
