//! The records of `check` the renderers read: what a check leaves for the
//! outputs written when it ends (SARIF, JUnit, the page) — the findings
//! kept, and the finished check — and a batch's totals. The streamed
//! outputs (text, JSON) read each finding as it is found instead.

use agui_live::RunLog;
use agui_model::{Finding, LimitNotice, Report, Violation};
use std::time::Duration;

/// What one check found, kept for an output written at the end: at most
/// `cap` violations and notices each.
#[derive(Debug, Default)]
pub struct Collected {
    pub violations: Vec<Violation>,
    pub limits: Vec<LimitNotice>,
    cap: usize,
}

impl Collected {
    pub fn new(cap: usize) -> Self {
        Collected {
            cap,
            ..Collected::default()
        }
    }

    /// What a report kept (a live check keeps every finding in it).
    pub fn of(report: &Report) -> Self {
        Collected {
            violations: report.violations.clone(),
            limits: report.limits.clone(),
            cap: usize::MAX,
        }
    }

    pub fn push(&mut self, f: Finding<'_>) {
        match f {
            Finding::Violation(v) if self.violations.len() < self.cap => {
                self.violations.push(v.clone())
            }
            Finding::Limit(n) if self.limits.len() < self.cap => self.limits.push(n.clone()),
            _ => {}
        }
    }
}

/// One finished check, as the end-of-check renderers read it: the stream's
/// name (a file or a URL), its report, how each run ended, the findings
/// kept and how long it took.
pub struct Check<'a> {
    pub name: &'a str,
    pub report: &'a Report,
    pub runs: &'a RunLog,
    pub found: &'a Collected,
    pub elapsed: Duration,
}

/// The totals over the inputs of a batch (`check A B…`, `check DIR`, JSON
/// Lines of cases), counted by crate::batch, rendered after its reports.
#[derive(Default)]
pub struct Summary {
    pub accept: usize,
    pub reject: usize,
    pub inconclusive: usize,
    pub unreadable: usize,
    pub events: usize,
    pub violations: usize,
    /// The exit status over all inputs.
    pub exit: u8,
    /// Each input's verdict and exit status (`{"error": true, …}` for one
    /// that could not be read), in order.
    pub verdicts: Vec<serde_json::Value>,
    /// Inputs that were corpus cases.
    pub cases: usize,
}

/// `check --group`: the violations counted per rule, in the order each
/// rule was first broken, with its first violation (every violation is
/// counted, printed or not).
#[derive(Debug, Default)]
pub struct Groups {
    pub rules: Vec<Group>,
}

/// One rule's violations in a [`Groups`].
#[derive(Debug)]
pub struct Group {
    pub count: usize,
    pub first: Violation,
}

impl Groups {
    pub fn push(&mut self, v: &Violation) {
        match self.rules.iter_mut().find(|g| g.first.rule == v.rule) {
            Some(g) => g.count += 1,
            None => self.rules.push(Group {
                count: 1,
                first: v.clone(),
            }),
        }
    }

    /// The groups of a report's violations (a live check keeps them all).
    pub fn of(violations: &[Violation]) -> Self {
        let mut g = Groups::default();
        for v in violations {
            g.push(v);
        }
        g
    }

    /// The machine form: `[{"rule", "severity", "count", "first", "doc"}]`.
    pub fn to_json(&self) -> serde_json::Value {
        self.rules
            .iter()
            .map(|g| {
                serde_json::json!({
                    "rule": g.first.rule.as_str(),
                    "severity": g.first.severity.as_str(),
                    "count": g.count,
                    "first": g.first.index,
                    "doc": g.first.doc(),
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agui_model::RuleId;

    #[test]
    fn groups_count_per_rule_in_first_broken_order() {
        let g = Groups::of(&[
            Violation::new(RuleId::RunUnterminated, 9, "a"),
            Violation::new(RuleId::SchemaNotJson, 2, "b"),
            Violation::new(RuleId::RunUnterminated, 12, "c"),
        ]);
        let j = g.to_json();
        assert_eq!(j[0]["rule"], "run.unterminated");
        assert_eq!(j[0]["count"], 2);
        assert_eq!(j[0]["first"], 9);
        assert_eq!(j[1]["rule"], "schema.not-json");
        assert_eq!(j[1]["count"], 1);
        assert_eq!(j[1]["doc"], "docs/rules.md#schema.not-json");
    }
}
