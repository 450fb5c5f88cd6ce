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
