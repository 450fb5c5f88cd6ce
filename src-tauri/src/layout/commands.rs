//! The window-layout commands the page may call: read it at start, save it after a change.

use tauri::State;

use super::{LayoutStore, WindowLayout};
use crate::error::UiError;

#[tauri::command]
#[specta::specta]
pub fn get_layout(store: State<'_, LayoutStore>) -> WindowLayout {
    store.get()
}

/// Saves the layout; answers it as kept (values brought into range).
#[tauri::command]
#[specta::specta]
pub fn set_layout(
    store: State<'_, LayoutStore>,
    layout: WindowLayout,
) -> Result<WindowLayout, UiError> {
    Ok(store.set(layout)?)
}
