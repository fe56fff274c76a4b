//! The machine forms: `check`'s JSON report (its findings streamed by
//! [`JsonStream`] as they are found, finished here), the lines of a batch
//! and of a check that could not be made, and the JSON of `run`,
//! `run --producer` and `fuzz` (made by agui-harness and agui-live, called
//! from here so each format has one place).

use crate::no_events;
use crate::record::Summary;
use agui_harness::CaseResult;
use agui_harness::RunResult;
use agui_harness::campaign::{Campaign, summary as campaign};
use agui_harness::report::json;
use agui_harness::suite::SuiteCase;
use agui_live::RunLog;
use agui_live::suite::{self, InputResult};
use agui_model::{Finding, JsonStream, Report};
use serde_json::{Value, json};
use std::io::{self, Write};

/// Ends `check --format json`'s object: the counts, how each run ended
/// (`runs`), the reason of an input that held no events, the projection
/// when `projection`; then a newline. Returns the writer, flushed.
pub fn finish<W: Write>(
    stream: JsonStream<W>,
    report: &Report,
    runs: &RunLog,
    projection: bool,
) -> io::Result<()> {
    let reason = Value::from(no_events::MESSAGE);
    let runs_json = runs.to_json();
    let mut extra: Vec<(&str, &Value)> = vec![("runs", &runs_json)];
    if no_events::holds_none(report) {
        extra.push(("reason", &reason));
    }
    stream
        .finish_with(report, projection, &extra)
        .and_then(|mut out| writeln!(out).and_then(|()| out.flush()))
}

/// The machine form of `report` (with how each run ended) and a newline,
/// buffered (`check --url`).
pub fn write_report(out: impl Write, report: &Report, runs: &RunLog) -> io::Result<()> {
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
    let mut w = stream.finish_with(
        report,
        report.projection.is_some(),
        &[("runs", &runs.to_json())],
    )?;
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
