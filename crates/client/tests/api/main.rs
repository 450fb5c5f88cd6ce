//! porthole-client against a real porthole-sim over loopback: every method, every error
//! mapping the simulator can produce, and injected faults. No mocked HTTP.

mod support;

mod account_and_models;
mod cards;
mod control;
mod conversations;
mod credentials_and_budgets;
mod cut_before_session;
mod delivery;
mod errors;
mod faults;
mod keys;
mod learn_and_judge;
mod lease_endings;
mod machines;
mod makers_shapes;
mod outcomes;
mod reconnect;
mod resend;
mod service_check;
mod soak;
mod tasks;
mod turn_id_places;
mod turns;
mod uploads;
mod version_tag;
