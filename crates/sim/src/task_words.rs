//! What of a message is the task.

/// The task in a message, as an agent reads it: a trailing bracketed line is context a client
/// adds (the makers' client appends the person's local date, time and zone to every task),
/// not words of the task, so the scripted agent neither plans from it nor says it back.
pub fn task_words(message: &str) -> String {
    let trimmed = message.trim_end();
    match trimmed.rfind("\n\n[") {
        Some(at) if trimmed.ends_with(']') && !trimmed[at + 2..].contains('\n') => {
            trimmed[..at].trim_end().to_owned()
        }
        _ => message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::task_words;

    #[test]
    fn a_clients_bracketed_context_line_is_not_the_task() {
        let sent =
            "Find the weather in Lisbon\nand count to 8\n\n[Sent at the person's local time: \
                    Monday, 30 November 2026, 09:05, time zone Europe/Berlin (UTC+01:00)]";
        assert_eq!(
            task_words(sent),
            "Find the weather in Lisbon\nand count to 8"
        );
        assert_eq!(task_words("Open [the notes]"), "Open [the notes]");
        assert_eq!(task_words("[only a bracket]"), "[only a bracket]");
    }
}
