//! The schedules' test app: the conversations core and the schedules over a temporary data
//! folder, talking to the simulator over real sockets, with the clock of `tests.rs` and a
//! collecting notifier. Shared by every schedules test that runs tasks.

use super::*;

#[derive(Default)]
pub(super) struct Told {
    tick: watch::Sender<u64>,
    /// What the person was told, as "title: body".
    told: Mutex<Vec<String>>,
}

impl Notify for Told {
    fn conversation_changed(&self, _: &Conversation, _: bool) {
        self.tick.send_modify(|t| *t += 1);
    }
    fn needs_answer(&self, _: &Conversation, _: &ApprovalRequest) {}
    fn machine_starting(&self, _: &str) {}
    fn machines_changed(&self) {}
}

impl ScheduleNotify for Told {
    fn schedules_changed(&self) {}
    fn tell(&self, _: &Schedule, title: &str, body: &str) {
        self.told.lock().unwrap().push(format!("{title}: {body}"));
    }
    fn tell_digest(&self, title: &str, body: &str) {
        self.told
            .lock()
            .unwrap()
            .push(format!("Digest: {title}: {body}"));
    }
}

pub(super) struct App {
    pub(super) sim: RunningSim,
    pub(super) dir: tempfile::TempDir,
    pub(super) connection: Connection,
    pub(super) told: Arc<Told>,
    pub(super) conversations: Conversations,
    pub(super) schedules: Schedules,
    pub(super) client: Client,
    pub(super) machine: String,
}

pub(super) async fn app(clock: Arc<TestClock>) -> App {
    app_scaled(clock, SCALE).await
}

/// As [`app`], with the simulator's time at `scale` (1.0: a wake takes its documented 30 s).
pub(super) async fn app_scaled(clock: Arc<TestClock>, scale: f64) -> App {
    let sim = Sim::start(Config {
        time_scale: scale,
        ..Config::default()
    })
    .await
    .expect("the simulator starts");
    let key = sim.account("ada").api_key.clone().expect("a key");
    // A real hour for the budgets: the test spends them faster than a scaled hour could hold.
    let config = ClientConfig {
        hour: Duration::from_secs(3600),
        ..ClientConfig::time_scaled(scale)
    };
    let client =
        Client::with_config(&sim.base_url, Credential::api_key(&key).unwrap(), config).unwrap();
    let connection = Connection::default();
    connection.activate(client.clone(), SCOPE.into());
    let dir = tempfile::tempdir().unwrap();
    let told = Arc::new(Told::default());
    let conversations = Conversations::new(
        connection.clone(),
        ConversationStore::open_in(dir.path()).unwrap(),
        UsageStore::open_in(dir.path()).unwrap(),
        told.clone(),
    );
    let schedules = open(dir.path(), &connection, &conversations, &clock, &told);
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
        conversations,
        schedules,
        client,
        machine,
    }
}

pub(super) fn open(
    dir: &std::path::Path,
    connection: &Connection,
    conversations: &Conversations,
    clock: &Arc<TestClock>,
    told: &Arc<Told>,
) -> Schedules {
    Schedules::open_in(
        dir,
        connection.clone(),
        conversations.clone(),
        clock.clone(),
        told.clone(),
    )
    .unwrap()
}

impl App {
    pub(super) async fn schedule(&self, text: &str, repeat: Repeat) -> Schedule {
        self.capped_schedule(text, repeat, None).await
    }

    pub(super) async fn capped_schedule(
        &self,
        text: &str,
        repeat: Repeat,
        cap_usd: Option<f64>,
    ) -> Schedule {
        self.schedules
            .create(NewSchedule {
                machine_id: self.machine.clone(),
                machine_name: "Design laptop".into(),
                text: text.into(),
                reusable_id: None,
                repeat,
                cap_usd,
            })
            .await
            .unwrap()
    }

    pub(super) fn get(&self, id: &str) -> Schedule {
        self.schedules.read(|b| b.get(id).cloned()).unwrap()
    }

    /// The tasks the computer's conversations were sent, in order.
    pub(super) fn sent(&self) -> Vec<String> {
        self.conversations.store().read(|book| {
            book.conversations
                .iter()
                .flat_map(|c| c.items.iter())
                .filter_map(|item| match item {
                    ThreadItem::User { text, .. } => Some(text.clone()),
                    _ => None,
                })
                .collect()
        })
    }

    /// Waits for the conversation's task to end (the simulator runs it), then looks again.
    pub(super) async fn until_ended(&self, conversation_id: &str) -> Conversation {
        self.until(conversation_id, |c| {
            !c.status.is_active() && c.status != TaskStatus::Idle
        })
        .await
    }

    /// Waits for the conversation to be as `done` says (the simulator runs its task).
    pub(super) async fn until(
        &self,
        conversation_id: &str,
        done: impl Fn(&Conversation) -> bool,
    ) -> Conversation {
        let mut changes = self.told.tick.subscribe();
        let wait = async {
            loop {
                let c = self.conversations.store().get(conversation_id).unwrap();
                if done(&c) {
                    return c;
                }
                changes.changed().await.unwrap();
            }
        };
        tokio::time::timeout(Duration::from_secs(60), wait)
            .await
            .expect("the conversation comes to be as awaited")
    }

    pub(super) fn told(&self) -> Vec<String> {
        self.told.told.lock().unwrap().clone()
    }
}

pub(super) fn started_in(schedule: &Schedule) -> String {
    match &schedule.last.as_ref().expect("a run").outcome {
        Outcome::Started {
            conversation_id, ..
        } => conversation_id.clone(),
        other => panic!("not started: {other:?}"),
    }
}
