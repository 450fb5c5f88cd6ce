//! A start that could not open the person's files (security review N11): the window still
//! opens and says what went wrong and where, with Quit, instead of a line on stderr that a
//! person who started Porthole from the menu never sees.

use serde::Serialize;
use tauri::{AppHandle, State};

use crate::words::language::Language;

/// What the page shows instead of the app when the start failed.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct StartProblem {
    /// The data folder Porthole could not open, when it knows which.
    pub folder: Option<String>,
    /// What the system answered (the page words the rest).
    pub error: String,
    /// The system's language: the settings, where a chosen one is kept, could not be read.
    pub language: Language,
}

/// The start's problem, if it had one; managed from the start, so the page can always ask.
/// Set later too: the conversations are read after the window shows (`lib.rs`).
#[derive(Default)]
pub struct StartState(std::sync::Mutex<Option<StartProblem>>);

impl StartState {
    pub fn get(&self) -> Option<StartProblem> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub fn set(&self, problem: StartProblem) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(problem);
    }
}

impl StartProblem {
    pub fn new(
        folder: Option<std::path::PathBuf>,
        error: &(dyn std::error::Error + 'static),
    ) -> Self {
        // The system's own sentence, without the app's name for the kind of error.
        let error = match error.downcast_ref::<crate::error::AppError>() {
            Some(crate::error::AppError::Store(said)) => said.clone(),
            _ => error.to_string(),
        };
        Self {
            folder: folder.map(|f| f.display().to_string()),
            error,
            language: Language::of_system(),
        }
    }
}

/// The page's address's mark for a start with a problem: the page reads it from its own
/// address, so a start without one asks Rust nothing more before its first screen.
pub const MARK: &str = "start-problem";

/// Loads the page again with [`MARK`] in its address (it may have begun loading without it).
pub fn show(app: &AppHandle) {
    use tauri::Manager;
    let Some(window) = app.get_webview_window("main") else {
        return;
    };
    let marked = window.url().map(|mut url| {
        url.set_query(Some(MARK));
        url
    });
    if let Err(err) = marked.and_then(|url| window.navigate(url)) {
        tracing::error!(error = %err, "the window could not be told the start's problem");
    }
}

/// The problem, for a page whose address carries [`MARK`]; `None` when the app started as it
/// should.
#[tauri::command]
#[specta::specta]
pub fn start_problem(state: State<'_, StartState>) -> Option<StartProblem> {
    state.get()
}

/// The problem page's Quit.
#[tauri::command]
#[specta::specta]
pub fn quit_after_start_problem(app: AppHandle, state: State<'_, StartState>) {
    if state.get().is_some() {
        app.exit(1);
    }
}
