//! The events poll: statuses, cursor, each message once, usage, errors and its limit.

use crate::support::*;
use serde_json::json;

#[tokio::test]
async fn poll_delivers_each_message_once_with_cursor_usage_and_turn_id() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let t = p
        .start_task(
            "ada",
            json!({"message": "Weather in Paris", "machineId": m}),
        )
        .await;
    let sid = t["sessionId"].as_str().unwrap();
    let (events, last) = p.poll_until("ada", sid, &["idle"]).await;
    assert_eq!(last["turnId"], t["turnId"]);
    assert_eq!(last["sessionId"], sid);
    let cursor = last["cursor"].as_str().unwrap();
    assert!(cursor
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
    let text_starts = events.iter().filter(|e| e["type"] == "text-start").count();
    let text_deltas = events.iter().filter(|e| e["type"] == "text-delta").count();
    assert_eq!(
        (text_starts, text_deltas),
        (1, 1),
        "one start and one whole delta per message"
    );
    assert!(events.iter().all(|e| !matches!(
        e["type"].as_str(),
        Some("start" | "data-session" | "data-status")
    )));
    let tia = events
        .iter()
        .find(|e| e["type"] == "tool-input-available")
        .unwrap();
    assert!(tia["input"]["title"].is_string() && tia["input"]["code"].is_string());
    assert!(events
        .iter()
        .find(|e| e["type"] == "tool-input-start")
        .unwrap()
        .get("toolMetadata")
        .is_none());
    assert!(
        last["text"]
            .as_str()
            .unwrap()
            .contains("Paris: 21 °C and sunny"),
        "the poll carries the answer's text: {last}"
    );
    for key in ["usage", "sessionUsage"] {
        let u = &last[key];
        for f in [
            "inputTokens",
            "outputTokens",
            "cacheReadTokens",
            "cacheWriteTokens",
            "costUsd",
            "modelCalls",
        ] {
            assert!(u[f].is_number(), "{key}.{f}");
        }
        assert!(u["byModel"].as_object().unwrap().len() == 1);
    }
    // Polling again from the cursor returns nothing new, at once, because the session is idle.
    let (s, again) = send(p.get(
        &format!("/v1/agents/events?sessionId={sid}&since={cursor}&wait=30"),
        "ada",
    ))
    .await;
    assert_eq!(s, 200);
    assert_eq!(again["events"].as_array().unwrap().len(), 0);
    assert_eq!(again["status"], "idle");
}

#[tokio::test]
async fn poll_errors_missing_foreign_session_and_rate_limit() {
    let p = start().await;
    let (s, b) = send(p.get("/v1/agents/events", "ada")).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (400, Some("sessionId is required."))
    );
    let (s, b) = send(p.get("/v1/agents/events?sessionId=cs_nope", "ada")).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (
            403,
            Some("Session not found or does not belong to your account.")
        )
    );
    let t = p.start_task("fred", json!({"message": "Weather"})).await;
    let sid = t["sessionId"].as_str().unwrap();
    let (s, _) = send(p.get(&format!("/v1/agents/events?sessionId={sid}"), "ada")).await;
    assert_eq!(
        s, 403,
        "another account's session answers like a missing one"
    );
    let mut last = 0;
    for _ in 0..1201 {
        last = p
            .get("/v1/agents/events?sessionId=cs_nope", "ulla")
            .send()
            .await
            .unwrap()
            .status()
            .as_u16();
    }
    assert_eq!(last, 429);
    let res = p
        .get("/v1/agents/events?sessionId=cs_nope", "ulla")
        .send()
        .await
        .unwrap();
    assert!(res.headers().get("retry-after").is_some());
    let b: serde_json::Value = res.json().await.unwrap();
    assert_eq!(
        b["error"],
        "Event poll rate limit exceeded. Use wait= to long-poll."
    );
}

#[tokio::test]
async fn poll_reports_running_while_the_agent_works_and_holds_until_something_happens() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let t = p
        .start_task(
            "ada",
            json!({"message": "Take your time and tidy up", "machineId": m}),
        )
        .await;
    let sid = t["sessionId"].as_str().unwrap();
    let (s, b) = send(p.get(&format!("/v1/agents/events?sessionId={sid}"), "ada")).await;
    assert_eq!(s, 200);
    assert_eq!(b["status"], "running");
    assert!(b.get("approval").is_none());
    // Held with wait: the answer brings something new (events) or the status moved.
    let cursor = b["cursor"].as_str().unwrap();
    let (_, held) = send(p.get(
        &format!("/v1/agents/events?sessionId={sid}&since={cursor}&wait=10"),
        "ada",
    ))
    .await;
    assert!(!held["events"].as_array().unwrap().is_empty() || held["status"] != "running");
    let (_, done) = p.poll_until("ada", sid, &["idle"]).await;
    assert_eq!(done["status"], "idle");
}
