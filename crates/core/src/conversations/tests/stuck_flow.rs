//! "It seems stuck" against the simulator, whose agent goes round in circles when told to
//! ("round in circles": the same narration and step each round until a message joins the
//! task or it is stopped): the card's three answers, as the core carries them out.

use super::*;
use crate::conversations::stuck::{StuckAnswer, StuckSignal};

const LOOPING: &str = "Fill in the form and go round in circles";
const ROUND: &str = "Look for the Save button";

fn asked(c: &Conversation) -> bool {
    c.stuck.asking.is_some()
}

/// How many rounds the agent made so far.
fn rounds(c: &Conversation) -> usize {
    c.items
        .iter()
        .filter(|i| matches!(i, ThreadItem::Tool { title: Some(t), .. } if t == ROUND))
        .count()
}

#[tokio::test]
async fn a_task_going_round_in_circles_is_asked_about_and_a_hint_ends_the_loop() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.send(&id, LOOPING).await.unwrap();
    let stuck = app.until(&id, asked).await;
    assert_eq!(stuck.stuck.asking, Some(StuckSignal::Repeating));
    assert_eq!(stuck.status, TaskStatus::Running);

    let hint = "The button is called Keep, at the bottom right";
    app.core
        .answer_stuck(&id, StuckAnswer::Hint { text: hint.into() })
        .await
        .unwrap();
    let done = app.until(&id, ended).await;
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert_eq!(done.stuck.asking, None, "the card is gone");
    // The hint went into the running task, and the agent read it.
    assert!(done
        .items
        .iter()
        .any(|i| matches!(i, ThreadItem::User { text, joined: true, .. } if text == hint)));
    assert!(
        answers(&done).iter().any(|a| a.contains(hint)),
        "{:#?}",
        answers(&done)
    );
}

#[tokio::test]
async fn stop_on_the_card_stops_the_task_on_the_service() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.send(&id, LOOPING).await.unwrap();
    app.until(&id, asked).await;
    app.core.stop(&id).await.unwrap();
    let done = app.until(&id, ended).await;
    assert_eq!(done.status, TaskStatus::Stopped);
    assert_eq!(done.stuck.asking, None);
    let turn = done.follower.and_then(|f| f.turn_id).unwrap();
    app.assert_turn_stopped_on_service(&turn).await;
}

#[tokio::test]
async fn keep_going_is_not_asked_again_for_the_task_even_after_a_restart() {
    let app = app().await;
    let id = app.new_conversation().await;
    app.send(&id, LOOPING).await.unwrap();
    let first = app.until(&id, asked).await;
    app.core
        .answer_stuck(&id, StuckAnswer::KeepGoing)
        .await
        .unwrap();
    // Many more identical rounds go by: not asked again.
    let later = rounds(&first) + 4 * stuck::REPEATS as usize;
    let went_on = app.until(&id, |c| rounds(c) >= later || ended(c)).await;
    assert!(rounds(&went_on) >= later, "{:#?}", went_on.items);
    assert_eq!(went_on.stuck.asking, None);
    assert!(went_on.stuck.let_run);
    // What a restart reads back keeps the answer.
    app.core.store().flush();
    let reread = ConversationStore::open_in(app.dir.path())
        .unwrap()
        .get(&id)
        .unwrap();
    assert!(reread.stuck.let_run);
    assert_eq!(reread.stuck.asking, None);
    app.core.stop(&id).await.unwrap();
    app.until(&id, ended).await;

    // A new task in the same conversation is watched afresh.
    app.send(&id, LOOPING).await.unwrap();
    let again = app.until(&id, asked).await;
    assert_eq!(again.stuck.asking, Some(StuckSignal::Repeating));
    assert!(!again.stuck.let_run);
}
