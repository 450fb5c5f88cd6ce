//! The simulator's shared state and the narrow accessors other parts (control, live view,
//! learn, judge) use. All records sit in one `Db` behind one lock that is never held across
//! an `await`; every change of a session, turn, approval or machine bumps one `watch`
//! counter, which is how long-polls, streams and waiting leases learn that something moved.

use crate::accounts::{Account, Plan, FREE_DAILY_COMPUTER_SECS};
use crate::clock::Clock;
use crate::desktop::Desktop;
use crate::faults::Faults;
use crate::limits::Limits;
use crate::records::*;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;
use tokio::sync::watch;

/// Width and height of every simulated cloud computer's screen.
pub const SCREEN: (u32, u32) = (1280, 800);

/// An identity-provider session token the simulator issued.
#[derive(Debug, Clone)]
pub struct IdToken {
    pub user_id: String,
    /// The phone claim as it was when the token was issued.
    pub phone_verified: bool,
    pub expires_at: i64,
}

/// What a Firebase refresh token stands for.
#[derive(Debug, Clone)]
pub struct RefreshGrant {
    pub user_id: String,
}

/// A Google ID token the simulator issued as Google: good only for trading at Firebase.
#[derive(Debug, Clone)]
pub struct GoogleIdToken {
    pub user_id: String,
    pub expires_at: i64,
}

/// A pending Google authorization code.
#[derive(Debug, Clone)]
pub struct AuthCode {
    pub user_id: String,
    pub code_challenge: String,
    pub challenge_method: String,
    pub redirect_uri: String,
    pub client_id: String,
    pub expires_at: i64,
}

/// Spendable credit of one account.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Credit {
    pub usd: f64,
    /// UTC day of the last free grant.
    pub day: i64,
}

/// Every stored record.
#[derive(Default)]
pub struct Db {
    pub machines: Vec<Machine>,
    pub sessions: HashMap<String, Session>,
    pub turns: HashMap<String, Turn>,
    pub approvals: HashMap<String, Approval>,
    pub keys: Vec<ApiKey>,
    pub id_tokens: HashMap<String, IdToken>,
    pub auth_codes: HashMap<String, AuthCode>,
    pub google_id_tokens: HashMap<String, GoogleIdToken>,
    pub refresh_tokens: HashMap<String, RefreshGrant>,
    pub uploads: Vec<Upload>,
    pub credits: HashMap<String, Credit>,
    /// Free computer time used today, in documented seconds: (UTC day, seconds).
    pub free_time: HashMap<String, (i64, f64)>,
    /// Accounts with a machine creation in progress.
    pub creating: HashSet<String>,
    /// The current session of each (account, machine, channel).
    pub current_sessions: HashMap<(String, String, Channel), String>,
    /// Sessions created so far (orders them).
    pub sessions_created: u64,
    /// Machines whose live view speaks RFB (VNC) instead of Guacamole (`live_view::rfb`).
    pub rfb_screens: HashSet<String>,
}

impl Db {
    pub fn machine(&self, id: &str) -> Option<&Machine> {
        self.machines.iter().find(|m| m.id == id)
    }

    pub fn machine_mut(&mut self, id: &str) -> Option<&mut Machine> {
        self.machines.iter_mut().find(|m| m.id == id)
    }

    /// The turn an agent is working on for this machine, if any.
    pub fn running_turn_on(&self, machine_id: &str) -> Option<&Turn> {
        self.turns
            .values()
            .find(|t| t.machine_id == machine_id && !t.status.is_finished())
    }
}

/// What a direct-control lease tells the agent about itself. Control registers one per
/// machine while a lease is open ([`AppState::set_lease_hold`]).
pub trait LeaseHold: Send + Sync {
    /// No block is running or queued, so an agent task may take the machine.
    fn is_quiet(&self) -> bool;
    /// An agent task takes the machine: the lease closes with `lock_lost`.
    fn take_over(&self);
}

/// What the agent is doing with one machine.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AgentActivity {
    /// A task holds the machine.
    pub running: bool,
    /// A task is waiting for a lease to release the machine.
    pub waiting: bool,
}

/// A machine as other parts of the simulator see it.
#[derive(Clone)]
pub struct MachineView {
    pub id: String,
    pub name: Option<String>,
    pub kind: MachineKind,
    pub online: bool,
    /// Running now (not hibernated, starting or unclaimed).
    pub awake: bool,
    pub is_free: bool,
    pub desktop: Option<Desktop>,
}

/// One recorded step, for learn and judge.
#[derive(Debug, Clone)]
pub struct StepRecord {
    pub index: usize,
    pub title: String,
    pub rationale: String,
    pub code: String,
    pub error: Option<String>,
}

