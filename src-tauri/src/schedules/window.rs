//! The window's and the tray's side of [`ScheduleNotify`]: a changed list is an event for the
//! page and a new tray menu; what the person should hear of is an OS notification.

use tauri::AppHandle;
use tauri_plugin_notification::NotificationExt;
use tauri_specta::Event;

use super::{Schedule, ScheduleNotify};

/// The schedules changed: read the list again.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, specta::Type, tauri_specta::Event)]
pub struct SchedulesChanged;

pub struct WindowScheduleNotify {
    pub app: AppHandle,
}

impl ScheduleNotify for WindowScheduleNotify {
    fn schedules_changed(&self) {
        let _ = SchedulesChanged.emit(&self.app);
        // The tray's "Next:" line and Pause all follow the list. Menus are built on the main
        // thread.
        let app = self.app.clone();
        let _ = self
            .app
            .run_on_main_thread(move || crate::tray::refresh(&app));
    }

    fn tell(&self, _schedule: &Schedule, title: &str, body: &str) {
        if let Err(err) = self
            .app
            .notification()
            .builder()
            .title(title)
            .body(body)
            .show()
        {
            tracing::info!(error = %err, "no notification for a schedule");
        }
    }

    fn tell_digest(&self, title: &str, body: &str) {
        if let Err(err) = self
            .app
            .notification()
            .builder()
            .title(title)
            .body(body)
            .show()
        {
            tracing::info!(error = %err, "no notification for the schedules' digest");
        }
    }
}

/// The window came or went, for the digest of runs that end while the person is away
/// (`schedules::digest`): focused is present; hidden or another window in front is away.
pub fn presence_changed(app: &AppHandle, present: bool) {
    use tauri::Manager;
    if let Some(schedules) = app.try_state::<super::Schedules>() {
        schedules.set_present(present);
    }
}

/// Opens the schedules, registers them as managed state, and starts the runner.
pub fn start(
    app: &AppHandle,
    connection: crate::connection::Connection,
    conversations: crate::conversations::Conversations,
) -> crate::error::AppResult<()> {
    use tauri::Manager;
    let schedules = super::Schedules::open_in(
        &crate::data_folder::data_dir(app)?,
        connection,
        conversations,
        std::sync::Arc::new(super::SystemClock::from_env()),
        std::sync::Arc::new(WindowScheduleNotify { app: app.clone() }),
    )?;
    if let Some(aside) = schedules.set_aside() {
        // The window says so among its stored-data notices (`persist::StartedStores::notices`).
        tracing::warn!(moved_to = %aside.moved_to.display(), "schedules.json could not be read");
    }
    app.manage(schedules.clone());
    tauri::async_runtime::spawn(super::runner::run(schedules));
    Ok(())
}

/// Closing the window while a schedule will still run leaves Porthole running (hidden, in the
/// tray) so the schedule runs; with none, or all paused, closing quits as it always did.
pub fn close_requested(window: &tauri::Window, api: &tauri::CloseRequestApi) {
    use tauri::Manager;
    // Managed in setup, before the window can be closed.
    if window
        .app_handle()
        .state::<super::Schedules>()
        .keeps_running()
    {
        api.prevent_close();
        let _ = window.hide();
        presence_changed(window.app_handle(), false);
    }
}
