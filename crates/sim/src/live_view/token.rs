//! Live-view tokens: the `token` in a `websocketUrl`, bound to one account, one machine and
//! an expiry. A token is self-contained (payload + MAC under a per-process random key), so
//! the simulator keeps no token table; a token from another process, an edited payload or a
//! truncated string all fail the MAC.
//!
//! The token is a credential for watching a screen: it is never logged.

use std::sync::LazyLock;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use sha2::{Digest, Sha256};

static KEY: LazyLock<String> = LazyLock::new(|| crate::state::random_token(32));

/// What a valid token grants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub owner: String,
    pub machine_id: String,
    /// Unix milliseconds after which the token no longer opens a stream, and a stream it
    /// opened ends.
    pub expires_at_ms: i64,
}

/// Why a token was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenProblem {
    Invalid,
    Expired,
}

/// `H(key ‖ H(key ‖ payload))`: the outer hash keeps a known MAC from being extended to a
/// longer payload.
fn mac(payload: &str) -> String {
    let inner = Sha256::new()
        .chain_update(KEY.as_bytes())
        .chain_update(payload.as_bytes())
        .finalize();
    let outer = Sha256::new()
        .chain_update(KEY.as_bytes())
        .chain_update(inner)
        .finalize();
    URL_SAFE_NO_PAD.encode(outer)
}

/// Issues a token for `grant`.
pub fn issue(grant: &Grant) -> String {
    let payload = URL_SAFE_NO_PAD.encode(format!(
        "{}\n{}\n{}",
        grant.owner, grant.machine_id, grant.expires_at_ms
    ));
    let sig = mac(&payload);
    format!("{payload}.{sig}")
}

/// Checks a token's MAC and expiry at `now_ms`.
pub fn verify(token: &str, now_ms: i64) -> Result<Grant, TokenProblem> {
    let (payload, sig) = token.split_once('.').ok_or(TokenProblem::Invalid)?;
    // Compare digests of both sides so the comparison time says nothing about the MAC.
    let expected = Sha256::digest(mac(payload).as_bytes());
    if Sha256::digest(sig.as_bytes()) != expected {
        return Err(TokenProblem::Invalid);
    }
    let raw = URL_SAFE_NO_PAD
        .decode(payload)
        .map_err(|_| TokenProblem::Invalid)?;
    let text = String::from_utf8(raw).map_err(|_| TokenProblem::Invalid)?;
    let mut parts = text.split('\n');
    let (Some(owner), Some(machine_id), Some(exp), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(TokenProblem::Invalid);
    };
    let expires_at_ms: i64 = exp.parse().map_err(|_| TokenProblem::Invalid)?;
    if now_ms >= expires_at_ms {
        return Err(TokenProblem::Expired);
    }
    Ok(Grant {
        owner: owner.to_owned(),
        machine_id: machine_id.to_owned(),
        expires_at_ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grant() -> Grant {
        Grant {
            owner: "u1".into(),
            machine_id: "m1".into(),
            expires_at_ms: 1_000,
        }
    }

    #[test]
    fn round_trips_and_expires() {
        let t = issue(&grant());
        assert_eq!(verify(&t, 999), Ok(grant()));
        assert_eq!(verify(&t, 1_000), Err(TokenProblem::Expired));
    }

    #[test]
    fn tampering_is_refused() {
        let t = issue(&grant());
        let other = issue(&Grant {
            machine_id: "m2".into(),
            ..grant()
        });
        let (payload, _) = other.split_once('.').unwrap_or_default();
        let (_, sig) = t.split_once('.').unwrap_or_default();
        assert_eq!(
            verify(&format!("{payload}.{sig}"), 0),
            Err(TokenProblem::Invalid)
        );
        assert_eq!(verify("garbage", 0), Err(TokenProblem::Invalid));
        assert_eq!(verify(&t[..t.len() - 1], 0), Err(TokenProblem::Invalid));
    }
}
