//! Messages: the SSE stream, wait:false, joining, acknowledgements, machine choice, models,
//! attachments. Sessions and channels are in `conversations.rs`.

use crate::support::*;
use serde_json::{json, Value};

fn types(frames: &[Value]) -> Vec<String> {
    frames
        .iter()
        .map(|f| {
            f["type"]
                .as_str()
                .unwrap_or(f.as_str().unwrap_or("?"))
                .to_owned()
        })
        .collect()
}

#[tokio::test]
async fn streamed_message_has_start_session_events_finish_and_done() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (s, ctype, frames) = sse(p
        .post("/v1/agents/message", "ada")
        .json(&json!({"message": "Weather in Paris", "machineId": m})))
    .await;
    assert_eq!(s, 200);
    assert!(ctype.starts_with("text/event-stream"));
    let t = types(&frames);
    assert_eq!(t[0], "start");
    assert!(frames[0]["messageId"].is_string());
    assert!(frames[0]["turnId"].as_str().unwrap().starts_with("turn_"));
    assert_eq!(t[1], "data-session");
    assert!(frames[1]["data"]["sessionId"]
        .as_str()
        .unwrap()
        .starts_with("cs_"));
    for needed in [
        "reasoning-start",
        "reasoning-delta",
        "tool-input-start",
        "tool-input-available",
        "data-progress",
        "text-start",
        "text-delta",
        "text-end",
        "finish",
    ] {
        assert!(t.iter().any(|x| x == needed), "missing {needed} in {t:?}");
    }
    assert_eq!(frames.last().unwrap(), "[DONE]");
    let tis = frames
        .iter()
        .find(|f| f["type"] == "tool-input-start")
        .unwrap();
    assert!(
        tis.get("toolMetadata").is_some(),
        "the stream adds toolMetadata"
    );
    let tia = frames
        .iter()
        .find(|f| f["type"] == "tool-input-available")
        .unwrap();
    assert!(tia["input"].is_null(), "the stream sends input: null");
    // The text deltas concatenate to the answer the turn reports.
    let text: String = frames
        .iter()
        .filter(|f| f["type"] == "text-delta")
        .map(|f| f["delta"].as_str().unwrap())
        .collect();
    let (turn, _) = p
        .finish_turn("ada", frames[0]["turnId"].as_str().unwrap())
        .await;
    assert_eq!(turn["output"], text);
    assert!(text.contains("**"), "answers are Markdown");
}

#[tokio::test]
async fn wait_false_answers_202_and_a_busy_agent_queues_into_the_same_turn() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let first = p
        .start_task(
            "ada",
            json!({"message": "Take your time and tidy the desktop", "machineId": m}),
        )
        .await;
    assert_eq!(first["queued"], false);
    assert_eq!(first["machineId"], m);
    assert!(first["sessionId"].as_str().unwrap().starts_with("cs_"));
    let second = p
        .start_task(
            "ada",
            json!({"message": "Also close the browser", "machineId": m}),
        )
        .await;
    assert_eq!(second["queued"], true);
    assert_eq!(second["turnId"], first["turnId"]);
    assert_eq!(second["sessionId"], first["sessionId"]);
    let sid = first["sessionId"].as_str().unwrap();
    let (events, body) = p.poll_until("ada", sid, &["idle", "error"]).await;
    assert_eq!(body["status"], "idle");
    assert!(
        events.iter().any(|e| e["type"] == "reasoning-delta"
            && e["delta"]
                .as_str()
                .unwrap()
                .contains("Also close the browser")),
        "the joined message steers the task"
    );
    // A later message starts a new turn and never changes the finished one.
    let third = p
        .start_task("ada", json!({"message": "Weather in Rome", "machineId": m}))
        .await;
    assert_eq!(third["queued"], false);
    assert_ne!(third["turnId"], first["turnId"]);
}

#[tokio::test]
async fn acknowledgement_gets_a_reply_without_a_task() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    for ack in ["thanks", "ok", "Thank you!"] {
        let (s, b) = send(
            p.post("/v1/agents/message", "ada")
                .json(&json!({"message": ack, "machineId": m, "wait": false})),
        )
        .await;
        assert_eq!(s, 200, "{ack}");
        assert!(b["error"].is_string());
        assert!(b.get("sessionId").is_none());
    }
}

#[tokio::test]
async fn machine_id_omitted_picks_the_only_computer_or_lists_several() {
    let p = start().await;
    let (s, b) = send(
        p.post("/v1/agents/message", "ada")
            .json(&json!({"message": "hi there", "wait": false})),
    )
    .await;
    assert_eq!(s, 400);
    assert_eq!(b["machines"].as_array().unwrap().len(), 4);
    assert!(b["machines"][0]["machineId"].is_string());
    let (s, b) = send(
        p.post("/v1/agents/message", "pat")
            .json(&json!({"message": "hi there", "wait": false})),
    )
    .await;
    assert_eq!(s, 400, "paid account with no computer: {b}");
    assert!(b["error"].is_string());
    let b = p
        .start_task("fred", json!({"message": "Weather in Oslo"}))
        .await;
    assert_eq!(
        b["machineId"],
        format!("free-{}", p.account("fred").user_id)
    );
}

