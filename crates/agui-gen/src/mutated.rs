//! What a mutator returns: a stream and the violation it breaks first.
//! Its own module below the mutators (mutate.rs, consistency.rs, raw.rs),
//! so that each of them reads it without reading the others.

use agui_model::RuleId;
use serde_json::Value;

/// A mutated stream and what it breaks first.
#[derive(Debug, Clone)]
pub struct Mutated {
    /// The stream items as values (for a `lines` stream: the valid stream
    /// the lines were made from, which reads the same but for the warning).
    pub events: Vec<Value>,
    /// The stream as raw JSON Lines text, when a value cannot hold the
    /// fault ([`crate::raw`]); then it is the stream.
    pub lines: Option<Vec<String>>,
    pub rule: RuleId,
    pub index: usize,
    /// Only for accepted streams (warning rules) whose projection is known.
    pub projection: Option<Value>,
}
