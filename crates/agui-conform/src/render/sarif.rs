//! `check --format sarif`: one SARIF 2.1.0 log for GitHub code scanning
//! and other SARIF viewers. The driver lists every rule of the catalogue a
//! stream can violate, each with its description and help embedded from
//! the catalogue (so a viewer needs no link); `helpUri` and
//! `informationUri` only when a docs base URL is configured (`--docs-url`),
//! never a placeholder. Each violation is one result at the event's line
//! of a recorded stream, or at the URL and event index of a live one.
//! Limit notices are tool execution notifications: they say what went
//! unjudged.

use crate::record::Collected;
use agui_live::RunLog;
use agui_live::redirect::Hop;
use agui_model::rules::{Rule, RuleId, Severity};
use agui_model::{LimitNotice, Report, Violation};
use serde_json::{Value, json};
use std::io::{self, Write};

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
        full.push_str(&format!(" {}: \"{q}\"", rule.quote_from().label()));
    }
    let mut d = json!({
        "id": rule.id,
        "name": rule.id,
        "shortDescription": {"text": rule.statement},
        "fullDescription": {"text": full},
        "help": {"text": help_text(rule), "markdown": help_markdown(rule)},
        "defaultConfiguration": {"level": level(rule.severity)},
        "properties": {"area": rule.area, "obligation": rule.obligation.as_str()},
    });
    if agui_model::violation::docs_base().is_some() {
        d["helpUri"] = json!(agui_model::violation::doc_url(rule.id));
    }
    d
}

/// The rule's own help (agui_model::rule_help): what it protects, how to
/// fix it, an example. Every rule a stream can break has one (a test in
/// agui-model says so); the fallback names `explain`.
fn help_of(rule: &Rule) -> (String, String, String) {
    match RuleId::from_id(rule.id).and_then(agui_model::rule_help::help) {
        Some(h) => (h.protects.into(), h.fix.into(), h.example.into()),
        None => (
            String::new(),
            format!("`agui-conform explain {}` shows the rule.", rule.id),
            String::new(),
        ),
    }
}

/// The rule's help as plain text: statement, draft sentence, what it
/// protects, how to fix, an example.
fn help_text(rule: &Rule) -> String {
    let (protects, fix, example) = help_of(rule);
    let mut t = rule.statement.to_owned();
    if let Some(q) = rule.quote {
        t.push_str(&format!("\n\n{}: \"{q}\"", rule.quote_from().label()));
    }
    if !protects.is_empty() {
        t.push_str(&format!("\n\nWhy it matters: {protects}"));
    }
    t.push_str(&format!("\n\nHow to fix: {fix}"));
    if !example.is_empty() {
        t.push_str(&format!("\n\nExample: {example}"));
    }
    t
}

