//! Learn: convert and heal, the Learn result fields, idempotent replay, GET, every Learn row
//! of Errors the simulator can produce, and the hourly limit. A converted function is run on a
//! real lease to show learned code really works.

use crate::support::*;
use serde_json::{json, Value};

/// Runs a task to its end and returns the turn id.
pub async fn recorded_turn(
    p: &Peer,
    who: &str,
    machine: &str,
    message: &str,
    record: bool,
) -> String {
    let t = p.start_task(who, json!({ "message": message, "machineId": machine, "options": { "recordTrajectory": record } })).await;
    let id = t["turnId"].as_str().expect("turnId").to_owned();
    p.finish_turn(who, &id).await;
    id
}

async fn learn(p: &Peer, who: &str, body: Value) -> (u16, Value) {
    send(p.post("/v1/agents/learn", who).json(&body)).await
}

#[tokio::test]
async fn convert_turns_into_a_function_that_runs_on_a_lease() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let turn = recorded_turn(&p, "ada", &m, "Look up the weather in Lisbon", true).await;
    let (s, r) = learn(&p, "ada", json!({ "turns": [turn] })).await;
    assert_eq!(s, 200, "{r}");
    assert!(r["learnId"].as_str().unwrap_or("").starts_with("learn_"));
    assert_eq!(
        (r["mode"].as_str(), r["status"].as_str()),
        (Some("convert"), Some("succeeded")),
        "{r}"
    );
    assert_eq!(r["template"], "Look up the weather in {{place}}");
    assert_eq!(
        r["parameters"],
        json!([{ "name": "place", "defaultValue": "Lisbon" }])
    );
    assert_eq!(r["validation"]["errors"], json!([]), "{r}");
    assert_eq!(r["sourceTurns"], json!([turn]));
    assert_eq!(
        (
            r["researchPreview"].as_bool(),
            r["idempotent_replay"].as_bool()
        ),
        (Some(true), Some(false))
    );
    assert!(r["usage"]["inputTokens"].as_u64().is_some_and(|n| n > 0));
    assert!(!r["title"].as_str().unwrap_or("").is_empty());
    let code = r["code"].as_str().unwrap_or("");
    assert!(code.starts_with("async function main(params = {"), "{code}");
    assert!(
        code.contains("${params.place}"),
        "the recorded value became a parameter: {code}"
    );

    let (s, again) = send(p.get(
        &format!("/v1/agents/learn/{}", r["learnId"].as_str().unwrap_or("")),
        "ada",
    ))
    .await;
    assert_eq!((s, &again), (200, &r), "GET returns the same object");
    let (s, b) = send(p.get(
        &format!("/v1/agents/learn/{}", r["learnId"].as_str().unwrap_or("")),
        "fred",
    ))
    .await;
    assert_eq!(
        (s, b["error"].as_str()),
        (404, Some("learn_not_found")),
        "another account's result is missing"
    );

    // Learned code runs under direct control with the inputs merged over the defaults.
    let (s, _) = send(p.post(&format!("/v1/machines/{m}/control"), "ada")).await;
    assert_eq!(s, 201);
    let block = format!("{code}\nawait main({{ ...{{ place: 'Lisbon' }}, place: 'Porto' }})");
    let (s, out) = send(
        p.post(&format!("/v1/machines/{m}/control/exec"), "ada")
            .json(&json!({ "code": block })),
    )
    .await;
    assert_eq!(s, 200);
    assert!(out.get("error").is_none(), "{out}");
    assert!(
        out["result"]
            .as_str()
            .unwrap_or("")
            .contains("Look up the weather in Porto"),
        "{out}"
    );
    let result = out["result"].as_str().unwrap_or("");
    assert!(
        result.contains("Porto: 21 °C") && !result.contains("Lisbon"),
        "the run reads its own result, not the recorded place's: {out}"
    );
}

