//! What a person does again and again in these tests: pick a machine, send a task, read the
//! task's status.

use porthole_e2e::{by_testid, text_of, App, Eventually, Result};
use thirtyfour::prelude::*;

/// Opens the task panel of the machine with this name.
pub async fn select_machine(app: &App, name: &str) -> Result<()> {
    let wait = Eventually::new(&app.driver);
    let rows = wait.at_least("machine-row", 1).await?;
    for row in rows {
        let shown = text_of(&row.find(by_testid("machine-name")).await?).await;
        if shown == name {
            row.find(by_testid("machine-select")).await?.click().await?;
            wait.text("task-machine-name", |t| t == name).await?;
            return Ok(());
        }
    }
    Err(format!("no machine called {name:?} in the sidebar").into())
}

/// Types a task into the composer and sends it with Enter, as a person would.
pub async fn send_task(app: &App, text: &str) -> Result<()> {
    let composer = Eventually::new(&app.driver).element("composer").await?;
    composer.click().await?;
    composer.send_keys(text).await?;
    composer.send_keys(Key::Enter).await?;
    Ok(())
}

/// The task's status as the status chip says it (`running`, `needsApproval`, `succeeded`, …).
pub async fn wait_for_status(app: &App, wanted: &[&str]) -> Result<String> {
    let wait = Eventually::new(&app.driver);
    let start = std::time::Instant::now();
    loop {
        let chip = wait.element("status-chip").await?;
        let status = chip.attr("data-status").await?.unwrap_or_default();
        if wanted.contains(&status.as_str()) {
            return Ok(status);
        }
        if start.elapsed() > std::time::Duration::from_secs(90) {
            return Err(format!("the task stayed {status:?}, expected one of {wanted:?}").into());
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

/// The texts of the thread's items of one kind (`narration`, `progress`, `answer`, …).
pub async fn thread_texts(app: &App, kind: &str) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for item in app
        .driver
        .find_all(By::Css(format!(
            "[data-testid=\"thread-item\"][data-kind=\"{kind}\"]"
        )))
        .await?
    {
        out.push(text_of(&item).await);
    }
    Ok(out)
}
