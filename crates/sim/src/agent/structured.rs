//! Structured messages: an answer shaped by `output_schema` (a JSON Schema object) and
//! checked against it, and `success_criteria` (a sentence or `[{ id, check }]`) checked into
//! `evidence`. A check whose text says "impossible" fails; one that says "unverifiable" cannot
//! be checked. The validator covers the schema keywords a task answer needs: `type`,
//! `properties`, `required`, `items`, `enum`, `minimum`, `maximum`, `minLength`, `maxLength`.

use serde_json::{json, Map, Value};

/// An answer that fits the schema.
pub fn generate(schema: &Value, hint: &str) -> Value {
    if let Some(options) = schema.get("enum").and_then(Value::as_array) {
        return options.first().cloned().unwrap_or(Value::Null);
    }
    match schema
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("object")
    {
        "string" => {
            let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
            let mut s = hint.to_owned();
            while s.chars().count() < min {
                s.push('.');
            }
            if let Some(max) = schema.get("maxLength").and_then(Value::as_u64) {
                s = s.chars().take(max as usize).collect();
            }
            json!(s)
        }
        "integer" | "number" => {
            let lo = schema
                .get("minimum")
                .and_then(Value::as_f64)
                .unwrap_or(f64::MIN);
            let hi = schema
                .get("maximum")
                .and_then(Value::as_f64)
                .unwrap_or(f64::MAX);
            json!(21f64.clamp(lo, hi) as i64)
        }
        "boolean" => json!(true),
        "null" => Value::Null,
        "array" => {
            let item = schema
                .get("items")
                .cloned()
                .unwrap_or(json!({"type": "string"}));
            json!([generate(&item, hint)])
        }
        _ => {
            let mut out = Map::new();
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                for (k, s) in props {
                    out.insert(k.clone(), generate(s, k));
                }
            }
            Value::Object(out)
        }
    }
}

/// Why a value does not match the schema (empty when it does).
pub fn validate(schema: &Value, value: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    check(schema, value, "$", &mut errors);
    errors
}

fn type_ok(ty: &str, v: &Value) -> bool {
    match ty {
        "string" => v.is_string(),
        "integer" => v.as_f64().is_some_and(|n| n.fract() == 0.0),
        "number" => v.is_number(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => true,
    }
}

fn check(schema: &Value, v: &Value, at: &str, errors: &mut Vec<String>) {
    if let Some(ty) = schema.get("type").and_then(Value::as_str) {
        if !type_ok(ty, v) {
            errors.push(format!("{at}: expected {ty}"));
            return;
        }
    }
    if let Some(options) = schema.get("enum").and_then(Value::as_array) {
        if !options.contains(v) {
            errors.push(format!("{at}: not one of the allowed values"));
        }
    }
    if let Some(n) = v.as_f64() {
        if schema
            .get("minimum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n < m)
        {
            errors.push(format!("{at}: below the minimum"));
        }
        if schema
            .get("maximum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n > m)
        {
            errors.push(format!("{at}: above the maximum"));
        }
    }
    if let Some(s) = v.as_str() {
        let len = s.chars().count() as u64;
        if schema
            .get("minLength")
            .and_then(Value::as_u64)
            .is_some_and(|m| len < m)
        {
            errors.push(format!("{at}: shorter than minLength"));
        }
        if schema
            .get("maxLength")
            .and_then(Value::as_u64)
            .is_some_and(|m| len > m)
        {
            errors.push(format!("{at}: longer than maxLength"));
        }
    }
    if let Some(obj) = v.as_object() {
        for key in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(k) = key.as_str() {
                if !obj.contains_key(k) {
                    errors.push(format!("{at}: missing required property {k}"));
                }
            }
        }
        if let Some(props) = schema.get("properties").and_then(Value::as_object) {
            for (k, s) in props {
                if let Some(child) = obj.get(k) {
                    check(s, child, &format!("{at}.{k}"), errors);
                }
            }
        }
    }
    if let (Some(items), Some(arr)) = (schema.get("items"), v.as_array()) {
        for (i, child) in arr.iter().enumerate() {
            check(items, child, &format!("{at}[{i}]"), errors);
        }
    }
}

/// An answer that does not fit: every required property missing, wrong top-level type.
pub fn garble(schema: &Value) -> Value {
    match schema.get("type").and_then(Value::as_str) {
        Some("object") | None => json!({ "unexpected": "I could not fill this in" }),
        _ => json!({ "unexpected": true }),
    }
}

/// The outcome of checking `success_criteria`.
pub struct CriteriaOutcome {
    pub evidence: Vec<Value>,
    pub not_met: bool,
    pub unchecked: bool,
}

/// Checks criteria against the answer.
pub fn check_criteria(criteria: &Value, answer: &str) -> CriteriaOutcome {
    let mut out = CriteriaOutcome {
        evidence: vec![],
        not_met: false,
        unchecked: false,
    };
    let judge = |text: &str| -> (bool, Option<f64>, String) {
        let t = text.to_lowercase();
        if t.contains("impossible") {
            (
                false,
                Some(0.08),
                "The final screen and answer do not show this.".into(),
            )
        } else if t.contains("unverifiable") {
            (
                false,
                None,
                "This could not be checked from the steps and the answer.".into(),
            )
        } else {
            let short: String = answer.chars().take(80).collect();
            (true, Some(0.93), format!("The answer says: {short}"))
        }
    };
    match criteria {
        Value::String(sentence) => {
            let (passed, score, evidence) = judge(sentence);
            out.not_met |= !passed && score.is_some();
            out.unchecked |= score.is_none();
            out.evidence
                .push(json!({ "passed": passed, "evidence": evidence }));
        }
        Value::Array(checks) => {
            for c in checks {
                let id = c.get("id").cloned().unwrap_or(Value::Null);
                let text = c.get("check").and_then(Value::as_str).unwrap_or("");
                let (passed, score, evidence) = judge(text);
                out.not_met |= !passed && score.is_some();
                out.unchecked |= score.is_none();
                let mut e = json!({ "id": id, "passed": passed, "evidence": evidence });
                if let Some(s) = score {
                    e["score"] = json!(s);
                }
                out.evidence.push(e);
            }
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_answers_validate_and_garbled_ones_do_not() {
        let schema = json!({
            "type": "object",
            "required": ["city", "temperature", "tags"],
            "properties": {
                "city": {"type": "string", "minLength": 2},
                "temperature": {"type": "integer", "minimum": -50, "maximum": 60},
                "tags": {"type": "array", "items": {"type": "string"}},
                "unit": {"enum": ["C", "F"]}
            }
        });
        let v = generate(&schema, "Paris");
        assert!(
            validate(&schema, &v).is_empty(),
            "{:?}",
            validate(&schema, &v)
        );
        assert_eq!(validate(&schema, &garble(&schema)).len(), 3);
    }
}
