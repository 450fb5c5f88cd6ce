//! Maps an error answer to an [`ErrorCode`], once, here.
//!
//! The spec's Errors section mixes code strings (`machine_busy`), sentences
//! (`sessionId is required.`) and bare statuses (a `429` with no body). Only this file looks at
//! that text; the app matches the code. Each row of the spec's table has a code or a variant
//! here, disambiguated by the [`Operation`] that failed where the status alone is ambiguous.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::control::ClosedReason;
use crate::error::ErrorExtra;
use crate::machines::MachineChoice;

/// The endpoint a request went to; used to read ambiguous error answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum Operation {
    CheckKey,
    ListMachines,
    CreateMachine,
    WakeMachine,
    Live,
    ControlOpen,
    ControlExec,
    ControlInterrupt,
    ControlGet,
    ControlClose,
    Message,
    NewSession,
    Context,
    Events,
    Turn,
    Trajectory,
    Screenshot,
    Learn,
    GetLearn,
    Judge,
    GetJudgement,
    Models,
    Account,
    CreateKey,
    ListKeys,
    RevokeKey,
    Upload,
    Abort,
    Approval,
    /// The identity provider's token endpoint (code exchange, refresh).
    SignIn,
}

impl Operation {
    /// The agent routes that name a computer, or a task on one: where a bare `403` means the
    /// computer is not the caller's.
    fn names_a_machine(self) -> bool {
        matches!(
            self,
            Operation::WakeMachine
                | Operation::Live
                | Operation::Message
                | Operation::NewSession
                | Operation::Context
                | Operation::Events
                | Operation::Abort
                | Operation::Approval
                | Operation::Turn
                | Operation::Trajectory
                | Operation::Screenshot
        )
    }
}

impl std::fmt::Display for Operation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self, f)
    }
}

/// Everything the app can act on, without reading text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "code",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum ErrorCode {
    // Common.
    /// No credential, or the key is unknown or revoked.
    Unauthorized,
    /// The account may not do this (plan, ownership).
    Forbidden,
    /// A bare `403` on an agent route that names a computer or its task: the makers' client
    /// reads it as "this computer is not this account's" (ownership is checked on every call).
    NotYourMachine,
    /// A rate limit, the service's or the client's own budget.
    RateLimited {
        #[cfg_attr(feature = "specta", specta(type = Option<f64>))]
        retry_after_ms: Option<u64>,
    },
    /// This call needs a browser sign-in, not an API key (`createUrl` for machine creation).
    SessionRequired {
        create_url: Option<String>,
    },
    // Machines and live view.
    FreePlanComputer,
    CreationBusy,
    NotBillable,
    MachineNotRunning,
    LiveUnavailable,
    MachineNotFound,
    // Direct control.
    InvalidMachine,
    MachineNotSupported,
    InvalidBody {
        #[cfg_attr(feature = "specta", specta(type = Option<specta_typescript::Unknown>))]
        details: Option<serde_json::Value>,
    },
    MachineRefused,
    PhoneVerificationRequired,
    PhoneAllowanceInUse,
    ControlNotOpen,
    MachineBusy {
        #[cfg_attr(feature = "specta", specta(type = Option<f64>))]
        retry_after_ms: Option<u64>,
    },
    NotFreeTier,
    ControlClosed {
        reason: ClosedReason,
    },
    BudgetExhausted,
    DispatcherUnavailable,
    MachineUnavailable {
        #[cfg_attr(feature = "specta", specta(type = Option<f64>))]
        retry_after_ms: Option<u64>,
    },
    NoCapacity {
        #[cfg_attr(feature = "specta", specta(type = Option<f64>))]
        retry_after_ms: Option<u64>,
    },
    // Messages and events.
    SeveralMachines {
        machines: Vec<MachineChoice>,
    },
    NoMachine,
    MessageNotAccepted,
    /// The service did not take the message, even sent again (`TaskFollower::start`):
    /// nothing started; keep the words and offer to send them again.
    MessageNotSent,
    /// The service took the message, but the follower lost the task's updates before it
    /// learned the session it runs in (`TaskFollower::start_in`): the agent may still be
    /// working. Neither failed nor done; the conversation's history shows what it did.
    UpdatesLost,
    ModelNotAllowedForPlan {
        allowed_models: Vec<String>,
    },
    SessionIdRequired,
    SessionNotFound,
    // Turns, learn, judge.
    TurnNotFound,
    Validation,
    MixedSessions,
    TemplateMismatch,
    NoSteps,
    /// The model refused: out of credits (`402`) or not on the plan (`403`).
    ModelRefused {
        out_of_credits: bool,
    },
    InsufficientCredits,
    JudgementNotFound,
    LearnNotFound,
    TurnNotFinished,
    TrajectoryNotRecorded,
    ModelOutputInvalid,
    LearnFailed,
    NotSupported,
    // Keys, uploads, abort.
    KeyLimitReached,
    KeyNotFound,
    FilenameRequired,
    StorageQuotaExceeded,
    FileTooLarge,
    EmptyFile,
    AbortTargetMissing,
    // Endpoints the spec names without showing errors (codes fixed by the simulator).
    ApprovalNotFound,
    /// Already answered or expired.
    ApprovalResolved,
    /// Must be answered on its approval page (`approvalUrl`).
    ApprovalLinkOnly,
    /// The service refused the picks of a choice card; the card is still waiting for an
    /// answer.
    SelectionRejected,
    // Generic answers.
    NotFound,
    BadRequest,
    Conflict,
    ServerError {
        status: u16,
    },
    Unknown {
        status: u16,
    },
    // Client side.
    Network,
    NetworkTimeout,
    BadResponse,
    InvalidBaseUrl,
    /// Plain `http://` to an address that is not this computer's: https is needed.
    InsecureAddress,
    InvalidCredential,
    InvalidInput,
    TimedOut,
}

