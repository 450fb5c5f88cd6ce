//! A task whose stream breaks before it names its session, with no turn id anywhere: the app
//! follows it in the session the conversation already knows (a new conversation's answer, or
//! an earlier task's start); when it knows none, the thread says the updates were lost, never
//! that the task failed or finished, and a later catch-up shows the agent's answer.

use porthole_sim::FaultSpec;

use super::*;

const TASK: &str = "Find the weather in Lisbon";

/// The app on a simulator that cuts every stream after each frame and gives no turn id: a
/// task's first connection carries only `start`, which names nothing.
async fn cutting_app() -> App {
    let sim = Sim::start(Config {
        time_scale: SCALE,
        faults: FaultSpec::parse("drop-stream=1").unwrap(),
        seed: 5,
        turn_id_in: porthole_sim::TurnIdIn::none(),
        ..Config::default()
    })
    .await
    .expect("the simulator starts");
    let client = client_for(&sim, "ada");
    app_on(sim, client).await
}

/// The simulator's answer to the one task whose message was `text`, and its turn.
fn task_of(app: &App, text: &str) -> (String, String) {
    let db = app.sim.state().db();
    let turns: Vec<_> = db
        .turns
        .values()
        .filter(|t| crate::conversations::local_time::without_local_time(&t.message) == text)
        .collect();
    assert_eq!(turns.len(), 1, "{text:?} started one task");
    (turns[0].id.clone(), turns[0].answer.clone())
}

fn lost(c: &Conversation) -> bool {
    c.items.iter().any(|i| {
        matches!(
            i,
            ThreadItem::Notice {
                notice: Notice::UpdatesLost
            }
        )
    })
}

fn failures(c: &Conversation) -> usize {
    c.items
        .iter()
        .filter(|i| matches!(i, ThreadItem::Failure { .. }))
        .count()
}

#[tokio::test]
async fn a_stream_cut_before_it_names_its_session_is_followed_in_the_conversations_session() {
    let app = cutting_app().await;
    // A new conversation: the service's answer names its session.
    let fresh = app.core.start_new(&app.machine).await.unwrap();
    let session = fresh.session_id.clone().expect("the new session is kept");
    app.send(&fresh.id, TASK).await.unwrap();
    let done = app.until(&fresh.id, ended).await;
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert_eq!(done.session_id.as_deref(), Some(session.as_str()));
    assert_eq!(answers(&done), [task_of(&app, TASK).1.as_str()], "once");
    assert!(!lost(&done) && failures(&done) == 0, "{:#?}", done.items);

    // An earlier task's start names it: one followed over the poll (a spending cap), then one
    // over a stream that breaks.
    let app = cutting_app().await;
    let id = app.new_conversation().await;
    app.core
        .send(SendRequest {
            conversation_id: id.clone(),
            text: "Find the weather in Oslo".into(),
            cap_usd: Some(5.0),
            ..SendRequest::default()
        })
        .await
        .unwrap();
    let first = app.until(&id, ended).await;
    let session = first
        .session_id
        .clone()
        .expect("the poll names the session");
    app.send(&id, TASK).await.unwrap();
    let done = app.until(&id, |c| ended(c) && answers(c).len() == 2).await;
    assert_eq!(done.status, TaskStatus::Succeeded, "{:#?}", done.items);
    assert_eq!(done.session_id, Some(session));
    assert_eq!(answers(&done)[1], task_of(&app, TASK).1);
}

#[tokio::test]
async fn without_a_known_session_the_thread_says_the_updates_were_lost_and_catches_up_later() {
    let app = cutting_app().await;
    let id = app.new_conversation().await;
    app.send(&id, TASK).await.unwrap();
    let shown = app.until(&id, lost).await;
    assert!(
        !matches!(shown.status, TaskStatus::Failed | TaskStatus::Succeeded),
        "neither failed nor done: {:?}",
        shown.status
    );
    assert!(!shown.status.is_active(), "no longer followed");
    assert!(
        shown.updates_lost,
        "the window says it is checking, not ready"
    );
    assert_eq!(failures(&shown), 0, "{:#?}", shown.items);
    assert!(shown.failure.is_none());
    assert!(shown.unsent.is_none(), "taken: nothing to send again");
    assert!(answers(&shown).is_empty());
    let words =
        crate::words::notices::text_in(crate::words::language::Language::En, &Notice::UpdatesLost);
    assert!(
        words.contains("may still be working"),
        "the person reads that the agent may still be working: {words}"
    );

    // The agent worked on; reading the conversation again shows its answer, once.
    let (turn_id, _) = task_of(&app, TASK);
    client_for(&app.sim, "ada")
        .turns()
        .wait(&turn_id, Duration::from_secs(60))
        .await
        .unwrap();
    let (_, answer) = task_of(&app, TASK);
    assert!(!answer.is_empty());
    assert_eq!(app.core.catch_up(&id).await.unwrap(), 1);
    let caught_up = app.core.store().get(&id).unwrap();
    // The window's own task: its answer, not "answered elsewhere", and no longer "may still
    // be working".
    assert!(
        from_elsewhere(&caught_up).is_empty(),
        "{:#?}",
        caught_up.items
    );
    assert_eq!(
        answers(&caught_up),
        [answer.trim()],
        "{:#?}",
        caught_up.items
    );
    assert!(!caught_up.updates_lost);
    assert!(!lost(&caught_up), "{:#?}", caught_up.items);
    assert_eq!(app.core.catch_up(&id).await.unwrap(), 0, "shown once");
}
