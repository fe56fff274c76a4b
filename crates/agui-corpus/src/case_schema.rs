//! The published JSON Schema of case files (`corpus/case.schema.json`),
//! compiled in so that any corpus directory is checked against the same
//! contract.

use serde_json::Value;
use std::sync::OnceLock;

/// The text of `corpus/case.schema.json`.
pub const CASE_SCHEMA: &str = agui_assets::CASE_SCHEMA;

/// One way a file breaks the case schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// JSON Pointer into the case file.
    pub instance_path: String,
    pub message: String,
}

fn validator() -> Result<&'static jsonschema::Validator, String> {
    static V: OnceLock<Result<jsonschema::Validator, String>> = OnceLock::new();
    V.get_or_init(|| {
        let schema: Value = serde_json::from_str(CASE_SCHEMA)
            .map_err(|e| format!("case.schema.json is not JSON: {e}"))?;
        jsonschema::draft202012::new(&schema)
            .map_err(|e| format!("case.schema.json is not a valid schema: {e}"))
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// Validates one case file's JSON against the case schema. `Err` when the
/// schema itself is broken.
pub fn validate(case: &Value) -> Result<Vec<SchemaError>, String> {
    let v = validator()?;
    Ok(v.iter_errors(case)
        .map(|e| SchemaError {
            instance_path: e.instance_path().to_string(),
            message: e.to_string(),
        })
        .collect())
}

/// The JSON value of the case schema (for tests that compare it with the
/// catalogue).
pub fn schema_value() -> Result<Value, String> {
    serde_json::from_str(CASE_SCHEMA).map_err(|e| format!("case.schema.json is not JSON: {e}"))
}
