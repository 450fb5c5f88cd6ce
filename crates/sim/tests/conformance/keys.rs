//! API keys: identity-provider sessions only, plan limits, revoke, rate limit.
use crate::support::*;
use porthole_sim::Config;
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn keys_need_an_id_token_and_follow_plan_limits() {
    let p = start().await;
    let (s, b) = send(
        p.req(Method::POST, "/v1/account/keys", "ada", Cred::Key)
            .json(&json!({})),
    )
    .await;
    assert_eq!(s, 403);
    assert!(b["error"].is_string());
    let tok = |m: Method, path: &str, who: &str| p.req(m, path, who, Cred::Token);
    let (s, created) =
        send(tok(Method::POST, "/v1/account/keys", "ada").json(&json!({"name": "laptop"}))).await;
    assert_eq!(s, 201);
    let key = created["key"].as_str().unwrap().to_owned();
    assert!(created["keyId"].as_str().unwrap().starts_with("k_"));
    assert_eq!(created["name"], "laptop");
    let (s, b) = send(p.http.get(p.url("/v1/agents/auth")).bearer_auth(&key)).await;
    assert_eq!((s, b["authType"].as_str()), (200, Some("apiKey")));
    let (s, list) = send(tok(Method::GET, "/v1/account/keys", "ada")).await;
    assert_eq!(s, 200);
    let keys = list["keys"].as_array().unwrap();
    assert_eq!(keys[0]["keyId"], created["keyId"], "newest first");
    assert!(keys[0]["lastUsedAt"].is_number());
    assert!(!list.to_string().contains(&key), "secrets are never listed");
    let id = created["keyId"].as_str().unwrap();
    let res = tok(Method::DELETE, &format!("/v1/account/keys/{id}"), "ada")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 204);
    let (s, _) = send(p.http.get(p.url("/v1/agents/auth")).bearer_auth(&key)).await;
    assert_eq!(s, 401, "a revoked key fails on its next use");
    let (s, b) = send(tok(
        Method::DELETE,
        &format!("/v1/account/keys/{id}"),
        "ada",
    ))
    .await;
    assert_eq!((s, b["error"].as_str()), (404, Some("API key not found.")));
    let (s, _) =
        send(tok(Method::POST, "/v1/account/keys", "ada").json(&json!({"name": "x".repeat(101)})))
            .await;
    assert_eq!(s, 400);
    for _ in 0..4 {
        let (s, _) = send(tok(Method::POST, "/v1/account/keys", "ada").json(&json!({}))).await;
        assert_eq!(s, 201);
    }
    let res = tok(Method::POST, "/v1/account/keys", "ada")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 429);
    assert!(res.headers().get("retry-after").is_some());
    let b: serde_json::Value = res.json().await.unwrap();
    assert_eq!(
        b["error"],
        "Key generation rate limit exceeded. Maximum 5 keys per hour."
    );
    // Free plan: one live key (fred already has one); no phone: refused.
    let (s, b) = send(tok(Method::POST, "/v1/account/keys", "fred").json(&json!({}))).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (
            422,
            Some(
                "API key limit reached. Maximum 1 keys per account. Revoke an existing key first."
            )
        )
    );
    let (s, b) = send(tok(Method::POST, "/v1/account/keys", "nophone").json(&json!({}))).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (403, Some("phone_verification_required"))
    );
    assert!(b["message"].as_str().unwrap().contains("sign in again"));
}

#[tokio::test]
async fn paid_accounts_hold_at_most_twenty_keys() {
    // A very fast clock: twenty creations need four windows of the five-an-hour limit.
    let p = start_with(Config {
        time_scale: 0.0003,
        ..Config::default()
    })
    .await;
    let mut last = 0;
    for i in 0..20 {
        // Five creations an hour: wait out the scaled hour when the limit answers.
        loop {
            let res = p
                .req(Method::POST, "/v1/account/keys", "ulla", Cred::Token)
                .json(&json!({}))
                .send()
                .await
                .unwrap();
            last = res.status().as_u16();
            if last != 429 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        if i < 19 {
            assert_eq!(last, 201);
        }
    }
    assert_eq!(
        last, 422,
        "ulla had one key already, so the twentieth creation is the 21st key"
    );
}
