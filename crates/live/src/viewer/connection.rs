//! One WebSocket connection: dial with subprotocol `guacamole`, read frames into the shared
//! queue, echo `sync`s the consumer acknowledged, keep the link alive with `nop`, and return why
//! it ended.
//!
//! View-only is enforced here: the only instructions ever written are `sync` echoes, `nop`,
//! answers to the server's internal pings, and `disconnect`.

use super::shared::Shared;
use super::ViewerOptions;
use crate::assemble::FrameAssembler;
use crate::codec::{encode_parts_into, parse_frame, InstructionRef};
use crate::end_reason::EndReason;
use crate::url_source::LiveUrl;
use futures_util::{SinkExt, StreamExt};
use std::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::header::SEC_WEBSOCKET_PROTOCOL;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{self, Message};

/// Guacamole statuses that mean the session's token was refused (CLIENT_UNAUTHORIZED,
/// CLIENT_FORBIDDEN).
const TOKEN_STATUSES: [u32; 2] = [0x0301, 0x0303];
/// SESSION_TIMEOUT: the token's time ran out during the stream.
const SESSION_TIMEOUT: u32 = 0x020A;
/// UPSTREAM_UNAVAILABLE: the remote desktop is gone.
const UPSTREAM_UNAVAILABLE: u32 = 0x0208;

pub(super) struct Outcome {
    pub reason: EndReason,
    /// At least one frame arrived: the URL worked, so backoff starts over.
    pub healthy: bool,
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;
type Sink = futures_util::stream::SplitSink<Socket, Message>;

pub(super) async fn run(
    shared: &Shared,
    options: &ViewerOptions,
    url: LiveUrl,
    connection: u64,
) -> Outcome {
    let socket = match dial(options, &url).await {
        Ok(socket) => socket,
        Err(reason) => {
            return Outcome {
                reason,
                healthy: false,
            }
        }
    };
    shared.connected(connection, url.width, url.height);
    let mut link = Link {
        shared,
        connection,
        assembler: FrameAssembler::new(options.max_queued_bytes, (url.width, url.height)),
        healthy: false,
        replies: Vec::new(),
    };
    let reason = link.pump(socket, options).await;
    Outcome {
        reason,
        healthy: link.healthy,
    }
}

async fn dial(options: &ViewerOptions, url: &LiveUrl) -> Result<Socket, EndReason> {
    // The URL is dialled unchanged: its query string is the stream's connect data.
    let mut request = url
        .expose_websocket_url()
        .into_client_request()
        .map_err(|_| EndReason::Network {
            detail: "the live URL is not a valid WebSocket address".into(),
        })?;
    request.headers_mut().insert(
        SEC_WEBSOCKET_PROTOCOL,
        HeaderValue::from_static("guacamole"),
    );
    let mut config = WebSocketConfig::default();
    config.max_message_size = Some(16 << 20);
    config.max_frame_size = Some(16 << 20);
    let connect = tokio_tungstenite::connect_async_with_config(request, Some(config), true);
    match tokio::time::timeout(options.connect_timeout, connect).await {
        Err(_) => Err(EndReason::Network {
            detail: "connecting timed out".into(),
        }),
        Ok(Err(e)) => Err(connect_error(e)),
        Ok(Ok((socket, _response))) => Ok(socket),
    }
}

fn connect_error(e: tungstenite::Error) -> EndReason {
    use tungstenite::error::ProtocolError;
    match e {
        tungstenite::Error::Http(response) => {
            let status = response.status().as_u16();
            if status == 401 || status == 403 {
                EndReason::TokenRejected {
                    message: format!("the service refused the live view (HTTP {status})"),
                }
            } else {
                EndReason::Network {
                    detail: format!("the service answered HTTP {status}"),
                }
            }
        }
        tungstenite::Error::Protocol(ProtocolError::SecWebSocketSubProtocolError(_)) => {
            EndReason::Unsupported {
                detail: "the server does not speak the Guacamole protocol".into(),
            }
        }
        tungstenite::Error::Io(io) => EndReason::Network {
            detail: io.kind().to_string(),
        },
        // Other errors' text never holds the URL or its token.
        other => EndReason::Network {
            detail: other.to_string(),
        },
    }
}

struct Link<'a> {
    shared: &'a Shared,
    connection: u64,
    assembler: FrameAssembler,
    healthy: bool,
    /// Answers to internal pings, sent after the message that asked.
    replies: Vec<String>,
}

