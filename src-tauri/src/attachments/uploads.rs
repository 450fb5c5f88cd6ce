//! Attachments: files are checked, read and uploaded here, so the page never handles file
//! bytes; progress goes to the page over a per-upload channel.
//!
//! Only files the person chose are read: those the file dialog returned and those dropped on
//! the window (as the window's own event gave them; the page never names a file). Each gets an
//! opaque token, and the page uploads by token: a path from the page is never opened.
//!
//! Checked before any upload (no request, no hourly budget spent): a folder, a pipe or device,
//! an unreadable file, an empty file and one over 25 MB are refused with a sentence. An
//! extension the service does not recognise is allowed but marked (it is stored as a plain
//! binary file). The upload streams the file from the handle it checked.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use porthole_client::uploads::{Upload, MAX_UPLOAD_BYTES};
use porthole_client::InputError;
use serde::Serialize;
use tauri::ipc::Channel;

use crate::connection::Connection;
use crate::error::{AppError, AppResult, UiError};

/// Tokens kept at once; the oldest go first (a chip that old was sent or removed long ago).
const MAX_OFFERED: usize = 256;

/// Extensions the service stores with their own MIME type (spec, Upload).
const RECOGNISED: &[&str] = &[
    "txt", "md", "json", "js", "ts", "py", "sh", "bash", "yaml", "yml", "csv", "html", "xml",
    "pdf", "png", "jpg", "jpeg", "gif", "webp", "sim",
];

/// A file the person chose, as the composer shows it before sending.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct FileCheck {
    // The file's token (see the module), what `upload` takes; empty for a refused file.
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

/// The files the person picked or dropped, by token.
#[derive(Default)]
pub struct OfferedFiles {
    inner: Mutex<Offered>,
}

#[derive(Default)]
struct Offered {
    tokens: VecDeque<(String, PathBuf)>,
}

impl OfferedFiles {
    fn lock(&self) -> std::sync::MutexGuard<'_, Offered> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Checks the files the dialog returned, or those the window's drop event gave.
    pub fn picked(&self, paths: Vec<PathBuf>) -> Vec<FileCheck> {
        paths.iter().map(|p| self.offer(p)).collect()
    }

    fn offer(&self, path: &Path) -> FileCheck {
        let mut check = check_file(path);
        if check.refusal.is_none() {
            let token = new_token();
            let mut offered = self.lock();
            if offered.tokens.len() >= MAX_OFFERED {
                offered.tokens.pop_front();
            }
            offered.tokens.push_back((token.clone(), path.to_owned()));
            check.path = token;
        }
        check
    }

    fn path_of(&self, token: &str) -> Option<PathBuf> {
        let offered = self.lock();
        let found = offered.tokens.iter().find(|(t, _)| t == token);
        found.map(|(_, path)| path.clone())
    }
}

fn new_token() -> String {
    use rand::Rng;
    let bytes: [u8; 16] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What may be read of a file: its size, if it is one ordinary file the person can read, not
/// empty and not over 25 MB. The kind is judged before opening (opening a pipe waits for a
/// writer, forever), then again on the open handle, which is what gets read.
pub fn open_checked(path: &Path) -> AppResult<(std::fs::File, u64)> {
    let meta = std::fs::metadata(path).map_err(|_| AppError::FileUnreadable)?;
    regular(&meta)?;
    let file = std::fs::File::open(path).map_err(|_| AppError::FileUnreadable)?;
    let meta = file.metadata().map_err(|_| AppError::FileUnreadable)?;
    regular(&meta)?;
    match meta.len() {
        0 => Err(AppError::Client(InputError::EmptyFile.into())),
        size if size > MAX_UPLOAD_BYTES => Err(AppError::Client(
            InputError::FileTooLarge {
                size,
                limit: MAX_UPLOAD_BYTES,
            }
            .into(),
        )),
        size => Ok((file, size)),
    }
}

fn regular(meta: &std::fs::Metadata) -> AppResult<()> {
    if meta.is_dir() {
        return Err(AppError::FolderNotFile);
    }
    if !meta.is_file() {
        return Err(AppError::NotAFile);
    }
    Ok(())
}

fn name_of(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_string_lossy().into_owned())
}

fn refused(path: &Path, err: &AppError) -> FileCheck {
    let name = name_of(path);
    FileCheck {
        path: String::new(),
        recognised: is_recognised(&name),
        name,
        size: 0.0,
        refusal: Some(UiError::from(err)),
    }
}

fn check_file(path: &Path) -> FileCheck {
    match open_checked(path) {
        Ok((_, size)) => {
            let name = name_of(path);
            FileCheck {
                path: String::new(),
                recognised: is_recognised(&name),
                name,
                size: size as f64,
                refusal: None,
            }
        }
        Err(err) => refused(path, &err),
    }
}

