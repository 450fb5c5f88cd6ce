//! Suggesting `{{placeholders}}` for a task, so a recorded task can become a template.
//!
//! The words worth replacing are the ones a person would change next time: quoted text,
//! numbers, e-mail and web addresses, and capitalised names inside a sentence. Each gets a
//! name from what it is (`email`, `number`) or from the word before it ("in Paris" → `place`).
//! Invariant: filling every placeholder with its value gives back the message exactly, which
//! is what the service checks (`template_mismatch` otherwise).

use serde::{Deserialize, Serialize};

/// A suggested placeholder and the text it replaces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct Placeholder {
    pub name: String,
    pub value: String,
}

/// A task turned into a template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct TemplateSuggestion {
    pub template: String,
    pub placeholders: Vec<Placeholder>,
}

/// Suggests a template for `message`.
pub fn suggest(message: &str) -> TemplateSuggestion {
    let mut template = String::new();
    let mut placeholders: Vec<Placeholder> = Vec::new();
    let mut previous_word = String::new();
    let mut sentence_start = true;
    let mut rest = message;
    while !rest.is_empty() {
        // Quoted text is a value as a whole.
        if let Some(quote) = rest
            .chars()
            .next()
            .filter(|c| matches!(c, '"' | '“' | '\''))
        {
            let close = if quote == '“' { '”' } else { quote };
            let inner = &rest[quote.len_utf8()..];
            if let Some(end) = inner.find(close).filter(|&e| e > 0) {
                let value = &inner[..end];
                template.push(quote);
                template.push_str(&placeholder(&mut placeholders, "text", value));
                template.push(close);
                rest = &inner[end + close.len_utf8()..];
                previous_word.clear();
                sentence_start = false;
                continue;
            }
        }
        let token_len = rest
            .find(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '!' | '?' | '(' | ')'))
            .unwrap_or(rest.len());
        if token_len == 0 {
            let c = rest.chars().next().unwrap_or(' ');
            template.push(c);
            if matches!(c, '!' | '?') {
                sentence_start = true;
            }
            rest = &rest[c.len_utf8()..];
            continue;
        }
        let token = &rest[..token_len];
        rest = &rest[token_len..];
        // A trailing full stop or colon ends the word, not the value.
        let word = token.trim_end_matches(['.', ':']);
        let tail = &token[word.len()..];
        match kind_of(word, sentence_start) {
            Some(kind) => {
                let name = name_for(kind, &previous_word);
                template.push_str(&placeholder(&mut placeholders, &name, word));
            }
            None => template.push_str(word),
        }
        template.push_str(tail);
        previous_word = word.to_lowercase();
        sentence_start = tail.contains('.');
    }
    TemplateSuggestion {
        template,
        placeholders,
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Number,
    Email,
    Url,
    Name,
}

fn kind_of(word: &str, sentence_start: bool) -> Option<Kind> {
    if word.is_empty() {
        return None;
    }
    if word.contains('@') && word.contains('.') {
        return Some(Kind::Email);
    }
    if word.starts_with("http://") || word.starts_with("https://") || word.starts_with("www.") {
        return Some(Kind::Url);
    }
    if word.chars().any(|c| c.is_ascii_digit())
        && word.chars().all(|c| {
            c.is_ascii_digit() || matches!(c, '.' | ',' | '$' | '€' | '%' | '-' | ':' | '/')
        })
    {
        return Some(Kind::Number);
    }
    let first = word.chars().next()?;
    let is_pronoun = matches!(word, "I" | "I'm" | "I'd");
    if first.is_uppercase()
        && !sentence_start
        && !is_pronoun
        && word.chars().all(char::is_alphabetic)
    {
        return Some(Kind::Name);
    }
    None
}

fn name_for(kind: Kind, previous_word: &str) -> String {
    match kind {
        Kind::Email => "email".into(),
        Kind::Url => "address".into(),
        Kind::Number => match previous_word {
            "to" | "count" => "count".into(),
            "at" => "time".into(),
            "on" => "date".into(),
            _ => "number".into(),
        },
        Kind::Name => match previous_word {
            "in" | "at" | "near" | "to" | "from" => "place".into(),
            "for" | "about" | "of" | "on" => "topic".into(),
            "with" | "by" => "person".into(),
            _ => "name".into(),
        },
    }
}

/// Adds a placeholder (reusing one with the same value) and returns its `{{name}}`.
fn placeholder(list: &mut Vec<Placeholder>, base: &str, value: &str) -> String {
    if let Some(same) = list.iter().find(|p| p.value == value) {
        return format!("{{{{{}}}}}", same.name);
    }
    let mut name = base.to_owned();
    let mut n = 2;
    while list.iter().any(|p| p.name == name) {
        name = format!("{base}{n}");
        n += 1;
    }
    list.push(Placeholder {
        name: name.clone(),
        value: value.to_owned(),
    });
    format!("{{{{{name}}}}}")
}

/// Fills `template` with `values` (unknown names are left as written).
#[cfg(test)]
fn fill(template: &str, values: &[Placeholder]) -> String {
    let mut out = template.to_owned();
    for p in values {
        out = out.replace(&format!("{{{{{}}}}}", p.name), &p.value);
    }
    out
}

/// The placeholder names of a template, in order of first appearance.
#[cfg(test)]
fn names(template: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        let Some(len) = rest[start + 2..].find("}}") else {
            break;
        };
        let name = rest[start + 2..start + 2 + len].trim().to_owned();
        if !name.is_empty()
            && name.chars().all(|c| c.is_alphanumeric() || c == '_')
            && !out.contains(&name)
        {
            out.push(name);
        }
        rest = &rest[start + 4 + len..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_of(s: &TemplateSuggestion) -> Vec<&str> {
        s.placeholders.iter().map(|p| p.name.as_str()).collect()
    }

    #[test]
    fn a_city_after_in_becomes_a_place() {
        let s = suggest("Look up the weather in Paris");
        assert_eq!(s.template, "Look up the weather in {{place}}");
        assert_eq!(
            s.placeholders,
            vec![Placeholder {
                name: "place".into(),
                value: "Paris".into()
            }]
        );
    }

    #[test]
    fn the_first_word_of_a_sentence_is_not_a_name() {
        let s = suggest("Search for cheap flights. Then compare them.");
        assert!(s.placeholders.is_empty(), "{s:?}");
        assert_eq!(s.template, "Search for cheap flights. Then compare them.");
    }

    #[test]
    fn numbers_emails_urls_and_quotes_are_values() {
        let s = suggest("Email bob@example.com the price of 3 tickets from https://shop.test about \"blue shoes\".");
        assert_eq!(names_of(&s), vec!["email", "number", "address", "text"]);
        assert!(s.template.contains("\"{{text}}\"."), "{}", s.template);
    }

    #[test]
    fn the_same_value_twice_is_one_placeholder_and_names_do_not_clash() {
        let s = suggest("Compare Paris with Rome and then Paris again, in Berlin and in Madrid");
        assert_eq!(names_of(&s), vec!["name", "person", "place", "place2"]);
        assert_eq!(s.template.matches("{{name}}").count(), 2);
    }

    #[test]
    fn filling_the_suggestion_gives_back_the_message() {
        for message in [
            "Look up the weather in Paris",
            "Count to 12, then tell me about Lisbon: \"quick\" please!",
            "Find the 2 cheapest hotels in New York for Ada.",
            "",
        ] {
            let s = suggest(message);
            assert_eq!(fill(&s.template, &s.placeholders), message);
            assert_eq!(names(&s.template), names_of(&s));
        }
    }
}
