//! What the app remembers between runs besides conversations: which account to use.
//!
//! Invariant: no secret here. The API key of the account lives in the keychain, looked up
//! by the account's address.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Settings {
    /// Address of the connected account's service, once connected.
    pub account_base_url: Option<String>,
    /// The person switched back to the Demo while keeping the account.
    pub prefer_demo: bool,
    /// The id (not the secret) of the key Porthole made for itself when the person signed in,
    /// so that Sign out can revoke it rather than leave a live key on the account.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub own_key_id: Option<String>,
    /// The service revision the account's requests are pinned to (`x-sai-version`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version_tag: Option<String>,
    /// The spending cap a new task starts with in the composer, in dollars, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_cap_usd: Option<f64>,
    /// The person answered "Set a spending limit for every task?" (either way): it is asked once.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cap_offer_answered: bool,
    /// The language chosen in Settings; none: the system's.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::words::language::lenient"
    )]
    pub language: Option<crate::words::language::Language>,
    /// Films of tasks: whether they are recorded, and their bounds on disk. Not written while
    /// as it comes, so settings files stay as they were.
    #[serde(skip_serializing_if = "crate::film::FilmSettings::is_default")]
    pub film: crate::film::FilmSettings,
}

/// Which service to use at start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartWith {
    Demo,
    Account { base_url: String },
}

impl Settings {
    pub fn start_with(&self) -> StartWith {
        match &self.account_base_url {
            Some(base_url) if !self.prefer_demo => StartWith::Account {
                base_url: base_url.clone(),
            },
            _ => StartWith::Demo,
        }
    }

    pub fn connected(&mut self, base_url: &str) {
        if self.account_base_url.as_deref() != Some(base_url) {
            // A key made at another address is not this account's to revoke.
            self.own_key_id = None;
        }
        self.account_base_url = Some(base_url.to_owned());
        self.prefer_demo = false;
    }

    pub fn signed_out(&mut self) {
        self.account_base_url = None;
        self.own_key_id = None;
        self.prefer_demo = false;
        self.version_tag = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_install_starts_on_the_demo() {
        assert_eq!(Settings::default().start_with(), StartWith::Demo);
    }

    #[test]
    fn connecting_switching_back_and_signing_out() {
        let mut s = Settings::default();
        s.connected("https://svc.example");
        assert_eq!(
            s.start_with(),
            StartWith::Account {
                base_url: "https://svc.example".into()
            }
        );
        s.version_tag = Some("rev-42".into());
        s.own_key_id = Some("k_1".into());
        s.connected("https://svc.example");
        assert_eq!(
            s.own_key_id.as_deref(),
            Some("k_1"),
            "same address: still its key"
        );
        s.prefer_demo = true;
        assert_eq!(s.start_with(), StartWith::Demo);
        s.signed_out();
        assert_eq!(s, Settings::default());
    }

    #[test]
    fn old_or_partial_files_still_load() {
        let s: Settings = serde_json::from_str(r#"{"accountBaseUrl":"https://a"}"#).unwrap();
        assert!(!s.prefer_demo);
        let s: Settings = serde_json::from_str("{}").unwrap();
        assert_eq!(s, Settings::default());
        let text = serde_json::to_string(&s).unwrap();
        assert!(!text.to_lowercase().contains("key"));
    }
}
