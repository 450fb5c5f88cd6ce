//! Validation of learned code, as the spec lists it: errors for code that does not parse, an
//! unused or unknown parameter, a call direct control does not allow, and a ref id or
//! coordinate copied from the trajectory; warnings for things a person should look at.
//!
//! Parsing uses QuickJS itself (the engine exec runs), in a fresh runtime with a time limit,
//! so "parses here" means "parses where it will run". The parameter defaults are read the
//! same way: the `params = {...}` object is evaluated as an expression.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rquickjs::{CatchResultExt, Context, Runtime};
use serde_json::{Map, Value};

use super::jsx;

/// Calls direct control does not allow, with a plain reason.
const FORBIDDEN: [(&str, &str); 9] = [
    ("require(", "loading modules"),
    ("import(", "loading modules"),
    ("process.", "the host process"),
    ("fetch(", "network access outside the computer"),
    ("XMLHttpRequest", "network access outside the computer"),
    ("eval(", "running generated code"),
    ("new Function", "running generated code"),
    ("setTimeout(", "timers (use machine.wait)"),
    ("machine.hang(", "the simulator's test hook"),
];

/// What validation found.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
    /// `main`'s parameters and defaults, in the order written.
    pub parameters: Vec<(String, Value)>,
}

/// Parses `code` in QuickJS and evaluates its `params` default object. Blocking: run it on a
/// blocking thread.
fn parse(code: &str) -> (Option<String>, Option<Vec<(String, Value)>>) {
    let Ok(rt) = Runtime::new() else {
        return (Some("The code checker could not start.".into()), None);
    };
    rt.set_memory_limit(64 * 1024 * 1024);
    let started = Instant::now();
    let expired = Arc::new(AtomicBool::new(false));
    let flag = expired.clone();
    rt.set_interrupt_handler(Some(Box::new(move || {
        let late = started.elapsed() > Duration::from_secs(2);
        flag.store(late, Ordering::Relaxed);
        late
    })));
    let Ok(ctx) = Context::full(&rt) else {
        return (Some("The code checker could not start.".into()), None);
    };
    ctx.with(|ctx| {
        let source = serde_json::to_string(code).unwrap_or_default();
        let probe = format!("(function () {{ const AsyncFunction = Object.getPrototypeOf(async function () {{}}).constructor; try {{ new AsyncFunction({source}); return ''; }} catch (e) {{ return String(e); }} }})()");
        let parse_error = match ctx.eval::<String, _>(probe).catch(&ctx) {
            Ok(e) if e.is_empty() => None,
            Ok(e) => Some(e),
            Err(e) => Some(e.to_string()),
        };
        // Entries keep the order the defaults were written in (a JSON map would sort them).
        let defaults = jsx::params_literal(code).and_then(|lit| {
            let expr = format!("JSON.stringify(Object.entries(({lit})))");
            let text: String = ctx.eval(expr).ok()?;
            serde_json::from_str::<Vec<(String, Value)>>(&text).ok()
        });
        (parse_error, defaults)
    })
}

/// Checks learned or repaired code. `template_names` are the template's placeholders;
/// `step_errors` name steps that failed in the recorded turns.
pub async fn check(code: String, template_names: Vec<String>, step_errors: Vec<String>) -> Report {
    let source = code.clone();
    let (parse_error, defaults) = tokio::task::spawn_blocking(move || parse(&source))
        .await
        .unwrap_or((Some("The code checker stopped.".into()), None));
    let mut r = Report::default();
    if let Some(e) = parse_error {
        r.errors.push(format!("The code does not parse: {e}"));
    }
    if !code.contains("async function main") {
        r.errors
            .push("The code has no `async function main(params = {...})`.".into());
    }
    r.parameters = defaults.unwrap_or_default();
    let defaults: Map<String, Value> = r.parameters.iter().cloned().collect();
    let used = jsx::used_params(&code);
    for (name, _) in &r.parameters {
        if !used.contains(name) {
            r.errors.push(format!("Parameter `{name}` is never used."));
        }
    }
    for name in &used {
        if !defaults.contains_key(name) {
            r.errors.push(format!(
                "Parameter `{name}` is used but has no default in `params`."
            ));
        }
    }
    for name in template_names.iter().filter(|n| !defaults.contains_key(*n)) {
        r.warnings.push(format!(
            "The template's `{{{{{name}}}}}` is not a parameter of main."
        ));
    }
    for (call, why) in FORBIDDEN {
        if code.contains(call) {
            r.errors.push(format!(
                "`{}` is not allowed under direct control ({why}).",
                call.trim_end_matches('(')
            ));
        }
    }
    for click in jsx::literal_clicks(&code) {
        r.errors.push(format!(
            "`{click}` uses a position copied from the recording; positions change between runs."
        ));
    }
    for id in jsx::ref_ids(&code) {
        r.errors.push(format!("`{id}` is an element reference copied from the recording; references change between runs."));
    }
    if r.parameters.is_empty() && r.errors.is_empty() {
        r.warnings
            .push("main takes no parameters, so every run does the same thing.".into());
    }
    r.warnings.extend(step_errors);
    if code.contains("machine.wait(") && long_wait(&code) {
        r.warnings.push(
            "A fixed wait of 10 seconds or more slows every run; wait for what you need instead."
                .into(),
        );
    }
    r
}

fn long_wait(code: &str) -> bool {
    code.match_indices("machine.wait(").any(|(at, _)| {
        let n: String = code[at + 13..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        n.parse::<u64>().is_ok_and(|ms| ms >= 10_000)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn good_code_passes_and_bad_code_is_named() {
        let good = "async function main(params = { city: 'Lisbon' }) {\n  await machine.open('Browser');\n  return params.city;\n}".to_owned();
        let r = check(good, vec!["city".into()], vec![]).await;
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        assert_eq!(
            r.parameters,
            vec![("city".to_owned(), Value::String("Lisbon".into()))]
        );

        let bad = "async function main(params = { a: 1, b: 2 }) {\n  machine.click(3, 4);\n  fetch('x');\n  return params.a + params.c +\n}".to_owned();
        let r = check(bad, vec![], vec![]).await;
        let all = r.errors.join("\n");
        for needle in [
            "does not parse",
            "`b` is never used",
            "`c` is used",
            "fetch",
            "machine.click(3, 4)",
        ] {
            assert!(all.contains(needle), "{needle} in {all}");
        }
    }
}
