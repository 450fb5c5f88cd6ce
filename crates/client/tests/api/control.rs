//! Direct control: waits for the simulator's control endpoints (see the final report).
