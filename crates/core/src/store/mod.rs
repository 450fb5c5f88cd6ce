//! The person's data on disk, knowing nothing of Tauri: files replaced atomically with the
//! last good copy kept ([`atomic`]), unreadable files set aside and reported, never
//! overwritten ([`set_aside`]), whole values in versioned documents ([`document`],
//! [`persisted`]) and records that change often in append-only journals ([`journals`]).

pub mod atomic;
pub mod changes;
pub mod document;
pub mod journal;
pub mod journals;
pub mod persisted;
pub mod set_aside;

pub use document::Document;
pub use journals::Journals;
pub use persisted::Persisted;
pub use set_aside::{Kept, SetAside};

#[cfg(test)]
mod tests;
