//! "Show the file": a file the app wrote or set aside, shown selected in the system's file
//! manager, so a person finds it without reading a path. The page never names the file: each
//! command holds its own (the report written last, the snapshot saved last, a file set aside).
//!
//! End-to-end tests cannot see the file manager: `PORTHOLE_E2E_SHOWN` names a file to which
//! each path shown is added as a line instead (debug builds only).

use std::io::Write;
use std::path::Path;

use tauri::AppHandle;
use tauri_plugin_opener::OpenerExt;

/// Shows `path` in the file manager; where it cannot, nothing happens (a file manager missing
/// is not a failure of the file, which is where it was).
pub async fn show_file(app: &AppHandle, path: &Path) {
    if let Some(record) = crate::test_switch::var("PORTHOLE_E2E_SHOWN") {
        let line = format!("{}\n", path.display());
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(record)
            .and_then(|mut f| f.write_all(line.as_bytes()));
        if let Err(err) = written {
            tracing::info!(error = %err, "the shown file was not recorded");
        }
        return;
    }
    let (app, path) = (app.clone(), path.to_path_buf());
    // On Linux it asks the file manager over D-Bus, which blocks.
    let shown =
        tauri::async_runtime::spawn_blocking(move || app.opener().reveal_item_in_dir(path)).await;
    if !matches!(shown, Ok(Ok(()))) {
        tracing::info!("the file manager did not show the file");
    }
}
