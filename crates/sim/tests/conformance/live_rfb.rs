//! A computer whose live view is switched to RFB (VNC): it greets as an RFB server does, takes
//! no `guacamole` subprotocol, so the real viewer reports a stream it cannot show; switched
//! back, the same computer streams Guacamole again.

use crate::live::*;
use crate::support::*;
use futures::StreamExt;
use porthole_live::{EndReason, LiveUrl, Status, UrlError, UrlSource, ViewerEvent};
use porthole_sim::live_view::rfb::GREETING;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;

/// One live URL, handed to the viewer once.
struct Once(String);

impl UrlSource for Once {
    async fn fresh_url(&self) -> Result<LiveUrl, UrlError> {
        Ok(LiveUrl::new(self.0.clone(), 1280, 800))
    }
}

#[tokio::test]
async fn a_screen_switched_to_rfb_greets_as_a_vnc_server_until_switched_back() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    p.sim.state().set_live_speaks_rfb(&m, true);

    // A client that offers what an RFB bridge takes is greeted with the 12-byte version.
    let mut req = live_url(&p, "ada", &m)
        .await
        .into_client_request()
        .expect("a websocket URL");
    req.headers_mut()
        .insert("Sec-WebSocket-Protocol", HeaderValue::from_static("binary"));
    let (mut ws, res) = tokio_tungstenite::connect_async(req)
        .await
        .expect("the handshake succeeds");
    assert_eq!(
        res.headers()
            .get("sec-websocket-protocol")
            .and_then(|v| v.to_str().ok()),
        Some("binary")
    );
    let first = tokio::time::timeout(PATIENCE, ws.next())
        .await
        .expect("the server speaks first")
        .expect("a message")
        .expect("readable");
    assert_eq!(first, Message::Binary(GREETING.to_vec().into()));
    assert_eq!(&GREETING[..], b"RFB 003.008\n");

    // The Guacamole viewer is not given its subprotocol: it says the stream is not one it
    // can show, and does not try again.
    let url = live_url(&p, "ada", &m).await;
    let viewer = porthole_live::Viewer::start(Once(url), porthole_live::ViewerOptions::default());
    let ended = loop {
        match tokio::time::timeout(PATIENCE, viewer.next_event())
            .await
            .expect("the viewer says something")
        {
            Some(ViewerEvent::Status(s @ Status::Ended(_))) => break s,
            Some(ViewerEvent::Frame(_)) => panic!("an RFB screen gave the viewer a frame"),
            Some(ViewerEvent::Status(_)) => {}
            None => panic!("the viewer ended without saying why"),
        }
    };
    assert!(
        matches!(ended, Status::Ended(EndReason::Unsupported { .. })),
        "{ended:?}"
    );

    // Switched back: the same computer streams Guacamole again.
    p.sim.state().set_live_speaks_rfb(&m, false);
    let mut v = Viewer::connect(&live_url(&p, "ada", &m).await).await;
    let frame = v.until_sync(PATIENCE).await;
    assert!(frame.iter().any(|i| i.opcode == "size"), "{frame:?}");
}
