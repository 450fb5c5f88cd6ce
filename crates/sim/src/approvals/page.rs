//! The approval page a person opens from `approvalUrl`
//! (`/approval/{userId}/{approvalId}?from=api`, the real service's shape). No credential: a person opens it in a
//! browser. A yes/no card shows Approve and Deny; a secure-input card shows a field for the
//! password or one-time code (Submit, or Cancel to decline), and the secret is never kept or
//! shown again; a choice card is answered through the API, so its page offers only Deny.

use super::{parse_decision, resolve, Card};
use crate::records::{Approval, Decision};
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Html;
use axum::Form;
use std::collections::HashMap;

type PageResult = Result<Html<String>, (StatusCode, Html<String>)>;

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn refuse(status: StatusCode, text: &str) -> (StatusCode, Html<String>) {
    (status, Html(format!("<h1>{}</h1>", escape(text))))
}

fn owned(state: &AppState, user_id: &str, approval_id: &str) -> Option<Approval> {
    state
        .db()
        .approvals
        .get(approval_id)
        .filter(|a| a.owner == user_id)
        .cloned()
}

/// The form for a card still waiting.
fn form(card: &Card) -> String {
    match card {
        Card::Exec { .. } | Card::Confirm => {
            r#"<form method="post"><button name="decision" value="approve">Approve</button>
<button name="decision" value="deny">Deny</button></form>"#
                .to_owned()
        }
        Card::Input { secret } => format!(
            r#"<form method="post"><label>Your {w} <input type="password" name="secret" autocomplete="off"></label>
<button name="decision" value="approve">Submit</button>
<button name="decision" value="deny" formnovalidate>Cancel</button></form>"#,
            w = secret.words()
        ),
        Card::Choice { .. } => r#"<p>Answer this choice in the app.</p>
<form method="post"><button name="decision" value="deny">Deny</button></form>"#
            .to_owned(),
    }
}

/// The approval page.
pub(super) async fn page(
    State(state): State<AppState>,
    Path((user_id, approval_id)): Path<(String, String)>,
) -> PageResult {
    let a = owned(&state, &user_id, &approval_id)
        .ok_or_else(|| refuse(StatusCode::NOT_FOUND, "No such approval request"))?;
    let state_line = match a.decision {
        Some(Decision::Approve) => "<p>You approved this.</p>".to_owned(),
        Some(Decision::Deny) => "<p>You denied this.</p>".to_owned(),
        Some(Decision::Expired) => "<p>This request expired.</p>".to_owned(),
        None => form(&a.card),
    };
    let detail = match &a.card {
        Card::Exec { command, .. } => format!("<pre>{}</pre>", escape(command)),
        _ => String::new(),
    };
    Ok(Html(format!(
        r#"<!doctype html><html><head><meta charset="utf-8"><title>Approve: {t}</title></head>
<body style="font-family:sans-serif;max-width:40em;margin:3em auto"><h1>{t}</h1><p>{d}</p>
{detail}{state_line}</body></html>"#,
        t = escape(&a.title),
        d = escape(&a.description),
    )))
}

/// A person answers on the page.
pub(super) async fn page_decide(
    State(state): State<AppState>,
    Path((user_id, approval_id)): Path<(String, String)>,
    Form(form): Form<HashMap<String, String>>,
) -> PageResult {
    let a = owned(&state, &user_id, &approval_id)
        .ok_or_else(|| refuse(StatusCode::BAD_REQUEST, "Choose Approve or Deny"))?;
    let decision = form
        .get("decision")
        .and_then(|d| parse_decision(d))
        .ok_or_else(|| refuse(StatusCode::BAD_REQUEST, "Choose Approve or Deny"))?;
    if decision == Decision::Approve {
        match &a.card {
            Card::Input { secret } => {
                // The secret is checked for presence only and then dropped.
                if form.get("secret").is_none_or(|s| s.trim().is_empty()) {
                    return Err(refuse(
                        StatusCode::BAD_REQUEST,
                        &format!("Enter your {}", secret.words()),
                    ));
                }
            }
            Card::Choice { .. } => {
                return Err(refuse(
                    StatusCode::BAD_REQUEST,
                    "Answer this choice in the app",
                ))
            }
            Card::Exec { .. } | Card::Confirm => {}
        }
    }
    let _ = resolve(&state, &approval_id, decision, None);
    page(State(state), Path((user_id, approval_id))).await
}
