//! Checking a finished task's result against criteria (judge). An idempotency key from the
//! page makes a retry of the same check return the earlier judgement instead of paying twice.

pub mod outcome;

use porthole_client::judge::{JudgeRequest, Judgement, Judges};
use porthole_client::messages::Criteria;

use crate::connection::Connection;
use crate::error::{AppError, AppResult};

pub async fn check(
    connection: &Connection,
    turn_id: &str,
    criteria: Criteria,
    idempotency_key: Option<String>,
) -> AppResult<Judgement> {
    let criteria = tidy(criteria).ok_or(AppError::NoCriteria)?;
    let client = connection.active().await?.client;
    let request = JudgeRequest {
        turns: vec![turn_id.to_owned()],
        criteria,
        task: None,
        judges: Some(Judges {
            criteria: Some(true),
            ..Judges::default()
        }),
        idempotency_key,
    };
    Ok(client.judge().run(&request).await?)
}

/// Drops blank checks and gives checks without an id one; `None` when nothing is left.
pub fn tidy(criteria: Criteria) -> Option<Criteria> {
    match criteria {
        Criteria::Sentence(s) if s.trim().is_empty() => None,
        Criteria::Sentence(s) => Some(Criteria::Sentence(s.trim().to_owned())),
        Criteria::Checks(checks) => {
            let mut kept: Vec<_> = checks
                .into_iter()
                .filter(|c| !c.check.trim().is_empty())
                .collect();
            for (i, c) in kept.iter_mut().enumerate() {
                c.check = c.check.trim().to_owned();
                if c.id.trim().is_empty() {
                    c.id = format!("check-{}", i + 1);
                }
            }
            (!kept.is_empty()).then_some(Criteria::Checks(kept))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use porthole_client::messages::CriterionCheck;

    fn check(id: &str, text: &str) -> CriterionCheck {
        CriterionCheck {
            id: id.into(),
            check: text.into(),
            return_evidence: Some(true),
        }
    }

    #[test]
    fn blank_criteria_are_none_and_checks_get_ids() {
        assert_eq!(tidy(Criteria::Sentence("  ".into())), None);
        assert_eq!(tidy(Criteria::Checks(vec![check("", " ")])), None);
        let tidied = tidy(Criteria::Checks(vec![
            check("", " a "),
            check("x", ""),
            check("b", "b"),
        ]));
        assert_eq!(
            tidied,
            Some(Criteria::Checks(vec![
                check("check-1", "a"),
                check("b", "b")
            ]))
        );
    }
}
