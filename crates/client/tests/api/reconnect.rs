//! A lost network is not a failed task: with the network gone for minutes of the client's
//! time (refused connections, the open stream dropped), a follower says it is reconnecting,
//! keeps trying, and once the network is back follows the task to the end the simulator
//! gives it, each message and progress line once. Also for a follower resumed from saved
//! state while the network is still gone, as after an app restart.
//!
//! The network is a loopback relay in front of the simulator that forwards bytes unchanged;
//! cutting it closes its listener and drops the connections it carries.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use porthole_client::messages::MessageRequest;
use porthole_client::{Client, Credential, TaskFollower, TaskUpdate, Transport};
use porthole_sim::records::LogEntry;
use porthole_sim::RunningSim;
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::task::{AbortHandle, JoinHandle};

use crate::support::*;

/// Each step takes two scaled minutes (1.2 s here): the task is still running after the
/// outage.
const TASK: &str = "Take your time and look up the weather in Oslo";

/// 200 s of the client's time: far past the 25–40 s after which followers used to give up.
const OUTAGE: Duration = Duration::from_secs(2);

/// A guard against a follower that never comes back, not a measure of how fast it does.
const AT_MOST: Duration = Duration::from_secs(60);

/// A TCP relay on loopback that forwards bytes unchanged to the simulator.
struct Relay {
    addr: SocketAddr,
    upstream: SocketAddr,
    accepting: Option<JoinHandle<()>>,
    links: Arc<Mutex<Vec<AbortHandle>>>,
}

impl Relay {
    async fn start(sim: &RunningSim) -> Relay {
        let upstream: SocketAddr = sim
            .base_url
            .trim_start_matches("http://")
            .parse()
            .expect("the simulator listens on an address");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let mut relay = Relay {
            addr: listener.local_addr().expect("its address"),
            upstream,
            accepting: None,
            links: Arc::default(),
        };
        relay.serve(listener);
        relay
    }

    fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    fn serve(&mut self, listener: TcpListener) {
        let (links, upstream) = (self.links.clone(), self.upstream);
        self.accepting = Some(tokio::spawn(async move {
            while let Ok((mut near, _)) = listener.accept().await {
                let link = tokio::spawn(async move {
                    if let Ok(mut far) = TcpStream::connect(upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut near, &mut far).await;
                    }
                });
                links.lock().unwrap().push(link.abort_handle());
            }
        }));
    }

    /// The network goes: new connections are refused, open ones end.
    fn cut(&mut self) {
        if let Some(accepting) = self.accepting.take() {
            accepting.abort();
        }
        for link in self.links.lock().unwrap().drain(..) {
            link.abort();
        }
    }

    /// The network is back, at the same address.
    async fn restore(&mut self) {
        let socket = TcpSocket::new_v4().expect("a socket");
        socket.set_reuseaddr(true).expect("reuse the address");
        socket.bind(self.addr).expect("the relay's port again");
        self.serve(socket.listen(64).expect("listening"));
    }
}

/// A client of the simulator through the relay, with ada's key.
fn client_via(relay: &Relay, sim: &RunningSim) -> Client {
    let key = sim.account("ada").api_key.clone().expect("ada has a key");
    Client::with_config(
        &relay.url(),
        Credential::api_key(&key).expect("a well-formed key"),
        config(),
    )
    .expect("a valid base URL")
}

