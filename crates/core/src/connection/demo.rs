//! The Demo: the simulator started in-process on loopback, signed in as its paid account.
//!
//! The Demo's key comes from the simulator and stays in this process's memory.
//! `PORTHOLE_SIM_TIME_SCALE` speeds the simulator up (tests); `PORTHOLE_SIM_TURN_ID_IN`
//! (`none`, or places such as `start,poll`) says where the simulator puts a task's turn id, so
//! a test can show the app without one; `PORTHOLE_DEMO_URL` with
//! `PORTHOLE_DEMO_KEY` uses a simulator already running instead (so a test can restart the
//! app and find its tasks still running). A release build reads none of them (`test_switch`).
//!
//! The in-process Demo's world is kept with the app's data (`demo_world.rs`): it starts from
//! what it was when the app last ended, and [`DemoService::reset`] starts it fresh.

use porthole_client::{ClientConfig, Credential};
use porthole_sim::{Config, RunningSim, Sim, TurnIdIn};
use std::path::Path;
use std::sync::{Arc, OnceLock};
use tokio::runtime::Runtime;
use tokio::sync::Mutex;
use tokio::task::JoinHandle;

use super::demo_world::KeptWorld;
use crate::error::{AppError, AppResult};
use crate::store::SetAside;

/// The Demo's account on the simulator.
pub const DEMO_ACCOUNT: &str = "ada";

/// Whose conversations are the in-process Demo's (a simulator named by `PORTHOLE_DEMO_URL`
/// has its address in its scope).
pub const SCOPE: &str = "demo";

/// Where the Demo service is and how to talk to it.
pub struct DemoEndpoint {
    pub base_url: String,
    pub credential: Credential,
    pub config: ClientConfig,
    /// Conversations of an in-process simulator do not outlive the app.
    pub ephemeral: bool,
}

#[derive(Default)]
pub struct DemoService {
    sim: Mutex<Option<RunningSim>>,
    /// Where the Demo's world is kept; `None` keeps nothing (tests).
    kept: Option<Arc<KeptWorld>>,
    /// Saves the running Demo's world as it changes.
    saver: std::sync::Mutex<Option<JoinHandle<()>>>,
}

/// The runtime the in-process simulator serves on, apart from the app's own.
///
/// The simulator encodes the live screen's pictures (a quarter of a core at 1920×1080, in
/// pieces of several milliseconds) and runs every task's agent. On the app's runtime that work
/// shared the async workers that the live-view bridge, the task streams and every command run
/// on. A real service is never on the app's threads, so the Demo is kept off them too (what it
/// did to the live view's latency, measured, is in BENCHMARKS.md, "Live view in the app").
static DEMO_RUNTIME: OnceLock<Runtime> = OnceLock::new();

fn demo_runtime() -> std::io::Result<&'static Runtime> {
    if let Some(runtime) = DEMO_RUNTIME.get() {
        return Ok(runtime);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("porthole-demo")
        .enable_all()
        .build()?;
    if let Err(lost) = DEMO_RUNTIME.set(runtime) {
        // Another caller made one first; a runtime cannot be dropped on an async thread.
        lost.shutdown_background();
    }
    DEMO_RUNTIME
        .get()
        .ok_or_else(|| std::io::Error::other("the Demo's runtime is gone"))
}

pub fn time_scale() -> f64 {
    crate::test_switch::var("PORTHOLE_SIM_TIME_SCALE")
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|v| v.is_finite() && *v > 0.0 && *v <= 1.0)
        .unwrap_or(1.0)
}

/// Where the in-process simulator puts turn ids; its default when unset or unreadable.
fn turn_id_in() -> TurnIdIn {
    crate::test_switch::var("PORTHOLE_SIM_TURN_ID_IN")
        .and_then(|v| TurnIdIn::parse(&v).ok())
        .unwrap_or_default()
}

fn config() -> ClientConfig {
    let scale = time_scale();
    if scale < 1.0 {
        ClientConfig::time_scaled(scale)
    } else {
        ClientConfig::default()
    }
}

/// Debug builds only: `PORTHOLE_TEST_MESSAGES_SPENT` counts that many tasks as already sent
/// this hour by the Demo's client, so an end-to-end test meets the service's hourly message
/// limit (a scheduled run skipped, with its reason) without sending sixty tasks first. A
/// release build never reads it.
pub fn spend_for_tests(client: &porthole_client::Client) {
    let spent = crate::test_switch::var("PORTHOLE_TEST_MESSAGES_SPENT")
        .and_then(|v| v.trim().parse::<usize>().ok());
    if let Some(calls) = spent {
        client.count_as_spent(porthole_client::Limit::Messages, calls);
    }
}

impl DemoService {
    /// A Demo whose world is kept in the data folder `dir`, read now so that a file that
    /// could not be read is among the first screen's notices.
    pub fn keeping_in(dir: &Path) -> Self {
        Self {
            kept: Some(Arc::new(KeptWorld::open_in(dir))),
            ..Self::default()
        }
    }

    /// The Demo's kept world, moved aside at start because it could not be read.
    pub fn set_aside(&self) -> Option<&SetAside> {
        self.kept.as_ref()?.set_aside()
    }

    /// Whether the Demo is this app's own, which [`Self::reset`] can start fresh (not a
    /// simulator named by `PORTHOLE_DEMO_URL`).
    pub fn is_own(&self) -> bool {
        crate::test_switch::var("PORTHOLE_DEMO_URL").is_none()
    }

