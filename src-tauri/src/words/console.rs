//! Words for the control console: why it could not run code, and why a lease ended.

use super::Words;
use crate::error::UiAction::*;

pub const CONTROL_NOT_OPEN: Words = Words::new(
    "The console is closed",
    "No control session is open on this computer. Open the console again to run code.",
    Some(Retry),
);
pub const MACHINE_NOT_SUPPORTED: Words = Words::new(
    "Not for this computer",
    "The console works only with cloud computers, not with your own desktop.",
    None,
);
pub const NOT_FREE_TIER: Words = Words::new(
    "Your plan changed",
    "This free computer is only for the free plan, and your account is no longer on it. Use one of your own cloud computers.",
    None,
);
pub const INVALID_BODY: Words = Words::new(
    "The code could not be sent",
    "The block was empty, too long (over 200,000 characters) or had a setting out of range.",
    None,
);
pub const LEASE_NOT_OPEN: Words = Words::new(
    "The console is not open",
    "Open the console on this computer before running code.",
    None,
);
pub const NO_SCREENSHOT: Words = Words::new(
    "No screenshot",
    "The last block did not capture the screen.",
    None,
);
pub const CLOSED: Words = Words::new(
    "The console was closed",
    "The control session was closed, and the computer's variables were cleared. Open it again to go on.",
    Some(Retry),
);
pub const IDLE: Words = Words::new(
    "Closed after a quiet spell",
    "No code ran for a while (10 minutes, or 2 when a task was waiting for this computer), so the computer was released. Open the console again to go on.",
    Some(Retry),
);
pub const LOCK_LOST: Words = Words::new(
    "A task took the computer",
    "The agent started a task on this computer while the console was quiet, so the console lost it. Open it again when the task is done.",
    Some(Retry),
);
pub const UNRESPONSIVE: Words = Words::new(
    "The computer stopped answering",
    "A block got no answer in time, so the console was closed. The next open starts a fresh one.",
    Some(Retry),
);
pub const SERVICE_RESTARTED: Words = Words::new(
    "The service restarted",
    "The service behind the console restarted, which ended it. Open the console again.",
    Some(Retry),
);
pub const ENDED: Words = Words::new(
    "The console ended",
    "The control session ended. Open the console again to go on.",
    Some(Retry),
);
