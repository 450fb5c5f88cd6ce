//! What the Demo's agent finds for a task: a plausible, fixed result that answers the kind of
//! task asked (a sum for "add up the table", a file for "find the file", points for
//! "summarise", a booking for "book"), shown on the screen and quoted in the answer. The same
//! task always gets the same result, so tests can rely on it. A first-time person meets the
//! agent here: an answer that has nothing to do with the question reads as an agent that did
//! not understand.

use super::home;

fn has_word(text: &str, stems: &[&str]) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .any(|w| stems.iter().any(|s| w.starts_with(s)))
}

/// The words after `marker` in `message`, up to punctuation: "weather in Paris" → "Paris".
fn after(message: &str, marker: &str) -> Option<String> {
    let lower = message.to_lowercase();
    let start = lower.find(marker)? + marker.len();
    // Lowercasing can change byte lengths; fall back to the lowercase text then.
    let rest = message.get(start..).unwrap_or(&lower[start..]);
    let words: String = rest
        .chars()
        .take_while(|c| c.is_alphabetic() || *c == ' ' || *c == '-')
        .collect();
    let words = words.trim();
    (!words.is_empty()).then(|| words.to_owned())
}

/// The task without a polite opening and its final stop, to quote back: "search for cheap
/// flights to Rome".
fn quoted(message: &str) -> String {
    let t = message.trim().trim_end_matches(['.', '!', '?']);
    let short: String = t.chars().take(80).collect();
    if short.len() < t.len() {
        format!("{short}…")
    } else {
        short
    }
}

/// A plausible result for the task.
pub fn result_for(message: &str) -> String {
    let lower = message.to_lowercase();
    if let Some(place) = after(message, "weather in ") {
        return format!("{place}: 21 °C and sunny, light wind.");
    }
    if lower.contains("clear out") {
        let f = home::folder_to_delete(message);
        return format!(
            "Cleared out the folder {} in {}: {} files deleted.",
            f.name, f.place, f.files
        );
    }
    // The window's German example tasks ("Schau nach dem Wetter in Lissabon") work too.
    if let Some(place) = after(message, "wetter in ") {
        return format!("{place}: 21 °C und sonnig, leichter Wind.");
    }
    if has_word(&lower, &["preis", "kostet"]) {
        return "Der beste gefundene Preis ist 24,99 $.".into();
    }
    if has_word(&lower, &["addier", "summe"]) {
        return "Die Summe ist 1.284,50 $: die 12 Zeilen der Spalte Betrag zusammengezählt.".into();
    }
    if has_word(&lower, &["delet", "remov"]) {
        let f = home::folder_to_delete(message);
        return format!(
            "Deleted the folder {} in {} ({} files).",
            f.name, f.place, f.files
        );
    }
    // Before sums: "summarise" starts like "sum".
    if has_word(&lower, &["summar", "summin", "tldr"]) {
        return "In short: the launch moves to 12 May; early customers get 20% off; support is by email only for now.".into();
    }
    if lower.contains("add up")
        || has_word(&lower, &["total", "sum"])
        || (has_word(&lower, &["table", "spreadsheet", "sheet"]) && has_word(&lower, &["add"]))
    {
        return "The total is $1,284.50: the 12 rows of the Amount column added up.".into();
    }
    if has_word(&lower, &["average", "mean"]) {
        return "The average is $107.04 over the 12 rows of the Amount column.".into();
    }
    if has_word(&lower, &["book", "reserv"]) {
        return "Booked a table for 2 on Friday at 19:30 at Casa Lisboa; the confirmation number is PH-4821.".into();
    }
    if has_word(&lower, &["send", "email", "mail"]) {
        return "Sent: the message is in the Sent folder.".into();
    }
    if has_word(&lower, &["install"]) {
        return "Installed: the app opens and is ready.".into();
    }
    if has_word(&lower, &["price", "cost"]) || lower.contains("how much") {
        return "The best price found is $24.99.".into();
    }
    if has_word(&lower, &["find", "locat", "where"])
        && has_word(
            &lower,
            &["file", "document", "pdf", "invoice", "photo", "folder"],
        )
    {
        return "Found it: “Invoice March 2026.pdf” in Documents › Invoices, changed 3 days ago."
            .into();
    }
    if has_word(&lower, &["write", "draft"]) {
        return "Written: two pages, saved as “Report.docx” in Documents.".into();
    }
    if has_word(&lower, &["translat"]) {
        return "In French: « Merci pour votre aide, à demain. »".into();
    }
    if has_word(&lower, &["count"]) && lower.contains("count to") {
        return "Counted every item, as asked.".into();
    }
    // A search or look-up of anything else: the result names what was asked for.
    if is_search(&lower) {
        return format!(
            "The top result for “{}” is on example.com; two other sources agree.",
            quoted(message)
        );
    }
    CAN_DO.to_owned()
}

/// What the practice computer says of a task it cannot act out: what it can do instead. A
/// made-up answer to a task it did not understand would read as an agent that does not listen.
pub const CAN_DO: &str = "This practice computer can't do that task for real.";

/// What it can do, said under [`CAN_DO`] before the tasks to try.
pub const CAN_DO_INSTEAD: &str =
    "It can look up the weather, find prices, add up tables and find files. Try one of these:";

/// Three tasks it can act out, offered with [`CAN_DO`]; each is quoted on its own list line,
/// which the app shows as a button that puts the task in the message box.
pub const EXAMPLES: [&str; 3] = [
    "Look up the weather in Lisbon",
    "Find the price of a coffee grinder",
    "Add up the table in my expenses sheet",
];

/// Whether the task is one the practice computer cannot act out (it answers [`CAN_DO`]).
#[cfg(test)]
fn cannot_fake(message: &str) -> bool {
    result_for(message) == CAN_DO
}

fn is_search(lower: &str) -> bool {
    [
        "look up", "what is", "what's", "who is", "when is", "check ",
    ]
    .iter()
    .any(|p| lower.contains(p))
        || has_word(
            lower,
            &["search", "find", "google", "news", "compar", "research"],
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_of_task_gets_a_result_that_answers_it() {
        assert_eq!(
            result_for("Weather in Paris today"),
            "Paris today: 21 °C and sunny, light wind."
        );
        assert!(
            result_for("İİ weather in Köln").contains("ln"),
            "no panic on changed byte lengths"
        );
        assert!(result_for("Add up the table using my notes").starts_with("The total is"));
        assert!(result_for("What is the total of column B?").starts_with("The total is"));
        assert!(result_for("Find the invoice file from March").starts_with("Found it"));
        assert!(result_for("Summarise this page").starts_with("In short"));
        assert!(result_for("Book a table for two on Friday").starts_with("Booked"));
        assert!(result_for("Delete the drafts").contains("drafts in Documents"));
        let search = result_for("Search for cheap flights to Rome.");
        assert!(
            search.contains("“Search for cheap flights to Rome”"),
            "{search}"
        );
        assert!(!result_for("anything at all").contains("Found 3 matching results"));
        assert!(cannot_fake("Read the attached shopping notes"));
        assert!(cannot_fake("And tomorrow?"));
        assert!(!cannot_fake("Look up the opening hours of the library"));
        for example in EXAMPLES {
            assert!(
                !cannot_fake(example),
                "an example it offers works: {example}"
            );
        }
        assert_eq!(
            result_for("Add up the table"),
            result_for("Add up the table"),
            "the same task always gets the same result"
        );
    }
}
