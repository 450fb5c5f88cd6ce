//! The schedule commands the page may call: each unpacks its arguments and calls
//! [`Schedules`]. No logic here.

use tauri::{AppHandle, State};

use super::{NewSchedule, Schedule, ScheduleList, Schedules};
use crate::error::UiError;

type Res<T> = Result<T, UiError>;

#[tauri::command]
#[specta::specta]
pub async fn list_schedules(schedules: State<'_, Schedules>) -> Res<ScheduleList> {
    Ok(schedules.list().await?)
}

#[tauri::command]
#[specta::specta]
pub async fn create_schedule(
    schedules: State<'_, Schedules>,
    schedule: NewSchedule,
) -> Res<Schedule> {
    Ok(schedules.create(schedule).await?)
}

#[tauri::command]
#[specta::specta]
pub fn set_schedule_cap(
    schedules: State<'_, Schedules>,
    id: String,
    cap_usd: Option<f64>,
) -> Res<()> {
    Ok(schedules.set_cap(&id, cap_usd)?)
}

#[tauri::command]
#[specta::specta]
pub fn delete_schedule(schedules: State<'_, Schedules>, id: String) -> Res<()> {
    Ok(schedules.delete(&id)?)
}

#[tauri::command]
#[specta::specta]
pub fn pause_schedule(schedules: State<'_, Schedules>, id: String, paused: bool) -> Res<()> {
    Ok(schedules.set_paused(&id, paused)?)
}

#[tauri::command]
#[specta::specta]
pub fn pause_all_schedules(schedules: State<'_, Schedules>, paused: bool) -> Res<()> {
    Ok(schedules.set_all_paused(paused)?)
}

/// The card of the runs that ended while the person was away: closed.
#[tauri::command]
#[specta::specta]
pub fn dismiss_schedule_digest(schedules: State<'_, Schedules>) {
    schedules.dismiss_digest()
}

/// A missed run's "Run now".
#[tauri::command]
#[specta::specta]
pub async fn run_schedule_now(schedules: State<'_, Schedules>, id: String) -> Res<()> {
    Ok(schedules.run_now(&id).await?)
}

#[tauri::command]
#[specta::specta]
pub fn autostart_enabled(app: AppHandle) -> Res<bool> {
    Ok(super::autostart::enabled(&app)?)
}

/// Turns starting at login on or off (and notes the one-time question as answered).
#[tauri::command]
#[specta::specta]
pub fn set_autostart(app: AppHandle, schedules: State<'_, Schedules>, enabled: bool) -> Res<()> {
    Ok(super::autostart::set(&app, &schedules, enabled)?)
}
