//! Searching every conversation from one box: two tasks on the Demo, a word of the second's
//! answer typed after Ctrl+K, the hit opened at its line (scrolled into view and marked).

use porthole_e2e::{text_of, App, Eventually};
use thirtyfour::prelude::*;

use crate::flows::{select_machine, send_task, thread_texts, wait_for_status};

/// The longest word of `text` (letters only) that `other` does not hold.
fn distinct_word(text: &str, other: &str) -> String {
    let other = other.to_lowercase();
    let mut words: Vec<String> = text
        .split(|c: char| !c.is_alphabetic())
        .map(str::to_lowercase)
        .filter(|w| w.len() > 3 && !other.contains(w.as_str()))
        .collect();
    words.sort_by_key(|w| std::cmp::Reverse(w.len()));
    words.into_iter().next().expect("the answers differ")
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_word_of_an_answer_finds_it_and_opens_it_at_its_line() {
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    for task in [
        "Look up the weather in Lisbon",
        "Find the price of a train ticket to Bergen",
    ] {
        send_task(&app, task).await.expect("send");
        wait_for_status(&app, &["running"]).await.ok();
        assert_eq!(
            wait_for_status(&app, &["succeeded", "failed"])
                .await
                .unwrap(),
            "succeeded"
        );
    }
    let answers = thread_texts(&app, "answer").await.unwrap();
    assert_eq!(answers.len(), 2, "{answers:?}");
    let word = distinct_word(&answers[1], &answers[0]);

    // Away from that conversation first, so opening the hit has somewhere to go.
    select_machine(&app, "Research box")
        .await
        .expect("another computer");
    app.driver
        .action_chain()
        .key_down(Key::Control)
        .send_keys("k")
        .key_up(Key::Control)
        .perform()
        .await
        .unwrap();
    let input = wait.element("search-input").await.expect("the search box");
    input.send_keys(&word).await.unwrap();
    let hits = wait
        .at_least("search-hit", 1)
        .await
        .expect("results as typed");
    let mut answer_hit = None;
    for hit in hits {
        if text_of(&hit).await.to_lowercase().contains("answer") {
            answer_hit = Some(hit);
            break;
        }
    }
    let hit = answer_hit.expect("the answer is among the results");
    let shown = text_of(&hit).await;
    assert!(shown.to_lowercase().contains(&word), "{shown}");
    assert!(shown.contains("Design laptop"), "{shown}");
    app.screenshot("search-results").await.unwrap();

    hit.click().await.unwrap();
    wait.text("task-machine-name", |t| t == "Design laptop")
        .await
        .expect("the hit's computer is open");
    let found = app
        .driver
        .query(By::Css(
            "[data-testid=\"thread-item\"][data-found=\"true\"]",
        ))
        .first()
        .await
        .expect("the matching line is marked");
    assert_eq!(
        found.attr("data-kind").await.unwrap().as_deref(),
        Some("answer")
    );
    assert_eq!(text_of(&found).await, answers[1]);
    app.screenshot("search-opened").await.unwrap();
}

/// Ctrl+`key`, pressed on the page as a person would.
async fn ctrl(app: &App, key: &str) {
    app.driver
        .action_chain()
        .key_down(Key::Control)
        .send_keys(key)
        .key_up(Key::Control)
        .perform()
        .await
        .unwrap();
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn ctrl_k_searches_with_the_sidebar_folded_too() {
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    ctrl(&app, "b").await;
    wait.element("sidebar-unfold")
        .await
        .expect("the sidebar folded");
    ctrl(&app, "k").await;
    let input = wait
        .element("search-input")
        .await
        .expect("Ctrl+K opens the search with the sidebar folded");
    input.send_keys("weather").await.unwrap();
    app.screenshot("search-sidebar-folded")
        .await
        .expect("screenshot");
    input.send_keys(Key::Escape).await.unwrap();
    wait.gone("search-box").await.expect("Escape closes it");
    // The folded sidebar's magnifier opens it as well.
    app.driver
        .find(By::Css("[data-testid=\"search-open\"]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.element("search-input")
        .await
        .expect("the rail's search button");
    app.quit().await;
}
