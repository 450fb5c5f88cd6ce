//! The Keys page in the Demo (signed in as the demo account, whose sign-in token stays in
//! Rust): make a key, see its secret once, revoke it after confirming.

use porthole_e2e::{by_testid, text_of, App, Eventually};

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_key_is_made_shown_once_and_revoked() {
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    wait.element("open-keys")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.text("keys-identity", |t| t.contains("Signed in"))
        .await
        .expect("the Demo is signed in");
    // The Demo account starts with its own key.
    let before = wait
        .at_least("key-row", 1)
        .await
        .expect("the keys are listed")
        .len();

    let name = wait.element("key-name").await.unwrap();
    name.send_keys("Porthole e2e").await.unwrap();
    wait.element("key-create")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let secret = wait
        .element("new-key-secret")
        .await
        .expect("the new key is shown");
    let value = secret.prop("value").await.unwrap().unwrap_or_default();
    assert!(value.starts_with("phk_sim_"), "the secret itself is shown");
    wait.at_least("key-row", before + 1)
        .await
        .expect("the new key is listed");
    app.screenshot("keys-new-key-shown-once").await.unwrap();

    wait.element("new-key-done")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.gone("new-key-secret")
        .await
        .expect("the secret is gone after Done");
    let page = text_of(&app.driver.find(by_testid("keys-page")).await.unwrap()).await;
    assert!(
        page.contains("Make a key"),
        "the page text was read: {page}"
    );
    assert!(!page.contains(&value), "the secret is not shown again");

    // The newest key is first; revoke asks before it acts.
    let rows = wait.at_least("key-row", 1).await.unwrap();
    let newest = rows[0].attr("data-name").await.unwrap().unwrap_or_default();
    assert_eq!(newest, "Porthole e2e");
    rows[0]
        .find(by_testid("key-revoke"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait.element("revoke-confirm")
        .await
        .expect("a confirmation");
    app.screenshot("keys-revoke-confirm").await.unwrap();
    wait.element("revoke-yes")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let start = std::time::Instant::now();
    loop {
        // The list re-renders while it refreshes; a row read mid-way is read again next turn.
        let rows = app
            .driver
            .find_all(by_testid("key-row"))
            .await
            .unwrap_or_default();
        let mut names = Vec::new();
        for row in &rows {
            match row.attr("data-name").await {
                Ok(name) => names.push(name.unwrap_or_default()),
                Err(_) => names.push("Porthole e2e (re-rendering)".into()),
            }
        }
        if !names.iter().any(|n| n.contains("Porthole e2e")) {
            break;
        }
        assert!(
            start.elapsed().as_secs() < 30,
            "the revoked key left the list"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    app.screenshot("keys-after-revoke").await.unwrap();
    app.quit().await;
}

/// A paid account makes a cloud computer from the same page and sees it through to online.
#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_new_cloud_computer_is_followed_until_online() {
    let app = App::launch().await.expect("the app opens");
    let wait = Eventually::new(&app.driver);
    wait.at_least("machine-row", 1)
        .await
        .expect("the computers are listed");
    // "+ New computer" under the computer list.
    wait.element("new-computer")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let name = wait
        .element("computer-name")
        .await
        .expect("the new-computer part");
    name.send_keys("Spare box").await.unwrap();
    wait.element("computer-create")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let start = std::time::Instant::now();
    loop {
        let progress = wait.element("computer-progress").await.unwrap();
        if progress.attr("data-stage").await.unwrap().as_deref() == Some("online") {
            break;
        }
        assert!(
            start.elapsed().as_secs() < 60,
            "the new computer came online"
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    app.screenshot("computer-created-online").await.unwrap();
    wait.element("new-computer-dialog-close")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let start = std::time::Instant::now();
    loop {
        let mut names = Vec::new();
        for row in app
            .driver
            .find_all(by_testid("machine-name"))
            .await
            .unwrap()
        {
            // textContent: WebDriver's visible text can read empty while the page repaints.
            names.push(row.prop("textContent").await.unwrap().unwrap_or_default());
        }
        if names.iter().any(|n| n.trim() == "Spare box") {
            break;
        }
        assert!(
            start.elapsed().as_secs() < 60,
            "the sidebar lists it: {names:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    }
    app.quit().await;
}
