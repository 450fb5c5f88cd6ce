//! One place for what needs the person: a card waiting on each of two computers shows in the
//! sidebar's "Needs you" (the computer that cannot be woken only once it was asked for
//! something), and a card answered from the inbox is answered as in its task: it leaves the
//! list and its task goes on to its answer.

use porthole_e2e::{by_testid, text_of, App, AppOptions, Eventually};
use thirtyfour::prelude::*;

use crate::flows::{select_machine, send_task, wait_for_status};
use crate::replay::keep_screenshot;

/// The count the sidebar's entry shows.
async fn inbox_count(app: &App) -> u32 {
    let entry = Eventually::new(&app.driver)
        .element("inbox-open")
        .await
        .expect("the sidebar's inbox entry");
    entry
        .attr("data-count")
        .await
        .ok()
        .flatten()
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

async fn until_count(app: &App, wanted: impl Fn(u32) -> bool) -> u32 {
    let start = std::time::Instant::now();
    loop {
        let count = inbox_count(app).await;
        if wanted(count) {
            return count;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(120),
            "the inbox stayed at {count}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn cards_on_two_computers_wait_in_one_inbox_and_one_is_answered_there() {
    // A card lives ten of the service's minutes; at this scale that is three real ones, time
    // enough for a loaded machine to send both tasks and wake the Research box.
    let app = App::launch_with(AppOptions {
        demo_time_scale: Some(0.3),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver);

    select_machine(&app, "Design laptop").await.expect("laptop");
    send_task(&app, "Delete the old screenshots")
        .await
        .expect("send");
    wait_for_status(&app, &["needsApproval"])
        .await
        .expect("a card");
    select_machine(&app, "Research box")
        .await
        .expect("research box");
    send_task(&app, "Send the report by email")
        .await
        .expect("send");
    // The Research box wakes first.
    let long = Eventually::new(&app.driver).within(std::time::Duration::from_secs(180));
    long.element("approval-card").await.expect("its card");
    let before = until_count(&app, |c| c >= 2).await;
    assert_eq!(
        before, 2,
        "two cards; the computer that cannot be woken asks nothing, as nobody asked it"
    );

    wait.element("inbox-open")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let items = wait.at_least("inbox-item", 2).await.expect("the list");
    let mut wheres = Vec::new();
    for item in &items {
        wheres.push(text_of(&item.find(by_testid("inbox-where")).await.unwrap()).await);
    }
    assert!(
        wheres.iter().any(|w| w.starts_with("Design laptop")),
        "{wheres:?}"
    );
    assert!(
        wheres.iter().any(|w| w.starts_with("Research box")),
        "{wheres:?}"
    );
    assert!(
        !wheres.iter().any(|w| w == "Studio archive"),
        "the archive was never asked for anything: {wheres:?}"
    );
    let countdowns = app
        .driver
        .find_all(By::Css(
            "[data-testid=\"inbox\"] [data-testid=\"approval-countdown\"]",
        ))
        .await
        .unwrap();
    assert_eq!(countdowns.len(), 2, "each card with its countdown");
    keep_screenshot(&app, "inbox-two-computers").await;

    // The laptop's card, answered right here, as in its task.
    let mut laptop = None;
    for (item, shown) in items.iter().zip(&wheres) {
        if shown.starts_with("Design laptop") {
            laptop = Some(item.clone());
        }
    }
    let approve = laptop
        .unwrap()
        .find(by_testid("approval-approve"))
        .await
        .unwrap();
    // The list scrolls: bring the button into view as a person would.
    app.driver
        .execute(
            "arguments[0].scrollIntoView({block: 'center'})",
            vec![approve.to_json().unwrap()],
        )
        .await
        .unwrap();
    approve.click().await.unwrap();
    until_count(&app, |c| c == 1).await;
    let left = wait.at_least("inbox-item", 1).await.unwrap();
    assert_eq!(left.len(), 1, "the answered card left the list");
    keep_screenshot(&app, "inbox-one-answered").await;

    // "Open the task" shows the Research box's conversation with its card still there.
    let mut research = None;
    let mut shown_left = Vec::new();
    for item in &left {
        let shown = text_of(&item.find(by_testid("inbox-where")).await.unwrap()).await;
        if shown.starts_with("Research box") {
            research = Some(item.clone());
        }
        shown_left.push(shown);
    }
    let open = research
        .unwrap_or_else(|| panic!("the research box's card among {shown_left:?}"))
        .find(by_testid("inbox-open-item"))
        .await
        .unwrap();
    app.driver
        .execute(
            "arguments[0].scrollIntoView({block: 'center'})",
            vec![open.to_json().unwrap()],
        )
        .await
        .unwrap();
    open.click().await.unwrap();
    wait.text("task-machine-name", |t| t == "Research box")
        .await
        .expect("its computer");
    wait.element("approval-card")
        .await
        .expect("its card, in the thread");

    // The laptop's task went on from the inbox's answer to its end.
    select_machine(&app, "Design laptop").await.unwrap();
    let status = wait_for_status(&app, &["succeeded", "failed"])
        .await
        .unwrap();
    assert_eq!(status, "succeeded");
    keep_screenshot(&app, "inbox-answered-task-done").await;
    app.quit().await;
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_computer_put_away_stays_away_after_a_restart() {
    // A Demo of the test's own, so the same computers (and ids) are there after the restart.
    let (sim, env) = crate::flows::own_demo(0.02).await;
    let app = App::launch_with(AppOptions {
        env: env.clone(),
        ..AppOptions::default()
    })
    .await
    .expect("the app opens");
    let wait = Eventually::new(&app.driver);
    // The Demo's "Studio archive" sleeps and cannot be woken from here: given a task, it
    // needs the person (and the task fails).
    select_machine(&app, "Studio archive")
        .await
        .expect("the archive");
    send_task(&app, "Look up the weather in Paris")
        .await
        .expect("send");
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "failed"
    );
    until_count(&app, |c| c >= 2).await;
    let before = inbox_count(&app).await;
    wait.element("inbox-open")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.at_least("inbox-item", 1)
        .await
        .expect("the inbox's items");
    let item = app
        .driver
        .find(By::Css(
            "[data-testid=\"inbox-item\"][data-kind=\"cannotWake\"]",
        ))
        .await
        .expect("the computer that cannot be woken");
    item.find(by_testid("inbox-dismiss"))
        .await
        .expect("Put away")
        .click()
        .await
        .unwrap();
    until_count(&app, |c| c == before - 1).await;
    wait.element("inbox-close")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();

    let (keep, again) = crate::flows::restart_on(app, env, "Design laptop").await;
    let wait = Eventually::new(&again.driver);
    // Something new to need the person after the restart: a failed task. The inbox worked out
    // for it also holds every computer read by then, so the count it brings is the whole story.
    send_task(&again, "Open the file and fail")
        .await
        .expect("send");
    assert_eq!(
        wait_for_status(&again, &["succeeded", "failed"])
            .await
            .unwrap(),
        "failed"
    );
    wait.text("machine-cannot-wake", |t| !t.is_empty())
        .await
        .expect("the archive is listed, still not wakeable");
    let after = until_count(&again, |c| c >= before).await;
    assert_eq!(
        after, before,
        "the failure is new; the computer is still put away"
    );
    wait.element("inbox-open")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.at_least("inbox-item", 1).await.expect("the failure");
    let kinds = {
        let mut kinds = Vec::new();
        for item in again
            .driver
            .find_all(By::Css("[data-testid=\"inbox-item\"]"))
            .await
            .unwrap()
        {
            kinds.push(item.attr("data-kind").await.unwrap().unwrap_or_default());
        }
        kinds
    };
    assert!(kinds.contains(&"taskFailed".to_owned()), "{kinds:?}");
    assert!(
        !kinds.contains(&"cannotWake".to_owned()),
        "the computer put away is not back after the restart: {kinds:?}"
    );
    keep_screenshot(&again, "inbox-put-away-after-restart").await;
    again.quit().await;
    drop(keep);
    sim.shutdown().await;
}

/// The card's words without its countdown, which ticks between two readings.
async fn card_words(app: &App, card: &WebElement) -> String {
    let words = app
        .driver
        .execute(
            "const c = arguments[0].cloneNode(true);\
             c.querySelector('[data-testid=\"approval-countdown\"]')?.remove();\
             return c.textContent.replace(/\\s+/g, ' ').trim();",
            vec![card.to_json().unwrap()],
        )
        .await
        .unwrap();
    words.json().as_str().unwrap_or_default().to_owned()
}

/// Issue 31 §1: in a conversation whose first task looked up the weather, a later task that
/// named Downloads asks to delete a folder in Documents. Needs you shows the same card as the
/// thread, with the same "Not the place you named", headed by the task that asks.
#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_documents_delete_for_a_downloads_task_warns_in_needs_you_as_in_the_thread() {
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    let long = Eventually::new(&app.driver).within(std::time::Duration::from_secs(180));
    select_machine(&app, "Design laptop").await.expect("laptop");
    send_task(&app, "Look up the weather in Paris")
        .await
        .expect("send");
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    send_task(&app, "Delete the old files in Downloads")
        .await
        .expect("send");
    long.element("approval-approve").await.expect("the card");
    let warning = wait
        .text("approval-mismatch", |t| {
            t.starts_with("Not the place you named.")
        })
        .await
        .expect("the thread's card warns");
    assert!(
        warning.contains("Downloads") && warning.contains("old-reports in Documents"),
        "{warning}"
    );
    let in_thread = card_words(&app, &wait.element("approval-card").await.unwrap()).await;

    wait.element("inbox-open")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let items = wait.at_least("inbox-item", 1).await.expect("the list");
    let mut card_item = None;
    for item in items {
        if item.find(by_testid("approval-card")).await.is_ok() {
            card_item = Some(item);
        }
    }
    let item = card_item.expect("the card is in Needs you");
    assert_eq!(
        text_of(&item.find(by_testid("inbox-where")).await.unwrap()).await,
        "Design laptop · Delete the old files in Downloads",
        "headed by the task that asks, not the conversation's first"
    );
    assert_eq!(
        text_of(&item.find(by_testid("approval-mismatch")).await.unwrap()).await,
        warning,
        "the same warning as in the thread"
    );
    let in_inbox = card_words(&app, &item.find(by_testid("approval-card")).await.unwrap()).await;
    assert_eq!(in_inbox, in_thread, "one card, drawn alike in both places");
    keep_screenshot(&app, "inbox-card-as-in-thread").await;
    app.quit().await;
}
