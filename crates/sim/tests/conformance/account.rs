//! Account, models, keys, uploads, the identity provider, limits and faults.

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

#[tokio::test]
async fn uploads_store_safe_names_mime_and_enforce_limits() {
    let p = start().await;
    let (s, b) = send(
        p.post("/v1/agents/upload", "ada")
            .header("x-filename", "my%20report%20(1).pdf")
            .header("content-type", "text/plain")
            .body("%PDF-1.4"),
    )
    .await;
    assert_eq!(s, 200);
    let name = b["name"].as_str().unwrap();
    assert!(
        name.starts_with("my_report__1_-") && name.ends_with(".pdf"),
        "{name}"
    );
    assert_eq!(b["path"], format!("uploads/{name}"));
    assert_eq!(b["mime"], "application/pdf", "Content-Type is ignored");
    assert_eq!(b["size"], 8);
    assert!(b["fileId"].is_string());
    let (_, b) = send(
        p.post("/v1/agents/upload", "ada")
            .header("x-filename", "tool.exe")
            .body("MZ"),
    )
    .await;
    assert_eq!(b["mime"], "application/octet-stream");
    let (s, b) = send(p.post("/v1/agents/upload", "ada").body("data")).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (400, Some("x-filename header is required."))
    );
    let (s, _) = send(
        p.post("/v1/agents/upload", "ada")
            .header("x-filename", "empty.txt")
            .body(""),
    )
    .await;
    assert_eq!(s, 400);
    let big = vec![0u8; 25 * 1024 * 1024 + 1];
    let (s, b) = send(
        p.post("/v1/agents/upload", "ada")
            .header("x-filename", "big.bin")
            .body(big),
    )
    .await;
    assert_eq!(
        (s, b["error"].as_str()),
        (413, Some("File too large. Maximum is 25MB."))
    );
    // Free plan quota is 30 MB.
    let part = vec![1u8; 20 * 1024 * 1024];
    let (s, _) = send(
        p.post("/v1/agents/upload", "fred")
            .header("x-filename", "a.bin")
            .body(part.clone()),
    )
    .await;
    assert_eq!(s, 200);
    let (s, b) = send(
        p.post("/v1/agents/upload", "fred")
            .header("x-filename", "b.bin")
            .body(part),
    )
    .await;
    assert_eq!(
        (s, b["error"].as_str()),
        (409, Some("storage_quota_exceeded"))
    );
    for _ in 0..30 {
        p.post("/v1/agents/upload", "ulla")
            .header("x-filename", "n.txt")
            .body("x")
            .send()
            .await
            .unwrap();
    }
    let res = p
        .post("/v1/agents/upload", "ulla")
        .header("x-filename", "n.txt")
        .body("x")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 429);
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
async fn oauth_code_flow_with_pkce_issues_a_working_id_token() {
    use base64::Engine;
    use sha2::Digest;
    let p = start().await;
    let verifier = "a-long-random-verifier-string-for-pkce-0123456789";
    let challenge =
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(verifier));
    let redirect = "http://127.0.0.1:9/callback";
    let page = p
        .http
        .get(p.url("/oauth/authorize"))
        .query(&[
            ("response_type", "code"),
            ("client_id", "porthole"),
            ("redirect_uri", redirect),
            ("state", "xyz"),
            ("code_challenge", &challenge),
            ("code_challenge_method", "S256"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(page.status().as_u16(), 200);
    assert!(page.text().await.unwrap().contains("fred"));
    let no_redirect = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let res = no_redirect
        .post(p.url("/oauth/authorize"))
        .form(&[
            ("account", "fred"),
            ("client_id", "porthole"),
            ("redirect_uri", redirect),
            ("state", "xyz"),
            ("code_challenge", &challenge),
            ("code_challenge_method", "S256"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 302);
    let loc = url::Url::parse(res.headers()["location"].to_str().unwrap()).unwrap();
    let q: std::collections::HashMap<_, _> = loc.query_pairs().into_owned().collect();
    assert_eq!(q["state"], "xyz");
    let code = q["code"].clone();
    let form = |v: &str| {
        vec![
            ("grant_type", "authorization_code".to_owned()),
            ("code", code.clone()),
            ("redirect_uri", redirect.to_owned()),
            ("code_verifier", v.to_owned()),
            ("client_id", "porthole".to_owned()),
        ]
    };
    let (s, _) = send(
        p.http
            .post(p.url("/oauth/token"))
            .form(&form("wrong-verifier")),
    )
    .await;
    assert_eq!(s, 400, "a wrong verifier is refused (and burns the code)");
    // A fresh code with the right verifier.
    let res = no_redirect
        .post(p.url("/oauth/authorize"))
        .form(&[
            ("account", "fred"),
            ("client_id", "porthole"),
            ("redirect_uri", redirect),
            ("state", "s2"),
            ("code_challenge", &challenge),
            ("code_challenge_method", "S256"),
        ])
        .send()
        .await
        .unwrap();
    let loc = url::Url::parse(res.headers()["location"].to_str().unwrap()).unwrap();
    let code2 = loc
        .query_pairs()
        .find(|(k, _)| k == "code")
        .unwrap()
        .1
        .into_owned();
    let form2 = vec![
        ("grant_type", "authorization_code"),
        ("code", &code2),
        ("redirect_uri", redirect),
        ("code_verifier", verifier),
        ("client_id", "porthole"),
    ];
    let (s, b) = send(p.http.post(p.url("/oauth/token")).form(&form2)).await;
    assert_eq!(s, 200);
    assert_eq!(b["token_type"], "Bearer");
    assert!(b["expires_in"].as_i64().unwrap() > 0);
    let (s, who) = send(
        p.http
            .get(p.url("/v1/agents/auth"))
            .bearer_auth(b["id_token"].as_str().unwrap()),
    )
    .await;
    assert_eq!((s, who["authType"].as_str()), (200, Some("idp")));
    assert_eq!(who["userId"], p.account("fred").user_id.as_str());
    let (s, _) = send(p.http.post(p.url("/oauth/token")).form(&form2)).await;
    assert_eq!(s, 400, "codes are single-use");
    let bad = p
        .http
        .get(p.url("/oauth/authorize"))
        .query(&[
            ("response_type", "code"),
            ("redirect_uri", "https://evil.example/cb"),
            ("code_challenge", "x"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status().as_u16(), 400, "only loopback redirects");
}

#[tokio::test]
async fn faults_inject_500_429_and_cut_streams() {
    let p = start_with(Config {
        time_scale: TIME_SCALE,
        faults: FaultSpec::parse("http-500=1").unwrap(),
        seed: 1,
        ..Config::default()
    })
    .await;
    let (s, b) = send(p.get("/v1/agents/models", "ada")).await;
    assert_eq!((s, b["error"].as_str()), (500, Some("internal_error")));
    let p = start_with(Config {
        time_scale: TIME_SCALE,
        faults: FaultSpec::parse("http-429=1").unwrap(),
        seed: 1,
        ..Config::default()
    })
    .await;
    let res = p.get("/v1/agents/models", "ada").send().await.unwrap();
    assert_eq!(res.status().as_u16(), 429);
    assert_eq!(res.headers()["retry-after"], "1");
    let p = start_with(Config {
        time_scale: TIME_SCALE,
        faults: FaultSpec::parse("drop-stream=1").unwrap(),
        seed: 1,
        ..Config::default()
    })
    .await;
    let m = p.machine_id("ada", "Design laptop").await;
    let (s, _, frames) = sse(p
        .post("/v1/agents/message", "ada")
        .json(&json!({"message": "Weather", "machineId": m})))
    .await;
    assert_eq!(s, 200);
    assert_eq!(frames.len(), 1, "cut after the first frame");
    assert!(!frames.iter().any(|f| f == "[DONE]"));
    let p = start_with(Config {
        time_scale: TIME_SCALE,
        faults: FaultSpec::parse("bad-frame=1").unwrap(),
        seed: 1,
        ..Config::default()
    })
    .await;
    let (_, _, frames) = sse(p
        .post("/v1/agents/message", "ada")
        .json(&json!({"message": "Weather", "machineId": m_of(&p).await})))
    .await;
    assert!(frames.iter().any(|f| f == "{not json"));
}

async fn m_of(p: &Peer) -> String {
    p.machine_id("ada", "Design laptop").await
}
