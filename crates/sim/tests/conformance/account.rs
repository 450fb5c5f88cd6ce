//! Account, models, the billing timeout and the message limit.
use crate::support::*;
use porthole_sim::{Config, FaultSpec};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn account_shows_plans_and_credit() {
    let p = start().await;
    let (s, b) = send(p.get("/v1/agents/account", "ada")).await;
    assert_eq!(s, 200);
    assert_eq!(b["userId"], p.account("ada").user_id.as_str());
    assert_eq!(b["userState"], "active");
    assert_eq!(b["plan"]["id"], "pro");
    assert_eq!(
        (
            b["plan"]["free"].as_bool(),
            b["plan"]["unlimited"].as_bool()
        ),
        (Some(false), Some(false))
    );
    assert!(b["credits"]["usd"].as_f64().unwrap() > 0.0);
    assert_eq!(b["authType"], "apiKey");
    let (_, b) = send(p.get("/v1/agents/account", "fred")).await;
    assert!(b["plan"]["id"].is_null());
    assert_eq!(
        (b["plan"]["free"].as_bool(), b["userState"].as_str()),
        (Some(true), Some("active_free"))
    );
    let (_, b) = send(p.get("/v1/agents/account", "ulla")).await;
    assert_eq!(b["plan"]["unlimited"], true);
    assert!(b["credits"].is_object() && b["credits"]["usd"].is_null());
    let (_, b) = send(p.req(Method::GET, "/v1/agents/account", "nophone", Cred::Token)).await;
    assert_eq!(b["authType"], "idp");
}

#[tokio::test]
async fn account_answers_credits_null_when_billing_times_out() {
    let p = start_with(Config {
        time_scale: TIME_SCALE,
        faults: FaultSpec::parse("slow-billing=1").unwrap(),
        ..Config::default()
    })
    .await;
    let (s, b) = send(p.get("/v1/agents/account", "ada")).await;
    assert_eq!(s, 200);
    assert!(b["credits"].is_null());
    assert_eq!(b["plan"]["id"], "pro", "the rest is still filled");
}

#[tokio::test]
async fn message_limit_is_60_an_hour_with_the_documented_body() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    for _ in 0..60 {
        let (s, _) = send(
            p.post("/v1/agents/message", "ada")
                .json(&json!({"message": "ok", "machineId": m, "wait": false})),
        )
        .await;
        assert_eq!(s, 200);
    }
    let res = p
        .post("/v1/agents/message", "ada")
        .json(&json!({"message": "ok", "machineId": m, "wait": false}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 429);
    let retry: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=36).contains(&retry), "the hour is scaled");
    let b: serde_json::Value = res.json().await.unwrap();
    assert_eq!(
        b["error"],
        "Message rate limit exceeded. Maximum 60 messages per hour."
    );
}

#[tokio::test]
async fn models_list_tiers_allowance_and_default() {
    let p = start().await;
    let (s, b) = send(p.get("/v1/agents/models", "fred")).await;
    assert_eq!(s, 200);
    assert_eq!(b["default"], "auto");
    let ms = b["models"].as_array().unwrap();
    assert!(ms.len() >= 6);
    let auto = ms.iter().find(|m| m["id"] == "auto").unwrap();
    assert_eq!(auto["allowed"], true);
    assert!(
        ms.iter().any(|m| m["allowed"] == false),
        "some models are not on the free plan"
    );
    for m in ms {
        assert!(["reasoning", "balanced", "fast"].contains(&m["tier"].as_str().unwrap()));
        assert!(["free", "$", "$$", "$$$"].contains(&m["costTier"].as_str().unwrap()));
        assert!(m["name"].is_string() && m["provider"].is_string());
        let id = m["id"].as_str().unwrap();
        assert!(id == "auto" || id.contains('/'));
    }
    let providers: std::collections::HashSet<&str> =
        ms.iter().map(|m| m["provider"].as_str().unwrap()).collect();
    assert_eq!(providers.len(), 6);
    let (_, b) = send(p.get("/v1/agents/models", "ada")).await;
    assert!(b["models"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["allowed"] == true));
}
