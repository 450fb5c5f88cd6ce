//! The film commands the page may call: thin adapters over the core's [`super::Shelf`].
//! Pictures reach the page as JPEG bytes in an `ArrayBuffer` (as the replay's screenshots do),
//! asked for by their place in the film, never by a file.

use tauri::State;

use super::recording::Films;
use super::{Film, FilmSettings, FilmSummary};
use crate::error::{UiCode, UiError};
use crate::persist::SettingsStore;
use crate::replay::ImageBytes;
use crate::store::document::store_error;

type Res<T> = Result<T, UiError>;

/// A film that is not (or no longer) on disk says so as a missing picture would.
fn missing(e: std::io::Error) -> UiError {
    if e.kind() == std::io::ErrorKind::NotFound {
        UiCode::NoScreenshot.into()
    } else {
        UiError::from(store_error(e))
    }
}

#[tauri::command]
#[specta::specta]
pub fn film_settings(settings: State<'_, SettingsStore>) -> FilmSettings {
    settings.get().film
}

/// Changes the film settings; smaller limits take effect at once for the films kept.
#[tauri::command(async)]
#[specta::specta]
pub fn set_film_settings(
    settings: State<'_, SettingsStore>,
    films: State<'_, Films>,
    film: FilmSettings,
) -> Res<FilmSettings> {
    settings.update(|s| s.film = film).map_err(UiError::from)?;
    films.keep_within_total(film.total_bytes());
    Ok(film)
}

/// The films of a conversation, oldest first.
#[tauri::command(async)]
#[specta::specta]
pub fn list_films(films: State<'_, Films>, conversation_id: String) -> Vec<FilmSummary> {
    films.shelf.films_of(&conversation_id)
}

#[tauri::command(async)]
#[specta::specta]
pub fn get_film(films: State<'_, Films>, conversation_id: String, film_id: String) -> Res<Film> {
    films
        .shelf
        .film(&conversation_id, &film_id)
        .map_err(missing)
}

/// The JPEG of a film's frame, by its place in the film.
#[tauri::command(async)]
#[specta::specta]
pub fn film_frame(
    films: State<'_, Films>,
    conversation_id: String,
    film_id: String,
    index: u32,
) -> Res<ImageBytes> {
    films
        .shelf
        .frame(&conversation_id, &film_id, index)
        .map(ImageBytes)
        .map_err(missing)
}
