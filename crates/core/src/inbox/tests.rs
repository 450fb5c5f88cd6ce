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

fn of_kind(view: &InboxView, kind: InboxKind) -> Vec<&InboxItem> {
    view.items.iter().filter(|i| i.kind == kind).collect()
}

#[tokio::test]
async fn a_card_on_each_of_two_computers_is_two_items_and_answering_one_takes_it_away() {
    let app = app().await;
    let rows = app.read_machines().await;
    let laptop = app.machine(&rows, "Design laptop");
    let research = app.machine(&rows, "Research box");
    let on_laptop = app.send(&laptop, "Delete the old screenshots").await;
    let on_research = app.send(&research, "Send the report by email").await;

    let both = app.until(|v| of_kind(v, InboxKind::Card).len() == 2).await;
    let cards = of_kind(&both, InboxKind::Card);
    let laptop_card = cards
        .iter()
        .find(|i| i.conversation_id.as_deref() == Some(on_laptop.as_str()))
        .expect("the laptop's card");
    assert_eq!(laptop_card.machine_name.as_deref(), Some("Design laptop"));
    assert_eq!(laptop_card.title, "Delete the old screenshots");
    let approval = laptop_card.approval.clone().expect("the card to answer");
    assert!(approval.expires_at.is_some(), "its countdown comes along");
    assert!(cards.iter().any(
        |i| i.conversation_id.as_deref() == Some(on_research.as_str())
            && i.machine_name.as_deref() == Some("Research box")
    ));
    assert_eq!(both.count as usize, both.items.len());

    // The inbox answers as the task does: the same call, by the card's id.
    app.core
        .answer(&on_laptop, &approval.approval_id, Answer::Yes)
        .await
        .unwrap();
    let one = app.view();
    let left = of_kind(&one, InboxKind::Card);
    assert_eq!(left.len(), 1, "{one:#?}");
    assert_eq!(
        left[0].conversation_id.as_deref(),
        Some(on_research.as_str())
    );
}

/// Issue 31 §1: a delete in Documents asked by a later task that named Downloads is headed
/// by that task (not the conversation's first) and carries the warning, the same card the
/// thread shows, and still after a restart reads the conversations back from disk.
#[tokio::test]
async fn a_card_is_headed_and_read_by_the_task_that_asks_not_the_first() {
    let app = app().await;
    let rows = app.read_machines().await;
    let laptop = app.machine(&rows, "Design laptop");
    let id = app.send(&laptop, "Look up the weather in Paris").await;
    let done = async {
        let mut changes = app.ticks.0.subscribe();
        while app.core.store().get(&id).unwrap().status != TaskStatus::Succeeded {
            changes.changed().await.unwrap();
        }
    };
    tokio::time::timeout(Duration::from_secs(90), done)
        .await
        .expect("the weather task ends");
    app.send(&laptop, "Delete the old files in Downloads").await;

    let view = app.until(|v| !of_kind(v, InboxKind::Card).is_empty()).await;
    let item = of_kind(&view, InboxKind::Card)[0].clone();
    assert_eq!(item.title, "Delete the old files in Downloads");
    let card = item.approval.expect("the card");
    assert_eq!(card.task, "Delete the old files in Downloads");
    let named = card
        .reading
        .mismatch
        .clone()
        .expect("Not the place you named");
    assert_eq!(
        named.iter().map(|p| p.known).collect::<Vec<_>>(),
        [Some(porthole_client::card_reading::KnownPlace::Downloads)]
    );
    let conversation = app.core.store().get(&id).unwrap();
    assert_eq!(conversation.title, "Look up the weather in Paris");
    assert_eq!(
        conversation.pending_approval.as_ref(),
        Some(&card),
        "the thread's card and the inbox's are one and the same"
    );

    // Read back from disk, as after a restart: the same card, warning included.
    let reopened = ConversationStore::open_in(app._dir.path()).unwrap();
    let saved = reopened.get(&id).unwrap();
    assert_eq!(saved.pending_approval, Some(card));
}

