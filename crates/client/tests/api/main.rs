//! porthole-client against a real porthole-sim over loopback: every method, every error
//! mapping the simulator can produce, and injected faults. No mocked HTTP.

mod support;

mod account_and_models;
mod control;
mod credentials_and_budgets;
mod errors;
mod faults;
mod keys;
// `learn_and_judge` waits for the simulator's learn and judge endpoints (still placeholders).
mod lease_endings;
mod machines;
mod outcomes;
mod tasks;
mod turns;
mod uploads;
