//! Conformance suite: the simulator checked against the service spec over real HTTP, SSE and
//! WebSocket. One module per area of the spec; shared support in `support.rs`.

mod support;

mod account;
mod basics;
mod control;
mod live;
mod machines;
mod messages;
mod tasks;