    /// Saves the running Demo's world now: the app is ending.
    pub fn save_now(&self) {
        let (Some(kept), Ok(sim)) = (&self.kept, self.sim.try_lock()) else {
            return;
        };
        if let Some(sim) = sim.as_ref() {
            if let Err(err) = kept.save(sim.state()) {
                tracing::warn!(error = %err, "the Demo's world was not saved at the end");
            }
        }
    }

    /// Stops the Demo and forgets its world: the next [`Self::endpoint`] starts it fresh,
    /// with new computers and no conversations.
    pub async fn reset(&self) -> AppResult<()> {
        let mut sim = self.sim.lock().await;
        self.stop_saving();
        if let Some(running) = sim.take() {
            running.shutdown().await;
        }
        match &self.kept {
            Some(kept) => kept.forget(),
            None => Ok(()),
        }
    }

    /// Stops the Demo, its world saved as it ends (what the end of the app does to it).
    pub async fn close(&self) {
        let mut sim = self.sim.lock().await;
        self.stop_saving();
        if let Some(running) = sim.take() {
            if let Some(kept) = &self.kept {
                if let Err(err) = kept.save(running.state()) {
                    tracing::warn!(error = %err, "the Demo's world was not saved at the end");
                }
            }
            running.shutdown().await;
        }
    }

    fn stop_saving(&self) {
        if let Some(saver) = self.saver.lock().unwrap_or_else(|e| e.into_inner()).take() {
            saver.abort();
        }
    }

    /// The Demo's address, when it runs (or is the simulator named by `PORTHOLE_DEMO_URL`):
    /// signing in there uses the simulator's own sign-in (`account::signin_config`).
    pub async fn base_url(&self) -> Option<String> {
        if let Some(url) = crate::test_switch::var("PORTHOLE_DEMO_URL") {
            return Some(url);
        }
        let sim = self.sim.lock().await;
        sim.as_ref().map(|s| s.base_url.clone())
    }

    /// The Demo account's identity-provider token, for key management and new computers
    /// (`account::identity`); it stays in Rust. `PORTHOLE_DEMO_ID_TOKEN` goes with
    /// `PORTHOLE_DEMO_URL`.
    pub async fn id_token(&self) -> Option<porthole_client::Secret> {
        if crate::test_switch::var("PORTHOLE_DEMO_URL").is_some() {
            return crate::test_switch::var("PORTHOLE_DEMO_ID_TOKEN")
                .map(porthole_client::Secret::new);
        }
        let sim = self.sim.lock().await;
        let account = sim
            .as_ref()?
            .accounts
            .iter()
            .find(|a| a.name == DEMO_ACCOUNT)?;
        Some(porthole_client::Secret::new(account.id_token.clone()))
    }

    /// Starts the simulator once; later calls reuse it.
    pub async fn endpoint(&self) -> AppResult<DemoEndpoint> {
        if let (Some(url), Some(key)) = (
            crate::test_switch::var("PORTHOLE_DEMO_URL"),
            crate::test_switch::var("PORTHOLE_DEMO_KEY"),
        ) {
            return Ok(DemoEndpoint {
                base_url: url,
                credential: Credential::api_key(&key)?,
                config: config(),
                ephemeral: false,
            });
        }
        let mut sim = self.sim.lock().await;
        if sim.is_none() {
            let config = Config {
                time_scale: time_scale(),
                turn_id_in: turn_id_in(),
                world: self.kept.as_ref().and_then(|k| k.take()),
                ..Config::default()
            };
            let unavailable = |e: &dyn std::fmt::Display| AppError::DemoUnavailable(e.to_string());
            let runtime = demo_runtime().map_err(|e| unavailable(&e))?;
            // Started on the Demo's runtime, so everything it spawns serves from there.
            let started = runtime
                .spawn(Sim::start(config))
                .await
                .map_err(|e| unavailable(&e))?
                .map_err(|e| unavailable(&e))?;
            if let Some(kept) = &self.kept {
                let saver = runtime.spawn(kept.keep_saving(started.state().clone()));
                let old = self
                    .saver
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .replace(saver);
                if let Some(old) = old {
                    old.abort();
                }
            }
            *sim = Some(started);
        }
        let running = sim
            .as_ref()
            .ok_or(AppError::DemoUnavailable("gone".into()))?;
        let key = running
            .accounts
            .iter()
            .find(|a| a.name == DEMO_ACCOUNT)
            .and_then(|a| a.api_key.clone())
            .ok_or_else(|| AppError::DemoUnavailable("no demo account".into()))?;
        Ok(DemoEndpoint {
            base_url: running.base_url.clone(),
            credential: Credential::api_key(&key)?,
            config: config(),
            ephemeral: true,
        })
    }
}

#[cfg(test)]
#[path = "demo_world_tests.rs"]
mod demo_world_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::time::Duration;

    /// The app's runtime blocked (as a long task would hold it) while a request is made to the
    /// Demo: it answers only if it serves from threads of its own.
    #[tokio::test(flavor = "current_thread")]
    async fn the_demo_serves_while_the_apps_runtime_is_busy() {
        let demo = DemoService::default();
        let endpoint = demo.endpoint().await.expect("the Demo starts");
        let addr = endpoint.base_url.trim_start_matches("http://").to_owned();
        // Blocking this thread is the point: it is the test's only runtime thread.
        let mut tcp = std::net::TcpStream::connect(&addr).expect("connects");
        tcp.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        tcp.write_all(
            b"GET /v1/agents/machines HTTP/1.1\r\nHost: demo\r\nConnection: close\r\n\r\n",
        )
        .unwrap();
        let mut head = [0u8; 12];
        tcp.read_exact(&mut head)
            .expect("the Demo answers while the app's runtime is blocked");
        assert!(head.starts_with(b"HTTP/1.1 "), "{head:?}");
    }
}
