//! The simulator as the real service's sign-in: Google's OAuth 2.0 for desktop apps
//! (authorization code + PKCE, loopback redirect), then Firebase's `signInWithIdp` and
//! Secure Token refresh, with the refusals the real ones make that Porthole meets.
use crate::support::*;
use porthole_sim::idp::{
    FIREBASE_API_KEY, GOOGLE_AUTHORIZE_PATH, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET,
    GOOGLE_TOKEN_PATH,
};
use serde_json::{json, Value};

const REDIRECT: &str = "http://127.0.0.1:9";
const VERIFIER: &str = "a-long-random-verifier-string-for-pkce-0123456789";

fn challenge(verifier: &str) -> String {
    use base64::Engine;
    use sha2::Digest;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(verifier))
}

fn no_redirect() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

/// What the app puts in the authorize URL (and the page posts back with the choice).
fn authorize_params(redirect: &str) -> Vec<(&'static str, String)> {
    vec![
        ("client_id", GOOGLE_CLIENT_ID.into()),
        ("redirect_uri", redirect.into()),
        ("response_type", "code".into()),
        ("scope", "openid email profile".into()),
        ("state", "xyz".into()),
        ("code_challenge", challenge(VERIFIER)),
        ("code_challenge_method", "S256".into()),
    ]
}

/// The person chooses `account` on the sign-in page; returns the redirect's query.
async fn choose(p: &Peer, account: &str) -> std::collections::HashMap<String, String> {
    let mut form = authorize_params(REDIRECT);
    form.push(("account", account.into()));
    let res = no_redirect()
        .post(p.url(GOOGLE_AUTHORIZE_PATH))
        .form(&form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 302);
    let loc = url::Url::parse(res.headers()["location"].to_str().unwrap()).unwrap();
    assert!(loc.as_str().starts_with(REDIRECT), "{loc}");
    loc.query_pairs().into_owned().collect()
}

fn token_form(code: &str, verifier: &str) -> Vec<(&'static str, String)> {
    vec![
        ("code", code.into()),
        ("client_id", GOOGLE_CLIENT_ID.into()),
        ("client_secret", GOOGLE_CLIENT_SECRET.into()),
        ("code_verifier", verifier.into()),
        ("redirect_uri", REDIRECT.into()),
        ("grant_type", "authorization_code".into()),
    ]
}

async fn google_token(p: &Peer, form: &[(&str, String)]) -> (u16, Value) {
    send(p.http.post(p.url(GOOGLE_TOKEN_PATH)).form(form)).await
}

async fn sign_in_with_idp(p: &Peer, key: &str, google_id_token: &str) -> (u16, Value) {
    send(
        p.http
            .post(p.url("/identitytoolkit/v1/accounts:signInWithIdp"))
            .query(&[("key", key)])
            .json(&json!({
                "postBody": format!("id_token={google_id_token}&providerId=google.com"),
                "requestUri": "http://localhost",
                "returnIdpCredential": true,
                "returnSecureToken": true,
            })),
    )
    .await
}

async fn refresh(p: &Peer, key: &str, refresh_token: &str) -> (u16, Value) {
    send(
        p.http
            .post(p.url("/securetoken/v1/token"))
            .query(&[("key", key)])
            .form(&[
                ("grant_type", "refresh_token"),
                ("refresh_token", refresh_token),
            ]),
    )
    .await
}

async fn auth(p: &Peer, token: &str) -> (u16, Value) {
    send(p.http.get(p.url("/v1/agents/auth")).bearer_auth(token)).await
}

/// Google then Firebase, as the app does; returns Firebase's answer.
async fn sign_in(p: &Peer, account: &str) -> Value {
    let code = choose(p, account).await["code"].clone();
    let (s, google) = google_token(p, &token_form(&code, VERIFIER)).await;
    assert_eq!(s, 200, "{google}");
    let (s, firebase) =
        sign_in_with_idp(p, FIREBASE_API_KEY, google["id_token"].as_str().unwrap()).await;
    assert_eq!(s, 200, "{firebase}");
    firebase
}

