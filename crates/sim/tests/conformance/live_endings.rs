//! The live view's endings and errors: a silent viewer dropped, bad and expired tokens, the
//! computer going to sleep, the Live rows of Errors and the hourly limit, and the stream faults,
//! watched by the real websocket viewer of `live.rs`.

use crate::live::*;
use crate::support::*;
use porthole_sim::{Config, FaultSpec};
use std::time::Duration;

#[tokio::test]
async fn nop_when_idle_and_a_silent_viewer_is_dropped() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let url = live_url(&p, "ada", &m).await;
    let mut v = Viewer::connect(&format!("{url}&nop_ms=150&drop_ms=5000")).await;
    let first = v.until_sync(PATIENCE).await;
    v.ack(&last_sync(&first)).await;
    // Nothing changes on this desktop (bar the taskbar clock once a minute), so a `nop`
    // follows within the 150 ms asked for.
    let mut saw_nop = false;
    for _ in 0..10 {
        let frame = v
            .frame(Duration::from_secs(5))
            .await
            .expect("something within the nop time")
            .expect("parses");
        if let Some(sync) = frame.iter().find(|i| i.opcode == "sync") {
            v.ack(sync).await;
        }
        if frame.iter().map(|i| i.opcode.as_str()).eq(["nop"]) {
            saw_nop = true;
            break;
        }
    }
    assert!(saw_nop, "an idle stream says nop");

    let mut quiet = Viewer::connect(&format!("{url}&nop_ms=100&drop_ms=400")).await;
    let mut last = Vec::new();
    while let Some(frame) = quiet.frame(Duration::from_secs(5)).await {
        last = frame.expect("parses");
    }
    let err = last
        .iter()
        .find(|i| i.opcode == "error")
        .unwrap_or_else(|| panic!("an error before the close, got {last:?}"));
    assert_eq!(err.args[1], "776", "CLIENT_TIMEOUT");
}

#[tokio::test]
async fn bad_and_expired_tokens_get_error_then_close() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let url = live_url(&p, "ada", &m).await;
    let (base, _) = url.split_once('?').expect("a query");
    for bad in [
        format!("{base}?token=forged.token"),
        base.to_owned(),
        url.replace(&m, "m_other"),
    ] {
        let mut v = Viewer::connect(&bad).await;
        let frame = v.frame(PATIENCE).await.expect("an answer").expect("parses");
        assert_eq!(frame[0].opcode, "error", "{bad}");
        assert_eq!(frame[0].args[1], "769", "CLIENT_UNAUTHORIZED");
        assert!(v.frame(PATIENCE).await.is_none(), "then the server closes");
    }

    // 15 documented minutes are 90 ms here.
    let p = start_with(Config {
        time_scale: 0.0001,
        ..Config::default()
    })
    .await;
    let m = p.machine_id("ada", "Design laptop").await;
    let url = live_url(&p, "ada", &m).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut v = Viewer::connect(&url).await;
    let frame = v.frame(PATIENCE).await.expect("an answer").expect("parses");
    assert_eq!(
        (frame[0].opcode.as_str(), frame[0].args[1].as_str()),
        ("error", "769"),
        "an expired token"
    );
    assert!(frame[0].args[0].contains("expired"));

    let url = live_url(&p, "ada", &m).await;
    let mut v = Viewer::connect(&url).await;
    let mut ending = None;
    while let Some(frame) = v.frame(PATIENCE).await {
        let frame = frame.expect("parses");
        if let Some(sync) = frame.iter().find(|i| i.opcode == "sync") {
            v.ack(sync).await;
        }
        ending = frame.into_iter().find(|i| i.opcode == "error").or(ending);
    }
    assert_eq!(
        ending.map(|e| e.args[1].clone()).as_deref(),
        Some("522"),
        "the stream ends when the token expires"
    );
}

#[tokio::test]
async fn the_stream_ends_when_the_computer_sleeps() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let url = live_url(&p, "ada", &m).await;
    let mut v = Viewer::connect(&url).await;
    let first = v.until_sync(PATIENCE).await;
    v.ack(&last_sync(&first)).await;
    porthole_sim::machines::power::set_power(
        p.sim.state(),
        &m,
        porthole_sim::records::Power::Hibernated,
    );
    let mut ending = None;
    while let Some(frame) = v.frame(PATIENCE).await {
        ending = frame
            .expect("parses")
            .into_iter()
            .find(|i| i.opcode == "error")
            .or(ending);
    }
    assert_eq!(
        ending.map(|e| e.args[1].clone()).as_deref(),
        Some("520"),
        "UPSTREAM_UNAVAILABLE"
    );
    let (s, b) = send(p.post(&format!("/v1/agents/machines/{m}/live"), "ada")).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (409, Some("machine_not_running")),
        "{b}"
    );
}

