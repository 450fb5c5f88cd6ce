//! The one catalog of words, read by the Rust side: `locales/<language>/<part>.json` at the
//! top of the repository, the same files the page imports (`ui/src/lib/i18n/catalog.ts`).
//! A key is `<part>.<name>` (the file's name, then the name inside it); a message is a
//! sentence with `{name}` holes, or a plural: an object of Intl plural categories (`one`,
//! `other`), chosen by the `count` value.
//!
//! Written by hand, not with Fluent or an ICU crate: both sides must read one file the same
//! way, the Rust side needs only holes and one/other plurals for English and German, and the
//! app's binary is already over its size goal (BENCHMARKS.md); serde_json is here anyway.

use std::collections::HashMap;
use std::sync::LazyLock;

use super::language::{self, Language};

/// One message: a sentence, or its plural forms by Intl category.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(untagged)]
pub enum Message {
    Text(String),
    Plural(HashMap<String, String>),
}

/// The parts of the catalog the Rust side words, as they are embedded: (part, JSON). Only
/// these: the page's own parts are in its script already, and embedding them here too cost
/// ~64 KB of the binary's 20 MB budget (BENCHMARKS.md, "Binary size"). A key the Rust code asks
/// for in a part left out fails `every_key_the_rust_code_asks_for_is_in_the_catalog`.
pub type Parts = &'static [(&'static str, &'static str)];

pub static ENGLISH: Parts = &[
    ("common", include_str!("../../../../locales/en/common.json")),
    ("errors", include_str!("../../../../locales/en/errors.json")),
    (
        "notices",
        include_str!("../../../../locales/en/notices.json"),
    ),
    (
        "reportPage",
        include_str!("../../../../locales/en/reportPage.json"),
    ),
    (
        "scheduleNotes",
        include_str!("../../../../locales/en/scheduleNotes.json"),
    ),
    (
        "signInPage",
        include_str!("../../../../locales/en/signInPage.json"),
    ),
    (
        "spending",
        include_str!("../../../../locales/en/spending.json"),
    ),
    ("stored", include_str!("../../../../locales/en/stored.json")),
    ("tray", include_str!("../../../../locales/en/tray.json")),
    ("window", include_str!("../../../../locales/en/window.json")),
];

pub static GERMAN: Parts = &[
    ("common", include_str!("../../../../locales/de/common.json")),
    ("errors", include_str!("../../../../locales/de/errors.json")),
    (
        "notices",
        include_str!("../../../../locales/de/notices.json"),
    ),
    (
        "reportPage",
        include_str!("../../../../locales/de/reportPage.json"),
    ),
    (
        "scheduleNotes",
        include_str!("../../../../locales/de/scheduleNotes.json"),
    ),
    (
        "signInPage",
        include_str!("../../../../locales/de/signInPage.json"),
    ),
    (
        "spending",
        include_str!("../../../../locales/de/spending.json"),
    ),
    ("stored", include_str!("../../../../locales/de/stored.json")),
    ("tray", include_str!("../../../../locales/de/tray.json")),
    ("window", include_str!("../../../../locales/de/window.json")),
];

/// A language's messages by full key.
pub type Messages = HashMap<String, Message>;

/// Reads the embedded parts into messages by full key. A part that is not an object of
/// messages is a mistake in the repository, caught by the tests (`words/catalog/tests.rs`); here it
/// is left out rather than ending the app.
pub fn parse(parts: Parts) -> Messages {
    let mut all = HashMap::new();
    for (part, json) in parts {
        match serde_json::from_str::<HashMap<String, Message>>(json) {
            Ok(messages) => {
                for (name, message) in messages {
                    all.insert(format!("{part}.{name}"), message);
                }
            }
            Err(error) => {
                tracing::error!(part, %error, "a part of the word catalog cannot be read")
            }
        }
    }
    all
}

static EN: LazyLock<Messages> = LazyLock::new(|| parse(ENGLISH));
static DE: LazyLock<Messages> = LazyLock::new(|| parse(GERMAN));

pub fn messages(language: Language) -> &'static Messages {
    match language {
        Language::En => &EN,
        Language::De => &DE,
    }
}

/// A value for a hole in a message.
#[derive(Debug, Clone)]
pub enum Value {
    Text(String),
    Count(u64),
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Text(s.to_owned())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::Text(s)
    }
}

impl From<u64> for Value {
    fn from(n: u64) -> Self {
        Value::Count(n)
    }
}

impl From<u32> for Value {
    fn from(n: u32) -> Self {
        Value::Count(n.into())
    }
}

impl From<usize> for Value {
    fn from(n: usize) -> Self {
        Value::Count(n as u64)
    }
}

/// The message `key` in the app's language, its holes filled from `values`.
pub fn text(key: &str) -> String {
    text_with(key, &[])
}

/// As [`text`], with values for its holes (`{name}`); a plural is chosen by `count`.
pub fn text_with(key: &str, values: &[(&str, Value)]) -> String {
    text_in(language::current(), key, values)
}

/// The message `key` in `language`: English when the language lacks it, the key itself when
/// English lacks it too (the tests make sure neither happens).
pub fn text_in(language: Language, key: &str, values: &[(&str, Value)]) -> String {
    let Some(message) = messages(language)
        .get(key)
        .or_else(|| messages(Language::En).get(key))
    else {
        tracing::error!(key, "a word is missing from the catalog");
        return key.to_owned();
    };
    let sentence = match message {
        Message::Text(s) => s.as_str(),
        Message::Plural(forms) => {
            let count = values.iter().find_map(|(name, value)| match value {
                Value::Count(n) if *name == "count" => Some(*n),
                _ => None,
            });
            let form = plural_category(language, count.unwrap_or(0));
            forms
                .get(form)
                .or_else(|| forms.get("other"))
                .map(String::as_str)
                .unwrap_or_default()
        }
    };
    fill(sentence, values)
}

/// The Intl plural category of a whole number. English and German share the rule (`one` for
/// exactly 1, `other` for everything else); a language with other rules gets its own arm.
fn plural_category(language: Language, n: u64) -> &'static str {
    match language {
        Language::En | Language::De => {
            if n == 1 {
                "one"
            } else {
                "other"
            }
        }
    }
}

fn fill(sentence: &str, values: &[(&str, Value)]) -> String {
    let mut out = sentence.to_owned();
    for (name, value) in values {
        let hole = format!("{{{name}}}");
        if out.contains(&hole) {
            let shown = match value {
                Value::Text(s) => s.clone(),
                Value::Count(n) => n.to_string(),
            };
            out = out.replace(&hole, &shown);
        }
    }
    out
}

#[cfg(test)]
mod tests;
