//! How the page's own Intl words a duration, so that a test about a duration's shape compares
//! with the same call `ui/src/lib/i18n/intl.ts` makes rather than with English words that
//! WebKit's ICU may put differently.

use crate::{App, Result};

/// `seconds` as the page says it: "30 sec" / "30 Sek."; with `digits`, that many after the
/// point ("1.23 sec"). The language is the page's (`<html lang>`), as intl.ts's `tag()` maps it.
pub async fn seconds_in_page(app: &App, seconds: f64, digits: Option<u32>) -> Result<String> {
    let said = app
        .driver
        .execute(
            "const [n, digits] = arguments;
             const tag = document.documentElement.lang === 'de' ? 'de-DE' : 'en-US';
             const fraction = digits == null ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits };
             return new Intl.NumberFormat(tag, { style: 'unit', unit: 'second', unitDisplay: 'short', ...fraction }).format(n);",
            vec![serde_json::json!(seconds), serde_json::json!(digits)],
        )
        .await?;
    Ok(said.json().as_str().unwrap_or_default().to_owned())
}

/// The number a duration starts with, read the way the page writes numbers ("1.23 sec" and
/// "1,23 Sek." are both 1.23).
pub fn leading_number(text: &str) -> Option<f64> {
    let digits: String = text
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
        .map(|c| if c == ',' { '.' } else { c })
        .collect();
    digits.parse().ok()
}
