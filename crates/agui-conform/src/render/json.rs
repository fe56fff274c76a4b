//! The machine forms: `check`'s JSON report (its findings streamed by
//! [`JsonStream`] as they are found, finished here), the lines of a batch
//! and of a check that could not be made, and the JSON of `run`,
//! `run --producer` and `fuzz` (made by agui-harness and agui-live, called
//! from here so each format has one place).

use crate::no_events;
use crate::record::{Groups, Summary};
use agui_harness::CaseResult;
use agui_harness::RunResult;
use agui_harness::campaign::{Campaign, summary as campaign};
use agui_harness::report::json;
use agui_harness::suite::SuiteCase;
use agui_live::RunLog;
use agui_live::redirect::Hop;
use agui_live::suite::{self, InputResult};
use agui_model::{Finding, JsonStream, Report};
use serde_json::{Value, json};
use std::io::{self, Write};

/// `check`'s JSON report being written (to stdout or to `--json PATH`):
/// the findings streamed by [`JsonStream`], and with `--group` the
/// violations counted per rule for its `groups` member.
pub struct JsonReport<W: Write> {
    pub stream: JsonStream<W>,
    groups: Option<Groups>,
    /// `coverage` (crate::coverage), set before the end.
    coverage: Value,
}

impl<W: Write> JsonReport<W> {
    pub fn new(stream: JsonStream<W>, group: bool) -> Self {
        JsonReport {
            stream,
            groups: group.then(Groups::default),
            coverage: Value::Null,
        }
    }

    /// What the check could not judge.
    pub fn set_coverage(&mut self, coverage: &crate::coverage::Coverage) {
        self.coverage = crate::coverage::to_json(coverage);
    }

    pub fn finding(&mut self, f: Finding<'_>) {
        if let (Some(g), Finding::Violation(v)) = (&mut self.groups, f) {
            g.push(v);
        }
        self.stream.finding(f);
    }

    /// Ends the object ([`finish`]), with `groups` under `--group`.
    pub fn finish(self, report: &Report, runs: &RunLog, projection: bool) -> io::Result<()> {
        finish(
            self.stream,
            report,
            runs,
            projection,
            (self.groups.as_ref(), &self.coverage),
        )
    }
}

/// Ends `check --format json`'s object: the counts, how each run ended
/// (`runs`), the reason of an input that held no events, what could not
/// be judged (`coverage`), the per-rule `groups` (`--group`), the
/// projection when `projection`; then a newline, flushed.
fn finish<W: Write>(
    stream: JsonStream<W>,
    report: &Report,
    runs: &RunLog,
    projection: bool,
    (groups, coverage): (Option<&Groups>, &Value),
) -> io::Result<()> {
    let reason = Value::from(no_events::MESSAGE);
    let runs_json = runs.to_json();
    let groups_json = groups.map(Groups::to_json);
    let mut extra: Vec<(&str, &Value)> = vec![("runs", &runs_json)];
    if no_events::holds_none(report) {
        extra.push(("reason", &reason));
    }
    if !coverage.is_null() {
        extra.push(("coverage", coverage));
    }
    if let Some(g) = &groups_json {
        extra.push(("groups", g));
    }
    stream
        .finish_with(report, projection, &extra)
        .and_then(|mut out| writeln!(out).and_then(|()| out.flush()))
}

/// The machine form of `report` (with how each run ended, the per-rule
/// `groups` when `group`, each 307/308 hop followed to the response as
/// `redirects`) and a newline, buffered (`check --url`).
pub fn write_report(
    out: impl Write,
    report: &Report,
    runs: &RunLog,
    group: bool,
    redirects: &[Hop],
) -> io::Result<()> {
    let w = io::BufWriter::with_capacity(1 << 16, out);
    let mut stream = JsonStream::new(w, None);
    for v in &report.violations {
        stream.finding(Finding::Violation(v));
    }
    for n in &report.limits {
        stream.finding(Finding::Limit(n));
    }
    if let Some(p) = &report.projection {
        for run in &p.runs {
            stream.run(run);
        }
    }
    let runs_json = runs.to_json();
    let groups_json = group.then(|| Groups::of(&report.violations).to_json());
    let notices = crate::coverage::Notices::of(&report.limits);
    let coverage = crate::coverage::to_json(&crate::coverage::of(
        crate::coverage::Source::Live,
        report,
        &notices,
    ));
    let mut extra: Vec<(&str, &Value)> = vec![("runs", &runs_json), ("coverage", &coverage)];
    if let Some(g) = &groups_json {
        extra.push(("groups", g));
    }
    let hops: Value = redirects.iter().map(Hop::to_json).collect();
    if !redirects.is_empty() {
        extra.push(("redirects", &hops));
    }
    let mut w = stream.finish_with(report, report.projection.is_some(), &extra)?;
    writeln!(w)?;
    w.flush()
}

/// An input that could not be checked: `{"file": NAME, "error": WHY}`
/// (`key` `url` for a live producer).
pub fn error_line(out: &mut impl Write, key: &str, name: &str, why: &str) -> io::Result<()> {
    let mut line = serde_json::Map::new();
    line.insert(key.to_owned(), json!(name));
    line.insert("error".to_owned(), json!(why));
    writeln!(out, "{}", Value::Object(line))
}

/// The last line of a batch: `{"summary": {…, "perFile": […]}}`.
pub fn batch_summary(out: &mut impl Write, summary: &Summary, labels: &[String]) -> io::Result<()> {
    let per_file: Vec<Value> = labels
        .iter()
        .zip(&summary.verdicts)
        .map(|(f, v)| {
            let mut v = v.clone();
            v["file"] = json!(f);
            v
        })
        .collect();
    writeln!(
        out,
        "{}",
        json!({"summary": {
            "files": labels.len(),
            "accept": summary.accept,
            "reject": summary.reject,
            "inconclusive": summary.inconclusive,
            "unreadable": summary.unreadable,
            "events": summary.events,
            "violations": summary.violations,
            "exit": summary.exit,
            "perFile": per_file,
        }})
    )
}

/// One settled case of `run --format json`.
pub fn run_case(r: &CaseResult, c: &SuiteCase) -> Value {
    json::case_line(r, c)
}

/// The last line of `run --format json`.
pub fn run_summary(run: &RunResult, cases: &[SuiteCase]) -> Value {
    json::summary_line(run, cases)
}

/// One scenario of `run --producer --format json`.
pub fn producer_scenario(r: &InputResult) -> Value {
    suite::json_line(r)
}

/// The last line of `run --producer --format json`.
pub fn producer_summary(suite: &str, url: &str, results: &[InputResult]) -> Value {
    suite::summary_line(suite, url, results)
}

/// `fuzz --format json`: the campaign's summary.
pub fn fuzz(c: &Campaign) -> Value {
    campaign::json(c)
}
