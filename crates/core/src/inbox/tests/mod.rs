//! The inbox derived from the app's own state, against the simulator over real sockets: a
//! card waiting on each of two computers is two items, answering one (as its task does)
//! takes it away; a failed task is an item until put away; a computer that cannot be woken
//! and a connection that needs signing in are items. Waits are for a state of the saved
//! conversations, never for a length of time.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use porthole_client::approvals::{Answer, ApprovalRequest};
use porthole_client::{Client, ClientConfig, Credential};
use porthole_sim::{Config, RunningSim, Sim};
use tokio::sync::watch;

use super::*;
use crate::connection::{ConnectionMode, ConnectionState};
use crate::conversations::usage::UsageStore;
use crate::conversations::{Notify, SendRequest};
use crate::persist::ConversationStore;

const SCALE: f64 = 0.01;

/// Wakes the test on every change of a conversation, as the window would be told.
#[derive(Default)]
struct Ticks(watch::Sender<u64>, std::sync::Mutex<Vec<Conversation>>);

impl Notify for Ticks {
    fn conversation_changed(&self, conversation: &Conversation, _: bool) {
        self.1.lock().unwrap().push(conversation.clone());
        self.0.send_modify(|t| *t += 1);
    }
    fn needs_answer(&self, _: &Conversation, _: &ApprovalRequest) {}
    fn machine_starting(&self, _: &str) {}
    fn machines_changed(&self) {}
}

struct App {
    _sim: RunningSim,
    _dir: tempfile::TempDir,
    client: Client,
    connection: Connection,
    ticks: Arc<Ticks>,
    core: Conversations,
    inbox: Inbox,
}

async fn app() -> App {
    let sim = Sim::start(Config {
        time_scale: SCALE,
        ..Config::default()
    })
    .await
    .expect("the simulator starts");
    let key = sim.account("ada").api_key.clone().expect("a key");
    let client = Client::with_config(
        &sim.base_url,
        Credential::api_key(&key).unwrap(),
        ClientConfig::time_scaled(SCALE),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let connection = Connection::default();
    connection.activate(client.clone(), "demo".into());
    let mut info = connection.info();
    info.state = ConnectionState::Ready;
    connection.set_info(info);
    let ticks = Arc::new(Ticks::default());
    let core = Conversations::new(
        connection.clone(),
        ConversationStore::open_in(dir.path()).unwrap(),
        UsageStore::open_in(dir.path()).unwrap(),
        ticks.clone(),
    );
    let inbox = Inbox::open_in(dir.path());
    App {
        _sim: sim,
        _dir: dir,
        client,
        connection,
        ticks,
        core,
        inbox,
    }
}

impl App {
    /// The machine list read as the sidebar reads it, handed to the inbox.
    async fn read_machines(&self) -> Vec<MachineRow> {
        let list = self.client.machines().list().await.unwrap();
        let rows: Vec<MachineRow> = list
            .machines
            .iter()
            .map(|m| crate::machines::row(m, None))
            .collect();
        self.inbox.machines_read(&rows);
        rows
    }

    fn machine(&self, rows: &[MachineRow], name: &str) -> String {
        rows.iter()
            .find(|r| r.name == name)
            .unwrap_or_else(|| panic!("ada has {name}"))
            .machine_id
            .clone()
    }

    /// Sends `text` to the current conversation of `machine_id`; its id.
    async fn send(&self, machine_id: &str, text: &str) -> String {
        let id = self.core.current(machine_id).await.unwrap().id;
        self.core
            .send(SendRequest {
                conversation_id: id.clone(),
                text: text.into(),
                ..SendRequest::default()
            })
            .await
            .unwrap();
        id
    }

    fn view(&self) -> InboxView {
        self.inbox.view(&self.core, &self.connection)
    }

    /// The inbox once `done` holds for it.
    async fn until(&self, done: impl Fn(&InboxView) -> bool) -> InboxView {
        let mut changes = self.ticks.0.subscribe();
        let wait = async {
            loop {
                let view = self.view();
                if done(&view) {
                    return view;
                }
                changes.changed().await.unwrap();
            }
        };
        match tokio::time::timeout(Duration::from_secs(90), wait).await {
            Ok(view) => view,
            Err(_) => panic!("never reached: {:#?}", self.view()),
        }
    }
}

/// A running task's lines change nothing the inbox shows, so they derive nothing over all the
/// conversations; its start, its end and its title do (security review N14). Each change the
/// window was told is handed to the inbox as `inbox::window::refresh_for` hands it.
#[tokio::test]
async fn a_running_tasks_lines_derive_nothing_only_what_the_inbox_shows_does() {
    let app = app().await;
    let rows = app.read_machines().await;
    let laptop = app.machine(&rows, "Design laptop");
    let id = app
        .send(&laptop, "Take your time and find the weather in Oslo")
        .await;
    let mut changes = app.ticks.0.subscribe();
    let ended = async {
        while app.core.store().get(&id).unwrap().status != TaskStatus::Succeeded {
            changes.changed().await.unwrap();
        }
    };
    tokio::time::timeout(Duration::from_secs(90), ended)
        .await
        .expect("the task ends");

    let told = app.ticks.1.lock().unwrap().clone();
    let fresh = tempfile::tempdir().unwrap();
    let inbox = Inbox::open_in(fresh.path());
    let turn = |c: &Conversation| c.follower.as_ref().and_then(|f| f.turn_id.clone());
    let (mut lines, mut moves) = (0, 0);
    let mut before: Option<&Conversation> = None;
    for now in told.iter().filter(|c| c.id == id) {
        let derives = inbox.shows_change_of(now);
        if let Some(b) = before {
            let same_face = b.title == now.title
                && b.status == now.status
                && b.pending_approval == now.pending_approval
                && b.failure == now.failure
                && turn(b) == turn(now);
            if same_face && now.items.len() > b.items.len() {
                lines += 1;
                assert!(!derives, "a line derived the inbox: {:?}", now.items.last());
            }
            if b.status != now.status {
                moves += 1;
                assert!(derives, "{:?} -> {:?} did not", b.status, now.status);
            }
        }
        before = Some(now);
    }
    assert!(lines >= 2, "the task streamed lines while it ran: {lines}");
    assert!(moves >= 1, "the task's status moved: {moves}");
}

pub(super) fn of_kind(view: &InboxView, kind: InboxKind) -> Vec<&InboxItem> {
    view.items.iter().filter(|i| i.kind == kind).collect()
}

mod cards;
mod standing;
