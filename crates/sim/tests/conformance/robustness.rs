//! Bad input of every kind gets the spec's status and body, never a panic or a hang.

use crate::support::*;
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn unknown_ids_answer_as_missing() {
    let p = start().await;
    let (s, b) = send(p.get("/v1/agents/turns/turn_nope", "ada")).await;
    assert_eq!((s, b["error"].as_str()), (404, Some("turn_not_found")));
    assert!(
        b["message"].is_string(),
        "turns use the {{error, message}} shape"
    );
    let (s, b) = send(p.get("/v1/agents/turns/turn_nope/trajectory", "ada")).await;
    assert_eq!((s, b["error"].as_str()), (404, Some("turn_not_found")));
    let (s, _) = send(
        p.post("/v1/agents/wake", "ada")
            .json(&json!({"machineId": "m_nope"})),
    )
    .await;
    assert_eq!(s, 404);
    let (s, _) = send(
        p.post("/v1/agents/approve", "ada")
            .json(&json!({"approvalId": "ap_nope", "response": "yes"})),
    )
    .await;
    assert_eq!(s, 404);
    let (s, _) = send(p.req(
        Method::DELETE,
        "/v1/account/keys/k_nope",
        "ada",
        Cred::Token,
    ))
    .await;
    assert_eq!(s, 404);
    let (s, _) = send(
        p.post("/v1/agents/abort", "ada")
            .json(&json!({"sessionId": "cs_nope"})),
    )
    .await;
    assert_eq!(s, 403);
    let (s, _) = send(
        p.post("/v1/agents/new-session", "ada")
            .json(&json!({"machineId": "m_nope", "channel": "api"})),
    )
    .await;
    assert_eq!(s, 404);
}

#[tokio::test]
async fn the_paths_we_once_guessed_are_gone() {
    let p = start().await;
    let m = p.machine_id("ada", "Research box").await;
    for (path, body) in [
        (
            "/v1/agents/approvals/ap_x".to_owned(),
            json!({"decision": "approve"}),
        ),
        (format!("/v1/agents/machines/{m}/wake"), json!({})),
    ] {
        let (s, b) = send(p.post(&path, "ada").json(&body)).await;
        assert_eq!((s, b["error"].as_str()), (404, Some("not_found")), "{path}");
    }
    let (s, b) = send(p.get(
        &format!("/v1/agents/sessions?machineId={m}&channel=api"),
        "ada",
    ))
    .await;
    assert_eq!(
        (s, b["error"].as_str()),
        (404, Some("not_found")),
        "its shape is not published: not served"
    );
}

#[tokio::test]
async fn another_accounts_key_cannot_be_revoked() {
    let p = start().await;
    let (_, created) = send(
        p.req(Method::POST, "/v1/account/keys", "ada", Cred::Token)
            .json(&json!({})),
    )
    .await;
    let id = created["keyId"].as_str().unwrap();
    let (s, b) = send(p.req(
        Method::DELETE,
        &format!("/v1/account/keys/{id}"),
        "ulla",
        Cred::Token,
    ))
    .await;
    assert_eq!((s, b["error"].as_str()), (404, Some("API key not found.")));
    let (_, list) = send(p.req(Method::GET, "/v1/account/keys", "ada", Cred::Token)).await;
    let fresh = list["keys"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["keyId"] == id)
        .unwrap();
    assert!(fresh["lastUsedAt"].is_null(), "never used yet");
    assert!(fresh["createdAt"].is_number());
}

#[tokio::test]
async fn junk_headers_and_wrong_methods_do_not_break_anything() {
    let p = start().await;
    let bad = reqwest::header::HeaderValue::from_bytes(b"Bearer \xff\xfe").unwrap();
    let (s, _) = send(
        p.http
            .get(p.url("/v1/agents/auth"))
            .header("authorization", bad),
    )
    .await;
    assert_eq!(s, 401);
    let (s, _) = send(
        p.http
            .get(p.url("/v1/agents/auth"))
            .header("authorization", "Bearer"),
    )
    .await;
    assert_eq!(s, 401);
    let (s, b) = send(
        p.post("/v1/agents/upload", "ada")
            .header("x-filename", "%ZZ%%.txt")
            .body("hi"),
    )
    .await;
    assert_eq!(
        s, 200,
        "an undecodable name is kept as sent and made safe: {b}"
    );
    let (s, _) = send(p.get("/v1/agents/events?sessionId=x&wait=banana", "ada")).await;
    assert!(s == 400 || s == 403);
    let (s, _) = send(p.get("/v1/agents/events?sessionId=cs_x&since=%%%", "ada")).await;
    assert!(s == 400 || s == 403);
    let (s, b) = send(
        p.post("/v1/agents/approve", "ada")
            .header("content-type", "application/json")
            .body("["),
    )
    .await;
    assert_eq!(s, 400, "{b}");
    let (s, _) = send(
        p.post("/v1/agents/abort", "ada")
            .json(&json!({"machineId": 5})),
    )
    .await;
    assert_eq!(s, 400);
    let (s, _) = send(
        p.post("/v1/agents/abort", "ada")
            .json(&json!({"machineId": "m", "channel": "tv"})),
    )
    .await;
    assert_eq!(s, 400);
    let res = p
        .req(Method::DELETE, "/v1/agents/models", "ada", Cred::Key)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 405);
    // After all of that the simulator still serves.
    let (s, _) = send(p.get("/v1/agents/models", "ada")).await;
    assert_eq!(s, 200);
}

#[tokio::test]
async fn poll_waits_are_capped_and_cursors_reset_on_a_new_turn() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let first = p
        .start_task("ada", json!({"message": "Weather", "machineId": m}))
        .await;
    let sid = first["sessionId"].as_str().unwrap();
    let (_, done) = p.poll_until("ada", sid, &["idle"]).await;
    let old_cursor = done["cursor"].as_str().unwrap().to_owned();
    let second = p
        .start_task("ada", json!({"message": "Weather again", "machineId": m}))
        .await;
    let (_, b) = send(p.get(
        &format!("/v1/agents/events?sessionId={sid}&since={old_cursor}&wait=5"),
        "ada",
    ))
    .await;
    assert_eq!(b["turnId"], second["turnId"]);
    assert!(
        !b["events"].as_array().unwrap().is_empty(),
        "a new turn starts from its first event"
    );
    let (s, _) = send(p.get(
        &format!("/v1/agents/events?sessionId={sid}&wait=999"),
        "ada",
    ))
    .await;
    assert_eq!(s, 200, "wait above 60 is capped, not refused");
}
