//! Heal: repair `initialCode` from evaluations (runs that passed or failed, with notes,
//! results and judgements) and free-text feedback. Each repair is one rule a person would
//! apply when reading the failures; every applied rule is listed in `changes` with why.

use serde_json::{json, Map, Value};

use super::jsx;
use super::request::Evaluation;

/// What heal knows about one evaluation's judgement.
pub struct JudgementNote {
    pub verdict: String,
    pub summary: String,
}

/// The repaired code and the list of changes.
pub struct Healed {
    pub code: String,
    pub changes: Vec<Value>,
}

fn change(what: impl Into<String>, why: impl Into<String>) -> Value {
    json!({ "change": what.into(), "reason": why.into() })
}

/// Why evaluations failed, as short sentences.
fn failures(evaluations: &[Evaluation], judgements: &[Option<JudgementNote>]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, e) in evaluations.iter().enumerate() {
        let judged_failed = judgements
            .get(i)
            .and_then(Option::as_ref)
            .is_some_and(|j| j.verdict != "passed");
        if e.passed == Some(false) || judged_failed {
            let mut why = format!("evaluation {}", i + 1);
            if let Some(note) = &e.note {
                why.push_str(&format!(": {note}"));
            }
            if let Some(msg) = e
                .result
                .as_ref()
                .and_then(|r| r.get("error"))
                .and_then(|e| e.get("message"))
                .and_then(Value::as_str)
            {
                why.push_str(&format!(" (error: {msg})"));
            }
            if let Some(j) = judgements.get(i).and_then(Option::as_ref) {
                why.push_str(&format!(" (judge: {})", j.summary));
            }
            out.push(why);
        }
    }
    out
}

/// Repairs `code`.
pub fn heal(
    code: &str,
    evaluations: &[Evaluation],
    judgements: &[Option<JudgementNote>],
    feedback: Option<&str>,
) -> Healed {
    let mut code = code.replace("\r\n", "\n");
    let mut changes = Vec::new();

    if !code.contains("async function main") {
        let inner: String = code.lines().map(|l| format!("  {l}\n")).collect();
        code = format!("async function main(params = {{}}) {{\n{inner}}}\n");
        changes.push(change(
            "Wrapped the code in `async function main(params)`.",
            "Learned code is run as `await main({...})` with the inputs merged over the defaults.",
        ));
    }

    for click in jsx::literal_clicks(&code) {
        code = code.replace(&click, "machine.press(\"Enter\")");
        changes.push(change(format!("Replaced `{click}` with a key press."), "A position copied from a recording changes between runs; the keyboard reaches the same control."));
    }

    let failed = failures(evaluations, judgements);
    let wants_patience = feedback.is_some_and(|f| {
        let f = f.to_lowercase();
        [
            "wait",
            "slow",
            "too early",
            "too soon",
            "not loaded",
            "empty",
        ]
        .iter()
        .any(|w| f.contains(w))
    });
    if (!failed.is_empty() || wants_patience) && code.contains("machine.readText(") {
        let mut out = Vec::new();
        let mut added = false;
        for line in code.lines() {
            let prev_waits = out
                .last()
                .is_some_and(|l: &String| l.contains("machine.wait("));
            if line.contains("machine.readText(") && !prev_waits {
                let indent: String = line.chars().take_while(|c| c.is_whitespace()).collect();
                out.push(format!("{indent}await machine.wait(1000);"));
                added = true;
            }
            out.push(line.to_owned());
        }
        if added {
            code = out.join("\n") + "\n";
            let why = if failed.is_empty() {
                "The feedback says the screen was read too early.".to_owned()
            } else {
                format!("Runs failed: {}.", failed.join("; "))
            };
            changes.push(change(
                "Wait for the screen to settle before reading it.",
                why,
            ));
        }
    }

    // Inputs an evaluation ran with that main does not know become parameters.
    let mut extra: Map<String, Value> = Map::new();
    for e in evaluations {
        for (k, v) in e.inputs.iter().flatten() {
            extra.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    let used = jsx::used_params(&code);
    for name in &used {
        extra
            .entry(name.clone())
            .or_insert(Value::String(String::new()));
    }
    if let Some(lit) = jsx::params_literal(&code).map(str::to_owned) {
        let missing: Vec<(String, Value)> = extra
            .into_iter()
            .filter(|(k, _)| !lit.contains(&format!("\"{k}\"")) && !lit.contains(&format!("{k}:")))
            .filter(|(k, _)| used.contains(k))
            .collect();
        if !missing.is_empty() {
            let body = lit.trim_start_matches('{').trim_end_matches('}').trim();
            let mut entries: Vec<String> = if body.is_empty() {
                Vec::new()
            } else {
                vec![body.to_owned()]
            };
            for (k, v) in &missing {
                entries.push(format!(
                    "{}: {}",
                    serde_json::to_string(k).unwrap_or_default(),
                    v
                ));
            }
            code = code.replacen(&lit, &format!("{{ {} }}", entries.join(", ")), 1);
            let names: Vec<String> = missing.iter().map(|(k, _)| format!("`{k}`")).collect();
            changes.push(change(
                format!("Gave {} a default in `params`.", names.join(", ")),
                "The code reads them, so main must run without them being passed.",
            ));
        }
    }

    if let Some(f) = feedback.filter(|f| !f.trim().is_empty()) {
        let note = f.lines().next().unwrap_or_default().trim();
        code = format!("// Repaired after feedback: {note}\n{code}");
        changes.push(change(
            "Recorded the feedback at the top of the code.",
            format!("Feedback: {note}"),
        ));
    }
    if changes.is_empty() {
        changes.push(change(
            "No change.",
            "Every evaluation passed and there was nothing to repair.",
        ));
    }
    Healed { code, changes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_add_a_wait_and_unknown_inputs_become_parameters() {
        let code = "async function main(params = { \"city\": \"Lisbon\" }) {\n  await machine.click(5, 6);\n  const t = await machine.readText();\n  return params.city + params.day + t;\n}\n";
        let evals = vec![Evaluation {
            passed: Some(false),
            note: Some("answer was empty".into()),
            inputs: Some(
                serde_json::from_str(r#"{"city":"Oslo","day":"Friday"}"#).unwrap_or_default(),
            ),
            ..Evaluation::default()
        }];
        let h = heal(code, &evals, &[None], Some("It reads too early"));
        assert!(
            h.code.contains("await machine.wait(1000);\n  const t"),
            "{}",
            h.code
        );
        assert!(h.code.contains("\"day\": \"Friday\""), "{}", h.code);
        assert!(!h.code.contains("click(5, 6)"));
        assert_eq!(h.changes.len(), 4, "{:?}", h.changes);
    }
}
