//! The person's local date, time and time zone, told to the agent with every message.
//!
//! The agent runs in a datacenter: without this it reads "today", "Friday" or "every Monday"
//! from its machine's clock. A message has no field for it, so, as the service makers' own
//! client does (`HttpAgentBridge.kt`), a bracketed line is appended to the text the service
//! gets. It is never part of the person's words in the thread, in Porthole's stored copy or
//! in search; lines read back from the service's history have it taken off again.

use chrono::{DateTime, Local, Offset, TimeZone};

/// How the appended line begins: also how it is recognised when the history is read back.
const MARK: &str = "[Sent at the person's local time: ";

/// `text` as the service gets it: the person's words, then their local time now.
pub fn with_local_time(text: &str) -> String {
    let zone = iana_time_zone::get_timezone().ok();
    format!("{text}\n\n{}", line_at(&Local::now(), zone.as_deref()))
}

/// The line for the moment `now`, in the zone named `zone` (its IANA name, when the system
/// tells it).
pub fn line_at<Tz: TimeZone>(now: &DateTime<Tz>, zone: Option<&str>) -> String
where
    Tz::Offset: std::fmt::Display,
{
    let offset = now.offset().fix();
    let when = now.format("%A, %-d %B %Y, %H:%M");
    match zone {
        Some(zone) => format!("{MARK}{when}, time zone {zone} (UTC{offset})]"),
        None => format!("{MARK}{when} (UTC{offset})]"),
    }
}

/// The person's words of a message as the service keeps it: without the appended line.
pub fn without_local_time(text: &str) -> &str {
    match text.rfind(MARK) {
        Some(at) if text[at..].trim_end().ends_with(']') && !text[at..].contains('\n') => {
            text[..at].trim_end()
        }
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use chrono_tz::Europe::Berlin;

    #[test]
    fn the_agent_reads_the_persons_date_time_and_zone() {
        let monday = Berlin.with_ymd_and_hms(2026, 11, 30, 9, 5, 0).unwrap();
        assert_eq!(
            line_at(&monday, Some("Europe/Berlin")),
            "[Sent at the person's local time: Monday, 30 November 2026, 09:05, \
             time zone Europe/Berlin (UTC+01:00)]"
        );
        let summer = Berlin.with_ymd_and_hms(2026, 7, 6, 23, 30, 0).unwrap();
        assert!(line_at(&summer, None).ends_with("Monday, 6 July 2026, 23:30 (UTC+02:00)]"));
    }

    #[test]
    fn the_line_goes_after_the_persons_words_and_comes_off_again() {
        let sent = with_local_time("Send the weekly report\nto Ana");
        assert!(
            sent.starts_with("Send the weekly report\nto Ana\n\n[Sent at"),
            "{sent}"
        );
        assert_eq!(without_local_time(&sent), "Send the weekly report\nto Ana");
        // Words that only mention the mark, or say nothing of it, stay as they are.
        assert_eq!(without_local_time("Find flights"), "Find flights");
        let quoted = "[Sent at the person's local time: is this a bracket]\nand more";
        assert_eq!(without_local_time(quoted), quoted);
    }
}
