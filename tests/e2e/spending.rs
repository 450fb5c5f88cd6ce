//! A spending cap below what a task costs: the composer's "Cap $" goes out with the task, the
//! cost is shown against the cap while it runs, and Porthole stops the task at the cap and
//! says what it cost. A cap that is no sum of money is refused in words before anything goes.

use porthole_e2e::{App, Eventually};
use thirtyfour::prelude::*;

use crate::flows::{select_machine, send_task, thread_texts, wait_for_status};

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_task_stops_at_its_spending_cap_and_says_what_it_cost() {
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");

    // A cap that is no sum of money: said, and Send stays off. The cap sits under the
    // composer's "More options" (⋯).
    wait.element("composer-more")
        .await
        .expect("More options")
        .click()
        .await
        .unwrap();
    let cap = wait.element("cap-input").await.expect("the cap box");
    cap.send_keys("lots").await.unwrap();
    let said = wait.text("cap-error", |t| !t.is_empty()).await.unwrap();
    assert!(said.contains("at least $0.01"), "{said}");
    cap.clear().await.unwrap();

    cap.send_keys("0.02").await.unwrap();
    send_task(&app, "Find the weather in Lisbon and count to 8")
        .await
        .expect("send");
    let meter = wait
        .text("cap-meter", |t| t.contains("of $0.02 cap"))
        .await
        .expect("the cost against the cap while it runs");
    assert!(meter.starts_with('$'), "{meter}");
    app.screenshot("spending-cap-running").await.unwrap();

    assert_eq!(
        wait_for_status(&app, &["stopped", "succeeded", "failed"])
            .await
            .unwrap(),
        "stopped"
    );
    let notices = thread_texts(&app, "notice").await.unwrap();
    let stopped = notices
        .iter()
        .find(|n| n.starts_with("Stopped at your $0.02 cap. This task cost $"))
        .unwrap_or_else(|| panic!("the thread says why and what it cost: {notices:?}"));
    assert!(stopped.ends_with('.'), "{stopped}");
    assert!(
        thread_texts(&app, "answer").await.unwrap().is_empty(),
        "stopped before its answer"
    );
    // The meter is gone with the task; the box is there for the next one.
    wait.element("cap-input").await.expect("the cap box again");
    app.driver
        .find(By::Css("[data-testid=\"thread\"]"))
        .await
        .unwrap();
    app.screenshot("spending-cap-stopped").await.unwrap();
}
