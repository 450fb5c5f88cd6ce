//! Authentication basics and the check-a-key endpoint.

use crate::support::*;
use reqwest::Method;

#[tokio::test]
async fn key_and_token_both_authenticate_with_their_auth_type() {
    let p = start().await;
    let ada = p.account("ada").user_id.clone();
    let (s, b) = send(p.req(Method::GET, "/v1/agents/auth", "ada", Cred::Key)).await;
    assert_eq!(s, 200);
    assert_eq!(b["ok"], true);
    assert_eq!(b["userId"], ada);
    assert_eq!(b["authType"], "apiKey");
    let (s, b) = send(p.req(Method::GET, "/v1/agents/auth", "ada", Cred::Token)).await;
    assert_eq!(s, 200);
    assert_eq!(b["authType"], "idp");
}

#[tokio::test]
async fn missing_unknown_or_junk_credentials_are_401() {
    let p = start().await;
    let (s, _) = send(p.req(Method::GET, "/v1/agents/auth", "ada", Cred::None)).await;
    assert_eq!(s, 401);
    let (s, b) = send(
        p.http
            .get(p.url("/v1/agents/auth"))
            .bearer_auth("phk_sim_nope"),
    )
    .await;
    assert_eq!(s, 401);
    assert!(b["error"].is_string());
    let (s, _) = send(
        p.http
            .get(p.url("/v1/agents/auth"))
            .header("authorization", "Basic Zm9vOmJhcg=="),
    )
    .await;
    assert_eq!(s, 401);
}
