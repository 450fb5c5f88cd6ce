//! Judging one criterion against what the judge can read of the turns: each step's title,
//! rationale, code and error, the output and the final answers. The person's own task is not
//! evidence (a check would otherwise pass because it was asked for), and screenshots are not
//! read, so a check about how the screen looked is `unverifiable`.
//!
//! The score is how much of the check's content is supported by that text (the share of its
//! content words found, with stems, or a kind of word standing for what the record shows: a
//! number with a unit for "temperature", an amount for "price", a name for "city"), pulled
//! down when the turns failed and the check asks for success. It is a probability-like number
//! from 0 to 1; `passed` from [`PASS`] up, as a person would not call a coin-flip a pass.
//! Evidence quotes the agent's answer first.

use std::sync::LazyLock;

use regex_lite::Regex;
use serde_json::Value;

use crate::state::TurnRecord;

/// The lowest score that passes.
pub const PASS: f64 = 0.7;

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
/// Words that carry no content of their own in a check: grammar, the record's parts, verbs
/// of saying ("the answer gives…") and words for now (the record is of the moment it ran).
const STOP: [&str; 64] = [
    "the", "a", "an", "and", "or", "of", "to", "in", "on", "for", "with", "that", "this", "is",
    "are", "was", "were", "be", "it", "its", "as", "at", "by", "from", "has", "have", "had",
    "should", "must", "does", "did", "do", "agent", "task", "turn", "answer", "result", "user",
    "then", "not", "give", "gives", "gave", "given", "say", "says", "said", "show", "shows",
    "mention", "mentions", "state", "states", "tell", "tells", "include", "includes", "contain",
    "contains", "today", "current", "now", "report", "reports",
];

/// A kind of thing a check asks for, and what in the record stands for it: "a temperature" is
/// supported by "21 °C" though the word never appears.
struct Kind {
    /// Stems of the check's words that ask for this kind.
    asks: &'static [&'static str],
    shown: &'static LazyLock<Regex>,
}

static DEGREES: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)-?\d+(?:[.,]\d+)?\s*(?:°\s*[CF]?|degrees?\b|deg\b)").expect("a valid pattern")
});
static MONEY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)[$€£¥]\s*\d|\d(?:[\d,.]*\d)?\s*(?:€|\$|£|usd\b|eur\b|gbp\b|dollars?\b|euros?\b)",
    )
    .expect("a valid pattern")
});
static MEASURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\d(?:[\d,.]*\d)?\s*(?:%|km/h|mph|km\b|mi\b|m\b|cm\b|kg\b|g\b|lb\b|mb\b|gb\b|kb\b|files?\b|rows?\b|pages?\b|min\b|minutes?\b|h\b|hours?\b|days?\b|s\b|seconds?\b)")
        .expect("a valid pattern")
});
static NUMBER: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\d").expect("a valid pattern"));
static WHEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|\d{1,2}:\d{2})\b")
        .expect("a valid pattern")
});
/// A capitalised word that does not start a sentence: a name ("Paris", "Casa Lisboa",
/// "Über"). Latin letters only: `regex-lite` has no Unicode classes, and the Demo's answers are
/// in English and German.
static NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[^.!?:*\s]\s+[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+|(?m)^\**[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+\s*:")
        .expect("a valid pattern")
});

const KINDS: [Kind; 6] = [
    Kind {
        asks: &[
            "temper", "degree", "celsiu", "fahren", "warm", "cold", "hot", "weather", "forecast",
        ],
        shown: &DEGREES,
    },
    Kind {
        asks: &[
            "price", "cost", "amount", "total", "money", "paid", "pay", "spent", "spend", "dollar",
            "euro", "fee", "charg", "cheap", "sum", "averag",
        ],
        shown: &MONEY,
    },
    Kind {
        asks: &[
            "distan", "weight", "length", "size", "durati", "speed", "percen", "wind", "how",
            "long", "many", "much",
        ],
        shown: &MEASURE,
    },
    Kind {
        asks: &["number", "figure", "value", "quanti", "count"],
        shown: &NUMBER,
    },
    Kind {
        asks: &["date", "day", "when", "time"],
        shown: &WHEN,
    },
    Kind {
        asks: &[
            "city", "place", "name", "locati", "town", "countr", "person", "who", "where", "which",
        ],
        shown: &NAME,
    },
];

