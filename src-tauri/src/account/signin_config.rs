//! Which Google client and Firebase project signing in uses at an address: the simulator's
//! own at the Demo's address, else the real service's, given when this copy was built
//! (`PORTHOLE_GOOGLE_CLIENT_ID`, `PORTHOLE_GOOGLE_CLIENT_SECRET`, `PORTHOLE_FIREBASE_API_KEY`;
//! docs/release.md). A build without them cannot sign in through the browser anywhere else,
//! and says so rather than showing a button that cannot work.

use porthole_client::{Secret, SignInConfig};
use porthole_sim::idp;
use tauri::{AppHandle, Manager};

use crate::connection::demo::DemoService;

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

/// The sign-in for the service at `base_url`; `None` when this copy cannot sign in there.
pub async fn for_address(app: &AppHandle, base_url: &str) -> Option<SignInConfig> {
    let tidy = |a: &str| a.trim().trim_end_matches('/').to_owned();
    let demo = app.state::<DemoService>().base_url().await;
    if demo.is_some_and(|d| tidy(&d) == tidy(base_url)) {
        return Some(for_simulator(base_url));
    }
    let built = built_in();
    if built.is_none() {
        // Once a run: the page asks again at every keystroke in the address.
        static SAID: std::sync::Once = std::sync::Once::new();
        SAID.call_once(|| tracing::info!(missing = ?missing(), "built without Google sign-in"));
    }
    built
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
