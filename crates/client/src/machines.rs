//! Machines: list, create (identity-provider session only), live view, wake.

use serde::{Deserialize, Serialize};

use crate::budget::Limit;
use crate::client::{segment, Client};
use crate::credential::Secret;
use crate::error::{Operation, Result};
use crate::executor::{Call, Retry};
use crate::open_enum::open_enum;

open_enum! {
    /// Raw machine status; prefer [`Machine::online`]. Any other value means "not usable now".
    pub enum MachineStatus {
        Active = "active",
        Hibernated = "hibernated",
        /// On its way to sleep.
        Hibernating = "hibernating",
        /// Starting after a wake.
        WakingUp = "wakingup",
    }
}

open_enum! {
    pub enum MachineKind {
        /// A cloud computer hosted by the service.
        Cloud = "cloud",
        /// The caller's own desktop app.
        Own = "own",
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Machine {
    pub machine_id: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub updated_at: i64,
    #[serde(default)]
    pub status: Option<MachineStatus>,
    #[serde(default)]
    pub can_wake: bool,
    /// Absent on some rows of the real service (the makers' client never reads it): a
    /// computer of unknown kind (`Other("")`), never a failed list.
    #[serde(default = "crate::lenient::unknown")]
    pub kind: MachineKind,
    #[serde(default)]
    pub online: bool,
}

impl Machine {
    /// The free plan's computer while it is not claimed (`free-<userId>`, updatedAt 0).
    pub fn is_unclaimed_free_computer(&self) -> bool {
        self.machine_id.starts_with("free-") && self.updated_at == 0 && self.status.is_none()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct MachineList {
    /// A row that cannot be read is left out (and logged), never the whole list: one odd
    /// computer must not empty the sidebar.
    #[serde(deserialize_with = "crate::lenient::rows")]
    #[cfg_attr(feature = "specta", specta(type = Vec<Machine>))]
    pub machines: Vec<Machine>,
}

/// A computer a message could go to (listed when `machineId` was left out and several fit).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct MachineChoice {
    pub machine_id: String,
    #[serde(default)]
    pub name: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct MachineCreation {
    pub task_id: String,
    #[serde(default)]
    pub message: String,
}

/// The answer to a wake. Tell the person from `starting_up`: a computer already waking answers
/// `waking: false, starting_up: true`; an awake one answers both false; one with
/// `can_wake: false` stays asleep, so never promise it will wake.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct WakeOutcome {
    /// This call started the wake.
    #[serde(default)]
    pub waking: bool,
    /// The computer is starting (by this call or an earlier one).
    #[serde(default)]
    pub starting_up: bool,
    #[serde(default)]
    pub status: Option<MachineStatus>,
    #[serde(default)]
    pub can_wake: bool,
}

impl WakeOutcome {
    /// The service answered a blank body (read as `{}`): it took the wake and said nothing.
    pub fn is_blank(&self) -> bool {
        !self.waking && !self.starting_up && !self.can_wake && self.status.is_none()
    }
}

/// Where to watch a machine. The URL carries a session token, so this type cannot be
/// printed or serialized: hand it to the live-view crate, never to the webview.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LiveView {
    pub machine_id: String,
    pub websocket_url: Secret,
    pub width: u32,
    pub height: u32,
}

pub struct Machines<'c> {
    client: &'c Client,
}

impl Client {
    pub fn machines(&self) -> Machines<'_> {
        Machines { client: self }
    }
}

impl Machines<'_> {
    /// All computers of the account, sorted by name.
    pub async fn list(&self) -> Result<MachineList> {
        self.client
            .call(Call::get(Operation::ListMachines, "/v1/agents/machines"))
            .await
    }

    /// Creates a cloud computer; poll [`Self::list`] until it is online. Needs an
    /// identity-provider session (an API key gets `ErrorCode::SessionRequired`).
    pub async fn create(&self, name: Option<&str>) -> Result<MachineCreation> {
        let body = match name {
            Some(name) => serde_json::json!({ "name": name }),
            None => serde_json::json!({}),
        };
        let mut call = Call::post(Operation::CreateMachine, "/v1/agents/machines")
            .json(&body)?
            .limit(Limit::MachineCreation);
        call.wait_on_429 = false;
        self.client.call(call).await
    }

    /// A fresh live-view address for a machine.
    pub async fn live(&self, machine_id: &str) -> Result<LiveView> {
        let path = format!("/v1/agents/machines/{}/live", segment(machine_id));
        let call = Call::post(Operation::Live, path).limit(Limit::Live);
        self.client.call(call).await
    }

    /// Wakes a hibernated computer (`POST /v1/agents/wake`); a no-op on an awake one.
    pub async fn wake(&self, machine_id: &str) -> Result<WakeOutcome> {
        let body = serde_json::json!({ "machineId": machine_id });
        // Waking twice wakes once (the second answers `startingUp`), so a lost answer is resent.
        let call = Call::post(Operation::WakeMachine, "/v1/agents/wake")
            .json(&body)?
            .retry(Retry::Idempotent);
        self.client.call_blank_ok(call).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_status_is_read_and_an_unknown_one_kept() {
        let read = |status: serde_json::Value| {
            let machine: Machine = serde_json::from_value(serde_json::json!({
                "machineId": "m1", "kind": "cloud", "status": status
            }))
            .unwrap();
            machine.status
        };
        assert_eq!(read("wakingup".into()), Some(MachineStatus::WakingUp));
        assert_eq!(read("hibernating".into()), Some(MachineStatus::Hibernating));
        assert_eq!(
            read("melting".into()),
            Some(MachineStatus::Other("melting".into()))
        );
        assert_eq!(read(serde_json::Value::Null), None);
    }
}
