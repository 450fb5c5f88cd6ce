//! "Save a snapshot": the page hands over the canvas as PNG; Rust asks where to save it (the
//! save dialog) and writes it, so the page needs no file-system permission.

use base64::Engine;
use tauri::AppHandle;
use tauri_plugin_dialog::DialogExt;

use crate::error::UiError;

/// Asks where to save and writes the PNG; `None` when the person cancelled.
pub async fn save(app: &AppHandle, png_base64: &str) -> Result<Option<String>, UiError> {
    // A snapshot is one rare action, not the frame path: base64 over IPC is fine here.
    let png = base64::engine::general_purpose::STANDARD
        .decode(png_base64)
        .map_err(|_| unreadable())?;
    if !png.starts_with(b"\x89PNG") {
        return Err(unreadable());
    }
    let dialog = app
        .dialog()
        .file()
        .add_filter("PNG image", &["png"])
        .set_file_name("Live screen.png");
    let picked = tauri::async_runtime::spawn_blocking(move || dialog.blocking_save_file())
        .await
        .ok()
        .flatten();
    let Some(path) = picked.and_then(|p| p.into_path().ok()) else {
        return Ok(None);
    };
    std::fs::write(&path, png).map_err(|_| {
        UiError::new(
            "snapshot_not_saved",
            "The snapshot was not saved",
            "Porthole could not write the file there. Try another folder.",
            None,
        )
    })?;
    Ok(Some(path.display().to_string()))
}

fn unreadable() -> UiError {
    UiError::new(
        "snapshot_unreadable",
        "The snapshot could not be made",
        "The live screen could not be turned into a picture. Try again.",
        None,
    )
}
