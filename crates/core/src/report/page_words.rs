//! The report's date and sum, worded by the page: it has `Intl`, the Rust side has not (a
//! date in the person's time zone and language, "November 26, 2026 at 02:05 PM UTC" /
//! "26. November 2026 um 15:05 MEZ"; a sum as the window shows it, "$0.52" / "< $0.01").
//! The page asks for the cost first (`report_cost`), words it, and hands both to
//! `share_report`.

use crate::receipt::ReceiptOutcome;
use crate::words::from_page::plain;

/// The longest a date or a sum from the page may be; a longer one is cut.
const LONGEST: usize = 80;
/// The longest line of a receipt (a thing it touched may carry a message's title).
const LONGEST_LINE: usize = 300;
/// The most things touched a report lists.
const MOST_TOUCHED: usize = 50;

/// What the page said; absent or empty words leave the date out and call the cost not
/// reported.
#[derive(Debug, Clone, Default, serde::Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ReportWords {
    pub made_at: Option<String>,
    pub cost: Option<String>,
    /// The task's receipt as the thread words it (`receipt::receipts`, the same reading),
    /// which the report opens with.
    #[serde(default)]
    #[specta(optional)]
    pub receipt: Option<SaidReceipt>,
}

/// A receipt in the page's words (`features/receipt/words.ts`).
#[derive(Debug, Clone, PartialEq, serde::Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SaidReceipt {
    pub outcome: ReceiptOutcome,
    pub outcome_words: String,
    pub why: Option<String>,
    pub judged: String,
    pub touched: Vec<String>,
    /// "Took 42 sec", "Cost $0.04": what is known of the two.
    pub figures: Vec<String>,
}

impl ReportWords {
    pub fn made_at(&self) -> Option<String> {
        plain(self.made_at.as_deref()?, LONGEST)
    }

    pub fn cost(&self) -> Option<String> {
        plain(self.cost.as_deref()?, LONGEST)
    }

    /// The receipt as plain bounded lines; none without its outcome's words.
    pub fn receipt(&self) -> Option<SaidReceipt> {
        let said = self.receipt.as_ref()?;
        let line = |text: &str| plain(text, LONGEST_LINE);
        let lines = |all: &[String]| {
            all.iter()
                .take(MOST_TOUCHED)
                .filter_map(|t| line(t))
                .collect()
        };
        Some(SaidReceipt {
            outcome: said.outcome,
            outcome_words: line(&said.outcome_words)?,
            why: said.why.as_deref().and_then(line),
            judged: line(&said.judged).unwrap_or_default(),
            touched: lines(&said.touched),
            figures: lines(&said.figures),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_s_date_and_sum_are_taken_as_plain_bounded_text_or_left_out() {
        let said = ReportWords {
            made_at: Some("November 26, 2026 at 02:05\u{202f}PM UTC".into()),
            cost: Some("< $0.01".into()),
            receipt: None,
        };
        assert_eq!(
            said.made_at().as_deref(),
            Some("November 26, 2026 at 02:05\u{202f}PM UTC")
        );
        assert_eq!(said.cost().as_deref(), Some("< $0.01"));
        let odd = ReportWords {
            made_at: Some(" \n ".into()),
            cost: Some(format!("$1\n{}", "9".repeat(1_000_000))),
            receipt: None,
        };
        assert_eq!(odd.made_at(), None);
        let cost = odd.cost().unwrap();
        assert!(cost.starts_with("$1 9") && cost.chars().count() == LONGEST);
        assert_eq!(ReportWords::default().cost(), None);
    }
}
