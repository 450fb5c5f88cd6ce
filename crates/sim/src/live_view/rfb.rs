//! A computer whose live view speaks RFB (VNC) instead of Guacamole, as a service's screen
//! bridge may: switched per machine from tests ([`AppState::set_live_speaks_rfb`]) so a
//! viewer's answer to a stream it cannot show can be tried. Such a server does not take the
//! `guacamole` subprotocol (it answers `binary` when the viewer offers it, else none) and
//! speaks first, with its 12-byte ProtocolVersion (RFC 6143 §7.1.1), as the live-protocol
//! notes say an RFB server does.

use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};
use futures::StreamExt;

use crate::state::AppState;

/// What an RFB 3.8 server sends first.
pub const GREETING: &[u8; 12] = b"RFB 003.008\n";

/// The subprotocol such a server takes, when the viewer offers it.
pub const SUBPROTOCOL: &str = "binary";

impl AppState {
    /// From now on, the live view of `machine_id` speaks RFB (`true`) or Guacamole again
    /// (`false`); a viewer already watching keeps its stream.
    pub fn set_live_speaks_rfb(&self, machine_id: &str, rfb: bool) {
        let mut db = self.db();
        if rfb {
            db.rfb_screens.insert(machine_id.to_owned());
        } else {
            db.rfb_screens.remove(machine_id);
        }
    }

    pub(crate) fn live_speaks_rfb(&self, machine_id: &str) -> bool {
        self.db().rfb_screens.contains(machine_id)
    }
}

/// Greets the viewer as an RFB server, then waits for its answer (a version of its own, or
/// going away, which is all a Guacamole viewer does); nothing here goes further into RFB.
pub(super) async fn serve(mut socket: WebSocket) {
    if socket
        .send(Message::Binary(GREETING.to_vec().into()))
        .await
        .is_err()
    {
        return;
    }
    let _ = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(Ok(message)) = socket.next().await {
            if matches!(message, Message::Binary(_) | Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}
