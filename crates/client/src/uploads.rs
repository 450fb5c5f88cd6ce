//! `POST /v1/agents/upload`: one file per call, raw bytes, URL-encoded `x-filename`.
//!
//! Checked before sending: an empty file and one over 25 MB are refused locally (no request,
//! no budget spent). Progress is reported as the HTTP layer pulls each 64 KiB chunk of the
//! body, so the figure is bytes handed to the connection, ending with the total.
//!
//! A file on disk is streamed: read a chunk at a time as the connection takes it, never held
//! whole in memory, and never more than the size it was checked at.

use std::io::SeekFrom;
use std::sync::Arc;

use bytes::Bytes;
use percent_encoding::utf8_percent_encode;
use serde::{Deserialize, Serialize};

use crate::budget::Limit;
use crate::client::Client;
use crate::error::{InputError, Operation, Result};
use crate::executor::{Call, Payload, SEGMENT};

/// Largest file the service takes.
pub const MAX_UPLOAD_BYTES: u64 = 25 * 1024 * 1024;
const CHUNK: usize = 64 * 1024;

/// A stored file; pass it unchanged in a message's `attachments`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Upload {
    /// `uploads/<name>`.
    pub path: String,
    /// May differ from the name sent (unsafe characters replaced, a timestamp added).
    pub name: String,
    pub mime: String,
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub size: u64,
    /// Required for a message to accept the attachment.
    #[serde(default)]
    pub file_id: Option<String>,
    /// Where the agent fetches the file (the real service's uploads carry it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub download_url: Option<String>,
    /// An image's size in pixels, when the service measured it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
    /// Any other field of the answer, kept so the attachment goes back exactly as the service
    /// gave it (the makers' client sends every field back unchanged).
    #[serde(flatten)]
    #[cfg_attr(feature = "specta", specta(skip))]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// Called with `(bytes_sent, total)` as the body goes out.
pub type Progress = Arc<dyn Fn(u64, u64) + Send + Sync>;

pub struct Uploads<'c> {
    client: &'c Client,
}

impl Client {
    pub fn uploads(&self) -> Uploads<'_> {
        Uploads { client: self }
    }
}

impl Uploads<'_> {
    /// Uploads `bytes` as `file_name`, reporting progress to `progress` if given.
    pub async fn upload(
        &self,
        file_name: &str,
        bytes: impl Into<Bytes>,
        progress: Option<Progress>,
    ) -> Result<Upload> {
        let bytes: Bytes = bytes.into();
        let size = bytes.len() as u64;
        self.send(file_name, size, move || {
            body(bytes.clone(), progress.clone())
        })
        .await
    }

    /// Uploads the first `len` bytes of the open `file` as `file_name`, read as the connection
    /// takes them; each attempt reads from the start. A file that grew since it was measured is
    /// cut at `len`; one that shrank fails the request rather than sending less.
    pub async fn upload_open_file(
        &self,
        file_name: &str,
        file: std::fs::File,
        len: u64,
        progress: Option<Progress>,
    ) -> Result<Upload> {
        let file = Arc::new(file);
        self.send(file_name, len, move || {
            file_body(file.clone(), len, progress.clone())
        })
        .await
    }

    /// Opens a file and uploads it under its own name, streamed.
    pub async fn upload_file(
        &self,
        path: &std::path::Path,
        progress: Option<Progress>,
    ) -> Result<Upload> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let file = std::fs::File::open(path).map_err(|e| io(path, e))?;
        let meta = file.metadata().map_err(|e| io(path, e))?;
        if !meta.is_file() {
            return Err(InputError::Invalid {
                field: "file",
                reason: format!("{} is not a regular file", path.display()),
            }
            .into());
        }
        self.upload_open_file(&name, file, meta.len(), progress)
            .await
    }

    async fn send(
        &self,
        file_name: &str,
        size: u64,
        body: impl Fn() -> reqwest::Body + Send + Sync + 'static,
    ) -> Result<Upload> {
        check(file_name, size)?;
        let encoded = utf8_percent_encode(file_name.trim(), SEGMENT).to_string();
        let mut call = Call::post(Operation::Upload, "/v1/agents/upload")
            .limit(Limit::Uploads)
            .timeout(std::time::Duration::from_secs(600));
        call.headers.push(("x-filename", encoded));
        call.headers
            .push(("content-type", "application/octet-stream".into()));
        call.headers.push(("content-length", size.to_string()));
        call.payload = Payload::Body(Box::new(body));
        self.client.call(call).await
    }
}

