//! Conversations: one current session per (account, machine, channel). Messages land in the
//! `api` channel's current session whatever `sessionId` they carry; `new-session` rotates a
//! channel; `context` reads them. A missing `channel` means `cli`.

use crate::support::*;
use serde_json::{json, Value};

async fn new_session(p: &Peer, who: &str, body: Value) -> (u16, Value) {
    send(p.post("/v1/agents/new-session", who).json(&body)).await
}

async fn context(p: &Peer, who: &str, query: &str) -> (u16, Value) {
    send(p.get(&format!("/v1/agents/context?{query}"), who)).await
}

/// Runs one task to its end and returns its 202 body and final turn.
async fn run(p: &Peer, who: &str, body: Value) -> (Value, Value) {
    let t = p.start_task(who, body).await;
    let (turn, _) = p.finish_turn(who, t["turnId"].as_str().unwrap()).await;
    (t, turn)
}

#[tokio::test]
async fn messages_land_in_the_api_channels_current_session_and_ignore_session_id() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (first, _) = run(
        &p,
        "ada",
        json!({"message": "Weather in Paris", "machineId": m}),
    )
    .await;
    let sid = first["sessionId"].as_str().unwrap();
    assert!(sid.starts_with("cs_"));
    let (second, _) = run(
        &p,
        "ada",
        json!({"message": "Weather in Rome", "machineId": m, "sessionId": "cs_someone_elses"}),
    )
    .await;
    assert_eq!(
        second["sessionId"], sid,
        "sessionId on a message is not honoured"
    );
    let other = p.machine_id("ada", "Ada's MacBook").await;
    let (third, _) = run(
        &p,
        "ada",
        json!({"message": "Weather in Lima", "machineId": other}),
    )
    .await;
    assert_ne!(
        third["sessionId"], sid,
        "each machine has its own conversation"
    );
}

#[tokio::test]
async fn new_session_rotates_the_named_channel_only() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (first, _) = run(
        &p,
        "ada",
        json!({"message": "Weather in Paris", "machineId": m}),
    )
    .await;
    let (s, b) = new_session(&p, "ada", json!({"machineId": m})).await;
    assert_eq!(s, 200, "{b}");
    let cli = b["sessionId"].as_str().unwrap().to_owned();
    assert!(cli.starts_with("cs_"));
    let (same, _) = run(
        &p,
        "ada",
        json!({"message": "Weather in Rome", "machineId": m}),
    )
    .await;
    assert_eq!(
        same["sessionId"], first["sessionId"],
        "a new session without a channel is the command line's"
    );
    let (s, b) = new_session(&p, "ada", json!({"machineId": m, "channel": "api"})).await;
    assert_eq!(s, 200);
    let api = b["sessionId"].as_str().unwrap().to_owned();
    assert_ne!(api, cli);
    let (next, _) = run(
        &p,
        "ada",
        json!({"message": "Weather in Lima", "machineId": m}),
    )
    .await;
    assert_eq!(next["sessionId"], api.as_str());
}

#[tokio::test]
async fn new_session_checks_its_body_and_the_machine() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (s, b) = new_session(&p, "ada", json!({"channel": "api"})).await;
    assert_eq!(s, 400, "{b}");
    let (s, _) = new_session(&p, "ada", json!({"machineId": m, "channel": "tv"})).await;
    assert_eq!(s, 400);
    let (s, b) = new_session(&p, "ulla", json!({"machineId": m, "channel": "api"})).await;
    assert_eq!(s, 404, "{b}");
    assert!(b["error"].is_string());
}

#[tokio::test]
async fn new_session_is_rate_limited() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let mut refused = None;
    for i in 0..40 {
        let res = p
            .post("/v1/agents/new-session", "ada")
            .json(&json!({"machineId": m, "channel": "api"}))
            .send()
            .await
            .unwrap();
        if res.status().as_u16() != 200 {
            let retry = res.headers().get("retry-after").is_some();
            let status = res.status().as_u16();
            let body: Value = res.json().await.unwrap();
            refused = Some((i, status, retry, body));
            break;
        }
    }
    let (i, s, retry, body) = refused.expect("the limit is reached");
    assert_eq!((i, s, retry), (30, 429, true), "30 new sessions an hour");
    assert!(body["error"].as_str().unwrap().contains("30"), "{body}");
}

