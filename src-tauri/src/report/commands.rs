//! The report commands the page may call. The page never names a path: Rust asks the system's
//! save dialog where the file goes, and remembers the file it wrote so "Open it" and "Show the
//! file" need no path from the page either (a page that could name a path could overwrite any file).

use std::path::PathBuf;
use std::sync::Mutex;

use tauri::{AppHandle, State};
use tauri_plugin_dialog::DialogExt;
use tauri_plugin_opener::OpenerExt;

use super::{ReportPictures, SavedReport, ShareRequest};
use crate::connection::Connection;
use crate::conversations::Conversations;
use crate::error::UiError;
use crate::film::Films;

/// The report written last, to open it.
#[derive(Default)]
pub struct LastReport(pub Mutex<Option<PathBuf>>);

/// What task `turn_id` (without one, the conversation's last task) cost in US dollars, for
/// the page to word in the report; `None` when the service did not report it.
// Off the main thread: it reads the conversations, which may still be loading.
#[tauri::command(async)]
#[specta::specta]
pub fn report_cost(
    conversations: State<'_, Conversations>,
    conversation_id: String,
    turn_id: Option<String>,
) -> Result<Option<f64>, UiError> {
    let conversation = conversations.store().get(&conversation_id)?;
    Ok(super::cost_usd(
        &conversations,
        &conversation,
        turn_id.as_deref(),
    ))
}

/// The pictures the report of task `turn_id` (without one, the conversation's last task) will
/// carry, for the redaction sheet shown before it leaves: Porthole's film with the frames it
/// keeps, or the service's screenshots of the recorded steps; `None` when it carries none.
// Off the main thread: it may ask the service whether the steps were recorded.
#[tauri::command(async)]
#[specta::specta]
pub async fn report_pictures(
    connection: State<'_, Connection>,
    conversations: State<'_, Conversations>,
    films: State<'_, Films>,
    conversation_id: String,
    turn_id: Option<String>,
) -> Result<Option<ReportPictures>, UiError> {
    Ok(super::pictures_for(
        &connection,
        &conversations,
        &films.shelf,
        &conversation_id,
        turn_id.as_deref(),
    )
    .await?)
}

/// Asks where to save the report `request` asks for (its task, the page's words for its
/// receipt, date and cost, and what the person hid on its pictures), then writes it
/// there; `None` when the person cancelled the dialog.
#[tauri::command]
#[specta::specta]
pub async fn share_report(
    app: AppHandle,
    connection: State<'_, Connection>,
    conversations: State<'_, Conversations>,
    films: State<'_, Films>,
    last: State<'_, LastReport>,
    request: ShareRequest,
) -> Result<Option<SavedReport>, UiError> {
    let Some(path) = ask_where(&app).await else {
        return Ok(None);
    };
    super::save_for(&connection, &conversations, &films.shelf, &request, &path).await?;
    let pdf = super::pdf::print_beside(&app, &path).await;
    let saved = SavedReport::at(&path, pdf.as_deref());
    *last.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(path);
    Ok(Some(saved))
}

/// Opens the report written last in the system's browser (which prints it to PDF, too).
#[tauri::command]
#[specta::specta]
pub fn open_saved_report(app: AppHandle, last: State<'_, LastReport>) {
    let path = last.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
    if let Some(path) = path {
        let _ = app.opener().open_path(path.to_string_lossy(), None::<&str>);
    }
}

/// Shows the report written last, selected in the file manager ("Show the file").
#[tauri::command]
#[specta::specta]
pub async fn show_saved_report(app: AppHandle, last: State<'_, LastReport>) -> Result<(), UiError> {
    let path = last.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
    if let Some(path) = path {
        crate::data_folder::show::show_file(&app, &path).await;
    }
    Ok(())
}

async fn ask_where(app: &AppHandle) -> Option<PathBuf> {
    // End-to-end tests cannot drive the system's save dialog (it is not part of the page):
    // they name the file it would return (debug builds only). Everything after the dialog
    // runs as usual.
    if let Some(path) = crate::test_switch::var("PORTHOLE_E2E_SAVE_AS") {
        return Some(PathBuf::from(path));
    }
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .set_title(crate::words::report::save_title())
        .set_file_name(crate::words::report::file_name())
        .add_filter(crate::words::report::file_kind(), &["html"])
        .save_file(move |path| {
            let _ = tx.send(path);
        });
    rx.await.ok().flatten()?.into_path().ok()
}
