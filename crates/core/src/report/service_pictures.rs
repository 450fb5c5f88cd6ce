//! The service's screenshots of a recorded task's steps, as a report carries them: the person
//! sees each one on the sheet before the report leaves (as they see Porthole's film), and what
//! they hid is painted into its pixels ([`Redactions::paint`], the film's and the video's
//! painting), so it is gone from the file, not a layer on top.
//!
//! Redactions name a screenshot by its step's `index` as the service numbers it (the
//! trajectory's `index`, the number `…/trajectory/screenshots/{index}` fetches): the one
//! number the sheet, the Steps sheet and the service all agree on; the final screen has one too.

use porthole_client::turns::{Image, Step};
use porthole_client::Client;

use super::{data_uri, ReportRedactions, ReportStep};
use crate::error::{AppError, AppResult};
use crate::film::sharing::{self, Redactions};

/// How a painted screenshot is written again: about the service's own JPEGs' look.
const JPEG_QUALITY: u8 = 80;

/// The service's screenshots a report of task `turn_id` carries: what the sheet shows.
#[derive(Debug, Clone, PartialEq, serde::Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ServiceSteps {
    pub turn_id: String,
    /// The steps that have a screenshot, in the service's order.
    pub steps: Vec<ServiceShot>,
    /// What the sheet starts with: the screenshot of a step that types a password hidden whole.
    pub suggested: Redactions,
}

/// One recorded step with a screenshot, captioned as the Steps sheet captions it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct ServiceShot {
    /// The step's `index` as the service numbers it: what redactions name its screenshot by.
    pub index: u32,
    /// Its place among the steps, counted from 1 as the Steps sheet counts them; none for the
    /// final screen, which is no step.
    pub number: Option<u32>,
    pub title: String,
    pub rationale: String,
}

/// What the person hid on the service's screenshots of task `turn_id` (the one they saw).
#[derive(Debug, Clone, PartialEq, serde::Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct HiddenOnSteps {
    pub turn_id: String,
    pub redactions: Redactions,
}

/// The recorded steps of task `turn_id` that have a screenshot, for the sheet.
pub async fn shown(client: &Client, turn_id: &str) -> AppResult<ServiceSteps> {
    let recorded = client.turns().trajectory(turn_id).await?.steps;
    let mut number = 0;
    let mut steps = Vec::new();
    for step in &recorded {
        let place = (!step.is_final).then(|| {
            number += 1;
            number
        });
        if step.screenshot.is_some() {
            steps.push(ServiceShot {
                index: step.index,
                number: place,
                title: step.title.clone(),
                rationale: step.rationale.clone(),
            });
        }
    }
    Ok(ServiceSteps {
        turn_id: turn_id.to_owned(),
        suggested: suggested(&recorded),
        steps,
    })
}

/// Every screenshot of a step whose title says it types a password, hidden whole.
pub fn suggested(steps: &[Step]) -> Redactions {
    Redactions {
        hidden_frames: steps
            .iter()
            .filter(|s| s.screenshot.is_some() && sharing::says_secret(&s.title))
            .map(|s| s.index)
            .collect(),
        ..Redactions::default()
    }
}

/// What to paint on task `turn_id`'s screenshots: what the person hid on the sheet, or without
/// a sheet (a page that showed none) the suggestion it starts with. Refused, never ignored:
/// redactions a person could not have made, or made over other pictures (a film, another task).
pub fn chosen(
    hidden: Option<&ReportRedactions>,
    turn_id: &str,
    steps: &[Step],
) -> AppResult<Redactions> {
    let refused = |why: &str| AppError::RedactionsRefused(why.into());
    match hidden {
        None => Ok(suggested(steps)),
        Some(ReportRedactions::Steps(h)) if h.turn_id == turn_id => {
            h.redactions.check().map_err(|_| refused("refused"))?;
            Ok(h.redactions.clone())
        }
        Some(ReportRedactions::Steps(_)) => Err(refused("another task's steps")),
        Some(ReportRedactions::Film(_)) => Err(refused("a film, not the service's steps")),
    }
}

/// The recorded steps of task `turn_id` as the report shows them, each screenshot with
/// `redactions` painted in. A screenshot nothing is hidden on leaves as the service sent it;
/// one that cannot be fetched leaves its step without a picture, not the report undone; one
/// that something is hidden on but cannot be decoded does not leave at all.
pub async fn steps(
    client: &Client,
    turn_id: &str,
    recorded: &[Step],
    redactions: &Redactions,
) -> Vec<ReportStep> {
    let mut number = 0;
    let mut out = Vec::with_capacity(recorded.len());
    for step in recorded {
        let screenshot = match &step.screenshot {
            Some(_) => client
                .turns()
                .screenshot(turn_id, step.index)
                .await
                .ok()
                .and_then(|image| shared(&image, step.index, redactions)),
            None => None,
        };
        out.push(ReportStep {
            number: (!step.is_final).then(|| {
                number += 1;
                number
            }),
            title: step.title.clone(),
            rationale: step.rationale.clone(),
            code: step.code.clone(),
            error: step.error.clone(),
            screenshot,
        });
    }
    out
}

/// Step `index`'s screenshot as a `data:` URI, what is hidden on it painted into its pixels;
/// none when something is hidden on it and it cannot be painted.
pub fn shared(image: &Image, index: u32, redactions: &Redactions) -> Option<String> {
    if !redactions.touches(index) {
        return Some(data_uri(&image.content_type, &image.bytes));
    }
    // JPEG or PNG, whatever the service sent: read by its bytes, not by what it was called.
    let mut picture = image::load_from_memory(&image.bytes).ok()?.to_rgb8();
    redactions.paint(index, &mut picture);
    let (width, height) = picture.dimensions();
    // At the size it came: a painted screenshot as sharp as the others beside it (the film's
    // `encode_picture` would make it the film's size).
    let jpeg = porthole_picture::jpeg(picture.as_raw(), width, height, JPEG_QUALITY)?;
    Some(data_uri("image/jpeg", &jpeg))
}
