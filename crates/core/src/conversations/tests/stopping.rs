//! Stop: asked of the service every time, worded from its answer, never undone by the stopped
//! task's late frames, and a held message starts only once the stopped task has ended.

use porthole_sim::FaultSpec;

use crate::error::now_ms;

use super::*;

fn users(c: &Conversation) -> Vec<(&str, bool)> {
    c.items
        .iter()
        .filter_map(|i| match i {
            ThreadItem::User { text, joined, .. } => Some((text.as_str(), *joined)),
            _ => None,
        })
        .collect()
}

/// A simulator whose streams name their session only after `ms` (a cold start).
async fn late_session_sim(ms: u64) -> RunningSim {
    Sim::start(Config {
        time_scale: SCALE,
        faults: FaultSpec::parse(&format!("late-session=1:{ms}ms")).unwrap(),
        ..Config::default()
    })
    .await
    .expect("the simulator starts")
}

/// The id of the first turn the simulator runs, once it runs.
async fn running_turn(sim: &RunningSim) -> String {
    let mut changes = sim.state().changes();
    loop {
        if let Some(id) = sim.state().db().turns.keys().next().cloned() {
            return id;
        }
        changes.changed().await.unwrap();
    }
}

fn aborts_seen(sim: &RunningSim) -> usize {
    sim.state()
        .requests_seen()
        .iter()
        .filter(|r| r.method == "POST" && r.path == "/v1/agents/abort")
        .count()
}

#[tokio::test]
async fn stop_before_the_stream_names_its_session_stops_the_task_by_its_computer() {
    let sim = late_session_sim(20_000).await;
    let client = client_for(&sim, "ada");
    let app = app_on(sim, client).await;
    let id = app.new_conversation().await;
    app.send(&id, "Take your time and count to 20")
        .await
        .unwrap();
    // The service has the task (it runs), but its stream has not named the session yet.
    let turn_id = running_turn(&app.sim).await;
    let running = app.core.store().get(&id).unwrap();
    assert!(running.status.is_active());
    assert!(
        running
            .follower
            .as_ref()
            .and_then(|f| f.session_id.as_ref())
            .is_none(),
        "{running:#?}"
    );
    assert_eq!(aborts_seen(&app.sim), 0);

    app.core.stop(&id).await.unwrap();

    assert_eq!(aborts_seen(&app.sim), 1, "Stop asked the service");
    let stopped = app.core.store().get(&id).unwrap();
    assert_eq!(stopped.status, TaskStatus::Stopped, "{:#?}", stopped.items);
    assert!(!stopped.stopping);
    assert!(!app.core.is_following(&id));
    assert_eq!(notices(&stopped), ["You stopped the task."]);
    // And the service did stop it: the turn ends, not as a success.
    app.assert_turn_stopped_on_service(&turn_id).await;
}

#[tokio::test]
async fn stop_when_the_service_has_nothing_running_says_so() {
    let app = app().await;
    let id = app.new_conversation().await;
    let running = app
        .running_in_its_session(&id, "Take your time and count to 20")
        .await;
    // Another copy of Porthole stopped it first: the service has nothing left to stop.
    let session = running.follower.unwrap().session_id.unwrap();
    let first = client_for(&app.sim, "ada")
        .abort()
        .session(&session)
        .await
        .unwrap();
    assert_eq!(first.aborted, Some(true));

    app.core.stop(&id).await.unwrap();

    let after = app.core.store().get(&id).unwrap();
    assert_eq!(
        notices(&after),
        ["Nothing was running, so there was nothing to stop."]
    );
    assert_eq!(after.status, TaskStatus::Stopped);
    assert!(!after.stopping);
}

#[tokio::test]
async fn the_stopped_tasks_late_frames_never_make_it_run_again_or_done() {
    let app = app().await;
    let id = app.new_conversation().await;
    let running = app
        .running_in_its_session(&id, "Take your time and count to 20")
        .await;
    app.core.stop(&id).await.unwrap();
    let stopped = app.core.store().get(&id).unwrap();

    // What the service goes on delivering about the stopped task (its last words, its
    // finish), read to the end and applied as a follower would.
    let session = running.follower.unwrap().session_id.unwrap();
    let client = client_for(&app.sim, "ada");
    let mut late = TaskFollower::follow_session(&client, &session);
    let mut heard = Vec::new();
    while let Some(update) = futures::StreamExt::next(&mut late).await {
        let update = update.unwrap();
        heard.push(update.clone());
        let state = late.state();
        app.core
            .change(&id, |c| c.apply(&update, state, now_ms()))
            .unwrap();
    }
    assert!(
        heard
            .iter()
            .any(|u| matches!(u, porthole_client::TaskUpdate::Finished { .. })),
        "the stream did go on to the stopped task's end: {heard:#?}"
    );

    let after = app.core.store().get(&id).unwrap();
    assert_eq!(after.status, TaskStatus::Stopped, "{:#?}", after.items);
    assert_eq!(
        after.items, stopped.items,
        "nothing of it reaches the thread"
    );
    assert!(answers(&after).is_empty());
}

#[tokio::test]
async fn a_message_held_with_run_next_starts_only_once_the_stopped_task_has_ended() {
    let app = app().await;
    let id = app.core.current(&app.machine).await.unwrap().id;
    app.running_in_its_session(&id, "Take your time and count to 20")
        .await;
    app.core
        .run_next(SendRequest {
            conversation_id: id.clone(),
            text: "Find the weather in Oslo".into(),
            ..SendRequest::default()
        })
        .await
        .unwrap();
    app.core.stop(&id).await.unwrap();

    // Sent at once, it would be folded into the dying task and never answered; it waits for
    // the end, then runs as a task of its own and is answered.
    let done = app
        .until(&id, |c| {
            users(c).len() == 2 && ended(c) && !answers(c).is_empty()
        })
        .await;
    assert_eq!(
        users(&done),
        [
            ("Take your time and count to 20", false),
            ("Find the weather in Oslo", false)
        ]
    );
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert!(answers(&done)[0].contains("Oslo"), "{:#?}", done.items);
    assert!(done.waiting.is_empty());
}

#[tokio::test]
async fn a_message_sent_while_the_stop_settles_waits_and_then_runs_as_its_own_task() {
    let app = app().await;
    let id = app.core.current(&app.machine).await.unwrap().id;
    app.running_in_its_session(&id, "Take your time and count to 20")
        .await;
    app.core.stop(&id).await.unwrap();
    let stopped = app.core.store().get(&id).unwrap();
    assert_eq!(stopped.status, TaskStatus::Stopped);
    // The stop has not settled on the service yet (its stream goes on to the end).
    assert!(app.core.stop_settling(&stopped), "{stopped:#?}");

    app.send(&id, "Find the weather in Oslo").await.unwrap();
    assert_eq!(
        app.core.store().get(&id).unwrap().waiting.len(),
        1,
        "held, not sent into the dying task"
    );
    let done = app
        .until(&id, |c| {
            users(c).len() == 2 && ended(c) && !answers(c).is_empty()
        })
        .await;
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert!(answers(&done)[0].contains("Oslo"), "{:#?}", done.items);
    assert!(done.waiting.is_empty());
}
