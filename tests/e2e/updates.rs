//! Updates in the real window: a feed served on loopback announces a newer Porthole. Signed
//! with the key the app trusts, the app offers it in plain words; signed with another key, it
//! says the update could not be verified and installs nothing.
//!
//! The signing keys are made here, for this run only, and never written anywhere. The app
//! under test is a debug build, which reads the feed's address and the key it trusts from
//! `PORTHOLE_UPDATE_FEED` and `PORTHOLE_UPDATE_PUBKEY` (release builds cannot:
//! src-tauri/src/updates/source.rs). These tests stop at the offer and at Later; installing
//! an offered update for real, from the installed .deb, is `install::update::`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use base64::Engine;
use minisign::KeyPair;
use porthole_e2e::{App, AppOptions, Eventually};

const NEWER: &str = "0.2.0";

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_newer_signed_version_is_offered_in_plain_words() {
    let trusted = KeyPair::generate_unencrypted_keypair().expect("a key pair");
    let feed = Feed::serve(&trusted).await;
    let app = App::launch_with(feed.options(&trusted))
        .await
        .expect("the app opens");
    let wait = Eventually::new(&app.driver);

    let offer = wait
        .text("update-offer", |t| t.contains("Install and restart"))
        .await
        .expect("the update is offered");
    app.screenshot("update-offer").await.expect("screenshot");
    assert!(
        offer.contains(&format!("Porthole {NEWER} is available")),
        "the offer names the version in plain words: {offer:?}"
    );
    assert!(
        offer.contains("Later"),
        "the offer can be put off: {offer:?}"
    );
    assert!(
        feed.downloads() >= 1,
        "the package was fetched (and verified) before it was offered"
    );

    wait.element("update-later")
        .await
        .expect("a Later button")
        .click()
        .await
        .expect("click Later");
    wait.gone("update-offer")
        .await
        .expect("Later puts the offer away");
    app.quit().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn an_update_with_a_bad_signature_is_refused_and_said_so() {
    let trusted = KeyPair::generate_unencrypted_keypair().expect("a key pair");
    let stranger = KeyPair::generate_unencrypted_keypair().expect("another key pair");
    // The feed's package is signed, but not by the key the app trusts.
    let feed = Feed::serve(&stranger).await;
    let app = App::launch_with(feed.options(&trusted))
        .await
        .expect("the app opens");
    let wait = Eventually::new(&app.driver);

    let said = wait
        .text("update-offer", |t| t.contains("could not be verified"))
        .await
        .expect("the refusal is said");
    app.screenshot("update-unverified")
        .await
        .expect("screenshot");
    assert!(
        said.contains("This update could not be verified, so it was not installed."),
        "{said:?}"
    );
    assert!(feed.downloads() >= 1, "the package was fetched and checked");
    assert!(
        app.driver
            .find_all(porthole_e2e::by_testid("update-install"))
            .await
            .expect("query")
            .is_empty(),
        "an unverified update is never offered for install"
    );
    wait.element("update-later")
        .await
        .expect("a button to put the message away")
        .click()
        .await
        .expect("click");
    wait.gone("update-offer").await.expect("the message goes");
    app.quit().await;
}

/// What a feed announces: one package of one version, under the feed's platform keys.
pub(crate) struct Package {
    pub(crate) version: String,
    pub(crate) file: String,
    pub(crate) bytes: Bytes,
    /// The manifest's platform entries that name it (`linux-x86_64`, `linux-x86_64-deb`, …).
    pub(crate) platforms: Vec<&'static str>,
}

impl Package {
    /// Not a real package: the app only fetches and verifies it before offering, and an
    /// install of it fails before anything is replaced.
    fn stand_in() -> Package {
        Package {
            version: NEWER.into(),
            file: format!("porthole_{NEWER}_amd64.AppImage"),
            bytes: Bytes::from_static(b"Porthole 0.2.0, a package made by the update test"),
            platforms: vec!["linux-x86_64", "linux-aarch64"],
        }
    }
}

/// An update feed on loopback: the manifest and one package signed with the given key.
pub(crate) struct Feed {
    url: String,
    downloads: Arc<AtomicUsize>,
    _server: tokio::task::JoinHandle<()>,
}

impl Feed {
    pub(crate) async fn serve(signer: &KeyPair) -> Feed {
        Feed::serve_package(signer, Package::stand_in()).await
    }

    pub(crate) async fn serve_package(signer: &KeyPair, package: Package) -> Feed {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("address"));
        let Package {
            version,
            file,
            bytes,
            platforms,
        } = package;
        // The trusted comment carries the version, as the Tauri CLI's signer writes it; the
        // app requires it (requireSignedVersion), so an old signed package cannot pass for new.
        let trusted_comment = format!("timestamp:1764000000\tfile:{file}\tversion:{version}");
        let signature = minisign::sign(
            Some(&signer.pk),
            &signer.sk,
            &bytes[..],
            Some(&trusted_comment),
            Some("signature from the update test's key"),
        )
        .expect("sign");
        let b64 = base64::engine::general_purpose::STANDARD;
        let platform = serde_json::json!({
            "signature": b64.encode(signature.to_string()),
            "url": format!("{base}/{file}"),
        });
        let platforms: serde_json::Map<String, serde_json::Value> = platforms
            .into_iter()
            .map(|p| (p.to_owned(), platform.clone()))
            .collect();
        let manifest = serde_json::json!({
            "version": version,
            "notes": "A newer Porthole made by the update test.",
            "pub_date": "2026-11-25T12:00:00Z",
            "platforms": platforms,
        });
        let downloads = Arc::new(AtomicUsize::new(0));
        let app = Router::new()
            .route("/latest.json", get(move || async move { Json(manifest) }))
            .route(
                &format!("/{file}"),
                get(move |State(count): State<Arc<AtomicUsize>>| async move {
                    count.fetch_add(1, Ordering::SeqCst);
                    bytes
                }),
            )
            .with_state(downloads.clone());
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Feed {
            url: format!("{base}/latest.json"),
            downloads,
            _server: server,
        }
    }

    /// Launch options pointing the app at this feed and trusting `trusted`'s public key.
    pub(crate) fn options(&self, trusted: &KeyPair) -> AppOptions {
        let public = trusted.pk.to_box().expect("public key file").into_string();
        let b64 = base64::engine::general_purpose::STANDARD;
        AppOptions {
            env: vec![
                ("PORTHOLE_UPDATE_FEED".into(), self.url.clone()),
                ("PORTHOLE_UPDATE_PUBKEY".into(), b64.encode(public)),
            ],
            ..AppOptions::default()
        }
    }

    pub(crate) fn downloads(&self) -> usize {
        self.downloads.load(Ordering::SeqCst)
    }
}
