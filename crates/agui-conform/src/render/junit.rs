//! JUnit XML, for CI test tabs. `check --junit PATH`: the check as one
//! JUnit test case, written beside the other output. Verdict `reject` is a failure;
//! otherwise verdict `inconclusive` (a limit left part of the stream
//! unjudged, or the input holds no events) or any other limit notice (not
//! every violation kept) makes it an error; otherwise it passes, with any
//! warnings in its output. How each run ended is in the output too.
//! `run --producer --junit`: one test case per scenario. `run --junit` and
//! `fuzz --junit` are made by agui-harness, called from here.

use crate::record::Check;
use agui_harness::RunResult;
use agui_harness::campaign::{Campaign, summary as campaign};
use agui_harness::report::junit;
use agui_harness::suite::SuiteCase;
use agui_live::redirect::Hop;
use agui_model::{Verdict, Violation};
use quick_junit::{NonSuccessKind, Property, Report as Junit, TestCase, TestCaseStatus, TestSuite};
use std::fmt::Write as _;
use std::path::Path;

/// The JUnit XML of one check.
pub fn check(check: &Check<'_>) -> anyhow::Result<String> {
    let mut suite = TestSuite::new("agui-conform check");
    suite.add_test_case(check_case(check));
    xml(suite)
}

/// The test case of one check.
pub fn check_case(check: &Check<'_>) -> TestCase {
    let Check {
        name,
        report,
        runs,
        found,
        elapsed,
    } = *check;
    let c = report.counts;
    let summary = if crate::no_events::holds_none(report) {
        format!(
            "{}: {}",
            report.verdict().as_str(),
            crate::no_events::MESSAGE
        )
    } else {
        format!(
            "{}: {}, {}, {} in {}",
            report.verdict().as_str(),
            counted(c.errors, "error"),
            counted(c.warnings, "warning"),
            counted(c.limits, "limit notice"),
            counted(report.events, "event")
        )
    };
    let mut details = runs.render_text(usize::MAX);
    write_violations(&mut details, &found.violations);
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
        Verdict::Inconclusive => Some(NonSuccessKind::Error),
        _ if c.limits > 0 => Some(NonSuccessKind::Error),
        _ => None,
    };
    let status = match kind {
        Some(k) => non_success(k, &summary, &details),
        None => TestCaseStatus::success(),
    };
    let mut case = TestCase::new(name.to_owned(), status);
    case.set_classname(CHECK_CLASS);
    case.set_time(elapsed);
    case.set_system_out(format!("{summary}\n{details}"));
    case
}

/// The class of `check`'s test cases (JUnit viewers group by it).
const CHECK_CLASS: &str = "agui-conform.check";

