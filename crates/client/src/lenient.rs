//! Reading answers as leniently as the service makers' own client does (it reads fields with
//! `optString`, defaults and per-row checks): where that client tolerates an odd value, the
//! real service may send one, and this client must accept at least as much.

use serde::de::{DeserializeOwned, Deserializer};
use serde::Deserialize;

/// A list read row by row: a row that cannot be read is logged and left out, never the
/// whole list (one odd computer must not empty the sidebar).
pub fn rows<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    let raw = match serde_json::Value::deserialize(deserializer)? {
        serde_json::Value::Array(rows) => rows,
        _ => Vec::new(),
    };
    Ok(raw
        .into_iter()
        .filter_map(|row| match serde_json::from_value(row) {
            Ok(row) => Some(row),
            Err(err) => {
                tracing::warn!(error = %err, "a row the service sent could not be read; left out");
                None
            }
        })
        .collect())
}

/// An open enum's value for a field the service left out: `Other("")`, a value of no known
/// kind (every open enum reads any text, `open_enum.rs`).
pub fn unknown<T: From<&'static str>>() -> T {
    T::from("")
}

/// Text that may be missing, null or not text at all: a string is kept, a number or a boolean
/// is written as text, anything else is empty.
pub fn text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    Ok(match serde_json::Value::deserialize(deserializer)? {
        serde_json::Value::String(s) => s,
        serde_json::Value::Number(n) => n.to_string(),
        serde_json::Value::Bool(b) => b.to_string(),
        _ => String::new(),
    })
}

/// Optional text: missing, null or not text is `None`, a blank string too.
pub fn optional_text<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<String>, D::Error> {
    Ok(Some(text(deserializer)?).filter(|t| !t.trim().is_empty()))
}

/// A yes or no: `true`, or the text "true"; anything else is no.
pub fn flag<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    Ok(match serde_json::Value::deserialize(deserializer)? {
        serde_json::Value::Bool(b) => b,
        serde_json::Value::String(s) => s.trim().eq_ignore_ascii_case("true"),
        _ => false,
    })
}

/// A time in milliseconds since the epoch, sent as a whole number, a fraction, a number in
/// text, or an RFC 3339 date; anything else is no time (the card shows no countdown).
pub fn millis<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<i64>, D::Error> {
    let from_f64 = |f: f64| (f.is_finite() && f.abs() < 1e17).then_some(f as i64);
    Ok(match serde_json::Value::deserialize(deserializer)? {
        serde_json::Value::Number(n) => n.as_i64().or_else(|| n.as_f64().and_then(from_f64)),
        serde_json::Value::String(s) => {
            let s = s.trim();
            s.parse::<f64>().ok().and_then(from_f64).or_else(|| {
                chrono::DateTime::parse_from_rfc3339(s)
                    .ok()
                    .map(|at| at.timestamp_millis())
            })
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use crate::machines::{MachineKind, MachineList};
    use crate::sessions::{Context, ContextRole};

    #[test]
    fn one_odd_computer_never_empties_the_list() {
        let list: MachineList = serde_json::from_value(serde_json::json!({ "machines": [
            { "machineId": "m1", "name": "No kind", "status": "active" },
            { "name": "no id at all" },
            "not a row",
            { "machineId": "m2", "kind": "cloud" }
        ]}))
        .unwrap();
        let ids: Vec<_> = list
            .machines
            .iter()
            .map(|m| m.machine_id.as_str())
            .collect();
        assert_eq!(ids, ["m1", "m2"]);
        assert_eq!(list.machines[0].kind, MachineKind::Other(String::new()));
    }

    #[test]
    fn a_history_line_is_read_as_the_makers_read_it() {
        let context: Context = serde_json::from_value(serde_json::json!({ "messages": [
            { "role": "user", "content": "Find the weather" },
            { "role": "assistant", "content": null },
            { "content": "no role" },
            { "role": "assistant", "content": { "parts": [] } },
            { "role": "assistant", "content": 42 },
            { "role": "assistant", "content": [1, 2] },
            7
        ]}))
        .unwrap();
        let lines: Vec<_> = context
            .messages
            .iter()
            .map(|m| (m.role.clone(), m.content.as_str()))
            .collect();
        assert_eq!(
            lines,
            [
                (ContextRole::User, "Find the weather"),
                (ContextRole::Assistant, ""),
                (ContextRole::Other(String::new()), "no role"),
                (ContextRole::Assistant, ""),
                (ContextRole::Assistant, "42"),
                (ContextRole::Assistant, ""),
            ]
        );
        let none: Context =
            serde_json::from_value(serde_json::json!({ "messages": null })).unwrap();
        assert!(none.messages.is_empty());
    }
}
