//! Learn and judge: waits for the simulator's endpoints (see the final report).