#[tokio::test]
async fn models_outside_the_plan_are_403_with_the_allowlist_and_the_session_model_sticks() {
    let p = start().await;
    let (s, b) =
        send(p.post("/v1/agents/message", "fred").json(
            &json!({"message": "Weather", "model": "anthropic/claude-opus-4", "wait": false}),
        ))
        .await;
    assert_eq!(
        (s, b["error"].as_str()),
        (403, Some("model_not_allowed_for_plan"))
    );
    assert!(b["message"].is_string());
    let allowed: Vec<&str> = b["allowedModels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(allowed.contains(&"auto") && !allowed.contains(&"anthropic/claude-opus-4"));
    let m = p.machine_id("ada", "Design laptop").await;
    let (s, _) = send(
        p.post("/v1/agents/message", "ada")
            .json(&json!({"message": "x", "machineId": m, "model": "nobody/none", "wait": false})),
    )
    .await;
    assert_eq!(s, 400, "unknown model");
    let t = p
        .start_task(
            "ada",
            json!({"message": "Weather", "machineId": m, "model": "openai/gpt-5"}),
        )
        .await;
    let sid = t["sessionId"].as_str().unwrap();
    let (_, body) = p.poll_until("ada", sid, &["idle"]).await;
    assert!(body["usage"]["byModel"].get("openai/gpt-5").is_some());
    // No model on the next message: the session keeps gpt-5.
    p.start_task("ada", json!({"message": "Weather again", "machineId": m}))
        .await;
    let (_, body) = p.poll_until("ada", sid, &["idle"]).await;
    let by: Vec<&String> = body["usage"]["byModel"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(by, ["openai/gpt-5"]);
}

#[tokio::test]
async fn attachments_need_a_file_id_of_this_account() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (s, up) = send(
        p.post("/v1/agents/upload", "ada")
            .header("x-filename", "notes.txt")
            .body("hello"),
    )
    .await;
    assert_eq!(s, 200);
    let (s, _) =
        send(p.post("/v1/agents/message", "ada").json(
            &json!({"message": "Read it", "machineId": m, "wait": false, "attachments": [up]}),
        ))
        .await;
    assert_eq!(s, 202);
    let mut no_id = up.clone();
    no_id.as_object_mut().unwrap().remove("fileId");
    let (s, _) = send(p.post("/v1/agents/message", "ada").json(
        &json!({"message": "Read it", "machineId": m, "wait": false, "attachments": [no_id]}),
    ))
    .await;
    assert_eq!(s, 400);
    let (s, _) = send(
        p.post("/v1/agents/message", "ulla")
            .json(&json!({"message": "Read it", "wait": false, "attachments": [up]})),
    )
    .await;
    assert_eq!(s, 400, "another account's upload is not accepted");
}

#[tokio::test]
async fn another_accounts_machine_is_404() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (s, b) = send(
        p.post("/v1/agents/message", "ulla")
            .json(&json!({"message": "Weather", "machineId": m, "wait": false})),
    )
    .await;
    assert_eq!(s, 404, "another account's machine: {b}");
}

#[tokio::test]
async fn bad_bodies_are_400_or_413_never_a_hang() {
    let p = start().await;
    let url = "/v1/agents/message";
    let (s, b) = send(
        p.post(url, "ada")
            .header("content-type", "application/json")
            .body("{not json"),
    )
    .await;
    assert_eq!(s, 400);
    assert!(b["error"].is_string());
    let (s, _) = send(p.post(url, "ada").json(&json!({"message": 42}))).await;
    assert_eq!(s, 400);
    let (s, _) = send(
        p.post(url, "ada")
            .json(&json!({"message": "x", "wait": "yes"})),
    )
    .await;
    assert_eq!(s, 400);
    let (s, _) = send(p.post(url, "ada").json(&json!([1, 2]))).await;
    assert_eq!(s, 400);
    let (s, _) = send(p.post(url, "ada").json(&json!({}))).await;
    assert_eq!(s, 400);
    let big = "x".repeat(2 * 1024 * 1024);
    let (s, _) = send(p.post(url, "ada").json(&json!({"message": big}))).await;
    assert_eq!(s, 413);
    let (s, b) = send(p.get("/v1/agents/nothing-here", "ada")).await;
    assert_eq!(s, 404);
    assert!(b["error"].is_string());
}

