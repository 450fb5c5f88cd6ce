//! Judge: sentence and checks, scores and evidence, `unverifiable`, the unsupported judges,
//! idempotency, GET, the Judge rows of Errors and the hourly limit.

use crate::learn::recorded_turn;
use crate::support::*;
use serde_json::{json, Value};

async fn judge(p: &Peer, who: &str, body: Value) -> (u16, Value) {
    send(p.post("/v1/agents/judge", who).json(&body)).await
}

#[tokio::test]
async fn a_sentence_and_checks_get_verdicts_scores_and_evidence() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let turn = recorded_turn(&p, "ada", &m, "Look up the weather in Lisbon", true).await;
    let (_, before) = send(p.get(&format!("/v1/agents/turns/{turn}"), "ada")).await;

    let (s, j) = judge(&p, "ada", json!({ "turns": [turn], "criteria": "The agent opened the Browser and typed the weather request for Lisbon" })).await;
    assert_eq!(s, 200, "{j}");
    assert!(j["judgementId"]
        .as_str()
        .unwrap_or("")
        .starts_with("judgement_"));
    assert_eq!(
        (j["verdict"].as_str(), j["task"].as_str()),
        (Some("passed"), Some("Look up the weather in Lisbon")),
        "{j}"
    );
    assert_eq!(j["turns"], json!([turn]));
    assert_eq!(j["researchPreview"], true);
    let c = &j["criteria"][0];
    assert!(
        c["score"]
            .as_f64()
            .is_some_and(|s| (0.5..=1.0).contains(&s)),
        "{c}"
    );
    assert!(
        c["evidence"].as_str().is_some_and(|e| !e.is_empty()),
        "a sentence always has evidence"
    );
    assert!(j["summary"].as_str().unwrap_or("").contains("1 of 1"));

    let checks = json!([
        { "id": "opened", "check": "The Browser was opened", "returnEvidence": true },
        { "id": "looks", "check": "The screenshot shows a sunny icon" },
        { "id": "wrong", "check": "A quarterly revenue spreadsheet was exported to PDF", "returnEvidence": true },
    ]);
    let (s, j) = judge(&p, "ada", json!({ "turns": [turn], "criteria": checks, "task": "Weather please", "judges": { "criteria": true } })).await;
    assert_eq!(s, 200, "{j}");
    let by_id = |id: &str| {
        j["criteria"]
            .as_array()
            .and_then(|a| a.iter().find(|c| c["id"] == id))
            .cloned()
            .unwrap_or_default()
    };
    assert_eq!(by_id("opened")["verdict"], "passed");
    assert!(
        by_id("opened")["evidence"]
            .as_str()
            .unwrap_or("")
            .contains("Browser"),
        "{j}"
    );
    // Evidence in words a person reads: where it came from, no internal terms.
    let evidence = by_id("opened")["evidence"]
        .as_str()
        .unwrap_or("")
        .to_owned();
    assert!(evidence.starts_with("From "), "{evidence}");
    assert!(
        !evidence.contains("turn") && !evidence.contains("key words"),
        "{evidence}"
    );
    assert_eq!(
        by_id("looks")["verdict"],
        "unverifiable",
        "the judge does not see screenshots"
    );
    assert!(
        by_id("looks").get("evidence").is_none(),
        "no evidence unless asked"
    );
    assert_eq!(by_id("wrong")["verdict"], "failed");
    assert!(by_id("wrong")["score"].as_f64().is_some_and(|s| s < 0.5));
    assert_eq!(
        (j["verdict"].as_str(), j["task"].as_str()),
        (Some("failed"), Some("Weather please"))
    );

    let (_, j) = judge(&p, "ada", json!({ "turns": [turn], "criteria": [{ "id": "a", "check": "The Browser was opened" }, { "id": "b", "check": "The page looks tidy" }] })).await;
    assert_eq!(j["verdict"], "unverifiable", "{j}");
    let (_, after) = send(p.get(&format!("/v1/agents/turns/{turn}"), "ada")).await;
    assert_eq!(
        before, after,
        "a judgement never changes the turns it judged"
    );
}

