//! How long a sign-in token still lives, read from its `exp` claim, so Porthole renews it (or
//! asks the person to sign in again) before a call, never after the service refused it.
//!
//! The claims are read without checking the signature: they only time the renewal, and the
//! service still checks the token on every call.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

/// The longest Porthole renews ahead of `exp`, covering the clock skew and the call's time.
const MAX_MARGIN_SECS: i64 = 60;

/// Whether `token` must be renewed before it is used at `now_secs` (Unix seconds): it has
/// expired or is about to. A token without an `exp` claim (an opaque pasted one) is used as
/// is, until the service refuses it.
pub fn needs_renewal(token: &str, now_secs: i64) -> bool {
    let Some(claims) = claims(token) else {
        return false;
    };
    let Some(exp) = claims.get("exp").and_then(serde_json::Value::as_i64) else {
        return false;
    };
    // A tenth of the token's life, so a short-lived one (a fast simulator's) is not renewed
    // at once; at most a minute for the real hour-long ones.
    let margin = claims
        .get("iat")
        .and_then(serde_json::Value::as_i64)
        .map_or(MAX_MARGIN_SECS, |iat| {
            ((exp - iat) / 10).clamp(0, MAX_MARGIN_SECS)
        });
    now_secs + margin >= exp
}

pub fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The claims of a JWT-shaped token, unverified.
pub fn claims(token: &str) -> Option<serde_json::Value> {
    let payload = token.split('.').nth(1)?;
    let bytes = URL_SAFE_NO_PAD.decode(payload.trim_end_matches('=')).ok()?;
    serde_json::from_slice(&bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(claims: &str) -> String {
        format!("h.{}.s", URL_SAFE_NO_PAD.encode(claims))
    }

    #[test]
    fn renewal_is_due_a_little_before_exp() {
        let hour = token(r#"{"iat":1000,"exp":4600}"#);
        assert!(!needs_renewal(&hour, 1000));
        assert!(!needs_renewal(&hour, 4539));
        assert!(needs_renewal(&hour, 4540), "a minute ahead");
        assert!(needs_renewal(&hour, 9999), "long expired");
        let short = token(r#"{"iat":1000,"exp":1036}"#);
        assert!(!needs_renewal(&short, 1030));
        assert!(needs_renewal(&short, 1033), "a tenth of its life ahead");
        let no_iat = token(r#"{"exp":1000}"#);
        assert!(needs_renewal(&no_iat, 940));
        assert!(!needs_renewal("opaque-token", 1 << 40));
        assert!(!needs_renewal(&token(r#"{"sub":"u"}"#), 1 << 40));
    }
}
