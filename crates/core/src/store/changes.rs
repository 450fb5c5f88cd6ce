//! What changed between two JSON values, as a short list a journal line can hold, and how to
//! replay it. Knows no record's shape: objects are compared key by key, arrays as a list
//! that may lose items at the front, gain items at the back and change some in place, which
//! is how a conversation's thread and a follower's lists move.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Where in the value: object keys from the top.
pub type Path = Vec<String>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Change {
    /// The value at the path is now this (an object's key may be new).
    Set(Path, Value),
    /// The object's key is gone.
    Remove(Path),
    /// The array lost this many items at its front.
    DropFront(Path, usize),
    /// The array keeps only this many items.
    Truncate(Path, usize),
    /// The array's item at this index (after dropping and truncating) is now this.
    Put(Path, usize, Value),
    /// The array gained these items at its end.
    Push(Path, Vec<Value>),
}

/// The changes that turn `old` into `new`.
pub fn between(old: &Value, new: &Value) -> Vec<Change> {
    let mut out = Vec::new();
    diff(&mut Vec::new(), old, new, &mut out);
    out
}

fn diff(path: &mut Path, old: &Value, new: &Value, out: &mut Vec<Change>) {
    if old == new {
        return;
    }
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            // In key order whatever the map keeps: serde_json keeps insertion order when
            // another crate of the build turns on its `preserve_order`, and a save must write
            // the same line either way.
            let mut keys: Vec<&String> = b.keys().collect();
            keys.sort();
            for key in keys {
                let after = &b[key];
                path.push(key.clone());
                match a.get(key) {
                    Some(before) => diff(path, before, after, out),
                    None => out.push(Change::Set(path.clone(), after.clone())),
                }
                path.pop();
            }
            let mut gone: Vec<&String> = a.keys().filter(|k| !b.contains_key(*k)).collect();
            gone.sort();
            for key in gone {
                let mut at = path.clone();
                at.push(key.clone());
                out.push(Change::Remove(at));
            }
        }
        (Value::Array(a), Value::Array(b)) => list(path, a, b, out),
        _ => out.push(Change::Set(path.clone(), new.clone())),
    }
}

fn list(path: &Path, a: &[Value], b: &[Value], out: &mut Vec<Change>) {
    // A list at its cap drops its oldest items as new ones come: line up `b`'s first item.
    let dropped = match (a.first(), b.first()) {
        (Some(x), Some(y)) if x != y => a.iter().position(|v| v == y).unwrap_or(a.len()),
        _ => 0,
    };
    let rest = &a[dropped..];
    let kept = rest.len().min(b.len());
    let changed: Vec<usize> = (0..kept).filter(|&i| rest[i] != b[i]).collect();
    // Mostly different: the whole list is shorter to write.
    if changed.len() * 2 > b.len().max(1) {
        out.push(Change::Set(path.clone(), Value::Array(b.to_vec())));
        return;
    }
    if dropped > 0 {
        out.push(Change::DropFront(path.clone(), dropped));
    }
    if rest.len() > b.len() {
        out.push(Change::Truncate(path.clone(), b.len()));
    }
    for i in changed {
        out.push(Change::Put(path.clone(), i, b[i].clone()));
    }
    if b.len() > kept {
        out.push(Change::Push(path.clone(), b[kept..].to_vec()));
    }
}

/// Replays `change` on `value`; `Err` when it does not fit (the journal is damaged).
pub fn apply(value: &mut Value, change: Change) -> Result<(), String> {
    match change {
        Change::Set(path, new) => match path.split_last() {
            None => {
                *value = new;
                Ok(())
            }
            Some((key, parent)) => {
                object(at(value, parent)?)?.insert(key.clone(), new);
                Ok(())
            }
        },
        Change::Remove(path) => {
            let (key, parent) = path.split_last().ok_or("remove without a key")?;
            object(at(value, parent)?)?.remove(key);
            Ok(())
        }
        Change::DropFront(path, n) => {
            let items = array(at(value, &path)?)?;
            if n > items.len() {
                return Err("drops more items than there are".into());
            }
            items.drain(..n);
            Ok(())
        }
        Change::Truncate(path, n) => {
            array(at(value, &path)?)?.truncate(n);
            Ok(())
        }
        Change::Put(path, i, new) => {
            let slot = array(at(value, &path)?)?
                .get_mut(i)
                .ok_or("changes an item that is not there")?;
            *slot = new;
            Ok(())
        }
        Change::Push(path, new) => {
            array(at(value, &path)?)?.extend(new);
            Ok(())
        }
    }
}

fn at<'v>(value: &'v mut Value, path: &[String]) -> Result<&'v mut Value, String> {
    path.iter().try_fold(value, |v, key| {
        object(v)?.get_mut(key).ok_or_else(|| format!("no `{key}`"))
    })
}