fn ms(duration: Option<Duration>) -> Option<u64> {
    duration.map(|d| d.as_millis() as u64)
}

impl ErrorCode {
    pub(crate) fn classify(
        op: Operation,
        status: u16,
        error: Option<&str>,
        message: Option<&str>,
        extra: &ErrorExtra,
        retry_after: Option<Duration>,
    ) -> Self {
        use ErrorCode as C;
        if let Some(code) = error.and_then(|e| Self::from_code(e, status, extra, retry_after)) {
            return code;
        }
        // Out of agent credit, on every route, whatever words the body uses.
        if status == 402 {
            return C::InsufficientCredits;
        }
        let text = format!("{} {}", error.unwrap_or(""), message.unwrap_or("")).to_lowercase();
        let has = |needle: &str| text.contains(needle);
        if let Some(machines) = &extra.machines {
            if status == 400 {
                return C::SeveralMachines {
                    machines: machines.clone(),
                };
            }
        }
        match status {
            401 => return C::Unauthorized,
            429 => {
                return C::RateLimited {
                    retry_after_ms: ms(retry_after),
                }
            }
            _ => {}
        }
        if has("sessionid is required") {
            return C::SessionIdRequired;
        }
        if has("session not found") {
            return C::SessionNotFound;
        }
        if has("api key limit reached") || (op == Operation::CreateKey && status == 422) {
            return C::KeyLimitReached;
        }
        if has("api key not found") || (op == Operation::RevokeKey && status == 404) {
            return C::KeyNotFound;
        }
        if has("x-filename") {
            return C::FilenameRequired;
        }
        if has("file too large") || status == 413 {
            return C::FileTooLarge;
        }
        if has("machine not found") {
            return C::MachineNotFound;
        }
        match (op, status) {
            (Operation::Message, 400) => C::NoMachine,
            (Operation::Message, 409) => C::MessageNotAccepted,
            (Operation::Upload, 400) => C::FilenameRequired,
            (Operation::Abort, 400) => C::AbortTargetMissing,
            (Operation::Live, 404) => C::MachineNotFound,
            (Operation::Turn | Operation::Trajectory | Operation::Screenshot, 404) => {
                C::TurnNotFound
            }
            (Operation::Approval, 404) => C::ApprovalNotFound,
            (Operation::Approval, 400) => C::SelectionRejected,
            (Operation::WakeMachine, 404) => C::MachineNotFound,
            (Operation::CreateKey | Operation::ListKeys | Operation::RevokeKey, 403) => {
                C::SessionRequired { create_url: None }
            }
            (Operation::Learn | Operation::Judge, 400) => C::Validation,
            (op, 403) if op.names_a_machine() => C::NotYourMachine,
            (_, 403) => C::Forbidden,
            (_, 404) => C::NotFound,
            (_, 409) => C::Conflict,
            (_, 400 | 422) => C::BadRequest,
            (_, 500..=599) => C::ServerError { status },
            _ => C::Unknown { status },
        }
    }

