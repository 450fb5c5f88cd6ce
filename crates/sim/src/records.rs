//! The simulator's stored resources. They live inside `state::Db` behind one lock; handlers
//! copy what they need out and never hold the lock across an `await`.

use crate::desktop::Desktop;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

/// `cloud` or `own`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MachineKind {
    Cloud,
    Own,
}

impl MachineKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MachineKind::Cloud => "cloud",
            MachineKind::Own => "own",
        }
    }
}

/// Where a computer is in its life. The raw statuses are the real service's (`active`,
/// `hibernated`, `hibernating`, `wakingup`); `provisioning` is the simulator's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Power {
    Active,
    Hibernated,
    /// On its way to sleep: not usable, and a wake or a message starts it again.
    Hibernating,
    /// Waking from hibernation or being claimed (free computer).
    Starting,
    /// Being created; not online yet.
    Provisioning,
    /// An own desktop whose app reports online; no raw status.
    AgentOnline,
    /// The free computer while nobody has claimed it today.
    Unclaimed,
}

/// Kept in the Demo's world (`world.rs`) without its desktop, which is drawn anew.
#[derive(Clone, Serialize, Deserialize)]
pub struct Machine {
    pub id: String,
    pub owner: String,
    pub name: Option<String>,
    pub kind: MachineKind,
    pub power: Power,
    pub updated_at: i64,
    /// Only cloud computers have a screen the simulator draws.
    #[serde(skip)]
    pub desktop: Option<Desktop>,
    /// The free plan's pooled computer (`free-<userId>`).
    pub is_free: bool,
    /// Whether a wake (or a message) can start it when it sleeps.
    pub wakeable: bool,
}

impl Machine {
    pub fn online(&self) -> bool {
        matches!(
            self.power,
            Power::Active | Power::Hibernated | Power::AgentOnline
        )
    }

    pub fn awake(&self) -> bool {
        matches!(self.power, Power::Active | Power::AgentOnline)
    }

    /// `canWake`: a cloud computer that a wake can start (not the unclaimed free computer).
    pub fn can_wake(&self) -> bool {
        self.kind == MachineKind::Cloud && self.power != Power::Unclaimed && self.wakeable
    }

    /// The raw `status`, absent for an own desktop and the unclaimed free computer.
    pub fn status(&self) -> Option<&'static str> {
        match self.power {
            Power::Active => Some("active"),
            Power::Hibernated => Some("hibernated"),
            Power::Hibernating => Some("hibernating"),
            Power::Starting => Some("wakingup"),
            Power::Provisioning => Some("provisioning"),
            Power::AgentOnline | Power::Unclaimed => None,
        }
    }

    /// The row of the machine list.
    pub fn row(&self) -> Value {
        let mut row = Map::new();
        row.insert("machineId".into(), json!(self.id));
        if let Some(name) = &self.name {
            row.insert("name".into(), json!(name));
        }
        let unclaimed = self.power == Power::Unclaimed;
        row.insert(
            "updatedAt".into(),
            json!(if unclaimed { 0 } else { self.updated_at }),
        );
        if let Some(status) = self.status() {
            row.insert("status".into(), json!(status));
        }
        row.insert("canWake".into(), json!(self.can_wake()));
        row.insert("kind".into(), json!(self.kind.as_str()));
        row.insert("online".into(), json!(self.online()));
        Value::Object(row)
    }
}

/// Which conversation of a computer a session is: the API's or the command-line client's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Channel {
    Api,
    Cli,
}

impl Channel {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "api" => Some(Channel::Api),
            "cli" => Some(Channel::Cli),
            _ => None,
        }
    }

    /// A `channel` field or query value; a missing one means `cli`, as on the real service.
    pub fn parse_or_cli(s: Option<&str>) -> Option<Self> {
        match s {
            None => Some(Channel::Cli),
            Some(c) => Self::parse(c),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Session {
    pub id: String,
    pub owner: String,
    pub machine_id: String,
    pub channel: Channel,
    pub model: Option<String>,
    pub turns: Vec<String>,
    pub usage: Usage,
    pub has_usage: bool,
    pub created_at: i64,
    /// Names the conversation: taken from its first task.
    pub title: Option<String>,
    /// Creation order, so "newest" never depends on two sessions' milliseconds differing.
    pub seq: u64,
}

impl Session {
    pub fn current_turn(&self) -> Option<&String> {
        self.turns.last()
    }
}

/// Token counts and cost, as the events poll reports them (`usage`, `sessionUsage`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cache_read_tokens: u64,
    pub cache_write_tokens: u64,
    pub cost_usd: f64,
    pub model_calls: u64,
}

impl Counts {
    pub fn add(&mut self, other: &Counts) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
        self.cache_read_tokens += other.cache_read_tokens;
        self.cache_write_tokens += other.cache_write_tokens;
        self.cost_usd += other.cost_usd;
        self.model_calls += other.model_calls;
    }

    fn json(&self) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("inputTokens".into(), json!(self.input_tokens));
        m.insert("outputTokens".into(), json!(self.output_tokens));
        m.insert("cacheReadTokens".into(), json!(self.cache_read_tokens));
        m.insert("cacheWriteTokens".into(), json!(self.cache_write_tokens));
        m.insert("costUsd".into(), json!(round6(self.cost_usd)));
        m.insert("modelCalls".into(), json!(self.model_calls));
        m
    }
}

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// Usage of a task or a session, by model.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Usage {
    pub total: Counts,
    pub by_model: Vec<(String, Counts)>,
}

