//! The app of the flow tests: a [`Conversations`] over a temporary data folder and the
//! simulator, a collecting [`Notify`], and the waits and readings the tests share.
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use porthole_client::approvals::ApprovalRequest;
use porthole_client::{Client, ClientConfig, Credential};
use porthole_sim::{Config, RunningSim, Sim, TurnIdIn};
use tokio::sync::watch;

use super::model::Speaker;
use super::*;
use crate::connection::Connection;
use crate::conversations::usage::UsageStore;
use crate::persist::ConversationStore;

pub(super) const SCALE: f64 = 0.01;
pub(super) const SCOPE: &str = "demo";

/// What the window would have been told.
#[derive(Default)]
pub(super) struct Told {
    /// Conversation id and whether its row in the list changed, in order.
    pub(super) changed: Mutex<Vec<(String, bool)>>,
    /// Conversations the window was shown as "Stopping…", in order.
    pub(super) stopping: Mutex<Vec<String>>,
    /// Titles of the cards the person was asked to answer.
    pub(super) asked: Mutex<Vec<String>>,
    pub(super) starting: Mutex<Vec<String>>,
    pub(super) machines_changed: Mutex<usize>,
    /// The questions asked near a cap, in the words of the notification.
    pub(super) near_cap: Mutex<Vec<String>>,
    pub(super) tick: watch::Sender<u64>,
}

impl Notify for Told {
    fn conversation_changed(&self, conversation: &Conversation, listed: bool) {
        let mut changed = self.changed.lock().unwrap();
        changed.push((conversation.id.clone(), listed));
        if conversation.stopping {
            self.stopping.lock().unwrap().push(conversation.id.clone());
        }
        self.tick.send_modify(|t| *t += 1);
    }
    fn needs_answer(&self, _: &Conversation, approval: &ApprovalRequest) {
        self.asked.lock().unwrap().push(approval.title.clone());
    }
    fn machine_starting(&self, machine_id: &str) {
        self.starting.lock().unwrap().push(machine_id.to_owned());
    }
    fn machines_changed(&self) {
        *self.machines_changed.lock().unwrap() += 1;
    }
    fn near_cap(&self, _: &Conversation, question: &CapQuestion) {
        let words = crate::words::window::near_cap_question(question);
        self.near_cap.lock().unwrap().push(words);
    }
}

pub(super) struct App {
    pub(super) sim: RunningSim,
    pub(super) dir: tempfile::TempDir,
    pub(super) connection: Connection,
    pub(super) told: Arc<Told>,
    pub(super) core: Conversations,
    pub(super) machine: String,
}

pub(super) async fn sim_with(turn_id_in: &str) -> RunningSim {
    Sim::start(Config {
        time_scale: SCALE,
        turn_id_in: TurnIdIn::parse(turn_id_in).expect("a placement"),
        ..Config::default()
    })
    .await
    .expect("the simulator starts")
}

pub(super) fn client_for(sim: &RunningSim, account: &str) -> Client {
    paced_client_for(sim, account, SCALE)
}

/// A client of `account` waiting `client_scale` of the real backoff between tries.
pub(super) fn paced_client_for(sim: &RunningSim, account: &str, client_scale: f64) -> Client {
    let key = sim.account(account).api_key.clone().expect("a key");
    Client::with_config(
        &sim.base_url,
        Credential::api_key(&key).unwrap(),
        ClientConfig::time_scaled(client_scale),
    )
    .unwrap()
}

/// The core as the app builds it at start, over the data folder `dir`.
pub(super) fn core_in(dir: &Path, connection: &Connection, told: &Arc<Told>) -> Conversations {
    Conversations::new(
        connection.clone(),
        ConversationStore::open_in(dir).unwrap(),
        UsageStore::open_in(dir).unwrap(),
        told.clone(),
    )
}

pub(super) async fn app() -> App {
    app_with("message,start,poll").await
}

/// The app connected to the simulator as ada, her awake "Design laptop" chosen.
pub(super) async fn app_with(turn_id_in: &str) -> App {
    let sim = sim_with(turn_id_in).await;
    let client = client_for(&sim, "ada");
    app_on(sim, client).await
}

