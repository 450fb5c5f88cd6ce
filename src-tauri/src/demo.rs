//! The Demo: the simulator started in-process on loopback, signed in as its paid account.
//!
//! The Demo's key comes from the simulator and stays in this process's memory.
//! `PORTHOLE_SIM_TIME_SCALE` speeds the simulator up (tests); `PORTHOLE_DEMO_URL` with
//! `PORTHOLE_DEMO_KEY` uses a simulator already running instead (so a test can restart the
//! app and find its tasks still running).

use porthole_client::{ClientConfig, Credential};
use porthole_sim::{Config, RunningSim, Sim};
use tokio::sync::Mutex;

use crate::error::{AppError, AppResult};

/// The Demo's account on the simulator.
pub const DEMO_ACCOUNT: &str = "ada";

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
}

pub fn time_scale() -> f64 {
    std::env::var("PORTHOLE_SIM_TIME_SCALE")
        .ok()
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|v| v.is_finite() && *v > 0.0 && *v <= 1.0)
        .unwrap_or(1.0)
}

fn config() -> ClientConfig {
    let scale = time_scale();
    if scale < 1.0 {
        ClientConfig::time_scaled(scale)
    } else {
        ClientConfig::default()
    }
}

impl DemoService {
    /// The Demo account's identity-provider token, for key management and new computers
    /// (`account::identity`); it stays in Rust. `PORTHOLE_DEMO_ID_TOKEN` goes with
    /// `PORTHOLE_DEMO_URL`.
    pub async fn id_token(&self) -> Option<porthole_client::Secret> {
        if std::env::var("PORTHOLE_DEMO_URL").is_ok() {
            return std::env::var("PORTHOLE_DEMO_ID_TOKEN")
                .ok()
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
        if let (Ok(url), Ok(key)) = (
            std::env::var("PORTHOLE_DEMO_URL"),
            std::env::var("PORTHOLE_DEMO_KEY"),
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
            let started = Sim::start(Config {
                time_scale: time_scale(),
                ..Config::default()
            })
            .await
            .map_err(|e| AppError::DemoUnavailable(e.to_string()))?;
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