#[tokio::test]
async fn idempotency_get_and_unsupported_judges() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let turn = recorded_turn(&p, "ada", &m, "Look up the weather in Paris", true).await;
    let body = json!({ "turns": [turn], "criteria": "The weather was looked up", "idempotency_key": "j-1" });
    let (_, first) = judge(&p, "ada", body.clone()).await;
    let (s, again) = judge(&p, "ada", body).await;
    assert_eq!(
        (s, &again["judgementId"]),
        (200, &first["judgementId"]),
        "the same key returns the earlier judgement"
    );
    let id = first["judgementId"].as_str().unwrap_or("");
    let (s, got) = send(p.get(&format!("/v1/agents/judge/{id}"), "ada")).await;
    assert_eq!((s, &got), (200, &first));
    let (s, b) = send(p.get(&format!("/v1/agents/judge/{id}"), "fred")).await;
    assert_eq!((s, b["error"].as_str()), (404, Some("judgement_not_found")));
    for judges in [
        json!({ "transitions": true }),
        json!({ "probe": true }),
        json!({ "criteria": true, "probe": true }),
    ] {
        let (s, b) = judge(
            &p,
            "ada",
            json!({ "turns": [turn], "criteria": "x y", "judges": judges }),
        )
        .await;
        assert_eq!(
            (s, b["error"].as_str()),
            (400, Some("not_supported")),
            "{b}"
        );
    }

    // The judgement feeds a repair.
    let (s, r) = send(p.post("/v1/agents/learn", "ada").json(&json!({
        "initialCode": "async function main() { return await machine.readText(); }",
        "evaluations": [{ "judgement": id, "passed": false }],
    })))
    .await;
    assert_eq!(s, 200, "{r}");
}

#[tokio::test]
async fn errors_of_the_judge_rows_and_the_hourly_limit() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let other = p.machine_id("ada", "Research box").await;
    let turn = recorded_turn(&p, "ada", &m, "Look up the weather in Rome", true).await;
    let elsewhere = recorded_turn(&p, "ada", &other, "Look up the weather in Bern", true).await;
    let many: Vec<Value> = (0..21)
        .map(|i| json!({ "id": format!("c{i}"), "check": "x" }))
        .collect();
    for (body, status, code) in [
        (json!({ "criteria": "x" }), 400, "validation"),
        (json!({ "turns": [turn] }), 400, "validation"),
        (
            json!({ "turns": [turn], "criteria": many }),
            400,
            "validation",
        ),
        (
            json!({ "turns": [turn], "criteria": "x".repeat(4001) }),
            400,
            "validation",
        ),
        (
            json!({ "turns": [turn], "criteria": [{ "check": "no id" }] }),
            400,
            "validation",
        ),
        (
            json!({ "turns": [turn], "criteria": "x", "extra": 1 }),
            400,
            "validation",
        ),
        (
            json!({ "turns": ["turn_missing"], "criteria": "x" }),
            404,
            "turn_not_found",
        ),
        (
            json!({ "turns": [turn, elsewhere], "criteria": "x" }),
            400,
            "mixed_sessions",
        ),
    ] {
        let (s, b) = judge(&p, "ada", body.clone()).await;
        assert_eq!(
            (s, b["error"].as_str()),
            (status, Some(code)),
            "{body} → {b}"
        );
    }
    let (s, b) = judge(&p, "fred", json!({ "turns": [turn], "criteria": "x" })).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (404, Some("turn_not_found")),
        "another account's turn"
    );
    let running = p
        .start_task(
            "ada",
            json!({ "message": "Take your time and sort the photos", "machineId": m }),
        )
        .await;
    let (s, b) = judge(
        &p,
        "ada",
        json!({ "turns": [running["turnId"]], "criteria": "x" }),
    )
    .await;
    assert_eq!(
        (s, b["error"].as_str()),
        (409, Some("turn_not_finished")),
        "{b}"
    );

    // Three calls above reached the limit counter (ada's 404, the mixed sessions and the 409;
    // validation answers before counting, and fred's call counts toward fred).
    let mut refused = None;
    for i in 0..130 {
        let res = p
            .post("/v1/agents/judge", "ada")
            .json(&json!({ "turns": [turn], "criteria": "x" }))
            .send()
            .await
            .expect("judge");
        if res.status().as_u16() != 200 {
            refused = Some((
                i,
                res.status().as_u16(),
                res.headers().contains_key("retry-after"),
                res.bytes().await.unwrap_or_default(),
            ));
            break;
        }
    }
    let (i, s, retry, body) = refused.expect("the limit is reached");
    assert_eq!((s, retry, body.is_empty()), (429, true, true));
    assert_eq!(i, 117, "120 calls an hour in all");
}

