//! Reading the machine list and watching a computer that is starting (the rows themselves are
//! the core's, `porthole_core::machines`).
//!
//! No busy polling: the list is read when asked, and while a computer wakes or the free
//! computer starts, a refresher re-reads it with growing pauses until it is up (or gives up),
//! emitting [`MachinesChanged`] each time.

pub use porthole_core::machines::*;

pub mod commands;
pub mod computers;

use std::sync::Arc;
use std::time::Duration;

use tauri::{AppHandle, Manager};
use tauri_specta::Event;

use crate::connection::Connection;
use crate::error::AppResult;
use crate::navigation::events::MachinesChanged;

/// What the machine commands and the starting watch touch, built once in `open_state` and
/// managed. The computers being started are shared with the switchboard, which forgets them
/// at a switch.
#[derive(Clone)]
pub struct Machines {
    /// The shell: `MachinesChanged` and the inbox's window.
    pub app: AppHandle,
    pub connection: Connection,
    pub starting: Arc<StartingMachines>,
}

impl Machines {
    /// The inbox, managed bare (inbox/) and shared with code that takes it as `State`.
    fn inbox(&self) -> tauri::State<'_, crate::inbox::Inbox> {
        self.app.state::<crate::inbox::Inbox>()
    }

    pub async fn list(&self) -> AppResult<Vec<MachineRow>> {
        let active = self.connection.active().await?;
        let list = active.client.machines().list().await?;
        let starting = &self.starting;
        let rows: Vec<MachineRow> = list
            .machines
            .iter()
            .map(|m| {
                let r = row(m, starting.get(&m.machine_id));
                if r.availability != Availability::Starting {
                    starting.clear(&m.machine_id);
                }
                r
            })
            .collect();
        // A computer that cannot be woken is one of the things that need the person.
        self.inbox().machines_read(&rows);
        crate::inbox::window::refresh(&self.app);
        Ok(rows)
    }

    /// Wakes a computer and watches it start. One the service will not wake is said so, never
    /// shown as starting.
    pub async fn wake(&self, machine_id: &str) -> AppResult<()> {
        let active = self.connection.active().await?;
        let woken = waking::ask_to_wake(&active.client, machine_id).await;
        self.inbox().wake_result(
            machine_id,
            woken.as_ref().err().map(crate::error::UiError::from),
        );
        crate::inbox::window::refresh(&self.app);
        match woken {
            Ok(true) => self.watch_starting(machine_id),
            Ok(false) => {
                // Already awake (or gone to sleep again): the list says which.
                let _ = MachinesChanged.emit(&self.app);
            }
            Err(err) => {
                let _ = MachinesChanged.emit(&self.app);
                return Err(err);
            }
        }
        Ok(())
    }

    /// Marks a computer as starting and re-reads the list until it is up.
    pub fn watch_starting(&self, machine_id: &str) {
        if !self.starting.set(machine_id) {
            return;
        }
        let _ = MachinesChanged.emit(&self.app);
        let (machines, machine_id) = (self.clone(), machine_id.to_owned());
        tauri::async_runtime::spawn(async move {
            let generation = machines.connection.generation();
            let mut pause = Duration::from_millis(500);
            let deadline = tokio::time::Instant::now() + Duration::from_secs(6 * 60);
            while tokio::time::Instant::now() < deadline {
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(15));
                if machines.connection.generation() != generation {
                    return;
                }
                let Ok(rows) = machines.list().await else {
                    continue;
                };
                let _ = MachinesChanged.emit(&machines.app);
                let up = rows
                    .iter()
                    .find(|r| r.machine_id == machine_id)
                    .is_none_or(|r| r.availability != Availability::Starting);
                if up {
                    return;
                }
            }
            machines.starting.clear(&machine_id);
            let _ = MachinesChanged.emit(&machines.app);
        });
    }
}

/// [`Machines::watch_starting`] for the conversations' window, which holds only the shell.
pub fn watch_starting(app: &AppHandle, machine_id: &str) {
    app.state::<Machines>().watch_starting(machine_id);
}
