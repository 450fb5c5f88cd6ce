//! Every sentence the Rust side of Porthole says to a person, from the one catalog
//! (`locales/<language>/<part>.json`, read by [`catalog`]) in the language of the moment. What
//! went wrong is chosen by [`UiCode`]: its title and sentence are the catalog's
//! `errors.<code>.title` and `errors.<code>.detail` (a test holds every code to both, in every
//! language), and what the person can do about it is one exhaustive match ([`actions`]): a new
//! code without an action does not compile. The rest (the thread's notices, notifications,
//! the tray, file dialogs, the shared report, the page the browser shows after signing in)
//! sits beside it, one file per part of the app; nothing else writes sentences, and none is
//! chosen by reading a message's text. The page reads the same catalog, and gets each code's
//! action through the generated bindings ([`actions_by_code`]).

use crate::error::{AppError, Problem, UiAction, UiCode, UiError};
use language::Language;

mod actions;
pub mod catalog;
pub mod from_page;
pub mod language;
pub mod money;
pub mod notices;
pub mod report;
pub mod schedules;
pub mod sign_in_page;
pub mod stored;
pub mod tray;
pub mod window;

#[cfg(test)]
mod tests;

/// A code's words: a short title, a sentence or two, and what the person can do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Words {
    pub action: Option<UiAction>,
    pub detail: String,
    pub title: String,
}

/// The words for `code`, in the app's language.
pub fn of(code: UiCode) -> Words {
    of_in(language::current(), code)
}

/// The words for `code` in `language`.
pub fn of_in(language: Language, code: UiCode) -> Words {
    let name = code_name(code);
    Words {
        action: actions::of(code),
        title: catalog::text_in(language, &format!("errors.{name}.title"), &[]),
        detail: catalog::text_in(language, &format!("errors.{name}.detail"), &[]),
    }
}

/// Every code's action, keyed by code: exported to the page as `UI_ACTIONS` (the page words
/// a code from the catalog itself). Keyed by name in a sorted map, so the generated bindings
/// read the same whether or not serde_json keeps insertion order.
pub fn actions_by_code() -> std::collections::BTreeMap<String, Option<UiAction>> {
    UiCode::ALL
        .iter()
        .map(|&code| (code_name(code), actions::of(code)))
        .collect()
}

/// A code's name as the page, the catalog and the saved files know it (its serde name).
fn code_name(code: UiCode) -> String {
    match serde_json::to_value(code) {
        Ok(serde_json::Value::String(name)) => name,
        _ => unreachable!("a UiCode serializes as its name"),
    }
}

impl From<UiCode> for UiError {
    fn from(code: UiCode) -> Self {
        let words = of(code);
        UiError {
            code,
            title: words.title,
            detail: words.detail,
            retry_at: None,
            action: words.action,
            link: None,
        }
    }
}

impl From<&Problem> for UiError {
    fn from(problem: &Problem) -> Self {
        UiError {
            retry_at: problem.retry_at,
            ..UiError::from(problem.code)
        }
    }
}

impl From<Problem> for UiError {
    fn from(problem: Problem) -> Self {
        UiError::from(&problem)
    }
}

impl From<&AppError> for UiError {
    fn from(error: &AppError) -> Self {
        UiError {
            link: crate::error::problem::link_of(error),
            ..UiError::from(Problem::from(error))
        }
    }
}

impl From<AppError> for UiError {
    fn from(error: AppError) -> Self {
        // The developer-facing text goes to the log only; it never holds a secret.
        tracing::warn!(error = %error, "command failed");
        UiError::from(&error)
    }
}
