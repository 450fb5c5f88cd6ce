//! "Save as video…": a film leaves Porthole as a short video, with what the person hid on the
//! redaction sheet painted into its pictures (the core's `film::export` and `film::sharing`).
//! As the report: the page never names a path; Rust asks the system's save dialog and keeps
//! the file it wrote, so "Show the file" needs no path from the page either.

use std::path::PathBuf;
use std::sync::Mutex;

use tauri::{AppHandle, State};
use tauri_plugin_dialog::DialogExt;

use super::recording::Films;
use super::sharing::{suggested, Redactions};
use crate::error::{UiCode, UiError};

type Res<T> = Result<T, UiError>;

/// The video written last, for "Show the file".
#[derive(Default)]
pub struct LastVideo(pub Mutex<Option<PathBuf>>);

/// What the redaction sheet starts with: the pictures of a step that types a password hidden.
#[tauri::command(async)]
#[specta::specta]
pub fn film_redactions(
    films: State<'_, Films>,
    conversation_id: String,
    film_id: String,
) -> Res<Redactions> {
    let film = films
        .shelf
        .film(&conversation_id, &film_id)
        .map_err(|_| UiError::from(UiCode::NoScreenshot))?;
    Ok(suggested(&film))
}

/// Asks where to save the film as a video, then writes it there with `redactions` painted in
/// and, with `captions`, each picture's caption burnt in; its file name, `None` when the
/// person cancelled the dialog.
#[tauri::command]
#[specta::specta]
pub async fn save_film_video(
    app: AppHandle,
    films: State<'_, Films>,
    last: State<'_, LastVideo>,
    conversation_id: String,
    film_id: String,
    redactions: Redactions,
    captions: bool,
) -> Res<Option<String>> {
    redactions
        .check()
        .map_err(|_| UiError::from(UiCode::VideoNotSaved))?;
    let Some(path) = ask_where(&app).await else {
        return Ok(None);
    };
    let shelf = films.shelf.clone();
    let at = path.clone();
    // Off the async threads: every picture is decoded, painted and encoded again.
    let written = tauri::async_runtime::spawn_blocking(move || {
        let video =
            super::export::video(&shelf, &conversation_id, &film_id, &redactions, captions)?
                .ok_or(std::io::ErrorKind::NotFound)?;
        porthole_core::report::export::write(&at, &video)
    })
    .await;
    match written {
        Ok(Ok(())) => {}
        Ok(Err(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(UiCode::NoScreenshot.into())
        }
        _ => return Err(UiCode::VideoNotSaved.into()),
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    *last.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(path);
    Ok(Some(name))
}

/// Shows the video saved last, selected in the file manager ("Show the file").
#[tauri::command]
#[specta::specta]
pub async fn show_saved_video(app: AppHandle, last: State<'_, LastVideo>) -> Res<()> {
    let path = last.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
    if let Some(path) = path {
        crate::data_folder::show::show_file(&app, &path).await;
    }
    Ok(())
}

async fn ask_where(app: &AppHandle) -> Option<PathBuf> {
    // End-to-end tests cannot drive the system's save dialog (it is not part of the page):
    // they name the file it would return (debug builds only), as for the report (a name of its
    // own: one test saves both).
    if let Some(path) = crate::test_switch::var("PORTHOLE_E2E_VIDEO_SAVE_AS") {
        return Some(PathBuf::from(path));
    }
    let dialog = app
        .dialog()
        .file()
        .set_title(crate::words::window::video_save_title())
        .set_file_name(crate::words::window::video_file_name())
        .add_filter(crate::words::window::video_file_kind(), &["webp"]);
    tauri::async_runtime::spawn_blocking(move || dialog.blocking_save_file())
        .await
        .ok()
        .flatten()
        .and_then(|p| p.into_path().ok())
}