/// Uploads the file behind `token`, sending progress (at most about every 1% of it).
pub async fn upload(
    offered: &OfferedFiles,
    connection: &Connection,
    conversations: &crate::conversations::Conversations,
    token: &str,
    progress: Channel<UploadProgress>,
) -> AppResult<Upload> {
    let path = offered.path_of(token).ok_or(AppError::FileUnreadable)?;
    let opened = path.clone();
    let (file, size) = tauri::async_runtime::spawn_blocking(move || open_checked(&opened))
        .await
        .map_err(|_| AppError::FileUnreadable)??;
    let client = connection.active().await?.client;
    let name = name_of(&path);
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
    let upload = client
        .uploads()
        .upload_open_file(&name, file, size, Some(report))
        .await?;
    conversations.file_names().remember(&upload, &name);
    Ok(upload)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::UiCode;
    use porthole_client::{Client, Credential};
    use std::sync::Mutex as StdMutex;

    fn codes(checks: &[FileCheck]) -> Vec<Option<UiCode>> {
        checks
            .iter()
            .map(|c| c.refusal.as_ref().map(|r| r.code))
            .collect()
    }

    #[test]
    fn pipes_devices_folders_empty_large_and_unreadable_files_are_refused_before_uploading() {
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
        // Opening a pipe with no writer would wait forever.
        let pipe = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo")
            .arg(&pipe)
            .status()
            .unwrap();
        assert!(made.success());

        let offered = OfferedFiles::default();
        let checks = offered.picked(vec![
            ok.clone(),
            empty,
            big,
            exact,
            dir.path().join("missing.txt"),
            dir.path().to_owned(),
            pipe,
            PathBuf::from("/dev/null"),
        ]);
        assert_eq!(
            codes(&checks),
            vec![
                None,
                Some(UiCode::EmptyFile),
                Some(UiCode::FileTooLarge),
                None,
                Some(UiCode::FileUnreadable),
                Some(UiCode::FolderNotFile),
                Some(UiCode::NotAFile),
                Some(UiCode::NotAFile),
            ]
        );
        // The page holds tokens, never paths, and only accepted files have one.
        assert_eq!(offered.path_of(&checks[0].path), Some(ok));
        assert!(!checks[0].path.contains("notes"));
        assert!(checks[1].path.is_empty());
    }

    #[test]
    fn a_drop_yields_tokens_and_a_made_up_token_reads_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let dropped = dir.path().join("dropped.txt");
        std::fs::write(&dropped, b"from the drop").unwrap();
        let other = dir.path().join("secret.txt");
        std::fs::write(&other, b"never offered").unwrap();

        let offered = OfferedFiles::default();
        let checks = offered.picked(vec![dropped.clone()]);
        assert_eq!(codes(&checks), vec![None]);
        assert_eq!(checks[0].name, "dropped.txt");
        assert_eq!(checks[0].size, 13.0);
        assert!(!checks[0].path.contains("dropped"), "a token, not the path");
        assert_eq!(offered.path_of(&checks[0].path), Some(dropped.clone()));
        // A path, even of a dropped file, or a guessed token opens nothing.
        assert_eq!(offered.path_of(&dropped.display().to_string()), None);
        assert_eq!(offered.path_of(&other.display().to_string()), None);
        assert_eq!(offered.path_of(&"0".repeat(32)), None);
        assert_eq!(offered.path_of(""), None);
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

    #[tokio::test]
    async fn a_file_is_streamed_as_it_was_checked_even_if_it_grows_meanwhile() {
        let sim = porthole_sim::Sim::start(porthole_sim::Config::default())
            .await
            .unwrap();
        let key = sim.account("ada").api_key.clone().unwrap();
        let client = Client::new(&sim.base_url, Credential::api_key(&key).unwrap()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("server.log");
        std::fs::write(&log, "line\n".repeat(200_000)).unwrap();
        let (file, size) = open_checked(&log).unwrap();
        // The log grows between the check and the upload: what was checked is what is sent.
        use std::io::Write;
        let mut more = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
        more.write_all(&vec![b'x'; 3 * 1024 * 1024]).unwrap();
        let seen = Arc::new(StdMutex::new(Vec::new()));
        let sink = seen.clone();
        let upload = client
            .uploads()
            .upload_open_file(
                "server.log",
                file,
                size,
                Some(Arc::new(move |sent, total| {
                    sink.lock().unwrap().push((sent, total))
                })),
            )
            .await
            .unwrap();
        assert_eq!(upload.size, 1_000_000);
        let seen = seen.lock().unwrap().clone();
        // Read a chunk at a time as the connection takes it (64 KiB each).
        assert!(seen.len() > 10, "{} steps", seen.len());
        assert_eq!(seen.last(), Some(&(1_000_000, 1_000_000)));
    }
}
