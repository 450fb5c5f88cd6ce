//! What Porthole says in a thread about what happened (a stop, an answer, a cap reached),
//! made from the facts a conversation saves (`Notice`). The page gets the same sentences as
//! `NOTICE_WORDS` and fills them the same way (`ui/src/lib/notice.ts`); the search index
//! fills them here.

use std::collections::BTreeMap;

use crate::conversations::Notice;

/// The sentence of each notice, keyed by its `what`; `{cap}`, `{cost}` and `{picks}` are
/// filled from its facts (sums of money as [`dollars`] writes them).
const SENTENCES: [(&str, &str); 9] = [
    ("stopped", "You stopped the task."),
    (
        "stoppedAtCap",
        "Stopped at your {cap} cap. This task cost {cost}.",
    ),
    (
        "notStoppedAtCap",
        "This task reached your {cap} cap, but Porthole could not stop it. Press Stop to stop it.",
    ),
    ("approved", "You approved the request."),
    ("denied", "You denied the request."),
    ("answered", "You answered: {picks}."),
    (
        "demoRestarted",
        "The Demo was restarted, so this task ended.",
    ),
    ("earlier", "{text}"),
    // Not a notice: the delivery line (`Status` about `resending`) the app shows while a message
    // the service did not take is sent again.
    ("sendingAgain", "Sending again…"),
];

/// Every notice's sentence, keyed by its `what`: exported to the page as `NOTICE_WORDS`.
pub fn table() -> BTreeMap<&'static str, &'static str> {
    SENTENCES.into_iter().collect()
}

/// The notice in words.
pub fn text(notice: &Notice) -> String {
    let sentence = |what: &str| {
        SENTENCES
            .iter()
            .find(|(key, _)| *key == what)
            .map_or("", |(_, sentence)| sentence)
    };
    match notice {
        Notice::Stopped => sentence("stopped").to_owned(),
        Notice::StoppedAtCap { cap_usd, cost_usd } => sentence("stoppedAtCap")
            .replace("{cap}", &dollars(*cap_usd))
            .replace("{cost}", &dollars(*cost_usd)),
        Notice::NotStoppedAtCap { cap_usd } => {
            sentence("notStoppedAtCap").replace("{cap}", &dollars(*cap_usd))
        }
        Notice::Approved => sentence("approved").to_owned(),
        Notice::Denied => sentence("denied").to_owned(),
        Notice::Answered { picks } => sentence("answered").replace("{picks}", &picks.join(", ")),
        Notice::DemoRestarted => sentence("demoRestarted").to_owned(),
        Notice::Earlier { text } => text.clone(),
    }
}

/// Dollars as the window shows them (`format.ts`'s `dollars`): two decimals, and never a
/// cost that rounds to nothing.
pub fn dollars(usd: f64) -> String {
    if usd > 0.0 && usd < 0.01 {
        "less than $0.01".into()
    } else {
        format!("${usd:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tag each notice is saved and exported under.
    fn what(notice: &Notice) -> String {
        serde_json::to_value(notice).unwrap()["what"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    fn every_notice() -> Vec<Notice> {
        vec![
            Notice::Stopped,
            Notice::StoppedAtCap {
                cap_usd: 0.5,
                cost_usd: 0.5234,
            },
            Notice::NotStoppedAtCap { cap_usd: 2.0 },
            Notice::Approved,
            Notice::Denied,
            Notice::Answered {
                picks: vec!["Blue".into(), "teal".into()],
            },
            Notice::DemoRestarted,
            Notice::Earlier {
                text: "Something said long ago.".into(),
            },
        ]
    }

    #[test]
    fn every_notice_has_a_sentence_under_its_saved_name() {
        let table = table();
        for notice in every_notice() {
            assert!(table.contains_key(what(&notice).as_str()), "{notice:?}");
            let words = text(&notice);
            assert!(!words.contains('{'), "{words}: every blank is filled");
            assert!(words.ends_with('.'), "{words}");
        }
        assert_eq!(
            table.len(),
            every_notice().len() + 1,
            "no sentence without a notice, but for the line said while sending again"
        );
        assert_eq!(table["sendingAgain"], "Sending again…");
    }

    #[test]
    fn the_stop_at_a_cap_says_the_cap_and_the_cost_in_dollars() {
        assert_eq!(
            text(&every_notice()[1]),
            "Stopped at your $0.50 cap. This task cost $0.52."
        );
        assert_eq!(dollars(0.004), "less than $0.01");
        assert_eq!(dollars(0.0), "$0.00");
        assert_eq!(dollars(12.0), "$12.00");
    }

    /// What earlier versions saved reads back as the same facts, so it shows the same words.
    #[test]
    fn words_saved_by_earlier_versions_read_back_as_their_facts() {
        for notice in every_notice() {
            let saved = text(&notice);
            let read = Notice::from_saved_words(&saved);
            assert_eq!(text(&read), saved, "{notice:?}");
            if !matches!(notice, Notice::Earlier { .. } | Notice::StoppedAtCap { .. }) {
                assert_eq!(read, notice);
            }
        }
        assert_eq!(
            Notice::from_saved_words("Stopped at your $0.50 cap. This task cost less than $0.01."),
            Notice::StoppedAtCap {
                cap_usd: 0.5,
                cost_usd: 0.005
            }
        );
    }
}
