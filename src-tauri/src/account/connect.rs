//! Signing in moves Porthole to the account: a person who signs in on the Demo (or while
//! connected elsewhere) expects their own computers next, not the practice ones.
//!
//! The connection runs on an API key Porthole makes for itself through the account routes
//! (which only a sign-in may call), kept in the keychain like a key the person pasted. The
//! ID token is not used for it: it lasts about an hour, and tasks, followers and the live
//! view would fail when it ran out. The sign-in stays for key management.

use porthole_client::keys::CreatedKey;
use porthole_client::Client;
use tauri::{AppHandle, Manager};

use super::identity;
use crate::connection::{Connection, ConnectionMode};
use crate::error::{AppError, AppResult, UiCode, UiError};
use crate::persist::SettingsStore;

/// The name of the key Porthole makes for itself, as the person sees it in their key list.
pub const KEY_NAME: &str = "Porthole desktop app";

/// Whether signing in changed the connection: `false` when Porthole already used this
/// account.
pub async fn connect_signed_in(app: &AppHandle) -> AppResult<bool> {
    let (client, info) = identity::client(app).await?;
    if info.demo {
        // The Demo's own practice sign-in is not an account to move to.
        return Err(AppError::SignInNeeded);
    }
    let user_id = client.auth().check().await?.user_id;
    let now = app.state::<Connection>().info();
    if now.mode == ConnectionMode::Account
        && now.base_url.as_deref() == Some(info.base_url.as_str())
        && now.user_id.as_deref() == Some(user_id.as_str())
    {
        return Ok(false);
    }
    let created = make_key(&client).await?;
    let tag = app.state::<SettingsStore>().get().version_tag;
    let connected = crate::connection::switching::connect_account(
        app,
        &info.base_url,
        created.key.expose(),
        tag.as_deref(),
    )
    .await;
    if connected.is_err() {
        // A key nobody holds would only use up the account's allowance.
        let _ = client.keys().revoke(&created.key_id).await;
    }
    connected.map(|()| true)
}

/// Porthole's own key on the signed-in account (`client` speaks with the ID token).
async fn make_key(client: &Client) -> AppResult<CreatedKey> {
    Ok(client.keys().create(Some(KEY_NAME)).await?)
}

/// The failure in words for this flow: the key's own troubles are said as what they mean
/// for connecting.
pub fn words(err: &AppError) -> UiError {
    let words = UiError::from(err);
    match words.code {
        UiCode::KeyLimitReached => UiCode::SignedInKeyLimit.into(),
        UiCode::KeyNeedsPhone | UiCode::PhoneVerificationRequired => {
            UiCode::SignedInNeedsPhone.into()
        }
        _ => words,
    }
}

/// The service address signing in goes to first: the connected or saved account's, else the
/// one this build or `PORTHOLE_SERVICE_URL` names (the real service's address is a setting,
/// never a constant); `None` when there is none, and the person types it.
pub fn default_address(app: &AppHandle) -> Option<String> {
    let saved = app.state::<SettingsStore>().get().account_base_url;
    saved
        .or_else(|| std::env::var("PORTHOLE_SERVICE_URL").ok())
        .or_else(|| option_env!("PORTHOLE_SERVICE_URL").map(str::to_owned))
        .map(|a| a.trim().trim_end_matches('/').to_owned())
        .filter(|a| !a.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use porthole_client::Credential;
    use porthole_sim::{Config, Sim};

    fn signed_in_as(sim: &porthole_sim::RunningSim, name: &str) -> Client {
        let token = sim.account(name).id_token.clone();
        Client::new(&sim.base_url, Credential::id_token(&token).unwrap()).unwrap()
    }

    #[tokio::test]
    async fn the_key_for_porthole_is_made_on_the_signed_in_account_and_works_there() {
        let sim = Sim::start(Config::default()).await.unwrap();
        let created = make_key(&signed_in_as(&sim, "ulla")).await.unwrap();
        assert_eq!(created.name.as_deref(), Some(KEY_NAME));
        let with_key = Client::new(
            &sim.base_url,
            Credential::api_key(created.key.expose()).unwrap(),
        )
        .unwrap();
        let check = with_key.auth().check().await.unwrap();
        assert_eq!(check.user_id, sim.account("ulla").user_id);
    }

    #[tokio::test]
    async fn a_key_the_account_cannot_have_is_said_as_what_it_means_for_connecting() {
        let sim = Sim::start(Config::default()).await.unwrap();
        // fred is on the free plan and already has his one key.
        let full = make_key(&signed_in_as(&sim, "fred")).await.unwrap_err();
        let words = super::words(&full);
        assert_eq!(words.code, UiCode::SignedInKeyLimit);
        assert!(words.detail.contains("Revoke a key"), "{}", words.detail);
        assert!(
            words.detail.contains("Use an API key instead"),
            "{}",
            words.detail
        );

        let unverified = make_key(&signed_in_as(&sim, "nophone")).await.unwrap_err();
        let words = super::words(&unverified);
        assert_eq!(words.code, UiCode::SignedInNeedsPhone);
        assert!(words.detail.contains("phone"), "{}", words.detail);
        assert_eq!(words.action, Some(crate::error::UiAction::SignIn));
    }

    #[tokio::test]
    async fn a_service_that_does_not_answer_is_said_in_plain_words() {
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let dead = format!("http://{}", closed.local_addr().unwrap());
        drop(closed);
        let client = Client::new(&dead, Credential::id_token("eyJh.eyJz.sig").unwrap()).unwrap();
        let words = super::words(&make_key(&client).await.unwrap_err());
        assert_eq!(words.code, UiCode::Network);
        assert!(!words.detail.contains(&dead), "{}", words.detail);
    }
}