#[tokio::test]
async fn templates_idempotency_and_structured_output() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let turn = recorded_turn(&p, "ada", &m, "Look up the weather in New York", true).await;
    let body = json!({ "turns": [turn], "template": "Look up the {{what}} in {{city}}", "idempotency_key": "k-1" });
    let (s, r) = learn(&p, "ada", body.clone()).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(
        r["parameters"],
        json!([{ "name": "what", "defaultValue": "weather" }, { "name": "city", "defaultValue": "New York" }])
    );
    let (s, again) = learn(&p, "ada", body).await;
    assert_eq!(s, 200);
    assert_eq!(again["idempotent_replay"], true);
    assert_eq!(
        again["learnId"], r["learnId"],
        "the earlier result, not a new run"
    );
    let (s, b) = learn(
        &p,
        "ada",
        json!({ "turns": [turn], "template": "Order {{thing}} online" }),
    )
    .await;
    assert_eq!(
        (s, b["error"].as_str()),
        (400, Some("template_mismatch")),
        "{b}"
    );

    let schema = json!({ "type": "object", "properties": { "summary": { "type": "string" } }, "required": ["summary"] });
    let t = p.start_task("ada", json!({ "message": "Summarise the news", "machineId": m, "output_schema": schema, "options": { "recordTrajectory": true } })).await;
    let tid = t["turnId"].as_str().unwrap_or("").to_owned();
    p.finish_turn("ada", &tid).await;
    let (s, r) = learn(&p, "ada", json!({ "turns": [tid] })).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["outputSchema"], schema);
    assert!(
        r["code"].as_str().unwrap_or("").contains("\"summary\":"),
        "main returns the schema's shape"
    );
}

#[tokio::test]
async fn heal_repairs_code_from_evaluations_and_feedback() {
    let p = start().await;
    let initial = "async function main(params = { \"city\": \"Lisbon\" }) {\n  await machine.open(\"Browser\");\n  await machine.click(640, 520);\n  const text = await machine.readText();\n  return params.city + text;\n}\n";
    let body = json!({
        "initialCode": initial,
        "evaluations": [{ "inputs": { "city": "Oslo" }, "result": { "result": "", "error": null, "logs": [] }, "passed": false, "note": "The answer was empty" }],
        "feedback": "It reads the page too early",
    });
    let (s, r) = learn(&p, "ada", body).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(
        (r["mode"].as_str(), r["status"].as_str()),
        (Some("heal"), Some("succeeded")),
        "{r}"
    );
    let code = r["code"].as_str().unwrap_or("");
    assert_ne!(code, initial);
    assert!(!code.contains("640"), "the copied position is gone: {code}");
    assert!(code.contains("machine.wait("), "{code}");
    let changes = r["changes"].as_array().cloned().unwrap_or_default();
    assert!(
        changes.len() >= 2
            && changes
                .iter()
                .all(|c| c["change"].is_string() && c["reason"].is_string()),
        "{r}"
    );
    assert_eq!(
        r["parameters"],
        json!([{ "name": "city", "defaultValue": "Lisbon" }])
    );

    let (s, r) = learn(&p, "ada", json!({ "initialCode": "async function main(params = { a: 1, b: 2 }) {\n  fetch('https://x');\n  return params.a +\n}" })).await;
    assert_eq!(s, 200);
    assert_eq!(r["status"], "failed", "{r}");
    let errors = r["validation"]["errors"].to_string();
    for needle in ["does not parse", "`b` is never used", "fetch"] {
        assert!(errors.contains(needle), "{needle}: {errors}");
    }
    let (s, b) = learn(&p, "ada", json!({ "initialCode": initial, "evaluations": [{ "judgement": "judgement_missing", "passed": false }] })).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (404, Some("judgement_not_found")),
        "{b}"
    );
}

