//! Which language the app speaks: the person's choice in Settings, or else the system's.
//!
//! Held process-wide, as a C locale is: every sentence the Rust side makes (a notification, the
//! tray, a file dialog, an error's words) is made in the language of the moment, and passing it
//! through every signature that may one day word something would say nothing a reader needs.

use std::sync::atomic::{AtomicU8, Ordering};

use serde::{Deserialize, Serialize};
use specta::Type;

/// A language the catalog is complete in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Type)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    En,
    De,
}

impl Language {
    /// The language a locale names (`de_DE.UTF-8`, `de-AT`, `en-US`, `C`): German for any
    /// German locale, English for everything else, the language the catalog is written in.
    pub fn of_locale(locale: &str) -> Language {
        let primary = locale
            .split(['_', '-', '.', '@'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        match primary.as_str() {
            "de" => Language::De,
            _ => Language::En,
        }
    }

    /// The system's language (on Linux: LC_ALL, LC_MESSAGES, then LANG).
    pub fn of_system() -> Language {
        sys_locale::get_locale()
            .map(|locale| Language::of_locale(&locale))
            .unwrap_or(Language::En)
    }
}

/// Reads a saved choice leniently: a language this version does not know (a newer version's
/// choice, a hand edit) is no choice, rather than a settings file that cannot be read.
pub fn lenient<'de, D>(deserializer: D) -> Result<Option<Language>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    let saved = Option::<serde_json::Value>::deserialize(deserializer)?;
    Ok(saved.and_then(|value| serde_json::from_value(value).ok()))
}

static CURRENT: AtomicU8 = AtomicU8::new(0);

/// The language the app speaks now.
pub fn current() -> Language {
    match CURRENT.load(Ordering::Relaxed) {
        1 => Language::De,
        _ => Language::En,
    }
}

/// Makes `language` the one every sentence from now on is made in.
pub fn set_current(language: Language) {
    let n = match language {
        Language::En => 0,
        Language::De => 1,
    };
    CURRENT.store(n, Ordering::Relaxed);
}

/// The person's choice in Settings (none: follow the system), and what the app speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct LanguageChoice {
    pub chosen: Option<Language>,
    pub system: Language,
    pub speaking: Language,
}

impl LanguageChoice {
    pub fn new(chosen: Option<Language>, system: Language) -> Self {
        Self {
            chosen,
            system,
            speaking: chosen.unwrap_or(system),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_german_locale_speaks_german_and_anything_else_english() {
        for locale in ["de_DE.UTF-8", "de-AT", "de", "DE_ch", "de_DE@euro"] {
            assert_eq!(Language::of_locale(locale), Language::De, "{locale}");
        }
        for locale in ["en_US.UTF-8", "C", "POSIX", "fr_FR", "", "dek"] {
            assert_eq!(Language::of_locale(locale), Language::En, "{locale}");
        }
    }

    #[test]
    fn a_language_this_version_does_not_know_is_no_choice() {
        #[derive(Deserialize)]
        struct Saved {
            #[serde(default, deserialize_with = "lenient")]
            language: Option<Language>,
        }
        let read = |json: &str| serde_json::from_str::<Saved>(json).unwrap().language;
        assert_eq!(read(r#"{"language":"de"}"#), Some(Language::De));
        assert_eq!(read(r#"{"language":"fr"}"#), None);
        assert_eq!(read(r#"{"language":7}"#), None);
        assert_eq!(read(r#"{}"#), None);
    }

    #[test]
    fn a_choice_in_settings_wins_over_the_system() {
        assert_eq!(
            LanguageChoice::new(Some(Language::En), Language::De).speaking,
            Language::En
        );
        assert_eq!(
            LanguageChoice::new(None, Language::De).speaking,
            Language::De
        );
    }
}
