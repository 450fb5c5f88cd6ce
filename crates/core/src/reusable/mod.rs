//! Reusable tasks: a finished task learned as a function with placeholders, kept in the
//! library, run again on any computer, reported and healed when it goes wrong.

pub mod learn;
pub mod library;
pub mod placeholders;
