//! Typed async client of the Agent Computer Service (its public HTTP API; the simulator in
//! `crates/sim` answers the same routes and documents where its answers go beyond what is
//! published).
//!
//! Knows nothing of Tauri: the app, the tests and any command-line tool use it alike.
//! One module per API resource, each adding a handle to [`Client`] (`client.machines()`,
//! `client.turns()`, ...); one error type, [`Error`], whose [`Error::code`] the app maps to
//! words; one request layer (`executor`) with budgets and retries; an incremental SSE parser
//! ([`sse`]) and a [`TaskFollower`] that follows a task to its end.
//!
//! With the `specta` feature every model also derives `specta::Type` (integers as `number`,
//! free JSON as `unknown`), so the app can export them with tauri-specta.
//!
//! ```no_run
//! use futures_util::StreamExt;
//! use porthole_client::messages::MessageRequest;
//! use porthole_client::{Client, Credential, TaskFollower, TaskUpdate, Transport};
//!
//! # async fn run() -> porthole_client::Result<()> {
//! let client = Client::new("https://service.example", Credential::api_key(" key \n")?)?;
//! let laptop = &client.machines().list().await?.machines[0].machine_id;
//! let request = MessageRequest::new("Look up the weather in Paris", laptop);
//! let mut follower = TaskFollower::start(&client, &request, Transport::Stream).await?;
//! while let Some(update) = follower.next().await {
//!     match update {
//!         Ok(TaskUpdate::Message { text, .. }) => println!("{text}"),
//!         Ok(TaskUpdate::NeedsApproval { approval }) => println!("asks: {}", approval.title),
//!         Ok(_) => {}
//!         // The app words errors by code, never by message text.
//!         Err(err) => eprintln!("{:?}", err.code()),
//!     }
//!     // Save `follower.state()` to resume after a restart.
//! }
//! # Ok(())
//! # }
//! ```

mod open_enum;

pub mod abort;
pub mod account;
pub mod address;
pub mod approvals;
pub mod auth;
pub mod budget;
pub mod card_reading;
mod client;
pub mod control;
pub mod credential;
pub mod error;
mod error_code;
pub mod events;
mod executor;
pub mod firebase;
pub mod follower;
mod follower_updates;
pub mod google;
pub mod judge;
pub mod keys;
pub mod learn;
pub mod learned_code;
pub mod lease;
mod lenient;
pub mod machines;
pub mod messages;
pub mod models;
pub mod oauth;
pub mod service_check;
pub mod sessions;
pub mod signin_config;
#[cfg(test)]
mod signin_tests;
pub mod sse;
pub mod task_update;
pub mod turns;
pub mod uploads;

#[cfg(all(test, feature = "specta"))]
mod typescript_check;

pub use budget::Limit;
pub use client::{Client, ClientConfig};
pub use credential::{Credential, Secret, TokenFuture, TokenSource};
pub use error::{ApiError, Error, ErrorCode, ErrorExtra, InputError, Operation, Result};
pub use follower::{FollowerState, TaskFailure, TaskFollower, TaskUpdate, Transport};
pub use follower_updates::Delivered;
pub use learned_code::learned_exec_block;
pub use lease::{Lease, LeaseState};
pub use signin_config::SignInConfig;
