//! The API key at rest: the OS keychain, one entry per service address.
//!
//! Invariant: the key goes from here into a [`Credential`] and nowhere else; errors carry
//! the keychain's complaint, never the key. Where no keychain answers, every call fails (the
//! person reads the "keychain" words) and the key is kept nowhere: there is no fallback file.

// keyring keeps secrets in memory only on a platform whose store is not enabled (Cargo.toml
// enables one per desktop), which would lose the key silently: refuse to build there instead.
#[cfg(not(any(target_os = "linux", target_os = "macos", target_os = "windows")))]
compile_error!(
    "Porthole keeps keys in the OS keychain, which it supports on Linux, macOS and Windows only"
);

use porthole_client::{Credential, Secret};

use crate::error::{AppError, AppResult};

const SERVICE: &str = "app.porthole.desktop";

fn entry(base_url: &str) -> AppResult<keyring::Entry> {
    keyring::Entry::new(SERVICE, base_url).map_err(|e| AppError::Keychain(e.to_string()))
}

/// Keychain calls block (D-Bus); run them off the async threads.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> AppResult<T> + Send + 'static,
) -> AppResult<T> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| AppError::Keychain(e.to_string()))?
}

pub async fn save(base_url: &str, key: &Secret) -> AppResult<()> {
    let (base_url, key) = (base_url.to_owned(), key.clone());
    blocking(move || {
        entry(&base_url)?
            .set_password(key.expose())
            .map_err(|e| AppError::Keychain(e.to_string()))
    })
    .await
}

/// The saved key as a credential; `None` when there is none.
pub async fn load(base_url: &str) -> AppResult<Option<Credential>> {
    let base_url = base_url.to_owned();
    blocking(move || match entry(&base_url)?.get_password() {
        Ok(key) => Credential::api_key(&key)
            .map(Some)
            .map_err(AppError::Client),
        Err(keyring::Error::NoEntry) => Ok(None),
        Err(e) => Err(AppError::Keychain(e.to_string())),
    })
    .await
}

pub async fn delete(base_url: &str) -> AppResult<()> {
    let base_url = base_url.to_owned();
    blocking(move || match entry(&base_url)?.delete_credential() {
        Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
        Err(e) => Err(AppError::Keychain(e.to_string())),
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::UiError;

    /// Set in the child process that runs without a keychain.
    const CHILD: &str = "PORTHOLE_TEST_NO_KEYCHAIN";

    /// The calls run in a child process of this test binary whose D-Bus session address leads
    /// nowhere, so no Secret Service answers; changing this process's environment would race
    /// the other tests, and the person's real keychain is never touched.
    #[test]
    fn without_a_keychain_nothing_is_kept_and_the_person_is_told_why() {
        if std::env::var_os(CHILD).is_none() {
            let exe = std::env::current_exe().expect("test binary");
            // This test's name as the harness knows it: its module path without the crate.
            let module = module_path!().split_once("::").map_or("", |(_, m)| m);
            let name =
                format!("{module}::without_a_keychain_nothing_is_kept_and_the_person_is_told_why");
            let child = std::process::Command::new(exe)
                .args(["--exact", name.as_str(), "--nocapture"])
                .env(CHILD, "1")
                .env(
                    "DBUS_SESSION_BUS_ADDRESS",
                    "unix:path=/nonexistent/porthole-test-bus",
                )
                .env_remove("DISPLAY")
                .output()
                .expect("run the child");
            let out = String::from_utf8_lossy(&child.stdout);
            assert!(child.status.success(), "the child test failed: {out}");
            // A filter that matched nothing would pass too.
            assert!(out.contains("1 passed"), "the child ran no test: {out}");
            return;
        }
        let runtime = tokio::runtime::Runtime::new().expect("runtime");
        runtime.block_on(async {
            let base_url = "https://api.example.test";
            let key = Secret::new("pk_test_never_kept");
            let saved = save(base_url, &key).await;
            let Err(err @ AppError::Keychain(_)) = saved else {
                panic!("saving without a keychain must fail, got {saved:?}");
            };
            let words = UiError::from(&err);
            assert_eq!(words.code, crate::UiCode::Keychain);
            assert_eq!(words.title, "Couldn't use the system keychain");
            assert!(!words.detail.contains("pk_test"));
            // Reading fails too, rather than passing for "no key saved".
            assert!(matches!(load(base_url).await, Err(AppError::Keychain(_))));
        });
    }
}
