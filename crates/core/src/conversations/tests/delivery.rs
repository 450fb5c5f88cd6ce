//! A message is never lost to a failed send: against the simulator's faults on the message
//! route, a message the service did not take stays with Retry (and no failed task), one it
//! took is followed once, and a restart while sending again says the message is not known to
//! be sent.

use porthole_sim::faults::{Fault, FaultSpec, Faults};

use super::*;
use crate::{Problem, UiCode};

const TASK: &str = "Find the weather in Lisbon";

/// The sends the client makes before it gives up on a message (its `SENDS`).
const SENDS: usize = 4;

async fn app_with_faults(faults: &str, seed: u64) -> App {
    app_paced(faults, seed, SCALE).await
}

/// The app connected as ada to a simulator with `faults`, its client waiting `client_scale`
/// of the real backoff between sends.
async fn app_paced(faults: &str, seed: u64, client_scale: f64) -> App {
    let sim = Sim::start(Config {
        time_scale: SCALE,
        faults: FaultSpec::parse(faults).expect("a fault spec"),
        seed,
        ..Config::default()
    })
    .await
    .expect("the simulator starts");
    let client = paced_client_for(&sim, "ada", client_scale);
    app_on(sim, client).await
}

/// A seed under which the simulator refuses the first `SENDS` messages and takes the next:
/// found with the simulator's own draws, so the test says which sends fail rather than hoping.
fn seed_refusing_one_message(spec: &str) -> u64 {
    let spec = FaultSpec::parse(spec).unwrap();
    (0..10_000)
        .find(|seed| {
            let faults = Faults::new(spec.clone(), *seed);
            let draws: Vec<bool> = (0..=SENDS)
                .map(|_| faults.roll(Fault::Message500))
                .collect();
            draws[..SENDS].iter().all(|refused| *refused) && !draws[SENDS]
        })
        .expect("some seed refuses four sends, then takes one")
}

fn users(c: &Conversation) -> usize {
    c.items
        .iter()
        .filter(|i| matches!(i, ThreadItem::User { .. }))
        .count()
}

fn not_sent(c: &Conversation) -> Vec<&Problem> {
    c.items
        .iter()
        .filter_map(|i| match i {
            ThreadItem::NotSent { error } => Some(error),
            _ => None,
        })
        .collect()
}

fn failures(c: &Conversation) -> usize {
    c.items
        .iter()
        .filter(|i| matches!(i, ThreadItem::Failure { .. }))
        .count()
}

/// How often the person's words are in the service's conversation.
async fn times_on_service(app: &App, text: &str) -> usize {
    client_for(&app.sim, "ada")
        .sessions()
        .context(&app.machine, 50)
        .await
        .unwrap()
        .messages
        .iter()
        .filter(|m| crate::conversations::local_time::without_local_time(m.content.trim()) == text)
        .count()
}

#[tokio::test]
async fn a_message_the_service_did_not_take_stays_with_retry_which_sends_it_once() {
    let spec = "message-500=0.5";
    let app = app_with_faults(spec, seed_refusing_one_message(spec)).await;
    let id = app.new_conversation().await;
    app.send(&id, TASK).await.expect("kept, not an error");

    let kept = app.until(&id, |c| !not_sent(c).is_empty()).await;
    assert_eq!(kept.status, TaskStatus::Idle, "{:#?}", kept.items);
    assert_eq!(users(&kept), 1, "the text stays: {:#?}", kept.items);
    assert_eq!(not_sent(&kept)[0].code, UiCode::MessageNotSent);
    assert_eq!(failures(&kept), 0, "no failed task: {:#?}", kept.items);
    assert!(kept.failure.is_none());
    assert_eq!(kept.unsent.as_ref().map(|r| r.text.as_str()), Some(TASK));
    assert!(
        !kept
            .items
            .iter()
            .any(|i| matches!(i, ThreadItem::Status { .. })),
        "'Sending again…' gave way to 'not sent': {:#?}",
        kept.items
    );
    assert_eq!(times_on_service(&app, TASK).await, 0);

    app.core.retry(&id).await.unwrap();
    let done = app.until(&id, ended).await;
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert_eq!(users(&done), 1, "not recorded twice: {:#?}", done.items);
    assert!(not_sent(&done).is_empty(), "{:#?}", done.items);
    assert!(done.unsent.is_none());
    assert_eq!(times_on_service(&app, TASK).await, 1, "sent once");
    // A second Retry (a late click) has nothing to send.
    app.core.retry(&id).await.unwrap();
    assert_eq!(times_on_service(&app, TASK).await, 1);
}

#[tokio::test]
async fn a_message_whose_answer_was_lost_is_followed_once_without_retry() {
    let app = app_with_faults("drop-message-answer=1", 0).await;
    // A new conversation: the service names the session its messages land in, so a task
    // whose start was never answered is followed there.
    let id = app.core.start_new(&app.machine).await.unwrap().id;
    app.send(&id, TASK).await.unwrap();

    let done = app.until(&id, ended).await;
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert!(not_sent(&done).is_empty(), "{:#?}", done.items);
    assert!(done.unsent.is_none(), "nothing to send again");
    assert_eq!(answers(&done).len(), 1, "{:#?}", done.items);
    assert_eq!(times_on_service(&app, TASK).await, 1, "one task");
}

#[tokio::test]
async fn a_restart_while_sending_again_shows_the_message_not_known_to_be_sent() {
    // Real backoff between sends: the app quits while the client waits to send again, not
    // after it gave up.
    let app = app_paced("message-500=1", 0, 1.0).await;
    let id = app.new_conversation().await;
    app.send(&id, TASK).await.unwrap();
    // Saved while sending again: the follower's state has no session and is not finished.
    app.until(&id, |c| {
        c.follower
            .as_ref()
            .is_some_and(|f| f.session_id.is_none() && !f.finished)
    })
    .await;
    // The app quits while the client sends again.
    app.core.connection_left();

    let told = Arc::new(Told::default());
    // The app ends: what it changed is on disk (`lib.rs` flushes at exit).
    app.core.store().flush();
    let restarted = core_in(app.dir.path(), &app.connection, &told);
    let saved = restarted.store().get(&id).unwrap();
    assert!(saved.status.is_active(), "saved while sending");
    restarted.resume(&client_for(&app.sim, "ada"), SCOPE);

    let shown = restarted.store().get(&id).unwrap();
    assert_eq!(shown.status, TaskStatus::Idle, "{:#?}", shown.items);
    assert_eq!(
        not_sent(&shown).first().map(|e| e.code),
        Some(UiCode::MessageNotKnownSent),
        "{:#?}",
        shown.items
    );
    assert_eq!(users(&shown), 1);
    assert_eq!(failures(&shown), 0);
    assert!(shown.unsent.is_some(), "Retry has what to send");
    assert!(!restarted.is_following(&id));
}
