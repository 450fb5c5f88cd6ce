//! Task outcomes: failures, structured messages, credits and free computer time.

use crate::support::*;
use serde_json::json;

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
async fn a_task_that_runs_out_of_credit_midway_ends_with_the_coded_error() {
    let p = start().await;
    let t = p
        .start_task("fred", json!({"message": "An expensive task"}))
        .await;
    let (events, _) = p
        .poll_until("fred", t["sessionId"].as_str().unwrap(), &["error"])
        .await;
    assert!(
        events.iter().any(|e| e["type"] == "tool-input-start"),
        "the task was under way when the credit ran out"
    );
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
    let (_, acct) = send(p.get("/v1/agents/account", "fred")).await;
    assert_eq!(acct["credits"]["usd"], 0.0);
}

#[tokio::test]
async fn a_task_asked_for_with_no_credit_at_all_is_402() {
    let p = start().await;
    let t = p
        .start_task("fred", json!({"message": "An expensive task"}))
        .await;
    p.finish_turn("fred", t["turnId"].as_str().unwrap()).await;
    for wait in [false, true] {
        let (s, b) = send(
            p.post("/v1/agents/message", "fred")
                .json(&json!({"message": "Weather in Paris", "wait": wait})),
        )
        .await;
        assert_eq!(s, 402, "wait: {wait}: {b}");
        assert_eq!(b["error"], "insufficient_credits");
        assert!(b["message"].is_string());
        assert!(b["resetsAt"].as_str().unwrap().ends_with("T00:00:00.000Z"));
    }
    let (s, b) = send(
        p.post("/v1/agents/message", "fred")
            .json(&json!({"message": "thanks", "wait": false})),
    )
    .await;
    assert_eq!(s, 200, "a plain acknowledgement starts no task: {b}");
    let (s, _) = send(
        p.post("/v1/agents/message", "pat")
            .json(&json!({"message": "Weather", "wait": false})),
    )
    .await;
    assert_eq!(s, 400, "no computer comes before no credit");
}

#[tokio::test]
async fn out_of_free_time_fails_with_its_code() {
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