fn object(value: &mut Value) -> Result<&mut Map<String, Value>, String> {
    value.as_object_mut().ok_or_else(|| "not an object".into())
}

fn array(value: &mut Value) -> Result<&mut Vec<Value>, String> {
    value.as_array_mut().ok_or_else(|| "not a list".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn replayed(old: &Value, new: &Value) -> (Value, Vec<Change>) {
        let changes = between(old, new);
        let mut value = old.clone();
        for change in changes.clone() {
            apply(&mut value, change).unwrap();
        }
        (value, changes)
    }

    #[test]
    fn a_growing_last_line_writes_that_line_and_the_changed_fields_only() {
        let old = json!({"status": "running", "updatedAt": 1.0, "items": [{"t": "a"}, {"t": "b"}]});
        let new =
            json!({"status": "running", "updatedAt": 2.0, "items": [{"t": "a"}, {"t": "b c"}]});
        let (value, changes) = replayed(&old, &new);
        assert_eq!(value, new);
        assert_eq!(
            changes,
            vec![
                Change::Put(vec!["items".into()], 1, json!({"t": "b c"})),
                Change::Set(vec!["updatedAt".into()], json!(2.0)),
            ]
        );
    }

    #[test]
    fn a_full_list_dropping_its_oldest_item_writes_the_drop_and_the_new_item() {
        let old = json!({"items": [1, 2, 3, 4]});
        let new = json!({"items": [2, 3, 4, 5]});
        let (value, changes) = replayed(&old, &new);
        assert_eq!(value, new);
        assert_eq!(
            changes,
            vec![
                Change::DropFront(vec!["items".into()], 1),
                Change::Push(vec!["items".into()], vec![json!(5)]),
            ]
        );
    }

    #[test]
    fn any_change_replays_to_the_new_value() {
        let cases = [
            (
                json!({"a": {"b": [1, 2]}, "c": 1}),
                json!({"a": {"b": [1, 2, 3], "d": null}}),
            ),
            (json!({"items": [1, 2, 3]}), json!({"items": []})),
            (json!({"items": []}), json!({"items": [1, 1, 1]})),
            (json!({"items": [1, 2, 3, 4]}), json!({"items": [3, 9]})),
            (
                json!({"items": [1, 2, 1, 2]}),
                json!({"items": [2, 1, 2, 7, 8]}),
            ),
            (json!({"items": [1, 2, 3]}), json!({"items": [9, 8, 7]})),
            (json!({"x": [1]}), json!({"x": {"y": 1}})),
            (
                json!({"f": {"cursor": "1", "seen": ["a"]}}),
                json!({"f": null}),
            ),
        ];
        for (old, new) in cases {
            assert_eq!(replayed(&old, &new).0, new, "{old} → {new}");
        }
    }

    /// Random edits of the kinds a conversation sees, and some it does not, from a fixed
    /// seed: whatever `between` writes must replay to exactly the new value.
    #[test]
    fn random_edits_replay_exactly() {
        use rand::{rngs::StdRng, Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(17);
        let mut old = json!({"status": "idle", "items": [], "follower": {"seen": []}});
        for step in 0..3_000 {
            let mut new = old.clone();
            let items = new["items"].as_array_mut().unwrap();
            match rng.random_range(0..7) {
                0 => items.push(json!({"kind": "progress", "text": format!("p{step}")})),
                1 if !items.is_empty() => {
                    let i = rng.random_range(0..items.len());
                    items[i] = json!({"kind": "narration", "text": format!("n{step}")});
                }
                2 if !items.is_empty() => {
                    let n = rng.random_range(1..=items.len().min(3));
                    items.drain(..n);
                    items.push(json!(step % 4));
                }
                3 => {
                    let n = rng.random_range(0..=items.len());
                    items.truncate(n);
                }
                4 => items.push(json!(step % 3)),
                5 => new["follower"]["seen"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!(step)),
                _ => new["status"] = json!(["idle", "running", "failed"])[step % 3].clone(),
            }
            let (value, _) = replayed(&old, &new);
            assert_eq!(value, new, "step {step}");
            old = new;
        }
    }

    #[test]
    fn a_change_that_does_not_fit_is_refused() {
        let mut value = json!({"items": [1]});
        assert!(apply(&mut value, Change::Put(vec!["items".into()], 3, json!(0))).is_err());
        assert!(apply(&mut value, Change::DropFront(vec!["items".into()], 2)).is_err());
        assert!(apply(&mut value, Change::Push(vec!["nope".into()], vec![])).is_err());
        assert_eq!(value, json!({"items": [1]}));
    }
}
