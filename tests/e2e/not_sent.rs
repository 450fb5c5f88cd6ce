//! A message the service did not take stays in the thread marked "Not sent" with Retry, and
//! Retry starts the task. The simulator refuses messages at a seeded rate: the seed is found
//! with the simulator's own draws so that it refuses the client's four sends and takes the
//! next, so Retry meets a service that takes it, with no test-only switch in the app.

use porthole_e2e::Eventually;
use porthole_sim::faults::{Fault, FaultSpec, Faults};

use crate::flows::{open_on, own_demo_with, send_task, thread_texts, wait_for_status};

pub(crate) const FAULTS: &str = "message-500=0.5";
/// The sends the client makes before it gives up on a message.
const SENDS: usize = 4;

pub(crate) fn seed_refusing_one_message() -> u64 {
    let spec = FaultSpec::parse(FAULTS).unwrap();
    (0..10_000)
        .find(|seed| {
            let faults = Faults::new(spec.clone(), *seed);
            let draws: Vec<bool> = (0..=SENDS)
                .map(|_| faults.roll(Fault::Message500))
                .collect();
            draws[..SENDS].iter().all(|refused| *refused) && !draws[SENDS]
        })
        .expect("a seed")
}

#[tokio::test]
#[ignore = "needs the built app and a display: run scripts/e2e.sh"]
async fn a_message_not_sent_stays_with_retry_which_starts_the_task() {
    let (sim, env) = own_demo_with(porthole_sim::Config {
        time_scale: 0.02,
        faults: FaultSpec::parse(FAULTS).unwrap(),
        seed: seed_refusing_one_message(),
        ..porthole_sim::Config::default()
    })
    .await;
    let app = open_on(env, "Design laptop").await;
    send_task(&app, "Find the weather in Lisbon")
        .await
        .expect("send");

    let wait = Eventually::new(&app.driver);
    let line = wait
        .text("retry-send", |t| t.contains("Retry"))
        .await
        .expect("Retry is offered");
    assert_eq!(line.trim(), "Retry");
    let not_sent = thread_texts(&app, "notSent").await.unwrap();
    assert_eq!(not_sent.len(), 1, "{not_sent:?}");
    assert!(not_sent[0].contains("Not sent"), "{not_sent:?}");
    let users = thread_texts(&app, "user").await.unwrap();
    assert_eq!(users.len(), 1, "{users:?}");
    assert_eq!(
        users[0].trim(),
        "Find the weather in Lisbon",
        "the words stay"
    );
    assert!(thread_texts(&app, "failure").await.unwrap().is_empty());
    assert_eq!(wait_for_status(&app, &["idle"]).await.unwrap(), "idle");
    app.screenshot("not-sent-with-retry")
        .await
        .expect("screenshot");

    wait.element("retry-send")
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(
        wait_for_status(&app, &["succeeded", "failed"])
            .await
            .unwrap(),
        "succeeded"
    );
    assert!(thread_texts(&app, "notSent").await.unwrap().is_empty());
    assert_eq!(
        thread_texts(&app, "user").await.unwrap().len(),
        1,
        "not twice"
    );
    app.screenshot("not-sent-retried")
        .await
        .expect("screenshot");
    app.quit().await;
    sim.shutdown().await;
}
