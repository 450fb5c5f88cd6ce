//! Choosing the service: the Demo at first start, an account once connected, and the
//! switches between them. Each switch stops the old connection's followers, closes its
//! console leases, and resumes the new one's unfinished tasks.

use porthole_client::{Client, Credential, Secret};
use tauri_specta::Event;

use super::switchboard::Switchboard;
use crate::account::identity;
use crate::connection::account_client::account_client;
use crate::connection::keychain;
use crate::connection::service_address;
use crate::connection::settings::StartWith;
use crate::connection::{ConnectionInfo, ConnectionMode, ConnectionState};
use crate::console;
use crate::conversations::Notice;
use crate::error::{AppError, AppResult, UiError};
use crate::navigation::events::{ConnectionChanged, MachinesChanged};

/// At start: the saved account if there is one (and its key), else the Demo.
pub async fn start(board: &Switchboard) {
    let settings = board.settings().get();
    let result = match settings.start_with() {
        StartWith::Account { base_url } => match keychain::load(&base_url).await {
            Ok(Some(credential)) => activate_account(board, &base_url, credential).await,
            Ok(None) | Err(_) => activate_demo(board).await,
        },
        StartWith::Demo => activate_demo(board).await,
    };
    if let Err(err) = result {
        fail(board, &err);
    }
}

fn fail(board: &Switchboard, err: &AppError) {
    let connection = &board.connection;
    let mut info = connection.info();
    info.state = ConnectionState::Failed;
    info.error = Some(UiError::from(err));
    connection.set_info(info);
    let _ = ConnectionChanged.emit(board.app());
    crate::inbox::window::refresh(board.app());
}

fn switching(board: &Switchboard, mode: ConnectionMode) {
    // Console leases belong to the connection being left: close them there (in the
    // background, as the old service may be slow or gone) so the next one never sees them.
    let leases = board.consoles.retire_all();
    tauri::async_runtime::spawn(console::close_all(leases));
    board.conversations.connection_left();
    board.starting.clear_all();
    board.inbox().connection_left();
    board.connection.begin_switch(mode);
    let _ = ConnectionChanged.emit(board.app());
    crate::inbox::window::refresh(board.app());
}

async fn activate_demo(board: &Switchboard) -> AppResult<()> {
    switching(board, ConnectionMode::Demo);
    let endpoint = board.demo.endpoint().await?;
    let client = Client::with_config(&endpoint.base_url, endpoint.credential, endpoint.config)?;
    super::demo::spend_for_tests(&client);
    let check = client.auth().check().await?;
    let scope = if endpoint.ephemeral {
        super::demo::SCOPE.to_owned()
    } else {
        format!("demo@{}", endpoint.base_url)
    };
    // Tasks are ended or resumed from the saved conversations: once they are read.
    board.conversations.store().loaded().await;
    if endpoint.ephemeral {
        board
            .conversations
            .end_orphaned(&scope, Notice::DemoRestarted)?;
    }
    finish(
        board,
        client,
        scope,
        ConnectionMode::Demo,
        None,
        check.user_id,
    )
}

async fn activate_account(
    board: &Switchboard,
    base_url: &str,
    credential: Credential,
) -> AppResult<()> {
    switching(board, ConnectionMode::Account);
    let tag = board.version_tag();
    let client = account_client(base_url, credential, tag.as_deref())?;
    let check = client.auth().check().await?;
    board.conversations.store().loaded().await;
    finish(
        board,
        client,
        base_url.to_owned(),
        ConnectionMode::Account,
        Some(base_url),
        check.user_id,
    )
}

fn finish(
    board: &Switchboard,
    client: Client,
    scope: String,
    mode: ConnectionMode,
    base_url: Option<&str>,
    user_id: String,
) -> AppResult<()> {
    let connection = &board.connection;
    connection.activate(client.clone(), scope.clone());
    connection.set_info(ConnectionInfo {
        mode,
        state: ConnectionState::Ready,
        base_url: base_url.map(str::to_owned),
        user_id: Some(user_id),
        has_saved_account: board.settings().get().account_base_url.is_some(),
        error: None,
    });
    board.conversations.resume(&client, &scope);
    let _ = ConnectionChanged.emit(board.app());
    crate::inbox::window::refresh(board.app());
    let _ = MachinesChanged.emit(board.app());
    Ok(())
}

