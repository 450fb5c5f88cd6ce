//! Turns: statuses including finalizing, trajectories, screenshots, ownership.

use crate::support::*;
use serde_json::json;

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
async fn turn_records_for_learn_and_judge_carry_steps_answer_and_usage() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let t = p
        .start_task("ada", json!({"message": "Weather in Oslo", "machineId": m}))
        .await;
    let tid = t["turnId"].as_str().unwrap();
    let (turn, _) = p.finish_turn("ada", tid).await;
    let ada = p.account("ada").user_id.clone();
    let rec = p
        .sim
        .state()
        .turn_record(&ada, tid)
        .expect("the owner reads it");
    assert!(rec.finished && rec.status == "succeeded");
    assert_eq!(rec.answer, turn["output"].as_str().unwrap());
    assert!(rec.answer.contains("Oslo"));
    assert!(
        rec.steps.len() >= 3
            && rec
                .steps
                .iter()
                .all(|s| !s.title.is_empty() && !s.code.is_empty())
    );
    assert!(
        !rec.record_trajectory,
        "steps are kept even when the trajectory is not listed"
    );
    assert!(rec.input_tokens > 0 && rec.output_tokens > 0);
    let ulla = p.account("ulla").user_id.clone();
    assert!(
        p.sim.state().turn_record(&ulla, tid).is_none(),
        "another account's turn is missing"
    );
}
