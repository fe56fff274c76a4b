//! What checking one stream gives: its violations, limit notices, counts
//! and projection.

use super::{Checker, Counts};
use crate::limits::LimitNotice;
use crate::projection::Projection;
use crate::violation::{Verdict, Violation};
use serde_json::Value;

/// The outcome of checking one stream.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The violations kept, in stream order (catalogue order within one
    /// event): every one, unless [`Limits::violations`] was passed or a
    /// sink took them.
    pub violations: Vec<Violation>,
    /// The limit notices kept, in stream order.
    pub limits: Vec<LimitNotice>,
    /// Everything found, kept or not.
    pub counts: Counts,
    pub projection: Option<Projection>,
    /// Number of stream items read.
    pub events: usize,
    /// The rule families that judged at least one event
    /// ([`Checker::exercised_areas`]).
    pub exercised: Vec<&'static str>,
}

impl Report {
    /// A report of these violations and nothing else (tests, summaries).
    pub fn of(violations: Vec<Violation>, events: usize) -> Report {
        let mut counts = Counts::default();
        for v in &violations {
            counts.add_violation(v);
        }
        Report {
            violations,
            counts,
            events,
            ..Report::default()
        }
    }

    pub fn verdict(&self) -> Verdict {
        self.counts.verdict()
    }

    /// Where a conforming consumer that follows the AG-UI reference
    /// clients rejects the stream: the first error a consumer must or
    /// should reject for. An error it may reject for (a truncated run, a
    /// patch that does not apply) is accepted — either answer conforms, and
    /// the official corpus pins `completed` where it speaks — and one it
    /// must accept (revision 4: an unknown event type, member or outcome)
    /// is dropped or stripped.
    pub fn consumer_rejects_at(&self) -> Option<&Violation> {
        self.violations.iter().find(|v| {
            v.rule.severity() == crate::rules::Severity::Error
                && matches!(
                    v.rule.obligation(),
                    crate::rules::Obligation::MustReject | crate::rules::Obligation::ShouldReject
                )
        })
    }

    /// The first violation of any severity.
    pub fn first(&self) -> Option<&Violation> {
        self.violations.first()
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
