//! Templates with `{{name}}` placeholders: matching one against a turn's message (which gives
//! each parameter its default), and inferring one from a message when none was given.

use serde_json::{Map, Value};

/// The parts of a template: literal text and placeholder names, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    Text(String),
    Param(String),
}

/// Splits a template into parts. Names are trimmed; `{{ }}` with no name is literal text.
pub fn parts(template: &str) -> Vec<Part> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        let Some(len) = rest[start + 2..].find("}}") else {
            break;
        };
        let name = rest[start + 2..start + 2 + len].trim();
        if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            out.push(Part::Text(rest[..start + 4 + len].to_owned()));
        } else {
            if start > 0 {
                out.push(Part::Text(rest[..start].to_owned()));
            }
            out.push(Part::Param(name.to_owned()));
        }
        rest = &rest[start + 4 + len..];
    }
    if !rest.is_empty() {
        out.push(Part::Text(rest.to_owned()));
    }
    out
}

/// Parameter names in order of first appearance.
pub fn names(template: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in parts(template) {
        if let Part::Param(n) = p {
            if !out.contains(&n) {
                out.push(n);
            }
        }
    }
    out
}

/// Matches `message` against `template`; on success, the value of each placeholder.
/// Placeholders take the shortest text that lets the rest match (case-insensitive text).
pub fn matches(template: &str, message: &str) -> Option<Map<String, Value>> {
    let parts = parts(template);
    let mut values = Map::new();
    if match_from(&parts, message, &mut values) {
        Some(values)
    } else {
        None
    }
}

fn match_from(parts: &[Part], text: &str, values: &mut Map<String, Value>) -> bool {
    match parts.split_first() {
        None => text.trim().is_empty(),
        Some((Part::Text(t), rest)) => {
            let (t, txt) = (t.trim_start(), text.trim_start());
            let n = t.len();
            txt.len() >= n
                && txt.is_char_boundary(n)
                && txt[..n].eq_ignore_ascii_case(t)
                && match_from(rest, &txt[n..], values)
        }
        Some((Part::Param(name), rest)) => {
            let bounds: Vec<usize> = text
                .char_indices()
                .map(|(i, _)| i)
                .skip(1)
                .chain([text.len()])
                .collect();
            for end in bounds {
                let value = text[..end].trim();
                if value.is_empty() {
                    continue;
                }
                if let Some(Value::String(prev)) = values.get(name) {
                    if prev != value {
                        continue;
                    }
                }
                let mut trial = values.clone();
                trial.insert(name.clone(), Value::String(value.to_owned()));
                if match_from(rest, &text[end..], &mut trial) {
                    *values = trial;
                    return true;
                }
            }
            false
        }
    }
}

/// Fills placeholders with values (missing ones stay as written).
#[cfg(test)]
pub fn fill(template: &str, values: &Map<String, Value>) -> String {
    parts(template)
        .into_iter()
        .map(|p| match p {
            Part::Text(t) => t,
            Part::Param(n) => match values.get(&n) {
                Some(Value::String(s)) => s.clone(),
                Some(v) => v.to_string(),
                None => format!("{{{{{n}}}}}"),
            },
        })
        .collect()
}

/// A template inferred from a message: quoted text, numbers and the place or thing after
/// "in", "for", "to", "about" or "of" become parameters, like a person reading the task would
/// pick them. Returns the template and the defaults.
pub fn infer(message: &str) -> (String, Map<String, Value>) {
    let mut defaults = Map::new();
    let mut out = String::new();
    let name_for = |base: &str, defaults: &Map<String, Value>| {
        let mut n = base.to_owned();
        let mut k = 2;
        while defaults.contains_key(&n) {
            n = format!("{base}{k}");
            k += 1;
        }
        n
    };
    let words: Vec<&str> = message.split(' ').collect();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let prev = if i > 0 {
            words[i - 1].to_lowercase()
        } else {
            String::new()
        };
        let core = w.trim_end_matches(['.', ',', '!', '?', ';', ':']);
        let tail = &w[core.len()..];
        let quoted = core.len() >= 2
            && ((core.starts_with('"') && core.ends_with('"'))
                || (core.starts_with('\'') && core.ends_with('\'')));
        let number = !core.is_empty()
            && core.chars().all(|c| c.is_ascii_digit() || c == '.')
            && core.chars().any(|c| c.is_ascii_digit());
        let after_preposition = ["in", "for", "to", "about", "of", "from"].contains(&prev.as_str())
            && core.chars().next().is_some_and(char::is_uppercase);
        let piece = if quoted {
            let n = name_for("text", &defaults);
            defaults.insert(n.clone(), Value::String(core[1..core.len() - 1].to_owned()));
            format!("{}{{{{{n}}}}}{}{tail}", &core[..1], &core[core.len() - 1..])
        } else if number {
            let n = name_for("number", &defaults);
            defaults.insert(n.clone(), Value::String(core.to_owned()));
            format!("{{{{{n}}}}}{tail}")
        } else if after_preposition {
            // A proper noun may run over several capitalised words ("New York").
            let mut j = i;
            let mut value = core.to_owned();
            let mut end_tail = tail.to_owned();
            while end_tail.is_empty()
                && j + 1 < words.len()
                && words[j + 1].chars().next().is_some_and(char::is_uppercase)
            {
                j += 1;
                let c = words[j].trim_end_matches(['.', ',', '!', '?', ';', ':']);
                end_tail = words[j][c.len()..].to_owned();
                value = format!("{value} {c}");
            }
            i = j;
            let base = match prev.as_str() {
                "in" | "from" => "place",
                "to" => "recipient",
                _ => "subject",
            };
            let n = name_for(base, &defaults);
            defaults.insert(n.clone(), Value::String(value));
            format!("{{{{{n}}}}}{end_tail}")
        } else {
            w.to_owned()
        };
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&piece);
        i += 1;
    }
    (out, defaults)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn matching_gives_defaults() {
        let m = matches(
            "Look up the weather in {{city}} on {{day}}",
            "look up the weather in New York on Friday",
        );
        assert_eq!(
            m,
            json!({ "city": "New York", "day": "Friday" })
                .as_object()
                .cloned()
        );
        assert!(matches("Send {{x}} to Bob", "Look up the weather").is_none());
        assert_eq!(names("{{a}} and {{b}} and {{a}}"), ["a", "b"]);
    }

    #[test]
    fn inference_finds_places_numbers_and_quotes() {
        let (t, d) = infer("Find 3 hotels in New York called \"Grand\".");
        assert_eq!(
            t,
            "Find {{number}} hotels in {{place}} called \"{{text}}\"."
        );
        assert_eq!(d["place"], "New York");
        assert_eq!(fill(&t, &d), "Find 3 hotels in New York called \"Grand\".");
        assert_eq!(infer("tidy the desktop").1.len(), 0);
    }
}