/// Checks the key with the service before anything is saved, then saves and switches.
pub async fn connect_account(
    board: &Switchboard,
    base_url: &str,
    api_key: &str,
    version_tag: Option<&str>,
) -> AppResult<()> {
    let (base_url, secret, user_id) = checked_account(base_url, api_key, version_tag).await?;
    board.identity.switched_to(&base_url, &user_id).await?;
    keychain::save(&base_url, &secret).await?;
    let version_tag = version_tag.map(str::trim).filter(|t| !t.is_empty());
    board.settings().update(|s| {
        s.connected(&base_url);
        s.version_tag = version_tag.map(str::to_owned);
    })?;
    activate_account(board, &base_url, Credential::ApiKey(secret)).await
}

/// The tidied address and the key, once the service accepts the key there. The address is
/// checked first (https, or plain http on this computer only), so a key never goes out in
/// cleartext.
async fn checked_account(
    base_url: &str,
    api_key: &str,
    version_tag: Option<&str>,
) -> AppResult<(String, Secret, String)> {
    let base_url = service_address::tidy(base_url);
    let credential = Credential::api_key(api_key)?;
    // An address typed by hand is asked first whether it is the service at all: the key goes
    // only to the service.
    service_address::ensure_service(&base_url, version_tag).await?;
    let client = account_client(&base_url, credential.clone(), version_tag)?;
    let check = client.auth().check().await?;
    let Credential::ApiKey(secret) = credential else {
        return Err(AppError::NotConnected);
    };
    Ok((base_url, secret, check.user_id))
}

pub async fn use_demo(board: &Switchboard) -> AppResult<()> {
    board.settings().update(|s| s.prefer_demo = true)?;
    activate_demo(board).await
}

/// Starts the Demo fresh, as the person asked in Settings (only while on the Demo): its
/// computers come back new and its conversations are removed, without a restart.
pub async fn reset_demo(board: &Switchboard) -> AppResult<()> {
    if board.connection.info().mode != ConnectionMode::Demo || !board.demo.is_own() {
        return Err(AppError::NotConnected);
    }
    // The Demo's tasks are no longer followed before its service goes.
    switching(board, ConnectionMode::Demo);
    board.demo.reset().await?;
    board.conversations.store().loaded().await;
    board.conversations.remove_all_of(super::demo::SCOPE)?;
    activate_demo(board).await
}

/// Back to the saved account after using the Demo.
pub async fn use_account(board: &Switchboard) -> AppResult<()> {
    let Some(base_url) = board.settings().get().account_base_url else {
        return Err(AppError::NotConnected);
    };
    let credential = keychain::load(&base_url)
        .await?
        .ok_or(AppError::NotConnected)?;
    board.settings().update(|s| s.connected(&base_url))?;
    activate_account(board, &base_url, credential).await
}

/// Removes the key and the sign-in (keychain and memory) and goes back to the Demo. The key
/// Porthole made for itself at sign-in is revoked on the account too, with the sign-in that
/// made it (only a sign-in may manage keys), taken while it is still at hand; when that
/// cannot be done, the person is told after the sign-out ([`AppError::OwnKeyLeft`]).
pub async fn sign_out(board: &Switchboard) -> AppResult<()> {
    let settings = board.settings().get();
    let account = settings.account_base_url;
    let own_key = match settings.own_key_id {
        Some(key_id) => Some((identity::client(board).await.map(|(c, _)| c), key_id)),
        None => None,
    };
    if let Some(base_url) = &account {
        keychain::delete(base_url).await?;
    }
    board.fresh_key.clear();
    let also: Vec<&str> = account.iter().map(String::as_str).collect();
    board.identity.forget(&also).await?;
    board.settings().update(|s| s.signed_out())?;
    // Revoked once the connection that used the key is gone, so no call of it fails midway.
    activate_demo(board).await?;
    match own_key {
        Some((signed_in, key_id)) => revoke_own_key(signed_in, &key_id).await,
        None => Ok(()),
    }
}

