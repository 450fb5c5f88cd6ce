//! The scripted agent: one task per turn, doing visible work on the machine's desktop
//! (opens a window, types, clicks, reads), narrating it with reasoning, progress lines and
//! tool calls, asking approval before sensitive steps, and answering in Markdown. Its
//! behaviour is chosen by trigger words (see `script`).

mod finish;
mod home;
pub(crate) mod results;
pub mod script;
mod step;
pub mod structured;

use crate::accounts::Plan;
use crate::approvals::{self, Ask, Card};
use crate::clock::Clock;
use crate::desktop::{Desktop, WindowId};
use crate::models;
use crate::records::{Counts, Decision, LogEntry, Step};
use crate::state::AppState;
use crate::tasks;
use script::{Action, Script};
use serde_json::{json, Value};
use std::borrow::Cow;
use std::sync::Arc;
use std::time::{Duration, Instant};
use step::{frame, run_step, wait_for_lease};

/// How a task ended.
enum Outcome {
    Answer(String),
    Fail {
        reason: &'static str,
        code: Option<&'static str>,
        text: String,
    },
    Aborted,
}

struct Ctx {
    state: AppState,
    turn_id: String,
    owner: String,
    machine_id: String,
    model: String,
    plan: Plan,
    message: String,
    record: bool,
    desktop: Option<Desktop>,
    window: Option<WindowId>,
    shot_cache: Option<(u64, Arc<Vec<u8>>)>,
    next_id: u32,
}

/// Starts the task of a new turn in the background.
pub fn spawn(state: AppState, turn_id: String) {
    let work = tokio::spawn(run(state.clone(), turn_id.clone()));
    // A bug in the agent must not leave streams and polls waiting forever.
    tokio::spawn(async move {
        if let Err(e) = work.await {
            if e.is_panic() {
                tracing::error!("the scripted agent failed on {turn_id}");
                let text = "The agent stopped unexpectedly.";
                let mut ev = Some(json!({ "type": "error", "errorText": text }));
                let mut db = state.db();
                if let Some(t) = db.turns.get_mut(&turn_id).filter(|t| !t.ended) {
                    // The error event goes in before the turn ends, so streams send it before [DONE].
                    t.log.extend(ev.take().map(LogEntry::Event));
                    t.status = crate::records::TurnStatus::Failed;
                    t.reason_code = Some("agent_error".into());
                    t.raw_answer = Some(text.into());
                    t.ended = true;
                }
                drop(db);
                state.notify();
            }
        }
    });
}

async fn run(state: AppState, turn_id: String) {
    let Some(mut ctx) = load(&state, &turn_id) else {
        return;
    };
    let started = Instant::now();
    let script = script::plan(&ctx.message);
    let outcome = work(&mut ctx, &script).await;
    if state.free_computer_time_left(&ctx.owner).is_some()
        && state
            .machine(&ctx.owner, &ctx.machine_id)
            .is_some_and(|m| m.is_free)
    {
        let documented = started.elapsed().as_secs_f64() / state.clock().scale();
        state.spend_free_time(&ctx.owner, documented);
    }
    finish::finish(&mut ctx, &script, outcome).await;
}

fn load(state: &AppState, turn_id: &str) -> Option<Ctx> {
    let db = state.db();
    let t = db.turns.get(turn_id)?;
    let plan = state.account(&t.owner)?.plan;
    let desktop = db.machine(&t.machine_id).and_then(|m| m.desktop.clone());
    Some(Ctx {
        state: state.clone(),
        turn_id: turn_id.to_owned(),
        owner: t.owner.clone(),
        machine_id: t.machine_id.clone(),
        model: t.model.clone(),
        plan,
        message: crate::task_words::task_words(&t.message),
        record: t.record_trajectory,
        desktop,
        window: None,
        shot_cache: None,
        next_id: 0,
    })
}

impl Ctx {
    fn id(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!(
            "{prefix}_{}_{}",
            &self.turn_id[5.min(self.turn_id.len())..],
            self.next_id
        )
    }

