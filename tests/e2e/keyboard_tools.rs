//! The scripting console with the keyboard alone (Tab, Shift+Tab, Enter, Escape, arrows, Space
//! and typing): developer tools switched on in Settings (reached from the computer's menu),
//! the console chosen in the same menu with the arrows, opened, a block typed in its editor
//! and run with Ctrl+Enter, its output read, the console closed, the sheet left with Escape,
//! and the live screen's frame rate shown. Every place the focus lands shows it, the editor's ring included.

use std::time::Duration;

use porthole_e2e::{App, AppOptions, Eventually};
use thirtyfour::prelude::*;

use crate::keyboard_walk::{
    chord, focus_here, focus_inside, focused, open_on, press, press_busy, retype, tab_to, tab_to_id,
};
use crate::replay::keep_screenshot;

/// Opens the computer's menu with Enter and moves down its items to `item`.
async fn menu_item(app: &App, item: &str) {
    tab_to_id(app, false, "computer-menu").await;
    press(app, Key::Enter).await;
    Eventually::new(&app.driver)
        .element("computer-menu-items")
        .await
        .expect("Enter opened the menu");
    for _ in 0..5 {
        let now = focus_here(app, "moving in the menu").await;
        if now.testid == item {
            return;
        }
        press(app, Key::Down).await;
    }
    panic!("{item} was never reached with the arrows");
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn the_console_is_opened_used_and_closed_with_the_keyboard_alone() {
    let app = open_on(AppOptions::default(), "Design laptop").await;
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(Duration::from_secs(200));

    // Developer tools, switched on with Space in Settings… from the computer's menu.
    menu_item(&app, "menu-settings").await;
    press(&app, Key::Enter).await;
    wait.element("settings-dialog")
        .await
        .expect("Enter opened Settings");
    tab_to_id(&app, false, "setting-developer-tools").await;
    press(&app, Key::Space).await;
    let setting = wait.element("setting-developer-tools").await.unwrap();
    assert!(
        setting.is_selected().await.unwrap(),
        "Space switched developer tools on"
    );
    press(&app, Key::Escape).await;
    wait.gone("settings-dialog")
        .await
        .expect("Escape closed Settings");
    focus_here(&app, "closing Settings").await;

    // The console, from the same menu; opened with Enter.
    menu_item(&app, "menu-console").await;
    press(&app, Key::Enter).await;
    wait.element("console")
        .await
        .expect("Enter opened the console");
    tab_to_id(&app, false, "console-open").await;
    press(&app, Key::Enter).await;
    long.element("console-editor")
        .await
        .expect("the console opened");
    let now = focus_here(&app, "opening the console").await;
    assert!(
        focus_inside(&app, "console").await,
        "the focus stays in the console: {now:?}"
    );

    // A block typed in the editor and run with Ctrl+Enter.
    tab_to(&app, false, "the code editor", |f| {
        f.within == "console-editor"
    })
    .await;
    retype(&app, "console.log('typed by keyboard'); 6 * 7").await;
    chord(&app, Key::Control, Key::Enter).await;
    wait.text("run-result", |t| t.contains("42"))
        .await
        .expect("Ctrl+Enter ran the block");
    wait.text("run-logs", |t| t.contains("typed by keyboard"))
        .await
        .expect("its log");
    let editor = focus_here(&app, "running the block").await;
    assert_eq!(
        editor.within, "console-editor",
        "the caret stays in the editor"
    );
    keep_screenshot(&app, "keyboard-tools-console-run").await;

    // Closed with Enter on Close; the sheet left with Escape.
    tab_to_id(&app, true, "console-close").await;
    press(&app, Key::Enter).await;
    wait.text("console-ended", |t| !t.trim().is_empty())
        .await
        .expect("why it ended");
    focus_here(&app, "closing the console").await;
    press(&app, Key::Escape).await;
    wait.gone("sheet").await.expect("Escape left the console");
    assert!(
        focused(&app).await.is_some(),
        "the focus is somewhere to be seen"
    );

    // With developer tools on, the live screen's frame rate is shown with Enter on "fps".
    tab_to_id(&app, false, "live-hud-toggle").await;
    press(&app, Key::Enter).await;
    let hud = wait.element("live-hud-toggle").await.unwrap();
    assert_eq!(
        hud.attr("aria-pressed").await.unwrap().as_deref(),
        Some("true")
    );
    long.element("live-hud")
        .await
        .expect("the frame rate shows");
    app.quit().await;
}

/// An update offered (a feed on loopback, as in `updates.rs`): its Install and restart is
/// pressed, and Later puts the offer away, with the keyboard. The feed's package is not a
/// program, so installing fails before anything is replaced and the offer says so, with Try
/// again. A successful install and the restart into the new package, pressed with the keyboard
/// from the installed .deb, are `install::update::`.
#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn the_update_offer_is_tried_and_put_off_with_the_keyboard_alone() {
    let trusted = minisign::KeyPair::generate_unencrypted_keypair().expect("a key pair");
    let feed = crate::updates::Feed::serve(&trusted).await;
    let app = App::launch_with(feed.options(&trusted))
        .await
        .expect("the app opens");
    let wait = Eventually::new(&app.driver);
    wait.at_least("machine-row", 3).await.expect("computers");
    wait.text("update-offer", |t| t.contains("Install and restart"))
        .await
        .expect("the update is offered");
    tab_to_id(&app, false, "update-install").await;
    press_busy(&app, "update-install").await;
    let failed = wait
        .text("update-offer", |t| t.contains("could not be installed"))
        .await
        .expect("Enter installed, which failed and says so");
    assert!(failed.contains("Try again"), "{failed}");
    let now = focus_here(&app, "installing").await;
    assert_eq!(now.testid, "update-install", "{now:?}");
    keep_screenshot(&app, "keyboard-tools-update-failed").await;
    let later = tab_to_id(&app, false, "update-later").await;
    assert!(later.keyboard, "Later is reached by the keyboard");
    keep_screenshot(&app, "keyboard-tools-update-offer").await;
    press(&app, Key::Enter).await;
    wait.gone("update-offer")
        .await
        .expect("Enter on Later put it away");
    focus_here(&app, "putting the update off").await;
    app.quit().await;
}
