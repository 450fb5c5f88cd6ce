//! Creating a cloud computer (paid plans; needs a sign-in): ask, then watch the computer
//! list until the new computer is online, reporting each stage over a channel.

use std::collections::HashSet;
use std::time::Duration;

use serde::Serialize;
use tauri::ipc::Channel;
use tauri_specta::Event;

use crate::account::identity;
use crate::connection::switchboard::Switchboard;
use crate::error::{AppError, AppResult};
use crate::navigation::events::MachinesChanged;

/// Where a creation is.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, specta::Type)]
#[serde(
    tag = "stage",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum CreationProgress {
    /// The service took the request.
    Requested { message: String },
    /// The new computer is listed and starting.
    Starting {
        machine_id: String,
        name: Option<String>,
    },
    /// Ready for tasks.
    Online {
        machine_id: String,
        name: Option<String>,
    },
}

/// The spec says "usually within a few minutes"; give it plenty.
const GIVE_UP_AFTER: Duration = Duration::from_secs(15 * 60);
const POLL_EVERY: Duration = Duration::from_millis(750);

pub async fn create(
    board: &Switchboard,
    name: Option<String>,
    progress: &Channel<CreationProgress>,
) -> AppResult<String> {
    let (client, _) = identity::client(board).await?;
    let name = name.map(|n| n.trim().to_owned()).filter(|n| !n.is_empty());
    let before: HashSet<String> = client
        .machines()
        .list()
        .await?
        .machines
        .into_iter()
        .map(|m| m.machine_id)
        .collect();
    let created = client.machines().create(name.as_deref()).await?;
    let _ = progress.send(CreationProgress::Requested {
        message: created.message,
    });
    let _ = MachinesChanged.emit(board.app());
    let deadline = tokio::time::Instant::now() + GIVE_UP_AFTER;
    let mut announced = false;
    while tokio::time::Instant::now() < deadline {
        tokio::time::sleep(POLL_EVERY).await;
        // A failed look is not a failed creation: keep watching.
        let Ok(list) = client.machines().list().await else {
            continue;
        };
        let Some(new) = list
            .machines
            .into_iter()
            .find(|m| !before.contains(&m.machine_id))
        else {
            continue;
        };
        if new.online {
            let _ = progress.send(CreationProgress::Online {
                machine_id: new.machine_id.clone(),
                name: new.name,
            });
            let _ = MachinesChanged.emit(board.app());
            return Ok(new.machine_id);
        }
        if !announced {
            announced = true;
            let _ = progress.send(CreationProgress::Starting {
                machine_id: new.machine_id,
                name: new.name,
            });
            let _ = MachinesChanged.emit(board.app());
        }
    }
    Err(AppError::ComputerNotOnline)
}
