//! `reject-pick`: the service refuses a pick the card accepts, as the real one may for reasons
//! a client cannot see in advance. The refusal looks like any refused pick (`400` with a
//! sentence), the card waits on, and a later answer the draws allow is taken.

use crate::support::*;
use porthole_sim::faults::{Fault, Faults};
use porthole_sim::{Config, FaultSpec};
use serde_json::{json, Value};

const FAULTS: &str = "reject-pick=0.5";

/// A seed whose first two `reject-pick` draws refuse, then take: found with the simulator's
/// own generator, so the test does not depend on a seed picked by hand.
fn seed_refusing_once() -> u64 {
    let spec = FaultSpec::parse(FAULTS).unwrap();
    (0..10_000)
        .find(|seed| {
            let faults = Faults::new(spec.clone(), *seed);
            faults.roll(Fault::RejectPick) && !faults.roll(Fault::RejectPick)
        })
        .expect("a seed")
}

async fn answer(p: &Peer, card: &Value, selections: Value) -> (u16, Value) {
    let body =
        json!({"approvalId": card["approvalId"], "response": "yes", "selections": selections});
    send(p.post("/v1/agents/approve", "ada").json(&body)).await
}

#[tokio::test]
async fn a_refused_pick_is_400_with_a_sentence_the_card_waits_and_a_later_pick_is_taken() {
    let p = start_with(Config {
        time_scale: 0.05,
        faults: FaultSpec::parse(FAULTS).unwrap(),
        seed: seed_refusing_once(),
        ..Config::default()
    })
    .await;
    let m = p.machine_id("ada", "Design laptop").await;
    let t = p
        .start_task(
            "ada",
            json!({"message": "Check the weather, ask me which city", "machineId": m}),
        )
        .await;
    let session = t["sessionId"].as_str().unwrap();
    let (_, body) = p.poll_until("ada", session, &["needs_approval"]).await;
    let card = body["approval"].clone();

    // A pick the card rejects does not draw: the fault's draws are left for valid picks.
    let (s, _) = answer(&p, &card, json!([["Berlin"]])).await;
    assert_eq!(s, 400);

    let (s, b) = answer(&p, &card, json!([["Rome"]])).await;
    assert_eq!(s, 400, "{b}");
    let sentence = b["error"].as_str().unwrap_or_default();
    assert!(sentence.contains("Rome") && sentence.ends_with('.'), "{b}");
    let (_, body) = p.poll_until("ada", session, &["needs_approval"]).await;
    assert_eq!(
        body["approval"]["approvalId"], card["approvalId"],
        "the same card still waits"
    );

    let (s, b) = answer(&p, &card, json!([["Rome"]])).await;
    assert_eq!((s, b), (200, json!({"ok": true})));
    let (turn, _) = p.finish_turn("ada", t["turnId"].as_str().unwrap()).await;
    assert_eq!(turn["status"], "succeeded", "{turn}");
    assert!(turn["output"].as_str().unwrap().contains("Rome"), "{turn}");
}

#[test]
fn reject_pick_parses_and_always_refuses_at_one() {
    let faults = Faults::new(FaultSpec::parse("reject-pick=1").unwrap(), 0);
    assert!((0..8).all(|_| faults.roll(Fault::RejectPick)));
}
