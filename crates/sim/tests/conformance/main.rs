//! Conformance suite: the simulator checked against the service spec over real HTTP, SSE and
//! WebSocket. One module per area of the spec; shared support in `support.rs`.

mod support;

mod account;
mod basics;
mod control;
mod faults;
mod keys;
mod live;
mod machines;
mod messages;
mod robustness;
mod signin;
mod tasks;
mod uploads;