#[tokio::test]
async fn errors_of_the_learn_rows() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let other = p.machine_id("ada", "Research box").await;
    let recorded = recorded_turn(&p, "ada", &m, "Look up the weather in Rome", true).await;
    let unrecorded = recorded_turn(&p, "ada", &m, "Look up the weather in Oslo", false).await;
    let elsewhere = recorded_turn(&p, "ada", &other, "Look up the weather in Bern", true).await;
    let no_steps = recorded_turn(&p, "ada", &m, "Check the unreachable server", true).await;

    for (body, status, code) in [
        (json!({}), 400, "validation"),
        (
            json!({ "turns": [recorded], "evaluations": [] , "feedback": "x" }),
            400,
            "validation",
        ),
        (
            json!({ "turns": [recorded], "evaluations": [{ "passed": true }] }),
            400,
            "validation",
        ),
        (
            json!({ "turns": [recorded], "colour": "blue" }),
            400,
            "validation",
        ),
        (
            json!({ "turns": [recorded], "model": "acme/nothing" }),
            400,
            "validation",
        ),
        (json!({ "turns": "nope" }), 400, "validation"),
        (json!({ "turns": ["turn_missing"] }), 404, "turn_not_found"),
        (
            json!({ "turns": [recorded, elsewhere] }),
            400,
            "mixed_sessions",
        ),
        (
            json!({ "turns": [unrecorded] }),
            409,
            "trajectory_not_recorded",
        ),
        (json!({ "turns": [no_steps] }), 400, "no_steps"),
    ] {
        let (s, b) = learn(&p, "ada", body.clone()).await;
        assert_eq!(
            (s, b["error"].as_str()),
            (status, Some(code)),
            "{body} → {b}"
        );
    }
    let (s, b) = learn(&p, "fred", json!({ "turns": [recorded] })).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (404, Some("turn_not_found")),
        "another account's turn: {b}"
    );
    let (s, b) = learn(
        &p,
        "fred",
        json!({ "initialCode": "async function main() {}", "model": "openai/gpt-5" }),
    )
    .await;
    assert_eq!(
        (s, b["error"].as_str()),
        (403, Some("model_refused")),
        "the free plan may not use it: {b}"
    );

    let running = p.start_task("ada", json!({ "message": "Take your time and sort the photos", "machineId": m, "options": { "recordTrajectory": true } })).await;
    let (s, b) = learn(&p, "ada", json!({ "turns": [running["turnId"]] })).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (409, Some("turn_not_finished")),
        "{b}"
    );
    let (s, b) = send(p.get("/v1/agents/learn/learn_missing", "ada")).await;
    assert_eq!((s, b["error"].as_str()), (404, Some("learn_not_found")));
}

#[tokio::test]
async fn thirty_learn_calls_an_hour() {
    let p = start().await;
    let calls = (0..30).map(|i| {
        let http = p.http.clone();
        let url = p.url("/v1/agents/learn");
        let key = p.account("ada").api_key.clone().unwrap_or_default();
        tokio::spawn(async move {
            send(http.post(url).bearer_auth(key).json(
                &json!({ "initialCode": format!("async function main() {{ return {i}; }}") }),
            ))
            .await
        })
    });
    for c in futures::future::join_all(calls).await {
        assert_eq!(c.map(|(s, _)| s).unwrap_or(0), 200);
    }
    let res = p
        .post("/v1/agents/learn", "ada")
        .json(&json!({ "initialCode": "async function main() {}" }))
        .send()
        .await
        .expect("learn");
    assert_eq!(res.status().as_u16(), 429);
    assert!(res.headers().contains_key("retry-after"));
    assert!(
        res.bytes().await.unwrap_or_default().is_empty(),
        "no error body"
    );
}

#[tokio::test]
async fn a_call_stopped_mid_way_reads_as_failed_interrupted_and_replays_so() {
    let p = start().await;
    let call = {
        let http = p.http.clone();
        let url = p.url("/v1/agents/learn");
        let key = p.account("ada").api_key.clone().unwrap_or_default();
        tokio::spawn(async move {
            send(http.post(url).bearer_auth(key).json(&json!({ "initialCode": "async function main() { return 1; }", "idempotency_key": "restart" }))).await
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    porthole_sim::control::shutdown_all(p.sim.state());
    let (s, r) = call.await.expect("the call answers");
    assert_eq!(
        (s, r["status"].as_str(), r["error"].as_str()),
        (200, Some("failed"), Some("interrupted")),
        "{r}"
    );
    let (s, got) = send(p.get(
        &format!("/v1/agents/learn/{}", r["learnId"].as_str().unwrap_or("")),
        "ada",
    ))
    .await;
    assert_eq!((s, got["error"].as_str()), (200, Some("interrupted")));
    let (_, again) = learn(&p, "ada", json!({ "initialCode": "async function main() { return 1; }", "idempotency_key": "restart" })).await;
    assert_eq!(
        (
            again["learnId"].as_str(),
            again["idempotent_replay"].as_bool()
        ),
        (r["learnId"].as_str(), Some(true))
    );
}
