//! The three kinds of approval card the real service sends: yes/no (`exec`), a choice among
//! options (`choice`: one question with `options`, or several `questions`) whose answer
//! changes what the agent does, and a link-only secure input (a password or one-time code
//! entered on the simulator's own approval page, never through the API). Selections are
//! checked as the real service checks them; a refused pick is `400` and the card waits on.

use crate::support::*;
use serde_json::{json, Value};

/// Starts `task` on ada's Design laptop and waits for its card: (202 body, card).
async fn card(p: &Peer, task: &str) -> (Value, Value) {
    let m = p.machine_id("ada", "Design laptop").await;
    let t = p
        .start_task("ada", json!({"message": task, "machineId": m}))
        .await;
    let (_, body) = p
        .poll_until("ada", t["sessionId"].as_str().unwrap(), &["needs_approval"])
        .await;
    (t, body["approval"].clone())
}

async fn answer(p: &Peer, card: &Value, response: &str, selections: Value) -> (u16, Value) {
    let mut body = json!({"approvalId": card["approvalId"], "response": response});
    if !selections.is_null() {
        body["selections"] = selections;
    }
    send(p.post("/v1/agents/approve", "ada").json(&body)).await
}

async fn output(p: &Peer, t: &Value) -> String {
    let (turn, _) = p.finish_turn("ada", t["turnId"].as_str().unwrap()).await;
    assert_eq!(turn["status"], "succeeded", "{turn}");
    turn["output"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_one_question_choice_has_plain_options_and_the_pick_changes_the_answer() {
    let p = start_unhurried().await;
    let (t, c) = card(&p, "Check the weather, ask me which city").await;
    assert_eq!(c["approvalType"], "choice");
    assert_eq!(c["isLinkOnly"], false);
    assert_eq!(c["options"], json!(["Paris", "Rome", "Lisbon"]));
    assert_eq!(
        (&c["multiple"], &c["allowOther"]),
        (&json!(false), &json!(false))
    );
    assert!(c.get("questions").is_none());
    assert!(c["expiresAt"].as_i64().unwrap() > 0);
    let (s, b) = answer(&p, &c, "yes", json!([["Rome"]])).await;
    assert_eq!((s, b), (200, json!({"ok": true})));
    let out = output(&p, &t).await;
    assert!(out.contains("Rome"), "the answer follows the pick: {out}");
    assert!(!out.contains("Paris") && !out.contains("Lisbon"), "{out}");
}

#[tokio::test]
async fn refused_picks_are_400_and_the_card_stays_pending() {
    let p = start_unhurried().await;
    let (t, c) = card(&p, "Check the weather, ask me which city").await;
    for selections in [
        Value::Null,
        json!([]),
        json!([[]]),
        json!([["Berlin"]]),
        json!([["rome"]]),
        json!([["Paris", "Rome"]]),
        json!([["Rome"], ["Paris"]]),
        json!(["Rome"]),
        json!([[1]]),
    ] {
        let (s, b) = answer(&p, &c, "yes", selections.clone()).await;
        assert_eq!(s, 400, "{selections}: {b}");
        assert!(b["error"].as_str().is_some_and(|e| !e.is_empty()), "{b}");
    }
    let (_, body) = p
        .poll_until("ada", t["sessionId"].as_str().unwrap(), &["needs_approval"])
        .await;
    assert_eq!(
        body["approval"]["approvalId"], c["approvalId"],
        "still waiting"
    );
    let (s, _) = answer(&p, &c, "yes", json!([["Lisbon"]])).await;
    assert_eq!(s, 200);
    assert!(output(&p, &t).await.contains("Lisbon"));
}

#[tokio::test]
async fn several_questions_take_values_free_text_where_allowed_and_several_where_multiple() {
    let p = start_unhurried().await;
    let (t, c) = card(&p, "Plan a trip for the weekend").await;
    assert_eq!(c["approvalType"], "choice");
    let qs = c["questions"].as_array().unwrap();
    assert_eq!(qs.len(), 2);
    assert_eq!(qs[0]["question"], "Which city?");
    assert_eq!(
        qs[0]["options"][1],
        json!({"value": "rome", "label": "Rome"})
    );
    assert_eq!(
        (&qs[0]["multiple"], &qs[0]["allowOther"]),
        (&json!(false), &json!(true))
    );
    assert_eq!(
        (&qs[1]["multiple"], &qs[1]["allowOther"]),
        (&json!(true), &json!(false))
    );
    for refused in [
        json!([["rome"]]),
        json!([["sat"], ["rome"]]),
        json!([["rome"], ["Saturday"]]),
        json!([["rome"], ["sat", "monday"]]),
        json!([["rome", "paris"], ["sat"]]),
        json!([[""], ["sat"]]),
    ] {
        let (s, b) = answer(&p, &c, "always", refused.clone()).await;
        assert_eq!(s, 400, "{refused}: {b}");
    }
    let (s, _) = answer(&p, &c, "yes", json!([["Oslo"], ["sat", "sun"]])).await;
    assert_eq!(s, 200);
    let out = output(&p, &t).await;
    assert!(
        out.contains("Oslo") && out.contains("Saturday") && out.contains("Sunday"),
        "{out}"
    );
}

#[tokio::test]
async fn no_declines_a_choice_and_the_agent_says_so() {
    let p = start_unhurried().await;
    let (t, c) = card(&p, "Plan a trip for the weekend").await;
    let (s, _) = answer(&p, &c, "no", Value::Null).await;
    assert_eq!(s, 200);
    assert!(output(&p, &t).await.contains("declined"));
}

#[tokio::test]
async fn an_unanswered_choice_expires() {
    let p = start().await;
    let m = p.machine_id("ada", "Design laptop").await;
    let t = p
        .start_task(
            "ada",
            json!({"message": "Weather, ask me which city", "machineId": m}),
        )
        .await;
    assert!(output(&p, &t).await.contains("nobody answered"));
}

#[tokio::test]
async fn an_abort_resolves_a_pending_choice_as_denied() {
    let p = start_unhurried().await;
    let (t, c) = card(&p, "Plan a trip for the weekend").await;
    let (s, _) = send(
        p.post("/v1/agents/abort", "ada")
            .json(&json!({"sessionId": t["sessionId"]})),
    )
    .await;
    assert_eq!(s, 200);
    let (s, b) = answer(&p, &c, "yes", json!([["rome"], ["sat"]])).await;
    assert_eq!((s, b["error"].as_str()), (409, Some("approval_resolved")));
}

#[tokio::test]
async fn a_secure_input_card_is_answered_on_its_page_never_through_the_api() {
    let p = start_unhurried().await;
    let (t, c) = card(&p, "Sign in to the bank with my password").await;
    assert_eq!(c["isLinkOnly"], true);
    assert_eq!(c["inputKind"], "password");
    let (s, b) = answer(&p, &c, "yes", Value::Null).await;
    assert_eq!((s, b["error"].as_str()), (403, Some("link_only")));
    let url = c["approvalUrl"].as_str().unwrap();
    let page = p.http.get(url).send().await.unwrap().text().await.unwrap();
    assert!(
        page.contains(r#"type="password""#),
        "a field for the secret"
    );
    let res = p
        .http
        .post(url)
        .form(&[("decision", "approve"), ("secret", "")])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 400, "an empty secret is refused");
    let res = p
        .http
        .post(url)
        .form(&[("decision", "approve"), ("secret", "hunter2")])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    let out = output(&p, &t).await;
    assert!(out.contains("signed in"), "{out}");
    assert!(!out.contains("hunter2"), "the secret never comes back");
    let (_, ctx) = send(p.get(
        &format!(
            "/v1/agents/context?machineId={}&channel=api",
            p.machine_id("ada", "Design laptop").await
        ),
        "ada",
    ))
    .await;
    assert!(!ctx.to_string().contains("hunter2"));
}

#[tokio::test]
async fn a_one_time_code_card_can_be_cancelled_on_its_page() {
    let p = start_unhurried().await;
    let (t, c) = card(&p, "Enter the verification code for my account").await;
    assert_eq!(
        (&c["isLinkOnly"], &c["inputKind"]),
        (&json!(true), &json!("one_time_code"))
    );
    let res = p
        .http
        .post(c["approvalUrl"].as_str().unwrap())
        .form(&[("decision", "deny")])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 200);
    assert!(output(&p, &t).await.contains("declined"));
}