#[tokio::test]
async fn a_message_wakes_a_hibernated_computer_with_status_frames() {
    let p = start().await;
    let m = p.machine_id("ada", "Research box").await;
    let (s, _, frames) = sse(p
        .post("/v1/agents/message", "ada")
        .json(&json!({"message": "Weather", "machineId": m})))
    .await;
    assert_eq!(s, 200);
    let status = frames
        .iter()
        .position(|f| f["type"] == "data-status")
        .expect("data-status while waking");
    assert!(frames[status]["data"]["text"].is_string());
    assert!(status < frames.iter().position(|f| f["type"] == "finish").unwrap());
    let (_, b) = send(p.get("/v1/agents/machines", "ada")).await;
    let row = b["machines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["machineId"] == m.as_str())
        .unwrap()
        .clone();
    assert_eq!(row["status"], "active");
}

#[tokio::test]
async fn a_computer_being_created_cannot_take_a_message() {
    let p = start().await;
    let (s, _) = send(
        p.req(
            reqwest::Method::POST,
            "/v1/agents/machines",
            "ada",
            Cred::Token,
        )
        .json(&json!({"name": "Fresh"})),
    )
    .await;
    assert_eq!(s, 202);
    let m = p.machine_id("ada", "Fresh").await;
    let (s, b) = send(
        p.post("/v1/agents/message", "ada")
            .json(&json!({"message": "Weather", "machineId": m, "wait": false})),
    )
    .await;
    assert_eq!(s, 409, "{b}");
    assert!(b["error"].is_string());
    let (s, _, frames) = sse(p
        .post("/v1/agents/message", "ada")
        .json(&json!({"message": "Weather", "machineId": m})))
    .await;
    assert_eq!(s, 200);
    assert!(frames.iter().any(|f| f["type"] == "error"));
    assert_eq!(frames.last().unwrap(), "[DONE]");
    let tid = frames[0]["turnId"].as_str().unwrap();
    let (turn, _) = p.finish_turn("ada", tid).await;
    assert_eq!(turn["reason_code"], "not_started");
}

#[tokio::test]
async fn a_streamed_message_joining_a_running_task_follows_that_turn() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let first = p
        .start_task(
            "ada",
            json!({"message": "Take your time and sort the files", "machineId": m}),
        )
        .await;
    let (s, _, frames) = sse(p
        .post("/v1/agents/message", "ada")
        .json(&json!({"message": "Put the newest first", "machineId": m})))
    .await;
    assert_eq!(s, 200);
    assert_eq!(frames[0]["turnId"], first["turnId"]);
    assert_eq!(frames[1]["data"]["sessionId"], first["sessionId"]);
    assert!(frames.iter().any(|f| f["type"] == "finish"));
    assert_eq!(frames.last().unwrap(), "[DONE]");
}

#[tokio::test]
async fn abort_by_machine_defaults_to_the_command_line_channel() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let t = p
        .start_task(
            "ada",
            json!({"message": "Delete the drafts", "machineId": m}),
        )
        .await;
    p.poll_until("ada", t["sessionId"].as_str().unwrap(), &["needs_approval"])
        .await;
    let (s, b) = send(
        p.post("/v1/agents/abort", "ada")
            .json(&json!({"machineId": m})),
    )
    .await;
    assert_eq!(
        (s, b["aborted"].as_bool(), b["reason"].as_str()),
        (200, Some(false), Some("no active session")),
        "the API task is not the command-line conversation"
    );
    let (s, b) = send(
        p.post("/v1/agents/abort", "ada")
            .json(&json!({"machineId": m, "channel": "api"})),
    )
    .await;
    assert_eq!((s, b["aborted"].as_bool()), (200, Some(true)));
    let (turn, _) = p.finish_turn("ada", t["turnId"].as_str().unwrap()).await;
    assert_eq!(turn["status"], "failed");
    let (_, b) = send(p.get(
        &format!(
            "/v1/agents/events?sessionId={}",
            t["sessionId"].as_str().unwrap()
        ),
        "ada",
    ))
    .await;
    assert_eq!(
        b["status"], "idle",
        "an aborted task leaves the session idle"
    );
}

#[tokio::test]
async fn own_desktop_takes_tasks_too() {
    let p = start().await;
    let m = p.machine_id("ada", "Ada's MacBook").await;
    let t = p.start_task("ada", json!({"message": "Weather in Lima", "machineId": m, "options": {"recordTrajectory": true}})).await;
    let (turn, _) = p.finish_turn("ada", t["turnId"].as_str().unwrap()).await;
    assert_eq!(turn["status"], "succeeded");
}

#[tokio::test]
async fn event_text_caps_apply_to_code_and_progress_lines() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let long = format!("Write this down: {}", "lorem ipsum ".repeat(500));
    let t = p
        .start_task("ada", json!({"message": long, "machineId": m}))
        .await;
    let (events, _) = p
        .poll_until("ada", t["sessionId"].as_str().unwrap(), &["idle"])
        .await;
    let codes: Vec<&str> = events
        .iter()
        .filter(|e| e["type"] == "tool-input-available")
        .map(|e| e["input"]["code"].as_str().unwrap())
        .collect();
    let typed = codes.iter().find(|c| c.contains("lorem")).unwrap();
    assert!(
        typed.chars().count() > 4000 && typed.chars().count() < 4100,
        "cut at 4000 plus a note"
    );
    assert!(typed.contains("more characters"));
    for e in events.iter().filter(|e| e["type"] == "data-progress") {
        let text = e["data"]["text"].as_str().unwrap();
        assert!(text.chars().count() <= 300);
        assert!(
            !text.contains("[ref="),
            "element-reference listings are filtered out"
        );
        assert_eq!(e["data"]["tool"], "execute");
    }
}
