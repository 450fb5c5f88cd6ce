//! Updates: Porthole checks its signed update feed once at start, fetches a newer version in
//! the background and offers it only once its signature has been verified, so the offer a
//! person sees never ends in "could not be verified" after they said yes. A signature that
//! does not verify is said so in a sentence and nothing is installed. A feed that cannot be
//! reached says nothing: a missed check is not something a person has to act on.
//!
//! The signature check itself is tauri-plugin-updater's (minisign); where the feed and its key
//! come from is in [`source`].

pub mod commands;
pub mod source;

use serde::{Deserialize, Serialize};
use tauri::{AppHandle, Manager};
use tauri_plugin_updater::{Update, UpdaterExt};
use tauri_specta::Event;
use tokio::sync::Mutex;

/// What the page shows about updates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(tag = "state", rename_all = "camelCase")]
pub enum UpdateStatus {
    /// Nothing to offer (none found, checks off in this build, or put off with Later).
    None,
    /// A newer version, downloaded and verified, ready to install.
    Available { version: String },
    /// The feed offered this version but its signature did not verify: nothing was installed.
    Unverified { version: String },
    /// Installing the verified version went wrong; it can be tried again.
    InstallFailed { version: String },
}

/// The update status changed: ask for it again.
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type, tauri_specta::Event)]
pub struct UpdateStatusChanged;

/// What the app holds about updates: the verified package stays here until it is installed.
#[derive(Default)]
pub struct Updates(Mutex<Held>);

#[derive(Default)]
enum Held {
    #[default]
    Nothing,
    Ready {
        update: Box<Update>,
        bytes: Vec<u8>,
        failed: bool,
    },
    Unverified {
        version: String,
    },
}

impl Held {
    fn status(&self) -> UpdateStatus {
        match self {
            Held::Nothing => UpdateStatus::None,
            Held::Ready { update, failed, .. } => {
                let version = update.version.clone();
                if *failed {
                    UpdateStatus::InstallFailed { version }
                } else {
                    UpdateStatus::Available { version }
                }
            }
            Held::Unverified { version } => UpdateStatus::Unverified {
                version: version.clone(),
            },
        }
    }
}

/// Checks the feed in the background; the page hears of an offer by [`UpdateStatusChanged`].
pub fn start(app: &AppHandle) {
    let configured = source::configured_pubkey(app.config());
    let Some(feed) = source::feed_source(&configured) else {
        tracing::info!("update checks are off: this build has no update signing key");
        return;
    };
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        let held = match fetch(&app, feed).await {
            Ok(held) => held,
            Err(err) => {
                tracing::warn!("update check failed: {err}");
                return;
            }
        };
        *app.state::<Updates>().0.lock().await = held;
        let _ = UpdateStatusChanged.emit(&app);
    });
}

async fn fetch(app: &AppHandle, feed: source::FeedSource) -> tauri_plugin_updater::Result<Held> {
    let mut builder = app.updater_builder().pubkey(feed.pubkey);
    if let Some(endpoint) = feed.endpoint {
        builder = builder.endpoints(vec![endpoint])?;
    }
    let Some(update) = builder.build()?.check().await? else {
        return Ok(Held::Nothing);
    };
    tracing::info!("Porthole {} is available; fetching it", update.version);
    // `download` verifies the signature against the trusted key before it returns the bytes.
    match update.download(|_, _| {}, || {}).await {
        Ok(bytes) => Ok(Held::Ready {
            update: Box::new(update),
            bytes,
            failed: false,
        }),
        Err(err) if is_signature_failure(&err) => {
            tracing::warn!("update {} refused: {err}", update.version);
            Ok(Held::Unverified {
                version: update.version,
            })
        }
        Err(err) => Err(err),
    }
}

/// The errors that mean "this package is not the one our key signed".
fn is_signature_failure(err: &tauri_plugin_updater::Error) -> bool {
    use tauri_plugin_updater::Error as E;
    matches!(
        err,
        E::Minisign(_)
            | E::Base64(_)
            | E::SignatureUtf8(_)
            | E::SignedVersionMismatch { .. }
            | E::MissingSignedVersion
    )
}

pub async fn status(app: &AppHandle) -> UpdateStatus {
    app.state::<Updates>().0.lock().await.status()
}

/// Installs the verified package and restarts into it. On failure the package is kept, so the
/// offer can say it went wrong and be tried again.
pub async fn install(app: &AppHandle) -> UpdateStatus {
    let updates = app.state::<Updates>();
    let mut held = updates.0.lock().await;
    let Held::Ready {
        update,
        bytes,
        failed,
    } = &mut *held
    else {
        return held.status();
    };
    // Installing may wait on the system's password prompt (pkexec for a .deb): off the runtime.
    let (to_install, package) = (update.clone(), std::mem::take(bytes));
    let outcome = tokio::task::spawn_blocking(move || {
        let result = to_install.install(&package);
        (result, package)
    })
    .await;
    match outcome {
        Ok((Ok(()), _)) => app.restart(),
        Ok((Err(err), package)) => {
            tracing::warn!("installing update {} failed: {err}", update.version);
            *bytes = package;
        }
        Err(err) => tracing::warn!("installing update {} failed: {err}", update.version),
    }
    *failed = true;
    let status = held.status();
    drop(held);
    let _ = UpdateStatusChanged.emit(app);
    status
}

/// Later / OK: nothing more is said about updates until the next start.
pub async fn dismiss(app: &AppHandle) -> UpdateStatus {
    let updates = app.state::<Updates>();
    *updates.0.lock().await = Held::Nothing;
    UpdateStatus::None
}
