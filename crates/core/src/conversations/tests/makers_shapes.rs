//! The core's flows against a simulator answering in the makers' shapes (`--shapes makers`):
//! blank bodies on approve, new-session and abort, a session named by `{id, title}` only,
//! keepalive lines, a history ending in odd lines, `stalled`, and a stream that names its
//! session late. What the person reads must be what the contract's shapes give.

use porthole_sim::{FaultSpec, Shapes};

use super::*;

async fn makers_app(faults: &str) -> App {
    let sim = Sim::start(Config {
        time_scale: SCALE,
        shapes: Shapes::Makers,
        faults: FaultSpec::parse(faults).unwrap(),
        ..Config::default()
    })
    .await
    .expect("the simulator starts");
    let client = client_for(&sim, "ada");
    app_on(sim, client).await
}

#[tokio::test]
async fn an_approval_the_service_takes_with_a_blank_body_is_approved_and_the_task_finishes() {
    let app = makers_app("").await;
    let id = app.new_conversation().await;
    app.send(&id, "Delete the old screenshots").await.unwrap();
    let asked = app.until(&id, waiting).await;
    let card = asked.pending_approval.clone().expect("a card waits");
    app.core
        .answer(&id, &card.approval_id, Answer::Yes)
        .await
        .expect("a blank 2xx is the service taking the answer");
    let done = app.until(&id, ended).await;
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert!(notices(&done).contains(&"You approved the request.".to_owned()));
    assert_eq!(answers(&done).len(), 1);
    assert!(done.failure.is_none(), "{:?}", done.failure);
    // The session named by `{id, title}` alone is learned, and the odd history lines the
    // catch-up reads show nothing new.
    assert!(done
        .follower
        .as_ref()
        .and_then(|f| f.session_id.as_ref())
        .is_some());
    assert_eq!(
        app.core.catch_up(&id).await.unwrap(),
        0,
        "{:#?}",
        done.items
    );
    // The history's line without a role is this task's own, heard here whole: never
    // "answered elsewhere".
    let after = app.core.store().get(&id).unwrap();
    assert!(from_elsewhere(&after).is_empty(), "{:#?}", after.items);
}

#[tokio::test]
async fn a_new_conversation_on_a_blank_answer_starts_and_takes_the_next_task() {
    let app = makers_app("").await;
    let first = app.core.current(&app.machine).await.unwrap().id;
    app.send(&first, "Find the weather in Lisbon")
        .await
        .unwrap();
    app.until(&first, ended).await;
    let second = app
        .core
        .start_new(&app.machine)
        .await
        .expect("a blank new-session answer is a new conversation")
        .id;
    assert_ne!(second, first);
    app.send(&second, "And in Porto?").await.unwrap();
    let done = app.until(&second, ended).await;
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
}

#[tokio::test]
async fn a_computer_that_does_not_pick_the_task_up_says_so_in_words() {
    let app = makers_app("").await;
    let machines = client_for(&app.sim, "ada").machines().list().await.unwrap();
    let archive = machines
        .machines
        .iter()
        .find(|m| m.name.as_deref() == Some("Studio archive"))
        .unwrap();
    let id = app.core.create(&archive.machine_id).await.unwrap().id;
    app.send(&id, "Open the calculator").await.unwrap();
    let done = app.until(&id, ended).await;
    assert!(
        done.items.iter().any(|i| matches!(
            i,
            ThreadItem::Status {
                about: Some(porthole_client::events::StatusKind::Stalled),
                ..
            }
        )),
        "{:#?}",
        done.items
    );
}

#[tokio::test]
async fn the_persons_own_computer_stalled_at_first_still_runs_the_task_to_its_end() {
    let app = makers_app("").await;
    let machines = client_for(&app.sim, "ada").machines().list().await.unwrap();
    let own = machines
        .machines
        .iter()
        .find(|m| m.name.as_deref() == Some("Ada's MacBook"))
        .unwrap();
    let id = app.core.create(&own.machine_id).await.unwrap().id;
    app.send(&id, "Find the weather in Lisbon").await.unwrap();
    let done = app.until(&id, ended).await;
    assert!(
        done.items.iter().any(|i| matches!(
            i,
            ThreadItem::Status {
                about: Some(porthole_client::events::StatusKind::Stalled),
                ..
            }
        )),
        "the person was told their computer had not picked it up: {:#?}",
        done.items
    );
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert!(done.failure.is_none(), "{:?}", done.failure);
}

#[tokio::test]
async fn stop_before_the_session_is_named_stops_it_by_its_computer_on_a_blank_answer() {
    let app = makers_app("late-session=1:20000ms").await;
    let id = app.new_conversation().await;
    app.send(&id, "Take your time and count to 20")
        .await
        .unwrap();
    let mut changes = app.sim.state().changes();
    let turn_id = loop {
        if let Some(id) = app.sim.state().db().turns.keys().next().cloned() {
            break id;
        }
        changes.changed().await.unwrap();
    };
    let running = app.core.store().get(&id).unwrap();
    assert!(running.status.is_active());
    // No session is named yet: Stop can only ask the service by computer.
    assert!(
        running
            .follower
            .as_ref()
            .and_then(|f| f.session_id.as_ref())
            .is_none(),
        "{running:#?}"
    );
    assert!(app.told.stopping.lock().unwrap().is_empty());

    app.core.stop(&id).await.unwrap();
    // The window is told of each change once it is saved.
    app.core.store().flush();

    // The thread said "Stopping…" while the service was asked.
    assert!(
        app.told.stopping.lock().unwrap().contains(&id),
        "the window was shown Stopping…"
    );

    let asked: Vec<_> = app
        .sim
        .state()
        .requests_seen()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == "/v1/agents/abort")
        .collect();
    assert_eq!(asked.len(), 1, "Stop asked the service once");
    let stopped = app.core.store().get(&id).unwrap();
    assert_eq!(stopped.status, TaskStatus::Stopped, "{:#?}", stopped.items);
    // A blank answer says nothing of what ran: the person reads that they stopped it.
    assert_eq!(notices(&stopped), ["You stopped the task."]);
    app.assert_turn_stopped_on_service(&turn_id).await;
}