    fn say(&mut self, reasoning: bool, text: String) {
        let id = self.id(if reasoning { "r" } else { "t" });
        tasks::push(
            &self.state,
            &self.turn_id,
            LogEntry::Text {
                id,
                reasoning,
                text,
            },
        );
    }

    fn call_model(&self, scale: u64) {
        let m = models::resolve(&self.model, self.plan);
        let (pin, pout) = m.price_per_mtok();
        let c = Counts {
            input_tokens: 1800 * scale,
            output_tokens: 220 * scale,
            cache_read_tokens: 1200,
            cache_write_tokens: 300,
            cost_usd: (1800.0 * scale as f64 * pin
                + 220.0 * scale as f64 * pout
                + 1200.0 * pin * 0.1
                + 300.0 * pin * 1.25)
                / 1e6,
            model_calls: 1,
        };
        tasks::model_call(&self.state, &self.turn_id, m.id, c);
    }

    fn screenshot(&mut self) -> Option<Arc<Vec<u8>>> {
        let d = self.desktop.as_ref()?;
        let version = *d.subscribe().borrow();
        if let Some((v, shot)) = &self.shot_cache {
            if *v == version {
                return Some(shot.clone());
            }
        }
        let shot = Arc::new(d.jpeg(70));
        self.shot_cache = Some((version, shot.clone()));
        Some(shot)
    }

    fn aborted(&self) -> bool {
        tasks::aborted(&self.state, &self.turn_id)
    }
}

/// Goes round in circles: the same narration and the same step each round, until a message
/// joins the task (its words are returned), the task is stopped, or the rounds run out.
async fn go_round(ctx: &mut Ctx, script: &Script) -> Option<String> {
    let round = script::round();
    for _ in 0..script::LOOPS {
        if ctx.aborted() {
            return None;
        }
        if let Some(steer) = tasks::take_steering(&ctx.state, &ctx.turn_id)
            .into_iter()
            .next()
        {
            ctx.call_model(1);
            ctx.say(
                true,
                format!("You added: “{steer}”. That helps: I stop looking and go on."),
            );
            return Some(steer);
        }
        ctx.say(
            true,
            "The Save button is not there yet. I look again.".into(),
        );
        run_step(ctx, &round, script, 1).await;
    }
    None
}

fn fail(reason: &'static str, code: Option<&'static str>, text: &str) -> Outcome {
    Outcome::Fail {
        reason,
        code,
        text: text.to_owned(),
    }
}

/// The credit ran out: the task ends with the coded error event.
fn out_of_credit() -> Outcome {
    fail(
        "agent_error",
        Some("insufficient_credits"),
        "You have no credit left. Free credits refresh at midnight UTC.",
    )
}

