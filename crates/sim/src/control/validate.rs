//! Input checks of the control endpoints: the machine id in the path (`invalid_machine`) and
//! the exec body (`invalid_body` with `details` naming every problem at once).

use axum::http::StatusCode;
use serde_json::Value;

use crate::error::ApiError;

/// Longest exec `code`, in characters.
pub const MAX_CODE_CHARS: usize = 200_000;
/// `timeoutMs` default and bounds.
pub const DEFAULT_TIMEOUT_MS: u64 = 120_000;
pub const MIN_TIMEOUT_MS: u64 = 1_000;
pub const MAX_TIMEOUT_MS: u64 = 300_000;

/// A machine id as the service issues them: 1–128 letters, digits, `_` or `-`.
pub fn machine_id(id: &str) -> Result<(), ApiError> {
    let ok = !id.is_empty()
        && id.len() <= 128
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(ApiError::coded(
            StatusCode::BAD_REQUEST,
            "invalid_machine",
            "The computer id in the address is not valid.",
        ))
    }
}

/// A checked exec request.
#[derive(Debug, Clone)]
pub struct ExecRequest {
    pub code: String,
    pub timeout_ms: u64,
}

/// `400 invalid_body` listing the problems.
pub fn invalid_body(details: Vec<String>) -> ApiError {
    ApiError::coded(
        StatusCode::BAD_REQUEST,
        "invalid_body",
        "The request body is not a valid code block.",
    )
    .with("details", details)
}

/// Checks the raw exec body; `Err` lists every problem (the `details`).
pub fn exec_body(raw: &[u8]) -> Result<ExecRequest, Vec<String>> {
    let invalid = |details: Vec<String>| details;
    let body: Value = serde_json::from_slice(raw)
        .map_err(|e| invalid(vec![format!("The body is not valid JSON: {e}.")]))?;
    let Value::Object(obj) = body else {
        return Err(invalid(vec!["The body must be a JSON object.".into()]));
    };
    let mut details = Vec::new();
    for key in obj.keys().filter(|k| *k != "code" && *k != "timeoutMs") {
        details.push(format!("Unknown field `{key}`."));
    }
    let code = match obj.get("code") {
        None | Some(Value::Null) => {
            details.push("`code` is required.".into());
            None
        }
        Some(Value::String(s)) if s.chars().count() > MAX_CODE_CHARS => {
            details.push(format!(
                "`code` is longer than {MAX_CODE_CHARS} characters."
            ));
            None
        }
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            details.push("`code` must be a string.".into());
            None
        }
    };
    let timeout_ms = match obj.get("timeoutMs") {
        None | Some(Value::Null) => DEFAULT_TIMEOUT_MS,
        Some(v) => match v.as_u64() {
            Some(t) if (MIN_TIMEOUT_MS..=MAX_TIMEOUT_MS).contains(&t) => t,
            Some(_) | None if v.is_number() => {
                details.push(format!(
                    "`timeoutMs` must be a whole number from {MIN_TIMEOUT_MS} to {MAX_TIMEOUT_MS}."
                ));
                DEFAULT_TIMEOUT_MS
            }
            _ => {
                details.push("`timeoutMs` must be a number.".into());
                DEFAULT_TIMEOUT_MS
            }
        },
    };
    match code {
        Some(code) if details.is_empty() => Ok(ExecRequest { code, timeout_ms }),
        _ => Err(invalid(details)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn details(raw: &str) -> Vec<String> {
        exec_body(raw.as_bytes()).err().unwrap_or_default()
    }

    #[test]
    fn every_problem_is_listed() {
        let d = details(r#"{"timeoutMs": 5, "extra": 1}"#);
        assert_eq!(d.len(), 3, "{d:?}");
        assert!(details(r#"{"code": 1}"#)[0].contains("string"));
        assert!(details("not json")[0].contains("JSON"));
        assert!(details(r#"{"code":"1","timeoutMs":300001}"#)[0].contains("300000"));
        assert!(details(r#"{"code":"1","timeoutMs":1.5}"#)[0].contains("whole number"));
    }

    #[test]
    fn a_good_body_passes_with_the_default_timeout() {
        let r = exec_body(br#"{"code":"1+1"}"#).ok();
        assert_eq!(r.map(|r| r.timeout_ms), Some(DEFAULT_TIMEOUT_MS));
        assert!(machine_id("m_abc-1").is_ok());
        assert!(machine_id("../etc").is_err());
        assert!(machine_id("").is_err());
    }
}
