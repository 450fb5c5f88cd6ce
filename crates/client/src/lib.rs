//! Typed async client of the Agent Computer Service (`spec/service-api.md`).
//!
//! Knows nothing of Tauri: the app, the tests and any command-line tool use it alike.
//! One module per API resource, each adding a handle to [`Client`] (`client.machines()`,
//! `client.turns()`, ...); one error type, [`Error`], whose [`Error::code`] the app maps to
//! words; one request layer (`executor`) with budgets and retries; an incremental SSE parser
//! ([`sse`]) and a [`TaskFollower`] that follows a task to its end.
//!
//! With the `specta` feature every model also derives `specta::Type`.

mod open_enum;

pub mod abort;
pub mod account;
pub mod approvals;
pub mod auth;
pub mod budget;
mod client;
pub mod control;
pub mod credential;
pub mod error;
mod error_code;
pub mod events;
mod executor;
pub mod follower;
mod follower_updates;
pub mod judge;
pub mod keys;
pub mod learn;
pub mod learned_code;
pub mod lease;
pub mod machines;
pub mod messages;
pub mod models;
pub mod sessions;
pub mod sse;
pub mod turns;
pub mod uploads;

#[cfg(all(test, feature = "specta"))]
mod typescript_check;

pub use budget::Limit;
pub use client::{Client, ClientConfig, UnpublishedPaths};
pub use credential::{Credential, Secret, TokenFuture, TokenSource};
pub use error::{ApiError, Error, ErrorCode, ErrorExtra, InputError, Operation, Result};
pub use follower::{FollowerState, TaskFailure, TaskFollower, TaskUpdate, Transport};
pub use follower_updates::Delivered;
pub use learned_code::learned_exec_block;
pub use lease::{Lease, LeaseState};
