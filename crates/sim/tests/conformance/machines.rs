//! Machines: list, statuses, the free computer's row and claim, creation. Wake is in
//! `wake.rs`.

use crate::support::*;
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn list_is_sorted_by_name_with_status_and_online() {
    let p = start().await;
    let (s, b) = send(p.get("/v1/agents/machines", "ada")).await;
    assert_eq!(s, 200);
    let ms = b["machines"].as_array().unwrap();
    let names: Vec<&str> = ms.iter().map(|m| m["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "Ada's MacBook",
            "Design laptop",
            "Research box",
            "Studio archive"
        ]
    );
    assert_eq!(ms[0]["kind"], "own");
    assert_eq!(ms[0]["online"], true);
    assert!(ms[0].get("status").is_none());
    assert_eq!(ms[0]["canWake"], false);
    assert_eq!(ms[1]["status"], "active");
    assert_eq!(ms[1]["online"], true);
    assert_eq!(ms[2]["status"], "hibernated");
    assert_eq!(
        ms[2]["online"], true,
        "a message wakes a hibernated computer"
    );
    assert_eq!(ms[2]["canWake"], true);
    assert_eq!(ms[3]["status"], "hibernated");
    assert_eq!(ms[3]["canWake"], false, "asleep for good");
}

#[tokio::test]
async fn free_account_row_is_synthetic_until_the_first_message_claims_it() {
    let p = start().await;
    let uid = p.account("fred").user_id.clone();
    let (_, b) = send(p.get("/v1/agents/machines", "fred")).await;
    let row = &b["machines"][0];
    assert_eq!(row["machineId"], format!("free-{uid}"));
    assert_eq!(row["updatedAt"], 0);
    assert_eq!(row["canWake"], false);
    assert_eq!(row["kind"], "cloud");
    assert_eq!(row["online"], false);
    assert!(row.get("status").is_none());
    // The first message starts the computer: data-status frames before the first event.
    let (s, _, frames) = sse(p
        .post("/v1/agents/message", "fred")
        .json(&json!({"message": "Weather in Paris"})))
    .await;
    assert_eq!(s, 200);
    let first_status = frames
        .iter()
        .position(|f| f["type"] == "data-status")
        .expect("data-status while starting");
    let first_event = frames
        .iter()
        .position(|f| f["type"] == "reasoning-start")
        .unwrap();
    assert!(first_status < first_event);
    let (_, b) = send(p.get("/v1/agents/machines", "fred")).await;
    let row = &b["machines"][0];
    assert_eq!(row["machineId"], format!("free-{uid}"));
    assert_eq!(row["status"], "active");
    assert_eq!(row["online"], true);
    assert!(row["updatedAt"].as_i64().unwrap() > 0);
}

#[tokio::test]
async fn creation_needs_an_id_token_a_paid_plan_and_billing() {
    let p = start().await;
    let (s, b) = send(p.post("/v1/agents/machines", "ada").json(&json!({}))).await;
    assert_eq!((s, b["error"].as_str()), (403, Some("session_required")));
    assert!(b["createUrl"].is_string());
    let (s, b) = send(p.req(Method::POST, "/v1/agents/machines", "fred", Cred::Token)).await;
    assert_eq!((s, b["error"].as_str()), (409, Some("free_plan_computer")));
    let (s, b) = send(p.req(Method::POST, "/v1/agents/machines", "pat", Cred::Token)).await;
    assert_eq!((s, b["error"].as_str()), (403, Some("not_billable")));
}

#[tokio::test]
async fn creation_is_one_at_a_time_three_an_hour_and_comes_online() {
    let p = start().await;
    let create = |name: &str| {
        p.req(Method::POST, "/v1/agents/machines", "ada", Cred::Token)
            .json(&json!({"name": name}))
    };
    let (s, b) = send(create("New box")).await;
    assert_eq!(s, 202, "{b}");
    assert!(b["taskId"].is_string() && b["message"].is_string());
    let (s, b) = send(create("Another")).await;
    assert_eq!((s, b["error"].as_str()), (429, Some("busy")));
    for name in ["New box", "Two", "Three"] {
        if name != "New box" {
            let (s, b) = send(create(name)).await;
            assert_eq!(s, 202, "{b}");
        }
        wait_online(&p, name).await;
    }
    let res = create("Four").send().await.unwrap();
    assert_eq!(
        res.status().as_u16(),
        429,
        "more than 3 creations in an hour"
    );
    assert!(res.headers().get("retry-after").is_some());
}

async fn wait_online(p: &Peer, name: &str) {
    for _ in 0..600 {
        let (_, b) = send(p.get("/v1/agents/machines", "ada")).await;
        let row = b["machines"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == name)
            .cloned()
            .unwrap();
        if row["online"] == true {
            return;
        }
        assert_eq!(row["kind"], "cloud");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("{name} never came online");
}
