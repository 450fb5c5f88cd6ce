//! Which Google client and Firebase project signing in uses at an address: the simulator's
//! own at the Demo's address, else, at the service's known address only, the real service's,
//! given when this copy was built
//! (`PORTHOLE_GOOGLE_CLIENT_ID`, `PORTHOLE_GOOGLE_CLIENT_SECRET`, `PORTHOLE_FIREBASE_API_KEY`;
//! docs/release.md). A build without them cannot sign in through the browser anywhere else,
//! and says so rather than showing a button that cannot work.

use porthole_client::{Secret, SignInConfig};
use porthole_sim::idp;

use crate::connection::demo::DemoService;
use crate::connection::service_address;

/// The build-time variables, by name and value (`None` when not set or empty).
fn built_values() -> Values {
    let set = |v: Option<&'static str>| v.filter(|v| !v.trim().is_empty());
    [
        (
            "PORTHOLE_GOOGLE_CLIENT_ID",
            set(option_env!("PORTHOLE_GOOGLE_CLIENT_ID")),
        ),
        (
            "PORTHOLE_GOOGLE_CLIENT_SECRET",
            set(option_env!("PORTHOLE_GOOGLE_CLIENT_SECRET")),
        ),
        (
            "PORTHOLE_FIREBASE_API_KEY",
            set(option_env!("PORTHOLE_FIREBASE_API_KEY")),
        ),
    ]
}

type Values = [(&'static str, Option<&'static str>); 3];

/// The sign-in the three values make, else the names of those missing.
fn from_values(values: Values) -> Result<SignInConfig, Vec<&'static str>> {
    match values {
        [(_, Some(id)), (_, Some(secret)), (_, Some(key))] => Ok(
            SignInConfig::google_and_firebase(id.trim(), secret.trim(), key.trim()),
        ),
        _ => Err(values
            .into_iter()
            .filter(|(_, v)| v.is_none())
            .map(|(name, _)| name)
            .collect()),
    }
}

/// The real service's sign-in, when this copy was built with all three values.
pub fn built_in() -> Option<SignInConfig> {
    from_values(built_values()).ok()
}

/// The names of the build-time variables this copy was built without (for the log; the
/// person reads a sentence instead).
pub fn missing() -> Vec<&'static str> {
    from_values(built_values()).err().unwrap_or_default()
}

/// The simulator at `base_url` playing Google and Firebase (see `porthole_sim::idp`).
pub fn for_simulator(base_url: &str) -> SignInConfig {
    let base = base_url.trim().trim_end_matches('/');
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

/// Whether a sign-in (its ID token) may go to `base_url`: the service's known address (see
/// `service_address`), or the Demo's simulator (`demo`, its address in this run). Never an
/// address typed by hand: a look-alike would receive a token the real service accepts
/// (security review N4).
pub fn takes_sign_in(base_url: &str, demo: Option<&str>) -> bool {
    let tidy = service_address::tidy;
    demo.is_some_and(|d| tidy(d) == tidy(base_url)) || service_address::is_known(base_url)
}

/// [`takes_sign_in`] with this run's Demo.
pub async fn takes_sign_in_here(demo: &DemoService, base_url: &str) -> bool {
    let demo = demo.base_url().await;
    takes_sign_in(base_url, demo.as_deref())
}

/// Whether "Sign in with Google" can work at an address, and if not, why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum BrowserSignIn {
    Ready,
    /// This copy was built without the sign-in's values (the Demo's own still works).
    NotBuilt,
    /// The address was typed by hand: no sign-in goes there.
    NotHere,
}

/// The sign-in for the service at `base_url`; `None` when this copy cannot sign in there.
pub async fn for_address(demo: &DemoService, base_url: &str) -> Option<SignInConfig> {
    let tidy = service_address::tidy;
    let demo = demo.base_url().await;
    if demo.is_some_and(|d| tidy(&d) == tidy(base_url)) {
        return Some(for_simulator(base_url));
    }
    if !service_address::is_known(base_url) {
        return None;
    }
    let built = built_in();
    if built.is_none() {
        // Once a run: the page asks again at every keystroke in the address.
        static SAID: std::sync::Once = std::sync::Once::new();
        SAID.call_once(|| tracing::info!(missing = ?missing(), "built without Google sign-in"));
    }
    built
}

/// Whether "Sign in with Google" can work at `base_url`: a copy built without it says so
/// wherever the Demo is not, before saying an address typed by hand takes no sign-in.
pub async fn readiness(demo: &DemoService, base_url: &str) -> BrowserSignIn {
    if for_address(demo, base_url).await.is_some() {
        BrowserSignIn::Ready
    } else if built_in().is_none() {
        BrowserSignIn::NotBuilt
    } else {
        BrowserSignIn::NotHere
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_three_values_make_a_sign_in_and_a_missing_one_is_named() {
        let config = from_values([
            ("PORTHOLE_GOOGLE_CLIENT_ID", Some("cid ")),
            ("PORTHOLE_GOOGLE_CLIENT_SECRET", Some("cs")),
            ("PORTHOLE_FIREBASE_API_KEY", Some("key")),
        ])
        .unwrap();
        assert_eq!(config.google_client_id, "cid");
        assert_eq!(
            config.google_token_url,
            "https://oauth2.googleapis.com/token"
        );
        let missing = from_values([
            ("PORTHOLE_GOOGLE_CLIENT_ID", Some("cid")),
            ("PORTHOLE_GOOGLE_CLIENT_SECRET", None),
            ("PORTHOLE_FIREBASE_API_KEY", None),
        ])
        .unwrap_err();
        assert_eq!(
            missing,
            ["PORTHOLE_GOOGLE_CLIENT_SECRET", "PORTHOLE_FIREBASE_API_KEY"]
        );
    }

    #[test]
    fn a_sign_in_goes_only_to_the_known_service_or_the_demo() {
        let demo = Some("http://127.0.0.1:4000");
        assert!(takes_sign_in("https://api.sai.simular.ai/", None));
        assert!(takes_sign_in("http://127.0.0.1:4000/", demo));
        for typed in [
            "http://127.0.0.1:4001",
            "https://api.sai.simular.ai.example.com",
            "https://api-sai.simular.ai",
        ] {
            assert!(!takes_sign_in(typed, demo), "{typed}");
        }
    }

    #[test]
    fn the_simulator_is_signed_in_at_its_own_address() {
        let sim = for_simulator("http://127.0.0.1:9/");
        assert_eq!(
            sim.google_authorize_url,
            "http://127.0.0.1:9/google/o/oauth2/v2/auth"
        );
        assert_eq!(sim.secure_token_base, "http://127.0.0.1:9/securetoken");
        assert!(!format!("{sim:?}").contains(idp::FIREBASE_API_KEY));
    }
}
