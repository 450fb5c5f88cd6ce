//! A task the computer could not take ends in words about the computer, not the agent: the
//! turn's reason (`machine_unavailable`) is read at the end, since the stream's `error` frame
//! does not carry it.

use super::*;
use crate::error::{UiCode, UiError};

#[tokio::test]
async fn a_task_on_a_computer_that_cannot_be_reached_says_so_and_when_to_try_again() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.send(&id, "Check the mail even if the computer is unreachable")
        .await
        .unwrap();
    let done = app.until(&id, ended).await;
    assert_eq!(done.status, TaskStatus::Failed, "{:#?}", done.items);
    let problem = done.failure.expect("a failure");
    assert_eq!(problem.code, UiCode::MachineUnavailable);
    let shown = UiError::from(&problem);
    assert_eq!(shown.title, "The computer is not available");
    assert!(shown.retry_at.is_some(), "a time to try again");
}
