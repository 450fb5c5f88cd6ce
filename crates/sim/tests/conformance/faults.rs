//! Injected faults: 500, 429 with Retry-After, cut and malformed streams, slow requests.
use crate::support::*;
use porthole_sim::{Config, FaultSpec};
use serde_json::json;

#[tokio::test]
async fn faults_inject_500_429_and_cut_streams() {
    let p = start_with(Config {
        time_scale: TIME_SCALE,
        faults: FaultSpec::parse("http-500=1").unwrap(),
        seed: 1,
        ..Config::default()
    })
    .await;
    let (s, b) = send(p.get("/v1/agents/models", "ada")).await;
    assert_eq!((s, b["error"].as_str()), (500, Some("internal_error")));
    let p = start_with(Config {
        time_scale: TIME_SCALE,
        faults: FaultSpec::parse("http-429=1").unwrap(),
        seed: 1,
        ..Config::default()
    })
    .await;
    let res = p.get("/v1/agents/models", "ada").send().await.unwrap();
    assert_eq!(res.status().as_u16(), 429);
    assert_eq!(res.headers()["retry-after"], "1");
    let p = start_with(Config {
        time_scale: TIME_SCALE,
        faults: FaultSpec::parse("drop-stream=1").unwrap(),
        seed: 1,
        ..Config::default()
    })
    .await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (s, _, frames) = sse(p
        .post("/v1/agents/message", "ada")
        .json(&json!({"message": "Weather", "machineId": m})))
    .await;
    assert_eq!(s, 200);
    assert_eq!(frames.len(), 1, "cut after the first frame");
    assert!(!frames.iter().any(|f| f == "[DONE]"));
    let p = start_with(Config {
        time_scale: TIME_SCALE,
        faults: FaultSpec::parse("bad-frame=1").unwrap(),
        seed: 1,
        ..Config::default()
    })
    .await;
    let (_, _, frames) = sse(p
        .post("/v1/agents/message", "ada")
        .json(&json!({"message": "Weather", "machineId": m_of(&p).await})))
    .await;
    assert!(frames.iter().any(|f| f == "{not json"));
}

async fn m_of(p: &Peer) -> String {
    p.machine_id("ada", "Design laptop").await
}

#[tokio::test]
async fn slow_requests_still_answer_and_seeds_repeat() {
    let p = start_with(Config {
        time_scale: TIME_SCALE,
        faults: FaultSpec::parse("slow=1:30ms").unwrap(),
        ..Config::default()
    })
    .await;
    let (s, _) = send(p.get("/v1/agents/models", "ada")).await;
    assert_eq!(s, 200);
    // The same seed and the same requests give the same failures.
    let mut runs = Vec::new();
    for _ in 0..2 {
        let p = start_with(Config {
            time_scale: TIME_SCALE,
            faults: FaultSpec::parse("http-500=0.5").unwrap(),
            seed: 42,
            ..Config::default()
        })
        .await;
        let mut statuses = Vec::new();
        for _ in 0..24 {
            statuses.push(send(p.get("/v1/agents/models", "ada")).await.0);
        }
        runs.push(statuses);
    }
    assert_eq!(runs[0], runs[1]);
    assert!(runs[0].contains(&500) && runs[0].contains(&200));
}