impl Usage {
    pub fn add(&mut self, model: &str, counts: &Counts) {
        self.total.add(counts);
        match self.by_model.iter_mut().find(|(m, _)| m == model) {
            Some((_, c)) => c.add(counts),
            None => self.by_model.push((model.to_owned(), counts.clone())),
        }
    }

    pub fn json(&self) -> Value {
        let mut m = self.total.json();
        let by: Map<String, Value> = self
            .by_model
            .iter()
            .map(|(k, c)| (k.clone(), Value::Object(c.json())))
            .collect();
        m.insert("byModel".into(), Value::Object(by));
        Value::Object(m)
    }
}

/// `running`, `needs_input`, `finalizing`, `succeeded`, `failed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum TurnStatus {
    #[default]
    Running,
    NeedsInput,
    Finalizing,
    Succeeded,
    Failed,
}

impl TurnStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TurnStatus::Running => "running",
            TurnStatus::NeedsInput => "needs_input",
            TurnStatus::Finalizing => "finalizing",
            TurnStatus::Succeeded => "succeeded",
            TurnStatus::Failed => "failed",
        }
    }

    pub fn is_finished(self) -> bool {
        matches!(self, TurnStatus::Succeeded | TurnStatus::Failed)
    }
}

/// One recorded step of a turn's trajectory.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Step {
    pub timestamp_ms: i64,
    pub title: String,
    pub rationale: String,
    pub code: String,
    pub error: Option<String>,
    /// Pictures are not kept across a restart of the Demo (`world.rs`).
    #[serde(skip)]
    pub screenshot: Option<std::sync::Arc<Vec<u8>>>,
}

/// One entry of a turn's event log. The stream and the poll render it differently
/// (see `events::render`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum LogEntry {
    /// An event both paths show, already in its poll shape.
    Event(Value),
    /// A whole assistant message: final text (`text`) or narration (`reasoning`).
    Text {
        id: String,
        reasoning: bool,
        text: String,
    },
    /// `data-status` (stream only): delivery news, `kind` says which (`waking`, `agent_offline`).
    Status { text: String, kind: String },
    /// A frame only the stream carries (`start-step`, `tool-input-delta`, ...): what an AI SDK
    /// UI message stream sends beyond the spec's table, which clients must drop.
    Frame(Value),
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Turn {
    pub id: String,
    pub owner: String,
    pub session_id: String,
    pub machine_id: String,
    pub status: TurnStatus,
    pub message: String,
    pub template: Option<String>,
    pub inputs: Option<Value>,
    pub output_schema: Option<Value>,
    pub success_criteria: Option<Value>,
    pub record_trajectory: bool,
    pub attachments: Vec<Value>,
    /// The model the turn's calls are billed to (resolved from `auto`).
    pub model: String,
    pub steps: Vec<Step>,
    #[serde(skip)]
    pub final_screenshot: Option<std::sync::Arc<Vec<u8>>>,
    pub answer: String,
    pub output: Value,
    pub reason_code: Option<String>,
    pub raw_answer: Option<String>,
    pub error_code: Option<String>,
    pub evidence: Option<Vec<Value>>,
    pub output_errors: Option<Vec<String>>,
    /// Usage of the task; `None` until the first model call.
    pub usage: Option<Usage>,
    pub log: Vec<LogEntry>,
    /// Messages that joined the running task, not yet read by the agent.
    pub steering: Vec<String>,
    /// Every message that joined the task, kept for the conversation's history.
    pub joined: Vec<String>,
    pub aborted: bool,
    /// The agent has written the final result.
    pub ended: bool,
    pub created_at: i64,
}

/// `approve` or `deny`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Approve,
    Deny,
    Expired,
}

#[derive(Debug, Clone)]
pub struct Approval {
    pub id: String,
    pub owner: String,
    pub turn_id: String,
    pub title: String,
    pub description: String,
    pub card: crate::approvals::Card,
    pub link_only: bool,
    pub expires_at: i64,
    pub decision: Option<Decision>,
    /// A choice card's accepted picks, one list per question.
    pub selections: Option<Vec<Vec<String>>>,
}

#[derive(Debug, Clone)]
pub struct ApiKey {
    pub key_id: String,
    pub owner: String,
    pub name: Option<String>,
    /// SHA-256 of the secret; the secret itself is never kept.
    pub hash: [u8; 32],
    pub created_at: i64,
    pub last_used_at: Option<i64>,
    pub revoked: bool,
}

#[derive(Debug, Clone)]
pub struct Upload {
    pub file_id: String,
    pub owner: String,
    pub path: String,
    pub name: String,
    pub mime: String,
    pub size: u64,
}

impl Upload {
    pub fn json(&self) -> Value {
        json!({
            "path": self.path,
            "name": self.name,
            "mime": self.mime,
            "size": self.size,
            "fileId": self.file_id,
        })
    }
}
