//! What a deleting command deletes: its targets as paths, and where each one is.

use super::shell::without_wrappers;
use super::{Deletion, DeletionKind, Place};

fn split_path(p: &str) -> Vec<String> {
    p.split(['/', '\\'])
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A path as folders from the root, with `~` and a relative path resolved against `cwd`.
fn resolve(raw: &str, cwd: Option<&str>, home: &[String]) -> Vec<String> {
    let home_rest = raw
        .strip_prefix("$HOME")
        .or_else(|| (raw == "~" || raw.starts_with("~/")).then(|| &raw[1..]));
    let drive = raw.len() >= 3
        && raw.as_bytes()[0].is_ascii_alphabetic()
        && raw.as_bytes()[1] == b':'
        && matches!(raw.as_bytes()[2], b'/' | b'\\');
    let parts: Vec<String> = if let Some(rest) = home_rest {
        home.iter().cloned().chain(split_path(rest)).collect()
    } else if raw.starts_with('/') || drive {
        split_path(raw)
    } else {
        split_path(cwd.unwrap_or_default())
            .into_iter()
            .chain(split_path(raw))
            .collect()
    };
    let mut out: Vec<String> = Vec::new();
    for p in parts {
        match p.as_str() {
            "." => {}
            ".." => {
                out.pop();
            }
            _ => out.push(p),
        }
    }
    out
}

/// How many leading folders make the home folder a path is in (/home/<name>, /Users/<name>,
/// C:\Users\<name>, /root), if it is in one.
fn home_of(parts: &[String]) -> Option<usize> {
    let lower: Vec<String> = parts.iter().map(|p| p.to_lowercase()).collect();
    if lower.first().map(String::as_str) == Some("root") {
        return Some(1);
    }
    let i = lower.iter().position(|p| p == "home" || p == "users")?;
    (i <= 1 && parts.len() > i + 1).then_some(i + 2)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    File,
    Folder,
    Matching,
    Disk,
}

#[derive(Debug)]
pub(super) struct Target {
    pub(super) path: Vec<String>,
    raw: String,
    pub(super) kind: Kind,
}

fn has_pattern(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

impl Target {
    fn name(&self) -> String {
        self.path
            .last()
            .cloned()
            .unwrap_or_else(|| self.raw.clone())
    }

    pub(super) fn deletion(&self) -> Deletion {
        let name = self.name();
        let (kind, place) = match self.kind {
            Kind::Disk => (DeletionKind::Disk, Place::Top),
            Kind::File => (DeletionKind::File, place_of(&self.path)),
            Kind::Folder => (DeletionKind::Folder, place_of(&self.path)),
            Kind::Matching if has_pattern(&name) => (DeletionKind::Matching, place_of(&self.path)),
            // `find DIR … -delete`: the files it finds in DIR.
            Kind::Matching => {
                let mut inside = self.path.clone();
                inside.push(String::new());
                (DeletionKind::Found, place_of(&inside))
            }
        };
        let name = if self.kind == Kind::Disk {
            self.raw.trim().to_owned()
        } else {
            name
        };
        Deletion { kind, name, place }
    }
}

/// The place of the folder a path is in.
fn place_of(path: &[String]) -> Place {
    let parent = &path[..path.len().saturating_sub(1)];
    let home = home_of(parent);
    if home == Some(parent.len()) {
        return Place::Home;
    }
    if parent.is_empty() {
        return Place::Top;
    }
    let inside = &parent[home.unwrap_or(0)..];
    Place::Within {
        folders: inside[inside.len().saturating_sub(2)..].to_vec(),
    }
}

/// What one command deletes, or `None` when it is not a deleting command Porthole knows.
pub(super) fn deletions(words: &[String], cwd: Option<&str>) -> Option<Vec<Target>> {
    let w = without_wrappers(words);
    let first = w.first()?.to_lowercase();
    let cmd = first.rsplit(['/', '\\']).next().unwrap_or_default();
    let args = &w[1..];
    let cwd_parts = split_path(cwd.unwrap_or_default());
    // Without a folder to go by, `~` is "your home folder" all the same.
    let home: Vec<String> = match home_of(&cwd_parts) {
        Some(h) if h > 0 => cwd_parts[..h].to_vec(),
        _ => vec!["home".into(), "you".into()],
    };
    let targets = |names: Vec<&String>, kind: Kind| -> Vec<Target> {
        names
            .into_iter()
            .map(|raw| Target {
                path: resolve(raw, cwd, &home),
                raw: raw.clone(),
                kind: if has_pattern(raw) {
                    Kind::Matching
                } else if raw.ends_with('/') && kind == Kind::File {
                    Kind::Folder
                } else {
                    kind
                },
            })
            .collect()
    };
    let operands = |flag: &dyn Fn(&str) -> bool| -> Vec<&String> {
        let mut out = Vec::new();
        let mut flags = true;
        for a in args {
            if flags && a == "--" {
                flags = false;
            } else if !(flags && flag(a)) {
                out.push(a);
            }
        }
        out
    };
    let unix_flag = |a: &str| a.starts_with('-');
    let disk = |raw: &str| {
        vec![Target {
            path: Vec::new(),
            raw: raw.to_owned(),
            kind: Kind::Disk,
        }]
    };
    let last = args.last().map(String::as_str).unwrap_or_default();
    Some(match cmd {
        "rm" => {
            let recursive = args.iter().any(|a| {
                a == "--recursive"
                    || a.strip_prefix('-').is_some_and(|f| {
                        f.chars()
                            .take_while(char::is_ascii_alphabetic)
                            .any(|c| c == 'r' || c == 'R')
                    })
            });
            let kind = if recursive { Kind::Folder } else { Kind::File };
            targets(operands(&unix_flag), kind)
        }
        "rmdir" => targets(operands(&unix_flag), Kind::Folder),
        "unlink" | "shred" => targets(operands(&unix_flag), Kind::File),
        "find" => {
            if !args.iter().any(|a| a == "-delete") {
                return None;
            }
            let dot = ".".to_owned();
            let start = args.first().filter(|a| !a.starts_with('-')).unwrap_or(&dot);
            targets(vec![start], Kind::Matching)
        }
        "del" | "erase" => targets(operands(&|a: &str| a.starts_with('/')), Kind::File),
        "rd" => targets(operands(&|a: &str| a.starts_with('/')), Kind::Folder),
        "remove-item" | "ri" => {
            let recursive = args.iter().any(|a| a.eq_ignore_ascii_case("-recurse"));
            let kind = if recursive { Kind::Folder } else { Kind::File };
            targets(operands(&unix_flag), kind)
        }
        "mkfs" | "wipefs" | "format" => disk(last),
        "dd" => {
            let of = args.iter().find(|a| a.starts_with("of=/dev/"))?;
            disk(&of[3..])
        }
        _ if cmd.starts_with("mkfs.") => disk(last),
        _ => return None,
    })
}