fn io(path: &std::path::Path, err: std::io::Error) -> crate::error::Error {
    InputError::Invalid {
        field: "file",
        reason: format!("could not read {}: {err}", path.display()),
    }
    .into()
}

fn check(file_name: &str, size: u64) -> Result<()> {
    if file_name.trim().is_empty() {
        return Err(InputError::Invalid {
            field: "file name",
            reason: "is empty".into(),
        }
        .into());
    }
    if size == 0 {
        return Err(InputError::EmptyFile.into());
    }
    if size > MAX_UPLOAD_BYTES {
        return Err(InputError::FileTooLarge {
            size,
            limit: MAX_UPLOAD_BYTES,
        }
        .into());
    }
    Ok(())
}

/// A body that reports progress as the connection takes each chunk: the figure includes the
/// chunk being handed over (the connection asks for no more once it has `Content-Length`
/// bytes, so reporting on the next request would never reach the total).
fn body(bytes: Bytes, progress: Option<Progress>) -> reqwest::Body {
    let total = bytes.len() as u64;
    if let Some(report) = &progress {
        report(0, total);
    }
    let stream = futures_util::stream::unfold(0usize, move |offset| {
        let bytes = bytes.clone();
        let progress = progress.clone();
        async move {
            if offset >= bytes.len() {
                return None;
            }
            let end = (offset + CHUNK).min(bytes.len());
            if let Some(report) = &progress {
                report(end as u64, total);
            }
            Some((Ok::<_, std::io::Error>(bytes.slice(offset..end)), end))
        }
    });
    reqwest::Body::wrap_stream(stream)
}

/// [`body`] for a file: each chunk read when the connection asks for it, through a handle of
/// its own that starts at the beginning (so a retried attempt sends the same bytes).
fn file_body(file: Arc<std::fs::File>, total: u64, progress: Option<Progress>) -> reqwest::Body {
    use tokio::io::{AsyncReadExt, AsyncSeekExt};
    if let Some(report) = &progress {
        report(0, total);
    }
    let start = (None::<tokio::fs::File>, 0u64);
    let stream = futures_util::stream::try_unfold(start, move |(open, sent)| {
        let file = file.clone();
        let progress = progress.clone();
        async move {
            if sent >= total {
                return Ok(None);
            }
            let mut reader = match open {
                Some(reader) => reader,
                None => {
                    let mut reader = tokio::fs::File::from_std(file.try_clone()?);
                    reader.seek(SeekFrom::Start(0)).await?;
                    reader
                }
            };
            let mut chunk = vec![0; CHUNK.min((total - sent) as usize)];
            let read = reader.read(&mut chunk).await?;
            if read == 0 {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "the file shrank while it was sent",
                ));
            }
            chunk.truncate(read);
            let sent = sent + read as u64;
            if let Some(report) = &progress {
                report(sent, total);
            }
            Ok(Some((Bytes::from(chunk), (Some(reader), sent))))
        }
    });
    reqwest::Body::wrap_stream(stream)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    #[test]
    fn sizes_are_checked_before_sending() {
        assert!(matches!(
            check("a.txt", 0),
            Err(Error::Input(InputError::EmptyFile))
        ));
        assert!(matches!(
            check("a.txt", MAX_UPLOAD_BYTES + 1),
            Err(Error::Input(InputError::FileTooLarge { .. }))
        ));
        assert!(check("a.txt", MAX_UPLOAD_BYTES).is_ok());
        assert!(check("  ", 1).is_err());
    }
}
