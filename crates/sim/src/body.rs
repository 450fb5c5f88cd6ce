//! JSON request bodies read defensively: a body over the limit answers `413`, bytes that are
//! not JSON answer `400`, and an empty body reads as `null` so endpoints with an optional
//! body can accept it. Endpoints then check shapes field by field to name what is wrong.

use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use serde_json::Value;

/// Largest JSON body any endpoint takes.
pub const MAX_JSON_BODY: usize = 1024 * 1024;

/// A parsed JSON body; `Value::Null` when the body is empty.
#[derive(Debug, Clone)]
pub struct JsonBody(pub Value);

impl FromRequest<AppState> for JsonBody {
    type Rejection = ApiError;

    async fn from_request(req: Request, _state: &AppState) -> Result<Self, ApiError> {
        let bytes = axum::body::to_bytes(req.into_body(), MAX_JSON_BODY)
            .await
            .map_err(|_| {
                ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "Request body too large. Maximum is 1MB.",
                )
            })?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(JsonBody(Value::Null));
        }
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|e| ApiError::bad_request(format!("The body is not valid JSON: {e}.")))
    }
}

/// Reads an optional string field; `Err` names the field when it has another type.
pub fn opt_str(
    obj: &serde_json::Map<String, Value>,
    key: &str,
) -> Result<Option<String>, ApiError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(ApiError::bad_request(format!("{key} must be a string."))),
    }
}

/// Reads an optional boolean field.
pub fn opt_bool(obj: &serde_json::Map<String, Value>, key: &str) -> Result<Option<bool>, ApiError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(_) => Err(ApiError::bad_request(format!(
            "{key} must be true or false."
        ))),
    }
}

/// The body as an object, or `400`.
pub fn object(body: Value) -> Result<serde_json::Map<String, Value>, ApiError> {
    match body {
        Value::Object(o) => Ok(o),
        _ => Err(ApiError::bad_request("The body must be a JSON object.")),
    }
}
