//! One step of the scripted agent, as the service reports it: the tool call with its code, the
//! visible work on the desktop, progress lines, the output or the error, the model call, and
//! the step kept for the turn (with its screenshot when the turn records). Also the wait for
//! a console lease that holds the machine.

use super::*;

/// Waits while a lease holds the machine; a quiet lease loses the machine (`lock_lost`).
pub(super) async fn wait_for_lease(ctx: &Ctx) {
    let state = &ctx.state;
    let mut changes = state.changes();
    loop {
        changes.borrow_and_update();
        match state.lease_hold(&ctx.machine_id) {
            None => break,
            Some(h) if h.is_quiet() => {
                h.take_over();
                break;
            }
            Some(_) => state.set_waiting_for_lease(&ctx.machine_id, true),
        }
        if ctx.aborted() {
            break;
        }
        let tick = state.clock().scaled(Duration::from_secs(5));
        let _ = tokio::time::timeout(tick, changes.changed()).await;
    }
    state.set_waiting_for_lease(&ctx.machine_id, false);
}

pub(super) async fn run_step(
    ctx: &mut Ctx,
    plan: &script::StepPlan,
    script: &Script,
    model_scale: u64,
) {
    let state = ctx.state.clone();
    let shot = if ctx.record { ctx.screenshot() } else { None };
    let call = ctx.id("call");
    let mut code = plan.code.clone();
    if code.chars().count() > 4000 {
        let dropped = code.chars().count() - 4000;
        code = code.chars().take(4000).collect::<String>()
            + &format!("\n… ({dropped} more characters)");
    }
    let input = json!({ "title": plan.title, "code": code });
    frame(ctx, json!({ "type": "start-step" }));
    tasks::event(
        &state,
        &ctx.turn_id,
        json!({ "type": "tool-input-start", "toolCallId": call, "toolName": "execute" }),
    );
    frame(
        ctx,
        json!({ "type": "tool-input-delta", "toolCallId": call, "inputTextDelta": input.to_string() }),
    );
    tasks::event(
        &state,
        &ctx.turn_id,
        json!({
            "type": "tool-input-available", "toolCallId": call, "toolName": "execute",
            "input": input,
        }),
    );
    tasks::event(&state, &ctx.turn_id, progress(&plan.title));
    if let Some(d) = &ctx.desktop {
        match &plan.action {
            Action::OpenWindow(title) => ctx.window = Some(d.open_window(title)),
            Action::Type(text) => {
                let w = *ctx.window.get_or_insert_with(|| d.open_window(&script.app));
                // As a person would, it brings its own window back to the front before typing.
                d.focus(w);
                d.type_text(w, text);
            }
            Action::Click(x, y) => d.click(*x, *y),
            Action::Look => {}
        }
    }
    let step_time = if plan.quick {
        Duration::from_millis(100)
    } else {
        script.step_time
    };
    state.clock().sleep(step_time).await;
    for line in plan.console.iter().filter(|l| !is_tree_dump(l)) {
        tasks::event(&state, &ctx.turn_id, progress(line));
    }
    if let Some(err) = &plan.error {
        let text: String = err.chars().take(500).collect();
        tasks::event(
            &state,
            &ctx.turn_id,
            json!({ "type": "tool-output-error", "toolCallId": call, "errorText": text }),
        );
    } else {
        let logs: Vec<&String> = plan.console.iter().collect();
        frame(
            ctx,
            json!({
                "type": "tool-output-available", "toolCallId": call,
                "output": { "ok": true, "logs": logs },
            }),
        );
    }
    frame(ctx, json!({ "type": "finish-step" }));
    ctx.call_model(model_scale);
    // Steps are kept for every turn (judge reads them); only recorded turns list them and
    // keep screenshots.
    let step = Step {
        timestamp_ms: Clock::now_ms(),
        title: plan.title.clone(),
        rationale: plan.rationale.clone(),
        code: plan.code.clone(),
        error: plan.error.clone(),
        screenshot: shot,
    };
    let mut db = state.db();
    if let Some(t) = db.turns.get_mut(&ctx.turn_id) {
        t.steps.push(step);
    }
    drop(db);
}

/// A frame only the stream carries (what an AI SDK UI message stream sends beyond the spec).
pub(super) fn frame(ctx: &Ctx, frame: Value) {
    tasks::push(&ctx.state, &ctx.turn_id, LogEntry::Frame(frame));
}

/// Accessibility-tree dumps and element-reference listings never become progress lines.
fn is_tree_dump(line: &str) -> bool {
    let l = line.trim_start();
    l.contains("[ref=") || l.starts_with("- generic") || l.starts_with("RootWebArea")
}

fn progress(text: &str) -> Value {
    let line: String = text
        .lines()
        .next()
        .unwrap_or("")
        .chars()
        .take(300)
        .collect();
    json!({ "type": "data-progress", "data": { "text": line, "tool": "execute" } })
}
