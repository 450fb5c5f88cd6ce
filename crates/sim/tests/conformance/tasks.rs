//! Events poll, turns, trajectories, approvals, abort, failures and credits.

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
    assert!(last["text"].as_str().unwrap().contains("Done"));
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
async fn turn_passes_through_finalizing_and_records_a_trajectory_with_jpegs() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let t = p.start_task("ada", json!({"message": "Weather in Paris", "machineId": m, "options": {"recordTrajectory": true}})).await;
    let tid = t["turnId"].as_str().unwrap();
    let (turn, seen) = p.finish_turn("ada", tid).await;
    assert!(seen.contains(&"finalizing".to_owned()), "{seen:?}");
    assert_eq!(turn["status"], "succeeded");
    assert_eq!(turn["recordTrajectory"], true);
    assert_eq!(turn["trajectory"]["recorded"], true);
    assert!(turn["usage"]["inputTokens"].as_u64().unwrap() > 0);
    let (s, tr) = send(p.get(turn["trajectory"]["url"].as_str().unwrap(), "ada")).await;
    assert_eq!(s, 200);
    let steps = tr["steps"].as_array().unwrap();
    assert!(steps.len() >= 3);
    assert_eq!(steps.last().unwrap()["final"], true);
    assert!(steps[..steps.len() - 1].iter().all(|s| s["final"] == false));
    assert!(steps[0]["timestamp"].as_str().unwrap().ends_with('Z'));
    for s in steps {
        let res = p
            .get(s["screenshot"].as_str().unwrap(), "ada")
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 200);
        assert_eq!(res.headers()["content-type"], "image/jpeg");
        assert_eq!(&res.bytes().await.unwrap()[..2], &[0xFF, 0xD8]);
    }
    let (s, b) = send(p.get(
        &format!("/v1/agents/turns/{tid}/trajectory/screenshots/999"),
        "ada",
    ))
    .await;
    assert_eq!((s, b["error"].as_str()), (404, Some("turn_not_found")));
    let (s, b) = send(p.get(&format!("/v1/agents/turns/{tid}"), "ulla")).await;
    assert_eq!((s, b["error"].as_str()), (404, Some("turn_not_found")));
    // Without recordTrajectory the steps are empty.
    let t2 = p
        .start_task("ada", json!({"message": "Weather again", "machineId": m}))
        .await;
    let (turn2, _) = p.finish_turn("ada", t2["turnId"].as_str().unwrap()).await;
    assert_eq!(turn2["trajectory"]["recorded"], false);
    let (_, tr2) = send(p.get(turn2["trajectory"]["url"].as_str().unwrap(), "ada")).await;
    assert_eq!(tr2["steps"].as_array().unwrap().len(), 0);
}

#[tokio::test]
async fn trajectory_lists_at_most_500_steps() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let t = p.start_task("ada", json!({"message": "Please count to 600", "machineId": m, "options": {"recordTrajectory": true}})).await;
    let (turn, _) = p.finish_turn("ada", t["turnId"].as_str().unwrap()).await;
    let (_, tr) = send(p.get(turn["trajectory"]["url"].as_str().unwrap(), "ada")).await;
    let steps = tr["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 500);
    assert_eq!(steps[499]["final"], true);
}

#[tokio::test]
async fn approval_holds_the_stream_and_poll_until_approved() {
    let p = start().await;
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
        p.post(&format!("/v1/agents/approvals/{id}"), "ada")
            .json(&json!({"decision": "maybe"})),
    )
    .await;
    assert_eq!(s, 400);
    let (s, b) = send(
        p.post(&format!("/v1/agents/approvals/{id}"), "ada")
            .json(&json!({"decision": "approve"})),
    )
    .await;
    assert_eq!((s, b["ok"].as_bool()), (200, Some(true)));
    let (_, body) = p.poll_until("ada", sid, &["idle", "error"]).await;
    assert_eq!(body["status"], "idle");
    assert!(!body["text"].as_str().unwrap().contains("declined"));
}

#[tokio::test]
async fn turn_reports_needs_input_while_approval_pends_and_stream_stays_open() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let http = p.http.clone();
    let req = p
        .post("/v1/agents/message", "ada")
        .json(&json!({"message": "Send the report to Bob", "machineId": m}));
    let stream = tokio::spawn(async move { sse(req).await });
    let _ = http;
    // Find the session via the turn on the machine: poll the account's stream start frame later.
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
        p.post(&format!("/v1/agents/approvals/{id}"), "ada")
            .json(&json!({"decision": "deny"})),
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
    let p = start().await;
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
        p.post(&format!("/v1/agents/approvals/{id}"), "ada")
            .json(&json!({"decision": "approve"})),
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
    let p = start().await;
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
        p.post(&format!("/v1/agents/approvals/{id}"), "ada")
            .json(&json!({"decision": "approve"})),
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

