//! Conformance suite: the simulator checked against the service spec over real HTTP, SSE and
//! WebSocket. One module per area of the spec; shared support in `support.rs`.

mod support;

mod account;
mod approvals;
mod approve;
mod basics;
mod cards;
mod control;
mod control_limits;
mod conversations;
mod demo_answers;
mod desktop;
mod events;
mod faults;
mod judge;
mod kept_world;
mod keys;
mod learn;
mod live;
mod live_endings;
mod live_rfb;
mod machines;
mod message_faults;
mod messages;
mod outcomes;
mod pick_faults;
mod robustness;
mod signin;
mod stream_frames;
mod turn_ids;
mod turns;
mod uploads;
mod versions;
mod wake;
