//! One corpus case: a stream and the answer the spec gives for it.

use agui_model::{RuleId, Verdict};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A case file, exactly as on disk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// `<area>/<name>`, matching the file's path under `corpus/`.
    pub id: String,
    pub description: String,
    /// The sentence of the draft or docs/rules.md the case tests.
    pub spec: String,
    /// The stream items (usually objects; a non-object is itself a fault).
    pub events: Vec<Value>,
    pub expect: Expect,
    /// The `accept.*` obligation the case tests, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub obligation: Option<RuleId>,
    /// The expected projection (canonical form, `docs/projection.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub projection: Option<Value>,
    /// Every violation the spec says the stream has, in stream order
    /// (catalogue order at one index; a rule broken several times at one index
    /// is listed once), written from the spec. Required when
    /// the first violation alone does not fix F and M (RULES.md "Scoring a
    /// consumer"): see [`crate::load::undetermined`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub violations: Option<Vec<Stated>>,
}

/// One stated violation: a rule and the index where it becomes detectable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stated {
    pub rule: RuleId,
    pub index: usize,
}

/// The expected answer: the verdict, and the stream's first violation when
/// it has one (`rule`/`index` absent means no violation at all). A stream
/// whose only violations are warnings has verdict `accept` and still names
/// its first violation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    pub verdict: Verdict,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<RuleId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
}
