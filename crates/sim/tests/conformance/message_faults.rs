//! Faults of the message route alone: `message-500` refuses a message before taking it,
//! `drop-message-answer` takes it and closes the connection before any answer. Together they
//! make a failed send ambiguous, which is what a client must be able to tell apart.
use crate::support::*;
use porthole_sim::{Config, FaultSpec};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

async fn with_faults(spec: &str) -> Peer {
    start_with(Config {
        time_scale: TIME_SCALE,
        faults: FaultSpec::parse(spec).unwrap(),
        seed: 1,
        ..Config::default()
    })
    .await
}

/// The words of the user lines of the machine's current conversation.
async fn said(p: &Peer, machine_id: &str) -> Vec<String> {
    let (s, b) = send(p.get(
        &format!("/v1/agents/context?machineId={machine_id}&limit=100&channel=api"),
        "ada",
    ))
    .await;
    assert_eq!(s, 200);
    b["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .filter(|m| m["role"] == "user")
        .map(|m| m["content"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// How many times the service took `text`: as a task's message, or joined to a running one.
fn taken(p: &Peer, text: &str) -> usize {
    let db = p.sim.state().db();
    db.turns
        .values()
        .flat_map(|t| std::iter::once(&t.message).chain(t.joined.iter()))
        .filter(|m| *m == text)
        .count()
}

#[tokio::test]
async fn message_500_refuses_the_message_before_taking_it() {
    let p = with_faults("message-500=1").await;
    let m = p.machine_id("ada", "Design laptop").await;
    for wait in [true, false] {
        let (s, b) = send(p.post("/v1/agents/message", "ada").json(&json!({
            "message": "Weather in Oslo", "machineId": m, "wait": wait
        })))
        .await;
        assert_eq!((s, b["error"].as_str()), (500, Some("internal_error")));
    }
    assert_eq!(taken(&p, "Weather in Oslo"), 0, "no task started");
    assert!(said(&p, &m).await.is_empty(), "nothing in the conversation");
    // Only the message route fails.
    let (s, _) = send(p.get("/v1/agents/models", "ada")).await;
    assert_eq!(s, 200);
}

/// Sends a raw `POST /v1/agents/message` and reads everything the simulator writes back until
/// it closes the connection.
async fn raw_message(p: &Peer, body: &serde_json::Value) -> Vec<u8> {
    let key = p.account("ada").api_key.clone().expect("a key");
    let body = body.to_string();
    let addr = p.sim.base_url.trim_start_matches("http://");
    let mut tcp = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let request = format!(
        "POST /v1/agents/message HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {key}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    tcp.write_all(request.as_bytes()).await.expect("write");
    let mut answer = Vec::new();
    tokio::time::timeout(PATIENCE, tcp.read_to_end(&mut answer))
        .await
        .expect("the simulator closes the connection")
        .expect("a clean close");
    answer
}

#[tokio::test]
async fn drop_message_answer_takes_the_message_and_answers_nothing() {
    let p = with_faults("drop-message-answer=1").await;
    let m = p.machine_id("ada", "Design laptop").await;
    for (wait, text) in [(true, "Weather in Lima"), (false, "Weather in Perth")] {
        let answer = raw_message(
            &p,
            &json!({ "message": text, "machineId": m, "wait": wait }),
        )
        .await;
        assert!(
            answer.is_empty(),
            "not a byte of the answer, not even its status line: {:?}",
            String::from_utf8_lossy(&answer)
        );
        assert_eq!(taken(&p, text), 1, "the message was taken");
        assert!(
            said(&p, &m).await.contains(&text.to_owned()),
            "the message is in the conversation"
        );
    }
    // A plain HTTP client sees an error, not an answer.
    let err = p
        .post("/v1/agents/message", "ada")
        .json(&json!({ "message": "Weather in Quito", "machineId": m, "wait": false }))
        .send()
        .await
        .expect_err("no answer");
    assert!(!err.is_connect() && err.status().is_none(), "{err:?}");
    assert_eq!(taken(&p, "Weather in Quito"), 1);
}

#[tokio::test]
async fn message_faults_leave_refusals_and_other_routes_alone() {
    let p = with_faults("drop-message-answer=1").await;
    let m = p.machine_id("ada", "Design laptop").await;
    // Bad requests and plain replies are answered: only a taken message loses its answer.
    let (s, _) = send(
        p.post("/v1/agents/message", "ada")
            .json(&json!({ "machineId": m })),
    )
    .await;
    assert_eq!(s, 400);
    let (s, b) = send(
        p.post("/v1/agents/message", "ada")
            .json(&json!({ "message": "thanks", "machineId": m, "wait": false })),
    )
    .await;
    assert_eq!((s, b["error"].as_str()), (200, Some("You're welcome!")));
    let (s, _) = send(p.get("/v1/agents/models", "ada")).await;
    assert_eq!(s, 200);
}
