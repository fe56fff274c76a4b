//! `check --format sarif`: one SARIF 2.1.0 log for GitHub code scanning
//! and other SARIF viewers. The driver lists every rule of the catalogue a
//! stream can violate; each violation is one result at the event's line of
//! a recorded stream, or at the URL and event index of a live one. Limit
//! notices are tool execution notifications: they say what went unjudged.

use crate::record::Collected;
use agui_live::RunLog;
use agui_model::rules::{RuleId, Severity};
use agui_model::{LimitNotice, Report, Violation};
use serde_json::{Value, json};
use std::io::{self, Write};

/// Where the page of the rule catalogue lives.
const RULES_DOC: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "/blob/main/docs/rules.md");

/// Where the stream came from.
enum Source<'a> {
    /// A file, with the line of each event where known (index → line).
    File { uri: &'a str, lines: &'a [usize] },
    /// A live producer.
    Url(&'a str),
}

/// The rules a stream can violate, in catalogue order: SARIF's
/// `tool.driver.rules`, which results point into by `ruleIndex`.
fn rules() -> Vec<RuleId> {
    RuleId::ALL
        .iter()
        .copied()
        .filter(|r| r.rule().is_violation())
        .collect()
}

/// The docs/rules.md section of an area (GitHub's heading anchors).
fn anchor(area: &str) -> &'static str {
    agui_model::violation::doc_anchor(area)
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::None => "none",
    }
}

fn driver_rule(r: RuleId) -> Value {
    let rule = r.rule();
    let mut full = rule.statement.to_owned();
    if let Some(q) = rule.quote {
        full.push_str(&format!(" Draft: \"{q}\""));
    }
    json!({
        "id": rule.id,
        "name": rule.id,
        "shortDescription": {"text": rule.statement},
        "fullDescription": {"text": full},
        "helpUri": format!("{RULES_DOC}#{}", anchor(rule.area)),
        "defaultConfiguration": {"level": level(rule.severity)},
        "properties": {"area": rule.area, "obligation": rule.obligation.as_str()},
    })
}

/// A location: the event's line in a file, or the URL and event index.
fn location(source: &Source<'_>, index: usize) -> Value {
    let logical = json!([{
        "name": format!("event {index}"),
        "fullyQualifiedName": format!("events[{index}]"),
        "kind": "element",
    }]);
    match source {
        Source::File { uri, lines } => {
            let mut physical = json!({"artifactLocation": {"uri": uri}});
            // Past the last event (end of input): the last event's line.
            let line = lines.get(index).or(lines.last()).copied();
            if let Some(line) = line {
                physical["region"] = json!({"startLine": line});
            }
            json!({"physicalLocation": physical, "logicalLocations": logical})
        }
        Source::Url(url) => json!({
            "physicalLocation": {"artifactLocation": {"uri": url}},
            "logicalLocations": logical,
        }),
    }
}

/// The SARIF log of one check; how each run ended goes in the
/// invocation's properties (`runOutcomes`), a `RUN_ERROR` also as a
/// notification (it breaks no rule, but the producer did not do the work).
fn log(
    source: &Source<'_>,
    violations: &[Violation],
    limits: &[LimitNotice],
    runs: &RunLog,
) -> Value {
    let rules = rules();
    let results: Vec<Value> = violations
        .iter()
        .map(|v| {
            let mut r = json!({
                "ruleId": v.rule.as_str(),
                "level": level(v.severity),
                "message": {"text": v.message},
                "locations": [location(source, v.index)],
                "properties": {"eventIndex": v.index},
            });
            if let Some(i) = rules.iter().position(|r| *r == v.rule) {
                r["ruleIndex"] = json!(i);
            }
            if let Some(p) = &v.path {
                r["properties"]["path"] = json!(p);
                r["properties"]["pointer"] = json!(agui_model::violation::pointer(p));
            }
            if let Some(at) = v.related {
                let mut related = location(source, at);
                related["id"] = json!(1);
                related["message"] = json!({"text": format!("related event {at}")});
                r["relatedLocations"] = json!([related]);
                r["properties"]["relatedIndex"] = json!(at);
            }
            r
        })
        .collect();
    let mut notifications: Vec<Value> = limits
        .iter()
        .map(|n| {
            json!({
                "level": "warning",
                "message": {"text": n.message},
                "descriptor": {"id": format!("limit.{}", n.kind.as_str())},
                "locations": [location(source, n.index)],
                "properties": {"eventIndex": n.index, "limit": n.limit},
            })
        })
        .collect();
    notifications.extend(runs.errors().map(|r| {
        json!({
            "level": "note",
            "message": {"text": r.to_string()},
            "descriptor": {"id": "run.errored"},
            "locations": [location(source, r.end)],
            "properties": {"eventIndex": r.end},
        })
    }));
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "agui-conform",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": env!("CARGO_PKG_REPOSITORY"),
                "rules": rules.into_iter().map(driver_rule).collect::<Vec<_>>(),
            }},
            "invocations": [{
                "executionSuccessful": true,
                "toolExecutionNotifications": notifications,
                "properties": {"runOutcomes": runs.to_json()},
            }],
            "results": results,
        }],
    })
}

