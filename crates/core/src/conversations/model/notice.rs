//! What Porthole itself says in a thread (the person stopped the task, answered a card, the
//! task reached its cap), kept as what happened and its facts. The words are made when the
//! line is shown (`words::notices`), so a saved conversation holds no sentence of ours and a
//! change of wording (or of language) reaches old conversations too.

use serde::{Deserialize, Deserializer, Serialize};

/// One thing Porthole said in the thread.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(
    tag = "what",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Notice {
    /// The person pressed Stop.
    Stopped,
    /// The person pressed Stop, and the service answered that nothing was running.
    NothingToStop,
    /// The person pressed Stop, and the service could not be asked, or refused: the task
    /// may still be running.
    NotStopped,
    /// A message held for after a stopped task waits for that task to end on the service
    /// (a message sent before it ended would be folded into it and lost).
    WaitingForStop,
    /// Porthole stopped the task when its cost reached the person's cap.
    StoppedAtCap { cap_usd: f64, cost_usd: f64 },
    /// The task reached its cap, but the service did not take the stop.
    NotStoppedAtCap { cap_usd: f64 },
    /// Asked near the cap, the person let the task go up to `cap_usd`.
    CapRaised { cap_usd: f64 },
    /// Asked near the cap, the person kept it: the task stops at `cap_usd`.
    CapKept { cap_usd: f64 },
    /// The person approved a yes/no card.
    Approved,
    /// The person denied a yes/no card.
    Denied,
    /// The person's picks on a choice card: the labels they saw (the service's words).
    Answered { picks: Vec<String> },
    /// The Demo inside the app was started again, which ends the tasks that ran in it.
    DemoRestarted,
    /// The task's updates were lost before Porthole learned where it runs: the service has the
    /// message and the agent may still be working (not a failure, not an end).
    UpdatesLost,
    /// A line an earlier version saved as words that are none of the above: kept as it was
    /// rather than lost.
    Earlier { text: String },
}

impl Notice {
    /// The notice an earlier version saved as these words (every sentence it could write,
    /// read back into its facts); any other text is kept as it was.
    pub fn from_saved_words(text: &str) -> Self {
        match text {
            "You stopped the task." => return Self::Stopped,
            "You approved the request." => return Self::Approved,
            "You denied the request." => return Self::Denied,
            "The Demo was restarted, so this task ended." => return Self::DemoRestarted,
            _ => {}
        }
        if let Some(picks) = text
            .strip_prefix("You answered: ")
            .and_then(|rest| rest.strip_suffix('.'))
        {
            // Labels were joined with ", ", so one holding ", " reads back as two: the words
            // shown stay the same.
            let picks = picks.split(", ").map(str::to_owned).collect();
            return Self::Answered { picks };
        }
        if let Some((cap, cost)) = text
            .strip_prefix("Stopped at your ")
            .and_then(|rest| rest.strip_suffix('.'))
            .and_then(|rest| rest.split_once(" cap. This task cost "))
            .and_then(|(cap, cost)| Some((saved_dollars(cap)?, saved_dollars(cost)?)))
        {
            return Self::StoppedAtCap {
                cap_usd: cap,
                cost_usd: cost,
            };
        }
        if let Some(cap) = text
            .strip_prefix("This task reached your ")
            .and_then(|rest| {
                rest.strip_suffix(" cap, but Porthole could not stop it. Press Stop to stop it.")
            })
            .and_then(saved_dollars)
        {
            return Self::NotStoppedAtCap { cap_usd: cap };
        }
        Self::Earlier {
            text: text.to_owned(),
        }
    }
}

/// A sum as the words held it: "$0.52", or "less than $0.01" (read back as half a cent,
/// which is shown with the same words).
fn saved_dollars(text: &str) -> Option<f64> {
    if text == "less than $0.01" {
        return Some(0.005);
    }
    text.strip_prefix('$')?.parse().ok()
}

/// Reads a thread's notice as saved now (its `what` and facts) or as earlier versions saved
/// it (its words, under `text`).
pub(super) fn deserialize_stored<'de, D: Deserializer<'de>>(d: D) -> Result<Notice, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Stored {
        Now(Notice),
        Words { text: String },
    }
    Ok(match Stored::deserialize(d)? {
        Stored::Now(notice) => notice,
        Stored::Words { text } => Notice::from_saved_words(&text),
    })
}
