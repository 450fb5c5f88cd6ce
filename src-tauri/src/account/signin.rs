//! Signing in with the identity provider: in the browser (Google's authorization code + PKCE
//! with a loopback redirect, then Firebase turns Google's ID token into the Firebase ID
//! token the service takes) or by pasting a token. Either way the token is checked with the
//! service before it is kept (see `identity`).
//!
//! A browser sign-in can be stopped by the person while Porthole waits ([`BrowserWait`]):
//! the wait's future is dropped, which closes the loopback listener at once, and nothing is
//! kept even if the browser's answer was already on its way.

use std::future::Future;
use std::time::Duration;

use porthole_client::auth::AuthType;
use porthole_client::firebase::{self, SignedIn};
use porthole_client::google::{exchange_code, AuthorizeRequest};
use porthole_client::oauth::{random_url_safe, Pkce};
use porthole_client::{Credential, Secret, SignInConfig};
use tokio::sync::oneshot;

use super::identity::{self, IdentityInfo};
use super::redirect_catcher::{CatchError, RedirectCatcher};
use super::sign_in_vault::Refresh;
use crate::connection::account_client::account_client;
use crate::connection::switchboard::Switchboard;
use crate::error::{AppError, AppResult, UiCode, UiError};

/// How long the browser may take: enough to type a password and a second factor.
pub const BROWSER_TIMEOUT: Duration = Duration::from_secs(5 * 60);

/// The browser sign-in Porthole is waiting for, so the person can stop it.
///
/// Invariant: one wait at a time; beginning a new wait stops the one before, so an
/// abandoned wait never outlives its window state.
#[derive(Default)]
pub struct BrowserWait {
    stop: std::sync::Mutex<Option<oneshot::Sender<()>>>,
}

impl BrowserWait {
    /// Starts a wait; the signal fires when it is cancelled or replaced.
    pub fn begin(&self) -> StopSignal {
        let (tx, rx) = oneshot::channel();
        // Dropping the earlier sender fires the earlier wait's signal.
        *self.stop.lock().unwrap_or_else(|e| e.into_inner()) = Some(tx);
        StopSignal { rx, fired: false }
    }

    /// Stops the current wait; `false` when nothing was waiting.
    pub fn cancel(&self) -> bool {
        let sender = self.stop.lock().unwrap_or_else(|e| e.into_inner()).take();
        sender.is_some_and(|tx| tx.send(()).is_ok())
    }
}

/// One wait's side of [`BrowserWait`].
pub struct StopSignal {
    rx: oneshot::Receiver<()>,
    fired: bool,
}

impl StopSignal {
    /// Runs `work` unless the wait is stopped first (then `work` is dropped: `None`).
    pub async fn unless_stopped<T>(&mut self, work: impl Future<Output = T>) -> Option<T> {
        if self.is_stopped() {
            return None;
        }
        tokio::select! {
            biased;
            _ = &mut self.rx => {
                self.fired = true;
                None
            }
            done = work => Some(done),
        }
    }

    /// Whether the wait was stopped, by now.
    pub fn is_stopped(&mut self) -> bool {
        self.fired =
            self.fired || !matches!(self.rx.try_recv(), Err(oneshot::error::TryRecvError::Empty));
        self.fired
    }
}

/// Signs in through the browser, stoppable through the app's [`BrowserWait`]; a stopped
/// sign-in ends with the plain `sign_in_stopped` words and keeps nothing.
pub async fn with_browser(
    board: &Switchboard,
    base_url: &str,
    config: &SignInConfig,
    open: impl FnOnce(String) -> AppResult<()>,
) -> Result<IdentityInfo, UiError> {
    let wait = &board.browser_wait;
    let tag = board.version_tag();
    let mut stop = wait.begin();
    // The service's check of the token is part of the wait too: a cancel up to the moment
    // the token is kept wins, and nothing is kept.
    let checked = stop
        .unless_stopped(async {
            // Refused before the probe and the browser: plain http elsewhere would carry the
            // sign-in code, its verifier and then the token in cleartext.
            porthole_client::address::check(base_url).map_err(AppError::from)?;
            if page_answers(&config.google_authorize_url).await == Some(false) {
                return Err(UiError::from(UiCode::SignInUnreachable));
            }
            let signed_in = browser_token(config, open, BROWSER_TIMEOUT).await?;
            let checked = checked_token(base_url, signed_in.id_token, tag.as_deref()).await?;
            let refresh = signed_in.refresh_token.map(|token| Refresh { token });
            Ok((checked, refresh))
        })
        .await;
    match checked {
        Some(checked) if !stop.is_stopped() => {
            let ((base_url, token, user_id), refresh) = checked?;
            Ok(identity::remember(&board.identity, &base_url, token, &user_id, refresh).await?)
        }
        _ => Err(UiCode::SignInStopped.into()),
    }
}

