//! One record's journal: a file of JSON lines. The first line is the record whole
//! (`{"version": 1, "id": …, "snapshot": …}`), each later line the [`Change`]s of one save.
//!
//! Appending a line is the only write of a normal save, so a save costs what changed, not
//! what is kept. A line a crash cut short (no `\n` at its end) is the last save, and is
//! ignored. When the journal grows past a few times its first line, it is rewritten as one
//! snapshot, atomically.

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::changes::{apply, Change};

pub const VERSION: u64 = 1;

#[derive(Serialize, Deserialize)]
struct Header {
    version: u64,
    id: String,
    snapshot: Value,
}

/// What reading a journal found.
#[derive(Debug)]
pub enum Read {
    /// The record as its last complete line left it.
    Whole(Replayed),
    /// A line before the last could not be replayed: the record as the lines before it
    /// left it.
    Damaged(Replayed),
    /// Not even the first line can be read.
    Unreadable,
}

#[derive(Debug)]
pub struct Replayed {
    pub id: String,
    pub value: Value,
    /// Bytes of the first line, what a rewrite would write.
    pub snapshot_len: u64,
    /// Bytes of the complete lines.
    pub len: u64,
    /// The file ends in a line cut short, which the next append must not follow.
    pub torn: bool,
}

/// The bytes of a journal holding `value` whole.
pub fn snapshot(id: &str, value: &Value) -> serde_json::Result<Vec<u8>> {
    let mut bytes = serde_json::to_vec(&Header {
        version: VERSION,
        id: id.to_owned(),
        snapshot: value.clone(),
    })?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// The line recording `changes`.
pub fn line(changes: &[Change]) -> serde_json::Result<Vec<u8>> {
    let mut bytes = serde_json::to_vec(changes)?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// Whether a journal of `len` bytes whose snapshot is `snapshot_len` is worth rewriting.
pub fn needs_compaction(snapshot_len: u64, len: u64) -> bool {
    // Small records compact rarely: a rewrite of a few kilobytes each few saves buys nothing.
    len > 4 * snapshot_len.max(16 * 1024)
}

pub fn read(path: &Path) -> std::io::Result<Read> {
    let bytes = std::fs::read(path)?;
    Ok(parse(&bytes))
}

/// Reads a journal's bytes (public for the fuzz target, which reads bytes, not files).
pub fn parse(bytes: &[u8]) -> Read {
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let torn = complete < bytes.len();
    let mut lines = bytes[..complete].split_inclusive(|&b| b == b'\n');
    let Some(first) = lines.next() else {
        return Read::Unreadable;
    };
    let header: Header = match serde_json::from_slice(first) {
        Ok(h) if is_current(&h) => h,
        _ => return Read::Unreadable,
    };
    let mut replayed = Replayed {
        id: header.id,
        value: header.snapshot,
        snapshot_len: first.len() as u64,
        len: first.len() as u64,
        torn,
    };
    for line in lines {
        let Ok(changes) = serde_json::from_slice::<Vec<Change>>(line) else {
            return Read::Damaged(replayed);
        };
        // Applied to a copy: a line that fits only in part is not half-applied.
        let mut next = replayed.value.clone();
        // A record is an object: a line that would make it anything else (a damaged line
        // replacing it whole) is damage, or the next rewrite would write a journal no start
        // can read (found by the journal fuzz target).
        if changes
            .into_iter()
            .try_for_each(|c| apply(&mut next, c))
            .is_err()
            || !next.is_object()
        {
            return Read::Damaged(replayed);
        }
        replayed.value = next;
        replayed.len += line.len() as u64;
    }
    Read::Whole(replayed)
}

fn is_current(header: &Header) -> bool {
    header.version == VERSION && header.snapshot.is_object()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn journal(lines: &[Vec<u8>]) -> Vec<u8> {
        lines.concat()
    }

    fn replayed(read: Read) -> Replayed {
        match read {
            Read::Whole(r) => r,
            other => panic!("not whole: {other:?}"),
        }
    }

    #[test]
    fn the_lines_replay_in_order() {
        let bytes = journal(&[
            snapshot("c1", &json!({"items": [], "status": "idle"})).unwrap(),
            line(&[Change::Push(vec!["items".into()], vec![json!("a")])]).unwrap(),
            line(&[Change::Set(vec!["status".into()], json!("running"))]).unwrap(),
        ]);
        let r = replayed(parse(&bytes));
        assert_eq!(r.id, "c1");
        assert_eq!(r.value, json!({"items": ["a"], "status": "running"}));
        assert_eq!(r.len, bytes.len() as u64);
        assert!(!r.torn);
    }

    #[test]
    fn a_line_cut_short_loses_that_save_only() {
        let mut bytes = journal(&[
            snapshot("c1", &json!({"items": []})).unwrap(),
            line(&[Change::Push(vec!["items".into()], vec![json!("a")])]).unwrap(),
        ]);
        let whole = bytes.len() as u64;
        let last = line(&[Change::Push(vec!["items".into()], vec![json!("b")])]).unwrap();
        bytes.extend_from_slice(&last[..last.len() - 1]);
        let r = replayed(parse(&bytes));
        assert_eq!(r.value, json!({"items": ["a"]}));
        assert_eq!(r.len, whole);
        assert!(r.torn);
    }

    #[test]
    fn a_bad_line_keeps_what_came_before_it() {
        let bytes = journal(&[
            snapshot("c1", &json!({"items": []})).unwrap(),
            line(&[Change::Push(vec!["items".into()], vec![json!("a")])]).unwrap(),
            b"{not json\n".to_vec(),
            line(&[Change::Push(vec!["items".into()], vec![json!("c")])]).unwrap(),
        ]);
        match parse(&bytes) {
            Read::Damaged(r) => assert_eq!(r.value, json!({"items": ["a"]})),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_line_that_would_make_the_record_no_object_is_damage() {
        let bytes = journal(&[
            snapshot("c1", &json!({"items": ["a"]})).unwrap(),
            line(&[Change::Set(vec![], json!([2]))]).unwrap(),
        ]);
        match parse(&bytes) {
            Read::Damaged(r) => {
                assert_eq!(r.value, json!({"items": ["a"]}));
                // What was kept can be rewritten and read again.
                let again = snapshot(&r.id, &r.value).unwrap();
                assert!(matches!(parse(&again), Read::Whole(_)));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_journal_without_its_first_line_or_from_a_newer_app_is_unreadable() {
        assert!(matches!(parse(b""), Read::Unreadable));
        assert!(matches!(
            parse(b"{\"version\":1,\"id\":\"c"),
            Read::Unreadable
        ));
        let newer = br#"{"version":2,"id":"c1","snapshot":{}}
"#;
        assert!(matches!(parse(newer), Read::Unreadable));
    }
}
