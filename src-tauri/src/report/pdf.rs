//! The report as a PDF, where this system can print one. On Linux the engine the window runs
//! on (WebKitGTK) prints the saved report, in a hidden window, with GTK's own "Print to File"
//! printer, to a PDF beside the web page; no dialog, no printer needed. Elsewhere no PDF is
//! made here: the report opens in the browser, whose Print makes one (the window says so).

use std::path::{Path, PathBuf};

use tauri::AppHandle;

/// Prints the report at `html` to the same name ending in `.pdf` (or the first free name
/// beside it: a PDF the person did not choose is never replaced, `export::pdf_beside`); the
/// PDF's path once it is written, `None` where this system cannot or the printing failed (the
/// web page stands).
#[cfg(target_os = "linux")]
pub async fn print_beside(app: &AppHandle, html: &Path) -> Option<PathBuf> {
    use std::sync::{Arc, Mutex};
    use tauri::{WebviewUrl, WebviewWindowBuilder};

    let pdf = super::export::pdf_beside(html)?;
    let page = url::Url::from_file_path(html).ok()?.to_string();
    let out = url::Url::from_file_path(&pdf).ok()?.to_string();
    let (tx, rx) = tokio::sync::oneshot::channel::<bool>();
    let tx = Arc::new(Mutex::new(Some(tx)));
    let window = WebviewWindowBuilder::new(
        app,
        "report-print",
        WebviewUrl::External("about:blank".parse().ok()?),
    )
    .visible(false)
    .build()
    .inspect_err(|err| tracing::info!(error = %err, "no window to print the report in"))
    .ok()?;
    let shown = window.with_webview(move |webview| {
        use webkit2gtk::{LoadEvent, PrintOperationExt, WebViewExt};
        let view = webview.inner();
        let printing = std::cell::Cell::new(false);
        let wanted = page.clone();
        view.connect_load_changed(move |view, event| {
            // The blank page the window opened with finishes loading too: only the report.
            if event != LoadEvent::Finished
                || view.uri().as_deref() != Some(wanted.as_str())
                || printing.replace(true)
            {
                return;
            }
            let settings = gtk::PrintSettings::new();
            settings.set_printer("Print to File");
            settings.set(gtk::PRINT_SETTINGS_OUTPUT_FILE_FORMAT, Some("pdf"));
            settings.set(gtk::PRINT_SETTINGS_OUTPUT_URI, Some(&out));
            let operation = webkit2gtk::PrintOperation::new(view);
            operation.set_print_settings(&settings);
            let done = tx.clone();
            operation.connect_finished(move |_| send(&done, true));
            let failed = tx.clone();
            operation.connect_failed(move |_, err| {
                tracing::info!(error = %err, "the report was not printed to PDF");
                send(&failed, false);
            });
            operation.print();
        });
        view.load_uri(&page);
    });
    let printed = match shown {
        Ok(()) => tokio::time::timeout(std::time::Duration::from_secs(60), rx).await,
        Err(_) => Ok(Ok(false)),
    };
    let _ = window.destroy();
    let written = matches!(printed, Ok(Ok(true))) && pdf.metadata().is_ok_and(|m| m.len() > 0);
    written.then_some(pdf)
}

#[cfg(target_os = "linux")]
fn send(sender: &std::sync::Mutex<Option<tokio::sync::oneshot::Sender<bool>>>, printed: bool) {
    let taken = sender.lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some(tx) = taken {
        let _ = tx.send(printed);
    }
}

#[cfg(not(target_os = "linux"))]
pub async fn print_beside(_app: &AppHandle, _html: &Path) -> Option<PathBuf> {
    None
}