#[tokio::test]
async fn failing_tasks_reach_error_with_reason_codes() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let t = p
        .start_task("ada", json!({"message": "This will fail", "machineId": m}))
        .await;
    let (events, body) = p
        .poll_until("ada", t["sessionId"].as_str().unwrap(), &["error", "idle"])
        .await;
    assert_eq!(body["status"], "error");
    assert!(events.iter().any(|e| e["type"] == "tool-output-error"));
    assert!(events
        .iter()
        .any(|e| e["type"] == "error" && e["errorText"].is_string()));
    let (turn, _) = p.finish_turn("ada", t["turnId"].as_str().unwrap()).await;
    assert_eq!(
        (turn["status"].as_str(), turn["reason_code"].as_str()),
        (Some("failed"), Some("agent_error"))
    );
    assert!(turn["raw_answer"].is_string() && turn["output"].is_null());
    let t = p
        .start_task(
            "ada",
            json!({"message": "Use the unreachable computer", "machineId": m}),
        )
        .await;
    let (turn, _) = p.finish_turn("ada", t["turnId"].as_str().unwrap()).await;
    assert_eq!(turn["reason_code"], "machine_unavailable");
}

#[tokio::test]
async fn structured_messages_output_schema_criteria_and_templates() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let schema = json!({"type": "object", "required": ["city", "temp"], "properties": {"city": {"type": "string"}, "temp": {"type": "number"}}});
    let t = p.start_task("ada", json!({"machineId": m, "template": "Weather in {{city}}", "inputs": {"city": "Paris"}, "output_schema": schema, "success_criteria": [{"id": "c1", "check": "The answer names the city"}]})).await;
    let (turn, _) = p.finish_turn("ada", t["turnId"].as_str().unwrap()).await;
    assert_eq!(turn["status"], "succeeded", "{turn}");
    assert!(turn["output"]["city"].is_string() && turn["output"]["temp"].is_number());
    assert_eq!(turn["template"], "Weather in {{city}}");
    assert_eq!(turn["inputs"]["city"], "Paris");
    assert_eq!(turn["evidence"][0]["id"], "c1");
    assert_eq!(turn["evidence"][0]["passed"], true);
    let t = p.start_task("ada", json!({"machineId": m, "message": "Give invalid output please", "output_schema": schema})).await;
    let (turn, _) = p.finish_turn("ada", t["turnId"].as_str().unwrap()).await;
    assert_eq!(turn["reason_code"], "output_invalid");
    assert!(!turn["output_errors"].as_array().unwrap().is_empty());
    let t = p
        .start_task(
            "ada",
            json!({"machineId": m, "message": "Weather", "success_criteria": "It is impossible"}),
        )
        .await;
    let (turn, _) = p.finish_turn("ada", t["turnId"].as_str().unwrap()).await;
    assert_eq!(turn["reason_code"], "criteria_not_met");
    assert!(turn["evidence"][0].get("id").is_none() && turn["evidence"][0].get("score").is_none());
    let t = p.start_task("ada", json!({"machineId": m, "message": "Weather", "success_criteria": [{"id": "x", "check": "unverifiable from here"}]})).await;
    let (turn, _) = p.finish_turn("ada", t["turnId"].as_str().unwrap()).await;
    assert_eq!(turn["reason_code"], "criteria_unchecked");
}

#[tokio::test]
async fn out_of_credit_and_out_of_free_time_fail_with_codes() {
    let p = start().await;
    let t = p
        .start_task("fred", json!({"message": "An expensive task"}))
        .await;
    p.finish_turn("fred", t["turnId"].as_str().unwrap()).await;
    let (_, acct) = send(p.get("/v1/agents/account", "fred")).await;
    assert_eq!(acct["credits"]["usd"], 0.0);
    let t = p.start_task("fred", json!({"message": "Weather"})).await;
    let (events, _) = p
        .poll_until("fred", t["sessionId"].as_str().unwrap(), &["error"])
        .await;
    let err = events.iter().find(|e| e["type"] == "error").unwrap();
    assert_eq!(err["code"], "insufficient_credits");
    assert!(err["resetsAt"]
        .as_str()
        .unwrap()
        .ends_with("T00:00:00.000Z"));
    let (turn, _) = p.finish_turn("fred", t["turnId"].as_str().unwrap()).await;
    assert_eq!(
        (turn["reason_code"].as_str(), turn["error_code"].as_str()),
        (Some("agent_error"), Some("insufficient_credits"))
    );

    let p = start().await;
    let t = p
        .start_task("fred", json!({"message": "A marathon task"}))
        .await;
    let (events, _) = p
        .poll_until("fred", t["sessionId"].as_str().unwrap(), &["error"])
        .await;
    assert!(events
        .iter()
        .any(|e| e["type"] == "tool-output-error" && e["code"] == "free_computer_time_exhausted"));
    let err = events.iter().find(|e| e["type"] == "error").unwrap();
    assert_eq!(err["code"], "free_computer_time_exhausted");
    assert!(err.get("resetsAt").is_none());
    let t = p.start_task("fred", json!({"message": "Weather"})).await;
    let (turn, _) = p.finish_turn("fred", t["turnId"].as_str().unwrap()).await;
    assert_eq!(turn["error_code"], "free_computer_time_exhausted");
}