/// The simulator's own record of the task: its messages, its progress lines, how it ended.
fn sent_for(sim: &RunningSim, text: &str) -> (Vec<String>, Vec<String>, String) {
    let db = sim.state().db();
    let turns: Vec<_> = db.turns.values().filter(|t| t.message == text).collect();
    assert_eq!(turns.len(), 1, "{text:?} started exactly one task");
    let (mut messages, mut progress) = (Vec::new(), Vec::new());
    for entry in &turns[0].log {
        match entry {
            LogEntry::Text {
                reasoning: false,
                text,
                ..
            } => messages.push(text.clone()),
            LogEntry::Event(event) if event["type"] == "data-progress" => progress.push(
                event["data"]["text"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
            ),
            _ => {}
        }
    }
    (messages, progress, turns[0].status.as_str().to_owned())
}

/// Reads until the task shows its first progress line: it is running.
async fn until_running(follower: &mut TaskFollower) -> Vec<TaskUpdate> {
    let mut seen = Vec::new();
    while let Some(update) = follower.next().await {
        let update = update.expect("the follow goes on");
        let running = matches!(update, TaskUpdate::Progress { .. });
        seen.push(update);
        if running {
            return seen;
        }
    }
    panic!("the task ended before it showed progress: {seen:?}")
}

/// Follows to the end in the background, keeping every update and error.
fn follow_in_background(mut follower: TaskFollower) -> JoinHandle<Vec<Result<TaskUpdate, String>>> {
    tokio::spawn(async move {
        let mut out = Vec::new();
        while let Some(update) = follower.next().await {
            out.push(update.map_err(|e| format!("{e:?}")));
        }
        out
    })
}

/// Waits out the outage, checks the follower is still at it, brings the network back and
/// returns what the follower yielded until the end.
async fn outage_then_end(
    relay: &mut Relay,
    follow: JoinHandle<Vec<Result<TaskUpdate, String>>>,
) -> Vec<TaskUpdate> {
    tokio::time::sleep(OUTAGE).await;
    assert!(
        !follow.is_finished(),
        "the follow ended while the network was gone: {:?}",
        follow.await
    );
    relay.restore().await;
    let updates = tokio::time::timeout(AT_MOST, follow)
        .await
        .expect("the follow ends once the network is back")
        .expect("the follow does not panic");
    updates
        .into_iter()
        .map(|u| u.unwrap_or_else(|e| panic!("a lost network ended the follow: {e}")))
        .collect()
}

/// Checks `updates` against the simulator's record: every message and progress line once,
/// in order, and the end the simulator gave the task.
fn check_against_sim(sim: &RunningSim, updates: &[TaskUpdate]) {
    let (messages, progress, status) = sent_for(sim, TASK);
    let shown = |pick: fn(&TaskUpdate) -> Option<String>| -> Vec<String> {
        updates.iter().filter_map(pick).collect()
    };
    let shown_messages = shown(|u| match u {
        TaskUpdate::Message { text, .. } => Some(text.clone()),
        _ => None,
    });
    let shown_progress = shown(|u| match u {
        TaskUpdate::Progress { text, .. } => Some(text.clone()),
        _ => None,
    });
    assert!(!messages.is_empty() && !progress.is_empty());
    assert_eq!(shown_messages, messages, "each message once");
    assert_eq!(shown_progress, progress, "each progress line once");
    assert_eq!(status, "succeeded");
    match updates.last() {
        Some(TaskUpdate::Finished {
            succeeded: true,
            text,
            ..
        }) => assert_eq!(text, &messages.join("\n\n"), "the task's answer"),
        other => panic!("the follow ends with the task's success, not {other:?}"),
    }
}

fn reconnects(updates: &[TaskUpdate]) -> usize {
    updates
        .iter()
        .filter(|u| matches!(u, TaskUpdate::Reconnecting { .. }))
        .count()
}

#[tokio::test]
async fn a_follow_outlives_minutes_without_network_and_ends_as_the_service_says() {
    let sim = sim().await;
    let mut relay = Relay::start(&sim).await;
    let client = client_via(&relay, &sim);
    let machine = machine(&client, "Design laptop").await;
    let mut follower = TaskFollower::start(
        &client,
        &MessageRequest::new(TASK, &machine),
        Transport::Stream,
    )
    .await
    .expect("the task starts");
    let mut updates = until_running(&mut follower).await;

    relay.cut();
    let rest = outage_then_end(&mut relay, follow_in_background(follower)).await;
    assert_eq!(reconnects(&rest), 1, "said once per outage: {rest:?}");
    updates.extend(rest);
    check_against_sim(&sim, &updates);
}

#[tokio::test]
async fn a_follower_resumed_while_the_network_is_gone_waits_for_it_and_ends() {
    let sim = sim().await;
    let mut relay = Relay::start(&sim).await;
    let client = client_via(&relay, &sim);
    let machine = machine(&client, "Design laptop").await;
    let mut follower = TaskFollower::start(
        &client,
        &MessageRequest::new(TASK, &machine),
        Transport::Stream,
    )
    .await
    .expect("the task starts");
    let mut updates = until_running(&mut follower).await;
    let saved = follower.state();

    // The app stops with the network gone and starts again, still without it.
    relay.cut();
    drop(follower);
    let restarted = client_via(&relay, &sim);
    let resumed = TaskFollower::resume(&restarted, saved);
    let rest = outage_then_end(&mut relay, follow_in_background(resumed)).await;
    assert_eq!(reconnects(&rest), 1, "said once per outage: {rest:?}");
    updates.extend(rest);
    check_against_sim(&sim, &updates);
}
