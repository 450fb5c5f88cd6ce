//! The whole browser sign-in against the simulator over real sockets: Google's page, code and
//! token endpoint, then Firebase's exchange and refresh, and the refusals as the app meets
//! them.

use crate::error::{Error, InputError};
use crate::firebase::{self, SignedIn};
use crate::google::{exchange_code, AuthorizeRequest};
use crate::oauth::Pkce;
use crate::{Credential, Secret, SignInConfig};
use porthole_sim::idp;

fn sim_config(base: &str) -> SignInConfig {
    SignInConfig {
        google_client_id: idp::GOOGLE_CLIENT_ID.into(),
        google_client_secret: Secret::new(idp::GOOGLE_CLIENT_SECRET),
        firebase_api_key: Secret::new(idp::FIREBASE_API_KEY),
        google_authorize_url: format!("{base}{}", idp::GOOGLE_AUTHORIZE_PATH),
        google_token_url: format!("{base}{}", idp::GOOGLE_TOKEN_PATH),
        identity_toolkit_base: format!("{base}{}", idp::IDENTITY_TOOLKIT_BASE),
        secure_token_base: format!("{base}{}", idp::SECURE_TOKEN_BASE),
    }
}

/// The person's part in the browser: loads the page the app opened, chooses `ada`; returns
/// the code the redirect carries.
async fn code_from_browser(authorize_url: &str) -> String {
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let page = http.get(authorize_url).send().await.unwrap();
    assert!(page.text().await.unwrap().contains("Sign in as ada"));
    let url = url::Url::parse(authorize_url).unwrap();
    let mut form: Vec<(String, String)> = url.query_pairs().into_owned().collect();
    form.push(("account".into(), "ada".into()));
    let chosen = http
        .post(authorize_url.split('?').next().unwrap())
        .form(&form)
        .send()
        .await
        .unwrap();
    let back = url::Url::parse(chosen.headers()["location"].to_str().unwrap()).unwrap();
    let code = back.query_pairs().find(|(k, _)| k == "code").unwrap().1;
    code.into_owned()
}

fn refused_because(err: &Error) -> &str {
    match err {
        Error::Input(InputError::Invalid { field, reason }) if *field == "sign-in" => reason,
        other => panic!("not a sign-in refusal: {other:?}"),
    }
}

#[tokio::test]
async fn google_then_firebase_signs_in_and_the_refresh_token_renews_it() {
    let sim = porthole_sim::Sim::start(porthole_sim::Config {
        time_scale: 0.01,
        ..porthole_sim::Config::default()
    })
    .await
    .unwrap();
    let config = sim_config(&sim.base_url);
    let redirect_uri = "http://127.0.0.1:9";
    let pkce = Pkce::generate();
    let url = AuthorizeRequest {
        config: &config,
        redirect_uri,
        state: "st",
        challenge: pkce.challenge(),
    }
    .url()
    .unwrap();
    let code = code_from_browser(&url).await;
    let google = exchange_code(&config, &code, redirect_uri, pkce.verifier())
        .await
        .unwrap();
    let again = exchange_code(&config, &code, redirect_uri, pkce.verifier())
        .await
        .unwrap_err();
    assert_eq!(
        refused_because(&again),
        "invalid_grant",
        "a code is single-use"
    );

    let wrong_key = SignInConfig {
        firebase_api_key: Secret::new("guess"),
        ..config.clone()
    };
    let refused = firebase::sign_in_with_google(&wrong_key, &google.id_token)
        .await
        .unwrap_err();
    assert_eq!(refused_because(&refused), "API_KEY_INVALID");

    let signed_in: SignedIn = firebase::sign_in_with_google(&config, &google.id_token)
        .await
        .unwrap();
    assert_eq!(signed_in.expires_in, Some(36), "a scaled hour");
    let refresh_token = signed_in.refresh_token.expect("a refresh token");
    let renewed = firebase::refresh(&config, &refresh_token).await.unwrap();
    assert_ne!(renewed.id_token, signed_in.id_token);
    let client = crate::Client::new(&sim.base_url, Credential::IdToken(renewed.id_token)).unwrap();
    let check = client.auth().check().await.unwrap();
    assert_eq!(check.auth_type, crate::auth::AuthType::Idp);
    client.keys().list().await.expect("key management works");

    let refused = firebase::refresh(&config, &Secret::new("rt_unknown"))
        .await
        .unwrap_err();
    assert_eq!(refused_because(&refused), "INVALID_REFRESH_TOKEN");
    let not_google = firebase::sign_in_with_google(&config, &Secret::new("a.b.c"))
        .await
        .unwrap_err();
    assert_eq!(refused_because(&not_google), "INVALID_IDP_RESPONSE");
}