#[tokio::test]
async fn google_code_flow_with_pkce_then_firebase_yields_an_identity_provider_session() {
    let p = start().await;
    let page = p
        .http
        .get(p.url(GOOGLE_AUTHORIZE_PATH))
        .query(&authorize_params(REDIRECT))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status().as_u16(), 200);
    assert!(page.text().await.unwrap().contains("Sign in as fred"));

    let q = choose(&p, "fred").await;
    assert_eq!(q["state"], "xyz");
    let code = q["code"].clone();
    let (s, b) = google_token(&p, &token_form(&code, "wrong-verifier")).await;
    assert_eq!(
        (s, b["error"].as_str()),
        (400, Some("invalid_grant")),
        "a wrong verifier is refused"
    );
    let (s, _) = google_token(&p, &token_form(&code, VERIFIER)).await;
    assert_eq!(s, 400, "and the code it was tried with is spent");

    let code = choose(&p, "fred").await["code"].clone();
    let mut wrong_secret = token_form(&code, VERIFIER);
    wrong_secret[2].1 = "guess".into();
    let (s, b) = google_token(&p, &wrong_secret).await;
    assert_eq!((s, b["error"].as_str()), (401, Some("invalid_client")));

    let code = choose(&p, "fred").await["code"].clone();
    let (s, google) = google_token(&p, &token_form(&code, VERIFIER)).await;
    assert_eq!(s, 200, "{google}");
    assert_eq!(google["token_type"], "Bearer");
    let google_id = google["id_token"].as_str().unwrap();
    let (s, _) = google_token(&p, &token_form(&code, VERIFIER)).await;
    assert_eq!(s, 400, "codes are single-use");
    let (s, _) = auth(&p, google_id).await;
    assert_eq!(s, 401, "a Google ID token is not a session at the service");

    let (s, b) = sign_in_with_idp(&p, "not-the-key", google_id).await;
    assert_eq!(s, 400);
    assert_eq!(b["error"]["details"][0]["reason"], "API_KEY_INVALID", "{b}");
    let (s, _) = sign_in_with_idp(&p, "", google_id).await;
    assert_eq!(s, 403, "no key, no call");
    let (s, b) = sign_in_with_idp(&p, FIREBASE_API_KEY, "made.up.token").await;
    assert_eq!(s, 400);
    assert!(
        b["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("INVALID_IDP_RESPONSE"),
        "{b}"
    );

    let (s, firebase) = sign_in_with_idp(&p, FIREBASE_API_KEY, google_id).await;
    assert_eq!(s, 200, "{firebase}");
    assert_eq!(firebase["providerId"], "google.com");
    assert_eq!(firebase["localId"], p.account("fred").user_id.as_str());
    assert!(firebase["expiresIn"].is_string(), "seconds as a string");
    let (s, who) = auth(&p, firebase["idToken"].as_str().unwrap()).await;
    assert_eq!((s, who["authType"].as_str()), (200, Some("idp")));
    assert_eq!(who["userId"], p.account("fred").user_id.as_str());
}

#[tokio::test]
async fn the_sign_in_page_takes_only_the_simulators_client_loopback_and_s256() {
    let p = start().await;
    let refused = |params: Vec<(&'static str, String)>| {
        let p = &p;
        async move {
            p.http
                .get(p.url(GOOGLE_AUTHORIZE_PATH))
                .query(&params)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    assert_eq!(
        refused(authorize_params("https://evil.example/cb")).await,
        400
    );
    let mut other_client = authorize_params(REDIRECT);
    other_client[0].1 = "someone-else".into();
    assert_eq!(refused(other_client).await, 400);
    let mut plain = authorize_params(REDIRECT);
    plain[6].1 = "plain".into();
    assert_eq!(refused(plain).await, 400);
    let mut form = authorize_params("https://evil.example/cb");
    form.push(("account", "ada".into()));
    let res = no_redirect()
        .post(p.url(GOOGLE_AUTHORIZE_PATH))
        .form(&form)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 400, "no code sent off the machine");
}

fn claims(token: &str) -> Value {
    use base64::Engine;
    let payload = token.split('.').nth(1).unwrap();
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload)
        .unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

#[tokio::test]
async fn a_firebase_token_lives_a_scaled_hour_and_its_refresh_token_renews_it() {
    // An hour is 3.6 s here.
    let p = start_with(porthole_sim::Config {
        time_scale: 0.001,
        ..porthole_sim::Config::default()
    })
    .await;
    let first = sign_in(&p, "ada").await;
    let id_token = first["idToken"].as_str().unwrap().to_owned();
    let refresh_token = first["refreshToken"].as_str().unwrap().to_owned();
    assert!(!refresh_token.is_empty());
    assert_eq!(first["expiresIn"], "3", "the scaled hour, in whole seconds");
    let c = claims(&id_token);
    let lifetime = c["exp"].as_i64().unwrap() - c["iat"].as_i64().unwrap();
    assert!((3..=4).contains(&lifetime), "exp says a scaled hour: {c}");
    assert_eq!(auth(&p, &id_token).await.0, 200);

    // Until the service refuses it: then it has expired, as its `exp` said.
    let mut refused = false;
    for _ in 0..120 {
        if auth(&p, &id_token).await.0 == 401 {
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

    let (s, renewed) = refresh(&p, FIREBASE_API_KEY, &refresh_token).await;
    assert_eq!(s, 200, "{renewed}");
    let new_token = renewed["id_token"].as_str().unwrap();
    assert_ne!(new_token, id_token);
    assert_eq!(renewed["refresh_token"], refresh_token.as_str());
    assert_eq!(renewed["expires_in"], "3");
    assert_eq!(renewed["user_id"], p.account("ada").user_id.as_str());
    let (s, who) = auth(&p, new_token).await;
    assert_eq!((s, who["authType"].as_str()), (200, Some("idp")));
    assert_eq!(who["userId"], p.account("ada").user_id.as_str());

    let (s, b) = refresh(&p, FIREBASE_API_KEY, "rt_unknown").await;
    assert_eq!(
        (s, b["error"]["message"].as_str()),
        (400, Some("INVALID_REFRESH_TOKEN"))
    );
    let (s, b) = refresh(&p, "not-the-key", &refresh_token).await;
    assert_eq!(s, 400);
    assert_eq!(b["error"]["details"][0]["reason"], "API_KEY_INVALID");
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
