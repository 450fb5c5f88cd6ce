//! "Record tasks on cloud computers even when their screen is not open": a task that runs on a
//! cloud computer whose live screen nobody has open is recorded through a live connection of
//! its own ([`crate::live::for_film`]), opened when the task starts (or when its screen is
//! closed while it runs) and closed when the task ends or its screen is opened again (the
//! open view then feeds the same film).
//!
//! The service's live-view rules hold: the live URL and its token stay inside the viewer
//! (never logged, never in the page), at most one such connection per computer, and it counts
//! against the same 120 live-screen requests an hour as an open view (one per task, plus a
//! reconnect when a link expires).

use tauri::{AppHandle, Manager};

use super::recording::{Films, Tap};
use crate::connection::Connection;
use crate::conversations::{Conversation, Conversations};
use crate::persist::SettingsStore;
use porthole_client::machines::MachineKind;

/// A conversation's status changed: if its task runs and nothing records it yet, record it
/// unseen.
pub fn status_changed(app: &AppHandle, conversation: &Conversation) {
    if !conversation.status.is_active() {
        return;
    }
    let Some(films) = app.try_state::<Films>() else {
        return;
    };
    if films
        .tap_of(&conversation.scope, &conversation.machine_id)
        .is_some()
    {
        return;
    }
    start(
        app,
        conversation.scope.clone(),
        conversation.machine_id.clone(),
        None,
    );
}

/// A computer's live screen was closed (`film` is the film it fed): while its task still
/// runs, the film goes on unseen.
pub fn screen_closed(app: &AppHandle, scope: String, machine_id: String, film: Tap) {
    if running(app, &scope, &machine_id) {
        start(app, scope, machine_id, Some(film));
    }
}

fn start(app: &AppHandle, scope: String, machine_id: String, film: Option<Tap>) {
    let settings = app.state::<SettingsStore>().get().film;
    if !settings.record || !settings.record_unseen {
        return;
    }
    let films = app.state::<Films>();
    if !films.begin_unseen(&scope, &machine_id) {
        return;
    }
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        let stopped = record(&app, &scope, &machine_id, film).await;
        app.state::<Films>().end_unseen(&scope, &machine_id);
        // A task that started as the last one ended found it still recording and left it to
        // this connection, which had just seen no task: it is recorded anew.
        if stopped && recorded_elsewhere(&app, &scope, &machine_id) == Some(false) {
            start(&app, scope, machine_id, None);
        }
    });
}

/// True when it recorded until it was no longer needed (not when it could not begin, or the
/// computer went to sleep).
async fn record(app: &AppHandle, scope: &str, machine_id: &str, film: Option<Tap>) -> bool {
    let Ok(active) = app.state::<Connection>().active().await else {
        return false;
    };
    if active.scope != scope || !is_cloud(&active.client, machine_id).await {
        return false;
    }
    let Some(film) = film.or_else(|| Tap::start(app, scope.to_owned(), machine_id.to_owned()))
    else {
        return false;
    };
    let keep_going = {
        let (app, film) = (app.clone(), film.clone());
        let (scope, machine_id) = (scope.to_owned(), machine_id.to_owned());
        // An open screen feeds the film itself; a task over needs no more pictures; the
        // person may have turned recording off meanwhile.
        move || {
            let settings = app.state::<SettingsStore>().get().film;
            settings.record
                && settings.record_unseen
                && !film.watched()
                && running(&app, &scope, &machine_id)
        }
    };
    crate::live::for_film::record(active.client, machine_id.to_owned(), film, keep_going).await
}

/// Whether the service lists `machine_id` as a cloud computer (one of unknown kind counts, as
/// the machine list treats it).
async fn is_cloud(client: &porthole_client::Client, machine_id: &str) -> bool {
    match client.machines().list().await {
        Ok(list) => list
            .machines
            .iter()
            .any(|m| m.machine_id == machine_id && m.kind != MachineKind::Own),
        Err(e) => {
            tracing::debug!(code = ?e.code(), "the computers could not be listed for a film");
            false
        }
    }
}

/// `None` when no task runs on `machine_id`, else whether something records it.
fn recorded_elsewhere(app: &AppHandle, scope: &str, machine_id: &str) -> Option<bool> {
    running(app, scope, machine_id)
        .then(|| app.state::<Films>().tap_of(scope, machine_id).is_some())
}

/// Whether `machine_id`'s current conversation runs a task.
fn running(app: &AppHandle, scope: &str, machine_id: &str) -> bool {
    app.try_state::<Conversations>().is_some_and(|c| {
        c.store().read(|book| {
            book.current(scope, machine_id)
                .is_some_and(|c| c.status.is_active())
        })
    })
}
