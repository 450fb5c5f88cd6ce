//! The client of an account's service, built in one place so that every request it makes
//! carries the same settings (the version tag above all: a tag on some calls only would send
//! them to different revisions of the service).

use porthole_client::{Client, ClientConfig, Credential};

use crate::error::AppResult;

/// A client of `base_url` with `credential`, pinned to the service revision `version_tag`
/// when one is given (sent as `x-sai-version` on every request).
pub fn account_client(
    base_url: &str,
    credential: Credential,
    version_tag: Option<&str>,
) -> AppResult<Client> {
    let config = ClientConfig {
        version_tag: version_tag
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_owned),
        ..ClientConfig::default()
    };
    Ok(Client::with_config(base_url, credential, config)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use porthole_sim::{Config, Sim};

    #[tokio::test]
    async fn the_version_tag_reaches_the_service_on_every_request() {
        let sim = Sim::start(Config::default()).await.unwrap();
        let key = sim.account("ada").api_key.clone().unwrap();
        let credential = || Credential::api_key(&key).unwrap();

        let pinned = account_client(&sim.base_url, credential(), Some(" rev-42 ")).unwrap();
        pinned.auth().check().await.unwrap();
        pinned.machines().list().await.unwrap();
        let seen = sim.state().requests_seen();
        assert!(seen.len() >= 2, "{seen:?}");
        assert!(
            seen.iter()
                .all(|r| r.sai_version.as_deref() == Some("rev-42")),
            "{seen:?}"
        );

        // A blank tag pins nothing.
        let plain = account_client(&sim.base_url, credential(), Some("  ")).unwrap();
        plain.machines().list().await.unwrap();
        let last = sim.state().requests_seen().pop().unwrap();
        assert_eq!(last.sai_version, None);
    }
}
