//! Words the page made for the Rust side to carry: dates, times and sums worded by the page's
//! `Intl` (the one place with it; ICU in the binary would cost megabytes). They go where the
//! page cannot write (the tray's menu, a saved report), so they are taken as plain text of a
//! bounded length, never as markup or several lines.

/// `text` on one line, without control characters, at most `max` characters; `None` when
/// nothing is left, so the caller says its own words instead.
pub fn plain(text: &str, max: usize) -> Option<String> {
    let one_line = text
        .split(|c: char| c.is_control() || (c.is_whitespace() && c != '\u{a0}' && c != '\u{202f}'))
        .filter(|piece| !piece.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let mut words: String = one_line.chars().take(max).collect();
    if one_line.chars().count() > max {
        words.pop();
        words.push('…');
    }
    let words = words.trim();
    (!words.is_empty()).then(|| words.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_s_words_are_kept_as_one_plain_line_of_bounded_length() {
        assert_eq!(plain("at 16:30", 80).as_deref(), Some("at 16:30"));
        // Intl's own spaces (no-break, narrow no-break) stay as they are.
        assert_eq!(
            plain("2:05\u{202f}PM", 80).as_deref(),
            Some("2:05\u{202f}PM")
        );
        assert_eq!(plain("0,52\u{a0}$", 80).as_deref(), Some("0,52\u{a0}$"));
        assert_eq!(
            plain("  tomorrow\n at\t08:00\u{0}\r\n", 80).as_deref(),
            Some("tomorrow at 08:00")
        );
        assert_eq!(plain("", 80), None);
        assert_eq!(plain(" \n\t\u{7}", 80), None);
        let long = "ä".repeat(10_000);
        let cut = plain(&long, 80).unwrap();
        assert_eq!(cut.chars().count(), 80);
        assert!(cut.ends_with('…'));
        assert_eq!(plain("12345", 5).as_deref(), Some("12345"));
    }
}