/// A read-only copy of a turn, for learn and judge.
#[derive(Debug, Clone)]
pub struct TurnRecord {
    pub turn_id: String,
    pub session_id: String,
    pub machine_id: String,
    /// `running`, `needs_input`, `finalizing`, `succeeded`, `failed`.
    pub status: &'static str,
    pub finished: bool,
    pub message: String,
    pub template: Option<String>,
    pub inputs: Option<Value>,
    pub output_schema: Option<Value>,
    pub success_criteria: Option<Value>,
    pub record_trajectory: bool,
    pub steps: Vec<StepRecord>,
    pub answer: String,
    pub output: Value,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

pub(crate) struct Inner {
    pub clock: Clock,
    pub limits: Limits,
    pub faults: Faults,
    pub turn_id_in: crate::TurnIdIn,
    pub shapes: crate::Shapes,
    pub accounts: Vec<Account>,
    pub base_url: OnceLock<String>,
    pub db: Mutex<Db>,
    pub changes: watch::Sender<u64>,
    pub lease_holds: Mutex<HashMap<String, Arc<dyn LeaseHold>>>,
    pub waiting_for_lease: Mutex<HashSet<String>>,
    pub seen: crate::seen::Seen,
}

/// Cheap-to-clone handle on everything the simulator knows.
#[derive(Clone)]
pub struct AppState(pub(crate) Arc<Inner>);

impl AppState {
    pub(crate) fn new(
        clock: Clock,
        faults: Faults,
        turn_id_in: crate::TurnIdIn,
        shapes: crate::Shapes,
        accounts: Vec<Account>,
    ) -> Self {
        Self(Arc::new(Inner {
            clock,
            limits: Limits::new(clock),
            faults,
            turn_id_in,
            shapes,
            accounts,
            base_url: OnceLock::new(),
            db: Mutex::default(),
            changes: watch::channel(0).0,
            lease_holds: Mutex::default(),
            waiting_for_lease: Mutex::default(),
            seen: crate::seen::Seen::default(),
        }))
    }

    pub fn clock(&self) -> Clock {
        self.0.clock
    }

    pub fn limits(&self) -> &Limits {
        &self.0.limits
    }

    pub fn faults(&self) -> &Faults {
        &self.0.faults
    }

    pub(crate) fn seen(&self) -> &crate::seen::Seen {
        &self.0.seen
    }

    /// Every request served so far (the newest 10,000), with the `x-sai-version` tag each
    /// carried: how a test proves a client sends the tag on every request.
    pub fn requests_seen(&self) -> Vec<crate::SeenRequest> {
        self.0.seen.all()
    }

    /// Where `turnId` appears in a message's answers.
    pub fn turn_id_in(&self) -> crate::TurnIdIn {
        self.0.turn_id_in
    }

    /// Which answer shapes the simulator speaks.
    pub fn shapes(&self) -> crate::Shapes {
        self.0.shapes
    }

    /// `http://127.0.0.1:PORT`, known once the listener is bound.
    pub fn base_url(&self) -> String {
        self.0.base_url.get().cloned().unwrap_or_default()
    }

    pub fn account(&self, user_id: &str) -> Option<&Account> {
        self.0.accounts.iter().find(|a| a.user_id == user_id)
    }

    pub fn accounts(&self) -> &[Account] {
        &self.0.accounts
    }

    /// Locks the records. Never hold the guard across an `await`.
    pub fn db(&self) -> MutexGuard<'_, Db> {
        self.0.db.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Tells every waiter that something changed.
    pub fn notify(&self) {
        self.0.changes.send_modify(|v| *v = v.wrapping_add(1));
    }

    /// A receiver that wakes on every change of a session, turn, approval, machine or lease.
    pub fn changes(&self) -> watch::Receiver<u64> {
        self.0.changes.subscribe()
    }

    /// The caller's machine by id; `None` when it does not exist or belongs to another
    /// account (both answer as missing).
    pub fn machine(&self, owner: &str, machine_id: &str) -> Option<MachineView> {
        let db = self.db();
        let m = db.machine(machine_id).filter(|m| m.owner == owner)?;
        Some(MachineView {
            id: m.id.clone(),
            name: m.name.clone(),
            kind: m.kind,
            online: m.online(),
            awake: m.awake(),
            is_free: m.is_free,
            desktop: m.desktop.clone(),
        })
    }

    /// Whether an agent task holds the machine or waits for it.
    pub fn agent_activity(&self, machine_id: &str) -> AgentActivity {
        let running = self.db().running_turn_on(machine_id).is_some();
        let waiting = self
            .0
            .waiting_for_lease
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains(machine_id);
        AgentActivity {
            running: running && !waiting,
            waiting,
        }
    }

    /// Control says a lease holds (Some) or released (None) the machine.
    pub fn set_lease_hold(&self, machine_id: &str, hold: Option<Arc<dyn LeaseHold>>) {
        {
            let mut holds = self.0.lease_holds.lock().unwrap_or_else(|e| e.into_inner());
            match hold {
                Some(h) => holds.insert(machine_id.to_owned(), h),
                None => holds.remove(machine_id),
            };
        }
        self.notify();
    }

