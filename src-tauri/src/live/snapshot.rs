//! "Save a snapshot": the page hands over the canvas as PNG; Rust asks where to save it (the
//! save dialog) and writes it, so the page needs no file-system permission.
//!
//! End-to-end tests cannot drive the system's save dialog (it is not part of the page), so
//! `PORTHOLE_E2E_SAVE_PATH` names what it would answer, one line per save in order: a path, or
//! an empty line for a cancelled dialog (also every save past the last line). Everything after
//! the dialog runs as usual.

use base64::Engine;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use tauri::AppHandle;
use tauri_plugin_dialog::DialogExt;

use crate::error::{UiCode, UiError};
use crate::words::window as words;

/// The largest snapshot taken, as base64: a PNG of the largest screen the viewer shows (8192
/// pixels a side, 256 MB of pixels) compresses far below this; more is not a snapshot.
const MAX_BASE64_LEN: usize = 96 << 20;

/// The snapshot saved last, for "Show the file" (the page is told only its name).
#[derive(Default)]
pub struct LastSnapshot(pub Mutex<Option<PathBuf>>);

/// Asks where to save and writes the PNG; its file name, `None` when the person cancelled.
pub async fn save(
    app: &AppHandle,
    last: &LastSnapshot,
    png_base64: &str,
) -> Result<Option<String>, UiError> {
    let png = decode(png_base64)?;
    let Some(path) = ask_where(app).await else {
        return Ok(None);
    };
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    // Off the async threads: the disk may be slow (a network folder).
    let at = path.clone();
    let written = tauri::async_runtime::spawn_blocking(move || std::fs::write(&at, png)).await;
    if !matches!(written, Ok(Ok(()))) {
        return Err(UiCode::SnapshotNotSaved.into());
    }
    *last.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(path);
    Ok(Some(name))
}

/// The page's PNG, refused when it is not one or larger than any snapshot.
fn decode(png_base64: &str) -> Result<Vec<u8>, UiError> {
    if png_base64.len() > MAX_BASE64_LEN {
        return Err(unreadable());
    }
    // A snapshot is one rare action, not the frame path: base64 over IPC is fine here.
    let png = base64::engine::general_purpose::STANDARD
        .decode(png_base64)
        .map_err(|_| unreadable())?;
    if !png.starts_with(b"\x89PNG") {
        return Err(unreadable());
    }
    Ok(png)
}

/// Where the person chose to save, `None` when they cancelled.
async fn ask_where(app: &AppHandle) -> Option<PathBuf> {
    // End-to-end tests cannot drive the system's save dialog: they script its answers (debug
    // builds only).
    if let Some(answers) = crate::test_switch::var("PORTHOLE_E2E_SAVE_PATH") {
        return scripted_answer(&answers, &SAVES);
    }
    let dialog = app
        .dialog()
        .file()
        .add_filter(words::snapshot_file_kind(), &["png"])
        .set_file_name(words::snapshot_file_name());
    tauri::async_runtime::spawn_blocking(move || dialog.blocking_save_file())
        .await
        .ok()
        .flatten()
        .and_then(|p| p.into_path().ok())
}

/// Saves asked for so far in this run (which line of `PORTHOLE_E2E_SAVE_PATH` answers next).
static SAVES: AtomicUsize = AtomicUsize::new(0);

fn scripted_answer(answers: &str, saves: &AtomicUsize) -> Option<PathBuf> {
    let n = saves.fetch_add(1, Ordering::Relaxed);
    answers
        .lines()
        .nth(n)
        .filter(|line| !line.trim().is_empty())
        .map(PathBuf::from)
}

fn unreadable() -> UiError {
    UiCode::SnapshotUnreadable.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_png_of_a_snapshots_size_is_taken() {
        let png = b"\x89PNG\r\n\x1a\n rest";
        let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
        assert_eq!(decode(&b64(png)).unwrap(), png);
        assert!(decode(&b64(b"GIF89a")).is_err());
        assert!(decode("not base64!").is_err());
        // A PNG larger than any snapshot is refused, by its length before it is decoded.
        let mut huge = png.to_vec();
        huge.resize(MAX_BASE64_LEN / 4 * 3 + 3, 0);
        assert_eq!(
            decode(&b64(&huge)).unwrap_err().code,
            UiCode::SnapshotUnreadable
        );
    }

    #[test]
    fn scripted_dialog_answers_in_order_and_empty_means_cancelled() {
        let saves = AtomicUsize::new(0);
        let answers = "\n/tmp/a.png";
        assert_eq!(scripted_answer(answers, &saves), None);
        assert_eq!(
            scripted_answer(answers, &saves),
            Some(PathBuf::from("/tmp/a.png"))
        );
        assert_eq!(scripted_answer(answers, &saves), None, "past the last line");
    }
}
