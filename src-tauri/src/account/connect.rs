//! Signing in moves Porthole to the account: a person who signs in on the Demo (or while
//! connected elsewhere) expects their own computers next, not the practice ones.
//!
//! The connection runs on an API key Porthole makes for itself through the account routes
//! (which only a sign-in may call), kept in the keychain like a key the person pasted. The
//! ID token is not used for it: it lasts about an hour, and tasks, followers and the live
//! view would fail when it ran out. The sign-in stays for key management.

use porthole_client::keys::CreatedKey;
use porthole_client::Client;

use super::identity;
use crate::connection::switchboard::Switchboard;
use crate::connection::ConnectionMode;
use crate::error::{AppError, AppResult, UiCode, UiError};
use crate::persist::SettingsStore;

/// The name of the key Porthole makes for itself, as the person sees it in their key list.
pub const KEY_NAME: &str = "Porthole desktop app";

/// Whether signing in changed the connection: `false` when Porthole already used this
/// account.
pub async fn connect_signed_in(board: &Switchboard) -> AppResult<bool> {
    let (client, info) = identity::client(board).await?;
    if info.demo {
        // The Demo's own practice sign-in is not an account to move to.
        return Err(AppError::SignInNeeded);
    }
    let user_id = client.auth().check().await?.user_id;
    let now = board.connection.info();
    if now.mode == ConnectionMode::Account
        && now.base_url.as_deref() == Some(info.base_url.as_str())
        && now.user_id.as_deref() == Some(user_id.as_str())
    {
        return Ok(false);
    }
    if reuse_own_key(board, &info.base_url, &user_id).await {
        return Ok(true);
    }
    let created = make_key(&client).await?;
    let tag = board.version_tag();
    let connected = crate::connection::switching::connect_account(
        board,
        &info.base_url,
        created.key.expose(),
        tag.as_deref(),
    )
    .await;
    if connected.is_err() {
        // A key nobody holds would only use up the account's allowance.
        let _ = client.keys().revoke(&created.key_id).await;
    }
    connected?;
    // Remembered (its id only), so that Sign out revokes it.
    board
        .settings()
        .update(|s| s.own_key_id = Some(created.key_id))?;
    Ok(true)
}

/// Goes back to the key Porthole made for itself on this account in an earlier sign-in,
/// when it is still kept and still works (the person left for the Demo and signs in again):
/// no second key on the account. `false` when there is none to reuse.
async fn reuse_own_key(board: &Switchboard, base_url: &str, user_id: &str) -> bool {
    let settings = board.settings().get();
    if settings.own_key_id.is_none() || settings.account_base_url.as_deref() != Some(base_url) {
        return false;
    }
    let Ok(Some(key)) = crate::connection::keychain::load(base_url).await else {
        return false;
    };
    let tag = settings.version_tag.as_deref();
    let Ok(client) = crate::connection::account_client::account_client(base_url, key, tag) else {
        return false;
    };
    let same_account = client
        .auth()
        .check()
        .await
        .is_ok_and(|check| check.user_id == user_id);
    same_account
        && crate::connection::switching::use_account(board)
            .await
            .is_ok()
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
/// default (`service_address`: the build's or `PORTHOLE_SERVICE_URL`, else the service's public
/// address). The person may type another under Advanced.
pub fn default_address(settings: &SettingsStore) -> Option<String> {
    let saved = settings.get().account_base_url;
    Some(
        saved
            .map(|a| crate::connection::service_address::tidy(&a))
            .filter(|a| !a.is_empty())
            .unwrap_or_else(crate::connection::service_address::default_address),
    )
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
