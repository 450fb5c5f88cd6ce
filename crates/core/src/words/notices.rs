//! What Porthole says in a thread about what happened (a stop, an answer, a cap reached),
//! made from the facts a conversation saves (`Notice`), from
//! `locales/<language>/notices.json`. The page words them from the same keys
//! (`ui/src/lib/notice.ts`); the search index words them here.

use super::catalog::{self, Value};
use super::language::{self, Language};
use super::money;
use crate::conversations::Notice;

/// The notice in words, in the app's language.
pub fn text(notice: &Notice) -> String {
    text_in(language::current(), notice)
}

/// The notice in words, in `language`.
pub fn text_in(language: Language, notice: &Notice) -> String {
    let say = |key: &str, values: &[(&str, Value)]| catalog::text_in(language, key, values);
    let sum = |usd: f64| Value::from(dollars_in(language, usd));
    match notice {
        Notice::Stopped => say("notices.stopped", &[]),
        Notice::NothingToStop => say("notices.nothingToStop", &[]),
        Notice::NotStopped => say("notices.notStopped", &[]),
        Notice::WaitingForStop => say("notices.waitingForStop", &[]),
        Notice::StoppedAtCap { cap_usd, cost_usd } => say(
            "notices.stoppedAtCap",
            &[("cap", sum(*cap_usd)), ("cost", sum(*cost_usd))],
        ),
        Notice::NotStoppedAtCap { cap_usd } => {
            say("notices.notStoppedAtCap", &[("cap", sum(*cap_usd))])
        }
        Notice::CapRaised { cap_usd } => say("notices.capRaised", &[("cap", sum(*cap_usd))]),
        Notice::CapKept { cap_usd } => say("notices.capKept", &[("cap", sum(*cap_usd))]),
        Notice::Approved => say("notices.approved", &[]),
        Notice::Denied => say("notices.denied", &[]),
        Notice::Answered { picks } => {
            say("notices.answered", &[("picks", picks.join(", ").into())])
        }
        Notice::DemoRestarted => say("notices.demoRestarted", &[]),
        Notice::UpdatesLost => say("notices.updatesLost", &[]),
        Notice::Earlier { text } => text.clone(),
    }
}

/// Dollars as the window shows them (`intl.money`): two decimals, and never a cost that rounds
/// to nothing.
fn dollars_in(language: Language, usd: f64) -> String {
    if usd > 0.0 && usd < 0.01 {
        let cent = money::usd_in(language, 0.01);
        catalog::text_in(language, "notices.lessThanACent", &[("cent", cent.into())])
    } else {
        money::usd_in(language, usd)
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
            Notice::NothingToStop,
            Notice::NotStopped,
            Notice::WaitingForStop,
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
            Notice::UpdatesLost,
            Notice::CapRaised { cap_usd: 4.0 },
            Notice::CapKept { cap_usd: 2.0 },
            Notice::Earlier {
                text: "Something said long ago.".into(),
            },
        ]
    }

    #[test]
    fn every_notice_has_a_sentence_under_its_saved_name_in_every_language() {
        for language in [Language::En, Language::De] {
            let messages = catalog::messages(language);
            for notice in every_notice() {
                let words = text_in(language, &notice);
                if !matches!(notice, Notice::Earlier { .. }) {
                    let key = format!("notices.{}", what(&notice));
                    assert!(messages.contains_key(&key), "{language:?}: {key}");
                }
                assert!(!words.contains('{'), "{words}: every blank is filled");
                assert!(words.ends_with('.'), "{words}");
            }
        }
        assert_eq!(
            catalog::text_in(Language::En, "notices.sendingAgain", &[]),
            "Sending again…"
        );
    }

    #[test]
    fn the_stop_at_a_cap_says_the_cap_and_the_cost_in_dollars() {
        assert_eq!(
            text(&every_notice()[4]),
            "Stopped at your $0.50 cap. This task cost $0.52."
        );
        assert_eq!(dollars_in(Language::En, 0.004), "less than $0.01");
        assert_eq!(dollars_in(Language::En, 0.0), "$0.00");
        assert_eq!(dollars_in(Language::En, 12.0), "$12.00");
    }

    #[test]
    fn a_german_thread_says_its_notices_and_sums_in_german() {
        assert_eq!(
            text_in(Language::De, &every_notice()[4]),
            "Bei deiner Grenze von 0,50\u{a0}$ gestoppt. Diese Aufgabe hat 0,52\u{a0}$ gekostet."
        );
        assert_eq!(dollars_in(Language::De, 0.004), "weniger als 0,01\u{a0}$");
        assert_eq!(
            text_in(Language::De, &Notice::Stopped),
            "Du hast die Aufgabe gestoppt."
        );
    }

    /// What earlier versions saved reads back as the same facts, so it shows the same words.
    #[test]
    fn words_saved_by_earlier_versions_read_back_as_their_facts() {
        for notice in every_notice() {
            let saved = text(&notice);
            let read = Notice::from_saved_words(&saved);
            assert_eq!(text(&read), saved, "{notice:?}");
            // No earlier version said these (updates lost, the answers to Stop, the cap's
            // refusal in today's words): those words read back as they were.
            if !matches!(
                notice,
                Notice::Earlier { .. }
                    | Notice::StoppedAtCap { .. }
                    | Notice::UpdatesLost
                    | Notice::CapRaised { .. }
                    | Notice::CapKept { .. }
                    | Notice::NothingToStop
                    | Notice::NotStopped
                    | Notice::WaitingForStop
                    | Notice::NotStoppedAtCap { .. }
            ) {
                assert_eq!(read, notice);
            }
        }
        // The cap's refusal as earlier versions said it, before Porthole kept trying.
        assert_eq!(
            Notice::from_saved_words(
                "This task reached your $2.00 cap, but Porthole could not stop it. Press Stop to stop it."
            ),
            Notice::NotStoppedAtCap { cap_usd: 2.0 }
        );
        assert_eq!(
            Notice::from_saved_words("Stopped at your $0.50 cap. This task cost less than $0.01."),
            Notice::StoppedAtCap {
                cap_usd: 0.5,
                cost_usd: 0.005
            }
        );
    }
}
