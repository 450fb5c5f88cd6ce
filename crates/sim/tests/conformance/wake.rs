//! `POST /v1/agents/wake { machineId }` → `{ waking, startingUp, status, canWake }`, and the
//! machine statuses on the way up (`wakingup`) and down (`hibernating`).

use crate::support::*;
use porthole_sim::Config;
use serde_json::{json, Value};

/// A clock slow enough that a computer is still starting (6 s) or going to sleep (2 s) while
/// the next request looks, however busy the machine running the tests is.
async fn slow() -> Peer {
    start_with(Config {
        time_scale: 0.2,
        ..Config::default()
    })
    .await
}

async fn wake(p: &Peer, who: &str, machine_id: &str) -> (u16, Value) {
    send(
        p.post("/v1/agents/wake", who)
            .json(&json!({ "machineId": machine_id })),
    )
    .await
}

async fn row(p: &Peer, who: &str, machine_id: &str) -> Value {
    let (_, b) = send(p.get("/v1/agents/machines", who)).await;
    b["machines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["machineId"] == machine_id)
        .cloned()
        .expect("the machine is listed")
}

async fn status_becomes(p: &Peer, who: &str, machine_id: &str, want: &str) {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let r = row(p, who, machine_id).await;
        if r["status"] == want {
            return;
        }
        assert!(tokio::time::Instant::now() < deadline, "never {want}: {r}");
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn the_first_wake_dispatches_the_second_hears_it_is_starting_then_it_is_awake() {
    let p = slow().await;
    let m = p.machine_id("ada", "Research box").await;
    let (s, b) = wake(&p, "ada", &m).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        b,
        json!({"waking": true, "startingUp": true, "status": "wakingup", "canWake": true})
    );
    let r = row(&p, "ada", &m).await;
    assert_eq!(r["status"], "wakingup");
    let (s, b) = wake(&p, "ada", &m).await;
    assert_eq!(s, 200);
    assert_eq!(
        (&b["waking"], &b["startingUp"]),
        (&json!(false), &json!(true))
    );
    status_becomes(&p, "ada", &m, "active").await;
    let (s, b) = wake(&p, "ada", &m).await;
    assert_eq!(s, 200);
    assert_eq!(
        b,
        json!({"waking": false, "startingUp": false, "status": "active", "canWake": true})
    );
}

#[tokio::test]
async fn a_machine_that_cannot_wake_stays_asleep() {
    let p = start_unhurried().await;
    let m = p.machine_id("ada", "Studio archive").await;
    let r = row(&p, "ada", &m).await;
    assert_eq!(
        (&r["status"], &r["canWake"]),
        (&json!("hibernated"), &json!(false))
    );
    let (s, b) = wake(&p, "ada", &m).await;
    assert_eq!(s, 200);
    assert_eq!(
        b,
        json!({"waking": false, "startingUp": false, "status": "hibernated", "canWake": false})
    );
    assert_eq!(row(&p, "ada", &m).await["status"], "hibernated");
}

#[tokio::test]
async fn a_message_to_a_machine_that_cannot_wake_says_the_agent_is_offline() {
    let p = start_unhurried().await;
    let m = p.machine_id("ada", "Studio archive").await;
    let (s, _, frames) = sse(p
        .post("/v1/agents/message", "ada")
        .json(&json!({"message": "Weather in Oslo", "machineId": m})))
    .await;
    assert_eq!(s, 200);
    let status = frames
        .iter()
        .find(|f| f["type"] == "data-status")
        .expect("a delivery status");
    assert_eq!(status["data"]["kind"], "agent_offline");
    assert!(status["data"]["text"].is_string());
    assert!(frames.iter().any(|f| f["type"] == "error"));
    assert_eq!(row(&p, "ada", &m).await["status"], "hibernated");
}

#[tokio::test]
async fn an_own_desktop_or_another_accounts_machine() {
    let p = start_unhurried().await;
    let own = p.machine_id("ada", "Ada's MacBook").await;
    let (s, b) = wake(&p, "ada", &own).await;
    assert_eq!(s, 200);
    assert_eq!(
        (&b["waking"], &b["startingUp"], &b["canWake"]),
        (&json!(false), &json!(false), &json!(false))
    );
    let research = p.machine_id("ada", "Research box").await;
    let (s, b) = wake(&p, "fred", &research).await;
    assert_eq!(s, 404, "{b}");
    assert!(b["error"].is_string());
    let (s, _) = wake(&p, "ada", "m_none").await;
    assert_eq!(s, 404);
    let (s, _) = send(p.post("/v1/agents/wake", "ada").json(&json!({}))).await;
    assert_eq!(s, 400);
    assert_eq!(row(&p, "ada", &research).await["status"], "hibernated");
}

#[tokio::test]
async fn a_machine_going_to_sleep_reads_hibernating_then_hibernated() {
    let p = slow().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let owner = p.account("ada").user_id.clone();
    assert!(p.sim.state().hibernate(&owner, &m));
    let r = row(&p, "ada", &m).await;
    assert_eq!(r["status"], "hibernating");
    assert_eq!(r["online"], false, "not usable while it goes down");
    status_becomes(&p, "ada", &m, "hibernated").await;
    assert_eq!(
        row(&p, "ada", &m).await["online"],
        true,
        "a message wakes it"
    );
}

#[tokio::test]
async fn a_message_to_a_hibernated_machine_says_it_is_waking() {
    let p = start().await;
    let m = p.machine_id("ada", "Research box").await;
    let (s, _, frames) = sse(p
        .post("/v1/agents/message", "ada")
        .json(&json!({"message": "Weather", "machineId": m})))
    .await;
    assert_eq!(s, 200);
    let status = frames
        .iter()
        .find(|f| f["type"] == "data-status")
        .expect("data-status while waking");
    assert_eq!(status["data"]["kind"], "waking");
}
