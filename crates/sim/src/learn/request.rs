//! The learn request as sent: field types, sizes and the combinations the spec forbids, all
//! answered `400 validation` with `details` naming each problem.

use axum::http::StatusCode;
use serde_json::{Map, Value};

use crate::error::ApiError;

/// Most turns, evaluations; largest `initialCode` and evaluation `result`.
pub const MAX_TURNS: usize = 20;
pub const MAX_EVALUATIONS: usize = 20;
pub const MAX_INITIAL_CODE: usize = 200 * 1024;
pub const MAX_EVALUATION_RESULT: usize = 20 * 1024;

const FIELDS: [&str; 7] = [
    "turns",
    "template",
    "initialCode",
    "evaluations",
    "feedback",
    "model",
    "idempotency_key",
];
const EVALUATION_FIELDS: [&str; 5] = ["inputs", "result", "judgement", "passed", "note"];

/// One evaluation of earlier code.
#[derive(Debug, Clone, Default)]
pub struct Evaluation {
    pub inputs: Option<Map<String, Value>>,
    pub result: Option<Value>,
    pub judgement: Option<String>,
    pub passed: Option<bool>,
    pub note: Option<String>,
}

/// A checked learn request.
#[derive(Debug, Clone, Default)]
pub struct LearnRequest {
    pub turns: Vec<String>,
    pub template: Option<String>,
    pub initial_code: Option<String>,
    pub evaluations: Vec<Evaluation>,
    pub feedback: Option<String>,
    pub model: Option<String>,
    pub idempotency_key: Option<String>,
}

/// `400 validation` with the list of problems.
pub fn validation(details: Vec<String>) -> ApiError {
    let message = details
        .first()
        .cloned()
        .unwrap_or_else(|| "The request is not valid.".into());
    ApiError::coded(StatusCode::BAD_REQUEST, "validation", message).with("details", details)
}

fn string(o: &Map<String, Value>, key: &str, problems: &mut Vec<String>) -> Option<String> {
    match o.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            problems.push(format!("`{key}` must be a string."));
            None
        }
    }
}

/// Parses and checks the body.
pub fn parse(body: Value) -> Result<LearnRequest, ApiError> {
    let Value::Object(o) = body else {
        return Err(validation(vec!["The body must be a JSON object.".into()]));
    };
    let mut p = Vec::new();
    for k in o.keys().filter(|k| !FIELDS.contains(&k.as_str())) {
        p.push(format!("Unknown field `{k}`."));
    }
    let mut req = LearnRequest {
        template: string(&o, "template", &mut p),
        initial_code: string(&o, "initialCode", &mut p),
        feedback: string(&o, "feedback", &mut p),
        model: string(&o, "model", &mut p),
        idempotency_key: string(&o, "idempotency_key", &mut p),
        ..LearnRequest::default()
    };
    match o.get("turns") {
        None | Some(Value::Null) => {}
        Some(Value::Array(a)) => {
            for t in a {
                match t.as_str() {
                    Some(id) => req.turns.push(id.to_owned()),
                    None => p.push("`turns` must be turn ids (strings).".into()),
                }
            }
            if a.len() > MAX_TURNS {
                p.push(format!("At most {MAX_TURNS} turns."));
            }
        }
        Some(_) => p.push("`turns` must be an array of turn ids.".into()),
    }
    match o.get("evaluations") {
        None | Some(Value::Null) => {}
        Some(Value::Array(a)) => {
            if a.len() > MAX_EVALUATIONS {
                p.push(format!("At most {MAX_EVALUATIONS} evaluations."));
            }
            for (i, e) in a.iter().enumerate() {
                req.evaluations.push(evaluation(i, e, &mut p));
            }
        }
        Some(_) => p.push("`evaluations` must be an array.".into()),
    }
    if req
        .initial_code
        .as_ref()
        .is_some_and(|c| c.len() > MAX_INITIAL_CODE)
    {
        p.push("`initialCode` is larger than 200 KB.".into());
    }
    if req.initial_code.is_none() {
        if req.turns.is_empty() {
            p.push("Send `turns` to convert, or `initialCode` to repair.".into());
        }
        if !req.evaluations.is_empty() {
            p.push("`evaluations` need `initialCode`.".into());
        }
        if req.feedback.is_some() {
            p.push("`feedback` needs `initialCode`.".into());
        }
    }
    if p.is_empty() {
        Ok(req)
    } else {
        Err(validation(p))
    }
}

fn evaluation(i: usize, e: &Value, p: &mut Vec<String>) -> Evaluation {
    let Value::Object(o) = e else {
        p.push(format!("evaluations[{i}] must be an object."));
        return Evaluation::default();
    };
    for k in o
        .keys()
        .filter(|k| !EVALUATION_FIELDS.contains(&k.as_str()))
    {
        p.push(format!("evaluations[{i}]: unknown field `{k}`."));
    }
    let mut out = Evaluation::default();
    match o.get("inputs") {
        None | Some(Value::Null) => {}
        Some(Value::Object(m)) => out.inputs = Some(m.clone()),
        Some(_) => p.push(format!("evaluations[{i}].inputs must be an object.")),
    }
    if let Some(r) = o.get("result").filter(|r| !r.is_null()) {
        if r.to_string().len() > MAX_EVALUATION_RESULT {
            p.push(format!(
                "evaluations[{i}].result is larger than 20 KB; leave the screenshot out."
            ));
        }
        out.result = Some(r.clone());
    }
    out.judgement = string(o, "judgement", p);
    out.note = string(o, "note", p);
    match o.get("passed") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(b)) => out.passed = Some(*b),
        Some(_) => p.push(format!("evaluations[{i}].passed must be true or false.")),
    }
    out
}