#[tokio::test]
async fn a_card_is_headed_by_the_task_that_asks_not_the_conversations_first() {
    let app = app().await;
    let rows = app.read_machines().await;
    let laptop = app.machine(&rows, "Design laptop");
    let id = app.send(&laptop, "Look up the weather in Paris").await;
    let mut changes = app.ticks.0.subscribe();
    let first_done = async {
        while app.core.current(&laptop).await.unwrap().status != TaskStatus::Succeeded {
            changes.changed().await.unwrap();
        }
    };
    tokio::time::timeout(Duration::from_secs(90), first_done)
        .await
        .expect("the look-up finishes");
    assert_eq!(app.send(&laptop, "Delete the old screenshots").await, id);
    let view = app.until(|v| !of_kind(v, InboxKind::Card).is_empty()).await;
    let card = of_kind(&view, InboxKind::Card)[0];
    assert_eq!(card.conversation_id.as_deref(), Some(id.as_str()));
    assert_eq!(
        card.title, "Delete the old screenshots",
        "the deletion asks, not the weather look-up the conversation began with"
    );
}

#[tokio::test]
async fn a_link_only_card_is_an_item_of_its_own_kind() {
    let app = app().await;
    let rows = app.read_machines().await;
    let laptop = app.machine(&rows, "Design laptop");
    app.send(&laptop, "Buy a new keyboard").await;
    let view = app
        .until(|v| !of_kind(v, InboxKind::LinkOnly).is_empty())
        .await;
    let item = of_kind(&view, InboxKind::LinkOnly)[0];
    assert!(item.approval.as_ref().is_some_and(|a| a.is_link_only));
}

#[tokio::test]
async fn a_failed_task_is_an_item_until_put_away_and_a_new_failure_is_news_again() {
    let app = app().await;
    let rows = app.read_machines().await;
    let laptop = app.machine(&rows, "Design laptop");
    let id = app.send(&laptop, "Open the file and fail").await;
    let view = app
        .until(|v| !of_kind(v, InboxKind::TaskFailed).is_empty())
        .await;
    let failed = of_kind(&view, InboxKind::TaskFailed)[0].clone();
    assert_eq!(failed.conversation_id.as_deref(), Some(id.as_str()));
    assert!(failed.error.is_some(), "why, in words");

    // Cards are not put away by a dismissal; a failure is.
    app.inbox.dismiss("card:anything");
    app.inbox.dismiss(&failed.key);
    assert!(of_kind(&app.view(), InboxKind::TaskFailed).is_empty());
    // Put away stays put away after a restart: the same failure is not news again.
    let restarted = Inbox::open_in(app._dir.path());
    let view = restarted.view(&app.core, &app.connection);
    assert!(
        of_kind(&view, InboxKind::TaskFailed).is_empty(),
        "{view:#?}"
    );

    app.send(&laptop, "Try again and fail").await;
    let again = app
        .until(|v| {
            of_kind(v, InboxKind::TaskFailed)
                .first()
                .is_some_and(|i| i.key != failed.key)
        })
        .await;
    assert_eq!(of_kind(&again, InboxKind::TaskFailed).len(), 1);
    let view = restarted.view(&app.core, &app.connection);
    assert_eq!(of_kind(&view, InboxKind::TaskFailed).len(), 1, "{view:#?}");
}

#[tokio::test]
async fn a_computer_that_cannot_be_woken_needs_the_person_once_they_want_it() {
    let app = app().await;
    let rows = app.read_machines().await;
    // A first start asks nothing of the person: the asleep computer's row says it can't be
    // woken from here, and nobody has tried.
    let view = app.view();
    assert!(
        of_kind(&view, InboxKind::CannotWake).is_empty(),
        "{view:#?}"
    );

    // Once it is given a task, it needs the person.
    let archive = app.machine(&rows, "Studio archive");
    app.send(&archive, "Look up the weather in Paris").await;
    let view = app
        .until(|v| !of_kind(v, InboxKind::CannotWake).is_empty())
        .await;
    let asleep = of_kind(&view, InboxKind::CannotWake);
    assert_eq!(asleep[0].machine_name.as_deref(), Some("Studio archive"));
}

