//! The client trusts the operating system's certificate store beside the built-in roots, so a
//! service behind a company's own certificate authority works, and it never trusts a server
//! that no store vouches for.
//!
//! The store is pointed at a test CA through `SSL_CERT_FILE` / `SSL_CERT_DIR`, which the OS
//! store loader reads instead of the system's own locations: the person's store is never
//! touched. The environment is set only in child processes of this test binary, so no other
//! test sees it.

use std::path::PathBuf;
use std::sync::Arc;

use porthole_client::{Client, Credential, ErrorCode};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::{self, ServerConfig};

/// Set in a child: what it should find.
const CHILD: &str = "PORTHOLE_TEST_TRUST_CHILD";

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/tls")
        .join(name)
}

/// Runs this test in a child process with `store` as the OS trust store; returns its output.
fn in_child(expect: &str, store: (&str, PathBuf)) -> String {
    let exe = std::env::current_exe().expect("test binary");
    let out = std::process::Command::new(exe)
        .args([
            "--exact",
            "a_company_ca_in_the_os_store_is_trusted",
            "--nocapture",
        ])
        .env(CHILD, expect)
        .env_remove("SSL_CERT_FILE")
        .env_remove("SSL_CERT_DIR")
        .env(store.0, store.1)
        .output()
        .expect("run the child");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "the child ({expect}) failed: {text}");
    // A filter that matched nothing would pass too.
    assert!(text.contains("1 passed"), "the child ran no test: {text}");
    text
}

#[test]
fn a_company_ca_in_the_os_store_is_trusted() {
    match std::env::var(CHILD).as_deref() {
        Ok("trusted") => return child(true),
        Ok("refused") => return child(false),
        _ => {}
    }
    in_child("trusted", ("SSL_CERT_FILE", fixture("company-ca.pem")));
    // A store without the company's CA: the same server is refused, checks stay on.
    let empty = std::env::temp_dir().join(format!("porthole-empty-store-{}", std::process::id()));
    std::fs::create_dir_all(&empty).expect("an empty directory");
    in_child("refused", ("SSL_CERT_DIR", empty.clone()));
    let _ = std::fs::remove_dir(&empty);
}

fn child(trusted: bool) {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        let port = serve_tls().await;
        let client = Client::new(
            &format!("https://127.0.0.1:{port}"),
            Credential::api_key("sapi_test").expect("key"),
        )
        .expect("client");
        let answer = client.auth().check().await;
        if trusted {
            let check = answer.expect("the company CA is trusted");
            assert_eq!(check.user_id, "u_tls");
        } else {
            let err = answer.expect_err("no store vouches for this server");
            assert_eq!(err.code(), ErrorCode::Network, "{err}");
        }
    });
}

/// A TLS server on loopback with the CA-signed certificate, answering every request with
/// one key check.
async fn serve_tls() -> u16 {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let certs = CertificateDer::pem_file_iter(fixture("localhost.pem"))
        .expect("certificate")
        .collect::<Result<Vec<_>, _>>()
        .expect("certificate");
    let key = PrivateKeyDer::from_pem_file(fixture("localhost.key")).expect("key");
    let config = ServerConfig::builder()
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .expect("server config");
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("listen");
    let port = listener.local_addr().expect("address").port();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                // A refused handshake is the point of the second child.
                let Ok(mut tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let mut buf = vec![0u8; 8192];
                let _ = tls.read(&mut buf).await;
                let body = r#"{"ok":true,"userId":"u_tls","authType":"apiKey"}"#;
                let response = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = tls.write_all(response.as_bytes()).await;
                let _ = tls.shutdown().await;
            });
        }
    });
    port
}
