//! Signing in with the identity provider: in the browser (authorization code + PKCE, loopback
//! redirect) or by pasting a token. Either way the token is checked with the service before
//! it is kept (see `identity`).

use std::time::Duration;

use porthole_client::auth::AuthType;
use porthole_client::oauth::{exchange_code, random_url_safe, AuthorizeRequest, Pkce};
use porthole_client::{Client, Credential, Secret};
use tauri::AppHandle;

use super::identity::{self, IdentityInfo};
use super::redirect_catcher::{CatchError, RedirectCatcher};
use crate::error::{AppError, AppResult, UiAction, UiError};

/// How long the browser may take: enough to type a password and a second factor.
pub const BROWSER_TIMEOUT: Duration = Duration::from_secs(5 * 60);

/// Runs the browser half of sign-in: `open` shows the provider's page (the system browser in
/// the app, a scripted request in tests); returns the ID token the code was traded for.
pub async fn browser_token(
    issuer: &str,
    open: impl FnOnce(String) -> AppResult<()>,
    timeout: Duration,
) -> AppResult<Secret> {
    let catcher = RedirectCatcher::bind().await.map_err(sign_in_failed)?;
    let redirect_uri = catcher.redirect_uri().to_owned();
    let pkce = Pkce::generate();
    let state = random_url_safe(24);
    let url = AuthorizeRequest {
        issuer,
        redirect_uri: &redirect_uri,
        state: &state,
        challenge: pkce.challenge(),
    }
    .url()?;
    open(url)?;
    let code = catcher
        .catch(&state, timeout)
        .await
        .map_err(sign_in_failed)?;
    let signed_in = exchange_code(issuer, &code, &redirect_uri, pkce.verifier()).await?;
    Ok(signed_in.id_token)
}

/// Whether anything answers at the sign-in address; `None` when it is not an address at all
/// (the authorize URL then says so). Asked before the browser is opened: a browser sent to
/// a dead address shows its own error page, and Porthole would wait minutes for a sign-in
/// that cannot come back.
pub async fn issuer_answers(issuer: &str) -> Option<bool> {
    let url = url::Url::parse(issuer.trim()).ok()?;
    let host = url.host_str()?.to_owned();
    let port = url.port_or_known_default()?;
    let reach = async {
        let addrs = tokio::net::lookup_host(format!("{host}:{port}"))
            .await
            .ok()?;
        for addr in addrs {
            if tokio::net::TcpStream::connect(addr).await.is_ok() {
                return Some(());
            }
        }
        None
    };
    Some(matches!(
        tokio::time::timeout(ISSUER_PROBE_TIMEOUT, reach).await,
        Ok(Some(()))
    ))
}

const ISSUER_PROBE_TIMEOUT: Duration = Duration::from_secs(8);

/// What the page says when the sign-in address does not answer, and the way out.
pub fn issuer_unreachable() -> UiError {
    UiError::new(
        "sign_in_unreachable",
        "Can't reach the sign-in page",
        "Porthole could not reach the sign-in address, so it did not open your browser. Check the address (leave “Sign-in address” empty to use the service's own) and your internet connection, then try again, or paste a sign-in token instead.",
        Some(UiAction::Retry),
    )
}

fn sign_in_failed(err: CatchError) -> AppError {
    match err {
        CatchError::TimedOut => AppError::SignInTimedOut,
        CatchError::Refused(_) => AppError::SignInCancelled,
        CatchError::Listen(e) => AppError::SignInUnavailable(e),
    }
}

/// Checks that `token` is an identity-provider session on `base_url`, then keeps it.
pub async fn accept_token(
    app: &AppHandle,
    base_url: &str,
    token: Secret,
) -> AppResult<IdentityInfo> {
    let base_url = base_url.trim().trim_end_matches('/').to_owned();
    let credential = Credential::id_token(token.expose())?;
    let client = Client::new(&base_url, credential)?;
    let check = client.auth().check().await?;
    if check.auth_type != AuthType::Idp {
        // An API key pasted where a sign-in token belongs.
        return Err(AppError::NotASignInToken);
    }
    identity::remember(app, &base_url, token).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use porthole_sim::{Config, Sim};

    /// Plays the person in the browser: picks `account` on the simulator's sign-in page and
    /// follows its redirect to the app's loopback address.
    fn browser_choosing(account: &'static str) -> impl FnOnce(String) -> AppResult<()> {
        move |authorize_url: String| {
            tokio::spawn(async move {
                let http = reqwest::Client::builder()
                    .redirect(reqwest::redirect::Policy::none())
                    .build()
                    .unwrap();
                let page = http.get(&authorize_url).send().await.unwrap();
                assert!(page.status().is_success());
                let url = url::Url::parse(&authorize_url).unwrap();
                let mut form: Vec<(String, String)> = url.query_pairs().into_owned().collect();
                form.push(("account".into(), account.into()));
                let chosen = http
                    .post(url.as_str().split('?').next().unwrap())
                    .form(&form)
                    .send()
                    .await
                    .unwrap();
                assert_eq!(chosen.status(), 302);
                let back = chosen.headers()["location"].to_str().unwrap().to_owned();
                let closing = http.get(back).send().await.unwrap().text().await.unwrap();
                assert!(closing.contains("You can close this tab"));
            });
            Ok(())
        }
    }

    #[tokio::test]
    async fn browser_sign_in_against_the_simulator_yields_a_working_id_token() {
        let sim = Sim::start(Config {
            time_scale: 0.01,
            ..Config::default()
        })
        .await
        .unwrap();
        let token = browser_token(
            &sim.base_url,
            browser_choosing("ada"),
            Duration::from_secs(20),
        )
        .await
        .unwrap();
        let client = Client::new(&sim.base_url, Credential::IdToken(token)).unwrap();
        let check = client.auth().check().await.unwrap();
        assert_eq!(check.auth_type, AuthType::Idp);
        assert_eq!(check.user_id, sim.account("ada").user_id);
        // The token is good for what only a sign-in may do.
        client.keys().list().await.unwrap();
    }

    #[tokio::test]
    async fn the_sign_in_address_is_checked_before_the_browser_opens() {
        let sim = Sim::start(Config::default()).await.unwrap();
        assert_eq!(issuer_answers(&sim.base_url).await, Some(true));
        // A port nothing listens on: bound, then released.
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let dead = format!("http://{}", closed.local_addr().unwrap());
        drop(closed);
        assert_eq!(issuer_answers(&dead).await, Some(false));
        assert_eq!(issuer_answers("not an address").await, None);
        let words = issuer_unreachable();
        assert!(!words.detail.contains(&dead), "no address echoed back");
    }

    #[tokio::test]
    async fn nobody_signing_in_times_out() {
        let sim = Sim::start(Config::default()).await.unwrap();
        let result = browser_token(&sim.base_url, |_| Ok(()), Duration::from_millis(100)).await;
        assert!(matches!(result, Err(AppError::SignInTimedOut)));
    }
}
