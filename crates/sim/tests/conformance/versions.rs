//! `x-sai-version: <tag>` pins one revision of the real service and may go on every request.
//! Every route answers the same with it as without it, and the simulator records the tag each
//! request carried (`AppState::requests_seen`), so a client can prove it sends it everywhere.

use crate::support::*;
use reqwest::Method;
use serde_json::{json, Value};

const TAG: &str = "staging-2026-08-19";

/// (method, path, credential, JSON body); `{m}` is ada's Design laptop, `{r}` her Research box.
fn calls() -> Vec<(Method, &'static str, Cred, Value)> {
    use Method as M;
    let none = Value::Null;
    vec![
        (M::GET, "/v1/agents/auth", Cred::Key, none.clone()),
        (M::GET, "/v1/agents/models", Cred::Key, none.clone()),
        (M::GET, "/v1/agents/account", Cred::Key, none.clone()),
        (M::GET, "/v1/agents/machines", Cred::Key, none.clone()),
        (
            M::POST,
            "/v1/agents/machines",
            Cred::Token,
            json!({"name": "Tagged"}),
        ),
        (
            M::POST,
            "/v1/agents/machines/{m}/live",
            Cred::Key,
            none.clone(),
        ),
        (
            M::POST,
            "/v1/agents/message",
            Cred::Key,
            json!({"message": "Weather", "machineId": "{m}", "wait": false}),
        ),
        (
            M::GET,
            "/v1/agents/events?sessionId=cs_nope",
            Cred::Key,
            none.clone(),
        ),
        (
            M::GET,
            "/v1/agents/turns/turn_nope",
            Cred::Key,
            none.clone(),
        ),
        (
            M::GET,
            "/v1/agents/turns/turn_nope/trajectory",
            Cred::Key,
            none.clone(),
        ),
        (
            M::GET,
            "/v1/agents/turns/turn_nope/trajectory/screenshots/0",
            Cred::Key,
            none.clone(),
        ),
        (
            M::POST,
            "/v1/agents/approve",
            Cred::Key,
            json!({"approvalId": "ap_nope", "response": "yes"}),
        ),
        (
            M::POST,
            "/v1/agents/wake",
            Cred::Key,
            json!({"machineId": "{r}"}),
        ),
        (
            M::POST,
            "/v1/agents/new-session",
            Cred::Key,
            json!({"machineId": "{m}", "channel": "api"}),
        ),
        (
            M::GET,
            "/v1/agents/context?machineId={m}&channel=api",
            Cred::Key,
            none.clone(),
        ),
        (
            M::POST,
            "/v1/agents/abort",
            Cred::Key,
            json!({"machineId": "{m}", "channel": "api"}),
        ),
        (M::GET, "/v1/account/keys", Cred::Token, none.clone()),
        (
            M::DELETE,
            "/v1/account/keys/k_nope",
            Cred::Token,
            none.clone(),
        ),
        (M::GET, "/v1/machines/{m}/control", Cred::Key, none.clone()),
        (
            M::POST,
            "/v1/machines/{m}/control/exec",
            Cred::Key,
            json!({"code": "1"}),
        ),
        (
            M::POST,
            "/v1/machines/{m}/control/interrupt",
            Cred::Key,
            none.clone(),
        ),
        (
            M::DELETE,
            "/v1/machines/{m}/control",
            Cred::Key,
            none.clone(),
        ),
        (M::POST, "/v1/agents/learn", Cred::Key, json!({})),
        (
            M::GET,
            "/v1/agents/learn/learn_nope",
            Cred::Key,
            none.clone(),
        ),
        (M::POST, "/v1/agents/judge", Cred::Key, json!({})),
        (
            M::GET,
            "/v1/agents/judge/judgement_nope",
            Cred::Key,
            none.clone(),
        ),
        (
            M::GET,
            "/approval/user_nope/ap_nope",
            Cred::None,
            none.clone(),
        ),
        (M::GET, "/google/o/oauth2/v2/auth", Cred::None, none),
    ]
}

/// Runs every call against a fresh simulator, with or without the tag; returns the statuses.
async fn run(tag: Option<&str>) -> (Peer, Vec<u16>) {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let r = p.machine_id("ada", "Research box").await;
    let fill = |s: &str| s.replace("{m}", &m).replace("{r}", &r);
    let mut statuses = Vec::new();
    for (method, path, cred, body) in calls() {
        let mut rb = p.req(method, &fill(path), "ada", cred);
        if let Some(tag) = tag {
            rb = rb.header("x-sai-version", tag);
        }
        if !body.is_null() {
            rb = rb.json(&serde_json::from_str::<Value>(&fill(&body.to_string())).unwrap());
        }
        statuses.push(rb.send().await.expect("answered").status().as_u16());
    }
    let mut upload = p
        .post("/v1/agents/upload", "ada")
        .header("x-filename", "note.txt")
        .body("hi");
    if let Some(tag) = tag {
        upload = upload.header("x-sai-version", tag);
    }
    statuses.push(upload.send().await.expect("answered").status().as_u16());
    (p, statuses)
}

#[tokio::test]
async fn every_route_answers_the_same_with_the_tag_and_records_it() {
    let (_, plain) = run(None).await;
    let (tagged, with_tag) = run(Some(TAG)).await;
    assert_eq!(plain, with_tag, "the tag changes no answer");
    assert!(with_tag.iter().any(|s| *s < 300) && with_tag.iter().any(|s| *s >= 400));
    let seen = tagged.sim.state().requests_seen();
    let m = tagged.machine_id("ada", "Design laptop").await;
    for (method, path, _, _) in calls() {
        let path = path.split('?').next().unwrap().replace("{m}", &m);
        if path.contains("{r}") {
            continue;
        }
        assert!(
            seen.iter().any(|r| r.method == method.as_str()
                && r.path == path
                && r.sai_version.as_deref() == Some(TAG)),
            "{method} {path} recorded with its tag"
        );
    }
    assert!(seen
        .iter()
        .any(|r| r.path == "/v1/agents/upload" && r.sai_version.as_deref() == Some(TAG)));
    assert!(
        seen.iter()
            .filter(|r| r.path == "/v1/agents/machines" && r.method == "GET")
            .any(|r| r.sai_version.is_none()),
        "machine_id() above sent no tag, and the record says so"
    );
}
