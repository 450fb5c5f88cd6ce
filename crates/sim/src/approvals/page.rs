//! The approval page a person opens from `approvalUrl`
//! (`/approve/{userId}/{approvalId}?from=api`): Approve and Deny buttons. No credential: a
//! person opens it in a browser.

use super::{parse_decision, resolve};
use crate::records::Decision;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Html;
use axum::Form;
use std::collections::HashMap;

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The approval page a person opens from `approvalUrl`.
pub(super) async fn page(
    State(state): State<AppState>,
    Path((user_id, approval_id)): Path<(String, String)>,
) -> Result<Html<String>, (StatusCode, Html<String>)> {
    let a = state
        .db()
        .approvals
        .get(&approval_id)
        .filter(|a| a.owner == user_id)
        .cloned()
        .ok_or_else(|| {
            (
                StatusCode::NOT_FOUND,
                Html("<h1>No such approval request</h1>".into()),
            )
        })?;
    let state_line = match a.decision {
        Some(Decision::Approve) => "<p>You approved this.</p>".to_owned(),
        Some(Decision::Deny) => "<p>You denied this.</p>".to_owned(),
        Some(Decision::Expired) => "<p>This request expired.</p>".to_owned(),
        None => r#"<form method="post"><button name="decision" value="approve">Approve</button>
<button name="decision" value="deny">Deny</button></form>"#
            .to_owned(),
    };
    Ok(Html(format!(
        r#"<!doctype html><html><head><meta charset="utf-8"><title>Approve: {t}</title></head>
<body style="font-family:sans-serif;max-width:40em;margin:3em auto"><h1>{t}</h1><p>{d}</p>
<pre>{c}</pre>{state_line}</body></html>"#,
        t = escape(&a.title),
        d = escape(&a.description),
        c = escape(&a.command),
    )))
}

pub(super) async fn page_decide(
    State(state): State<AppState>,
    Path((user_id, approval_id)): Path<(String, String)>,
    Form(form): Form<HashMap<String, String>>,
) -> Result<Html<String>, (StatusCode, Html<String>)> {
    let owned = state
        .db()
        .approvals
        .get(&approval_id)
        .is_some_and(|a| a.owner == user_id);
    let decision = form.get("decision").and_then(|d| parse_decision(d));
    match (owned, decision) {
        (true, Some(d)) => {
            let _ = resolve(&state, &approval_id, d);
            page(State(state), Path((user_id, approval_id))).await
        }
        _ => Err((
            StatusCode::BAD_REQUEST,
            Html("<h1>Choose Approve or Deny</h1>".into()),
        )),
    }
}
