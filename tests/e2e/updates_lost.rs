//! A task whose stream breaks before it names its session, in a conversation that knows none:
//! the thread says the live updates were lost and the agent may still be working, the chip
//! never says failed or done, and opening the conversation again shows the agent's answer as
//! the task's own.
//! The simulator cuts every stream after each frame and gives no turn id, so the first
//! connection of the task carries only `start`, which names nothing.

use std::time::{Duration, Instant};

use porthole_client::{Client, ClientConfig, Credential};
use porthole_e2e::App;
use porthole_sim::{FaultSpec, TurnIdIn};

use crate::flows::{
    open_on, own_demo_with, select_machine, send_task, thread_texts, wait_for_status,
};

const TASK: &str = "Find the weather in Lisbon";
const SCALE: f64 = 0.02;

/// The thread's lines of `kind` once one of them says `words`.
async fn until_said(app: &App, kind: &str, words: &str) -> Vec<String> {
    let start = Instant::now();
    loop {
        let texts = thread_texts(app, kind).await.unwrap();
        if texts.iter().any(|t| t.contains(words)) {
            return texts;
        }
        assert!(
            start.elapsed() < Duration::from_secs(90),
            "no {kind} line says {words:?}: {texts:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_task_whose_updates_were_lost_is_not_called_failed_and_its_answer_shows_later() {
    let (sim, env) = own_demo_with(porthole_sim::Config {
        time_scale: SCALE,
        faults: FaultSpec::parse("drop-stream=1").unwrap(),
        turn_id_in: TurnIdIn::none(),
        ..porthole_sim::Config::default()
    })
    .await;
    let app = open_on(env, "Design laptop").await;
    send_task(&app, TASK).await.expect("send");

    let notices = until_said(&app, "notice", "may still be working").await;
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(wait_for_status(&app, &["idle"]).await.unwrap(), "idle");
    assert!(thread_texts(&app, "failure").await.unwrap().is_empty());
    assert!(thread_texts(&app, "notSent").await.unwrap().is_empty());
    app.screenshot("updates-lost").await.expect("screenshot");

    // The agent worked on. Opening the conversation again reads it from the service.
    let turn_id = {
        let db = sim.state().db();
        let turn = db
            .turns
            .values()
            .find(|t| {
                t.message
                    .split("\n\n[Sent at the person's local time: ")
                    .next()
                    == Some(TASK)
            })
            .unwrap();
        turn.id.clone()
    };
    let key = sim.account("ada").api_key.clone().expect("a key");
    let client = Client::with_config(
        &sim.base_url,
        Credential::api_key(&key).unwrap(),
        ClientConfig::time_scaled(SCALE),
    )
    .unwrap();
    client
        .turns()
        .wait(&turn_id, Duration::from_secs(90))
        .await
        .expect("the task ends on the service");
    select_machine(&app, "Ada's MacBook").await.expect("other");
    select_machine(&app, "Design laptop")
        .await
        .expect("machine");
    // This window's own task: its answer, never "answered elsewhere".
    let answers = until_said(&app, "answer", "Lisbon").await;
    assert_eq!(answers.len(), 1, "the answer once: {answers:?}");
    assert!(thread_texts(&app, "elsewhere").await.unwrap().is_empty());
    assert_eq!(wait_for_status(&app, &["idle"]).await.unwrap(), "idle");
    app.screenshot("updates-lost-caught-up")
        .await
        .expect("screenshot");
    app.quit().await;
    sim.shutdown().await;
}