/// Runs the browser half of sign-in: `open` shows Google's page (the system browser in the
/// app, a scripted request in tests); the code comes back to the loopback address and is
/// traded for Google's ID token, which Firebase trades for its own ID token and refresh
/// token.
pub async fn browser_token(
    config: &SignInConfig,
    open: impl FnOnce(String) -> AppResult<()>,
    timeout: Duration,
) -> AppResult<SignedIn> {
    // Every address is checked before the browser opens (https, or http on loopback).
    for address in config.addresses() {
        porthole_client::address::check(address)?;
    }
    let catcher = RedirectCatcher::bind().await.map_err(sign_in_failed)?;
    let redirect_uri = catcher.redirect_uri().to_owned();
    let pkce = Pkce::generate();
    let state = random_url_safe(24);
    let url = AuthorizeRequest {
        config,
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
    let google = exchange_code(config, &code, &redirect_uri, pkce.verifier()).await?;
    Ok(firebase::sign_in_with_google(config, &google.id_token).await?)
}

/// Whether anything answers at Google's sign-in page; `None` when it is not an address at all
/// (the authorize URL then says so). Asked before the browser is opened: a browser sent to
/// a dead address shows its own error page, and Porthole would wait minutes for a sign-in
/// that cannot come back.
pub async fn page_answers(address: &str) -> Option<bool> {
    let url = url::Url::parse(address.trim()).ok()?;
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

fn sign_in_failed(err: CatchError) -> AppError {
    match err {
        CatchError::TimedOut => AppError::SignInTimedOut,
        CatchError::Refused(_) => AppError::SignInCancelled,
        CatchError::Listen(e) => AppError::SignInUnavailable(e),
    }
}

/// Checks that `token` is an identity-provider session on `base_url`, then keeps it.
pub async fn accept_token(
    board: &Switchboard,
    base_url: &str,
    token: Secret,
) -> AppResult<IdentityInfo> {
    // A token the real service accepts never goes to an address typed by hand (see
    // `signin_config::takes_sign_in`); refused before it is sent anywhere.
    if !super::signin_config::takes_sign_in_here(&board.demo, base_url).await {
        return Err(AppError::SignInNotHere);
    }
    let tag = board.version_tag();
    let (base_url, token, user_id) = checked_token(base_url, token, tag.as_deref()).await?;
    // A pasted token comes without a refresh token: when it expires, the person signs in again.
    identity::remember(&board.identity, &base_url, token, &user_id, None).await
}

/// The tidied address, the token and whose it is, once the service says it is a sign-in there.
async fn checked_token(
    base_url: &str,
    token: Secret,
    version_tag: Option<&str>,
) -> AppResult<(String, Secret, String)> {
    let base_url = crate::connection::service_address::tidy(base_url);
    let credential = Credential::id_token(token.expose())?;
    let client = account_client(&base_url, credential, version_tag)?;
    let check = client.auth().check().await?;
    if check.auth_type != AuthType::Idp {
        // An API key pasted where a sign-in token belongs.
        return Err(AppError::NotASignInToken);
    }
    Ok((base_url, token, check.user_id))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::account::signin_config::for_simulator;
    use porthole_sim::{Config, Sim};

    /// Plays the person in the browser: picks `account` on the simulator's sign-in page and
    /// follows its redirect to the app's loopback address.
    pub(crate) fn browser_choosing(account: &'static str) -> impl FnOnce(String) -> AppResult<()> {
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
            &for_simulator(&sim.base_url),
            browser_choosing("ada"),
            Duration::from_secs(20),
        )
        .await
        .unwrap()
        .id_token;
        let client =
            porthole_client::Client::new(&sim.base_url, Credential::IdToken(token)).unwrap();
        let check = client.auth().check().await.unwrap();
        assert_eq!(check.auth_type, AuthType::Idp);
        assert_eq!(check.user_id, sim.account("ada").user_id);
        // The token is good for what only a sign-in may do.
        client.keys().list().await.unwrap();
    }

    #[tokio::test]
    async fn the_sign_in_address_is_checked_before_the_browser_opens() {
        let sim = Sim::start(Config::default()).await.unwrap();
        assert_eq!(page_answers(&sim.base_url).await, Some(true));
        // A port nothing listens on: bound, then released.
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let dead = format!("http://{}", closed.local_addr().unwrap());
        drop(closed);
        assert_eq!(page_answers(&dead).await, Some(false));
        assert_eq!(page_answers("not an address").await, None);
        let words = UiError::from(UiCode::SignInUnreachable);
        assert!(!words.detail.contains(&dead), "no address echoed back");
    }

    #[tokio::test]
    async fn a_cancelled_sign_in_frees_its_port_and_refuses_a_late_redirect() {
        let sim = Sim::start(Config {
            time_scale: 0.01,
            ..Config::default()
        })
        .await
        .unwrap();
        let wait = std::sync::Arc::new(BrowserWait::default());
        let (opened_tx, opened) = oneshot::channel();
        let waiting = tokio::spawn({
            let (wait, config) = (wait.clone(), for_simulator(&sim.base_url));
            async move {
                let mut stop = wait.begin();
                // The browser opens and the person never finishes there.
                let open = move |url: String| {
                    let _ = opened_tx.send(url);
                    Ok(())
                };
                stop.unless_stopped(browser_token(&config, open, Duration::from_secs(60)))
                    .await
            }
        });
        let authorize_url = url::Url::parse(&opened.await.unwrap()).unwrap();
        let redirect_uri = authorize_url
            .query_pairs()
            .find(|(k, _)| k == "redirect_uri")
            .map(|(_, v)| url::Url::parse(&v).unwrap())
            .unwrap();
        let port_addr = format!("127.0.0.1:{}", redirect_uri.port().unwrap());
        assert!(tokio::net::TcpStream::connect(&port_addr).await.is_ok());

        assert!(wait.cancel(), "a sign-in was waiting");
        assert!(waiting.await.unwrap().is_none(), "stopped, no token");
        assert!(
            tokio::net::TcpStream::connect(&port_addr).await.is_err(),
            "the redirect listener is closed"
        );
        assert!(!wait.cancel(), "nothing left to cancel");

        // The person finishes on the provider's page after all: its redirect finds nobody.
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        let mut form: Vec<(String, String)> = authorize_url.query_pairs().into_owned().collect();
        form.push(("account".into(), "ada".into()));
        let chosen = http
            .post(authorize_url.as_str().split('?').next().unwrap())
            .form(&form)
            .send()
            .await
            .unwrap();
        assert_eq!(chosen.status(), 302);
        let late = chosen.headers()["location"].to_str().unwrap().to_owned();
        assert!(late.starts_with(redirect_uri.as_str()));
        assert!(
            http.get(late).send().await.is_err(),
            "late redirect refused"
        );
    }

    #[tokio::test]
    async fn sign_in_elsewhere_needs_https_and_never_opens_the_browser() {
        let opened = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let open = {
            let opened = opened.clone();
            move |_: String| {
                opened.store(true, std::sync::atomic::Ordering::SeqCst);
                Ok(())
            }
        };
        let elsewhere = SignInConfig {
            google_token_url: "http://id.example.com/token".into(),
            ..for_simulator("http://127.0.0.1:9")
        };
        let refused = browser_token(&elsewhere, open, Duration::from_secs(5))
            .await
            .unwrap_err();
        assert_eq!(UiError::from(&refused).code, UiCode::InsecureAddress);
        assert!(!opened.load(std::sync::atomic::Ordering::SeqCst));

        let token = Secret::new("eyJh.eyJz.sig");
        let refused = checked_token("http://10.0.0.7:8080", token, None)
            .await
            .unwrap_err();
        let words = UiError::from(&refused);
        assert_eq!(words.code, UiCode::InsecureAddress);
        assert_eq!(words.title, "This address needs https://");
    }

    #[tokio::test]
    async fn a_newer_sign_in_stops_the_one_before() {
        let wait = BrowserWait::default();
        let mut first = wait.begin();
        let mut second = wait.begin();
        assert!(first.is_stopped());
        assert!(!second.is_stopped());
        assert_eq!(first.unless_stopped(async { 1 }).await, None);
        assert_eq!(second.unless_stopped(async { 2 }).await, Some(2));
    }

    #[tokio::test]
    async fn nobody_signing_in_times_out() {
        let sim = Sim::start(Config::default()).await.unwrap();
        let result = browser_token(
            &for_simulator(&sim.base_url),
            |_| Ok(()),
            Duration::from_millis(100),
        )
        .await;
        assert!(matches!(result, Err(AppError::SignInTimedOut)));
    }
}
