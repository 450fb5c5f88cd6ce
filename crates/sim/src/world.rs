//! The simulator's world kept across a restart: its accounts' ids, its computers, and the
//! conversations held on them (sessions and their tasks), so the app's Demo shows after a
//! restart what was there before, as a real service would (the real service never forgets a
//! computer). [`AppState::world`] takes a copy; [`crate::Config::world`] starts from one.
//!
//! What is not kept, and why: keys and sign-in tokens (secrets stay out of files; the seeded
//! Demo key is made anew at every start), pictures (screens are drawn anew), approvals
//! (only a running task has one open, and no task survives a restart), uploads and the
//! hourly limits. What the wire shows of a kept record is unchanged: this is a copy of the
//! records, not another shape of them.
//!
//! A task that was still running when the copy was taken did not survive: it comes back
//! failed, with an `error` event saying so, and its computer is free for the next task.

use crate::accounts::Account;
use crate::desktop::Desktop;
use crate::records::{Channel, LogEntry, Machine, MachineKind, Power, Session, Turn, TurnStatus};
use crate::state::{AppState, Credit, Db, SCREEN};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// What a task that did not survive the restart says for itself.
pub const ENDED_BY_RESTART: &str = "The service restarted while this task ran, so it ended.";

/// A copy of everything the simulator keeps across a restart.
#[derive(Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct World {
    /// Each seeded account's `userId`, by name (ada, fred, ...).
    pub accounts: Vec<KeptAccount>,
    pub machines: Vec<Machine>,
    pub sessions: Vec<Session>,
    pub turns: Vec<Turn>,
    pub current_sessions: Vec<CurrentSession>,
    pub sessions_created: u64,
    pub credits: Vec<KeptCredit>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeptAccount {
    pub name: String,
    pub user_id: String,
}

/// The current session of one (account, computer, channel).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CurrentSession {
    pub owner: String,
    pub machine_id: String,
    pub channel: Channel,
    pub session_id: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeptCredit {
    pub owner: String,
    pub credit: Credit,
}

impl std::fmt::Debug for World {
    // Counts only: the records are long and hold the person's words.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World")
            .field("accounts", &self.accounts.len())
            .field("machines", &self.machines.len())
            .field("sessions", &self.sessions.len())
            .field("turns", &self.turns.len())
            .finish()
    }
}

impl World {
    /// The kept `userId` of the seeded account `name`.
    pub fn user_id(&self, name: &str) -> Option<&str> {
        self.accounts
            .iter()
            .find(|a| a.name == name)
            .map(|a| a.user_id.as_str())
    }

    /// The kept computers of the account `user_id`, by name.
    pub fn machine_named(&self, user_id: &str, name: &str) -> Option<&Machine> {
        self.machines
            .iter()
            .find(|m| m.owner == user_id && m.name.as_deref() == Some(name))
    }
}

impl AppState {
    /// A copy of what the simulator keeps across a restart (see [`World`]).
    pub fn world(&self) -> World {
        let accounts = self
            .accounts()
            .iter()
            .map(|a| KeptAccount {
                name: a.name.to_owned(),
                user_id: a.user_id.clone(),
            })
            .collect();
        let db = self.db();
        World {
            accounts,
            machines: db.machines.clone(),
            sessions: db.sessions.values().cloned().collect(),
            turns: db.turns.values().cloned().collect(),
            current_sessions: db
                .current_sessions
                .iter()
                .map(
                    |((owner, machine_id, channel), session_id)| CurrentSession {
                        owner: owner.clone(),
                        machine_id: machine_id.clone(),
                        channel: *channel,
                        session_id: session_id.clone(),
                    },
                )
                .collect(),
            sessions_created: db.sessions_created,
            credits: db
                .credits
                .iter()
                .map(|(owner, credit)| KeptCredit {
                    owner: owner.clone(),
                    credit: credit.clone(),
                })
                .collect(),
        }
    }
}

/// The seeded accounts take their kept ids back, so every kept record is theirs again.
pub(crate) fn keep_user_ids(accounts: &mut [Account], world: &World) {
    for account in accounts {
        if let Some(id) = world.user_id(account.name) {
            account.user_id = id.to_owned();
        }
    }
}

/// Puts the kept records back into a fresh `db`. Records of accounts the simulator no longer
/// has are left out, and so are sessions and tasks of computers that are gone.
pub(crate) fn restore(db: &mut Db, accounts: &[Account], world: World) {
    let known = |owner: &str| accounts.iter().any(|a| a.user_id == owner);
    for mut machine in world.machines.into_iter().filter(|m| known(&m.owner)) {
        machine.power = settled(machine.power);
        if machine.kind == MachineKind::Cloud {
            let name = machine.name.clone().unwrap_or_default();
            machine.desktop = Some(Desktop::new(SCREEN.0, SCREEN.1, &name));
        }
        db.machines.push(machine);
    }
    let machine_kept = |db: &Db, id: &str| db.machine(id).is_some();
    for session in world.sessions {
        if known(&session.owner) && machine_kept(db, &session.machine_id) {
            db.sessions.insert(session.id.clone(), session);
        }
    }
    for mut turn in world.turns {
        if !db.sessions.contains_key(&turn.session_id) {
            continue;
        }
        if !turn.status.is_finished() || !turn.ended {
            end_by_restart(&mut turn);
        }
        db.turns.insert(turn.id.clone(), turn);
    }
    for current in world.current_sessions {
        if db.sessions.contains_key(&current.session_id) {
            db.current_sessions.insert(
                (current.owner, current.machine_id, current.channel),
                current.session_id,
            );
        }
    }
    db.sessions_created = world.sessions_created;
    for kept in world.credits.into_iter().filter(|c| known(&c.owner)) {
        db.credits.insert(kept.owner, kept.credit);
    }
}

/// A computer caught between two states when the copy was taken is where it was going.
fn settled(power: Power) -> Power {
    match power {
        Power::Hibernating | Power::Starting => Power::Hibernated,
        Power::Provisioning => Power::Active,
        other => other,
    }
}

/// A task the restart cut short: failed, with the `error` event a client reads.
fn end_by_restart(turn: &mut Turn) {
    turn.status = TurnStatus::Failed;
    turn.reason_code = Some("agent_error".into());
    turn.raw_answer = Some(ENDED_BY_RESTART.into());
    turn.output = serde_json::Value::Null;
    turn.steering.clear();
    turn.ended = true;
    turn.log.push(LogEntry::Event(
        json!({ "type": "error", "errorText": ENDED_BY_RESTART }),
    ));
}
