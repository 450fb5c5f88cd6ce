//! `POST /v1/agents/message`: start or join a task.
//!
//! A message goes to the named computer's current `api` session (created on first use), as
//! on the real service; a `sessionId` in the body is not honoured. If that session's turn is
//! still working, the message joins it (`queued: true`, same `turnId`); otherwise it starts a
//! new turn, unless the account has no credit at all (`402 insufficient_credits`).
//!
//! Faults of this route: `message-500` refuses the message before anything is done;
//! `drop-message-answer` takes it (the task starts or it joins one) and then closes the
//! connection without an answer.

use crate::auth::Caller;
use crate::body::{object, opt_bool, opt_str, JsonBody};
use crate::clock::Clock;
use crate::error::ApiError;
use crate::faults::Fault;
use crate::limits::Limit;
use crate::machines::machine_not_found;
use crate::records::{Channel, Power, Turn, TurnStatus};
use crate::state::AppState;
use crate::{agent, models, stream};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Map, Value};

pub fn routes() -> Router<AppState> {
    Router::new().route("/v1/agents/message", post(message))
}

pub(crate) fn session_forbidden() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "Session not found or does not belong to your account.",
    )
}

/// A plain acknowledgement gets a reply without starting a task.
fn acknowledgement_reply(message: &str) -> Option<&'static str> {
    let m = message.trim().trim_end_matches(['.', '!']).to_lowercase();
    match m.as_str() {
        "thanks" | "thank you" | "thx" | "ty" | "thanks a lot" => Some("You're welcome!"),
        "ok" | "okay" | "k" | "cool" | "great" | "got it" | "nice" => {
            Some("Glad that works. Send a task when you're ready.")
        }
        _ => None,
    }
}

/// Fills `{{name}}` placeholders of a template.
fn fill(template: &str, inputs: &Map<String, Value>) -> String {
    let mut out = template.to_owned();
    for (k, v) in inputs {
        let text = match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        out = out.replace(&format!("{{{{{k}}}}}"), &text);
    }
    out
}

struct Parsed {
    message: String,
    machine_id: Option<String>,
    wait: bool,
    model: Option<String>,
    attachments: Vec<Value>,
    record: bool,
    output_schema: Option<Value>,
    success_criteria: Option<Value>,
    template: Option<String>,
    inputs: Option<Map<String, Value>>,
}

fn parse(body: Value) -> Result<Parsed, ApiError> {
    let o = object(body)?;
    let template = opt_str(&o, "template")?;
    let options = match o.get("options") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(_) => return Err(ApiError::bad_request("options must be an object.")),
    };
    let inputs = match o.get("inputs").or(options.get("inputs")) {
        None | Some(Value::Null) => None,
        Some(Value::Object(m)) => Some(m.clone()),
        Some(_) => return Err(ApiError::bad_request("inputs must be an object.")),
    };
    let message = match (opt_str(&o, "message")?, &template) {
        (Some(m), _) if !m.trim().is_empty() => m,
        (_, Some(t)) if !t.trim().is_empty() => fill(t, inputs.as_ref().unwrap_or(&Map::new())),
        _ => return Err(ApiError::bad_request("message is required.")),
    };
    let record = match options.get("recordTrajectory") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            return Err(ApiError::bad_request(
                "options.recordTrajectory must be true or false.",
            ))
        }
    };
    let attachments = match o.get("attachments") {
        None | Some(Value::Null) => vec![],
        Some(Value::Array(a)) => a.clone(),
        Some(_) => {
            return Err(ApiError::bad_request(
                "attachments must be an array of upload objects.",
            ))
        }
    };
    let output_schema = match o.get("output_schema") {
        None | Some(Value::Null) => None,
        Some(v @ Value::Object(_)) => Some(v.clone()),
        Some(_) => {
            return Err(ApiError::bad_request(
                "output_schema must be a JSON Schema object.",
            ))
        }
    };
    let success_criteria = match o.get("success_criteria") {
        None | Some(Value::Null) => None,
        Some(v @ Value::String(_)) => Some(v.clone()),
        Some(Value::Array(a))
            if a.iter()
                .all(|c| c.get("check").is_some_and(Value::is_string)) =>
        {
            Some(Value::Array(a.clone()))
        }
        Some(_) => {
            return Err(ApiError::bad_request(
                "success_criteria must be a sentence or a list of { id, check }.",
            ))
        }
    };
    Ok(Parsed {
        message,
        machine_id: opt_str(&o, "machineId")?,
        wait: opt_bool(&o, "wait")?.unwrap_or(true),
        model: opt_str(&o, "model")?,
        attachments,
        record,
        output_schema,
        success_criteria,
        template,
        inputs,
    })
}

