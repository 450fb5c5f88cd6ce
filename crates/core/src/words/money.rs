//! Sums of money as the page's `intl.money` writes them (Intl's currency format for US
//! dollars in English and German): "$1,234.56" and "1.234,56 $". Only the thread notices as
//! the search index words them use it (`notices.rs`; a search's excerpt can show one); every
//! other sum is worded by the page (the report's cost too, `report/page_words.rs`). Written by
//! hand: the two shapes are all it needs.

use super::language::Language;

/// `usd` in `language`, two decimals, with the language's grouping and sign.
pub fn usd_in(language: Language, usd: f64) -> String {
    let cents = (usd.abs() * 100.0).round() as u64;
    let (group, decimal) = match language {
        Language::En => (',', '.'),
        Language::De => ('.', ','),
    };
    let whole = grouped(cents / 100, group);
    let number = format!("{whole}{decimal}{:02}", cents % 100);
    let sign = if usd < 0.0 && cents > 0 { "-" } else { "" };
    match language {
        Language::En => format!("{sign}${number}"),
        // Intl puts a no-break space between the sum and the sign.
        Language::De => format!("{sign}{number}\u{a0}$"),
    }
}

fn grouped(n: u64, separator: char) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(separator);
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_read_as_intl_writes_them_in_each_language() {
        assert_eq!(usd_in(Language::En, 0.5234), "$0.52");
        assert_eq!(usd_in(Language::En, 12.0), "$12.00");
        assert_eq!(usd_in(Language::En, 1234.5), "$1,234.50");
        assert_eq!(usd_in(Language::En, 0.0), "$0.00");
        assert_eq!(usd_in(Language::En, -2.0), "-$2.00");
        assert_eq!(usd_in(Language::De, 0.5234), "0,52\u{a0}$");
        assert_eq!(usd_in(Language::De, 1_234_567.891), "1.234.567,89\u{a0}$");
    }
}
