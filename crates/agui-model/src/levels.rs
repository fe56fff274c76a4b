//! Per-rule severity overrides: a vendor's rule configuration
//! (`--rule ID=LEVEL`, `agui-conform.toml`). A rule set to
//! [`Severity::None`] is off: not reported and not counted; a rule set to
//! another severity is reported and counted with it, so the verdict
//! follows.

use crate::rules::{RuleId, Severity};
use std::collections::BTreeMap;

/// Severity overrides by rule.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleLevels(BTreeMap<RuleId, Severity>);

impl RuleLevels {
    /// Sets `rule` to `level` (`Severity::None`: off), replacing any
    /// earlier setting.
    pub fn set(&mut self, rule: RuleId, level: Severity) {
        self.0.insert(rule, level);
    }

    /// The override of `rule`, if any.
    pub fn get(&self, rule: RuleId) -> Option<Severity> {
        self.0.get(&rule).copied()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The overrides, in catalogue order.
    pub fn iter(&self) -> impl Iterator<Item = (RuleId, Severity)> + '_ {
        self.0.iter().map(|(r, s)| (*r, *s))
    }

    /// Parses a level: `error`, `warning` or `off`.
    pub fn parse_level(s: &str) -> Option<Severity> {
        match s {
            "error" => Some(Severity::Error),
            "warning" => Some(Severity::Warning),
            "off" => Some(Severity::None),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Checker, Verdict, check::check_bytes};

    /// `RUN_STARTED` alone: `run.unterminated` (an error) at index 1.
    const OPEN: &[u8] = b"{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n";

    fn check(rule: RuleId, level: Severity) -> crate::Report {
        let mut l = RuleLevels::default();
        l.set(rule, level);
        check_bytes(OPEN, Checker::new().with_levels(l))
    }

    #[test]
    fn off_drops_and_a_new_severity_counts() {
        let r = check(RuleId::RunUnterminated, Severity::None);
        assert!(r.violations.is_empty());
        assert_eq!(r.counts.violations(), 0);
        assert_eq!(r.verdict(), Verdict::Accept);
        let r = check(RuleId::RunUnterminated, Severity::Warning);
        assert_eq!(r.violations[0].severity, Severity::Warning);
        assert_eq!((r.counts.errors, r.counts.warnings), (0, 1));
        assert_eq!(r.verdict(), Verdict::Accept);
        // Another rule's setting leaves this one as it is.
        let r = check(RuleId::TransportBuffered, Severity::None);
        assert_eq!(r.verdict(), Verdict::Reject);
    }
}
