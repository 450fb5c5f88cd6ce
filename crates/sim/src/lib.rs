//! porthole-sim: a faithful simulator of the Agent Computer Service, served over real HTTP,
//! SSE and WebSocket on loopback. It is the app's Demo service and every test's peer.
//!
//! Start it in-process with [`Sim::start`] (inside the caller's tokio runtime) or as the
//! `porthole-sim` binary, which prints [`RunningSim::ready_line`] on stdout.

pub mod accounts;
pub mod agent;
pub mod approvals;
pub mod auth;
pub mod body;
pub mod clock;
pub mod control;
pub mod conversations;
pub mod credits;
pub mod desktop;
pub mod error;
pub mod events;
pub mod faults;
pub mod firebase;
pub mod google;
pub mod health;
pub mod idp;
pub mod judge;
pub mod keys;
pub mod learn;
pub mod limits;
pub mod live_view;
pub mod machines;
pub mod messages;
pub mod models;
pub mod records;
mod router;
pub mod seen;
pub mod sessions;
pub mod shapes;
pub mod state;
pub mod stream;
mod task_words;
pub mod tasks;
pub mod turn_id;
pub mod turns;
pub mod uploads;
pub mod world;

pub use accounts::SimAccount;
pub use faults::FaultSpec;
pub use seen::SeenRequest;
pub use shapes::Shapes;
pub use state::AppState;
pub use turn_id::TurnIdIn;
pub use world::World;

use axum::serve::ListenerExt;
use std::net::SocketAddr;
use tokio::sync::oneshot;

/// The simulator's one error type.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("could not listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error(
        "bad fault spec `{0}`: expected name=rate with a rate from 0 to 1 (see the faults module)"
    )]
    BadFaults(String),
    #[error(
        "bad --turn-id-in `{0}`: expected message, start, session, poll (comma-separated) or none"
    )]
    BadTurnIdIn(String),
    #[error("bad --shapes `{0}`: expected contract or makers")]
    BadShapes(String),
}

/// How to run a simulator.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where to listen; port 0 picks a free port.
    pub addr: SocketAddr,
    /// Multiplies every documented delay and limit window (0.01: 100 times faster).
    pub time_scale: f64,
    /// Injected failures.
    pub faults: FaultSpec,
    /// Seed of the fault generator, so failures repeat.
    pub seed: u64,
    /// Where `turnId` appears in a message's answers (see [`TurnIdIn`]).
    pub turn_id_in: TurnIdIn,
    /// The answers' shapes: the contract's, or the makers' client's (see [`Shapes`]).
    pub shapes: Shapes,
    /// A world kept from an earlier run to start from (see [`World`]); `None` starts fresh.
    pub world: Option<World>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            time_scale: 1.0,
            faults: FaultSpec::none(),
            seed: 0,
            turn_id_in: TurnIdIn::default(),
            shapes: Shapes::default(),
            world: None,
        }
    }
}

/// Entry point.
pub struct Sim;

impl Sim {
    /// Binds, seeds the accounts and serves on the current tokio runtime until the returned
    /// handle is shut down or dropped.
    pub async fn start(config: Config) -> Result<RunningSim, SimError> {
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .map_err(|source| SimError::Bind {
                addr: config.addr,
                source,
            })?;
        let local = listener.local_addr().map_err(|source| SimError::Bind {
            addr: config.addr,
            source,
        })?;
        let base_url = format!("http://{local}");
        let (state, accounts) = router::seed(&config, &base_url);
        let app = router::build(state.clone());
        let (stop_tx, stop_rx) = oneshot::channel::<()>();
        let server = tokio::spawn(async move {
            // TCP_NODELAY, as Tomcat (which serves Guacamole's own web app) sets by default: a
            // live frame is several small websocket messages, and with Nagle's algorithm the
            // last of them waited for the viewer's delayed ACK (~40 ms), capping every viewer
            // near 40 fps whatever it asked for.
            let listener = listener.tap_io(|tcp| {
                let _ = tcp.set_nodelay(true);
            });
            let serve = axum::serve(listener, app).with_graceful_shutdown(async move {
                let _ = stop_rx.await;
            });
            if let Err(e) = serve.await {
                tracing::error!("server stopped: {e}");
            }
        });
        tracing::info!("porthole-sim serving on {base_url}");
        Ok(RunningSim {
            base_url,
            accounts,
            state,
            stop: Some(stop_tx),
            server: Some(server),
        })
    }
}

/// A serving simulator. Dropping it stops the server.
pub struct RunningSim {
    /// `http://127.0.0.1:PORT`.
    pub base_url: String,
    /// ada, fred, nophone, ulla, pat (see `accounts`).
    pub accounts: Vec<SimAccount>,
    state: AppState,
    stop: Option<oneshot::Sender<()>>,
    server: Option<tokio::task::JoinHandle<()>>,
}

impl RunningSim {
    /// The one JSON line the binary prints when ready.
    pub fn ready_line(&self) -> String {
        /// Field order as the README shows it: `baseUrl`, then the accounts.
        #[derive(serde::Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Ready<'a> {
            base_url: &'a str,
            accounts: &'a [SimAccount],
        }
        serde_json::to_string(&Ready {
            base_url: &self.base_url,
            accounts: &self.accounts,
        })
        .unwrap_or_default()
    }

    /// The account with this name. Panics on a name the simulator does not have, which is
    /// a bug in the caller (names are fixed: ada, fred, nophone, ulla, pat).
    pub fn account(&self, name: &str) -> &SimAccount {
        self.accounts
            .iter()
            .find(|a| a.name == name)
            .unwrap_or_else(|| panic!("the simulator has no account named {name}"))
    }

    /// The simulator's state, for in-process tests that need to look inside.
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// How many times the injected `fault` has happened so far (`--faults`).
    pub fn injected(&self, fault: faults::Fault) -> u64 {
        self.state.faults().injected(fault)
    }

    /// Stops serving and waits for the server task to end. Open streams are cut.
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(server) = self.server.take() {
            server.abort();
            let _ = server.await;
        }
    }
}

impl Drop for RunningSim {
    fn drop(&mut self) {
        if let Some(server) = self.server.take() {
            server.abort();
        }
    }
}
