//! Approvals (API and link-only), expiry, and abort resolving them as denied.
//! The answer route itself is checked in `approve.rs`, the kinds of card in `cards.rs`.

use crate::support::*;
use serde_json::json;

#[tokio::test]
async fn approval_holds_the_stream_and_poll_until_approved() {
    let p = start_unhurried().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let t = p
        .start_task(
            "ada",
            json!({"message": "Delete the old reports", "machineId": m}),
        )
        .await;
    let sid = t["sessionId"].as_str().unwrap();
    let (events, body) = p.poll_until("ada", sid, &["needs_approval"]).await;
    let a = &body["approval"];
    assert!(a["approvalId"].as_str().unwrap().starts_with("ap_"));
    assert_eq!(a["approvalType"], "exec");
    assert_eq!(a["isLinkOnly"], false);
    assert!(a["expiresAt"].as_i64().unwrap() > 0);
    let url = a["approvalUrl"].as_str().unwrap();
    assert!(
        url.contains(&p.account("ada").user_id)
            && url.contains(a["approvalId"].as_str().unwrap())
            && url.contains("from=api")
    );
    assert!(events.iter().any(|e| e["type"] == "data-approval-request"));
    let (turn, _) = {
        let (s, b) = send(p.get(
            &format!("/v1/agents/turns/{}", t["turnId"].as_str().unwrap()),
            "ada",
        ))
        .await;
        (s, b)
    };
    assert_eq!(turn, 200);
    let id = a["approvalId"].as_str().unwrap();
    let (s, _) = send(
        p.post("/v1/agents/approve", "ada")
            .json(&json!({"approvalId": id, "response": "maybe"})),
    )
    .await;
    assert_eq!(s, 400);
    let (s, b) = send(
        p.post("/v1/agents/approve", "ada")
            .json(&json!({"approvalId": id, "response": "yes"})),
    )
    .await;
    assert_eq!((s, b["ok"].as_bool()), (200, Some(true)));
    let (_, body) = p.poll_until("ada", sid, &["idle", "error"]).await;
    assert_eq!(body["status"], "idle");
    assert!(!body["text"].as_str().unwrap().contains("declined"));
}

#[tokio::test]
async fn turn_reports_needs_input_while_approval_pends_and_stream_stays_open() {
    let p = start_unhurried().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let req = p
        .post("/v1/agents/message", "ada")
        .json(&json!({"message": "Send the report to Bob", "machineId": m}));
    let stream = tokio::spawn(async move { sse(req).await });
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(
        !stream.is_finished(),
        "the stream stays open while an approval is pending"
    );
    let t = p
        .start_task("ada", json!({"message": "and be quick", "machineId": m}))
        .await;
    assert_eq!(t["queued"], true);
    let sid = t["sessionId"].as_str().unwrap();
    let (_, body) = p.poll_until("ada", sid, &["needs_approval"]).await;
    let (_, turn) = send(p.get(
        &format!("/v1/agents/turns/{}", t["turnId"].as_str().unwrap()),
        "ada",
    ))
    .await;
    assert_eq!(turn["status"], "needs_input");
    let id = body["approval"]["approvalId"].as_str().unwrap();
    let (s, _) = send(
        p.post("/v1/agents/approve", "ada")
            .json(&json!({"approvalId": id, "response": "no"})),
    )
    .await;
    assert_eq!(s, 200);
    let (_, _, frames) = stream.await.unwrap();
    assert_eq!(frames.last().unwrap(), "[DONE]");
    assert!(frames.iter().any(|f| f["type"] == "data-approval-request"));
    let (turn, _) = p.finish_turn("ada", t["turnId"].as_str().unwrap()).await;
    assert!(turn["output"].as_str().unwrap().contains("declined"));
}