async fn work(ctx: &mut Ctx, script: &Script) -> Outcome {
    let state = ctx.state.clone();
    if script.unreachable {
        return fail(
            "machine_unavailable",
            None,
            "The computer could not be reached.",
        );
    }
    if !crate::credits::has_credit(&state, &ctx.owner) {
        return out_of_credit();
    }
    if state.free_computer_time_left(&ctx.owner) == Some(Duration::ZERO)
        && state
            .machine(&ctx.owner, &ctx.machine_id)
            .is_some_and(|m| m.is_free)
    {
        return fail(
            "agent_error",
            Some("free_computer_time_exhausted"),
            "Today's free computer time is used up. It resets tomorrow.",
        );
    }
    let (s, t) = (state.clone(), ctx.turn_id.clone());
    let woke = crate::machines::power::ensure_awake(&state, &ctx.owner, &ctx.machine_id, |text| {
        tasks::push(
            &s,
            &t,
            LogEntry::Status {
                text: text.to_owned(),
                kind: "waking".into(),
            },
        )
    })
    .await;
    if woke.is_err() {
        // `agent_offline` is this simulator's own kind; the makers' client knows the real
        // service's `stalled` for a computer that has not picked the task up.
        let kind = match state.shapes() {
            crate::Shapes::Makers => "stalled",
            crate::Shapes::Contract => "agent_offline",
        };
        tasks::push(
            &state,
            &ctx.turn_id,
            LogEntry::Status {
                text:
                    "The computer is asleep and cannot be woken from here, so the agent is offline."
                        .into(),
                kind: kind.into(),
            },
        );
        return fail(
            "machine_unavailable",
            None,
            "The computer is not available right now.",
        );
    }
    if state.shapes() == crate::Shapes::Makers
        && state
            .machine(&ctx.owner, &ctx.machine_id)
            .is_some_and(|m| m.kind == crate::records::MachineKind::Own)
    {
        // The makers' client words `stalled` for the person's own computer that has not
        // picked the task up yet (`ConciergeProtocol.kt`); here it picks it up a moment later.
        tasks::push(
            &state,
            &ctx.turn_id,
            LogEntry::Status {
                text: "Your computer has not picked up the task yet.".into(),
                kind: "stalled".into(),
            },
        );
        tokio::time::sleep(state.clock().scaled(std::time::Duration::from_secs(3))).await;
    }
    wait_for_lease(ctx).await;
    if ctx.aborted() {
        return Outcome::Aborted;
    }
    ctx.call_model(1);
    let model = models::resolve(&ctx.model, ctx.plan).id;
    frame(
        ctx,
        json!({ "type": "message-metadata", "messageMetadata": { "model": model } }),
    );
    ctx.say(
        true,
        format!(
            "I'll use {} on the computer to do this: {}",
            script.app, ctx.message
        ),
    );
    if script.broken_card {
        tasks::event(
            &state,
            &ctx.turn_id,
            json!({ "type": "data-approval-request", "data": {
                "title": "A card with nothing to answer",
                "approvalType": "exec",
                "isLinkOnly": false,
            } }),
        );
    }
    let mut notes = Vec::new();
    let mut script = script.clone();
    if let Some(choice) = script.choice.clone() {
        let reply = approvals::ask(
            &state,
            &ctx.turn_id,
            Ask {
                title: choice.title.clone(),
                description: format!("The agent needs your choice to go on with: {}", ctx.message),
                card: Card::Choice {
                    questions: choice.questions.clone(),
                },
                link_only: false,
            },
        )
        .await;
        if ctx.aborted() {
            return Outcome::Aborted;
        }
        match reply.decision {
            Decision::Approve => {
                let chosen = approvals::chosen_words(&choice.questions, &reply.selections);
                ctx.say(
                    true,
                    format!("You chose {}; going on with that.", chosen.join("; ")),
                );
                script::apply_choice(&mut script, &ctx.message, &chosen);
                notes.push(format!("You chose: {}.", chosen.join("; ")));
            }
            Decision::Deny => {
                notes.push("I did not use a choice because you declined to choose.".into())
            }
            Decision::Expired => {
                notes.push("I did not use a choice because nobody answered in time.".into())
            }
        }
    }
    let script = &script;
    // What was not done because the person said no (or nobody answered): the answer leads
    // with it, and the screen shows that nothing changed.
    let mut held_back: Option<String> = None;
    for (i, plan) in script.steps.iter().enumerate() {
        let plan = if held_back.is_some() && i + 1 == script.steps.len() {
            Cow::Owned(script::StepPlan {
                action: Action::Type("\nResult: Nothing was changed.\n".into()),
                ..plan.clone()
            })
        } else {
            Cow::Borrowed(plan)
        };
        let plan = plan.as_ref();
        if ctx.aborted() {
            return Outcome::Aborted;
        }
        if !crate::credits::has_credit(&state, &ctx.owner) {
            return out_of_credit();
        }
        for steer in tasks::take_steering(&state, &ctx.turn_id) {
            ctx.call_model(1);
            ctx.say(
                true,
                format!("You added: “{steer}”. I'll take that into account."),
            );
            notes.push(steer);
        }
        if script.loops && i + 1 == script.steps.len() {
            match go_round(ctx, script).await {
                Some(steer) => notes.push(steer),
                None if ctx.aborted() => return Outcome::Aborted,
                None => notes.push("I could not find the Save button.".into()),
            }
        }
        let mut skipped = false;
        if let Some(s) = &plan.sensitive {
            let card = match s.secret {
                Some(secret) => Card::Input { secret },
                None => match &s.command {
                    Some(command) => Card::Exec {
                        command: command.clone(),
                        cwd: s.cwd.clone(),
                    },
                    None => Card::Confirm,
                },
            };
            let reply = approvals::ask(
                &state,
                &ctx.turn_id,
                Ask {
                    title: s.title.clone(),
                    description: s.description.clone(),
                    card,
                    link_only: s.link_only,
                },
            )
            .await;
            if ctx.aborted() {
                return Outcome::Aborted;
            }
            match reply.decision {
                Decision::Approve => {
                    ctx.say(true, "Permission granted, continuing.".into());
                    if let Some(secret) = s.secret {
                        notes.push(format!(
                            "I signed in with the {} you entered on the approval page.",
                            secret.words()
                        ));
                    }
                }
                Decision::Deny => {
                    held_back
                        .get_or_insert(format!("I did not {} because you declined.", s.undone));
                    skipped = true;
                }
                Decision::Expired => {
                    held_back.get_or_insert(format!(
                        "I did not {} because nobody answered in time.",
                        s.undone
                    ));
                    skipped = true;
                }
            }
        }
        if skipped {
            continue;
        }
        if script.marathon && i == 1 && ctx.plan.is_free() {
            if let Some(left) = state.free_computer_time_left(&ctx.owner) {
                state.spend_free_time(&ctx.owner, left.as_secs_f64() + 1.0);
                let call = ctx.id("call");
                tasks::event(
                    &state,
                    &ctx.turn_id,
                    json!({
                        "type": "tool-output-error", "toolCallId": call,
                        "errorText": "The free computer time for today is used up; the workspace was shut down.",
                        "code": "free_computer_time_exhausted",
                    }),
                );
                state.release_free_computer(&ctx.owner);
                return fail(
                    "agent_error",
                    Some("free_computer_time_exhausted"),
                    "Today's free computer time ran out, so the computer was shut down.",
                );
            }
        }
        // An expensive task's first step is one huge model call, so a small balance runs out
        // while the task is under way.
        let scale = if script.expensive && i == 0 { 800 } else { 1 };
        run_step(ctx, plan, script, scale).await;
        if let Some(err) = &plan.error {
            ctx.call_model(1);
            return fail(
                "agent_error",
                None,
                &format!("I could not finish the task: {err}"),
            );
        }
    }
    ctx.call_model(1);
    // The answer is what the person wanted to know, read from this task's own window: a click
    // on the way (the permission step's) may have raised an earlier task's window, whose
    // result is not this task's.
    let read = ctx
        .desktop
        .as_ref()
        .zip(ctx.window)
        .and_then(|(d, w)| d.window_text(w))
        .and_then(|text| {
            text.lines().rev().find_map(|l| {
                l.trim()
                    .strip_prefix("Result:")
                    .map(|r| r.trim().to_owned())
            })
        })
        .unwrap_or_else(|| "Finished as asked.".to_owned());
    let lead = held_back.unwrap_or(read);
    let offers = lead == results::CAN_DO;
    let mut answer = format!("**{lead}**\n");
    if offers {
        answer.push_str(&format!("\n{}\n\n", results::CAN_DO_INSTEAD));
        for example in results::EXAMPLES {
            answer.push_str(&format!("- “{example}”\n"));
        }
    }
    if !notes.is_empty() {
        answer.push('\n');
    }
    for n in notes {
        answer.push_str(&format!("- {n}\n"));
    }
    Outcome::Answer(answer)
}
