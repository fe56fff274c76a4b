//! A reported violation and the stream's verdict.

use crate::rules::{RuleId, Severity};
use serde::{Deserialize, Serialize};

/// One rule broken at one event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub rule: RuleId,
    /// 0-based index of the event where the violation becomes detectable;
    /// the number of events when detected at end of input.
    pub index: usize,
    /// What and where: names the ids, owners and field path involved.
    pub message: String,
    /// JSON path of the offending field inside the event (schema rules).
    pub path: Option<String>,
    /// The rule's severity, or the one a rule configuration gave it
    /// ([`crate::RuleLevels`]).
    pub severity: Severity,
}

impl Violation {
    pub fn new(rule: RuleId, index: usize, message: impl Into<String>) -> Self {
        Violation {
            rule,
            index,
            message: message.into(),
            path: None,
            severity: rule.rule().severity,
        }
    }

    pub fn at_path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }
}

/// The machine form of a violation (`check --format json`).
impl Serialize for Violation {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let rule = self.rule.rule();
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("rule", rule.id)?;
        m.serialize_entry("index", &self.index)?;
        m.serialize_entry("severity", self.severity.as_str())?;
        m.serialize_entry("obligation", rule.obligation.as_str())?;
        m.serialize_entry("message", &self.message)?;
        if let Some(p) = &self.path {
            m.serialize_entry("path", p)?;
        }
        m.end()
    }
}

/// A stream is rejected exactly when some violation has producer severity
/// `error`; warnings are listed but leave it accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Accept,
    Reject,
    /// A checker limit left part of the stream unjudged before any error
    /// was found (RULES.md "Checker limits"); never a consumer's answer.
    Inconclusive,
}

impl Verdict {
    pub fn of(violations: &[Violation]) -> Verdict {
        if violations.iter().any(|v| v.severity == Severity::Error) {
            Verdict::Reject
        } else {
            Verdict::Accept
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Accept => "accept",
            Verdict::Reject => "reject",
            Verdict::Inconclusive => "inconclusive",
        }
    }
}
