//! What approving a card would do, read in one place for the page and the OS notification:
//! whether it destroys something (and what), and whether it works somewhere else than the
//! place the person's task named.
//!
//! The service's card has no "destructive" field (its fields are a title, a description, an
//! approval type, a command and a folder), so destruction is read from the command itself.
//! Only a short list of well-known deleting commands is read (rm, rmdir, unlink, shred,
//! find -delete, del/erase/rd, Remove-Item, and disk wipes); anything else is not guessed at.
//! Hand-written because no maintained library turns a shell command into its targets, and this
//! reading must stay small enough to check by eye. The page turns the reading into words; a
//! notification offers no Approve for a card that [`CardReading::needs_the_window`].

use serde::{Deserialize, Serialize};

/// What approving a card does, as far as Porthole can tell.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct CardReading {
    /// Approving destroys something that cannot be brought back.
    pub destructive: bool,
    /// What the command deletes, in its order; empty when only the card's title says delete.
    pub deletes: Vec<Deletion>,
    /// The places the person's task named, when something deleted is in none of them.
    pub mismatch: Option<Vec<NamedPlace>>,
}

/// One thing a command deletes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Deletion {
    pub kind: DeletionKind,
    /// The file or folder's name, a pattern ("*.tmp"), or the disk as written.
    pub name: String,
    /// Where it is.
    pub place: Place,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum DeletionKind {
    File,
    /// A folder and everything in it.
    Folder,
    /// The files matching a pattern.
    Matching,
    /// The files `find … -delete` finds in a folder (`place`).
    Found,
    /// A whole disk.
    Disk,
}

/// A place on disk as a person would say it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Place {
    /// The person's home folder itself.
    Home,
    /// The top of the disk.
    Top,
    /// The last (at most two) folders of the path inside the home folder, outermost first.
    Within { folders: Vec<String> },
}

