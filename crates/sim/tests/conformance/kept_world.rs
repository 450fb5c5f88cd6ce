//! The world kept across a restart (`porthole_sim::World`): a simulator started from the
//! copy of another has the same accounts, computers and conversations, and a conversation
//! goes on where it was. A task still running when the copy was taken comes back ended, and
//! its computer takes the next one. What the wire shows is what it showed before.

use crate::support::*;
use porthole_sim::{Config, World};
use serde_json::{json, Value};

/// The copy as the app keeps it: through JSON, in a file.
fn kept(p: &Peer) -> World {
    let text = serde_json::to_string(&p.sim.state().world()).expect("the world serializes");
    serde_json::from_str(&text).expect("and reads back")
}

async fn restarted(world: World) -> Peer {
    start_with(Config {
        time_scale: TIME_SCALE,
        world: Some(world),
        ..Config::default()
    })
    .await
}

async fn machines(p: &Peer) -> Vec<Value> {
    let (s, b) = send(p.get("/v1/agents/machines", "ada")).await;
    assert_eq!(s, 200, "{b}");
    let mut rows = b["machines"].as_array().cloned().unwrap_or_default();
    for row in &mut rows {
        // When it last changed may move; what it is may not.
        row.as_object_mut().unwrap().remove("updatedAt");
    }
    rows
}

async fn context(p: &Peer, machine_id: &str) -> Vec<Value> {
    let (s, b) = send(p.get(
        &format!("/v1/agents/context?machineId={machine_id}&channel=api"),
        "ada",
    ))
    .await;
    assert_eq!(s, 200, "{b}");
    b["messages"].as_array().cloned().unwrap_or_default()
}

#[tokio::test]
async fn a_restarted_world_keeps_its_ids_and_a_conversation_goes_on() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let first = p
        .start_task(
            "ada",
            json!({"message": "Weather in Paris", "machineId": m, "channel": "api"}),
        )
        .await;
    let turn_id = first["turnId"].as_str().unwrap().to_owned();
    let (turn, _) = p.finish_turn("ada", &turn_id).await;
    assert_eq!(turn["status"], "succeeded", "{turn}");
    let before = machines(&p).await;
    let (_, who) = send(p.get("/v1/agents/auth", "ada")).await;
    let said = context(&p, &m).await;
    assert_eq!(said.len(), 2, "the task and its answer: {said:?}");
    let world = kept(&p);
    p.sim.shutdown().await;

    let q = restarted(world).await;
    assert_eq!(
        machines(&q).await,
        before,
        "the same computers, ids and states"
    );
    let (_, again) = send(q.get("/v1/agents/auth", "ada")).await;
    assert_eq!(again["userId"], who["userId"], "the same account");
    assert_eq!(
        context(&q, &m).await,
        said,
        "the conversation is still there"
    );
    let (s, old) = send(q.get(&format!("/v1/agents/turns/{turn_id}"), "ada")).await;
    assert_eq!(s, 200, "{old}");
    assert_eq!(old["status"], "succeeded");
    assert_eq!(old["answer"], turn["answer"], "{old}");

    let next = q
        .start_task(
            "ada",
            json!({"message": "And in Rome?", "machineId": m, "channel": "api"}),
        )
        .await;
    assert_eq!(
        next["sessionId"], first["sessionId"],
        "the next task joins the same conversation"
    );
    let (done, _) = q.finish_turn("ada", next["turnId"].as_str().unwrap()).await;
    assert_eq!(done["status"], "succeeded", "{done}");
    let now = context(&q, &m).await;
    assert_eq!(now.len(), 4, "{now:?}");
    assert_eq!(now[..2], said[..], "what was said before comes first");
    assert_eq!(now[2]["content"], "And in Rome?");
}

#[tokio::test]
async fn a_task_running_when_the_world_was_kept_comes_back_ended_and_its_computer_free() {
    let p = start_unhurried().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let running = p
        .start_task(
            "ada",
            json!({"message": "Take your time and count to 30", "machineId": m, "channel": "api"}),
        )
        .await;
    let turn_id = running["turnId"].as_str().unwrap().to_owned();
    let (s, turn) = send(p.get(&format!("/v1/agents/turns/{turn_id}"), "ada")).await;
    assert_eq!(
        (s, turn["status"].as_str()),
        (200, Some("running")),
        "{turn}"
    );
    let world = kept(&p);
    p.sim.shutdown().await;

    let q = restarted(world).await;
    let (ended, _) = q.finish_turn("ada", &turn_id).await;
    assert_eq!(ended["status"], "failed", "{ended}");
    let sid = running["sessionId"].as_str().unwrap();
    let (s, polled) = send(q.get(&format!("/v1/agents/events?sessionId={sid}"), "ada")).await;
    assert_eq!(s, 200, "{polled}");
    let events = polled["events"].as_array().cloned().unwrap_or_default();
    assert!(
        events.iter().any(
            |e| e["type"] == "error" && e["errorText"] == porthole_sim::world::ENDED_BY_RESTART
        ),
        "the task says why it ended: {polled}"
    );
    let next = q
        .start_task(
            "ada",
            json!({"message": "Weather in Oslo", "machineId": m, "channel": "api"}),
        )
        .await;
    let (done, _) = q.finish_turn("ada", next["turnId"].as_str().unwrap()).await;
    assert_eq!(
        done["status"], "succeeded",
        "the computer is free again: {done}"
    );
}