/// The log of a check of the file (or standard input) `name`: the lines
/// of its events where known (index → line), what was found, how each
/// run ended; `empty` when the input held no events.
pub fn file_log(
    name: &str,
    lines: &[usize],
    found: &Collected,
    runs: &RunLog,
    empty: bool,
) -> Value {
    let source = Source::File { uri: name, lines };
    let mut log = log(&source, &found.violations, &found.limits, runs);
    if empty {
        no_events(&mut log, name);
    }
    log
}

/// The log of a live check of `url`: every finding is in its report.
pub fn url_log(url: &str, report: &Report, runs: &RunLog) -> Value {
    log(&Source::Url(url), &report.violations, &report.limits, runs)
}

/// An input that held no events: nothing was judged, which the log says
/// as a notification (no result is not "clean"); the verdict,
/// `inconclusive`, in the invocation's properties.
fn no_events(log: &mut Value, uri: &str) {
    let invocation = &mut log["runs"][0]["invocations"][0];
    invocation["properties"]["verdict"] = json!("inconclusive");
    if let Some(n) = invocation["toolExecutionNotifications"].as_array_mut() {
        n.push(json!({
            "level": "warning",
            "message": {"text": crate::no_events::MESSAGE},
            "descriptor": {"id": "input.no-events"},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri}}}],
        }));
    }
}

/// The log of a check of `url` that could not be made (`why`): no result,
/// the invocation unsuccessful with an error notification saying why.
pub fn cant_check(url: &str, why: &str) -> Value {
    let mut log = log(&Source::Url(url), &[], &[], &RunLog::new());
    let invocation = &mut log["runs"][0]["invocations"][0];
    invocation["executionSuccessful"] = json!(false);
    invocation["toolExecutionNotifications"] = json!([{
        "level": "error",
        "message": {"text": why},
        "descriptor": {"id": "check.failed"},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": url}}}],
    }]);
    log
}

/// Writes the log, one line of JSON.
pub fn write(mut out: impl Write, log: &Value) -> io::Result<()> {
    // Out: a kept number or surrogate (an interrupt id of a run outcome)
    // prints as the input wrote it.
    serde_json::to_writer(&mut out, &agui_model::json::Out(log))?;
    writeln!(out)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_name_headings_of_the_rules_page() {
        // GitHub's anchor of each heading: lowercase, punctuation dropped,
        // spaces as dashes.
        let page = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules.md"),
        )
        .unwrap();
        let anchors: Vec<String> = page
            .lines()
            .filter_map(|l| {
                l.strip_prefix("### ")
                    .or(l.strip_prefix("## "))
                    .or(l.strip_prefix("# "))
            })
            .map(|h| {
                h.to_lowercase()
                    .chars()
                    .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-')
                    .map(|c| if c == ' ' { '-' } else { c })
                    .collect()
            })
            .collect();
        for r in rules() {
            let a = anchor(r.rule().area);
            assert!(anchors.iter().any(|x| x == a), "{a} for {r}");
        }
    }
}
