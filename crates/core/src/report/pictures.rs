//! The pictures a report carries, shown on the sheet before it leaves: either Porthole's film
//! of the task or the service's screenshots of its recorded steps, as [`super::gather`] decides
//! (the service's record by `turnId` when "Record steps" was on, else the film). Every report
//! with a picture in it goes through the sheet; what the person hid there comes back as
//! [`ReportRedactions`], over the same pictures.

use super::service_pictures::{self, HiddenOnSteps, ServiceSteps};
use super::timeline::{self, HiddenOnFilm, ReportFilm};
use crate::conversations::Conversations;
use crate::error::AppResult;
use crate::film::Shelf;

/// What the sheet shows before a report leaves.
#[derive(Debug, Clone, PartialEq, serde::Serialize, specta::Type)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum ReportPictures {
    /// Porthole's film of the task (no `turnId`, or "Record steps" was off), and the frames
    /// the report keeps of it.
    Film(ReportFilm),
    /// The service's screenshots of the recorded steps.
    Steps(ServiceSteps),
}

/// What the person hid on the sheet: on the film's frames (by their place in the film), or on
/// the service's screenshots (by their step's `index` as the service numbers it).
#[derive(Debug, Clone, PartialEq, serde::Deserialize, specta::Type)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum ReportRedactions {
    Film(HiddenOnFilm),
    Steps(HiddenOnSteps),
}

/// The pictures the report of task `turn_id` (without one, the conversation's last task) will
/// carry, for the person to see and redact first; none when it carries no picture.
pub async fn pictures_for(
    connection: &crate::connection::Connection,
    conversations: &Conversations,
    shelf: &Shelf,
    conversation_id: &str,
    turn_id: Option<&str>,
) -> AppResult<Option<ReportPictures>> {
    let conversation = conversations.store().get(conversation_id)?;
    if let Some(turn_id) = turn_id {
        // As [`super::gather`] decides: the service's record, when the steps were recorded.
        let client = connection.active().await?.client;
        if client.turns().get(turn_id).await?.record_trajectory {
            let steps = service_pictures::shown(&client, turn_id).await?;
            return Ok((!steps.steps.is_empty()).then_some(ReportPictures::Steps(steps)));
        }
    }
    Ok(timeline::film_of(shelf, &conversation).map(ReportPictures::Film))
}
