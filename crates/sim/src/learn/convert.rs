//! Convert: recorded steps → `async function main(params = {...})`.
//!
//! What a careful person would do with the recording: keep each step's code in order under
//! its title, turn the task's variable parts (the template's placeholders) into parameters by
//! replacing their recorded values inside string literals with `${params.name}`, replace
//! clicks at recorded positions with keyboard actions (positions change between runs), check
//! that the app opened (`precondition_failed`), notice a sign-in screen (`needs_sign_in`), and
//! return the screen's answer (shaped by the turn's `output_schema` when it had one).

use serde_json::Value;

use super::jsx;
use crate::state::StepRecord;

/// Everything conversion needs.
pub struct Source<'a> {
    pub steps: Vec<&'a StepRecord>,
    /// Parameters and their defaults, in template order.
    pub params: Vec<(String, Value)>,
    pub output_schema: Option<&'a Value>,
}

fn js_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// A template literal for `value` with every parameter default replaced by `${params.x}`;
/// `None` when no default occurs in it.
fn parameterise(value: &str, params: &[(String, Value)]) -> Option<String> {
    let mut defaults: Vec<(&str, String)> = params
        .iter()
        .filter_map(|(n, v)| {
            v.as_str()
                .map(|s| (n.as_str(), s.to_owned()))
                .or_else(|| v.as_f64().map(|_| (n.as_str(), v.to_string())))
        })
        .filter(|(_, d)| {
            d.chars().count() >= 2 || d.chars().all(|c| c.is_ascii_digit()) && !d.is_empty()
        })
        .collect();
    defaults.sort_by_key(|(_, d)| std::cmp::Reverse(d.len()));
    if !defaults.iter().any(|(_, d)| value.contains(d.as_str())) {
        return None;
    }
    let escape = |s: &str| {
        s.replace('\\', "\\\\")
            .replace('`', "\\`")
            .replace("${", "\\${")
    };
    let mut out = String::from("`");
    let mut rest = value;
    'outer: while !rest.is_empty() {
        for (name, d) in &defaults {
            if let Some(tail) = rest.strip_prefix(d.as_str()) {
                out.push_str(&format!("${{params.{name}}}"));
                rest = tail;
                continue 'outer;
            }
        }
        let c = rest.chars().next().unwrap_or_default();
        out.push_str(&escape(&c.to_string()));
        rest = &rest[c.len_utf8()..];
    }
    out.push('`');
    Some(out)
}

/// One recorded line made reusable.
fn rewrite_line(line: &str, params: &[(String, Value)]) -> String {
    let trimmed = line.trim();
    if !jsx::literal_clicks(trimmed).is_empty() {
        let note = trimmed
            .split_once("//")
            .map(|(_, c)| c.trim())
            .unwrap_or("confirm");
        return format!(
            "await machine.press(\"Enter\"); // {note} (the recording clicked a fixed position)"
        );
    }
    if let Some(rest) = trimmed.strip_prefix("return ") {
        return format!("screen = {rest}");
    }
    let mut out = String::new();
    let mut last = 0;
    for lit in jsx::literals(trimmed) {
        out.push_str(&trimmed[last..lit.start]);
        match parameterise(&lit.value, params) {
            Some(t) => out.push_str(&t),
            None => out.push_str(&trimmed[lit.start..lit.end]),
        }
        last = lit.end;
    }
    out.push_str(&trimmed[last..]);
    out
}

/// The app the recording opened first.
fn first_app(steps: &[&StepRecord]) -> Option<String> {
    steps.iter().find_map(|s| {
        let at = s.code.find("machine.open(")?;
        jsx::literals(&s.code[at..])
            .first()
            .map(|l| l.value.clone())
    })
}

