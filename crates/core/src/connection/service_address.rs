//! Where the service is: its public address by default, another when a build or the person
//! says so; and the check made before a key or token goes to an address typed by hand.
//!
//! The public address is the default of the makers' own client (`sai-fi`:
//! `local.properties.example`, `README.md`); it has changed across their clients, so it stays a
//! setting: `PORTHOLE_SERVICE_URL` when the app runs, else when it was built, else the public
//! one, and the account dialog's Advanced part takes any other.
//!
//! Which addresses are "known" matters for the sign-in: the built-in Google sign-in yields a
//! Firebase token the real service accepts, so it goes only to these (security review N4),
//! never to an address typed by hand, where a look-alike would receive it.

use porthole_client::service_check::{self, Verdict};
use url::Url;

use crate::error::{AppError, AppResult};

/// The service's public address (the makers' client's default).
pub const PUBLIC: &str = "https://api.sai.simular.ai";

/// The makers' web portal, where a person makes an API key (and reads the API's docs).
pub const PORTAL: &str = "https://sai.work";

/// An address as kept and compared: no spaces around, no slash at the end.
pub fn tidy(address: &str) -> String {
    address.trim().trim_end_matches('/').to_owned()
}

/// `PORTHOLE_SERVICE_URL` when the app runs, else when it was built (empty means unset).
fn configured() -> Option<String> {
    std::env::var("PORTHOLE_SERVICE_URL")
        .ok()
        .or_else(|| option_env!("PORTHOLE_SERVICE_URL").map(str::to_owned))
        .map(|a| tidy(&a))
        .filter(|a| !a.is_empty())
}

/// The address a real account is connected at unless the person types another.
pub fn default_address() -> String {
    configured().unwrap_or_else(|| PUBLIC.to_owned())
}

/// Whether `address` is the service as this copy knows it: the public address, or the one the
/// build or the app's environment names. Compared as parsed web addresses (case of the host,
/// a default port, a slash at the end make no difference).
pub fn is_known(address: &str) -> bool {
    let Some(address) = parsed(address) else {
        return false;
    };
    [Some(PUBLIC.to_owned()), configured()]
        .into_iter()
        .flatten()
        .filter_map(|known| parsed(&known))
        .any(|known| known == address)
}

fn parsed(address: &str) -> Option<Url> {
    Url::parse(&format!("{}/", tidy(address))).ok()
}

/// Makes sure `address` is the service before a key or token is sent there: the known
/// addresses are trusted as they are, any other is asked (see `service_check`), and what it
/// turned out to be is said in words ([`AppError::NotTheService`]).
pub async fn ensure_service(address: &str, version_tag: Option<&str>) -> AppResult<()> {
    if is_known(address) {
        return Ok(());
    }
    match service_check::check(address, version_tag).await? {
        Verdict::Service => Ok(()),
        other => Err(AppError::NotTheService(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{UiCode, UiError};
    use porthole_sim::{Config, Sim};

    #[test]
    fn the_public_address_is_known_however_it_is_written() {
        for same in [
            "https://api.sai.simular.ai",
            " https://API.sai.simular.ai/ ",
            "https://api.sai.simular.ai:443",
        ] {
            assert!(is_known(same), "{same}");
        }
        for other in [
            "https://api.sai.simular.ai.example.com",
            "https://api-sai-simular.ai",
            "http://api.sai.simular.ai",
            "https://api.sai.simular.ai:8443",
            "not an address",
            "",
        ] {
            assert!(!is_known(other), "{other}");
        }
    }

    #[tokio::test]
    async fn a_typed_address_is_asked_and_what_it_is_said_in_plain_words() {
        let sim = Sim::start(Config::default()).await.unwrap();
        ensure_service(&sim.base_url, None)
            .await
            .expect("the simulator answers as the service");

        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let dead = format!("http://{}", closed.local_addr().unwrap());
        drop(closed);
        // The simulator under another path: its own 404 for what it does not have.
        let elsewhere = format!("{}/not-the-api", sim.base_url);
        for (address, code) in [
            (dead.as_str(), UiCode::AddressUnreachable),
            (elsewhere.as_str(), UiCode::NotTheService),
        ] {
            let refused = ensure_service(address, None).await.unwrap_err();
            let words = UiError::from(&refused);
            assert_eq!(words.code, code, "{address}");
            for programmer in ["404", "401", "HTTP", "JSON", "health", address] {
                assert!(
                    !words.detail.contains(programmer) && !words.title.contains(programmer),
                    "{programmer} in {words:?}"
                );
            }
        }
        let odd = UiError::from(&AppError::NotTheService(Verdict::SomethingElse));
        assert_eq!(odd.code, UiCode::NotLikeTheService);
    }
}
