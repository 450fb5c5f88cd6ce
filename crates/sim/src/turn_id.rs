//! Where `turnId` appears in the answers of a message. The real service publishes none of it,
//! so `--turn-id-in` picks: `message` (the 202 body of `wait: false`), `start` (the stream's
//! `start` frame), `session` (the stream's `data-session` frame), `poll` (every events-poll
//! answer), or `none`. Several places go comma-separated; the default is the places this
//! simulator has always used: `message,start,poll`. `GET /v1/agents/turns/{id}` is unaffected.

use crate::SimError;

/// The places `turnId` is put.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnIdIn {
    pub message: bool,
    pub start: bool,
    pub session: bool,
    pub poll: bool,
}

impl Default for TurnIdIn {
    fn default() -> Self {
        Self {
            message: true,
            start: true,
            session: false,
            poll: true,
        }
    }
}

impl TurnIdIn {
    /// Nowhere: clients must cope without a turn id.
    pub fn none() -> Self {
        Self {
            message: false,
            start: false,
            session: false,
            poll: false,
        }
    }

    /// Reads `message|start|session|poll` (comma-separated) or `none`.
    pub fn parse(spec: &str) -> Result<Self, SimError> {
        let bad = || SimError::BadTurnIdIn(spec.to_owned());
        let spec = spec.trim();
        if spec == "none" {
            return Ok(Self::none());
        }
        let mut out = Self::none();
        for place in spec.split(',').map(str::trim) {
            let slot = match place {
                "message" => &mut out.message,
                "start" => &mut out.start,
                "session" => &mut out.session,
                "poll" => &mut out.poll,
                _ => return Err(bad()),
            };
            *slot = true;
        }
        Ok(out)
    }
}
