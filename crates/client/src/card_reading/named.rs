//! The places a task's words name, and whether a path is in one of them.

use super::{NamedPlace, KNOWN_PLACES};

fn stem(w: &str) -> String {
    let lower = w.to_lowercase();
    lower.strip_suffix('s').map(str::to_owned).unwrap_or(lower)
}

fn words_of(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A place a task names, with every name it goes by on disk.
pub(super) struct Named {
    pub(super) words: Vec<String>,
    pub(super) shown: NamedPlace,
}

// Words the folder patterns below catch that are not a folder's name (English and German).
const NOT_A_NAME: [&str; 26] = [
    "the", "a", "this", "that", "my", "your", "old", "new", "in", "of", "to", "from", "and", "den",
    "dem", "der", "die", "das", "im", "mein", "meinem", "meinen", "deinem", "alten", "neuen",
    "namens",
];

const OPENING_QUOTES: [char; 4] = ['“', '"', '\'', '„'];
const CLOSING_QUOTES: [char; 4] = ['”', '"', '\'', '“'];

fn name_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '.' | '-')
}

/// The folder name at the start of `token` (after an opening quote), if it starts with one.
fn name_at(token: &str) -> Option<String> {
    let t = token.strip_prefix(OPENING_QUOTES).unwrap_or(token);
    t.chars().next().filter(|c| c.is_alphanumeric())?;
    Some(t.chars().take_while(|c| name_char(*c)).collect())
}

/// `token` is a whole folder name, maybe in quotes.
fn whole_name(token: &str) -> Option<String> {
    let t = token.strip_prefix(OPENING_QUOTES).unwrap_or(token);
    let t = t.strip_suffix(CLOSING_QUOTES).unwrap_or(t);
    let name = name_at(t)?;
    (name.len() == t.len()).then_some(name)
}

/// `token` begins with the word `word`.
fn starts_word(token: &str, word: &str) -> bool {
    token.strip_prefix(word).is_some_and(|rest| {
        !rest
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// The places a task names: well-known folders, then "the X folder", "folder X", "folder
/// called X", "Ordner X".
pub(super) fn named(task: &str) -> Vec<Named> {
    let mut found: Vec<Named> = Vec::new();
    for w in words_of(task) {
        let Some((place, names)) = KNOWN_PLACES.iter().find(|(_, n)| n.contains(&w.as_str()))
        else {
            continue;
        };
        if !found.iter().any(|n| n.shown.known == Some(*place)) {
            found.push(Named {
                words: names.iter().map(|n| (*n).to_owned()).collect(),
                shown: NamedPlace {
                    known: Some(*place),
                    name: w,
                },
            });
        }
    }
    let lower = task.to_lowercase();
    let tokens: Vec<&str> = lower.split_whitespace().collect();
    let mut names: Vec<String> = Vec::new();
    // "the drafts folder"
    for (i, token) in tokens.iter().enumerate().skip(1) {
        if starts_word(token, "folder") {
            names.extend(whole_name(tokens[i - 1]));
        }
    }
    // "folder drafts", "folder called drafts", "Ordner „Entwürfe“"
    for (i, token) in tokens.iter().enumerate() {
        if *token == "folder" || *token == "ordner" {
            let mut next = i + 1;
            if tokens
                .get(next)
                .is_some_and(|t| ["called", "named", "namens"].contains(t))
            {
                next += 1;
            }
            names.extend(tokens.get(next).and_then(|t| name_at(t)));
        }
    }
    for name in names {
        if NOT_A_NAME.contains(&name.as_str()) {
            continue;
        }
        if !found
            .iter()
            .any(|n| n.words.iter().any(|w| stem(w) == stem(&name)))
        {
            found.push(Named {
                words: vec![name.clone()],
                shown: NamedPlace { known: None, name },
            });
        }
    }
    found
}

pub(super) fn in_place(path: &[String], words: &[String]) -> bool {
    words.iter().any(|word| {
        let want = stem(word);
        path.iter()
            .any(|part| words_of(part).iter().any(|w| stem(w) == want) || stem(part) == want)
    })
}
