//! The webview's own language, for the few things WebKit words itself: a time field's
//! "08:00 AM" against „08:00“, the date fields' order. WebKit reads a form field's format from
//! its preferred languages, not from the page's `lang` (that is a setting WebKitGTK keeps off),
//! so the page saying `<html lang="de">` is not enough: the web context is told too.

use crate::words::language::Language;

/// The BCP 47 tag WebKit wants, the one the page's Intl uses (`tag()` in
/// ui/src/lib/i18n/language.svelte.ts).
pub fn webkit_tag(language: Language) -> &'static str {
    match language {
        Language::En => "en-US",
        Language::De => "de-DE",
    }
}

/// Tells the main window's web context the language the app speaks. Fields drawn after this
/// follow it; the page asks for its language before it mounts, so every field does.
pub fn speak_in_webview(app: &tauri::AppHandle, language: Language) {
    #[cfg(target_os = "linux")]
    {
        use tauri::Manager;
        use webkit2gtk::{WebContextExt, WebViewExt};
        if let Some(window) = app.get_webview_window("main") {
            let _ = window.with_webview(move |webview| {
                if let Some(context) = webview.inner().context() {
                    context.set_preferred_languages(&[webkit_tag(language)]);
                }
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (app, language);
}
