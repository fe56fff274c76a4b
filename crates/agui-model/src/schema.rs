//! Wire rules of the AG-UI 1.0 schema (`shared/spec/SCHEMA.md`), checked per
//! event on the parsed JSON value.
//!
//! STUB: being written. The signature is the contract.

use crate::rules::RuleId;
use serde_json::Value;

/// One schema fault inside one event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaIssue {
    pub rule: RuleId,
    /// Path of the offending field inside the event, e.g.
    /// `outcome.interruptIds[2]`; `""` for the event itself.
    pub path: String,
    pub message: String,
}

/// Checks one stream item against the wire schema. Issues come back sorted
/// by catalogue order (then by path order of discovery).
pub fn validate(value: &Value) -> Vec<SchemaIssue> {
    let _ = value;
    Vec::new()
}