/// `1 error`, `2 errors`: a count with its noun.
fn counted(n: usize, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

/// Writes the JUnit file of a batch (`check A B…`, `check DIR`, JSON
/// Lines of cases): one test case per input, in order.
pub fn write_batch(path: &Path, cases: Vec<TestCase>) -> anyhow::Result<()> {
    let mut suite = TestSuite::new("agui-conform check");
    suite.add_test_cases(cases);
    write(path, &xml(suite)?)
}

/// One line a violation: `#index severity rule: message`.
fn write_violations(out: &mut String, violations: &[Violation]) {
    for v in violations {
        let _ = writeln!(
            out,
            "#{} {} {}: {}",
            v.index,
            v.severity.as_str(),
            v.rule,
            v.message
        );
    }
}

/// A failure or error with its one-line summary and its details.
fn non_success(kind: NonSuccessKind, summary: &str, details: &str) -> TestCaseStatus {
    let mut s = TestCaseStatus::non_success(kind);
    s.set_message(summary.to_owned());
    s.set_description(details.to_owned());
    s
}

/// The document: one suite under the `agui-conform` report.
fn xml(suite: TestSuite) -> anyhow::Result<String> {
    let mut report = Junit::new("agui-conform");
    report.add_test_suite(suite);
    Ok(report.to_string()?)
}

/// Writes the JUnit file of one check.
pub fn write_check(path: &Path, check: &Check<'_>) -> anyhow::Result<()> {
    write(path, &self::check(check)?)
}

/// Writes the JUnit file of a live check (`check --url --junit`): the
/// check's test case, each 307/308 hop followed to the response a
/// `redirect` property and a line of its output.
pub fn write_live_check(path: &Path, check: &Check<'_>, redirects: &[Hop]) -> anyhow::Result<()> {
    let mut case = check_case(check);
    if !redirects.is_empty() {
        let mut out = case
            .system_out
            .as_ref()
            .map(|s| s.to_string())
            .unwrap_or_default();
        for hop in redirects {
            let _ = writeln!(out, "redirected: {hop} (the POST repeated with its body)");
        }
        case.set_system_out(out);
        add_redirects(&mut case, redirects.iter());
    }
    let mut suite = TestSuite::new("agui-conform check");
    suite.add_test_case(case);
    write(path, &xml(suite)?)
}

/// Writes a JUnit file.
fn write(path: &Path, xml: &str) -> anyhow::Result<()> {
    std::fs::write(path, xml).map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

/// Writes a check that could not be made (`why`) as one erroring test
/// case to `path`.
pub fn write_error(path: &Path, name: &str, why: &str) -> anyhow::Result<()> {
    let mut suite = TestSuite::new("agui-conform check");
    suite.add_test_case(error_case(name, why));
    write(path, &xml(suite)?)
}

/// An input that could not be checked (`why`), as an erroring test case.
pub fn error_case(name: &str, why: &str) -> TestCase {
    let mut case = TestCase::new(
        name.to_owned(),
        non_success(
            NonSuccessKind::Error,
            &format!("could not check: {why}"),
            why,
        ),
    );
    case.set_classname(CHECK_CLASS);
    case.set_system_out(format!("could not check: {why}\n"));
    case
}

/// The JUnit XML of a producer-suite run (`run --producer --junit`,
/// `--format junit`): one test case per scenario. FAIL is a failure, ERRORED an error, SKIPPED a
/// skipped case with its reason; the output lists the steps, how each run
/// ended and the violations.
pub fn producer_suite(
    suite: &str,
    url: &str,
    results: &[agui_live::suite::InputResult],
) -> anyhow::Result<String> {
    use agui_live::suite::Score;
    let mut ts = TestSuite::new(format!("agui-conform producer suite {suite}"));
    for r in results {
        let mut out = String::new();
        for st in &r.steps {
            let _ = writeln!(out, "step {} → {}", st.kind, st.outcomes.join("+"));
        }
        for hop in r.redirects() {
            let _ = writeln!(out, "redirected: {hop} (the POST repeated with its body)");
        }
        for run in &r.runs {
            let _ = writeln!(out, "{run}");
        }
        write_violations(&mut out, &r.violations);
        let summary = scenario_summary(r);
        let status = match r.score {
            Score::Pass | Score::Warn => TestCaseStatus::success(),
            Score::Skipped => {
                let mut s = TestCaseStatus::skipped();
                s.set_message(summary.clone());
                s
            }
            Score::Fail | Score::Errored => {
                let kind = if r.score == Score::Fail {
                    NonSuccessKind::Failure
                } else {
                    NonSuccessKind::Error
                };
                non_success(kind, &summary, &out)
            }
        };
        let mut case = TestCase::new(r.id.clone(), status);
        case.set_classname(url.to_owned());
        case.set_time(r.elapsed);
        case.set_system_out(format!("{}: {summary}\n{out}", r.score.as_str()));
        add_redirects(&mut case, r.redirects());
        ts.add_test_case(case);
    }
    xml(ts)
}

/// Each 307/308 hop followed, as a `redirect` property of the test case
/// (`307 URL → URL`): the report names every hop.
pub fn add_redirects<'a>(case: &mut TestCase, hops: impl Iterator<Item = &'a Hop>) {
    for hop in hops {
        case.add_property(Property::new("redirect", hop.to_string()));
    }
}

/// A scenario's one-line summary: why it scored as it did. A FAIL or an
/// ERRORED says what failed (the exchange, a refusal, else its counts and
/// first error), never why a later step was skipped; a SKIPPED says why.
fn scenario_summary(r: &agui_live::suite::InputResult) -> String {
    use agui_live::suite::Score;
    let counts = format!(
        "{}, {} in {}",
        counted(r.count(agui_model::Severity::Error), "error"),
        counted(r.count(agui_model::Severity::Warning), "warning"),
        counted(r.events, "event")
    );
    let first_error = r
        .violations
        .iter()
        .find(|v| v.severity == agui_model::Severity::Error)
        .map(|v| format!("; first: #{} {}: {}", v.index, v.rule, v.message))
        .unwrap_or_default();
    let pick = |order: [&Option<String>; 3]| order.into_iter().flatten().next().cloned();
    match r.score {
        Score::Fail | Score::Errored => pick([&r.failure, &r.refused, &None])
            .unwrap_or_else(|| format!("{counts}{first_error}")),
        Score::Skipped => pick([&r.skipped, &r.refused, &r.failure]).unwrap_or(counts),
        Score::Pass | Score::Warn => counts,
    }
}

/// `run --junit`: one test case per suite case (agui-harness).
pub fn run(run: &RunResult, cases: &[SuiteCase]) -> anyhow::Result<String> {
    junit::render(run, cases)
}

/// `fuzz --junit`: one test case per distinct failure (agui-harness).
pub fn fuzz(c: &Campaign) -> anyhow::Result<String> {
    campaign::junit(c)
}
