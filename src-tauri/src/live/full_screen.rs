//! Full screen for the live screen: the app's window itself covers the monitor, not only the
//! page inside it.
//!
//! The window asks the window manager (Tauri's `set_fullscreen`, which is what a desktop
//! answers). Where nothing answers — a bare X server has no window manager, and GTK then leaves
//! the window as it was — the window is moved and sized over its monitor instead, and put back
//! where it was on leaving. Tauri cannot tell the two apart (it reports full screen as soon as
//! it is asked), so the window's size says whether the request was honoured.

use std::sync::Mutex;
use std::time::Duration;
use tauri::{Manager, PhysicalPosition, PhysicalSize, WebviewWindow};

use crate::error::{UiCode, UiError};

/// Where the window was before it was made to cover the monitor by hand (`None` when a window
/// manager did it, or it is not full screen).
#[derive(Default)]
pub struct CoveredByHand(Mutex<Option<(PhysicalPosition<i32>, PhysicalSize<u32>)>>);

/// Puts the window into full screen (`full`) or back.
#[tauri::command]
#[specta::specta]
pub async fn live_set_full_screen(window: WebviewWindow, full: bool) -> Result<(), UiError> {
    let result = if full {
        enter(&window).await
    } else {
        leave(&window)
    };
    result.map_err(|_| UiError::from(UiCode::FullScreenUnavailable))
}

async fn enter(window: &WebviewWindow) -> tauri::Result<()> {
    let before = (window.outer_position()?, window.inner_size()?);
    window.set_fullscreen(true)?;
    let Some(monitor) = window.current_monitor()?.or(window.primary_monitor()?) else {
        return Ok(());
    };
    // A window manager answers within a few frames.
    for _ in 0..10 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        if window.inner_size()? == *monitor.size() {
            return Ok(());
        }
    }
    *covered(window).0.lock().unwrap_or_else(|e| e.into_inner()) = Some(before);
    window.set_position(*monitor.position())?;
    window.set_size(*monitor.size())?;
    Ok(())
}

fn leave(window: &WebviewWindow) -> tauri::Result<()> {
    window.set_fullscreen(false)?;
    let before = covered(window)
        .0
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    if let Some((position, size)) = before {
        window.set_position(position)?;
        window.set_size(size)?;
    }
    Ok(())
}

/// Registered in the app's setup.
fn covered(window: &WebviewWindow) -> tauri::State<'_, CoveredByHand> {
    window.state::<CoveredByHand>()
}
