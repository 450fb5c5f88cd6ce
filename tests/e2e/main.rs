//! End-to-end tests: the built app in a real window under Xvfb, driven over WebDriver,
//! against the built-in Demo (or a simulator the test starts, where a test needs one that
//! outlives the app). Run by `./run test` through `scripts/e2e.sh`; each test keeps a
//! screenshot under `target/e2e/`.
//!
//! They are `#[ignore]`d so that a plain `cargo test` without a display skips them;
//! `scripts/e2e.sh` runs them with `--ignored`.

mod card_flows;
mod flows;

mod answers;
mod approvals;
mod cards;
mod connect;
mod conversations;
mod kill;
mod layout;
mod machines;
mod navigation;
mod no_turn_id;
mod restart;
// The Demo keeps its world across a restart; Settings resets it.
mod demo_remembers;
mod screens_german;
mod tasks;
mod waking;
// The shapes the makers' own client shows the real service may use.
mod makers;
mod window_layout;
// Attachments, keys, sign-in, the live screen, replay, reusable tasks and Fix it, checks,
// console and usage.
mod attachments;
mod console;
mod drop;
mod film;
mod film_report;
mod film_unseen;
mod film_video;
mod heal;
mod judge;
mod keys;
mod live;
mod live_stage;
mod live_states;
mod live_window;
mod not_sent;
mod receipt;
mod replay;
mod reusable;
mod signin;
mod signing_in_connects;
mod stage_dock;
mod updates_lost;
// One truth on every screen: pairs of places that once disagreed, read together.
mod free_computer;
mod one_truth;
mod usage;
// A spending cap per task (and the question near it), and searching every conversation.
mod cap_question;
mod money;
mod search;
mod spending;
// A task that seems stuck asks once: Stop, a hint, or let it keep going.
mod stuck;
// What needs the person, and a task shared as a report.
mod inbox;
mod report;
mod report_redact;
// Tasks on a schedule, and each run under its own spending cap.
mod held_run;
mod overnight;
mod schedule_cap;
mod schedule_flows;
mod schedules;
// Desktop notifications, through a stand-in notification server on the private session bus.
mod notifications;
// The tray icon's menu, through a stand-in system tray on the private session bus.
mod tray;
// Closing the window: Porthole stays in the tray while a schedule will run.
mod close_to_tray;
// The window appears once, with its first screen in place, or says why it cannot.
mod first_run;
mod first_show;
mod start_problem;
// Packages and updates.
mod install;
mod updates;
// Everyone can use it: axe-core over every screen, the keyboard alone, the person's language.
mod accessibility;
mod cut_line;
mod keyboard;
mod keyboard_account;
mod keyboard_answer;
mod keyboard_approvals;
mod keyboard_banners;
mod keyboard_cards;
mod keyboard_composer;
mod keyboard_library;
mod keyboard_live;
mod keyboard_recovery;
mod keyboard_schedules;
mod keyboard_signed_in;
mod keyboard_task;
mod keyboard_tools;
mod keyboard_walk;
mod language;