#[tokio::test]
async fn context_is_the_current_sessions_history_oldest_first() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (_, first) = run(
        &p,
        "ada",
        json!({"message": "Weather in Paris", "machineId": m}),
    )
    .await;
    let (_, second) = run(
        &p,
        "ada",
        json!({"message": "Weather in Rome", "machineId": m}),
    )
    .await;
    let (s, b) = context(&p, "ada", &format!("machineId={m}&channel=api")).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        b["messages"],
        json!([
            {"role": "user", "content": "Weather in Paris"},
            {"role": "assistant", "content": first["output"]},
            {"role": "user", "content": "Weather in Rome"},
            {"role": "assistant", "content": second["output"]},
        ])
    );
    let (_, b) = context(&p, "ada", &format!("machineId={m}&channel=api&limit=1")).await;
    assert_eq!(
        b["messages"],
        json!([{"role": "assistant", "content": second["output"]}])
    );
    let (s, b) = context(&p, "ada", &format!("machineId={m}")).await;
    assert_eq!(
        (s, &b["messages"]),
        (200, &json!([])),
        "no channel: the command line's"
    );
    let (s, _) = new_session(&p, "ada", json!({"machineId": m, "channel": "api"})).await;
    assert_eq!(s, 200);
    let (_, b) = context(&p, "ada", &format!("machineId={m}&channel=api")).await;
    assert_eq!(b["messages"], json!([]), "a new conversation starts empty");
}

#[tokio::test]
async fn context_keeps_a_joined_message_as_the_persons() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let first = p
        .start_task(
            "ada",
            json!({"message": "Take your time and sort the files", "machineId": m}),
        )
        .await;
    let joined = p
        .start_task(
            "ada",
            json!({"message": "Put the newest first", "machineId": m}),
        )
        .await;
    assert_eq!(joined["queued"], true);
    let (s, b) = context(&p, "ada", &format!("machineId={m}&channel=api")).await;
    assert_eq!(s, 200);
    assert_eq!(
        b["messages"],
        json!([
            {"role": "user", "content": "Take your time and sort the files"},
            {"role": "user", "content": "Put the newest first"},
        ]),
        "no answer yet while the task runs"
    );
    let (s, _) = send(
        p.post("/v1/agents/abort", "ada")
            .json(&json!({"sessionId": first["sessionId"]})),
    )
    .await;
    assert_eq!(s, 200);
}

#[tokio::test]
async fn context_checks_its_query() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (s, _) = context(&p, "ada", "channel=api").await;
    assert_eq!(s, 400);
    for bad in ["limit=0", "limit=x", "channel=tv"] {
        let (s, b) = context(&p, "ada", &format!("machineId={m}&{bad}")).await;
        assert_eq!(s, 400, "{bad}: {b}");
    }
    let (s, _) = context(&p, "ulla", &format!("machineId={m}&channel=api")).await;
    assert_eq!(s, 404);
}

#[tokio::test]
async fn abort_by_machine_stops_the_named_channels_current_session() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (_, b) = new_session(&p, "ada", json!({"machineId": m, "channel": "api"})).await;
    let t = p
        .start_task(
            "ada",
            json!({"message": "Take your time and tidy up", "machineId": m}),
        )
        .await;
    assert_eq!(t["sessionId"], b["sessionId"]);
    let (s, b) = send(
        p.post("/v1/agents/abort", "ada")
            .json(&json!({"machineId": m, "channel": "api"})),
    )
    .await;
    assert_eq!((s, b["aborted"].as_bool()), (200, Some(true)));
    let (turn, _) = p.finish_turn("ada", t["turnId"].as_str().unwrap()).await;
    assert_eq!(turn["status"], "failed");
}

#[tokio::test]
async fn data_session_names_the_session_by_id_and_title() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let stream = |task: &str| {
        p.post("/v1/agents/message", "ada")
            .json(&json!({"message": task, "machineId": m}))
    };
    let (_, _, frames) = sse(stream("Weather in Paris\nand be brief")).await;
    let data = &frames[1]["data"];
    assert_eq!(frames[1]["type"], "data-session");
    assert!(data["sessionId"].as_str().unwrap().starts_with("cs_"));
    assert_eq!(
        data["id"], data["sessionId"],
        "the real service's name for it"
    );
    assert_eq!(data["title"], "Weather in Paris", "the first task names it");
    let (_, _, later) = sse(stream("Weather in Rome")).await;
    assert_eq!(later[1]["data"]["title"], "Weather in Paris");
    let (_, _) = new_session(&p, "ada", json!({"machineId": m, "channel": "api"})).await;
    let (_, _, fresh) = sse(stream(&format!("Summarise {}", "the week ".repeat(10)))).await;
    let title = fresh[1]["data"]["title"].as_str().unwrap();
    assert!(
        title.starts_with("Summarise the week") && title.ends_with('…'),
        "{title}"
    );
    assert!(title.chars().count() <= 60);
}
