//! Typed async client of the Agent Computer Service.
