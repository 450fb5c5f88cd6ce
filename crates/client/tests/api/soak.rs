//! A soak under a bad network and a flaky service: many tasks followed to their end through
//! the simulator's `--faults` (10% of stream frames followed by a cut, 5% of requests 500, 5%
//! 429 with Retry-After, 10% held), and each task's messages, narration and progress checked
//! against what the simulator itself sent: nothing lost, nothing twice, and every task ends as
//! the simulator says it ended. A start whose answer is lost is settled by the follower itself
//! (sent again only when the service did not take it, followed in the machine's conversation
//! when it did: each machine's conversation is started first, so its session is known, as in
//! the app), so every text is exactly one task.
//!
//! A second run adds faults on the message route (answers lost after the service took the
//! message, and refusals before it did): each text is still exactly one task.
//!
//! CI runs 50 tasks each. `PORTHOLE_SOAK_TASKS=1000` runs the long one (BENCHMARKS.md, "Soak").

use futures_util::StreamExt;
use porthole_client::approvals::{Answer, ApprovalKind};
use porthole_client::events::StatusKind;
use porthole_client::messages::MessageRequest;
use porthole_client::{Client, ErrorCode, TaskFollower, TaskUpdate, Transport};
use porthole_sim::records::LogEntry;
use porthole_sim::RunningSim;

use crate::support::*;

const FAULTS: &str = "drop-stream=0.1,http-500=0.05,http-429=0.05,slow=0.1:200ms";
/// The same, with sends whose answer is lost after the service took the message, and sends
/// refused before it did.
const MESSAGE_FAULTS: &str =
    "drop-stream=0.1,http-500=0.05,http-429=0.05,slow=0.1:200ms,drop-message-answer=0.1,message-500=0.05";
/// A message not sent is offered to the person again; this many presses is a bug.
const RETRY_PRESSES: usize = 5;
const CITIES: [&str; 8] = [
    "Lisbon", "Quito", "Cairo", "Lagos", "Oslo", "Hanoi", "Lima", "Perth",
];

/// What one task showed, and what the simulator sent for it.
#[derive(Debug, Default)]
struct Tally {
    tasks: usize,
    lost: usize,
    repeated: usize,
    wrong_end: usize,
    resent: usize,
    not_sent: usize,
    reconnects: usize,
}

