//! Small text tools over JavaScript source, enough for the code learn writes and reads:
//! finding string literals, the `params = {...}` default object, and calls with literal
//! coordinates. They skip strings and comments so a `//` inside a string is not a comment.

/// A string literal found in a line: byte range (quotes included) and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Literal {
    pub start: usize,
    pub end: usize,
    pub value: String,
}

/// Double- or single-quoted string literals of one line, decoded (`\n`, `\"`, `\\`, `\t`,
/// `\'`, `\u{..}` and `\uXXXX`).
pub fn literals(line: &str) -> Vec<Literal> {
    let mut out = Vec::new();
    let bytes: Vec<(usize, char)> = line.char_indices().collect();
    let mut i = 0;
    while i < bytes.len() {
        let (start, c) = bytes[i];
        if c == '/' && bytes.get(i + 1).is_some_and(|(_, n)| *n == '/') {
            break;
        }
        if c == '"' || c == '\'' {
            let quote = c;
            let mut value = String::new();
            let mut j = i + 1;
            let mut closed = None;
            while j < bytes.len() {
                let (at, ch) = bytes[j];
                if ch == '\\' {
                    if let Some(&(_, esc)) = bytes.get(j + 1) {
                        j += 2;
                        match esc {
                            'n' => value.push('\n'),
                            't' => value.push('\t'),
                            'u' => {
                                let rest: String = bytes[j..].iter().map(|(_, c)| *c).collect();
                                let (code, used) = if let Some(r) = rest.strip_prefix('{') {
                                    let hex: String = r.chars().take_while(|c| *c != '}').collect();
                                    (u32::from_str_radix(&hex, 16).ok(), hex.len() + 2)
                                } else {
                                    let hex: String = rest.chars().take(4).collect();
                                    (u32::from_str_radix(&hex, 16).ok(), 4)
                                };
                                value.extend(code.and_then(char::from_u32));
                                j += used;
                            }
                            other => value.push(other),
                        }
                        continue;
                    }
                }
                if ch == quote {
                    closed = Some(at + ch.len_utf8());
                    break;
                }
                value.push(ch);
                j += 1;
            }
            let Some(end) = closed else { break };
            out.push(Literal { start, end, value });
            i = j + 1;
            continue;
        }
        i += 1;
    }
    out
}

/// The text of the default object in `main(params = {...})`, braces included.
pub fn params_literal(code: &str) -> Option<&str> {
    let at = code.find("function main")?;
    let rest = &code[at..];
    let eq = rest.find("params")?;
    let after = &rest[eq + "params".len()..];
    let after_eq = after.trim_start().strip_prefix('=')?.trim_start();
    if !after_eq.starts_with('{') {
        return None;
    }
    let base = code.len() - after_eq.len();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in after_eq.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' | '`' => quote = Some(c),
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&code[base..base + i + 1]);
                }
            }
            _ => {}
        }
    }
    None
}

/// Calls like `machine.click(640, 520)`: a position copied from a recording.
pub fn literal_clicks(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("machine.click(") {
        let args = &code[at + "machine.click(".len()..];
        let Some(close) = args.find(')') else {
            continue;
        };
        let inner = &args[..close];
        let numeric = inner.split(',').all(|a| {
            let a = a.trim();
            !a.is_empty()
                && a.chars()
                    .all(|c| c.is_ascii_digit() || c == '.' || c == '-')
        });
        if numeric {
            out.push(format!("machine.click({inner})"));
        }
    }
    out
}

/// Element reference ids as accessibility trees name them (`ref=e12`, `"e12"`, `@e12`).
pub fn ref_ids(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = code.chars().collect();
    for i in 0..chars.len() {
        let marker = chars[i] == '@'
            || chars[i] == '"'
            || chars[i] == '\''
            || (i >= 4 && chars[i - 4..i].iter().collect::<String>() == "ref=");
        let start =
            if chars[i] == 'e' && i >= 4 && chars[i - 4..i].iter().collect::<String>() == "ref=" {
                i
            } else if marker {
                i + 1
            } else {
                continue;
            };
        if chars.get(start) != Some(&'e') {
            continue;
        }
        let digits: String = chars[start + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        let next = chars.get(start + 1 + digits.len());
        let closes = matches!(next, Some('"' | '\'' | ')' | ',' | ' ' | ']') | None);
        if !digits.is_empty() && closes {
            let id = format!("e{digits}");
            if !out.contains(&id) {
                out.push(id);
            }
        }
    }
    out
}

/// Names used as `params.name`, `params["name"]` or `params['name']`.
pub fn used_params(code: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |n: String| {
        if !n.is_empty() && !out.contains(&n) {
            out.push(n);
        }
    };
    for (at, _) in code.match_indices("params.") {
        if code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '.') {
            continue;
        }
        push(
            code[at + 7..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect(),
        );
    }
    for (at, _) in code.match_indices("params[") {
        let rest = &code[at + 7..];
        if let Some(q) = rest.chars().next().filter(|c| *c == '"' || *c == '\'') {
            push(rest[1..].chars().take_while(|c| *c != q).collect());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_literals_params_clicks_and_refs() {
        let l = literals(r#"await machine.type("a \"b\"\n"); // "not this""#);
        assert_eq!(l.len(), 1);
        assert_eq!(l[0].value, "a \"b\"\n");
        let code = "async function main(params = { \"city\": \"Lisbon}\", n: {a: 1} }) {\n  machine.click(10, 20);\n  machine.click(x, 2);\n  return params.city + params['n'];\n}";
        assert_eq!(
            params_literal(code),
            Some("{ \"city\": \"Lisbon}\", n: {a: 1} }")
        );
        assert_eq!(literal_clicks(code), ["machine.click(10, 20)"]);
        assert_eq!(used_params(code), ["city", "n"]);
        assert_eq!(
            ref_ids("machine.click('e12'); find(ref=e3) email"),
            ["e12", "e3"]
        );
    }
}