/// A place the task named: a well-known folder, or one named "the X folder" / "folder X".
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct NamedPlace {
    /// Set for a well-known folder, which the page names in its own language.
    pub known: Option<KnownPlace>,
    /// The name as the task wrote it, lower case.
    pub name: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum KnownPlace {
    Desktop,
    Documents,
    Downloads,
    Pictures,
    Photos,
    Music,
    Videos,
    Movies,
}

/// Folders people name by their everyday name, with every name they go by on disk and in a
/// task: English and German (a task may name one in either language, a folder on disk may be
/// called either). These are names to recognise, not words shown: the page names the place
/// from `locales/*/approval.json` (`knownPlace.*`), and a test checks both agree.
pub const KNOWN_PLACES: [(KnownPlace, &[&str]); 8] = [
    (KnownPlace::Desktop, &["desktop", "schreibtisch"]),
    (KnownPlace::Documents, &["documents", "dokumente"]),
    (KnownPlace::Downloads, &["downloads"]),
    (KnownPlace::Pictures, &["pictures", "bilder"]),
    (KnownPlace::Photos, &["photos", "fotos"]),
    (KnownPlace::Music, &["music", "musik"]),
    (KnownPlace::Videos, &["videos"]),
    (KnownPlace::Movies, &["movies", "filme"]),
];

impl CardReading {
    /// Reads a card's command, folder and title, against the words of the task it is part of
    /// (empty when unknown: then no mismatch is read).
    pub fn read(title: &str, command: Option<&str>, cwd: Option<&str>, task: &str) -> Self {
        let targets: Vec<Target> = command
            .map(shell_words)
            .unwrap_or_default()
            .iter()
            .flat_map(|words| deletions(words, cwd).unwrap_or_default())
            .collect();
        if !targets.is_empty() {
            let places = named(task);
            let files: Vec<&Target> = targets.iter().filter(|t| t.kind != Kind::Disk).collect();
            let astray = !places.is_empty()
                && files
                    .iter()
                    .any(|t| !places.iter().any(|p| in_place(&t.path, &p.words)));
            return Self {
                destructive: true,
                deletes: targets.iter().map(Target::deletion).collect(),
                mismatch: astray.then(|| places.into_iter().map(|p| p.shown).collect()),
            };
        }
        Self {
            destructive: title_says_delete(title),
            deletes: Vec::new(),
            mismatch: None,
        }
    }

    /// A notification must not answer this card: it destroys something or works elsewhere than
    /// the task said, and only the card in the window says so.
    pub fn needs_the_window(&self) -> bool {
        self.destructive || self.mismatch.is_some()
    }
}

/// "Delete the selected items": a card whose own title says it destroys something.
fn title_says_delete(title: &str) -> bool {
    let lower = title.trim_start().to_lowercase();
    [
        "delete",
        "remove",
        "erase",
        "wipe",
        "destroy",
        "empty the trash",
    ]
    .iter()
    .any(|verb| {
        lower.strip_prefix(verb).is_some_and(|rest| {
            !rest
                .chars()
                .next()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
    })
}

/// Splits a command into commands of words the way a POSIX shell does for plain quoting
/// ('', "" and \); `a && b`, `a; b`, `a | b` are read as separate commands.
pub fn shell_words(command: &str) -> Vec<Vec<String>> {
    let mut commands: Vec<Vec<String>> = vec![Vec::new()];
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let chars: Vec<char> = command.chars().collect();
    let mut i = 0;
    let end = |commands: &mut Vec<Vec<String>>, word: &mut String, in_word: &mut bool| {
        if *in_word {
            if let Some(last) = commands.last_mut() {
                last.push(std::mem::take(word));
            }
        }
        word.clear();
        *in_word = false;
    };
    while i < chars.len() {
        let c = chars[i];
        if let Some(q) = quote {
            if c == q {
                quote = None;
            } else if c == '\\' && q == '"' && i + 1 < chars.len() {
                i += 1;
                word.push(chars[i]);
            } else {
                word.push(c);
            }
        } else if c == '"' || c == '\'' {
            quote = Some(c);
            in_word = true;
        } else if c == '\\' && i + 1 < chars.len() {
            i += 1;
            word.push(chars[i]);
            in_word = true;
        } else if c.is_whitespace() {
            end(&mut commands, &mut word, &mut in_word);
        } else if c == ';' || c == '|' || c == '&' {
            end(&mut commands, &mut word, &mut in_word);
            while chars.get(i + 1) == Some(&c) {
                i += 1;
            }
            commands.push(Vec::new());
        } else {
            word.push(c);
            in_word = true;
        }
        i += 1;
    }
    end(&mut commands, &mut word, &mut in_word);
    commands.retain(|c| !c.is_empty());
    commands
}

/// `sudo rm …`, `env X=1 rm …`: the command that runs is the one after these.
fn without_wrappers(words: &[String]) -> &[String] {
    let mut w = words;
    loop {
        let Some(first) = w.first().map(|f| f.to_lowercase()) else {
            return w;
        };
        if ["sudo", "command", "nice", "doas"].contains(&first.as_str()) {
            w = &w[1..];
            while w.first().is_some_and(|a| a.starts_with('-')) {
                w = &w[1..];
            }
        } else if first == "env" || is_assignment(&first) {
            w = &w[1..];
        } else {
            return w;
        }
    }
}

/// `NAME=value`.
fn is_assignment(word: &str) -> bool {
    let Some((name, _)) = word.split_once('=') else {
        return false;
    };
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

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
enum Kind {
    File,
    Folder,
    Matching,
    Disk,
}

#[derive(Debug)]
struct Target {
    path: Vec<String>,
    raw: String,
    kind: Kind,
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

    fn deletion(&self) -> Deletion {
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
fn deletions(words: &[String], cwd: Option<&str>) -> Option<Vec<Target>> {
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

fn stem(w: &str) -> String {
    let lower = w.to_lowercase();
    lower.strip_suffix('s').map(str::to_owned).unwrap_or(lower)
}

fn words_of(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A place a task names, with every name it goes by on disk.
struct Named {
    words: Vec<String>,
    shown: NamedPlace,
}

// Words the folder patterns below catch that are not a folder's name (English and German).
const NOT_A_NAME: [&str; 26] = [
    "the", "a", "this", "that", "my", "your", "old", "new", "in", "of", "to", "from", "and", "den",
    "dem", "der", "die", "das", "im", "mein", "meinem", "meinen", "deinem", "alten", "neuen",
    "namens",
];

const OPENING_QUOTES: [char; 4] = ['“', '"', '\'', '„'];
const CLOSING_QUOTES: [char; 4] = ['”', '"', '\'', '“'];

fn name_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '.' | '-')
}

/// The folder name at the start of `token` (after an opening quote), if it starts with one.
fn name_at(token: &str) -> Option<String> {
    let t = token.strip_prefix(OPENING_QUOTES).unwrap_or(token);
    t.chars().next().filter(|c| c.is_alphanumeric())?;
    Some(t.chars().take_while(|c| name_char(*c)).collect())
}

/// `token` is a whole folder name, maybe in quotes.
fn whole_name(token: &str) -> Option<String> {
    let t = token.strip_prefix(OPENING_QUOTES).unwrap_or(token);
    let t = t.strip_suffix(CLOSING_QUOTES).unwrap_or(t);
    let name = name_at(t)?;
    (name.len() == t.len()).then_some(name)
}

/// `token` begins with the word `word`.
fn starts_word(token: &str, word: &str) -> bool {
    token.strip_prefix(word).is_some_and(|rest| {
        !rest
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// The places a task names: well-known folders, then "the X folder", "folder X", "folder
/// called X", "Ordner X".
fn named(task: &str) -> Vec<Named> {
    let mut found: Vec<Named> = Vec::new();
    for w in words_of(task) {
        let Some((place, names)) = KNOWN_PLACES.iter().find(|(_, n)| n.contains(&w.as_str()))
        else {
            continue;
        };
        if !found.iter().any(|n| n.shown.known == Some(*place)) {
            found.push(Named {
                words: names.iter().map(|n| (*n).to_owned()).collect(),
                shown: NamedPlace {
                    known: Some(*place),
                    name: w,
                },
            });
        }
    }
    let lower = task.to_lowercase();
    let tokens: Vec<&str> = lower.split_whitespace().collect();
    let mut names: Vec<String> = Vec::new();
    // "the drafts folder"
    for (i, token) in tokens.iter().enumerate().skip(1) {
        if starts_word(token, "folder") {
            names.extend(whole_name(tokens[i - 1]));
        }
    }
    // "folder drafts", "folder called drafts", "Ordner „Entwürfe“"
    for (i, token) in tokens.iter().enumerate() {
        if *token == "folder" || *token == "ordner" {
            let mut next = i + 1;
            if tokens
                .get(next)
                .is_some_and(|t| ["called", "named", "namens"].contains(t))
            {
                next += 1;
            }
            names.extend(tokens.get(next).and_then(|t| name_at(t)));
        }
    }
    for name in names {
        if NOT_A_NAME.contains(&name.as_str()) {
            continue;
        }
        if !found
            .iter()
            .any(|n| n.words.iter().any(|w| stem(w) == stem(&name)))
        {
            found.push(Named {
                words: vec![name.clone()],
                shown: NamedPlace { known: None, name },
            });
        }
    }
    found
}

fn in_place(path: &[String], words: &[String]) -> bool {
    words.iter().any(|word| {
        let want = stem(word);
        path.iter()
            .any(|part| words_of(part).iter().any(|w| stem(w) == want) || stem(part) == want)
    })
}

#[cfg(test)]
#[path = "card_reading_tests.rs"]
mod tests;