/// Checks a model id against the plan.
pub(crate) fn check_model(state: &AppState, caller: &Caller, model: &str) -> Result<(), ApiError> {
    let plan = state
        .account(&caller.user_id)
        .map(|a| a.plan)
        .ok_or_else(ApiError::unauthorized)?;
    let m = models::find(model)
        .ok_or_else(|| ApiError::bad_request(format!("Unknown model: {model}.")))?;
    if !m.allowed_on(plan) {
        return Err(ApiError::coded(
            StatusCode::FORBIDDEN,
            "model_not_allowed_for_plan",
            format!(
                "{} is not available on your plan. Pick another model or upgrade.",
                m.name
            ),
        )
        .with("allowedModels", models::allowed_ids(plan)));
    }
    Ok(())
}

/// Picks the computer when `machineId` is omitted.
fn pick_machine(state: &AppState, caller: &Caller) -> Result<String, ApiError> {
    let db = state.db();
    let mine: Vec<_> = db
        .machines
        .iter()
        .filter(|m| m.owner == caller.user_id && m.power != Power::Provisioning)
        .collect();
    match mine.as_slice() {
        [] => Err(ApiError::bad_request(
            "You have no computer yet. Create one first.",
        )),
        [one] => Ok(one.id.clone()),
        many => Err(ApiError::bad_request(
            "Several computers could take this message. Choose one with machineId.",
        )
        .with(
            "machines",
            many.iter()
                .map(|m| json!({ "machineId": m.id, "name": m.name }))
                .collect::<Vec<_>>(),
        )),
    }
}

