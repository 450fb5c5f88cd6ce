//! Builds the exec block that runs a learned function.
//!
//! An argument to `main` replaces its whole default object, so every input must be passed:
//! the block is the learned code followed by one last line,
//! `await main({...<defaults>, ...<inputs>})`, with the defaults taken from the learn result's
//! `parameters` and the caller's inputs laid over them. `main` is async; blocks run as async
//! scripts, so the `await` makes the block's value the function's answer, not a promise. Names that are not parameters are
//! refused rather than silently ignored by `main`.

use serde_json::{Map, Value};

use crate::control::ExecRequest;
use crate::error::{InputError, Result};
use crate::learn::Parameter;

/// The block for `code` with `inputs` over the `parameters`' defaults.
pub fn learned_exec_block(
    code: &str,
    parameters: &[Parameter],
    inputs: &Map<String, Value>,
) -> Result<ExecRequest> {
    if let Some(unknown) = inputs
        .keys()
        .find(|name| !parameters.iter().any(|p| &p.name == *name))
    {
        return Err(InputError::Invalid {
            field: "inputs",
            reason: format!("{unknown:?} is not a parameter of this task"),
        }
        .into());
    }
    let defaults: Map<String, Value> = parameters
        .iter()
        .map(|p| (p.name.clone(), p.default_value.clone()))
        .collect();
    // JSON is a valid JavaScript expression, so the objects need no further escaping.
    let defaults = js_literal(&Value::Object(defaults));
    let inputs = js_literal(&Value::Object(inputs.clone()));
    let code = code.trim_end();
    Ok(ExecRequest::new(format!(
        "{code}\nawait main({{...{defaults}, ...{inputs}}})"
    )))
}

/// JSON, with the two line separators JavaScript treats as line ends escaped, so the call
/// stays on one line.
fn js_literal(value: &Value) -> String {
    value
        .to_string()
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn params() -> Vec<Parameter> {
        vec![
            Parameter {
                name: "city".into(),
                default_value: json!("Paris"),
            },
            Parameter {
                name: "days".into(),
                default_value: json!(3),
            },
        ]
    }

    #[test]
    fn last_line_calls_main_with_defaults_then_inputs() {
        let inputs = json!({ "days": 5 }).as_object().cloned().unwrap();
        let block = learned_exec_block("async function main(params = {}) {}\n", &params(), &inputs)
            .unwrap();
        let last = block.code.lines().last().unwrap();
        assert_eq!(
            last,
            r#"await main({...{"city":"Paris","days":3}, ...{"days":5}})"#
        );
    }

    #[test]
    fn unknown_inputs_are_refused() {
        let inputs = json!({ "town": "Rome" }).as_object().cloned().unwrap();
        assert!(learned_exec_block("x", &params(), &inputs).is_err());
    }

    #[test]
    fn line_separators_in_values_do_not_break_the_line() {
        let inputs = json!({ "city": "a\u{2028}b\nc" })
            .as_object()
            .cloned()
            .unwrap();
        let block = learned_exec_block("x", &params(), &inputs).unwrap();
        assert_eq!(block.code.lines().count(), 2);
        assert!(!block.code.contains('\u{2028}'));
        assert!(block.code.contains("a\\u2028b\\nc"));
    }
}
