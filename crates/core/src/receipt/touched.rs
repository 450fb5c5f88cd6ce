//! What the agent touched, read from the task's lines: the apps it opened, the sites it
//! visited, the files it made, what it deleted, bought or sent with the person's yes.
//!
//! Hand-written: the service's step titles and progress lines are free text (a tool call's
//! `title`, a console line), so this reads only plain forms ("Open Mail", a web address, a
//! file name with an extension) and the cards the person approved, and guesses at nothing
//! else.

use porthole_client::card_reading::Deletion;
use serde::Serialize;

use crate::conversations::{Notice, ThreadItem};

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Touched {
    /// An app it opened ("Open Mail").
    App { name: String },
    /// A web site it visited, by its host.
    Site { host: String },
    /// A file it made (saved, downloaded, exported).
    File { name: String },
    /// Something it deleted, with the person's yes.
    Deleted { deletion: Deletion },
    /// A purchase or payment the person approved, as its card was titled.
    Purchase { title: String },
    /// A message it sent, as the step or card was titled.
    Message { title: String },
}

pub(super) fn read(lines: &[ThreadItem]) -> Vec<Touched> {
    let mut touched = Vec::new();
    let mut add = |t: Touched| {
        if !touched.contains(&t) {
            touched.push(t);
        }
    };
    for (i, line) in lines.iter().enumerate() {
        match line {
            ThreadItem::Tool {
                title: Some(text), ..
            }
            | ThreadItem::Progress { text } => {
                if let Some(name) = opened_app(text) {
                    add(Touched::App { name });
                }
                for host in hosts(text) {
                    add(Touched::Site { host });
                }
                if let Some(name) = made_file(text) {
                    add(Touched::File { name });
                }
                if matches!(line, ThreadItem::Tool { .. }) && sends(text) {
                    add(Touched::Message {
                        title: text.clone(),
                    });
                }
            }
            ThreadItem::Approval { title, deletes, .. } if approved(&lines[i + 1..]) => {
                if !deletes.is_empty() {
                    for deletion in deletes {
                        add(Touched::Deleted {
                            deletion: deletion.clone(),
                        });
                    }
                } else if pays(title) {
                    add(Touched::Purchase {
                        title: title.clone(),
                    });
                } else if sends(title) {
                    add(Touched::Message {
                        title: title.clone(),
                    });
                }
            }
            _ => {}
        }
    }
    touched
}

/// The person's answer to a card is the first yes or no after it.
fn approved(after: &[ThreadItem]) -> bool {
    after
        .iter()
        .find_map(|l| match l {
            ThreadItem::Notice {
                notice: Notice::Approved,
            } => Some(true),
            ThreadItem::Notice {
                notice: Notice::Denied,
            } => Some(false),
            _ => None,
        })
        .unwrap_or(false)
}

/// "Open Mail", "Open Google Chrome": a short name after "Open", not an address or a file.
fn opened_app(text: &str) -> Option<String> {
    let name = text.trim().strip_prefix("Open ")?.trim();
    let words = name.split_whitespace().count();
    let plain = (1..=3).contains(&words)
        && name.chars().next().is_some_and(char::is_uppercase)
        && !name.contains(['.', '/', ':']);
    plain.then(|| name.to_owned())
}

/// Web addresses in a line ("https://www.example.com/a", "weather.com"), by host.
fn hosts(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '(' | ')' | ',' | '<' | '>'))
        .filter_map(|word| {
            let word = word.trim_end_matches(['.', ';', ':', '!', '?']);
            let rest = word
                .strip_prefix("https://")
                .or_else(|| word.strip_prefix("http://"));
            let host = rest.unwrap_or(word).split(['/', '?', '#']).next()?;
            let host = host.strip_prefix("www.").unwrap_or(host).to_lowercase();
            let labels: Vec<&str> = host.split('.').collect();
            let tld = labels.last()?;
            let looks = labels.len() >= 2
                && labels.iter().all(|l| {
                    !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                })
                && (2..=6).contains(&tld.len())
                && tld.chars().all(|c| c.is_ascii_alphabetic());
            // Without a scheme, only well-known endings: "report.pdf" is a file, not a site.
            let known = rest.is_some() || WEB_ENDINGS.contains(tld);
            (looks && known).then_some(host)
        })
        .collect()
}

const WEB_ENDINGS: [&str; 12] = [
    "com", "org", "net", "io", "dev", "app", "gov", "edu", "de", "uk", "eu", "info",
];

/// "Saved report.pdf", "Downloaded the invoice invoice-42.pdf": a file name after a verb of
/// making.
fn made_file(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    let makes = [
        "saved",
        "save ",
        "downloaded",
        "download ",
        "exported",
        "created",
    ]
    .iter()
    .any(|verb| lower.starts_with(verb));
    if !makes {
        return None;
    }
    text.split_whitespace()
        .map(|w| w.trim_matches(|c: char| matches!(c, '"' | '\'' | '“' | '”' | ',' | ':')))
        .map(|w| w.strip_suffix('.').unwrap_or(w))
        .find(|w| {
            w.rsplit_once('.').is_some_and(|(stem, ext)| {
                !stem.is_empty()
                    && (2..=4).contains(&ext.len())
                    && ext.chars().all(|c| c.is_ascii_alphanumeric())
                    && !WEB_ENDINGS.contains(&ext)
            })
        })
        .map(str::to_owned)
}

fn pays(title: &str) -> bool {
    let lower = title.to_lowercase();
    [
        "purchase", "pay", "order", "buy", "checkout", "kauf", "bezahl", "bestell",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

fn sends(title: &str) -> bool {
    let lower = title.to_lowercase();
    (lower.starts_with("send") || lower.starts_with("reply") || lower.starts_with("post"))
        && ["email", "mail", "message", "reply", "post", "invite"]
            .iter()
            .any(|w| lower.contains(w))
}
