//! The language commands the page may call: read the choice at start, change it in Settings.

use tauri::{AppHandle, State};

use crate::error::UiError;
use crate::persist::SettingsStore;
use crate::words::language::{Language, LanguageChoice};

#[tauri::command]
#[specta::specta]
pub fn get_language(app: AppHandle, settings: State<'_, SettingsStore>) -> LanguageChoice {
    let choice = super::choice(&settings);
    // The page asks this before it mounts: the webview's own fields (a time) follow from then.
    super::speak_in_webview(&app, choice.speaking);
    choice
}

/// Keeps the choice (none: the system's language) and words the tray menu anew in it; the page
/// changes its own words when this answers.
#[tauri::command]
#[specta::specta]
pub fn set_language(
    app: AppHandle,
    settings: State<'_, SettingsStore>,
    chosen: Option<Language>,
) -> Result<LanguageChoice, UiError> {
    let choice = super::choose(&settings, chosen)?;
    crate::tray::refresh(&app);
    super::speak_in_webview(&app, choice.speaking);
    Ok(choice)
}
