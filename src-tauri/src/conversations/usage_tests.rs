//! Per-task usage against the simulator: two tasks in one conversation, followed the way the
//! app follows them, each keep their own figures, and together they make the session's.

use futures::StreamExt;
use porthole_client::messages::MessageRequest;
use porthole_client::{Client, Credential, TaskFollower, TaskUpdate, Transport};
use porthole_sim::{Config, Sim};

use super::*;
use crate::conversations::model::ConversationBook;

/// Sends `text` in the conversation and applies every update, recording usage after each
/// one as the app's follower loop does.
async fn run_task(
    client: &Client,
    machine_id: &str,
    conversation: &mut Conversation,
    book: &mut UsageBook,
    text: &str,
) {
    // The second task lands in the same session: a message goes to the computer's current one.
    let request = MessageRequest::new(text, machine_id);
    conversation.record_user_message(text, false, 0.0);
    let mut follower = TaskFollower::start(client, &request, Transport::Poll)
        .await
        .expect("the task starts");
    while let Some(update) = follower.next().await {
        let update = update.expect("the task is followed");
        conversation.apply(&update, follower.state(), 0.0);
        book.record(conversation);
        if matches!(update, TaskUpdate::Finished { .. }) {
            break;
        }
    }
}

#[tokio::test]
async fn two_tasks_keep_their_own_figures_and_add_up_to_the_session() {
    let sim = Sim::start(Config {
        time_scale: 0.01,
        ..Config::default()
    })
    .await
    .unwrap();
    let key = sim.account("ada").api_key.clone().unwrap();
    let client = Client::new(&sim.base_url, Credential::api_key(&key).unwrap()).unwrap();
    let machines = client.machines().list().await.unwrap().machines;
    let laptop = machines
        .iter()
        .find(|m| m.name.as_deref() == Some("Design laptop"))
        .expect("ada's laptop");

    let mut conversations = ConversationBook::default();
    conversations.create("c1".into(), "demo", &laptop.machine_id, 0.0);
    let mut conversation = conversations.get("c1").unwrap().clone();
    let mut book = UsageBook::default();

    run_task(
        &client,
        &laptop.machine_id,
        &mut conversation,
        &mut book,
        "Look up the price of coffee",
    )
    .await;
    run_task(
        &client,
        &laptop.machine_id,
        &mut conversation,
        &mut book,
        "Write an expensive report on tea",
    )
    .await;

    let tasks = book.tasks(&conversation);
    assert_eq!(tasks.len(), 2, "one row per task: {tasks:?}");
    assert_eq!(tasks[0].task, "Look up the price of coffee");
    assert_eq!(tasks[1].task, "Write an expensive report on tea");
    assert_ne!(tasks[0].turn_id, tasks[1].turn_id);
    assert!(tasks.iter().all(|t| !t.running), "both tasks ended");
    let (first, second) = (&tasks[0].usage.total, &tasks[1].usage.total);
    assert!(first.input_tokens > 0 && first.cost_usd > 0.0);
    assert!(
        second.cost_usd > first.cost_usd,
        "the expensive task costs more: {second:?} vs {first:?}"
    );
    assert!(!tasks[1].usage.by_model.is_empty(), "figures by model kept");

    // The service's session total is the two tasks together.
    let session_id = conversation.session_id.clone().expect("one session");
    let page = client.events().poll(&session_id, None, 0).await.unwrap();
    let session = page.session_usage.expect("session usage").total;
    assert_eq!(
        session.input_tokens,
        first.input_tokens + second.input_tokens
    );
    assert_eq!(
        session.output_tokens,
        first.output_tokens + second.output_tokens
    );
    assert_eq!(session.model_calls, first.model_calls + second.model_calls);
    assert!((session.cost_usd - (first.cost_usd + second.cost_usd)).abs() < 1e-9);
}

#[test]
fn a_running_task_is_marked_and_a_steering_message_keeps_the_task_words() {
    let mut conversations = ConversationBook::default();
    conversations.create("c1".into(), "demo", "m1", 0.0);
    let mut c = conversations.get("c1").unwrap().clone();
    c.record_user_message("Count the invoices", false, 0.0);
    c.record_user_message("and the receipts too", true, 0.0);
    c.follower = Some(porthole_client::FollowerState {
        turn_id: Some("turn_1".into()),
        ..Default::default()
    });
    let mut book = UsageBook::default();
    assert!(!book.record(&c), "nothing before the first model call");
    c.usage = Some(TaskUsage::default());
    assert!(book.record(&c));
    assert!(!book.record(&c), "the same figures again change nothing");
    let rows = book.tasks(&c);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].task, "Count the invoices");
    assert!(rows[0].running);
}

#[test]
fn kept_figures_survive_a_restart_and_the_same_figures_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut conversations = ConversationBook::default();
    conversations.create("c1".into(), "demo", "m1", 0.0);
    let mut c = conversations.get("c1").unwrap().clone();
    c.record_user_message("Count the invoices", false, 0.0);
    c.follower = Some(porthole_client::FollowerState {
        turn_id: Some("turn_1".into()),
        ..Default::default()
    });
    c.usage = Some(TaskUsage {
        total: porthole_client::events::UsageFigures {
            input_tokens: 42,
            ..Default::default()
        },
        ..Default::default()
    });
    let store = UsageStore::open_in(dir.path()).unwrap();
    assert!(store.record(&c).unwrap());
    assert!(!store.record(&c).unwrap());
    // A save replaces the file and keeps the one before beside it: none was made.
    assert!(!dir.path().join("usage.prev.json").exists());
    let rows = store.tasks(&c);
    drop(store);

    let again = UsageStore::open_in(dir.path()).unwrap();
    assert_eq!(again.tasks(&c), rows);
    assert_eq!(rows[0].usage.total.input_tokens, 42);
    assert!(again.set_aside().is_none());
}
