//! What the card and approval tests share: a task sent to Design laptop that stops on a card,
//! where the keyboard is, a pick made by its label, and the answer once the task has ended.

use porthole_e2e::{by_testid, text_of, App, Eventually, Result};
use thirtyfour::prelude::*;

use crate::flows::{select_machine, send_task, wait_for_status};

/// Opens Design laptop's conversation and sends `task`; the Demo's agent stops on a card for
/// the tasks these tests send.
pub async fn send_to_design_laptop(app: &App, task: &str) {
    select_machine(app, "Design laptop").await.expect("machine");
    send_task(app, task).await.expect("send");
}

/// The `data-testid` of the element that has the keyboard focus.
pub async fn focused(app: &App) -> String {
    let ret = app
        .driver
        .execute(
            "return document.activeElement?.getAttribute('data-testid') ?? ''",
            vec![],
        )
        .await
        .unwrap();
    ret.json().as_str().unwrap_or_default().to_owned()
}

/// Clicks the option labelled `label` within `question` (one question, or the whole card).
pub async fn pick(question: &WebElement, label: &str) {
    for option in question
        .find_all(by_testid("approval-option"))
        .await
        .unwrap()
    {
        if text_of(&option).await == label {
            option.click().await.unwrap();
            return;
        }
    }
    panic!("no option {label:?}");
}

/// Waits for the task to end, which it must do with success, and returns its answer.
pub async fn answer_of_a_success(app: &App) -> Result<String> {
    let status = wait_for_status(app, &["succeeded", "failed"]).await?;
    if status != "succeeded" {
        return Err(format!("the task ended {status}").into());
    }
    Eventually::new(&app.driver)
        .text("final-answer", |t| !t.is_empty())
        .await
}
