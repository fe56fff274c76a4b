//! What a consumer must show (RULES.md "Projection"), in the canonical JSON
//! form of `docs/projection.md`.

use serde_json::Value;

/// The projection of a whole stream: one entry per run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Projection {
    pub runs: Vec<Value>,
}

impl Projection {
    /// The canonical JSON form.
    pub fn to_json(&self) -> Value {
        serde_json::json!({ "runs": self.runs })
    }
}
