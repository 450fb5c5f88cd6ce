//! The machine list as the sidebar shows it: each computer's row, which computers are
//! starting, and whether a task will start one. The shell (src-tauri's `machines`) reads the
//! list and watches a computer start.

pub mod waking;

use std::collections::HashMap;
use std::sync::Mutex;

use crate::error::now_ms;
use porthole_client::machines::{Machine, MachineKind, MachineStatus};
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub enum Availability {
    Online,
    Asleep,
    /// On its way to sleep (`hibernating`).
    GoingToSleep,
    Offline,
    /// Waking, or the free computer starting.
    Starting,
    /// The free computer, started by the first task.
    FreeReady,
}

#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct MachineRow {
    pub machine_id: String,
    pub name: String,
    pub cloud: bool,
    /// Whether the service said which kind it is: a row without `kind` (the makers' client
    /// never reads it) is treated as a cloud computer but not called one.
    pub kind_known: bool,
    pub availability: Availability,
    pub can_wake: bool,
    pub free_computer: bool,
    /// Last status update, Unix ms; `None` when never.
    pub updated_at: Option<f64>,
    /// When starting began (Unix ms), for a progress bar.
    pub starting_since: Option<f64>,
}

pub fn row(machine: &Machine, starting_since: Option<f64>) -> MachineRow {
    let free_computer = machine.machine_id.starts_with("free-");
    let unclaimed = machine.is_unclaimed_free_computer();
    let awake = machine.status == Some(MachineStatus::Active)
        || (machine.online && machine.status.is_none() && !unclaimed);
    let availability = if (starting_since.is_some() && !awake)
        || machine.status == Some(MachineStatus::WakingUp)
    {
        Availability::Starting
    } else if unclaimed {
        Availability::FreeReady
    } else if machine.status == Some(MachineStatus::Hibernating) {
        Availability::GoingToSleep
    } else if machine.status == Some(MachineStatus::Hibernated) {
        Availability::Asleep
    } else if machine.online && !matches!(machine.status, Some(MachineStatus::Other(_))) {
        // A status the service did not list means "not usable now".
        Availability::Online
    } else {
        Availability::Offline
    };
    let name = match &machine.name {
        Some(name) if !name.trim().is_empty() => name.clone(),
        _ => crate::words::window::unnamed_computer(free_computer),
    };
    MachineRow {
        machine_id: machine.machine_id.clone(),
        name,
        cloud: machine.kind != MachineKind::Own,
        kind_known: !matches!(machine.kind, MachineKind::Other(_)),
        availability,
        can_wake: machine.can_wake,
        free_computer,
        updated_at: (machine.updated_at > 0).then_some(machine.updated_at as f64),
        starting_since: if availability == Availability::Starting {
            starting_since
        } else {
            None
        },
    }
}

/// Computers being woken or started, and since when.
#[derive(Default)]
pub struct StartingMachines {
    since: Mutex<HashMap<String, f64>>,
}

impl StartingMachines {
    pub fn get(&self, id: &str) -> Option<f64> {
        self.since
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .copied()
    }
    pub fn set(&self, id: &str) -> bool {
        let mut since = self.since.lock().unwrap_or_else(|e| e.into_inner());
        let fresh = !since.contains_key(id);
        since.entry(id.to_owned()).or_insert_with(now_ms);
        fresh
    }
    pub fn clear(&self, id: &str) {
        self.since
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
    }
    pub fn clear_all(&self) {
        self.since.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

/// Whether sending a task to this computer will start it first.
pub fn needs_start(machine: &Machine) -> bool {
    machine.is_unclaimed_free_computer()
        || matches!(
            machine.status,
            Some(MachineStatus::Hibernated | MachineStatus::Hibernating | MachineStatus::WakingUp)
        )
}

#[cfg(test)]
mod portal_link_tests;

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(json: serde_json::Value) -> Machine {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn new_and_unknown_statuses_are_read_not_failed() {
        let with = |status: &str| {
            machine(
                serde_json::json!({"machineId":"m1","updatedAt":5,"status":status,"canWake":true,"kind":"cloud","online":true}),
            )
        };
        assert_eq!(
            row(&with("wakingup"), None).availability,
            Availability::Starting
        );
        assert_eq!(
            row(&with("hibernating"), None).availability,
            Availability::GoingToSleep
        );
        assert_eq!(
            row(&with("exploding"), None).availability,
            Availability::Offline
        );
        // A message to a computer on its way down or up starts (or waits for) it.
        assert!(needs_start(&with("hibernating")) && needs_start(&with("wakingup")));
        assert!(!needs_start(&with("active")) && !needs_start(&with("exploding")));
    }

    #[test]
    fn rows_say_what_state_a_computer_is_in() {
        let active = machine(
            serde_json::json!({"machineId":"m1","name":"Design laptop","updatedAt":5,"status":"active","canWake":false,"kind":"cloud","online":true}),
        );
        assert_eq!(row(&active, None).availability, Availability::Online);
        let asleep = machine(
            serde_json::json!({"machineId":"m2","updatedAt":5,"status":"hibernated","canWake":true,"kind":"cloud","online":true}),
        );
        let r = row(&asleep, None);
        assert_eq!(
            (r.availability, r.name.as_str()),
            (Availability::Asleep, "Unnamed computer")
        );
        assert_eq!(row(&asleep, Some(1.0)).availability, Availability::Starting);
        let own = machine(
            serde_json::json!({"machineId":"m3","name":"Mac","updatedAt":5,"canWake":false,"kind":"own","online":false}),
        );
        let r = row(&own, None);
        assert_eq!((r.availability, r.cloud), (Availability::Offline, false));
    }

    #[test]
    fn the_free_computer_row_explains_itself() {
        let free = machine(
            serde_json::json!({"machineId":"free-u1","name":"Free cloud computer","updatedAt":0,"canWake":false,"kind":"cloud","online":false}),
        );
        let r = row(&free, None);
        assert_eq!(r.availability, Availability::FreeReady);
        assert!(r.free_computer && r.updated_at.is_none());
        assert_eq!(row(&free, Some(7.0)).starting_since, Some(7.0));
        assert!(needs_start(&free));
    }
}
