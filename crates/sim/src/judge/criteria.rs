//! Judging one criterion against what the judge can read of the turns: the task, each step's
//! title, rationale, code and error, the output and the final answers. Screenshots are not
//! read, so a check about how the screen looked is `unverifiable`.
//!
//! The score is how much of the check's content is supported by that text (the share of its
//! content words found, with stems), pulled down when the turns failed and the check asks for
//! success. It is a probability-like number from 0 to 1; `passed` from 0.5 up.

use serde_json::Value;

use crate::state::TurnRecord;

/// Words about appearance: a check made of them needs the screenshots the judge never sees.
const VISUAL: [&str; 14] = [
    "screenshot",
    "screen shows",
    "looks",
    "look like",
    "colour",
    "color",
    "visible",
    "image",
    "picture",
    "pixel",
    "layout",
    "font",
    "icon",
    "appear",
];
const SUCCESS: [&str; 6] = [
    "succeed", "success", "complete", "finished", "done", "worked",
];
const STOP: [&str; 40] = [
    "the", "a", "an", "and", "or", "of", "to", "in", "on", "for", "with", "that", "this", "is",
    "are", "was", "were", "be", "it", "its", "as", "at", "by", "from", "has", "have", "had",
    "should", "must", "does", "did", "do", "agent", "task", "turn", "answer", "result", "user",
    "then", "not",
];

/// The judge's reading of one criterion.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// `passed`, `failed` or `unverifiable`.
    pub verdict: &'static str,
    pub score: f64,
    pub evidence: String,
}

/// Lowercase word stems: the first six letters are enough to match "opened" with "opens".
fn stems(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 1 && !STOP.contains(w))
        .map(|w| w.chars().take(6).collect())
        .collect()
}

/// The passages the judge reads, each with where it came from, in words a person reads in the
/// evidence ("the agent's answer", "step 2 “Type the request”"); with several tasks judged
/// together, which task ("task 2's answer").
fn passages(turns: &[TurnRecord]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let several = turns.len() > 1;
    for (n, t) in turns.iter().enumerate() {
        let of = |what: &str| {
            if several {
                format!("task {}'s {what}", n + 1)
            } else {
                format!("the {what}")
            }
        };
        out.push((
            if several {
                format!("task {}", n + 1)
            } else {
                "your task".to_owned()
            },
            crate::task_words::task_words(&t.message),
        ));
        for s in &t.steps {
            // The code is read too, but only the title and reason are quoted to a person.
            let text = format!("{} — {}\u{0}{}", s.title, s.rationale, s.code);
            out.push((of(&format!("step {} “{}”", s.index, s.title)), text));
            if let Some(e) = &s.error {
                out.push((of(&format!("step {} error", s.index)), e.clone()));
            }
        }
        if !t.answer.is_empty() {
            out.push((of("agent's answer"), t.answer.clone()));
        }
        if !t.output.is_null() {
            let text = match &t.output {
                Value::String(s) => s.clone(),
                v => v.to_string(),
            };
            out.push((of("result"), text));
        }
    }
    out
}

fn quote(text: &str) -> String {
    let text = text.split('\u{0}').next().unwrap_or_default();
    let t: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match t.char_indices().nth(140) {
        Some((at, _)) => format!("{}…", &t[..at]),
        None => t,
    }
}

/// Judges one criterion.
pub fn judge(check: &str, turns: &[TurnRecord]) -> Finding {
    let lower = check.to_lowercase();
    if VISUAL.iter().any(|w| lower.contains(w)) {
        return Finding {
            verdict: "unverifiable",
            score: 0.5,
            evidence: "It is about how the screen looked, and the check reads the steps and the answer, not the screenshots.".into(),
        };
    }
    let wanted = stems(check);
    let texts = passages(turns);
    let mut found: Vec<String> = Vec::new();
    let mut cited: Vec<String> = Vec::new();
    for w in &wanted {
        if let Some((from, text)) = texts.iter().find(|(_, t)| stems(t).contains(w)) {
            found.push(w.clone());
            if cited.len() < 3
                && !cited
                    .iter()
                    .any(|c| c.starts_with(&format!("From {from}:")))
            {
                cited.push(format!("From {from}: “{}”", quote(text)));
            }
        }
    }
    let share = if wanted.is_empty() {
        0.0
    } else {
        found.len() as f64 / wanted.len() as f64
    };
    let mut score = 0.1 + 0.85 * share;
    let failed = turns.iter().any(|t| t.status == "failed");
    if failed && SUCCESS.iter().any(|w| lower.contains(w)) {
        score = score.min(0.2);
        cited.push("But the task did not finish.".into());
    }
    let score = (score * 100.0).round() / 100.0;
    let verdict = if score >= 0.5 { "passed" } else { "failed" };
    let evidence = if cited.is_empty() {
        "Nothing in the steps or the answer supports this.".to_owned()
    } else {
        cited.join(" ")
    };
    Finding {
        verdict,
        score,
        evidence,
    }
}
