//! `check --junit PATH`: the check as one JUnit test case, for CI test
//! tabs, written beside the other output. Verdict `reject` is a failure;
//! otherwise a limit notice (part of the stream unjudged, or not every
//! violation kept) makes it an error; otherwise it passes, with any
//! warnings in its output. How each run ended is in the output too.

use super::sarif::Collected;
use agui_live::RunLog;
use agui_model::{Report, Verdict};
use quick_junit::{NonSuccessKind, Report as Junit, TestCase, TestCaseStatus, TestSuite};
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

/// The JUnit XML of one check of the stream `name`.
pub fn render(
    name: &str,
    report: &Report,
    runs: &RunLog,
    found: &Collected,
    elapsed: Duration,
) -> anyhow::Result<String> {
    let c = report.counts;
    let summary = format!(
        "{}: {} errors, {} warnings, {} limit notices in {} events",
        report.verdict().as_str(),
        c.errors,
        c.warnings,
        c.limits,
        report.events
    );
    let mut details = runs.render_text(usize::MAX);
    for v in &found.violations {
        let _ = writeln!(
            details,
            "#{} {} {}: {}",
            v.index,
            v.severity.as_str(),
            v.rule,
            v.message
        );
    }
    for n in &found.limits {
        let _ = writeln!(
            details,
            "#{} limit {}: {}",
            n.index,
            n.kind.as_str(),
            n.message
        );
    }
    let kind = match report.verdict() {
        Verdict::Reject => Some(NonSuccessKind::Failure),
        _ if c.limits > 0 => Some(NonSuccessKind::Error),
        _ => None,
    };
    let status = match kind {
        Some(k) => {
            let mut s = TestCaseStatus::non_success(k);
            s.set_message(summary.clone());
            s.set_description(details.clone());
            s
        }
        None => TestCaseStatus::success(),
    };
    let mut case = TestCase::new(name.to_owned(), status);
    case.set_time(elapsed);
    case.set_system_out(format!("{summary}\n{details}"));
    let mut suite = TestSuite::new("agui-conform check");
    suite.add_test_case(case);
    let mut out = Junit::new("agui-conform");
    out.add_test_suite(suite);
    Ok(out.to_string()?)
}

/// Writes the JUnit file.
pub fn write(
    path: &Path,
    name: &str,
    report: &Report,
    runs: &RunLog,
    found: &Collected,
    elapsed: Duration,
) -> anyhow::Result<()> {
    let xml = render(name, report, runs, found, elapsed)?;
    std::fs::write(path, xml).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}
