//! The stream speaks the AI SDK v6 UI message stream: besides the spec's table it carries
//! `start-step`, `finish-step`, `tool-input-delta`, `tool-output-available` and
//! `message-metadata`, which clients must drop when they do not use them. The poll does not.
//! A message that joins a running task gets a stream that replays the task from its start.

use crate::support::*;
use serde_json::{json, Value};

fn of_type<'a>(frames: &'a [Value], t: &str) -> Vec<&'a Value> {
    frames.iter().filter(|f| f["type"] == t).collect()
}

#[tokio::test]
async fn the_stream_carries_steps_tool_deltas_outputs_and_metadata() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (s, _, frames) = sse(p
        .post("/v1/agents/message", "ada")
        .json(&json!({"message": "Weather in Paris", "machineId": m})))
    .await;
    assert_eq!(s, 200);
    for t in [
        "start-step",
        "finish-step",
        "tool-input-delta",
        "tool-output-available",
        "message-metadata",
    ] {
        assert!(!of_type(&frames, t).is_empty(), "no {t} frame");
    }
    let calls = of_type(&frames, "tool-input-start");
    assert_eq!(
        of_type(&frames, "start-step").len(),
        calls.len(),
        "a step per tool call"
    );
    assert_eq!(of_type(&frames, "finish-step").len(), calls.len());
    for call in calls {
        let id = &call["toolCallId"];
        let at = |t: &str| {
            frames
                .iter()
                .position(|f| f["type"] == t && f["toolCallId"] == *id)
                .unwrap_or_else(|| panic!("no {t} for {id}"))
        };
        let start = frames.iter().position(|f| f == call).unwrap();
        assert!(
            frames[start - 1]["type"] == "start-step",
            "a step opens before its call"
        );
        assert!(at("tool-input-delta") < at("tool-input-available"));
        let out = at("tool-output-available");
        assert!(frames[out]["output"].is_object());
        assert_eq!(
            frames[out + 1]["type"],
            "finish-step",
            "the step closes after its output"
        );
    }
    let meta = of_type(&frames, "message-metadata")[0];
    assert!(meta["messageMetadata"].is_object());
}

#[tokio::test]
async fn a_failed_step_has_no_output_but_still_closes() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (_, _, frames) = sse(p
        .post("/v1/agents/message", "ada")
        .json(&json!({"message": "This should fail", "machineId": m})))
    .await;
    let err = frames
        .iter()
        .position(|f| f["type"] == "tool-output-error")
        .expect("a failed step");
    let id = &frames[err]["toolCallId"];
    assert!(!frames
        .iter()
        .any(|f| f["type"] == "tool-output-available" && f["toolCallId"] == *id));
    assert_eq!(frames[err + 1]["type"], "finish-step");
}

#[tokio::test]
async fn the_poll_leaves_the_stream_only_frames_out() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let t = p
        .start_task(
            "ada",
            json!({"message": "Weather in Paris", "machineId": m}),
        )
        .await;
    let (events, _) = p
        .poll_until("ada", t["sessionId"].as_str().unwrap(), &["idle"])
        .await;
    for e in &events {
        let ty = e["type"].as_str().unwrap();
        assert!(
            ![
                "start-step",
                "finish-step",
                "tool-input-delta",
                "tool-output-available",
                "message-metadata",
                "data-status",
            ]
            .contains(&ty),
            "{ty} in the poll"
        );
    }
}

#[tokio::test]
async fn a_joining_messages_stream_replays_the_running_task() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let first = p
        .start_task(
            "ada",
            json!({"message": "Take your time and sort the files", "machineId": m}),
        )
        .await;
    let sid = first["sessionId"].as_str().unwrap();
    // Wait until the task has done something the joining stream must replay.
    let first_call = tokio::time::timeout(PATIENCE, async {
        loop {
            let path = format!("/v1/agents/events?sessionId={sid}&wait=5");
            let (_, b) = send(p.get(&path, "ada")).await;
            if let Some(c) = b["events"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["type"] == "tool-input-start")
            {
                return c["toolCallId"].clone();
            }
        }
    })
    .await
    .expect("the task makes a tool call");
    let (s, _, frames) = sse(p
        .post("/v1/agents/message", "ada")
        .json(&json!({"message": "Put the newest first", "machineId": m})))
    .await;
    assert_eq!(s, 200);
    assert!(
        frames
            .iter()
            .any(|f| f["type"] == "tool-input-start" && f["toolCallId"] == first_call),
        "the joining stream starts from the task's first event"
    );
    assert_eq!(
        frames
            .iter()
            .filter(|f| f["type"] == "reasoning-start")
            .count(),
        frames
            .iter()
            .filter(|f| f["type"] == "reasoning-end")
            .count(),
        "whole messages only"
    );
    assert_eq!(frames.last().unwrap(), "[DONE]");
}

#[tokio::test]
async fn each_streamed_text_opens_with_an_empty_delta_that_says_nothing() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (_, _, frames) = sse(p
        .post("/v1/agents/message", "ada")
        .json(&json!({"message": "Weather in Paris", "machineId": m})))
    .await;
    for (i, f) in frames.iter().enumerate() {
        if f["type"] == "text-start" || f["type"] == "reasoning-start" {
            let kind = f["type"].as_str().unwrap().trim_end_matches("-start");
            assert_eq!(frames[i + 1]["type"], format!("{kind}-delta"));
            assert_eq!(frames[i + 1]["delta"], "", "an empty delta first");
        }
    }
}

#[tokio::test]
async fn a_card_without_an_approval_id_asks_nothing_and_the_task_goes_on() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (_, _, frames) = sse(p
        .post("/v1/agents/message", "ada")
        .json(&json!({"message": "Weather in Paris, with a broken card", "machineId": m})))
    .await;
    let card = frames
        .iter()
        .find(|f| f["type"] == "data-approval-request")
        .expect("a card");
    assert!(card["data"].get("approvalId").is_none());
    assert!(frames.iter().any(|f| f["type"] == "finish"));
    let (turn, seen) = p
        .finish_turn("ada", frames[0]["turnId"].as_str().unwrap())
        .await;
    assert_eq!(turn["status"], "succeeded");
    assert!(!seen.iter().any(|s| s == "needs_input"), "{seen:?}");
}