/// What `main` returns: the screen text, or an object shaped by `output_schema`.
fn return_statement(schema: Option<&Value>) -> String {
    let props = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object);
    let Some(props) = props else {
        return "  return screen;".into();
    };
    let mut fields = Vec::new();
    for (name, spec) in props {
        let value = match spec.get("type").and_then(Value::as_str) {
            Some("number" | "integer") => {
                "Number((screen.match(/-?\\d+(\\.\\d+)?/) || [0])[0])".to_owned()
            }
            Some("boolean") => "screen.trim().length > 0".to_owned(),
            Some("array") => "screen.split('\\n').map((l) => l.trim()).filter(Boolean)".to_owned(),
            Some("object") => "{}".to_owned(),
            _ => "screen.trim()".to_owned(),
        };
        fields.push(format!("    {}: {value},", js_string(name)));
    }
    format!("  return {{\n{}\n  }};", fields.join("\n"))
}

/// Reads the app the task works in rather than the whole screen: other windows (an earlier
/// task's) are not this run's result.
fn read_the_app(line: &str, app: Option<&str>) -> String {
    match app {
        Some(app) => line.replace(
            "machine.readText()",
            &format!("machine.readText({})", js_string(app)),
        ),
        None => line.to_owned(),
    }
}

/// Writes `main`.
pub fn write(src: &Source<'_>) -> String {
    // Written by hand so the defaults keep the template's order (a JSON map would sort them).
    let entries: Vec<String> = src
        .params
        .iter()
        .map(|(k, v)| format!("{}: {v}", js_string(k)))
        .collect();
    let defaults_js = if entries.is_empty() {
        "{}".to_owned()
    } else {
        format!("{{ {} }}", entries.join(", "))
    };
    let mut body = vec!["  let screen = '';".to_owned()];
    let app = first_app(&src.steps);
    let mut opened = false;
    for step in &src.steps {
        if step.code.trim().is_empty() {
            continue;
        }
        body.push(format!("  // {}", step.title.replace('\n', " ")));
        for line in step.code.lines().filter(|l| !l.trim().is_empty()) {
            body.push(format!(
                "  {}",
                read_the_app(&rewrite_line(line, &src.params), app.as_deref())
            ));
        }
        if let (Some(app), false) = (&app, opened) {
            if step.code.contains("machine.open(") {
                opened = true;
                let app = js_string(app);
                body.push(format!(
                    "  if (!machine.windows().some((w) => w.title === {app})) {{"
                ));
                body.push(format!(
                    "    throw new Error(`precondition_failed: ${{{app}}} did not open`);"
                ));
                body.push("  }".into());
            }
        }
    }
    body.push(read_the_app(
        "  if (!screen) screen = await machine.readText();",
        app.as_deref(),
    ));
    let app_name = js_string(app.as_deref().unwrap_or("the app"));
    body.push(format!("  if (/\\bsign in\\b|\\blog in\\b/i.test(screen)) throw new Error(`needs_sign_in: ${{{app_name}}}`);"));
    body.push(return_statement(src.output_schema));
    format!(
        "async function main(params = {defaults_js}) {{\n{}\n}}\n",
        body.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn step(title: &str, code: &str) -> StepRecord {
        StepRecord {
            index: 0,
            title: title.into(),
            rationale: String::new(),
            code: code.into(),
            error: None,
        }
    }

    #[test]
    fn recorded_values_become_params_and_clicks_become_keys() {
        let s = [
            step("Open Browser", "await machine.open(\"Browser\");"),
            step(
                "Type",
                "await machine.type(\"Weather in Lisbon `now`\");\nawait machine.press(\"Enter\");",
            ),
            step("Confirm", "await machine.click(640, 520); // pay --confirm"),
            step("Read", "return await machine.readText();"),
        ];
        let src = Source {
            steps: s.iter().collect(),
            params: vec![("place".into(), json!("Lisbon"))],
            output_schema: None,
        };
        let code = write(&src);
        assert!(
            code.starts_with("async function main(params = { \"place\": \"Lisbon\" }) {"),
            "{code}"
        );
        assert!(
            code.contains("machine.type(`Weather in ${params.place} \\`now\\``)"),
            "{code}"
        );
        assert!(!code.contains("640"), "{code}");
        assert!(code.contains("precondition_failed"));
        assert!(
            code.contains("screen = await machine.readText(\"Browser\");"),
            "{code}"
        );
    }
}
