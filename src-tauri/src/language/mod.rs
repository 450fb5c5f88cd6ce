//! The language setting: what the app speaks from its start, and the person's choice in
//! Settings (kept in the settings file; none means the system's language).

pub mod commands;
mod webview;

pub use webview::speak_in_webview;

use crate::error::AppResult;
use crate::persist::SettingsStore;
use crate::words::language::{set_current, Language, LanguageChoice};

/// The choice as kept, beside the system's language.
pub fn choice(settings: &SettingsStore) -> LanguageChoice {
    LanguageChoice::new(settings.get().language, Language::of_system())
}

/// Speaks the kept choice, or the system's language; called once before the window opens.
pub fn speak_chosen(settings: &SettingsStore) -> LanguageChoice {
    let choice = choice(settings);
    set_current(choice.speaking);
    choice
}

/// Keeps the person's choice and speaks it from now on.
pub fn choose(settings: &SettingsStore, chosen: Option<Language>) -> AppResult<LanguageChoice> {
    settings.update(|s| s.language = chosen)?;
    Ok(speak_chosen(settings))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chosen_language_is_kept_across_restarts_and_none_follows_the_system() {
        let dir = tempfile::tempdir().unwrap();
        let settings = SettingsStore::open_in(dir.path()).unwrap();
        assert_eq!(choice(&settings).chosen, None);
        choose(&settings, Some(Language::De)).unwrap();
        let reopened = SettingsStore::open_in(dir.path()).unwrap();
        let kept = choice(&reopened);
        assert_eq!(kept.chosen, Some(Language::De));
        assert_eq!(kept.speaking, Language::De);
        choose(&reopened, None).unwrap();
        let kept = choice(&SettingsStore::open_in(dir.path()).unwrap());
        assert_eq!(kept.chosen, None);
        assert_eq!(kept.speaking, Language::of_system());
    }
}
