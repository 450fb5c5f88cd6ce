//! WebKitGTK's context menu without its ways out of the app: "Open Link", "Open Image in New
//! Window", "Download …", "Back", "Reload" and the like are taken out, so what is left is
//! copying, pasting and spelling. The navigation guard refuses those anyway; this keeps the
//! menu from offering what then does nothing.

/// Takes the menu's navigating entries out each time it opens.
pub fn without_navigation(window: &tauri::WebviewWindow) {
    #[cfg(target_os = "linux")]
    {
        use webkit2gtk::{ContextMenuExt, ContextMenuItemExt, WebViewExt};
        let _ = window.with_webview(|webview| {
            webview.inner().connect_context_menu(|_, menu, _, _| {
                for item in menu.items() {
                    if item.is_separator() || !keeps(item.stock_action()) {
                        menu.remove(&item);
                    }
                }
                // `true` shows no menu at all, when nothing is left to offer.
                menu.n_items() == 0
            });
        });
    }
    #[cfg(not(target_os = "linux"))]
    let _ = window;
}

/// Whether the menu keeps an entry: only those that copy, paste, edit or spell.
#[cfg(target_os = "linux")]
fn keeps(action: webkit2gtk::ContextMenuAction) -> bool {
    use webkit2gtk::ContextMenuAction as A;
    matches!(
        action,
        A::Copy
            | A::Cut
            | A::Paste
            | A::PasteAsPlainText
            | A::Delete
            | A::SelectAll
            | A::CopyLinkToClipboard
            | A::CopyImageToClipboard
            | A::CopyImageUrlToClipboard
            | A::InputMethods
            | A::Unicode
            | A::InsertEmoji
            | A::SpellingGuess
            | A::NoGuessesFound
            | A::IgnoreSpelling
            | A::LearnSpelling
            | A::IgnoreGrammar
    )
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::keeps;
    use webkit2gtk::ContextMenuAction as A;

    #[test]
    fn the_menu_offers_no_way_out_of_the_app() {
        for away in [
            A::OpenLink,
            A::OpenLinkInNewWindow,
            A::DownloadLinkToDisk,
            A::OpenImageInNewWindow,
            A::DownloadImageToDisk,
            A::OpenFrameInNewWindow,
            A::OpenVideoInNewWindow,
            A::OpenAudioInNewWindow,
            A::DownloadVideoToDisk,
            A::DownloadAudioToDisk,
            A::GoBack,
            A::GoForward,
            A::Reload,
            A::InspectElement,
            A::Custom,
        ] {
            assert!(!keeps(away), "{away:?}");
        }
        for kept in [
            A::Copy,
            A::Cut,
            A::Paste,
            A::SelectAll,
            A::CopyLinkToClipboard,
        ] {
            assert!(keeps(kept), "{kept:?}");
        }
    }
}
