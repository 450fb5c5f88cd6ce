//! The window never scrolls: in a conversation longer than the window, with Usage open, the
//! message box and the account's balance stay inside it, so a person can always send the next
//! task. Only the thread (and the panels that list things) scroll.

use porthole_e2e::{by_testid, App, AppOptions, Eventually, Result};

use crate::flows::{select_machine, send_task, wait_for_status};

/// A task long enough that three of them, with their answers, outgrow the window.
fn long_task(n: usize) -> String {
    format!(
        "Task {n}: look up the weather in Lisbon, Porto, Faro, Braga, Coimbra, Aveiro, Evora, \
         Setubal, Viseu, Leiria, Guarda and Funchal for tomorrow, and for each city write the \
         high, the low, the chance of rain and whether a light jacket will be enough in the \
         evening, then put the cities in order from the warmest to the coldest."
    )
}

/// Where the element with this test id is drawn, and the window's size, as the page sees them.
async fn placement(app: &App, testid: &str) -> Result<(f64, f64, f64, f64, f64, f64)> {
    let el = app.driver.find(by_testid(testid)).await?;
    let ret = app
        .driver
        .execute(
            "const r = arguments[0].getBoundingClientRect();
             return [r.top, r.bottom, r.left, r.right, window.innerHeight, window.innerWidth];",
            vec![el.to_json()?],
        )
        .await?;
    let n: Vec<f64> = serde_json::from_value(ret.json().clone())?;
    Ok((n[0], n[1], n[2], n[3], n[4], n[5]))
}

async fn assert_inside(app: &App, testid: &str) {
    let (top, bottom, left, right, height, width) =
        placement(app, testid).await.expect("the element is drawn");
    assert!(
        top >= 0.0 && bottom <= height && left >= 0.0 && right <= width,
        "{testid} is drawn at top {top}, bottom {bottom}, left {left}, right {right}, \
         outside the {width}x{height} window"
    );
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn the_message_box_stays_in_the_window_in_a_long_conversation() {
    // Three long tasks take the Demo's agent about thirty seconds each at the tests' usual
    // twentieth of real time; only their length on the page matters here.
    let app = App::launch_with(AppOptions {
        demo_time_scale: Some(0.005),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver);
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");

    for n in 1..=3 {
        send_task(&app, &long_task(n)).await.expect("send");
        assert_eq!(
            wait_for_status(&app, &["succeeded", "failed"])
                .await
                .unwrap(),
            "succeeded",
            "task {n} ends"
        );
    }
    wait.element("usage-button")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.element("usage-panel").await.expect("Usage opens");

    app.screenshot("long-conversation-with-usage")
        .await
        .expect("screenshot");

    // The conversation really is longer than the window.
    let thread = app.driver.find(by_testid("thread")).await.unwrap();
    let sizes = app
        .driver
        .execute(
            "return [arguments[0].scrollHeight, window.innerHeight];",
            vec![thread.to_json().unwrap()],
        )
        .await
        .unwrap();
    let sizes: Vec<f64> = serde_json::from_value(sizes.json().clone()).unwrap();
    assert!(
        sizes[0] > sizes[1],
        "three long tasks make a thread ({} px) taller than the window ({} px)",
        sizes[0],
        sizes[1]
    );

    assert_inside(&app, "composer").await;
    assert_inside(&app, "send-button").await;
    assert_inside(&app, "account-credits").await;
    // Nothing scrolled the window itself to get them there.
    let scrolled = app
        .driver
        .execute(
            "return document.scrollingElement.scrollTop + document.body.scrollTop;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        scrolled.json().as_f64(),
        Some(0.0),
        "the window is not scrolled"
    );

    // And a fourth task can be typed and sent from where the box is.
    send_task(&app, "Add up the table").await.expect("send");
    wait_for_status(&app, &["running", "succeeded"])
        .await
        .expect("the fourth task starts");

    app.quit().await;
}