#[tokio::test]
async fn errors_of_the_live_rows_and_the_hourly_limit() {
    let p = start().await;
    let asleep = p.machine_id("ada", "Research box").await;
    let (s, b) = send(p.post(&format!("/v1/agents/machines/{asleep}/live"), "ada")).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (409, Some("machine_not_running")),
        "{b}"
    );
    let own = p.machine_id("ada", "Ada's MacBook").await;
    let (s, b) = send(p.post(&format!("/v1/agents/machines/{own}/live"), "ada")).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (502, Some("live_unavailable")),
        "{b}"
    );
    let m = p.machine_id("ada", "Design laptop").await;
    let res = p
        .post(&format!("/v1/agents/machines/{m}/live"), "fred")
        .send()
        .await
        .expect("live");
    assert_eq!(res.status().as_u16(), 404, "another account's computer");
    assert!(
        res.bytes().await.unwrap_or_default().is_empty(),
        "no error body"
    );
    let free = format!("free-{}", p.account("fred").user_id);
    let (s, b) = send(p.post(&format!("/v1/agents/machines/{free}/live"), "fred")).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (409, Some("machine_not_running")),
        "the unclaimed free computer sleeps: {b}"
    );
    let (s, _) = send(p.req(
        reqwest::Method::POST,
        &format!("/v1/agents/machines/{m}/live"),
        "ada",
        Cred::None,
    ))
    .await;
    assert_eq!(s, 401);

    // Two of ada's requests above counted (fred's count toward fred, the anonymous one not).
    let mut count = 2;
    while count < 120 {
        let (s, _) = send(p.post(&format!("/v1/agents/machines/{m}/live"), "ada")).await;
        assert_eq!(s, 200, "request {count}");
        count += 1;
    }
    let res = p
        .post(&format!("/v1/agents/machines/{m}/live"), "ada")
        .send()
        .await
        .expect("live");
    assert_eq!(res.status().as_u16(), 429);
    assert!(res.headers().contains_key("retry-after"));
    assert!(
        res.bytes().await.unwrap_or_default().is_empty(),
        "no error body"
    );
}

#[tokio::test]
async fn the_bad_frame_fault_sends_a_malformed_instruction() {
    let p = start_with(Config {
        time_scale: TIME_SCALE,
        faults: FaultSpec::parse("bad-frame=1").unwrap_or_default(),
        ..Config::default()
    })
    .await;
    let m = p.machine_id("ada", "Design laptop").await;
    let url = live_url(&p, "ada", &m).await;
    let mut v = Viewer::connect(&format!("{url}&animate=1")).await;
    let first = v.until_sync(PATIENCE).await;
    v.ack(&last_sync(&first)).await;
    let frame = v.frame(PATIENCE).await.expect("a frame");
    assert!(
        frame.is_err(),
        "a garbled instruction before the next frame: {frame:?}"
    );
}

#[tokio::test]
async fn the_drop_stream_fault_cuts_the_connection_without_an_error() {
    let faults = FaultSpec::parse("drop-stream=1").unwrap_or_default();
    let p = start_with(Config {
        time_scale: TIME_SCALE,
        faults,
        ..Config::default()
    })
    .await;
    let m = p.machine_id("ada", "Design laptop").await;
    let url = live_url(&p, "ada", &m).await;
    let mut v = Viewer::connect(&format!("{url}&animate=1")).await;
    // No echo: a viewer's unread bytes would turn the server's close into a reset that can
    // swallow the last frame. Two frames may be in flight anyway.
    let _first = v.until_sync(PATIENCE).await;
    let mut seen = Vec::new();
    while let Some(frame) = v.frame(PATIENCE).await {
        seen.extend(frame.expect("parses"));
    }
    assert!(
        seen.iter().any(|i| i.opcode == "sync"),
        "one more frame arrived"
    );
    assert!(
        !seen.iter().any(|i| i.opcode == "error"),
        "then the connection ended without a word"
    );
}