#[tokio::test]
async fn link_only_approval_is_answered_on_its_page() {
    let p = start_unhurried().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let t = p
        .start_task("ada", json!({"message": "Buy a coffee", "machineId": m}))
        .await;
    let sid = t["sessionId"].as_str().unwrap();
    let (_, body) = p.poll_until("ada", sid, &["needs_approval"]).await;
    let a = &body["approval"];
    assert_eq!(a["isLinkOnly"], true);
    let id = a["approvalId"].as_str().unwrap();
    let (s, _) = send(
        p.post("/v1/agents/approve", "ada")
            .json(&json!({"approvalId": id, "response": "yes"})),
    )
    .await;
    assert_eq!(
        s, 403,
        "link-only approvals are answered by a person on the page"
    );
    let url = a["approvalUrl"].as_str().unwrap();
    let page = p.http.get(url).send().await.unwrap().text().await.unwrap();
    assert!(page.contains("Approve") && page.contains("Deny"));
    let res = p
        .http
        .post(url)
        .form(&[("decision", "approve")])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    let (_, body) = p.poll_until("ada", sid, &["idle", "error"]).await;
    assert_eq!(body["status"], "idle");
}

#[tokio::test]
async fn unanswered_approval_expires() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let t = p
        .start_task("ada", json!({"message": "Install the app", "machineId": m}))
        .await;
    let (turn, _) = p.finish_turn("ada", t["turnId"].as_str().unwrap()).await;
    assert_eq!(turn["status"], "succeeded");
    assert!(turn["output"].as_str().unwrap().contains("nobody answered"));
}

#[tokio::test]
async fn abort_denies_pending_approvals_and_reports_idle_sessions() {
    let p = start_unhurried().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (s, _) = send(p.post("/v1/agents/abort", "ada").json(&json!({}))).await;
    assert_eq!(s, 400);
    let (s, b) = send(
        p.post("/v1/agents/abort", "ada")
            .json(&json!({"machineId": m})),
    )
    .await;
    assert_eq!(
        (s, b["aborted"].as_bool(), b["reason"].as_str()),
        (200, Some(false), Some("no active session"))
    );
    let t = p
        .start_task(
            "ada",
            json!({"message": "Delete everything", "machineId": m}),
        )
        .await;
    let sid = t["sessionId"].as_str().unwrap();
    let (_, body) = p.poll_until("ada", sid, &["needs_approval"]).await;
    let id = body["approval"]["approvalId"].as_str().unwrap().to_owned();
    let (s, b) = send(
        p.post("/v1/agents/abort", "ada")
            .json(&json!({"sessionId": sid})),
    )
    .await;
    assert_eq!(
        (s, b["ok"].as_bool(), b["aborted"].as_bool()),
        (200, Some(true), Some(true))
    );
    let (s, _) = send(
        p.post("/v1/agents/approve", "ada")
            .json(&json!({"approvalId": id, "response": "yes"})),
    )
    .await;
    assert_eq!(s, 409, "the approval was resolved as denied by the abort");
    p.finish_turn("ada", t["turnId"].as_str().unwrap()).await;
    let (s, b) = send(
        p.post("/v1/agents/abort", "ada")
            .json(&json!({"sessionId": sid})),
    )
    .await;
    assert_eq!(
        (s, b["reason"].as_str()),
        (200, Some("session already idle or aborting"))
    );
    let (s, b) = send(
        p.post("/v1/agents/abort", "ada")
            .json(&json!({"machineId": m, "channel": "api"})),
    )
    .await;
    assert_eq!((s, b["aborted"].as_bool()), (200, Some(false)));
    let (s, _) = send(
        p.post("/v1/agents/abort", "ulla")
            .json(&json!({"sessionId": sid})),
    )
    .await;
    assert_eq!(s, 403);
    let (s, _) = send(
        p.post("/v1/agents/abort", "ulla")
            .json(&json!({"machineId": m})),
    )
    .await;
    assert_eq!(s, 404);
    // ulla has made 2 aborts; 18 more reach the limit of 20.
    let mut last = 0;
    for _ in 0..18 {
        last = p
            .post("/v1/agents/abort", "ulla")
            .json(&json!({"machineId": "m_none"}))
            .send()
            .await
            .unwrap()
            .status()
            .as_u16();
    }
    assert_eq!(last, 404);
    let res = p
        .post("/v1/agents/abort", "ulla")
        .json(&json!({"machineId": "m_none"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 429, "more than 20 aborts an hour");
}
