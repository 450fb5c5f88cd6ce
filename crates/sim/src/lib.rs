//! Simulator of the Agent Computer Service.