    pub fn lease_hold(&self, machine_id: &str) -> Option<Arc<dyn LeaseHold>> {
        self.0
            .lease_holds
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(machine_id)
            .cloned()
    }

    pub fn set_waiting_for_lease(&self, machine_id: &str, waiting: bool) {
        {
            let mut set = self
                .0
                .waiting_for_lease
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if waiting {
                set.insert(machine_id.to_owned());
            } else {
                set.remove(machine_id);
            }
        }
        self.notify();
    }

    /// Starts the caller's computer if it sleeps (or claims the free computer), waiting the
    /// documented start time. `Err` when the machine is missing, not the caller's, or is an
    /// own desktop that cannot be started from here.
    pub async fn ensure_awake(
        &self,
        owner: &str,
        machine_id: &str,
    ) -> Result<(), crate::machines::power::Unavailable> {
        crate::machines::power::ensure_awake(self, owner, machine_id, |_| {}).await
    }

    /// Puts a cloud computer to sleep (as the service does after idleness): it reads
    /// `hibernating` for a short while, then `hibernated`; the live stream ends at once and the
    /// next message or wake starts it again. `false` when not the caller's.
    pub fn hibernate(&self, owner: &str, machine_id: &str) -> bool {
        crate::machines::power::hibernate(self, owner, machine_id)
    }

    /// The free plan's computer is deleted (returned to the pool) when a lease closes.
    pub fn release_free_computer(&self, owner: &str) {
        crate::machines::power::release_free(self, owner);
    }

    /// Free computer time left today, `None` on paid plans.
    pub fn free_computer_time_left(&self, owner: &str) -> Option<Duration> {
        let plan = self.account(owner)?.plan;
        if plan != Plan::Free {
            return None;
        }
        let used = self.free_time_used(owner);
        Some(Duration::from_secs_f64(
            (FREE_DAILY_COMPUTER_SECS as f64 - used).max(0.0),
        ))
    }

    pub(crate) fn free_time_used(&self, owner: &str) -> f64 {
        let today = Clock::utc_day();
        match self.db().free_time.get(owner) {
            Some((day, used)) if *day == today => *used,
            _ => 0.0,
        }
    }

    /// Adds documented seconds of free computer time.
    pub fn spend_free_time(&self, owner: &str, secs: f64) {
        let today = Clock::utc_day();
        let mut db = self.db();
        let entry = db.free_time.entry(owner.to_owned()).or_insert((today, 0.0));
        if entry.0 != today {
            *entry = (today, 0.0);
        }
        entry.1 += secs;
    }

    /// Spendable credit; `None` on the unlimited plan.
    pub fn credits_usd(&self, owner: &str) -> Option<f64> {
        crate::credits::balance(self, owner)
    }

    /// Bills model calls (learn, judge, the agent) to the account's credit.
    pub fn charge(&self, owner: &str, usd: f64) {
        crate::credits::charge(self, owner, usd);
    }

    /// Whether the account's plan may use a model id; `None` for an unknown id.
    pub fn model_allowed(&self, owner: &str, model: &str) -> Option<bool> {
        let plan = self.account(owner)?.plan;
        crate::models::find(model).map(|m| m.allowed_on(plan))
    }

    /// A copy of the caller's turn; `None` when missing or another account's.
    pub fn turn_record(&self, owner: &str, turn_id: &str) -> Option<TurnRecord> {
        let db = self.db();
        let t = db.turns.get(turn_id).filter(|t| t.owner == owner)?;
        let usage = t
            .usage
            .as_ref()
            .map(|u| u.total.clone())
            .unwrap_or_default();
        Some(TurnRecord {
            turn_id: t.id.clone(),
            session_id: t.session_id.clone(),
            machine_id: t.machine_id.clone(),
            status: t.status.as_str(),
            finished: t.status.is_finished(),
            message: t.message.clone(),
            template: t.template.clone(),
            inputs: t.inputs.clone(),
            output_schema: t.output_schema.clone(),
            success_criteria: t.success_criteria.clone(),
            record_trajectory: t.record_trajectory,
            steps: t
                .steps
                .iter()
                .enumerate()
                .map(|(index, s)| StepRecord {
                    index,
                    title: s.title.clone(),
                    rationale: s.rationale.clone(),
                    code: s.code.clone(),
                    error: s.error.clone(),
                })
                .collect(),
            answer: t.answer.clone(),
            output: t.output.clone(),
            input_tokens: usage.input_tokens,
            output_tokens: usage.output_tokens,
        })
    }

    /// A fresh identifier with the given prefix (`cs_`, `turn_`, `ap_`, ...).
    pub fn new_id(&self, prefix: &str) -> String {
        format!("{prefix}{}", random_token(12))
    }
}

/// `n` random bytes as lowercase hex.
pub fn random_token(n: usize) -> String {
    use rand::RngCore;
    let mut bytes = vec![0u8; n];
    rand::rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
