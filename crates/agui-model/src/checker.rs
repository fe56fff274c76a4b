//! The streaming checker: one event in, violations out.
//!
//! STUB: being written. The API below is the contract.

use crate::projection::Projection;
use crate::violation::{Verdict, Violation};
use serde_json::Value;

/// The streaming state machine over one stream.
#[derive(Debug, Default)]
pub struct Checker {
    index: usize,
    violations: Vec<Violation>,
    project: bool,
}

impl Checker {
    /// A checker that also builds the projection.
    pub fn new() -> Self {
        Checker { project: true, ..Default::default() }
    }

    /// A checker that only reports violations (faster; no projection).
    pub fn without_projection() -> Self {
        Checker::default()
    }

    /// Feeds the next stream item (any JSON value; non-objects are
    /// `schema.not-json`).
    pub fn push(&mut self, item: &Value) {
        let _ = item;
        self.index += 1;
    }

    /// Feeds a stream item that could not be parsed as JSON at all (bad
    /// UTF-8, a syntax error, a truncated line): `schema.not-json`.
    pub fn push_unparseable(&mut self, why: &str) {
        let _ = why;
        self.index += 1;
    }

    /// Number of items fed so far.
    pub fn events(&self) -> usize {
        self.index
    }

    /// Violations found so far.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// Takes the violations found so far (for live reports on long streams).
    pub fn drain_violations(&mut self) -> Vec<Violation> {
        std::mem::take(&mut self.violations)
    }

    /// Ends the input: end-of-input rules, then the report.
    pub fn finish(self) -> Report {
        Report {
            violations: self.violations,
            projection: if self.project { Some(Projection::default()) } else { None },
            events: self.index,
        }
    }
}

/// The outcome of checking one stream.
#[derive(Debug, Clone)]
pub struct Report {
    /// Every violation, in stream order (catalogue order within one event).
    pub violations: Vec<Violation>,
    pub projection: Option<Projection>,
    /// Number of stream items read.
    pub events: usize,
}

impl Report {
    pub fn verdict(&self) -> Verdict {
        Verdict::of(&self.violations)
    }

    /// The machine form: `{"verdict", "violations", "projection"}`.
    pub fn to_json(&self) -> Value {
        let mut m = serde_json::Map::new();
        m.insert("verdict".into(), Value::from(self.verdict().as_str()));
        m.insert("violations".into(), serde_json::to_value(&self.violations).unwrap_or(Value::Null));
        if let Some(p) = &self.projection {
            m.insert("projection".into(), p.to_json());
        }
        Value::Object(m)
    }
}

/// Checks a whole stream held in memory.
pub fn check_values(events: &[Value]) -> Report {
    let mut c = Checker::new();
    for e in events {
        c.push(e);
    }
    c.finish()
}
