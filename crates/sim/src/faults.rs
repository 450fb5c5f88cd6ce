//! Injected failures, so clients can prove they survive a bad network and a flaky service.
//!
//! The spec is a comma-separated list of `name=rate` (rate from 0 to 1), as given to
//! `--faults`:
//!
//! | name | effect |
//! |---|---|
//! | `http-500=R` | a `/v1` request answers `500 {"error":"internal_error","message":…}` before doing anything |
//! | `http-429=R` | a `/v1` request answers `429 {"error":"rate_limited","message":…}` with `Retry-After: 1` |
//! | `slow=R:MSms` | a `/v1` request is held for MS real milliseconds (not scaled) before it is handled |
//! | `drop-stream=R` | after each frame of a message's event stream, the connection is cut (no `[DONE]`) |
//! | `bad-frame=R` | before each frame of a stream, a malformed frame is sent (SSE: `data: {not json`; live view: a garbled instruction) |
//! | `slow-billing=R` | the account endpoint's billing lookup hangs past its 5 s (scaled) timeout, so `credits` is `null` |
//! | `message-500=R` | `POST /v1/agents/message` answers `500` before it takes the message: no task starts |
//! | `drop-message-answer=R` | `POST /v1/agents/message` takes the message (the task starts or the message joins one), then the connection closes before a byte of the answer is sent |
//! | `late-session=R:MSms` | a message's event stream holds its `data-session` frame for MS real milliseconds (not scaled), so the task runs before its client knows the session (a cold start) |
//! | `retire-on-move=R` | a message to one computer retires the caller's `api` conversation on every other computer: reading it back answers empty and the next message there starts a fresh one (the makers write that "moving retires the one behind you") |
//! | `phone-allowance=R` | a free account's direct-control open answers `403 phone_allowance_in_use`: its verified phone's free allowance is used by another account (the contract lists the code; nothing in this simulator's accounts shares a phone) |
//! | `reject-pick=R` | a yes to a choice card whose selections the card accepts answers `400 {"error":"<sentence>"}`, and the card waits on |
//! | `abort-500=R` | `POST /v1/agents/abort` answers `500` before it stops anything: the task runs on |
//!
//! The last two make a failed send ambiguous for real: after a `500` the message was not
//! taken, after a dropped answer it was, and the client sees no answer either way.
//! `reject-pick` stands for the real service refusing a pick for reasons a client cannot check
//! in advance: a valid pick must not be taken for granted.
//!
//! Every roll draws from one random generator seeded with `--seed`, so the same seed and the
//! same sequence of requests give the same failures.

use crate::SimError;
use axum::body::Body;
use axum::response::Response;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

/// One kind of injected failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fault {
    Http500,
    Http429,
    Slow,
    DropStream,
    BadFrame,
    SlowBilling,
    Message500,
    DropMessageAnswer,
    RejectPick,
    LateSession,
    RetireOnMove,
    PhoneAllowance,
    Abort500,
}

impl Fault {
    fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "http-500" => Fault::Http500,
            "http-429" => Fault::Http429,
            "slow" => Fault::Slow,
            "drop-stream" => Fault::DropStream,
            "bad-frame" => Fault::BadFrame,
            "slow-billing" => Fault::SlowBilling,
            "message-500" => Fault::Message500,
            "drop-message-answer" => Fault::DropMessageAnswer,
            "reject-pick" => Fault::RejectPick,
            "late-session" => Fault::LateSession,
            "retire-on-move" => Fault::RetireOnMove,
            "phone-allowance" => Fault::PhoneAllowance,
            "abort-500" => Fault::Abort500,
            _ => return None,
        })
    }
}

/// Parsed `--faults` value: which failures happen and how often. Default: none.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FaultSpec {
    rates: Vec<(Fault, f64)>,
    slow_delay: Duration,
    late_session_delay: Duration,
}

impl FaultSpec {
    /// No injected failures.
    pub fn none() -> Self {
        Self::default()
    }