impl Link<'_> {
    async fn pump(&mut self, socket: Socket, options: &ViewerOptions) -> EndReason {
        let (mut sink, mut stream) = socket.split();
        let start = tokio::time::Instant::now();
        let mut nop = tokio::time::interval_at(start + options.nop_interval, options.nop_interval);
        nop.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut last_heard = start;
        let mut out = String::new();
        loop {
            if let Err(failed) = self.flush_acks(&mut sink, &mut out).await {
                return self.reason_after_write_failure(&mut stream, failed).await;
            }
            if self.shared.lock().stop_requested {
                // Best effort: the viewer is leaving whatever the server does.
                let _ = send(&mut sink, "10.disconnect;").await;
                let _ = sink.close().await;
                return EndReason::Stopped;
            }
            // Above the bound, stop reading until the consumer catches up (see `coalesce`).
            let reading = self.shared.queued_bytes() <= options.max_queued_bytes;
            if !reading {
                // Not reading is not the server's silence: the clock starts again on resuming.
                last_heard = tokio::time::Instant::now();
            }
            tokio::select! {
                // In order: the keepalive (ready once per interval, so never starved by a busy
                // stream), then reading (a server's last words explain an ending better than a
                // failed write), then wake-ups for acks.
                biased;
                _ = nop.tick() => {
                    if let Err(failed) = send(&mut sink, "3.nop;").await {
                        return self.reason_after_write_failure(&mut stream, failed).await;
                    }
                }
                message = stream.next(), if reading => {
                    last_heard = tokio::time::Instant::now();
                    if let Some(reason) = self.receive(message) {
                        return reason;
                    }
                }
                () = self.shared.to_session.notified() => {}
                () = tokio::time::sleep_until(last_heard + options.silence_timeout), if reading => {
                    return EndReason::Silent { for_secs: options.silence_timeout.as_secs() };
                }
            }
        }
    }

    /// Sends the `sync` echoes the consumer released and the answers to pings.
    async fn flush_acks(&mut self, sink: &mut Sink, out: &mut String) -> Result<(), EndReason> {
        for ts in self.shared.take_echoes(self.connection) {
            out.clear();
            encode_parts_into(out, "sync", &[ts]);
            send(sink, out).await?;
        }
        for reply in std::mem::take(&mut self.replies) {
            send(sink, &reply).await?;
        }
        Ok(())
    }

    /// A write failed, usually because the server already said goodbye: what it said is still
    /// in the receive buffer and names the real reason.
    async fn reason_after_write_failure(
        &mut self,
        stream: &mut futures_util::stream::SplitStream<Socket>,
        failed: EndReason,
    ) -> EndReason {
        let goodbye = async {
            loop {
                match stream.next().await {
                    Some(Ok(message)) => {
                        if let Some(reason) = self.receive(Some(Ok(message))) {
                            return Some(reason);
                        }
                    }
                    _ => return None,
                }
            }
        };
        match tokio::time::timeout(std::time::Duration::from_millis(200), goodbye).await {
            Ok(Some(reason)) => reason,
            _ => failed,
        }
    }

    /// Handles one WebSocket message; `Some` when the stream is over.
    fn receive(
        &mut self,
        message: Option<Result<Message, tungstenite::Error>>,
    ) -> Option<EndReason> {
        let arrived = Instant::now();
        match message {
            None => Some(EndReason::Closed {
                code: None,
                reason: String::new(),
            }),
            Some(Err(e)) => Some(EndReason::Network {
                detail: match e {
                    tungstenite::Error::Io(io) => io.kind().to_string(),
                    other => other.to_string(),
                },
            }),
            Some(Ok(Message::Text(text))) => {
                self.shared.lock().stats.bytes(arrived, text.len());
                self.instructions(text.as_str(), arrived).err()
            }
            Some(Ok(Message::Binary(bytes))) => {
                self.shared.lock().stats.bytes(arrived, bytes.len());
                Some(if bytes.starts_with(b"RFB ") {
                    EndReason::Unsupported {
                        detail: "the computer offers a VNC (RFB) screen, which Porthole cannot \
                                 show"
                            .into(),
                    }
                } else {
                    EndReason::Garbled {
                        detail: "binary data where text was expected".into(),
                    }
                })
            }
            Some(Ok(Message::Close(frame))) => Some(closed(frame)),
            // Pings are answered by tungstenite itself on the next write or flush.
            Some(Ok(_)) => None,
        }
    }

    fn instructions(&mut self, text: &str, arrived: Instant) -> Result<(), EndReason> {
        for instruction in parse_frame(text) {
            let instruction = instruction.map_err(|e| EndReason::Garbled {
                detail: e.to_string(),
            })?;
            self.instruction(&instruction, arrived)?;
        }
        Ok(())
    }

    fn instruction(&mut self, i: &InstructionRef<'_>, arrived: Instant) -> Result<(), EndReason> {
        match i.opcode() {
            "sync" => {
                let timestamp = i.arg(0).ok_or_else(|| EndReason::Garbled {
                    detail: "`sync` without a timestamp".into(),
                })?;
                let ops = self.assembler.take_ops();
                self.shared
                    .push_frame(self.connection, ops, timestamp.to_owned(), arrived);
                self.healthy = true;
            }
            "nop" => {}
            // Internal instructions: the tunnel's uuid (ignored) and pings (answered in kind).
            "" => {
                if i.arg(0) == Some("ping") {
                    self.replies.push(i.as_wire().to_owned());
                }
            }
            "error" => return Err(server_error(i)),
            "disconnect" => return Err(EndReason::Disconnected),
            opcode => {
                if opcode == "size" && i.arg(0) == Some("0") {
                    if let (Some(Ok(w)), Some(Ok(h))) =
                        (i.arg(1).map(str::parse), i.arg(2).map(str::parse))
                    {
                        self.shared.set_screen(w, h);
                    }
                }
                self.assembler
                    .push(i)
                    .map_err(|detail| EndReason::Garbled { detail })?;
            }
        }
        Ok(())
    }
}