/// The rule's help as Markdown (code scanning shows this one).
fn help_markdown(rule: &Rule) -> String {
    let (protects, fix, example) = help_of(rule);
    let mut t = format!(
        "**`{}`** ({}, {})\n\n{}",
        rule.id,
        rule.area,
        rule.severity.as_str(),
        rule.statement
    );
    if let Some(q) = rule.quote {
        t.push_str(&format!("\n\n> {q}\n>\n> — {}", rule.quote_from().name()));
    }
    if !protects.is_empty() {
        t.push_str(&format!("\n\n**Why it matters.** {protects}"));
    }
    t.push_str(&format!("\n\n**How to fix.** {fix}"));
    if !example.is_empty() {
        t.push_str(&format!("\n\n**Example.** {example}"));
    }
    t
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

/// One SARIF result per violation, pointing into [`rules`] by index.
fn log_results(source: &Source<'_>, violations: &[Violation]) -> Vec<Value> {
    let rules = rules();
    violations
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
        .collect()
}

/// The SARIF log of one check; how each run ended goes in the
/// invocation's properties (`runOutcomes`), a `RUN_ERROR` also as a
/// notification (it breaks no rule, but the producer did not do the work).
fn log(
    source: &Source<'_>,
    violations: &[Violation],
    limits: &[LimitNotice],
    runs: &RunLog,
    coverage: &Value,
) -> Value {
    let rules = rules();
    let results = log_results(source, violations);
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
    // What could not be judged, beside how each run ended.
    let mut properties = json!({"runOutcomes": runs.to_json()});
    if !coverage.is_null() {
        properties["coverage"] = coverage.clone();
    }
    let mut driver = json!({
        "name": "agui-conform",
        "version": env!("CARGO_PKG_VERSION"),
        "rules": rules.into_iter().map(driver_rule).collect::<Vec<_>>(),
    });
    if let Some(base) = agui_model::violation::docs_base() {
        driver["informationUri"] = json!(format!("{base}/check.md"));
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            "invocations": [{
                "executionSuccessful": true,
                "toolExecutionNotifications": notifications,
                "properties": properties,
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
    (runs, coverage): (&RunLog, &Value),
    empty: bool,
) -> Value {
    let source = Source::File { uri: name, lines };
    let mut log = log(&source, &found.violations, &found.limits, runs, coverage);
    if empty {
        no_events(&mut log, name);
    }
    log
}

/// The log of a batch (`check A B…`, `check DIR`, JSON Lines of cases):
/// one run, the driver once, each input's results and notifications in
/// input order (each result at its own file); the invocation's
/// properties list each input's `runOutcomes`, `coverage` and verdict
/// (`files`); an input that could not be read is an error notification,
/// and the invocation then unsuccessful.
pub fn batch_log(inputs: Vec<(String, Result<Value, String>)>) -> Value {
    let mut log = log(
        &Source::File {
            uri: "",
            lines: &[],
        },
        &[],
        &[],
        &RunLog::new(),
        &Value::Null,
    );
    let (mut results, mut notes, mut files) = (Vec::new(), Vec::new(), Vec::new());
    let mut ok = true;
    for (name, one) in inputs {
        match one {
            Ok(mut one) => {
                let run = &mut one["runs"][0];
                if let Some(r) = run["results"].as_array_mut() {
                    results.append(r);
                }
                let inv = &mut run["invocations"][0];
                if let Some(n) = inv["toolExecutionNotifications"].as_array_mut() {
                    notes.append(n);
                }
                let mut entry = json!({"file": name});
                if let Some(p) = inv["properties"].as_object() {
                    for (k, v) in p {
                        entry[k] = v.clone();
                    }
                }
                files.push(entry);
            }
            Err(why) => {
                ok = false;
                notes.push(json!({
                    "level": "error",
                    "message": {"text": why},
                    "descriptor": {"id": "input.unreadable"},
                    "locations": [{"physicalLocation": {"artifactLocation": {"uri": name}}}],
                }));
                files.push(json!({"file": name, "error": why}));
            }
        }
    }
    let run = &mut log["runs"][0];
    run["results"] = Value::Array(results);
    let inv = &mut run["invocations"][0];
    inv["executionSuccessful"] = json!(ok);
    inv["toolExecutionNotifications"] = Value::Array(notes);
    inv["properties"] = json!({"files": files});
    log
}

/// The log of a live check of `url`: every finding is in its report; each
/// 307/308 hop followed to the response a note ([`redirect_note`]) and
/// the invocation's `properties.redirects`.
pub fn url_log(url: &str, report: &Report, runs: &RunLog, redirects: &[Hop]) -> Value {
    let notices = crate::coverage::Notices::of(&report.limits);
    let gaps = crate::coverage::of(crate::coverage::Source::Live, report, &notices);
    let coverage = crate::coverage::to_json(&gaps);
    let mut log = log(
        &Source::Url(url),
        &report.violations,
        &report.limits,
        runs,
        &coverage,
    );
    if !redirects.is_empty() {
        let inv = &mut log["runs"][0]["invocations"][0];
        if let Some(notes) = inv["toolExecutionNotifications"].as_array_mut() {
            notes.extend(redirects.iter().map(|h| redirect_note(url, h, None)));
        }
        inv["properties"]["redirects"] = redirects.iter().map(Hop::to_json).collect();
    }
    log
}

/// A 307/308 hop followed, as a note: it breaks no rule, but the report
/// names every hop (of `scenario`, in a producer-suite run).
fn redirect_note(url: &str, hop: &Hop, scenario: Option<&str>) -> Value {
    let mut note = json!({
        "level": "note",
        "message": {"text": format!("redirected: {hop} (the POST repeated with its body)")},
        "descriptor": {"id": "transport.redirect"},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": url}}}],
        "properties": hop.to_json(),
    });
    if let Some(id) = scenario {
        note["properties"]["scenario"] = json!(id);
        note["locations"][0]["logicalLocations"] = json!([{"name": id, "kind": "function"}]);
    }
    note
}

/// The log of a producer-suite run (`run --producer --sarif`): one run,
/// the driver once, each scenario's violations as results at the URL
/// with the scenario in the logical location (`SCENARIO/events[N]`, the
/// index in its conversation) and in the properties (`scenario`,
/// `score`); a scenario that FAILed or ERRORED without a violation (the
/// exchange failed) is an error notification, a SKIPPED one a note, and
/// the invocation's properties list every scenario's score (and the
/// 307/308 hops followed, each also a note).
pub fn producer_log(suite: &str, url: &str, results: &[agui_live::suite::InputResult]) -> Value {
    use agui_live::suite::Score;
    let mut log = log(&Source::Url(url), &[], &[], &RunLog::new(), &Value::Null);
    let (mut all, mut notes, mut scenarios) = (Vec::new(), Vec::new(), Vec::new());
    for r in results {
        let one = log_results(&Source::Url(url), &r.violations);
        for mut result in one {
            for l in result["locations"].as_array_mut().into_iter().flatten() {
                if let Some(logical) = l["logicalLocations"][0].as_object_mut() {
                    let fq = logical["fullyQualifiedName"].as_str().unwrap_or_default();
                    logical.insert("fullyQualifiedName".into(), json!(format!("{}/{fq}", r.id)));
                }
            }
            result["properties"]["scenario"] = json!(r.id);
            result["properties"]["score"] = json!(r.score.as_str());
            all.push(result);
        }
        let why = [&r.failure, &r.refused, &r.skipped]
            .into_iter()
            .flatten()
            .next();
        let level = match r.score {
            Score::Fail | Score::Errored => Some("error"),
            Score::Skipped => Some("note"),
            Score::Pass | Score::Warn => None,
        };
        if let (Some(level), Some(why)) = (level, why) {
            notes.push(json!({
                "level": level,
                "message": {"text": format!("{} {}: {why}", r.score.as_str(), r.id)},
                "descriptor": {"id": format!("scenario.{}", r.score.as_str().to_lowercase())},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": url}},
                               "logicalLocations": [{"name": r.id, "kind": "function"}]}],
                "properties": {"scenario": r.id, "score": r.score.as_str()},
            }));
        }
        notes.extend(r.redirects().map(|h| redirect_note(url, h, Some(&r.id))));
        let mut scenario = json!({"id": r.id, "score": r.score.as_str(), "events": r.events});
        if r.redirects().next().is_some() {
            scenario["redirects"] = r.redirects().map(Hop::to_json).collect();
        }
        scenarios.push(scenario);
    }
    let run = &mut log["runs"][0];
    run["results"] = Value::Array(all);
    let inv = &mut run["invocations"][0];
    inv["toolExecutionNotifications"] = Value::Array(notes);
    inv["properties"] = json!({"suite": suite, "scenarios": scenarios});
    log
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
    let mut log = log(&Source::Url(url), &[], &[], &RunLog::new(), &Value::Null);
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
    fn each_rule_carries_its_catalogue_text_and_no_link_without_a_base() {
        for r in rules() {
            let rule = r.rule();
            let d = driver_rule(r);
            assert_eq!(d["shortDescription"]["text"], rule.statement);
            let help = d["help"]["text"].as_str().unwrap_or_default();
            assert!(help.starts_with(rule.statement), "{help}");
            if let Some(q) = rule.quote {
                assert!(help.contains(q), "{} lacks its draft sentence", rule.id);
                assert!(
                    d["help"]["markdown"]
                        .as_str()
                        .unwrap_or_default()
                        .contains(q)
                );
            }
            assert!(help.contains("How to fix"), "{help}");
            // No docs base is set in this test binary.
            assert!(d.get("helpUri").is_none(), "{d}");
        }
    }

    #[test]
    fn each_rules_help_is_its_own() {
        // Every rule's help says what it protects, how to fix it and an
        // example, from agui_model::rule_help: no two rules share a fix.
        let mut fixes = std::collections::HashSet::new();
        for r in rules() {
            let d = driver_rule(r);
            let help = d["help"]["text"].as_str().unwrap_or_default();
            let own = agui_model::rule_help::help(r).unwrap();
            assert!(
                help.contains(&format!("Why it matters: {}", own.protects)),
                "{help}"
            );
            assert!(help.contains(&format!("How to fix: {}", own.fix)), "{help}");
            assert!(
                help.contains(&format!("Example: {}", own.example)),
                "{help}"
            );
            let md = d["help"]["markdown"].as_str().unwrap_or_default();
            assert!(md.contains(&format!("**How to fix.** {}", own.fix)), "{md}");
            assert!(fixes.insert(own.fix), "{} shares its fix", r.as_str());
        }
        assert_eq!(fixes.len(), rules().len());
    }
}
