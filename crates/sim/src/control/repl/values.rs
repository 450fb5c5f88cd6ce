//! JavaScript values as the exec result shows them: the last expression as JSON (a string
//! past 256 KB), and the REPL's variables with a type and a short preview.

use std::collections::HashSet;

use rquickjs::{Ctx, Value};
use serde::Serialize;

/// A result whose JSON is longer than this comes back as a truncated string.
pub const MAX_RESULT_BYTES: usize = 256 * 1024;
/// Length of a variable's preview.
const PREVIEW_CHARS: usize = 120;

/// One entry of `variables`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Variable {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub preview: String,
}

/// Names of the global object's enumerable own properties.
pub fn global_names(ctx: &Ctx<'_>) -> HashSet<String> {
    ctx.globals()
        .keys::<String>()
        .filter_map(Result::ok)
        .collect()
}

/// The variables a block left behind: enumerable globals that were not there at the start
/// (`var`s and function declarations), in definition order.
pub fn variables<'js>(ctx: &Ctx<'js>, baseline: &HashSet<String>) -> Vec<Variable> {
    let globals = ctx.globals();
    globals
        .keys::<String>()
        .filter_map(Result::ok)
        .filter(|name| !baseline.contains(name))
        .filter_map(|name| {
            let value: Value = globals.get(name.as_str()).ok()?;
            Some(Variable {
                kind: type_name(&value),
                preview: preview(ctx, &value),
                name,
            })
        })
        .collect()
}

fn type_name(v: &Value<'_>) -> String {
    if v.is_null() {
        "null".into()
    } else if v.is_array() {
        "array".into()
    } else if v.is_function() {
        "function".into()
    } else if v.is_undefined() {
        "undefined".into()
    } else if v.is_bool() {
        "boolean".into()
    } else if v.is_number() {
        "number".into()
    } else if v.is_string() {
        "string".into()
    } else if v.is_promise() {
        "promise".into()
    } else {
        "object".into()
    }
}

/// A one-line preview: JSON for data, the source's first line for a function.
pub fn preview<'js>(ctx: &Ctx<'js>, v: &Value<'js>) -> String {
    let text = if v.is_function() || v.is_undefined() || v.is_promise() {
        let s: Option<String> = ctx
            .globals()
            .get::<_, rquickjs::Function>("String")
            .ok()
            .and_then(|f| f.call((v.clone(),)).ok());
        s.unwrap_or_default()
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned()
    } else {
        ctx.json_stringify(v.clone())
            .ok()
            .flatten()
            .and_then(|s| s.to_string().ok())
            .unwrap_or_else(|| "[object]".into())
    };
    cut(&text, PREVIEW_CHARS)
}

/// The block's last expression as JSON; `null` for `undefined` and functions; a string cut
/// at 256 KB when the JSON is longer.
pub fn to_json<'js>(ctx: &Ctx<'js>, v: Value<'js>) -> serde_json::Value {
    let Some(text) = ctx
        .json_stringify(v)
        .ok()
        .flatten()
        .and_then(|s| s.to_string().ok())
    else {
        return serde_json::Value::Null;
    };
    if text.len() > MAX_RESULT_BYTES {
        let mut end = MAX_RESULT_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        return serde_json::Value::String(text[..end].to_owned());
    }
    serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text))
}

/// Cuts to `max` characters, marking the cut with an ellipsis.
pub fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}