async fn send(sink: &mut Sink, text: &str) -> Result<(), EndReason> {
    sink.send(Message::text(text))
        .await
        .map_err(|e| EndReason::Network {
            detail: match e {
                tungstenite::Error::Io(io) => io.kind().to_string(),
                other => other.to_string(),
            },
        })
}

fn server_error(i: &InstructionRef<'_>) -> EndReason {
    let message = i.arg(0).unwrap_or_default().to_owned();
    let status = i.arg(1).and_then(|s| s.parse().ok());
    match status {
        Some(s) if TOKEN_STATUSES.contains(&s) => EndReason::TokenRejected { message },
        Some(SESSION_TIMEOUT) => EndReason::TokenExpired { message },
        Some(UPSTREAM_UNAVAILABLE) => EndReason::MachineStopped { message },
        _ => EndReason::ServerError { message, status },
    }
}

fn closed(frame: Option<tungstenite::protocol::CloseFrame>) -> EndReason {
    let Some(frame) = frame else {
        return EndReason::Closed {
            code: None,
            reason: String::new(),
        };
    };
    let reason = frame.reason.to_string();
    // Guacamole servers may put a numeric status in the close reason.
    match reason.trim().parse::<u32>() {
        Ok(status) if TOKEN_STATUSES.contains(&status) => EndReason::TokenRejected {
            message: format!("closed with status {status}"),
        },
        _ => EndReason::Closed {
            code: Some(frame.code.into()),
            reason,
        },
    }
}
