//! The service the app talks to right now (Demo or account) and its client.
//!
//! Invariant: one `Active` at a time; each switch bumps `generation`, so work started for an
//! older connection (followers, refreshers) can tell it is stale and stop.

pub mod account_client;
pub mod demo;
pub mod demo_world;
pub mod keychain;
pub mod service_address;
pub mod settings;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use porthole_client::Client;
use serde::Serialize;
use tokio::sync::watch;

use crate::error::{AppError, AppResult, UiError};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum ConnectionMode {
    Demo,
    Account,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum ConnectionState {
    Connecting,
    Ready,
    Failed,
}

/// What the page knows about the connection. No secret in here.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionInfo {
    pub mode: ConnectionMode,
    pub state: ConnectionState,
    /// The account's service address (not shown for the Demo).
    pub base_url: Option<String>,
    pub user_id: Option<String>,
    /// An account is saved, even while the Demo is in use.
    pub has_saved_account: bool,
    pub error: Option<UiError>,
}

#[derive(Clone)]
pub struct Active {
    pub client: Client,
    /// Conversations belong to this scope.
    pub scope: String,
    pub generation: u64,
}

/// Cheap to clone: clones share one connection (the window's state and the conversations
/// core hold the same one).
#[derive(Clone)]
pub struct Connection {
    active: Arc<watch::Sender<Option<Active>>>,
    /// Counted apart from `active`: while a switch is under way there is no `Active` to read
    /// the last generation from, and counting from it gave every connection generation 1.
    switches: Arc<AtomicU64>,
    info: Arc<std::sync::Mutex<ConnectionInfo>>,
}

impl Default for Connection {
    fn default() -> Self {
        Self {
            active: Arc::new(watch::Sender::new(None)),
            switches: Arc::new(AtomicU64::new(0)),
            info: Arc::new(std::sync::Mutex::new(ConnectionInfo {
                mode: ConnectionMode::Demo,
                state: ConnectionState::Connecting,
                base_url: None,
                user_id: None,
                has_saved_account: false,
                error: None,
            })),
        }
    }
}

impl Connection {
    pub fn info(&self) -> ConnectionInfo {
        self.info.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub fn set_info(&self, info: ConnectionInfo) {
        *self.info.lock().unwrap_or_else(|e| e.into_inner()) = info;
    }

    /// Drops the current client; callers wait until the next one is set.
    pub fn begin_switch(&self, mode: ConnectionMode) {
        self.active.send_replace(None);
        let mut info = self.info.lock().unwrap_or_else(|e| e.into_inner());
        info.mode = mode;
        info.state = ConnectionState::Connecting;
        info.error = None;
    }

    /// Installs a client; returns its generation.
    pub fn activate(&self, client: Client, scope: String) -> u64 {
        let generation = self.switches.fetch_add(1, Ordering::Relaxed) + 1;
        self.active.send_replace(Some(Active {
            client,
            scope,
            generation,
        }));
        generation
    }

    /// The active connection's scope now, without waiting (`None` while switching).
    pub fn scope(&self) -> Option<String> {
        self.active.borrow().as_ref().map(|a| a.scope.clone())
    }

    pub fn generation(&self) -> u64 {
        self.active.borrow().as_ref().map_or(0, |a| a.generation)
    }

    /// The active client, waiting a little while one is being set up.
    pub async fn active(&self) -> AppResult<Active> {
        let mut rx = self.active.subscribe();
        let wait = rx.wait_for(|a| a.is_some());
        let active = match tokio::time::timeout(Duration::from_secs(20), wait).await {
            Ok(Ok(active)) => active.clone(),
            _ => None,
        };
        active.ok_or(AppError::NotConnected)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client() -> Client {
        Client::new(
            "http://127.0.0.1:9",
            porthole_client::Credential::api_key("k").expect("key"),
        )
        .expect("client")
    }

    #[test]
    fn every_switch_gets_a_new_generation_and_none_while_switching() {
        let connection = Connection::default();
        let first = connection.activate(client(), "a".into());
        connection.begin_switch(ConnectionMode::Account);
        assert_eq!(connection.generation(), 0, "no connection while switching");
        let second = connection.activate(client(), "b".into());
        assert_ne!(first, second);
        assert_eq!(connection.generation(), second);
        connection.begin_switch(ConnectionMode::Demo);
        let third = connection.activate(client(), "a".into());
        assert!(third != first && third != second);
    }
}
