//! The account commands the page may call: sign-in, keys and the account's figures. Thin
//! adapters over the modules beside this one.

use porthole_client::account::Account;
use porthole_client::Secret;
use tauri::{AppHandle, Manager, State};
use tauri_plugin_opener::OpenerExt;

use super::identity::{self, IdentityInfo};
use super::keys::{self, KeysView, NewKey};
use super::signin;
use super::signin_config::BrowserSignIn;
use crate::connection::switchboard::Switchboard;
use crate::connection::Connection;
use crate::error::{AppError, UiError};
use crate::persist::SettingsStore;

type Res<T> = Result<T, UiError>;

/// The current sign-in with the identity provider, if any (never the token).
#[tauri::command]
#[specta::specta]
pub async fn identity_info(board: State<'_, Switchboard>) -> Res<Option<IdentityInfo>> {
    Ok(identity::current(&board).await?)
}

/// Whether this copy can sign in through the browser at `base_url` (with Google): always at
/// the Demo; at the service's known address only when it was built with the sign-in's
/// configuration; never at an address typed by hand. When not, the page says why instead of
/// offering a button that cannot work.
#[tauri::command]
#[specta::specta]
pub async fn browser_sign_in_ready(app: AppHandle, base_url: String) -> BrowserSignIn {
    // Async with a plain answer, so no `State` parameter (Tauri allows borrowed inputs only
    // to async commands that return a `Result`): the Demo is taken from the switchboard.
    let demo = app.state::<Switchboard>().demo.clone();
    super::signin_config::readiness(&demo, &base_url).await
}

/// Opens the service's web portal (where API keys are made) in the system browser. The page
/// names no address: Rust opens its own.
#[tauri::command]
#[specta::specta]
pub fn open_key_portal(app: AppHandle) -> Res<()> {
    app.opener()
        .open_url(crate::connection::service_address::PORTAL, None::<&str>)
        .map_err(|_| UiError::from(crate::error::UiCode::BrowserUnavailable))
}

/// Signs in through the system browser: Google, then Firebase (see `signin`).
#[tauri::command]
#[specta::specta]
pub async fn sign_in_with_browser(
    app: AppHandle,
    board: State<'_, Switchboard>,
    base_url: String,
) -> Res<IdentityInfo> {
    let Some(config) = super::signin_config::for_address(&board.demo, &base_url).await else {
        let why = match super::signin_config::readiness(&board.demo, &base_url).await {
            BrowserSignIn::NotHere => AppError::SignInNotHere,
            _ => AppError::SignInUnavailable("built without Google sign-in".into()),
        };
        return Err(why.into());
    };
    let open = |url: String| {
        app.opener()
            .open_url(url, None::<&str>)
            .map_err(|e| AppError::SignInUnavailable(e.to_string()))
    };
    signin::with_browser(&board, &base_url, &config, open).await
}

/// Stops waiting for the browser: the loopback listener closes and nothing is kept.
/// Returns whether a sign-in was waiting.
#[tauri::command]
#[specta::specta]
pub fn cancel_sign_in(board: State<'_, Switchboard>) -> bool {
    board.browser_wait.cancel()
}

/// Signs in with a pasted identity-provider token.
#[tauri::command]
#[specta::specta]
pub async fn sign_in_with_token(
    board: State<'_, Switchboard>,
    base_url: String,
    token: String,
) -> Res<IdentityInfo> {
    Ok(signin::accept_token(&board, &base_url, Secret::new(token)).await?)
}

/// Moves Porthole to the signed-in account (a key of its own, kept in the keychain), unless
/// it is on that account already; returns whether the connection changed.
#[tauri::command]
#[specta::specta]
pub async fn connect_signed_in(board: State<'_, Switchboard>) -> Res<bool> {
    super::connect::connect_signed_in(&board)
        .await
        .map_err(|e| super::connect::words(&e))
}

/// Where signing in goes unless the person says otherwise (`None`: they type it).
#[tauri::command]
#[specta::specta]
pub fn sign_in_address(settings: State<'_, SettingsStore>) -> Option<String> {
    super::connect::default_address(&settings)
}

#[tauri::command]
#[specta::specta]
pub async fn forget_sign_in(board: State<'_, Switchboard>) -> Res<()> {
    board.fresh_key.clear();
    Ok(identity::forget(&board.identity).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn list_keys(board: State<'_, Switchboard>) -> Res<KeysView> {
    Ok(keys::list(&board).await?)
}

/// The answer carries the new key's secret for its one display (see `keys`).
#[tauri::command]
#[specta::specta]
pub async fn create_key(board: State<'_, Switchboard>, name: Option<String>) -> Res<NewKey> {
    Ok(keys::create(&board, name).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn use_new_key(board: State<'_, Switchboard>, key_id: String) -> Res<()> {
    Ok(keys::use_in_porthole(&board, &key_id).await?)
}

/// The new key's display closed: Rust forgets its secret too.
#[tauri::command]
#[specta::specta]
pub fn close_new_key(board: State<'_, Switchboard>) {
    board.fresh_key.clear();
}

#[tauri::command]
#[specta::specta]
pub async fn revoke_key(board: State<'_, Switchboard>, key_id: String) -> Res<()> {
    Ok(keys::revoke(&board, &key_id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn get_account(connection: State<'_, Connection>) -> Res<Account> {
    let active = connection.active().await?;
    Ok(active
        .client
        .account()
        .get()
        .await
        .map_err(AppError::from)?)
}
