//! `POST /v1/agents/approve { approvalId, response, selections? }`, as the service's makers'
//! own client calls it: `yes` approves, `no` denies, `always` is one yes and no more.

use crate::support::*;
use serde_json::{json, Value};

/// Starts `task` on ada's Design laptop and waits for its card.
async fn card(p: &Peer, task: &str) -> (Value, Value) {
    let m = p.machine_id("ada", "Design laptop").await;
    let t = p
        .start_task("ada", json!({"message": task, "machineId": m}))
        .await;
    let sid = t["sessionId"].as_str().unwrap();
    let (_, body) = p.poll_until("ada", sid, &["needs_approval"]).await;
    (t, body["approval"].clone())
}

async fn approve(p: &Peer, who: &str, body: Value) -> (u16, Value) {
    send(p.post("/v1/agents/approve", who).json(&body)).await
}

#[tokio::test]
async fn yes_approves_and_the_task_goes_on() {
    let p = start_unhurried().await;
    let (t, a) = card(&p, "Delete the old reports").await;
    assert_eq!(a["approvalType"], "exec");
    assert_eq!(
        a["allowAlways"], true,
        "sent, as the real service does; always is one yes"
    );
    assert!(a["expiresAt"].as_i64().unwrap() > 0);
    let url = url::Url::parse(a["approvalUrl"].as_str().unwrap()).unwrap();
    assert_eq!(
        url.path(),
        format!(
            "/approval/{}/{}",
            p.account("ada").user_id,
            a["approvalId"].as_str().unwrap()
        ),
        "the real approval page's shape"
    );
    assert_eq!(url.query(), Some("from=api"));
    let id = a["approvalId"].as_str().unwrap();
    let (s, b) = approve(&p, "ada", json!({"approvalId": id, "response": "yes"})).await;
    assert_eq!((s, b), (200, json!({"ok": true})));
    let (turn, _) = p.finish_turn("ada", t["turnId"].as_str().unwrap()).await;
    assert_eq!(turn["status"], "succeeded");
    assert!(!turn["output"].as_str().unwrap().contains("declined"));
    let (s, b) = approve(&p, "ada", json!({"approvalId": id, "response": "yes"})).await;
    assert_eq!(s, 409, "an answered card cannot be answered again: {b}");
    assert_eq!(b["error"], "approval_resolved");
}

#[tokio::test]
async fn no_denies_and_the_agent_skips_the_step() {
    let p = start_unhurried().await;
    let (t, a) = card(&p, "Send the report to Bob").await;
    let (s, _) = approve(
        &p,
        "ada",
        json!({"approvalId": a["approvalId"], "response": "no"}),
    )
    .await;
    assert_eq!(s, 200);
    let (turn, _) = p.finish_turn("ada", t["turnId"].as_str().unwrap()).await;
    assert!(turn["output"].as_str().unwrap().contains("declined"));
}

#[tokio::test]
async fn always_is_one_yes_and_the_next_task_asks_again() {
    let p = start_unhurried().await;
    let (t, a) = card(&p, "Install the app").await;
    let (s, _) = approve(
        &p,
        "ada",
        json!({"approvalId": a["approvalId"], "response": "always"}),
    )
    .await;
    assert_eq!(s, 200);
    let (turn, _) = p.finish_turn("ada", t["turnId"].as_str().unwrap()).await;
    assert!(!turn["output"].as_str().unwrap().contains("declined"));
    let (_, again) = card(&p, "Install the app again").await;
    assert_ne!(again["approvalId"], a["approvalId"], "asked once more");
}

#[tokio::test]
async fn other_answers_and_missing_fields_are_400_and_the_card_stays() {
    let p = start_unhurried().await;
    let (t, a) = card(&p, "Delete the drafts").await;
    let id = a["approvalId"].as_str().unwrap();
    for body in [
        json!({"approvalId": id, "response": "approve"}),
        json!({"approvalId": id, "response": "maybe"}),
        json!({"approvalId": id}),
        json!({"response": "yes"}),
        json!({"approvalId": id, "response": true}),
    ] {
        let (s, b) = approve(&p, "ada", body.clone()).await;
        assert_eq!(s, 400, "{body}: {b}");
        assert!(b["error"].is_string());
    }
    let sid = t["sessionId"].as_str().unwrap();
    let (_, body) = p.poll_until("ada", sid, &["needs_approval"]).await;
    assert_eq!(body["approval"]["approvalId"], id, "still pending");
}

#[tokio::test]
async fn unknown_or_another_accounts_approval_is_404() {
    let p = start_unhurried().await;
    let (_, a) = card(&p, "Delete the drafts").await;
    let (s, b) = approve(
        &p,
        "ulla",
        json!({"approvalId": a["approvalId"], "response": "yes"}),
    )
    .await;
    assert_eq!(s, 404, "{b}");
    assert!(b["error"].is_string());
    let (s, _) = approve(
        &p,
        "ada",
        json!({"approvalId": "ap_none", "response": "yes"}),
    )
    .await;
    assert_eq!(s, 404);
}
