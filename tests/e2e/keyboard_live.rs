//! The live screen's "Watch again" with the keyboard alone: a computer whose live view speaks
//! VNC (RFB), which Porthole cannot show, says so on the screen; once it serves the usual
//! stream again, Watch again, reached with Tab and pressed with Enter, shows it live. Every
//! place the focus lands shows it.
//!
//! The simulator is the test's own, its computer switched to RFB (`Sim`'s
//! `set_live_speaks_rfb`) before the app opens and back before Watch again.

use std::time::Duration;

use porthole_e2e::Eventually;
use thirtyfour::prelude::*;

use crate::keyboard_walk::{
    as_ada, data_of, focus_here, machine_of, open_on, press, simulator, tab_to_id,
};
use crate::live_states::{picture, until};
use crate::replay::keep_screenshot;

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_screen_that_could_not_be_shown_is_watched_again_with_the_keyboard_alone() {
    let sim = simulator().await;
    let laptop = machine_of(&sim, "ada", "Design laptop");
    sim.state().set_live_speaks_rfb(&laptop, true);
    let app = open_on(as_ada(&sim, &sim.base_url, Vec::new()), "Design laptop").await;
    let wait = Eventually::new(&app.driver);

    // The screen says it cannot be shown, and gives up instead of trying again and again.
    until(
        Duration::from_secs(60),
        "the live screen gives up",
        || async { Ok(data_of(&app, "live-view", "phase").await == "ended") },
    )
    .await
    .expect("the RFB screen ended the live view");
    let said = wait
        .text("live-reason", |t| !t.trim().is_empty())
        .await
        .expect("the screen says why");
    assert!(said.contains("Porthole cannot show"), "{said}");
    keep_screenshot(&app, "keyboard-live-unsupported").await;

    // The computer serves its usual stream again: Watch again, reached with Tab.
    sim.state().set_live_speaks_rfb(&laptop, false);
    let again = tab_to_id(&app, false, "live-again").await;
    assert!(again.what.contains("Watch again"), "{again:?}");
    press(&app, Key::Enter).await;
    until(Duration::from_secs(60), "live with a picture", || async {
        Ok(data_of(&app, "live-view", "phase").await == "live"
            && picture(&app).await?.is_some_and(|p| p.2 > 16))
    })
    .await
    .expect("Enter on Watch again showed the screen live");
    focus_here(&app, "watching again").await;
    keep_screenshot(&app, "keyboard-live-again").await;
    app.quit().await;
    sim.shutdown().await;
}
