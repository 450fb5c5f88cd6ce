//! A command's words, read the way a POSIX shell splits them, and the wrappers (`sudo`,
//! `env X=1`) before the command that runs.

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
pub(super) fn without_wrappers(words: &[String]) -> &[String] {
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
