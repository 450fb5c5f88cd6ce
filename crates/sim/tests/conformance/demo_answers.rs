//! The Demo's agent as a first-time person meets it: each answer is the task's own result
//! (no boilerplate about how it was done), a look-up never asks to buy, a task that asked a
//! permission answers with its own result, and a task it cannot act out says what it can do
//! with three tasks to try.

use crate::support::*;
use serde_json::json;

/// Runs a task to its end, approving any card it raises; returns its answer and whether a
/// card was raised.
async fn run(p: &Peer, m: &str, task: &str) -> (String, bool) {
    let t = p
        .start_task("ada", json!({"message": task, "machineId": m}))
        .await;
    let turn = t["turnId"].as_str().unwrap().to_owned();
    let session = t["sessionId"].as_str().unwrap().to_owned();
    let (_, body) = p
        .poll_until("ada", &session, &["needs_approval", "idle"])
        .await;
    let asked = body["status"] == "needs_approval";
    if asked {
        let (s, b) = send(
            p.post("/v1/agents/approve", "ada")
                .json(&json!({"approvalId": body["approval"]["approvalId"], "response": "yes"})),
        )
        .await;
        assert_eq!(s, 200, "{b}");
    }
    let (done, _) = p.finish_turn("ada", &turn).await;
    assert_eq!(done["status"], "succeeded", "{done}");
    (
        done["output"].as_str().unwrap_or_default().to_owned(),
        asked,
    )
}

#[tokio::test]
async fn a_look_up_answers_its_result_and_never_asks_to_buy() {
    let p = start_unhurried().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (answer, asked) = run(
        &p,
        &m,
        "Look up the weather in Lisbon, Porto and Faro, then put the cities in order from the warmest to the coldest",
    )
    .await;
    assert!(!asked, "a look-up raised a card: {answer}");
    assert!(answer.starts_with("**Lisbon"), "{answer}");
    assert!(
        !answer.contains("Done in") && !answer.contains("I opened it"),
        "no boilerplate: {answer}"
    );
}

#[tokio::test]
async fn a_task_that_asked_permission_answers_with_its_own_result() {
    let p = start_unhurried().await;
    let m = p.machine_id("ada", "Design laptop").await;
    // Windows open in turn at spots over the screen; the permission step clicks one place, so
    // over a few rounds that click lands on an earlier task's window and raises it.
    for (city, folder) in [
        ("Oslo", "drafts"),
        ("Bergen", "screenshots"),
        ("Tromso", "installers"),
        ("Bodo", "drafts"),
    ] {
        let (weather, _) = run(&p, &m, &format!("Look up the weather in {city}")).await;
        assert!(weather.contains(&format!("{city}: 21 °C")), "{weather}");
        let (answer, asked) = run(&p, &m, &format!("Delete the {folder}")).await;
        assert!(asked, "a deletion asks first");
        assert!(
            answer.starts_with(&format!("**Deleted the folder {folder}")),
            "the deletion's own result, not an earlier task's: {answer}"
        );
    }
}

#[tokio::test]
async fn a_task_it_cannot_act_out_says_what_it_can_do_with_three_to_try() {
    let p = start_unhurried().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (answer, _) = run(&p, &m, "Read the attached shopping notes").await;
    assert!(
        answer.starts_with("**This practice computer can't do that task for real.**")
            && answer.contains("It can look up the weather, find prices"),
        "{answer}"
    );
    let tries: Vec<&str> = answer
        .lines()
        .filter_map(|l| l.strip_prefix("- “")?.strip_suffix('”'))
        .collect();
    assert_eq!(tries.len(), 3, "three tasks to try, one a line: {answer}");
    for task in tries {
        let (result, _) = run(&p, &m, task).await;
        assert!(
            !result.contains("practice computer can"),
            "each offered task works: {task} → {result}"
        );
    }
}

#[tokio::test]
async fn a_saved_task_run_with_other_words_reads_its_own_result() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let turn =
        crate::learn::recorded_turn(&p, "ada", &m, "Look up the weather in Paris", true).await;
    let (s, r) = send(
        p.post("/v1/agents/learn", "ada")
            .json(&json!({ "turns": [turn] })),
    )
    .await;
    assert_eq!(s, 200, "{r}");
    let code = r["code"].as_str().unwrap_or_default();
    let (s, _) = send(p.post(&format!("/v1/machines/{m}/control"), "ada")).await;
    assert_eq!(s, 201);
    let (s, out) = send(
        p.post(&format!("/v1/machines/{m}/control/exec"), "ada")
            .json(&json!({ "code": format!("{code}\nawait main({{ place: 'Rome' }})") })),
    )
    .await;
    assert_eq!(s, 200, "{out}");
    let result = out["result"].as_str().unwrap_or_default();
    assert!(result.contains("Rome: 21 °C"), "Rome's result: {out}");
    assert!(!result.contains("Paris"), "not the learned place's: {out}");
}