#[tokio::test]
async fn a_refused_wake_is_an_item_until_put_away() {
    let app = app().await;
    let rows = app.read_machines().await;

    // Waking it is refused by the service: the refusal's words are the item's.
    let archive = app.machine(&rows, "Studio archive");
    let refused = crate::machines::waking::ask_to_wake(&app.client, &archive)
        .await
        .expect_err("it never wakes");
    app.inbox
        .wake_result(&archive, Some(crate::error::UiError::from(&refused)));
    let view = app.view();
    let items = of_kind(&view, InboxKind::CannotWake);
    assert_eq!(items.len(), 1, "one item per computer");
    assert_eq!(items[0].error, Some(crate::error::UiError::from(&refused)));

    app.inbox.dismiss(&items[0].key);
    assert!(of_kind(&app.view(), InboxKind::CannotWake).is_empty());
    // Kept across a restart, until waking it is tried again.
    let restarted = Inbox::open_in(app._dir.path());
    restarted.machines_read(&rows);
    let view = restarted.view(&app.core, &app.connection);
    assert!(
        of_kind(&view, InboxKind::CannotWake).is_empty(),
        "{view:#?}"
    );
    restarted.wake_result(&archive, Some(crate::error::UiError::from(&refused)));
    let view = &restarted;
    assert_eq!(
        of_kind(
            &view.view(&app.core, &app.connection),
            InboxKind::CannotWake
        )
        .len(),
        1,
        "a new wake tried brings it back"
    );
    // Switching away forgets the computers of the connection left.
    app.inbox.connection_left();
    assert!(app.view().items.is_empty());
}

#[test]
fn a_connection_that_needs_signing_in_comes_first() {
    // The words of a refused sign-in carry the Sign in action.
    let error = crate::error::UiError::from(&crate::error::AppError::SignInNeeded);
    let connection = ConnectionInfo {
        mode: ConnectionMode::Account,
        state: ConnectionState::Failed,
        base_url: None,
        user_id: None,
        has_saved_account: true,
        error: Some(error.clone()),
    };
    let machines = vec![MachineRow {
        machine_id: "m1".into(),
        name: "Old box".into(),
        cloud: true,
        kind_known: true,
        availability: Availability::Asleep,
        can_wake: false,
        free_computer: false,
        updated_at: Some(5.0),
        starting_since: None,
    }];
    let view = derive(&Sources {
        scope: Some("acct"),
        conversations: &[],
        connection: &connection,
        machines: &machines,
        wake_failures: &HashMap::new(),
        dismissed: &HashSet::new(),
    });
    assert_eq!(
        view.count, 1,
        "a computer nobody asked for is not news: {view:#?}"
    );
    assert_eq!(view.items[0].kind, InboxKind::SignIn);
    assert_eq!(view.items[0].error, Some(error));
    // Any other failed connection is the banner's, not a sign-in to ask for.
    let mut other = connection.clone();
    other.error = Some(crate::error::UiError::from(
        &crate::error::AppError::NotConnected,
    ));
    let view = derive(&Sources {
        scope: None,
        conversations: &[],
        connection: &other,
        machines: &machines,
        wake_failures: &HashMap::new(),
        dismissed: &HashSet::new(),
    });
    assert!(view.items.is_empty(), "no scope, no computers: {view:#?}");
}

#[test]
fn the_list_is_published_only_when_it_changed() {
    let dir = tempfile::tempdir().unwrap();
    let connection = Connection::default();
    let core = Conversations::new(
        connection.clone(),
        ConversationStore::open_in(dir.path()).unwrap(),
        UsageStore::open_in(dir.path()).unwrap(),
        Arc::new(Ticks::default()),
    );
    let inbox = Inbox::default();
    assert!(
        inbox.changed(&core, &connection).is_some(),
        "the first is news"
    );
    assert!(inbox.changed(&core, &connection).is_none());
    inbox.wake_result(
        "m1",
        Some(crate::error::UiError::from(
            &crate::error::AppError::CannotWake,
        )),
    );
    assert!(
        inbox.changed(&core, &connection).is_none(),
        "m1 is not a computer read yet"
    );
}

/// A file of what was put away that cannot be read is set aside (and said, like every stored
/// file), and the inbox starts without it: nothing put away, nothing lost but that.
#[test]
fn an_unreadable_put_away_file_is_set_aside_and_said() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("inbox.json"), "{ not json").unwrap();
    let inbox = Inbox::open_in(dir.path());
    let aside = inbox.set_aside().expect("the file was set aside");
    assert!(aside.moved_to.exists(), "moved, untouched");
    let words = crate::words::stored::set_aside(crate::words::stored::Stored::Inbox, aside);
    assert!(words.title.contains("Needs you"), "{}", words.title);
    assert!(words.detail.contains(&aside.moved_to.display().to_string()));
    assert!(inbox.lock().dismissed.is_empty());
}
