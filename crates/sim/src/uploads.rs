//! `POST /v1/agents/upload`: raw bytes with a URL-encoded `x-filename`. The stored name has
//! unsafe characters replaced and a timestamp appended; the MIME type comes from the
//! extension (the spec's list); 25 MB per file (`413`), a storage quota per plan (`409`),
//! 30 uploads an hour.

use crate::auth::Caller;
use crate::clock::Clock;
use crate::error::ApiError;
use crate::limits::Limit;
use crate::records::Upload;
use crate::state::AppState;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::{Json, Router};
use futures::StreamExt;
use serde_json::Value;

/// Largest file accepted.
pub const MAX_FILE: usize = 25 * 1024 * 1024;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/v1/agents/upload", post(upload))
        .layer(DefaultBodyLimit::disable())
}

/// MIME type for a file name, by the spec's list of extensions.
pub fn mime_for(name: &str) -> &'static str {
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "txt" => "text/plain",
        "md" => "text/markdown",
        "json" => "application/json",
        "js" => "text/javascript",
        "ts" => "text/typescript",
        "py" => "text/x-python",
        "sh" | "bash" => "application/x-sh",
        "yaml" | "yml" => "application/yaml",
        "csv" => "text/csv",
        "html" => "text/html",
        "xml" => "application/xml",
        "pdf" => "application/pdf",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "sim" => "application/x-sim",
        _ => "application/octet-stream",
    }
}

/// Replaces unsafe characters and appends a timestamp before the extension.
pub fn stored_name(original: &str, now_ms: i64) -> String {
    let base = original.rsplit(['/', '\\']).next().unwrap_or("");
    let safe: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let safe = safe.trim_start_matches('.');
    let safe = if safe.is_empty() { "file" } else { safe };
    match safe.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => format!("{stem}-{now_ms}.{ext}"),
        _ => format!("{safe}-{now_ms}"),
    }
}

async fn upload(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<Value>, ApiError> {
    let original = headers
        .get("x-filename")
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            percent_encoding::percent_decode_str(v)
                .decode_utf8_lossy()
                .into_owned()
        })
        .filter(|v| !v.trim().is_empty())
        .ok_or_else(|| ApiError::bad_request("x-filename header is required."))?;
    state
        .limits()
        .hit(&caller.user_id, Limit::Uploads)
        .map_err(|w| {
            ApiError::rate_limited(
                "Upload rate limit exceeded. Maximum 30 uploads per hour.",
                w,
            )
        })?;
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "File too large. Maximum is 25MB.",
        )
    };
    if headers
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok())
        .is_some_and(|n| n > MAX_FILE)
    {
        return Err(too_large());
    }
    let mut size = 0usize;
    let mut stream = body.into_data_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|_| ApiError::bad_request("The upload was interrupted."))?;
        size += chunk.len();
        if size > MAX_FILE {
            return Err(too_large());
        }
    }
    if size == 0 {
        return Err(ApiError::bad_request(
            "x-filename header is required. The body must not be empty.",
        ));
    }
    let plan = state
        .account(&caller.user_id)
        .map(|a| a.plan)
        .ok_or_else(ApiError::unauthorized)?;
    let mut db = state.db();
    let used: u64 = db
        .uploads
        .iter()
        .filter(|u| u.owner == caller.user_id)
        .map(|u| u.size)
        .sum();
    if used + size as u64 > plan.storage_quota() {
        return Err(ApiError::coded(
            StatusCode::CONFLICT,
            "storage_quota_exceeded",
            "Your file storage is full. Remove files or upgrade.",
        ));
    }
    let name = stored_name(&original, Clock::now_ms());
    let upload = Upload {
        file_id: state.new_id("file_"),
        owner: caller.user_id.clone(),
        path: format!("uploads/{name}"),
        mime: mime_for(&name).to_owned(),
        name,
        size: size as u64,
    };
    let json = upload.json();
    db.uploads.push(upload);
    Ok(Json(json))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_made_safe_and_timestamped() {
        assert_eq!(stored_name("my report (1).pdf", 5), "my_report__1_-5.pdf");
        assert_eq!(stored_name("../../etc/passwd", 5), "passwd-5");
        assert_eq!(mime_for("a.PNG"), "image/png");
        assert_eq!(mime_for("a.exe"), "application/octet-stream");
    }
}
