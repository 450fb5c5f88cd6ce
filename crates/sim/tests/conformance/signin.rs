//! The simulator as identity provider: OAuth 2.0 authorization code with PKCE.
use crate::support::*;

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

/// Signs `account` in through the code flow and returns the token endpoint's answer.
async fn sign_in(p: &Peer, account: &str) -> serde_json::Value {
    use base64::Engine;
    use sha2::Digest;
    let verifier = "another-long-random-verifier-for-pkce-0123456789";
    let challenge =
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(verifier));
    let redirect = "http://127.0.0.1:9/callback";
    let no_redirect = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let res = no_redirect
        .post(p.url("/oauth/authorize"))
        .form(&[
            ("account", account),
            ("client_id", "porthole"),
            ("redirect_uri", redirect),
            ("state", "s"),
            ("code_challenge", &challenge),
            ("code_challenge_method", "S256"),
        ])
        .send()
        .await
        .unwrap();
    let loc = url::Url::parse(res.headers()["location"].to_str().unwrap()).unwrap();
    let code = loc.query_pairs().find(|(k, _)| k == "code").unwrap().1;
    let (s, b) = send(p.http.post(p.url("/oauth/token")).form(&[
        ("grant_type", "authorization_code"),
        ("code", &code),
        ("redirect_uri", redirect),
        ("code_verifier", verifier),
        ("client_id", "porthole"),
    ]))
    .await;
    assert_eq!(s, 200, "{b}");
    b
}

fn claims(token: &str) -> serde_json::Value {
    use base64::Engine;
    let payload = token.split('.').nth(1).unwrap();
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload)
        .unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

async fn auth_status(p: &Peer, token: &str) -> u16 {
    send(p.http.get(p.url("/v1/agents/auth")).bearer_auth(token))
        .await
        .0
}

#[tokio::test]
async fn a_signed_in_token_lives_a_scaled_hour_and_its_refresh_token_renews_it() {
    // An hour is 3.6 s here.
    let p = start_with(porthole_sim::Config {
        time_scale: 0.001,
        ..porthole_sim::Config::default()
    })
    .await;
    let first = sign_in(&p, "ada").await;
    let id_token = first["id_token"].as_str().unwrap().to_owned();
    let refresh_token = first["refresh_token"].as_str().unwrap().to_owned();
    assert!(!refresh_token.is_empty());
    assert_eq!(first["expires_in"], 3, "the scaled hour, in whole seconds");
    let c = claims(&id_token);
    let lifetime = c["exp"].as_i64().unwrap() - c["iat"].as_i64().unwrap();
    assert!((3..=4).contains(&lifetime), "exp says a scaled hour: {c}");
    assert_eq!(auth_status(&p, &id_token).await, 200);

    // Until the service refuses it: then it has expired, as its `exp` said.
    let mut refused = false;
    for _ in 0..120 {
        if auth_status(&p, &id_token).await == 401 {
            refused = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
    assert!(refused, "the token expired");
    let now_s = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    assert!(now_s >= c["exp"].as_i64().unwrap(), "never before its exp");

    let refresh = |token: &str, client: &str| {
        p.http.post(p.url("/oauth/token")).form(&[
            ("grant_type", "refresh_token".to_owned()),
            ("refresh_token", token.to_owned()),
            ("client_id", client.to_owned()),
        ])
    };
    let (s, renewed) = send(refresh(&refresh_token, "porthole")).await;
    assert_eq!(s, 200, "{renewed}");
    let new_token = renewed["id_token"].as_str().unwrap();
    assert_ne!(new_token, id_token);
    assert_eq!(renewed["refresh_token"], refresh_token.as_str());
    assert_eq!(renewed["token_type"], "Bearer");
    let (s, who) = send(p.http.get(p.url("/v1/agents/auth")).bearer_auth(new_token)).await;
    assert_eq!((s, who["authType"].as_str()), (200, Some("idp")));
    assert_eq!(who["userId"], p.account("ada").user_id.as_str());

    let (s, b) = send(refresh("rt_unknown", "porthole")).await;
    assert_eq!((s, b["error"].as_str()), (400, Some("invalid_grant")));
    let (s, b) = send(refresh(&refresh_token, "someone-else")).await;
    assert_eq!((s, b["error"].as_str()), (400, Some("invalid_client")));
    let (s, b) = send(
        p.http
            .post(p.url("/oauth/token"))
            .form(&[("grant_type", "password")]),
    )
    .await;
    assert_eq!(
        (s, b["error"].as_str()),
        (400, Some("unsupported_grant_type"))
    );
}

#[tokio::test]
async fn the_ready_line_tokens_last_the_whole_run() {
    let p = start_with(porthole_sim::Config {
        time_scale: 0.001,
        ..porthole_sim::Config::default()
    })
    .await;
    let c = claims(&p.account("ada").id_token);
    let lifetime = c["exp"].as_i64().unwrap() - c["iat"].as_i64().unwrap();
    assert!(lifetime >= 24 * 3600 - 1, "{c}");
}
