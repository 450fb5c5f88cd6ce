//! The agent writes Markdown; search shows a few words of a line around a match. Those words
//! are the text a person reads in the answer card, not its marks: `**`, `_`, `#`, a link's
//! address, code fences. The line is made plain before it is indexed, so the excerpt SQLite
//! cuts from it is plain too (cutting Markdown at any word would leave half a `**`).

use pulldown_cmark::{Event, Parser, TagEnd};

/// `markdown` as the words it shows: emphasis and headings unmarked, a link as its text, code
/// as itself, blocks on lines of their own, HTML left out.
pub fn plain_text(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    for event in Parser::new(markdown) {
        match event {
            Event::Text(text) | Event::Code(text) => out.push_str(&text),
            Event::SoftBreak => out.push(' '),
            Event::HardBreak | Event::Rule => out.push('\n'),
            Event::End(
                TagEnd::Paragraph
                | TagEnd::Heading(_)
                | TagEnd::Item
                | TagEnd::CodeBlock
                | TagEnd::TableRow
                | TagEnd::BlockQuote(_),
            ) if !out.ends_with('\n') => out.push('\n'),
            Event::End(TagEnd::TableCell) => out.push(' '),
            _ => {}
        }
    }
    out.trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::plain_text;

    #[test]
    fn an_answer_in_markdown_reads_as_its_words() {
        let answer = "# Result\n\n**The best price found is $24.99.** See [the shop](https://shop.example/a?b=1) \
                      or _maybe_ `later`.\n\n- one\n- two\n\n```\ncode here\n```";
        assert_eq!(
            plain_text(answer),
            "Result\nThe best price found is $24.99. See the shop or maybe later.\none\ntwo\ncode here"
        );
    }

    #[test]
    fn plain_words_stay_as_they_are() {
        assert_eq!(
            plain_text("It is 21 °C in Paris today."),
            "It is 21 °C in Paris today."
        );
        // A dollar amount or an underscore inside a word is not Markdown.
        assert_eq!(
            plain_text("file_name costs $5 * 2"),
            "file_name costs $5 * 2"
        );
    }
}
