//! `--junit FILE`: JUnit XML for CI. One test suite per area (the first
//! segment of the case id), one test case per case, its `classname` the
//! area of the rule the case tests (`valid` for valid streams). FAIL is a
//! failure and ERRORED an error, each with a body saying what was
//! expected, what was answered, why, the implementation's message and its
//! stderr; SKIPPED is skipped. WARN and INFO pass with a `score` property
//! and the reason in system-out (WARN fails under `--strict`). A run that
//! is incomplete (aborted, no case, suite problems) gets one more test
//! case, `run` in the test suite `harness` (no corpus area has that name),
//! an error saying why, so CI never shows it green.

use super::{describe_expected, message, stderr};
use crate::runner::{CaseResult, RunResult};
use crate::score::Score;
use crate::suite::SuiteCase;
use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};
use std::collections::BTreeMap;

pub fn render(run: &RunResult, cases: &[SuiteCase]) -> anyhow::Result<String> {
    let mut report = Report::new(format!("agui-conform {}", run.suite));
    let mut suites: BTreeMap<String, TestSuite> = BTreeMap::new();
    if let Some(why) = run.incomplete() {
        let mut st = TestCaseStatus::non_success(NonSuccessKind::Error);
        st.set_message(why.clone());
        let mut body = why;
        for p in &run.problems {
            body.push_str(&format!("\nproblem: {p}"));
        }
        st.set_description(body);
        let mut tc = TestCase::new("run", st);
        tc.set_classname(run.suite.clone());
        suites
            .entry("harness".into())
            .or_insert_with(|| TestSuite::new("harness"))
            .add_test_case(tc);
    }
    for r in &run.results {
        let c = &cases[r.case];
        let area = c.id.split('/').next().unwrap_or("cases").to_string();
        let body = details(r, c);
        let score = r.scored.score;
        let status = match score {
            Score::Skipped => TestCaseStatus::skipped(),
            Score::Errored => non_success(NonSuccessKind::Error, r, &body),
            s if run.fails(s) => non_success(NonSuccessKind::Failure, r, &body),
            _ => TestCaseStatus::success(),
        };
        let mut tc = TestCase::new(c.id.clone(), status);
        tc.set_classname(
            c.rule_key()
                .map(|k| k.rule().area)
                .unwrap_or("valid")
                .to_string(),
        );
        tc.set_time(r.elapsed);
        tc.add_property(Property::new("score", score.as_str()));
        tc.set_system_out(format!("{score}: {body}"));
        if let Some(t) = stderr(r) {
            tc.set_system_err(t.to_string());
        }
        suites
            .entry(area.clone())
            .or_insert_with(|| TestSuite::new(area))
            .add_test_case(tc);
    }
    report.add_test_suites(suites.into_values());
    Ok(report.to_string()?)
}

/// Expected, answered, why, and what the implementation said.
fn details(r: &CaseResult, c: &SuiteCase) -> String {
    let mut out = format!(
        "expected {}; answered {}",
        describe_expected(&c.expected),
        r.outcome.short()
    );
    if !r.scored.reason.is_empty() {
        out.push_str(&format!("\nwhy: {}", r.scored.reason));
    }
    if let Some(m) = message(r) {
        out.push_str(&format!("\nimplementation says: {m}"));
    }
    out
}

fn non_success(kind: NonSuccessKind, r: &CaseResult, body: &str) -> TestCaseStatus {
    let mut s = TestCaseStatus::non_success(kind);
    s.set_message(format!("{}: {}", r.scored.score, r.scored.reason));
    let mut text = body.to_string();
    if let Some(t) = stderr(r) {
        text.push_str(&format!("\nstderr (end):\n{}", t.trim_end()));
    }
    s.set_description(text);
    s
}
