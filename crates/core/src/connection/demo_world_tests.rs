//! The Demo remembers: its world kept in the data folder comes back after a restart (the same
//! computers, the conversation on each goes on), a damaged file is moved aside and the Demo
//! starts fresh, and a reset starts it fresh on purpose. Against the real in-process Demo.

use porthole_client::messages::{MessageOutcome, MessageRequest};
use porthole_client::Client;

use super::*;
use crate::connection::demo_world::FILE;

async fn client_of(demo: &DemoService) -> Client {
    let endpoint = demo.endpoint().await.expect("the Demo starts");
    Client::with_config(&endpoint.base_url, endpoint.credential, endpoint.config).unwrap()
}

/// Each computer's name and id, in the list's order.
async fn computers(client: &Client) -> Vec<(String, String)> {
    let list = client.machines().list().await.expect("the computers");
    list.machines
        .into_iter()
        .map(|m| (m.name.unwrap_or_default(), m.machine_id))
        .collect()
}

fn id_of(computers: &[(String, String)], name: &str) -> String {
    let found = computers.iter().find(|(n, _)| n == name);
    found.expect("the computer is listed").1.clone()
}

async fn send(client: &Client, machine_id: &str, words: &str) -> String {
    let sent = client
        .messages()
        .send(&MessageRequest::new(words, machine_id))
        .await
        .expect("the task is taken");
    match sent {
        MessageOutcome::Started(started) => started.session_id,
        MessageOutcome::Reply { text } => panic!("a task, not a reply: {text}"),
    }
}

async fn said(client: &Client, machine_id: &str) -> Vec<String> {
    let context = client.sessions().context(machine_id, 20).await.unwrap();
    context.messages.into_iter().map(|m| m.content).collect()
}

#[tokio::test]
async fn after_a_restart_the_demo_has_the_same_computers_and_the_conversation_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let first = DemoService::keeping_in(dir.path());
    let client = client_of(&first).await;
    let before = computers(&client).await;
    let laptop = id_of(&before, "Design laptop");
    let session = send(&client, &laptop, "Check the weather in Oslo").await;
    first.close().await;
    assert!(dir.path().join(FILE).exists(), "the world is kept");

    let second = DemoService::keeping_in(dir.path());
    assert!(second.set_aside().is_none());
    let client = client_of(&second).await;
    assert_eq!(
        computers(&client).await,
        before,
        "the same computers, same ids"
    );
    assert_eq!(
        said(&client, &laptop).await,
        ["Check the weather in Oslo"],
        "the conversation is still on the service"
    );
    let next = send(&client, &laptop, "And in Rome?").await;
    assert_eq!(
        next, session,
        "the next task continues the same conversation"
    );
    second.close().await;
}

#[tokio::test]
async fn a_damaged_world_is_moved_aside_untouched_and_the_demo_starts_fresh() {
    let dir = tempfile::tempdir().unwrap();
    let damaged = b"{\"version\": 1, \"world\": {\"machines\": [{\"id\": ".to_vec();
    std::fs::write(dir.path().join(FILE), &damaged).unwrap();

    let demo = DemoService::keeping_in(dir.path());
    let aside = demo
        .set_aside()
        .expect("the damaged file is reported")
        .clone();
    assert_eq!(
        std::fs::read(&aside.moved_to).unwrap(),
        damaged,
        "untouched"
    );
    let words = crate::words::stored::set_aside(crate::words::stored::Stored::Demo, &aside);
    assert!(words.title.contains("Demo"), "{}", words.title);
    assert!(words.detail.contains("started fresh"), "{}", words.detail);

    let client = client_of(&demo).await;
    let fresh = computers(&client).await;
    assert!(fresh.iter().any(|(n, _)| n == "Design laptop"), "{fresh:?}");
    demo.close().await;
    let again = DemoService::keeping_in(dir.path());
    assert!(again.set_aside().is_none(), "the fresh world is kept now");
    assert_eq!(computers(&client_of(&again).await).await, fresh);
    again.close().await;
}

#[tokio::test]
async fn a_reset_demo_starts_fresh_and_keeps_the_fresh_world() {
    let dir = tempfile::tempdir().unwrap();
    let demo = DemoService::keeping_in(dir.path());
    let client = client_of(&demo).await;
    let before = computers(&client).await;
    let laptop = id_of(&before, "Design laptop");
    send(&client, &laptop, "Check the weather in Oslo").await;

    demo.reset().await.unwrap();
    let client = client_of(&demo).await;
    let after = computers(&client).await;
    let names = |c: &[(String, String)]| c.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(
        names(&after),
        names(&before),
        "the same computers come back"
    );
    let fresh_laptop = id_of(&after, "Design laptop");
    assert_ne!(fresh_laptop, laptop, "fresh, with new ids");
    assert!(
        said(&client, &fresh_laptop).await.is_empty(),
        "nothing said yet"
    );
    demo.close().await;

    let again = DemoService::keeping_in(dir.path());
    assert_eq!(
        computers(&client_of(&again).await).await,
        after,
        "the fresh world is the one kept"
    );
    again.close().await;
}