/// The judge's reading of one criterion.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// `passed`, `failed` or `unverifiable`.
    pub verdict: &'static str,
    pub score: f64,
    pub evidence: String,
}

/// A word's stem, so "opened" matches "opens" and "typed" matches "type". Hand-written: a few
/// English endings are all a simulated judge needs, where a stemming library would be a
/// dependency of the Demo for little.
fn stem(word: &str) -> String {
    let long = |b: &&str| b.chars().count() >= 3;
    let mut w = word;
    let sibilant = ["ses", "xes", "zes", "ches", "shes"]
        .iter()
        .any(|e| w.ends_with(e));
    let ends: &[&str] = if sibilant {
        &["es"]
    } else {
        &["ing", "ed", "s"]
    };
    if let Some(base) = ends.iter().find_map(|e| w.strip_suffix(e).filter(long)) {
        w = base;
    }
    if let Some(base) = w.strip_suffix('e').filter(long) {
        w = base;
    }
    w.chars().take(6).collect()
}

/// Lowercase word stems of the words that carry content.
fn stems(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() > 1 && !STOP.contains(w))
        .map(stem)
        .collect()
}

/// Whether a passage supports a stem of the check: the word itself, or what stands for its
/// kind (names count only in what the agent said, not in its code).
fn supports(wanted: &str, text: &str, said: bool) -> bool {
    stems(text).iter().any(|s| s == wanted)
        || KINDS.iter().any(|k| {
            k.asks.iter().any(|a| wanted.starts_with(&stem(a)))
                && (said || !std::ptr::eq(k.shown, &NAME))
                && k.shown
                    .is_match(text.split('\u{0}').next().unwrap_or_default())
        })
}

/// The passages the judge reads, the agent's answers first, each with where it came from in
/// words a person reads in the evidence ("the agent's answer", "step 2 “Type the request”");
/// with several tasks judged together, which task ("task 2's answer"). The flag marks what
/// the agent said (answer, result), as opposed to its steps.
fn passages(turns: &[TurnRecord]) -> Vec<(String, String, bool)> {
    let mut said = Vec::new();
    let mut steps = Vec::new();
    let several = turns.len() > 1;
    for (n, t) in turns.iter().enumerate() {
        let of = |what: &str| {
            if several {
                format!("task {}'s {what}", n + 1)
            } else {
                format!("the {what}")
            }
        };
        if !t.answer.is_empty() {
            said.push((of("agent's answer"), t.answer.clone(), true));
        }
        if !t.output.is_null() && t.output.as_str() != Some(t.answer.as_str()) {
            let text = match &t.output {
                Value::String(s) => s.clone(),
                v => v.to_string(),
            };
            said.push((of("result"), text, true));
        }
        for s in &t.steps {
            // The code is read too, but only the title and reason are quoted to a person.
            let text = format!("{} — {}\u{0}{}", s.title, s.rationale, s.code);
            steps.push((of(&format!("step {} “{}”", s.index, s.title)), text, false));
            if let Some(e) = &s.error {
                steps.push((of(&format!("step {} error", s.index)), e.clone(), false));
            }
        }
    }
    said.extend(steps);
    said
}

fn quote(text: &str) -> String {
    let text = text.split('\u{0}').next().unwrap_or_default();
    let t: String = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("**", "");
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
    let mut found = 0usize;
    let mut cited: Vec<String> = Vec::new();
    for w in &wanted {
        if let Some((from, text, _)) = texts
            .iter()
            .find(|(_, text, said)| supports(w, text, *said))
        {
            found += 1;
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
        found as f64 / wanted.len() as f64
    };
    let mut score = 0.1 + 0.85 * share;
    let failed = turns.iter().any(|t| t.status == "failed");
    if failed && SUCCESS.iter().any(|w| lower.contains(w)) {
        score = score.min(0.2);
        cited.push("But the task did not finish.".into());
    }
    let score = (score * 100.0).round() / 100.0;
    let verdict = if score >= PASS { "passed" } else { "failed" };
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