    /// The documented code strings.
    fn from_code(
        code: &str,
        status: u16,
        extra: &ErrorExtra,
        retry_after: Option<Duration>,
    ) -> Option<Self> {
        use ErrorCode as C;
        Some(match code {
            "session_required" => C::SessionRequired {
                create_url: extra.create_url.clone(),
            },
            "free_plan_computer" => C::FreePlanComputer,
            "busy" => C::CreationBusy,
            "not_billable" => C::NotBillable,
            "machine_not_running" => C::MachineNotRunning,
            "live_unavailable" => C::LiveUnavailable,
            "invalid_machine" => C::InvalidMachine,
            "machine_not_supported" => C::MachineNotSupported,
            "invalid_body" => C::InvalidBody {
                details: extra.details.clone(),
            },
            "forbidden" => C::MachineRefused,
            "phone_verification_required" => C::PhoneVerificationRequired,
            "phone_allowance_in_use" => C::PhoneAllowanceInUse,
            "machine_not_found" => C::MachineNotFound,
            "control_not_open" => C::ControlNotOpen,
            "machine_busy" => C::MachineBusy {
                retry_after_ms: ms(retry_after),
            },
            "not_free_tier" => C::NotFreeTier,
            "control_closed" => C::ControlClosed {
                reason: ClosedReason::from(extra.reason.as_deref().unwrap_or("closed")),
            },
            "budget_exhausted" => C::BudgetExhausted,
            "rate_limited" => C::RateLimited {
                retry_after_ms: ms(retry_after),
            },
            "dispatcher_unavailable" => C::DispatcherUnavailable,
            "machine_unavailable" => C::MachineUnavailable {
                retry_after_ms: ms(retry_after),
            },
            "no_capacity" => C::NoCapacity {
                retry_after_ms: ms(retry_after),
            },
            "model_not_allowed_for_plan" => C::ModelNotAllowedForPlan {
                allowed_models: extra.allowed_models.clone().unwrap_or_default(),
            },
            "turn_not_found" => C::TurnNotFound,
            "validation" => C::Validation,
            "mixed_sessions" => C::MixedSessions,
            "template_mismatch" => C::TemplateMismatch,
            "no_steps" => C::NoSteps,
            "model_refused" => C::ModelRefused {
                out_of_credits: status == 402,
            },
            "judgement_not_found" => C::JudgementNotFound,
            "learn_not_found" => C::LearnNotFound,
            "turn_not_finished" => C::TurnNotFinished,
            "trajectory_not_recorded" => C::TrajectoryNotRecorded,
            "model_output_invalid" => C::ModelOutputInvalid,
            "learn_failed" => C::LearnFailed,
            "not_supported" => C::NotSupported,
            "storage_quota_exceeded" => C::StorageQuotaExceeded,
            "approval_not_found" => C::ApprovalNotFound,
            "approval_resolved" => C::ApprovalResolved,
            "link_only" => C::ApprovalLinkOnly,
            "insufficient_credits" => C::InsufficientCredits,
            _ => return None,
        })
    }

    /// Whether trying the same call again later may succeed.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            Self::RateLimited { .. }
                | Self::MachineBusy { .. }
                | Self::MachineUnavailable { .. }
                | Self::NoCapacity { .. }
                | Self::DispatcherUnavailable
                | Self::LiveUnavailable
                | Self::ModelOutputInvalid
                | Self::LearnFailed
                | Self::ServerError { .. }
                | Self::Network
                | Self::NetworkTimeout
                | Self::CreationBusy
        )
    }
}

#[cfg(test)]
#[path = "error_code_tests.rs"]
mod tests;
