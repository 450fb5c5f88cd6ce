//! Where updates come from and which key must have signed them.
//!
//! A release build trusts only the public key written into its own configuration
//! (`plugins.updater.pubkey` in tauri.conf.json, which the release workflow fills in at build
//! time from the project's key; docs/release.md). Builds without a key check nothing: an
//! unsigned feed is never trusted.
//!
//! Debug builds (the end-to-end tests' app) also read `PORTHOLE_UPDATE_FEED` and
//! `PORTHOLE_UPDATE_PUBKEY`, so a test can serve a feed on loopback signed with a key it
//! generated itself and never committed. That code is compiled only with debug assertions:
//! a released Porthole cannot be pointed at another feed or key by its environment.

use url::Url;

/// One place to check for updates and the key their signatures must verify with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedSource {
    /// The minisign public key, as tauri.conf.json holds it (base64 of the key file).
    pub pubkey: String,
    /// The feed's address; `None` keeps the configured endpoints.
    pub endpoint: Option<Url>,
}

/// The feed to check, or `None` when this build has no key to check signatures with.
pub fn feed_source(configured_pubkey: &str) -> Option<FeedSource> {
    #[cfg(debug_assertions)]
    if let Some(source) = from_test_environment() {
        return Some(source);
    }
    let pubkey = configured_pubkey.trim();
    (!pubkey.is_empty()).then(|| FeedSource {
        pubkey: pubkey.to_owned(),
        endpoint: None,
    })
}

/// The key in the app's configuration (`plugins.updater.pubkey`), empty when there is none.
pub fn configured_pubkey(config: &tauri::Config) -> String {
    config
        .plugins
        .0
        .get("updater")
        .and_then(|updater| updater.get("pubkey"))
        .and_then(|key| key.as_str())
        .unwrap_or_default()
        .to_owned()
}

#[cfg(debug_assertions)]
fn from_test_environment() -> Option<FeedSource> {
    let pubkey = std::env::var("PORTHOLE_UPDATE_PUBKEY").ok()?;
    let endpoint = std::env::var("PORTHOLE_UPDATE_FEED")
        .ok()
        .and_then(|feed| Url::parse(&feed).ok());
    Some(FeedSource { pubkey, endpoint })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_without_a_key_checks_nothing() {
        // The test environment's variables are not set in unit tests.
        assert_eq!(feed_source(""), None);
        assert_eq!(feed_source("  \n"), None);
    }

    #[test]
    fn the_configured_key_is_used_with_the_configured_feed() {
        assert_eq!(
            feed_source("a2V5"),
            Some(FeedSource {
                pubkey: "a2V5".into(),
                endpoint: None
            })
        );
    }

    #[test]
    fn the_shipped_configuration_has_an_updater_section() {
        let config: tauri::Config =
            serde_json::from_str(include_str!("../../tauri.conf.json")).expect("tauri.conf.json");
        // Empty in the repository: the release workflow writes the project's key at build time.
        assert_eq!(configured_pubkey(&config), "");
        let endpoints = &config.plugins.0["updater"]["endpoints"];
        assert!(endpoints[0]
            .as_str()
            .is_some_and(|e| e.starts_with("https://")));
    }
}
