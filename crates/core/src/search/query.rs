//! What a person types in the search box, made into an FTS5 query that cannot fail to parse.
//!
//! FTS5's query language gives meaning to quotes, `*`, `-`, `:`, `^`, parentheses and the
//! words AND/OR/NOT/NEAR; a person types none of it on purpose. So the box's text is cut into
//! words with the same rule as the index's tokenizer (letters and digits, any script), each
//! word is quoted (so nothing in it is an operator) and made a prefix (so results come while
//! a word is half typed), and the words are all required.

/// The FTS5 query for `typed`, or `None` when it holds no word to look for.
pub fn match_expression(typed: &str) -> Option<String> {
    let words: Vec<String> = words(typed)
        .take(MAX_WORDS)
        .map(|w| format!("\"{w}\"*"))
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// More words than this add nothing a person means, and only cost time.
const MAX_WORDS: usize = 12;

/// The words of `typed` as the index's `unicode61` tokenizer sees them: runs of letters and
/// digits. A word never holds a quote, so quoting it is enough.
fn words(typed: &str) -> impl Iterator<Item = &str> {
    typed
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_become_quoted_prefixes_and_operators_are_only_words() {
        assert_eq!(
            match_expression("weather lis").unwrap(),
            "\"weather\"* \"lis\"*"
        );
        assert_eq!(match_expression("  ").as_deref(), None);
        assert_eq!(match_expression("\"*:-^()").as_deref(), None);
        assert_eq!(
            match_expression("NOT a OR \"b").unwrap(),
            "\"NOT\"* \"a\"* \"OR\"* \"b\"*"
        );
        assert_eq!(
            match_expression("Zürich 東京").unwrap(),
            "\"Zürich\"* \"東京\"*"
        );
        assert_eq!(match_expression("col:x").unwrap(), "\"col\"* \"x\"*");
    }
}
