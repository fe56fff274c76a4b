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
