//! The composer's extra settings for a new task — "Record steps", an output schema and
//! success criteria — and how they go on the message.
//!
//! Invariant: an output schema goes out only once it parsed as a JSON object, so the service
//! never sees the page's half-typed text.

use porthole_client::messages::{Criteria, MessageOptions, MessageRequest};
use serde::{Deserialize, Serialize};

use crate::error::{AppError, AppResult};
use crate::judge::tidy;

/// What the composer asks for besides the text.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "camelCase")]
pub struct SendOptions {
    pub record_steps: bool,
    /// JSON Schema text; blank for none.
    pub output_schema: String,
    pub success_criteria: Option<Criteria>,
}

impl SendOptions {
    /// Lays the options over a new task's message; a schema that is not a JSON object is
    /// refused before anything is sent.
    pub fn apply(self, request: &mut MessageRequest) -> AppResult<()> {
        let schema = self.output_schema.trim();
        request.output_schema = if schema.is_empty() {
            None
        } else {
            match serde_json::from_str::<serde_json::Value>(schema) {
                Ok(value @ serde_json::Value::Object(_)) => Some(value),
                _ => return Err(AppError::InvalidSchema),
            }
        };
        if self.record_steps {
            request
                .options
                .get_or_insert_with(MessageOptions::default)
                .record_trajectory = Some(true);
        }
        request.success_criteria = self.success_criteria.and_then(tidy);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use porthole_client::messages::CriterionCheck;

    #[test]
    fn record_steps_schema_and_criteria_reach_the_message() {
        let options = SendOptions {
            record_steps: true,
            output_schema: r#"{"type":"object"}"#.into(),
            success_criteria: Some(Criteria::Checks(vec![CriterionCheck {
                id: String::new(),
                check: "mentions Paris".into(),
                return_evidence: Some(true),
            }])),
        };
        let mut request = MessageRequest::new("hi", "m1");
        options.apply(&mut request).unwrap();
        let body = serde_json::to_value(&request).unwrap();
        assert_eq!(body["options"]["recordTrajectory"], true);
        assert_eq!(body["output_schema"]["type"], "object");
        assert_eq!(body["success_criteria"][0]["id"], "check-1");
    }

    #[test]
    fn a_schema_that_is_not_a_json_object_is_refused_and_blank_means_none() {
        for bad in ["{", "[1]", "\"text\""] {
            let options = SendOptions {
                output_schema: bad.into(),
                ..Default::default()
            };
            let set = options.apply(&mut MessageRequest::new("hi", "m1"));
            assert!(matches!(set, Err(AppError::InvalidSchema)), "{bad}");
        }
        let blank = SendOptions {
            output_schema: "  ".into(),
            ..Default::default()
        };
        let mut request = MessageRequest::new("hi", "m1");
        blank.apply(&mut request).unwrap();
        assert_eq!(request.output_schema, None);
        assert_eq!(request.options, None);
    }
}