#[tokio::test]
async fn out_of_credit_refuses_judging_and_learning() {
    let p = start().await;
    let free = format!("free-{}", p.account("fred").user_id);
    let turn = recorded_turn(&p, "fred", &free, "Do something expensive for me", true).await;
    let (_, account) = send(p.get("/v1/agents/account", "fred")).await;
    assert_eq!(
        account["credits"]["usd"].as_f64(),
        Some(0.0),
        "the expensive task used the day's credit: {account}"
    );
    let res = p
        .post("/v1/agents/judge", "fred")
        .json(&json!({ "turns": [turn], "criteria": "x" }))
        .send()
        .await
        .expect("judge");
    assert_eq!(res.status().as_u16(), 402);
    assert!(
        res.bytes().await.unwrap_or_default().is_empty(),
        "no error body"
    );
    let (s, b) = send(
        p.post("/v1/agents/learn", "fred")
            .json(&json!({ "turns": [turn], "model": "auto" })),
    )
    .await;
    assert_eq!(
        (s, b["error"].as_str()),
        (402, Some("model_refused")),
        "{b}"
    );
}

#[tokio::test]
async fn a_number_with_a_unit_an_amount_or_a_name_in_the_answer_is_support_and_is_cited() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let turn = recorded_turn(&p, "ada", &m, "Look up the weather in Paris", true).await;
    let checks = json!([
        { "id": "temp", "check": "The answer gives a temperature", "returnEvidence": true },
        { "id": "today", "check": "The answer gives today's temperature in Paris", "returnEvidence": true },
        { "id": "city", "check": "The answer names a city", "returnEvidence": true },
        { "id": "price", "check": "The answer gives a price", "returnEvidence": true },
        { "id": "half", "check": "The temperature and the humidity in Paris", "returnEvidence": true },
    ]);
    let (s, j) = judge(&p, "ada", json!({ "turns": [turn], "criteria": checks })).await;
    assert_eq!(s, 200, "{j}");
    let by_id = |id: &str| {
        j["criteria"]
            .as_array()
            .and_then(|a| a.iter().find(|c| c["id"] == id))
            .cloned()
            .unwrap_or_default()
    };
    for id in ["temp", "today", "city"] {
        let c = by_id(id);
        assert_eq!(
            c["verdict"], "passed",
            "“21 °C” and “Paris” support it: {c}"
        );
        let evidence = c["evidence"].as_str().unwrap_or_default();
        assert!(
            evidence.starts_with("From the agent's answer: “Paris: 21 °C"),
            "the agent's answer is cited: {evidence}"
        );
        assert!(
            !evidence.contains("your task"),
            "the person's task is not evidence: {evidence}"
        );
    }
    assert_eq!(
        by_id("price")["verdict"],
        "failed",
        "a weather answer gives no price: {j}"
    );
    // Half supported: a coin-flip is not a pass.
    let half = by_id("half");
    let score = half["score"].as_f64().unwrap_or(1.0);
    assert!((0.3..0.7).contains(&score), "{half}");
    assert_eq!(half["verdict"], "failed", "no pass under 0.7: {half}");
    for c in j["criteria"].as_array().cloned().unwrap_or_default() {
        let score = c["score"].as_f64().unwrap_or(0.0);
        assert_eq!(c["verdict"] == "passed", score >= 0.7, "{c}");
    }
}