/// Revokes Porthole's own key with a client of its sign-in; a key already gone is fine.
async fn revoke_own_key(signed_in: AppResult<Client>, key_id: &str) -> AppResult<()> {
    let revoked = match signed_in {
        Ok(client) => client.keys().revoke(key_id).await,
        Err(err) => {
            tracing::warn!(error = %err, "no sign-in at hand to revoke Porthole's own key");
            return Err(AppError::OwnKeyLeft);
        }
    };
    match revoked {
        Ok(_) => Ok(()),
        Err(err) if err.code() == porthole_client::ErrorCode::KeyNotFound => Ok(()),
        Err(err) => {
            tracing::warn!(code = ?err.code(), "Porthole's own key could not be revoked");
            Err(AppError::OwnKeyLeft)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use porthole_sim::{Config, Sim};

    #[tokio::test]
    async fn signing_out_revokes_the_key_porthole_made_and_says_when_it_cannot() {
        let sim = Sim::start(Config::default()).await.unwrap();
        let token = sim.account("ulla").id_token.clone();
        let signed_in =
            || account_client(&sim.base_url, Credential::id_token(&token).unwrap(), None);
        let own = signed_in()
            .unwrap()
            .keys()
            .create(Some(crate::account::connect::KEY_NAME))
            .await
            .unwrap();
        let live = |id: &str| {
            sim.state()
                .db()
                .keys
                .iter()
                .any(|k| k.key_id == id && !k.revoked)
        };
        assert!(live(&own.key_id));

        revoke_own_key(signed_in(), &own.key_id).await.unwrap();
        assert!(!live(&own.key_id), "the key is revoked on the account");
        // Already gone (revoked on the portal meanwhile): nothing to tell.
        revoke_own_key(signed_in(), &own.key_id).await.unwrap();

        // No sign-in at hand any more: the person is told the key is left.
        let left = revoke_own_key(Err(AppError::SignInExpired), "k_x")
            .await
            .unwrap_err();
        let words = UiError::from(&left);
        assert_eq!(words.code, crate::UiCode::OwnKeyNotRevoked);
        assert!(
            words.detail.contains("Porthole desktop app"),
            "{}",
            words.detail
        );
    }

    #[tokio::test]
    async fn a_typed_address_that_is_not_the_service_gets_no_key() {
        let sim = Sim::start(Config::default()).await.unwrap();
        let key = sim.account("ada").api_key.clone().unwrap();
        let elsewhere = format!("{}/somewhere-else", sim.base_url);
        let refused = checked_account(&elsewhere, &key, None).await.unwrap_err();
        assert_eq!(UiError::from(&refused).code, crate::UiCode::NotTheService);
        let seen = sim.state().requests_seen();
        assert!(
            seen.iter()
                .all(|r| r.path != "/somewhere-else/v1/agents/auth"),
            "the key was never sent: {seen:?}"
        );
        // A key pasted with quotes and a line break around it is cleaned, not refused.
        let (_, secret, _) = checked_account(&sim.base_url, &format!(" \"{key}\"\n"), None)
            .await
            .expect("the cleaned key connects");
        assert_eq!(secret.expose(), key);
    }

    /// The address check and the key check hold where the service answers as the makers'
    /// client shows it may (`porthole-sim --shapes makers`).
    #[tokio::test]
    async fn a_key_connects_at_a_typed_address_answering_in_the_makers_shapes() {
        let sim = Sim::start(Config {
            shapes: porthole_sim::Shapes::Makers,
            ..Config::default()
        })
        .await
        .unwrap();
        let key = sim.account("ada").api_key.clone().unwrap();
        let (base_url, secret, user_id) =
            checked_account(&format!("{}/", sim.base_url), &key, None)
                .await
                .expect("the service, and the key is good there");
        assert_eq!(base_url, sim.base_url);
        assert_eq!(secret.expose(), key);
        assert!(!user_id.is_empty());
        let seen = sim.state().requests_seen();
        let health = seen.iter().position(|r| r.path == "/health");
        let auth = seen.iter().position(|r| r.path == "/v1/agents/auth");
        assert!(
            health.is_some() && health < auth,
            "checked before the key went: {seen:?}"
        );
    }

    #[tokio::test]
    async fn an_account_elsewhere_is_connected_over_https_only() {
        let sim = Sim::start(Config::default()).await.unwrap();
        let key = sim.account("ada").api_key.clone().unwrap();
        let (base_url, _, _) = checked_account(&format!(" {}/ ", sim.base_url), &key, None)
            .await
            .expect("the simulator is on this computer");
        assert_eq!(base_url, sim.base_url);
        let port = url::Url::parse(&sim.base_url).unwrap().port().unwrap();
        checked_account(&format!("http://localhost:{port}"), &key, None)
            .await
            .expect("localhost is this computer");

        for elsewhere in ["http://api.example.com", "http://192.168.1.20:8080"] {
            let refused = checked_account(elsewhere, &key, None).await.unwrap_err();
            let words = UiError::from(&refused);
            assert_eq!(words.code, crate::UiCode::InsecureAddress, "{elsewhere}");
            assert!(words.detail.contains("https://"), "{}", words.detail);
            assert!(!words.detail.contains(elsewhere), "nothing typed echoed");
        }
    }
}
