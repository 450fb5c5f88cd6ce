//! Attachments: files are checked, read and uploaded here, from their paths, so the page never
//! handles file bytes; progress goes to the page over a per-upload channel.
//!
//! Checked before any upload (no request, no hourly budget spent): a folder, an unreadable
//! file, an empty file and one over 25 MB are refused with a sentence. An extension the
//! service does not recognise is allowed but marked (it is stored as a plain binary file).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use porthole_client::uploads::{Upload, MAX_UPLOAD_BYTES};
use porthole_client::InputError;
use serde::Serialize;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager};

use crate::connection::Connection;
use crate::error::{AppError, AppResult, UiError};

/// Extensions the service stores with their own MIME type (spec, Upload).
const RECOGNISED: &[&str] = &[
    "txt", "md", "json", "js", "ts", "py", "sh", "bash", "yaml", "yml", "csv", "html", "xml",
    "pdf", "png", "jpg", "jpeg", "gif", "webp", "sim",
];

/// A file the person chose, as the composer shows it before sending.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct FileCheck {
    pub path: String,
    pub name: String,
    pub size: f64,
    /// False for an extension the service does not know (allowed, but marked).
    pub recognised: bool,
    /// Why this file cannot be sent; `None` when it can.
    pub refusal: Option<UiError>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, serde::Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct UploadProgress {
    pub sent: f64,
    pub total: f64,
}

pub fn is_recognised(name: &str) -> bool {
    Path::new(name)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| RECOGNISED.contains(&e.to_ascii_lowercase().as_str()))
}

/// The pre-upload check of one path; `Ok` is its size.
pub fn precheck(path: &Path) -> AppResult<u64> {
    let meta = std::fs::metadata(path).map_err(|_| AppError::FileUnreadable)?;
    if meta.is_dir() {
        return Err(AppError::FolderNotFile);
    }
    // Metadata can be readable while the contents are not (permissions).
    std::fs::File::open(path).map_err(|_| AppError::FileUnreadable)?;
    match meta.len() {
        0 => Err(AppError::Client(InputError::EmptyFile.into())),
        size if size > MAX_UPLOAD_BYTES => Err(AppError::Client(
            InputError::FileTooLarge {
                size,
                limit: MAX_UPLOAD_BYTES,
            }
            .into(),
        )),
        size => Ok(size),
    }
}

pub fn check_file(path: &Path) -> FileCheck {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_string_lossy().into_owned());
    let (size, refusal) = match precheck(path) {
        Ok(size) => (size as f64, None),
        Err(err) => (0.0, Some(UiError::from(&err))),
    };
    FileCheck {
        path: path.to_string_lossy().into_owned(),
        recognised: is_recognised(&name),
        name,
        size,
        refusal,
    }
}

pub fn check_files(paths: Vec<String>) -> Vec<FileCheck> {
    paths
        .into_iter()
        .map(|p| check_file(&PathBuf::from(p)))
        .collect()
}

/// Uploads one checked file, sending progress (at most about every 1% of it).
pub async fn upload(
    app: &AppHandle,
    path: &str,
    progress: Channel<UploadProgress>,
) -> AppResult<Upload> {
    let path = PathBuf::from(path);
    precheck(&path)?;
    let client = app.state::<Connection>().active().await?.client;
    let bytes = tokio::fs::read(&path)
        .await
        .map_err(|_| AppError::FileUnreadable)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let last_sent = Arc::new(AtomicU64::new(u64::MAX));
    let report: porthole_client::uploads::Progress = Arc::new(move |sent, total| {
        let step = (total / 100).max(1);
        let previous = last_sent.load(Ordering::Relaxed);
        if previous == u64::MAX || sent == total || sent / step != previous / step {
            last_sent.store(sent, Ordering::Relaxed);
            let _ = progress.send(UploadProgress {
                sent: sent as f64,
                total: total as f64,
            });
        }
    });
    let upload = client.uploads().upload(&name, bytes, Some(report)).await?;
    if let Some(staged) = app.try_state::<super::attachments::StagedAttachments>() {
        staged.remember_own_name(&upload, &name);
    }
    Ok(upload)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_large_unreadable_and_folders_are_refused_before_uploading() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.txt");
        std::fs::write(&empty, b"").unwrap();
        let ok = dir.path().join("notes.md");
        std::fs::write(&ok, b"hello").unwrap();
        let big = dir.path().join("big.bin");
        let file = std::fs::File::create(&big).unwrap();
        file.set_len(MAX_UPLOAD_BYTES + 1).unwrap();
        let exact = dir.path().join("exact.pdf");
        std::fs::File::create(&exact)
            .unwrap()
            .set_len(MAX_UPLOAD_BYTES)
            .unwrap();

        let codes: Vec<Option<String>> = check_files(vec![
            ok.display().to_string(),
            empty.display().to_string(),
            big.display().to_string(),
            exact.display().to_string(),
            dir.path().join("missing.txt").display().to_string(),
            dir.path().display().to_string(),
        ])
        .into_iter()
        .map(|c| c.refusal.map(|r| r.code))
        .collect();
        assert_eq!(
            codes,
            vec![
                None,
                Some("empty_file".to_owned()),
                Some("file_too_large".to_owned()),
                None,
                Some("file_unreadable".to_owned()),
                Some("folder_not_file".to_owned()),
            ]
        );
    }

    #[test]
    fn unknown_extensions_are_allowed_but_marked() {
        let dir = tempfile::tempdir().unwrap();
        let odd = dir.path().join("drawing.xyz");
        std::fs::write(&odd, b"x").unwrap();
        let check = check_file(&odd);
        assert!(check.refusal.is_none() && !check.recognised);
        assert_eq!((check.name.as_str(), check.size), ("drawing.xyz", 1.0));
        assert!(is_recognised("Report.PDF") && is_recognised("a.tar.json"));
        assert!(!is_recognised("README") && !is_recognised("x.docx"));
    }
}
