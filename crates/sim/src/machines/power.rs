//! Computers waking, being claimed, being created and being given back. A sleeping computer
//! (hibernated, or the free computer not yet claimed today) is started by the first caller
//! that needs it; every other caller waits for the same start. Starts take the documented
//! times, scaled: about two minutes for the free computer, 30 seconds for a wake, three
//! minutes for a new computer.

use crate::clock::Clock;
use crate::desktop::Desktop;
use crate::records::{MachineKind, Power};
use crate::state::{AppState, SCREEN};
use std::time::Duration;

/// The machine is missing, not the caller's, or cannot be started (being created).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unavailable;

/// Documented time the free computer takes to start when claimed.
pub const FREE_START: Duration = Duration::from_secs(120);
/// Documented time a hibernated computer takes to wake.
pub const WAKE: Duration = Duration::from_secs(30);
/// Documented time a new computer takes to come online.
pub const CREATE: Duration = Duration::from_secs(180);
/// Documented time a computer takes to go to sleep (`hibernating`, then `hibernated`).
pub const HIBERNATE: Duration = Duration::from_secs(10);
/// How often a waiting message stream hears that the start is still going on.
const STATUS_EVERY: Duration = Duration::from_secs(30);

/// Starts a sleeping machine if nobody is starting it yet. Returns whether it needs waiting
/// (the sentence to tell the person). A machine that cannot wake is `Unavailable`.
pub fn begin_start(
    state: &AppState,
    owner: &str,
    machine_id: &str,
) -> Result<Option<String>, Unavailable> {
    let mut db = state.db();
    let m = db
        .machine_mut(machine_id)
        .filter(|m| m.owner == owner)
        .ok_or(Unavailable)?;
    let (delay, text) = match m.power {
        Power::Active | Power::AgentOnline => return Ok(None),
        Power::Provisioning => return Err(Unavailable),
        Power::Starting => return Ok(Some(starting_text(m.is_free))),
        Power::Hibernated | Power::Hibernating if !m.wakeable => return Err(Unavailable),
        Power::Hibernated | Power::Hibernating => (WAKE, "Waking up the computer…"),
        Power::Unclaimed => (
            FREE_START,
            "Starting your free cloud computer. This takes about two minutes…",
        ),
    };
    m.power = Power::Starting;
    m.updated_at = Clock::now_ms();
    drop(db);
    state.notify();
    let s = state.clone();
    let id = machine_id.to_owned();
    tokio::spawn(async move {
        s.clock().sleep(delay).await;
        set_power(&s, &id, Power::Active);
    });
    Ok(Some(text.to_owned()))
}

fn starting_text(is_free: bool) -> String {
    if is_free {
        "Starting your free cloud computer. This takes about two minutes…".into()
    } else {
        "Waking up the computer…".into()
    }
}

/// Sets a machine's power state and tells waiters.
pub fn set_power(state: &AppState, machine_id: &str, power: Power) {
    if let Some(m) = state.db().machine_mut(machine_id) {
        m.power = power;
        m.updated_at = Clock::now_ms();
    }
    state.notify();
}

/// Wakes or claims the machine and waits until it runs. `on_status` hears a plain sentence
/// when the wait starts and every 30 documented seconds after.
pub async fn ensure_awake(
    state: &AppState,
    owner: &str,
    machine_id: &str,
    mut on_status: impl FnMut(&str),
) -> Result<(), Unavailable> {
    let mut changes = state.changes();
    let Some(text) = begin_start(state, owner, machine_id)? else {
        return Ok(());
    };
    on_status(&text);
    let mut next_status = tokio::time::Instant::now() + state.clock().scaled(STATUS_EVERY);
    loop {
        match state.db().machine(machine_id).map(|m| m.power) {
            Some(Power::Active | Power::AgentOnline) => return Ok(()),
            Some(Power::Starting) => {}
            // Hibernated again or given back while we waited: start once more.
            Some(Power::Hibernated | Power::Hibernating | Power::Unclaimed) => {
                begin_start(state, owner, machine_id)?;
            }
            _ => return Err(Unavailable),
        }
        tokio::select! {
            r = changes.changed() => { if r.is_err() { return Err(Unavailable); } }
            _ = tokio::time::sleep_until(next_status) => {
                on_status("Still starting the computer…");
                next_status += state.clock().scaled(STATUS_EVERY);
            }
        }
    }
}

/// Puts a running cloud computer to sleep: `hibernating` for the documented time, then
/// `hibernated` (unless something woke it meanwhile). `false` when it is not the caller's
/// paid cloud computer.
pub fn hibernate(state: &AppState, owner: &str, machine_id: &str) -> bool {
    {
        let mut db = state.db();
        match db.machine_mut(machine_id) {
            Some(m) if m.owner == owner && m.kind == MachineKind::Cloud && !m.is_free => {
                m.power = Power::Hibernating;
                m.updated_at = Clock::now_ms();
            }
            _ => return false,
        }
    }
    state.notify();
    let s = state.clone();
    let id = machine_id.to_owned();
    tokio::spawn(async move {
        s.clock().sleep(HIBERNATE).await;
        let asleep = {
            let mut db = s.db();
            match db.machine_mut(&id) {
                Some(m) if m.power == Power::Hibernating => {
                    m.power = Power::Hibernated;
                    m.updated_at = Clock::now_ms();
                    true
                }
                _ => false,
            }
        };
        if asleep {
            s.notify();
        }
    });
    true
}

/// Gives the free computer back to the pool: the next message claims a fresh one.
pub fn release_free(state: &AppState, owner: &str) {
    {
        let mut db = state.db();
        let Some(m) = db
            .machines
            .iter_mut()
            .find(|m| m.owner == owner && m.is_free)
        else {
            return;
        };
        m.power = Power::Unclaimed;
        m.updated_at = Clock::now_ms();
        m.desktop = Some(Desktop::new(
            SCREEN.0,
            SCREEN.1,
            m.name.as_deref().unwrap_or(""),
        ));
    }
    state.notify();
}

/// The free computer is claimed for one UTC day: after midnight the next message claims it
/// again ("first message of the day"). Runs lazily when the list or a message looks.
pub fn expire_free_claim(state: &AppState, owner: &str) {
    let stale = {
        let db = state.db();
        db.machines
            .iter()
            .find(|m| m.owner == owner && m.is_free)
            .filter(|m| m.power == Power::Active)
            .filter(|m| m.updated_at.div_euclid(86_400_000) != Clock::utc_day())
            .is_some_and(|m| db.running_turn_on(&m.id).is_none())
    };
    if stale {
        release_free(state, owner);
    }
}

/// Adds a new cloud computer that comes online after the documented creation time.
pub fn provision(state: &AppState, owner: &str, name: String) -> String {
    let id = state.new_id("m_");
    {
        let mut db = state.db();
        db.machines.push(crate::records::Machine {
            id: id.clone(),
            owner: owner.to_owned(),
            desktop: Some(Desktop::new(SCREEN.0, SCREEN.1, &name)),
            name: Some(name),
            kind: MachineKind::Cloud,
            power: Power::Provisioning,
            updated_at: Clock::now_ms(),
            is_free: false,
            wakeable: true,
        });
        db.creating.insert(owner.to_owned());
    }
    state.notify();
    let s = state.clone();
    let (mid, who) = (id.clone(), owner.to_owned());
    tokio::spawn(async move {
        s.clock().sleep(CREATE).await;
        s.db().creating.remove(&who);
        set_power(&s, &mid, Power::Active);
    });
    id
}
