//! `--turn-id-in`: where `turnId` appears is published nowhere, so the simulator can put it in
//! any one place (the message's 202 body, the stream's `start` frame, the stream's
//! `data-session` frame, the events poll) or nowhere, and clients are tested against each.

use crate::support::*;
use porthole_sim::{Config, TurnIdIn};
use serde_json::{json, Value};

/// Where a turn id showed up: (202 body, start frame, data-session frame, poll).
async fn places(turn_id_in: TurnIdIn) -> [bool; 4] {
    let p = start_with(Config {
        time_scale: TIME_SCALE,
        turn_id_in,
        ..Config::default()
    })
    .await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (_, _, frames) = sse(p
        .post("/v1/agents/message", "ada")
        .json(&json!({"message": "Weather in Paris", "machineId": m})))
    .await;
    let start = &frames[0];
    let session = &frames[1];
    assert_eq!(
        (&start["type"], &session["type"]),
        (&json!("start"), &json!("data-session"))
    );
    let accepted = p
        .start_task("ada", json!({"message": "Weather in Rome", "machineId": m}))
        .await;
    let sid = accepted["sessionId"].as_str().unwrap();
    let (_, polled) = p.poll_until("ada", sid, &["idle"]).await;
    let has = |v: &Value| {
        v.get("turnId")
            .is_some_and(|t| t.as_str().is_some_and(|t| t.starts_with("turn_")))
    };
    [
        has(&accepted),
        has(start),
        has(&session["data"]),
        has(&polled),
    ]
}

#[tokio::test]
async fn by_default_the_202_body_the_start_frame_and_the_poll_carry_it() {
    assert_eq!(places(TurnIdIn::default()).await, [true, true, false, true]);
}

#[tokio::test]
async fn each_single_place_and_none() {
    for (spec, want) in [
        ("message", [true, false, false, false]),
        ("start", [false, true, false, false]),
        ("session", [false, false, true, false]),
        ("poll", [false, false, false, true]),
        ("none", [false, false, false, false]),
    ] {
        let knob = TurnIdIn::parse(spec).expect("a valid placement");
        assert_eq!(places(knob).await, want, "--turn-id-in {spec}");
    }
}

#[test]
fn the_knob_reads_lists_and_refuses_unknown_places() {
    assert_eq!(
        TurnIdIn::parse("message,start,poll").unwrap(),
        TurnIdIn::default()
    );
    assert!(TurnIdIn::parse("everywhere").is_err());
    assert!(TurnIdIn::parse("none,start").is_err());
}