    /// Parses `drop-stream=0.1,http-500=0.05,slow=0.1:2000ms`.
    pub fn parse(spec: &str) -> Result<Self, SimError> {
        let mut out = FaultSpec {
            rates: Vec::new(),
            slow_delay: Duration::from_millis(2000),
            late_session_delay: Duration::from_millis(2000),
        };
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let bad = || SimError::BadFaults(part.to_owned());
            let (name, value) = part.split_once('=').ok_or_else(bad)?;
            let fault = Fault::from_name(name.trim()).ok_or_else(bad)?;
            let (rate, extra) = match value.split_once(':') {
                Some((r, e)) => (r, Some(e)),
                None => (value, None),
            };
            let rate: f64 = rate.trim().parse().map_err(|_| bad())?;
            if !(0.0..=1.0).contains(&rate) {
                return Err(bad());
            }
            match (fault, extra) {
                (Fault::Slow, Some(ms)) => {
                    let ms = ms.trim().trim_end_matches("ms");
                    out.slow_delay = Duration::from_millis(ms.parse().map_err(|_| bad())?);
                }
                (Fault::LateSession, Some(ms)) => {
                    let ms = ms.trim().trim_end_matches("ms");
                    out.late_session_delay = Duration::from_millis(ms.parse().map_err(|_| bad())?);
                }
                (_, Some(_)) => return Err(bad()),
                _ => {}
            }
            out.rates.retain(|(f, _)| *f != fault);
            out.rates.push((fault, rate));
        }
        Ok(out)
    }

    pub fn rate(&self, fault: Fault) -> f64 {
        self.rates
            .iter()
            .find(|(f, _)| *f == fault)
            .map(|(_, r)| *r)
            .unwrap_or(0.0)
    }

    pub fn is_empty(&self) -> bool {
        self.rates.iter().all(|(_, r)| *r == 0.0)
    }
}

/// Decides, reproducibly, whether a fault happens now.
pub struct Faults {
    /// Changeable while the simulator runs (`set_rate`), so a test can let a failing route
    /// recover.
    spec: Mutex<FaultSpec>,
    rng: Mutex<StdRng>,
    /// How many times each fault happened, so a test can tell that a client survived real
    /// failures rather than a run that happened to draw none.
    injected: Mutex<HashMap<Fault, u64>>,
}

impl Faults {
    pub fn new(spec: FaultSpec, seed: u64) -> Self {
        Self {
            spec: Mutex::new(spec),
            rng: Mutex::new(StdRng::seed_from_u64(seed)),
            injected: Mutex::new(HashMap::new()),
        }
    }

    /// Rolls for one fault; faults with rate 0 never draw, so adding one fault does not
    /// change when the others happen.
    pub fn roll(&self, fault: Fault) -> bool {
        let rate = self.spec().rate(fault);
        let happens = if rate <= 0.0 {
            false
        } else if rate >= 1.0 {
            true
        } else {
            let mut rng = self.rng.lock().unwrap_or_else(|e| e.into_inner());
            rng.random_bool(rate)
        };
        if happens {
            let mut injected = self.injected.lock().unwrap_or_else(|e| e.into_inner());
            *injected.entry(fault).or_default() += 1;
        }
        happens
    }

    /// How many times `fault` has happened since the simulator started.
    pub fn injected(&self, fault: Fault) -> u64 {
        let injected = self.injected.lock().unwrap_or_else(|e| e.into_inner());
        injected.get(&fault).copied().unwrap_or(0)
    }

    fn spec(&self) -> std::sync::MutexGuard<'_, FaultSpec> {
        self.spec.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// From now on, `fault` happens at `rate` (0 to 1; 0 turns it off).
    pub fn set_rate(&self, fault: Fault, rate: f64) {
        let mut spec = self.spec();
        spec.rates.retain(|(f, _)| *f != fault);
        spec.rates.push((fault, rate.clamp(0.0, 1.0)));
    }

    /// How long a `slow` request is held.
    pub fn slow_delay(&self) -> Duration {
        self.spec().slow_delay
    }

    /// How long a `late-session` stream holds its `data-session` frame.
    pub fn late_session_delay(&self) -> Duration {
        self.spec().late_session_delay
    }
}

/// An answer that never arrives: its body fails before its first byte, so the server closes
/// the connection with nothing written, the status line included (the head is only buffered
/// until the body's first chunk). The client sees the connection close after its request.
pub fn dropped_answer() -> Response {
    let fails = futures::stream::once(async {
        Err::<bytes::Bytes, _>(std::io::Error::other("drop-message-answer fault"))
    });
    Response::new(Body::from_stream(fails))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_example() {
        let spec = FaultSpec::parse(
            "drop-stream=0.1,http-500=0.05,http-429=0.05,slow=0.1:2000ms,bad-frame=0.01",
        )
        .unwrap();
        assert_eq!(spec.rate(Fault::DropStream), 0.1);
        assert_eq!(spec.rate(Fault::BadFrame), 0.01);
        assert_eq!(spec.slow_delay, Duration::from_millis(2000));
        assert!(FaultSpec::parse("nonsense=1").is_err());
        assert!(FaultSpec::parse("http-500=2").is_err());
        assert!(FaultSpec::parse("").unwrap().is_empty());
    }

    #[test]
    fn same_seed_same_failures() {
        let spec = FaultSpec::parse("http-500=0.5").unwrap();
        let a = Faults::new(spec.clone(), 7);
        let b = Faults::new(spec, 7);
        let ra: Vec<bool> = (0..64).map(|_| a.roll(Fault::Http500)).collect();
        let rb: Vec<bool> = (0..64).map(|_| b.roll(Fault::Http500)).collect();
        assert_eq!(ra, rb);
        assert!(ra.contains(&true) && ra.contains(&false));
    }
}
