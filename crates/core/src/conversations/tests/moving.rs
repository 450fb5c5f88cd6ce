//! The makers write that the `api` channel keeps one live conversation, on the computer it was
//! last used from: moving to another computer retires the one behind you, and reading it back
//! answers empty (the simulator's `retire-on-move` fault; docs/service.md). Porthole's own copy
//! keeps the earlier conversation readable, its catch-up reads the empty history as a fresh
//! conversation on the service, never as lost history, and the next task there just runs.

use porthole_sim::FaultSpec;

use super::*;

#[tokio::test]
async fn moving_to_another_computer_keeps_the_conversation_behind_readable_and_usable() {
    let sim = Sim::start(Config {
        time_scale: SCALE,
        faults: FaultSpec::parse("retire-on-move=1").unwrap(),
        ..Config::default()
    })
    .await
    .expect("the simulator starts");
    let client = client_for(&sim, "ada");
    let other = client
        .machines()
        .list()
        .await
        .unwrap()
        .machines
        .into_iter()
        .find(|m| m.name.as_deref() == Some("Ada's MacBook"))
        .expect("ada's own awake computer")
        .machine_id;
    let app = app_on(sim, client.clone()).await;

    let behind = app.new_conversation().await;
    app.send(&behind, "Find the weather in Lisbon")
        .await
        .unwrap();
    let first = app.until(&behind, ended).await;
    assert_eq!(first.status, TaskStatus::Succeeded, "{:#?}", first.items);
    let read_before = client.sessions().context(&app.machine, 50).await.unwrap();
    assert!(!read_before.messages.is_empty(), "the service has the task");

    // The person gives the next task to another computer.
    let moved = app.core.create(&other).await.unwrap().id;
    app.send(&moved, "Find the weather in Porto").await.unwrap();
    let there = app.until(&moved, ended).await;
    assert_eq!(there.status, TaskStatus::Succeeded, "{:#?}", there.items);
    let read_after = client.sessions().context(&app.machine, 50).await.unwrap();
    assert!(
        read_after.messages.is_empty(),
        "the simulator retired the conversation behind: {read_after:?}"
    );

    // Back at the first computer: nothing read, nothing lost, nothing marked.
    assert_eq!(app.core.catch_up(&behind).await.unwrap(), 0);
    let kept = app.core.store().get(&behind).unwrap();
    assert_eq!(kept.items, first.items, "the thread reads as it did");
    assert_eq!(kept.status, TaskStatus::Succeeded);
    assert!(kept.failure.is_none(), "{:?}", kept.failure);

    // And the next task there runs, in a fresh conversation on the service.
    app.send(&behind, "Find the weather in Faro").await.unwrap();
    let again = app
        .until(&behind, |c| ended(c) && answers(c).len() == 2)
        .await;
    assert_eq!(again.status, TaskStatus::Succeeded, "{:#?}", again.items);
    assert_eq!(
        answers(&again)[0],
        answers(&first)[0],
        "the first answer stays"
    );
    assert!(again.failure.is_none(), "{:?}", again.failure);
}
