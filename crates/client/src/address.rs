//! Which web addresses the client speaks to: `https://` anywhere, plain `http://` only on this
//! computer's own loopback addresses (`127.0.0.0/8`, `localhost`, `[::1]`).
//!
//! Why: the first request to a service carries the API key or the sign-in token, and a sign-in
//! posts its one-time code and PKCE verifier; over plain http to another computer anyone on
//! the way could read them. The rule holds for the service and the sign-in issuer alike.

use url::{Host, Url};

use crate::error::{Error, InputError};

/// Parses a service or issuer address and checks its scheme and host. The error never holds
/// what was typed (see [`InputError::BaseUrl`]).
pub fn check(input: &str) -> Result<Url, Error> {
    let bad = |reason: &str| {
        Error::from(InputError::BaseUrl {
            reason: reason.to_owned(),
        })
    };
    let url = Url::parse(input.trim()).map_err(|e| bad(&e.to_string()))?;
    match url.scheme() {
        "https" => {}
        "http" if is_loopback(&url) => {}
        "http" => return Err(InputError::PlainHttp.into()),
        _ => {
            return Err(bad(
                "it must start with https:// (or http:// on this computer)",
            ))
        }
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(bad("it has no host name"));
    }
    Ok(url)
}

/// Whether `url` names this computer: an IPv4 loopback address, `[::1]`, or `localhost`.
pub fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(Host::Ipv4(ip)) => ip.is_loopback(),
        Some(Host::Ipv6(ip)) => ip.is_loopback(),
        Some(Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    #[test]
    fn plain_http_is_only_for_this_computer() {
        for fine in [
            "http://127.0.0.1:9",
            "http://127.8.9.10/",
            "http://127.1",
            "http://localhost:8080/api",
            "HTTP://LOCALHOST",
            "http://[::1]:9/",
            "https://api.example.com",
            "https://10.0.0.2:8443",
        ] {
            assert!(check(fine).is_ok(), "{fine}");
        }
        for cleartext in [
            "http://api.example.com",
            "http://10.0.0.2:9",
            "http://192.168.1.5",
            "http://128.0.0.1",
            "http://[::ffff:127.0.0.1]",
            "http://localhost.example.com",
            "http://127.0.0.1.example.com",
        ] {
            let err = check(cleartext).unwrap_err();
            assert_eq!(err.code(), ErrorCode::InsecureAddress, "{cleartext}");
        }
        assert_eq!(
            check("ftp://127.0.0.1").unwrap_err().code(),
            ErrorCode::InvalidBaseUrl
        );
    }
}
