//! Placeholder owned by sim-B; replaced by the real implementation.

use crate::state::AppState;

/// Routes of this part of the service.
pub fn routes() -> axum::Router<AppState> {
    axum::Router::new()
}