async fn message(
    State(state): State<AppState>,
    caller: Caller,
    JsonBody(body): JsonBody,
) -> Result<Response, ApiError> {
    if state.faults().roll(Fault::Message500) {
        return Err(ApiError::internal("The service had a problem. Try again."));
    }
    let p = parse(body)?;
    crate::machines::power::expire_free_claim(&state, &caller.user_id);
    state
        .limits()
        .hit(&caller.user_id, Limit::Messages)
        .map_err(|w| {
            ApiError::rate_limited(
                "Message rate limit exceeded. Maximum 60 messages per hour.",
                w,
            )
        })?;
    if let Some(model) = &p.model {
        check_model(&state, &caller, model)?;
    }
    let mut attachments = Vec::new();
    for a in &p.attachments {
        let file_id = a.get("fileId").and_then(Value::as_str).ok_or_else(|| {
            ApiError::bad_request("Each attachment needs a fileId from the upload endpoint.")
        })?;
        let upload = state
            .db()
            .uploads
            .iter()
            .find(|u| u.file_id == file_id && u.owner == caller.user_id)
            // In the makers' shapes the task keeps the attachment as sent (their client sends
            // every field of the upload back), so a test can read what arrived.
            .map(|u| match state.shapes() {
                crate::Shapes::Makers => a.clone(),
                crate::Shapes::Contract => u.json(),
            });
        attachments.push(upload.ok_or_else(|| {
            ApiError::bad_request(format!("Unknown attachment fileId: {file_id}."))
        })?);
    }
    let machine_id = match &p.machine_id {
        Some(mid) => {
            state
                .machine(&caller.user_id, mid)
                .ok_or_else(machine_not_found)?;
            mid.clone()
        }
        None => pick_machine(&state, &caller)?,
    };
    if let Some(reply) = acknowledgement_reply(&p.message) {
        return Ok(Json(json!({ "error": reply })).into_response());
    }
    let power = {
        let db = state.db();
        let m = db.machine(&machine_id).ok_or_else(machine_not_found)?;
        m.power
    };
    if power == Power::Provisioning && !p.wait {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "The computer is still being created and cannot take a message yet.",
        ));
    }
    // Read before the records are locked: the balance takes the same lock.
    let has_credit = crate::credits::has_credit(&state, &caller.user_id);
    // Find or create the session, then join or start a turn.
    let (session_id, turn_id, queued, from) = {
        let mut db = state.db();
        if state.faults().roll(Fault::RetireOnMove) {
            crate::sessions::retire_elsewhere(&mut db, &caller.user_id, &machine_id);
        }
        let sid = match crate::sessions::current(&db, &caller.user_id, &machine_id, Channel::Api) {
            Some(s) => s,
            None => crate::sessions::open(
                &state,
                &mut db,
                &caller.user_id,
                &machine_id,
                Channel::Api,
                None,
            ),
        };
        let session = db
            .sessions
            .get_mut(&sid)
            .ok_or_else(|| ApiError::internal("lost session"))?;
        if session.title.is_none() {
            session.title = Some(crate::sessions::title_of(&p.message));
        }
        if let Some(m) = &p.model {
            session.model = Some(m.clone());
        }
        let model = session
            .model
            .clone()
            .unwrap_or_else(|| models::DEFAULT_MODEL.to_owned());
        // A turn being aborted still runs until it reaches its end: as on the real service, a
        // message sent meanwhile is folded into the dying turn (and dies with it).
        let running = session.current_turn().cloned().filter(|tid| {
            db.turns
                .get(tid)
                .is_some_and(|t| matches!(t.status, TurnStatus::Running | TurnStatus::NeedsInput))
        });
        match running {
            Some(tid) => {
                let t = db
                    .turns
                    .get_mut(&tid)
                    .ok_or_else(|| ApiError::internal("lost turn"))?;
                t.steering.push(p.message.clone());
                t.joined.push(p.message.clone());
                // As on the real service, the joining message's stream replays the task.
                (sid, tid, true, 0)
            }
            None if !has_credit => return Err(crate::credits::out_of_credit()),
            None => {
                let tid = state.new_id("turn_");
                let turn = Turn {
                    id: tid.clone(),
                    owner: caller.user_id.clone(),
                    session_id: sid.clone(),
                    machine_id: machine_id.clone(),
                    status: if power == Power::Provisioning {
                        TurnStatus::Failed
                    } else {
                        TurnStatus::Running
                    },
                    message: p.message.clone(),
                    template: p.template.clone(),
                    inputs: p.inputs.clone().map(Value::Object),
                    output_schema: p.output_schema.clone(),
                    success_criteria: p.success_criteria.clone(),
                    record_trajectory: p.record,
                    attachments: attachments.clone(),
                    model,
                    steps: vec![],
                    final_screenshot: None,
                    answer: String::new(),
                    output: Value::Null,
                    reason_code: None,
                    raw_answer: None,
                    error_code: None,
                    evidence: None,
                    output_errors: None,
                    usage: None,
                    log: vec![],
                    steering: vec![],
                    joined: vec![],
                    aborted: false,
                    ended: false,
                    created_at: Clock::now_ms(),
                };
                db.turns.insert(tid.clone(), turn);
                if let Some(s) = db.sessions.get_mut(&sid) {
                    s.turns.push(tid.clone());
                }
                (sid, tid, false, 0)
            }
        }
    };
    state.notify();
    if !queued {
        if power == Power::Provisioning {
            not_taken(&state, &turn_id);
        } else {
            agent::spawn(state.clone(), turn_id.clone());
        }
    }
    if state.faults().roll(Fault::DropMessageAnswer) {
        return Ok(crate::faults::dropped_answer());
    }
    if p.wait {
        return Ok(stream::respond(state, session_id, turn_id, from));
    }
    let mut accepted =
        json!({ "sessionId": session_id, "machineId": machine_id, "queued": queued });
    if state.turn_id_in().message {
        accepted["turnId"] = json!(turn_id);
    }
    Ok((StatusCode::ACCEPTED, Json(accepted)).into_response())
}

/// A streamed message the computer could not take: the turn fails at once.
fn not_taken(state: &AppState, turn_id: &str) {
    crate::tasks::event(
        state,
        turn_id,
        json!({ "type": "error", "errorText": "The computer is still being created and cannot take a message yet." }),
    );
    if let Some(t) = state.db().turns.get_mut(turn_id) {
        t.status = TurnStatus::Failed;
        t.reason_code = Some("not_started".into());
        t.raw_answer = Some("The computer was not available.".into());
        t.ended = true;
    }
    state.notify();
}
