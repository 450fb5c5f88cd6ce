//! Why a stream ended, and the viewer's state changes the consumer is told about.

use std::time::Duration;

/// Why a live stream stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EndReason {
    /// The server closed the WebSocket.
    Closed { code: Option<u16>, reason: String },
    /// The server refused the session's token (missing, wrong or expired): an `error`
    /// instruction with status 0x0301/0x0303, or HTTP 401/403 at the handshake.
    TokenRejected { message: String },
    /// The session's time ran out (status 0x020A): the URL expired while watching.
    TokenExpired { message: String },
    /// The remote desktop went away (status 0x0208), e.g. the computer went to sleep; the next
    /// URL request tells whether it is asleep.
    MachineStopped { message: String },
    /// The server sent an `error` instruction.
    ServerError {
        message: String,
        status: Option<u32>,
    },
    /// The server sent `disconnect`.
    Disconnected,
    /// The stream could not be read (malformed instruction or image stream).
    Garbled { detail: String },
    /// The server speaks something other than Guacamole (e.g. VNC/RFB).
    Unsupported { detail: String },
    /// Nothing arrived for too long.
    Silent { for_secs: u64 },
    /// The connection could not be made or broke.
    Network { detail: String },
    /// The computer is asleep: reconnecting stops; wake it, then start a new viewer.
    Asleep,
    /// The service refused more live URLs for now.
    RateLimited { retry_after: Option<Duration> },
    /// The app could not get a live URL for another reason.
    UrlUnavailable { detail: String },
    /// The consumer closed the viewer.
    Stopped,
}

impl EndReason {
    /// Whether the viewer gives up instead of reconnecting.
    pub fn is_final(&self) -> bool {
        matches!(
            self,
            EndReason::Asleep | EndReason::Unsupported { .. } | EndReason::Stopped
        )
    }

    /// A stable name for logs. Apps choose their own words by the variant, not by this or by
    /// `Display`.
    pub fn code(&self) -> &'static str {
        match self {
            EndReason::Closed { .. } => "closed",
            EndReason::TokenRejected { .. } => "token_rejected",
            EndReason::TokenExpired { .. } => "token_expired",
            EndReason::MachineStopped { .. } => "machine_stopped",
            EndReason::ServerError { .. } => "server_error",
            EndReason::Disconnected => "disconnected",
            EndReason::Garbled { .. } => "garbled",
            EndReason::Unsupported { .. } => "unsupported",
            EndReason::Silent { .. } => "silent",
            EndReason::Network { .. } => "network",
            EndReason::Asleep => "asleep",
            EndReason::RateLimited { .. } => "rate_limited",
            EndReason::UrlUnavailable { .. } => "url_unavailable",
            EndReason::Stopped => "stopped",
        }
    }
}

/// For logs and developers: may hold the service's message or an I/O error's text, so an app
/// never shows it to a person.
impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EndReason::Closed { .. } => f.write_str("The live view was closed by the service."),
            EndReason::TokenRejected { .. } => {
                f.write_str("The live view's link was not accepted.")
            }
            EndReason::TokenExpired { .. } => f.write_str("The live view's link expired."),
            EndReason::MachineStopped { .. } => f.write_str("The computer stopped running."),
            EndReason::ServerError { message, .. } => {
                write!(f, "The service stopped the live view: {message}")
            }
            EndReason::Disconnected => f.write_str("The service ended the live view."),
            EndReason::Garbled { detail } => {
                write!(f, "The live view sent something unreadable ({detail}).")
            }
            EndReason::Unsupported { detail } => {
                write!(f, "This stream type is not supported: {detail}")
            }
            EndReason::Silent { for_secs } => {
                write!(f, "The live view went quiet for {for_secs} seconds.")
            }
            EndReason::Network { detail } => {
                write!(f, "The connection to the live view failed ({detail}).")
            }
            EndReason::Asleep => f.write_str("The computer is asleep. Wake it to watch."),
            EndReason::RateLimited { .. } => {
                f.write_str("Too many live views were opened in the last hour; waiting.")
            }
            EndReason::UrlUnavailable { detail } => {
                write!(f, "Could not open the live view: {detail}")
            }
            EndReason::Stopped => f.write_str("The live view was closed."),
        }
    }
}

/// A change in the viewer's state, delivered in order with frames.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Asking for a URL and dialling (attempt 1 is the first connection).
    Connecting { attempt: u32 },
    /// A new connection is up: reset the display (layers start afresh); frames of older
    /// connections are stale.
    Connected {
        connection: u64,
        width: u32,
        height: u32,
    },
    /// The stream ended and the viewer will try again after `retry_in`.
    Reconnecting {
        reason: EndReason,
        retry_in: Duration,
    },
    /// The viewer stopped for good; no more events follow.
    Ended(EndReason),
}
