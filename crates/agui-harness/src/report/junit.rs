//! `--junit FILE`: JUnit XML for CI. One test suite per area (the first
//! segment of the case id), one test case per case; FAIL is a failure,
//! ERRORED an error, SKIPPED skipped; WARN and INFO pass with their reason
//! in system-out.

use super::describe_expected;
use crate::outcome::{Errored, Outcome};
use crate::runner::RunResult;
use crate::score::Score;
use crate::suite::SuiteCase;
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use std::collections::BTreeMap;

pub fn render(run: &RunResult, cases: &[SuiteCase]) -> anyhow::Result<String> {
    let mut report = Report::new(format!("agui-conform {}", run.suite));
    let mut suites: BTreeMap<String, TestSuite> = BTreeMap::new();
    for r in &run.results {
        let c = &cases[r.case];
        let area = c.id.split('/').next().unwrap_or("cases").to_string();
        let status = match r.scored.score {
            Score::Pass | Score::Warn | Score::Info => TestCaseStatus::success(),
            Score::Skipped => TestCaseStatus::skipped(),
            Score::Fail => non_success(NonSuccessKind::Failure, r.scored.score, &r.scored.reason),
            Score::Errored => non_success(NonSuccessKind::Error, r.scored.score, &r.scored.reason),
        };
        let mut tc = TestCase::new(c.id.clone(), status);
        tc.set_time(r.elapsed);
        let mut out = format!(
            "{}: expected {}; got {}",
            r.scored.score,
            describe_expected(&c.expected),
            r.outcome.short()
        );
        if !r.scored.reason.is_empty() {
            out.push_str(&format!("\n{}", r.scored.reason));
        }
        tc.set_system_out(out);
        if let Outcome::Errored(Errored {
            stderr_tail: Some(t),
            ..
        }) = &r.outcome
        {
            tc.set_system_err(t.clone());
        }
        suites
            .entry(area.clone())
            .or_insert_with(|| TestSuite::new(area))
            .add_test_case(tc);
    }
    report.add_test_suites(suites.into_values());
    Ok(report.to_string()?)
}

fn non_success(kind: NonSuccessKind, score: Score, reason: &str) -> TestCaseStatus {
    let mut s = TestCaseStatus::non_success(kind);
    s.set_message(format!("{score}: {reason}"));
    s
}