/// The app on `sim`, connected with `client` (ada's), her awake "Design laptop" chosen.
pub(super) async fn app_on(sim: RunningSim, client: Client) -> App {
    let dir = tempfile::tempdir().unwrap();
    let connection = Connection::default();
    connection.activate(client.clone(), SCOPE.into());
    let told = Arc::new(Told::default());
    let core = core_in(dir.path(), &connection, &told);
    let machine = client
        .machines()
        .list()
        .await
        .unwrap()
        .machines
        .into_iter()
        .find(|m| m.name.as_deref() == Some("Design laptop"))
        .expect("ada's awake computer")
        .machine_id;
    App {
        sim,
        dir,
        connection,
        told,
        core,
        machine,
    }
}

impl App {
    pub(super) async fn new_conversation(&self) -> String {
        self.core.create(&self.machine).await.unwrap().id
    }

    pub(super) async fn send(&self, id: &str, text: &str) -> AppResult<()> {
        self.core
            .send(SendRequest {
                conversation_id: id.into(),
                text: text.into(),
                ..SendRequest::default()
            })
            .await
    }

    /// Sends `text` and waits until its task runs in a session the stream named: what Stop
    /// then stops by session.
    pub(super) async fn running_in_its_session(&self, id: &str, text: &str) -> Conversation {
        self.send(id, text).await.unwrap();
        self.until(id, |c| {
            c.status.is_active() && c.follower.as_ref().is_some_and(|f| f.session_id.is_some())
        })
        .await
    }

    /// Asserts the service ended turn `turn_id` as a stopped task ends: not as a success.
    pub(super) async fn assert_turn_stopped_on_service(&self, turn_id: &str) {
        let turn = client_for(&self.sim, "ada")
            .turns()
            .wait(turn_id, Duration::from_secs(60))
            .await
            .unwrap();
        assert_eq!(
            turn.status,
            porthole_client::turns::TurnStatus::Failed,
            "{turn:?}"
        );
    }

    /// The saved conversation once `done` holds for it.
    pub(super) async fn until(
        &self,
        id: &str,
        done: impl Fn(&Conversation) -> bool,
    ) -> Conversation {
        until(&self.core, &self.told, id, done).await
    }
}

pub(super) async fn until(
    core: &Conversations,
    told: &Told,
    id: &str,
    done: impl Fn(&Conversation) -> bool,
) -> Conversation {
    let mut changes = told.tick.subscribe();
    let wait = async {
        loop {
            let conversation = core.store().get(id).unwrap();
            if done(&conversation) {
                // What the window was told of it too (it is told once a change is saved).
                core.store().flush();
                return conversation;
            }
            changes.changed().await.unwrap();
        }
    };
    match tokio::time::timeout(Duration::from_secs(60), wait).await {
        Ok(conversation) => conversation,
        Err(_) => panic!("never reached: {:#?}", core.store().get(id).unwrap().items),
    }
}

pub(super) fn ended(c: &Conversation) -> bool {
    matches!(
        c.status,
        TaskStatus::Succeeded | TaskStatus::Failed | TaskStatus::Stopped
    )
}

pub(super) fn waiting(c: &Conversation) -> bool {
    c.status == TaskStatus::NeedsApproval
}

pub(super) fn answers(c: &Conversation) -> Vec<&str> {
    c.items
        .iter()
        .filter_map(|i| match i {
            ThreadItem::Answer { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// Porthole's own lines in the thread, in the words the person reads.
pub(super) fn notices(c: &Conversation) -> Vec<String> {
    c.items
        .iter()
        .filter_map(|i| match i {
            ThreadItem::Notice { notice } => Some(crate::words::notices::text(notice)),
            _ => None,
        })
        .collect()
}

pub(super) fn from_elsewhere(c: &Conversation) -> Vec<(Speaker, &str)> {
    c.items
        .iter()
        .filter_map(|i| match i {
            ThreadItem::Elsewhere { by, text } => Some((*by, text.as_str())),
            _ => None,
        })
        .collect()
}
