//! End-to-end tests: the built app in a real window under Xvfb, driven over WebDriver,
//! against the built-in Demo (or a simulator the test starts, where a test needs one that
//! outlives the app). Run by `./run test` through `scripts/e2e.sh`; each test keeps a
//! screenshot under `target/e2e/`.
