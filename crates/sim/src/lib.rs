//! Simulator of the Agent Computer Service.
pub mod desktop;