fn tasks_to_run() -> usize {
    std::env::var("PORTHOLE_SOAK_TASKS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(50)
}

/// Starts the task and follows it to its end. A send without an answer is the follower's to
/// settle: it sends again ("Sending again…") only when the service did not take the message,
/// so each text must end up as exactly one task (`sent_for` checks it). A message the service
/// never took ends as `MessageNotSent`, and the person presses Retry, as the app offers.
async fn deliver(
    client: &Client,
    machine_id: &str,
    session: &str,
    text: &str,
    tally: &mut Tally,
) -> Vec<TaskUpdate> {
    let request = MessageRequest::new(text, machine_id);
    for _ in 0..RETRY_PRESSES {
        let mut follower =
            TaskFollower::start_in(client, &request, Transport::Stream, Some(session))
                .await
                .unwrap_or_else(|e| panic!("{text:?} was refused: {e:?}"));
        let mut updates = Vec::new();
        loop {
            match follower.next().await {
                None => return updates,
                Some(Ok(update)) => {
                    if matches!(
                        update,
                        TaskUpdate::Status {
                            about: Some(StatusKind::Resending),
                            ..
                        }
                    ) {
                        tally.resent += 1;
                    }
                    if let TaskUpdate::NeedsApproval { approval } = &update {
                        if approval.kind == ApprovalKind::YesNo {
                            client
                                .approvals()
                                .answer(&approval.approval_id, &Answer::Yes)
                                .await
                                .expect("the approval is answered");
                        }
                    }
                    updates.push(update);
                }
                Some(Err(e)) if e.code() == ErrorCode::MessageNotSent => {
                    tally.not_sent += 1;
                    break;
                }
                Some(Err(e)) => panic!("{text:?}: the follow goes on: {e:?}"),
            }
        }
    }
    panic!("{text:?} was not sent after {RETRY_PRESSES} presses of Retry")
}

/// Starts the machine's conversation as the app does when the person asks for a new one, so
/// the session every message lands in is known (a send whose answer is lost names none). A
/// refusal of the faults is tried again.
async fn conversation(client: &Client, machine_id: &str) -> String {
    for _ in 0..20 {
        match client.sessions().new(machine_id).await {
            Ok(fresh) => {
                return fresh
                    .session_id
                    .expect("the simulator names the new session")
            }
            Err(e) => assert!(e.code().is_transient(), "{e:?}"),
        }
    }
    panic!("no new conversation after 20 tries")
}

/// The simulator's own record of the task whose message was `text`.
fn sent_for(sim: &RunningSim, text: &str) -> (Vec<String>, Vec<String>, Vec<String>, String) {
    let db = sim.state().db();
    let turns: Vec<_> = db.turns.values().filter(|t| t.message == text).collect();
    assert_eq!(turns.len(), 1, "{text:?} started exactly one task");
    let turn = turns[0];
    let (mut messages, mut narration, mut progress) = (Vec::new(), Vec::new(), Vec::new());
    for entry in &turn.log {
        match entry {
            LogEntry::Text {
                reasoning: false,
                text,
                ..
            } => messages.push(text.clone()),
            LogEntry::Text {
                reasoning: true,
                text,
                ..
            } => narration.push(text.clone()),
            LogEntry::Event(event) if event["type"] == "data-progress" => progress.push(
                event["data"]["text"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
            ),
            _ => {}
        }
    }
    (
        messages,
        narration,
        progress,
        turn.status.as_str().to_owned(),
    )
}

/// Counts what `shown` lost or repeated of `sent`, in order.
fn compare(sent: &[String], shown: &[String], tally: &mut Tally) {
    if sent != shown {
        let missing = sent.iter().filter(|s| !shown.contains(s)).count();
        tally.lost += missing;
        tally.repeated += shown.len().saturating_sub(sent.len() - missing);
    }
}

async fn run_on(sim: &RunningSim, client: &Client, machine_id: &str, tag: &str, n: usize) -> Tally {
    let mut tally = Tally::default();
    let session = conversation(client, machine_id).await;
    for i in 0..n {
        let text = format!(
            "Look up the weather in {} (soak {tag}-{i})",
            CITIES[i % CITIES.len()]
        );
        let updates = deliver(client, machine_id, &session, &text, &mut tally).await;
        let (messages, narration, progress, status) = sent_for(sim, &text);
        let pick = |f: fn(&TaskUpdate) -> Option<String>| -> Vec<String> {
            updates.iter().filter_map(f).collect()
        };
        let shown_messages = pick(|u| match u {
            TaskUpdate::Message { text, .. } => Some(text.clone()),
            _ => None,
        });
        let shown_narration = pick(|u| match u {
            TaskUpdate::Narration { text, .. } => Some(text.clone()),
            _ => None,
        });
        let shown_progress = pick(|u| match u {
            TaskUpdate::Progress { text, .. } => Some(text.clone()),
            _ => None,
        });
        compare(&messages, &shown_messages, &mut tally);
        compare(&narration, &shown_narration, &mut tally);
        compare(&progress, &shown_progress, &mut tally);
        let succeeded = matches!(
            updates.last(),
            Some(TaskUpdate::Finished {
                succeeded: true,
                ..
            })
        );
        if succeeded != (status == "succeeded") {
            tally.wrong_end += 1;
            eprintln!(
                "{text:?}: the simulator says {status}, the follower {:?}",
                updates.last()
            );
        }
        tally.reconnects += updates
            .iter()
            .filter(|u| matches!(u, TaskUpdate::Reconnecting { .. }))
            .count();
        tally.tasks += 1;
    }
    tally
}

#[tokio::test]
async fn tasks_under_faults_lose_and_repeat_nothing() {
    soak(FAULTS, 2026).await;
}

#[tokio::test]
async fn tasks_under_faults_on_the_message_route_start_once_each() {
    soak(MESSAGE_FAULTS, 2027).await;
}

/// Runs the soak under `faults` and checks that nothing was lost, repeated or ended wrong.
async fn soak(faults: &str, seed: u64) {
    let sim = sim_with_faults(faults, seed).await;
    // Ada's $25 pays for a few hundred tasks; the long soak is about delivery, not credit, so
    // her account is topped up as its owner would in the portal.
    let ada_id = sim.account("ada").user_id.clone();
    let _ = sim.state().credits_usd(&ada_id); // her credit is opened on first look
    sim.state()
        .db()
        .credits
        .get_mut(&ada_id)
        .expect("ada's credit")
        .usd = 1_000_000.0;
    let ada = client(&sim, "ada");
    let ulla = client(&sim, "ulla");
    let laptop = machine(&ada, "Design laptop").await;
    let macbook = machine(&ada, "Ada's MacBook").await;
    let workstation = machine(&ulla, "Ulla's workstation").await;
    let total = tasks_to_run();
    let share = total.div_ceil(3);
    let started = std::time::Instant::now();
    let (a, b, c) = tokio::join!(
        run_on(&sim, &ada, &laptop, "laptop", share),
        run_on(&sim, &ada, &macbook, "macbook", share),
        run_on(&sim, &ulla, &workstation, "workstation", total - 2 * share),
    );
    let mut all = Tally::default();
    for t in [a, b, c] {
        all.tasks += t.tasks;
        all.lost += t.lost;
        all.repeated += t.repeated;
        all.wrong_end += t.wrong_end;
        all.resent += t.resent;
        all.not_sent += t.not_sent;
        all.reconnects += t.reconnects;
    }
    eprintln!(
        "soak: {} tasks in {:.1} s under {faults}: {} lost, {} repeated, {} ended wrong; \
         {} sends made again, {} not sent (Retry pressed), {} reconnects",
        all.tasks,
        started.elapsed().as_secs_f64(),
        all.lost,
        all.repeated,
        all.wrong_end,
        all.resent,
        all.not_sent,
        all.reconnects
    );
    assert_eq!(all.tasks, total);
    assert!(all.reconnects > 0, "the faults cut some streams");
    assert_eq!(
        (all.lost, all.repeated, all.wrong_end),
        (0, 0, 0),
        "{all:?}"
    );
}
