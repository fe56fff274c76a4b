//! The producers' notes (adapters/producers/notes.json) agree with the
//! findings they sit under in docs/conformance/producers.md: a note that
//! says a rule is not reported (or that no rule judges it) while that
//! producer's findings report the rule is stale, and a note that says a
//! rule's finding was checked by hand names a rule that is among them. The
//! page is rendered from the run records and these notes by
//! scripts/producers-report.sh, so its findings are what the records
//! report.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Words saying the checker does not report a rule.
const DENIALS: &[&str] = &[
    "does not report",
    "doesn't report",
    "not reported",
    "not report",
    "does not check",
    "not checked",
    "not judged",
];

/// The catalogue's rule ids a piece of text names in backticks.
fn rule_ids(text: &str) -> BTreeSet<&'static str> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter_map(agui_model::RuleId::from_id)
        .map(agui_model::RuleId::as_str)
        .collect()
}

/// The claims of `notes` (one producer's) that its `findings` (rule ids)
/// contradict, each as `rule: the sentence`.
fn contradicted(notes: &[String], findings: &BTreeSet<String>) -> Vec<String> {
    let mut out = Vec::new();
    for note in notes {
        // A sentence ends with a dot and a space (a rule id holds a dot).
        let note = note.replace(". ", "\n");
        for sentence in note.lines() {
            // A denial and the rule it names stand in one clause.
            for clause in sentence.split([';', '(', ')']) {
                let lower = clause.to_lowercase();
                if DENIALS.iter().any(|d| lower.contains(d)) {
                    for rule in rule_ids(clause)
                        .into_iter()
                        .filter(|r| findings.contains(*r))
                    {
                        out.push(format!(
                            "{rule}: says it is not reported, but it is: {}",
                            clause.trim()
                        ));
                    }
                }
            }
            // `rule` (checked by hand …): what follows describes its finding.
            if let Some((head, _)) = sentence.split_once(':')
                && head.to_lowercase().contains("checked by hand")
            {
                for rule in rule_ids(head)
                    .into_iter()
                    .filter(|r| !findings.contains(*r))
                {
                    out.push(format!(
                        "{rule}: a finding checked by hand that is not among the findings: {}",
                        head.trim()
                    ));
                }
            }
        }
    }
    out
}

/// Each producer section of the page (`<a id="producer-NAME">`) and the
/// rule ids of its findings (`- **`rule`** (severity) …`).
fn findings(page: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in page.lines() {
        if let Some(rest) = line.strip_prefix("<a id=\"producer-") {
            let name = rest.split('"').next().unwrap_or_default().to_owned();
            out.entry(name.clone()).or_default();
            current = Some(name);
        } else if let (Some(name), Some(rest)) = (&current, line.strip_prefix("- **`"))
            && let Some(rule) = rest.split('`').next()
        {
            out.entry(name.clone()).or_default().insert(rule.to_owned());
        }
    }
    out
}

fn notes_of(entry: &Value) -> Vec<String> {
    let mut notes: Vec<String> = entry["notes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect();
    if let Some(n) = entry["not_covered"].as_str() {
        notes.push(n.to_owned());
    }
    notes
}

#[test]
fn a_note_denying_a_reported_rule_is_caught() {
    let reported: BTreeSet<String> = ["tool.result-before-end".to_owned()].into();
    // The langroid note as it once read, under findings of that rule.
    let stale = vec![
        "A backend tool's `TOOL_CALL_RESULT` comes before the call's `TOOL_CALL_END` (the catalogue's next revision makes this a consistency warning, `tool.result-before-end`, which this checker does not report yet).".to_owned(),
    ];
    let found = contradicted(&stale, &reported);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("tool.result-before-end: says it is not reported"));
    // The same note is no contradiction where the rule is not reported.
    assert!(contradicted(&stale, &BTreeSet::new()).is_empty());
    // A finding said to be checked by hand must be a finding.
    let by_hand =
        vec!["`messages.snapshot-disagrees` (checked by hand in the `tool` capture): …".to_owned()];
    assert_eq!(contradicted(&by_hand, &reported).len(), 1);
    let both: BTreeSet<String> = ["messages.snapshot-disagrees".to_owned()].into();
    assert!(contradicted(&by_hand, &both).is_empty());
}

#[test]
fn every_producer_note_agrees_with_the_findings_it_sits_under() {
    let root = repo_root();
    let notes: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("adapters/producers/notes.json")).unwrap(),
    )
    .unwrap();
    let page = std::fs::read_to_string(root.join("docs/conformance/producers.md")).unwrap();
    let sections = findings(&page);
    let mut problems = Vec::new();
    for (name, entry) in notes.as_object().unwrap() {
        // A producer with notes but no section has not been run yet.
        let Some(found) = sections.get(name) else {
            continue;
        };
        for p in contradicted(&notes_of(entry), found) {
            problems.push(format!("{name}: {p}"));
        }
    }
    assert!(
        sections.contains_key("langroid"),
        "no producer section read"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
