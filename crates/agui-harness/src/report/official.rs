//! The conformance report's official corpus section: each consumer's
//! agreement with the official AG-UI conformance fixtures, suite by suite
//! (`official-1.0`, `official-1.1`, `official-draft`), from the run
//! records of those suites alone (each case line's `official`, written by
//! `score::agreement`). Suite records are told apart from the others by
//! their suite's name ([`is_official_suite`]).

use super::md::{code, text};
use super::merged::{Column, Merged, Notes};
use crate::record::Case;
use std::fmt::Write as _;

/// The prefix of the official suites' names (suites/official-*.toml).
pub const SUITE_PREFIX: &str = "official-";

/// The anchor of the section.
pub const ANCHOR: &str = "official-corpus";

/// Whether a suite is one of the official corpus' suites.
pub fn is_official_suite(suite: &str) -> bool {
    suite.starts_with(SUITE_PREFIX)
}

/// One consumer's agreement on one official suite.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    pub agree: usize,
    pub differ: usize,
    /// Not comparable (the mapping cannot express the fixture), skipped
    /// or errored: judged neither way.
    pub unjudged: usize,
}

impl Tally {
    /// Over the case lines of one record that came from official fixtures.
    pub fn of(cases: &[Case]) -> Tally {
        let mut t = Tally::default();
        for a in cases.iter().filter_map(|c| c.official.as_ref()) {
            match a.agrees {
                Some(true) => t.agree += 1,
                Some(false) => t.differ += 1,
                None => t.unjudged += 1,
            }
        }
        t
    }

    /// `agree 60/61 · 3 not judged` (comparable cases as the denominator).
    pub fn text(&self) -> String {
        let mut t = format!("agree {}/{}", self.agree, self.agree + self.differ);
        if self.differ > 0 {
            t = format!("**{t}**");
        }
        if self.unjudged > 0 {
            let _ = write!(t, " · {} not judged", self.unjudged);
        }
        t
    }
}

/// The official suites the records cover, in name order (1.0, 1.1, draft).
pub fn suites(m: &Merged) -> Vec<&str> {
    let mut s: Vec<&str> = m
        .official
        .iter()
        .map(|c| c.record.header.suite.as_str())
        .collect();
    s.sort_unstable();
    s.dedup();
    s
}

/// The consumers with an official record, in record order.
fn labels(m: &Merged) -> Vec<&str> {
    let mut l: Vec<&str> = Vec::new();
    for c in &m.official {
        if !l.contains(&c.label.as_str()) {
            l.push(&c.label);
        }
    }
    l
}

/// The record of `label` on `suite`, when there is one.
pub fn record_of<'a>(m: &'a Merged, label: &str, suite: &str) -> Option<&'a Column> {
    m.official
        .iter()
        .find(|c| c.label == label && c.record.header.suite == suite)
}

/// The section, when some record ran an official suite: the table of
/// agreement per consumer and suite, then every fixture a consumer differs
/// on (with the note keyed `official:<fixture name>`, if any), then the
/// fixtures judged not comparable.
pub fn section(out: &mut String, m: &Merged, notes: &Notes) {
    let suites = suites(m);
    if suites.is_empty() {
        return;
    }
    let _ = writeln!(out, "<a id=\"{ANCHOR}\"></a>\n## Official corpus\n");
    out.push_str("Each consumer against the official AG-UI conformance fixtures, converted into cases (docs/rules.md \"The official corpus is a suite\"; `run --suite official-1.0|official-1.1|official-draft`). A fixture agrees when the consumer's outcome (accepted: `completed`, rejected: `failed`) is the fixture's and, where the consumer reports a projection, it holds the fixture's; an admitted gap is judged by our rule (agrees unless the score is FAIL). `agree 60/61`: 60 of the 61 comparable fixtures; not judged: the mapping cannot express the fixture (listed below), or the consumer skipped the case or errored on it.\n\n");
    out.push_str("| implementation |");
    for s in &suites {
        let _ = write!(out, " {} |", code(s));
    }
    out.push_str("\n|---|");
    for _ in &suites {
        out.push_str("---|");
    }
    out.push('\n');
    for label in labels(m) {
        let _ = write!(out, "| {} |", text(label));
        for s in &suites {
            match record_of(m, label, s) {
                Some(c) => {
                    let _ = write!(out, " {} |", Tally::of(&c.record.cases).text());
                }
                None => out.push_str(" — |"),
            }
        }
        out.push('\n');
    }
    out.push('\n');
    differing(out, m, notes, &suites);
    not_comparable(out, m, &suites);
}

/// Every fixture a consumer's answer differs from, suite by suite.
fn differing(out: &mut String, m: &Merged, notes: &Notes, suites: &[&str]) {
    let mut any = false;
    for label in labels(m) {
        for s in suites {
            let Some(col) = record_of(m, label, s) else {
                continue;
            };
            let differ: Vec<&Case> = col
                .record
                .cases
                .iter()
                .filter(|c| c.official.as_ref().and_then(|a| a.agrees) == Some(false))
                .collect();
            if differ.is_empty() {
                continue;
            }
            if !any {
                out.push_str("### Where a consumer differs from the official outcome\n\n");
                any = true;
            }
            let _ = writeln!(
                out,
                "**{}, {}** ({} of {} comparable):\n",
                text(label),
                code(s),
                differ.len(),
                Tally::of(&col.record.cases).agree + differ.len()
            );
            for c in differ {
                let Some(a) = &c.official else { continue };
                let mut line = format!(
                    "- {} ({}, {}): answered `{}`, the fixture pins `{}`",
                    code(&a.name),
                    code(&c.id),
                    c.score.as_str(),
                    text(&a.answered),
                    text(&a.outcome)
                );
                // The fixture's outcome is said already.
                if let Some(why) = a
                    .why
                    .as_ref()
                    .filter(|w| !w.starts_with("the fixture expects"))
                {
                    let _ = write!(line, "; {}", text(why));
                }
                out.push_str(&line);
                out.push('\n');
                // A note is the report's own Markdown, as elsewhere.
                if let Some(n) = col.note(notes, &format!("official:{}", a.name)) {
                    let _ = writeln!(out, "  - **Why:** {}", n.replace('\n', " "));
                }
            }
            out.push('\n');
        }
    }
}

/// The fixtures no consumer could be judged on (the mapping cannot
/// express them), once per suite, from whichever record has them.
fn not_comparable(out: &mut String, m: &Merged, suites: &[&str]) {
    let mut lines = Vec::new();
    for s in suites {
        let mut seen: Vec<&str> = Vec::new();
        for col in m.official.iter().filter(|c| c.record.header.suite == *s) {
            for a in col.record.cases.iter().filter_map(|c| c.official.as_ref()) {
                if let Some(why) = &a.not_comparable
                    && !seen.contains(&a.name.as_str())
                {
                    seen.push(&a.name);
                    lines.push(format!("- {}: {} — {}", code(s), code(&a.name), text(why)));
                }
            }
        }
    }
    if lines.is_empty() {
        return;
    }
    out.push_str("### Fixtures not comparable\n\n");
    out.push_str(&lines.join("\n"));
    out.push_str("\n\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Record;
    use serde_json::Value;

    /// A record of `suite` with one case per `(fixture, agrees, not comparable)`.
    fn record(suite: &str, cases: &[(&str, Option<bool>, Option<&str>)]) -> Record {
        let mut lines = vec![format!(
            r#"{{"kind":"header","format":"agui-conform-run-record/2","implementation":{{"name":"impl-x","version":"1","language":"rust","capabilities":["verdict"]}},"suite":"{suite}","catalogue":"docs/rules.md revision 4","agui_conform":"0.1.0","date":"2026-12-06T00:00:00Z","cases":{}}}"#,
            cases.len()
        )];
        for (name, agrees, nc) in cases {
            let score = if *agrees == Some(false) {
                "FAIL"
            } else {
                "PASS"
            };
            let mut official = serde_json::json!({
                "name": name, "version": "1.1", "outcome": "failed",
                "answered": if *agrees == Some(false) { "completed" } else { "failed" },
                "agrees": agrees,
            });
            if let Some(w) = nc {
                official["notComparable"] = Value::from(*w);
            }
            if *agrees == Some(false) {
                // Said again by the line's own words: left out.
                official["why"] = Value::from("the fixture expects `failed`");
            }
            lines.push(
                serde_json::json!({
                    "kind": "case", "id": format!("official/1.1/{name}"), "group": "valid",
                    "expected": {"verdict": "reject", "text": "reject"},
                    "answer": {"verdict": "accept"}, "score": score,
                    "official": official, "elapsed_us": 1,
                })
                .to_string(),
            );
        }
        Record::parse(&lines.join("\n")).unwrap()
    }

    #[test]
    fn the_section_counts_agreement_per_suite_and_lists_what_differs() {
        let a = record(
            "official-1.1",
            &[
                ("one-fatal", Some(true), None),
                ("two-fatal", Some(false), None),
                ("three", None, Some("needs a transport")),
            ],
        );
        let b = record("official-draft", &[("four-fatal", Some(true), None)]);
        let mut m = Merged::new(Vec::new());
        m.official = vec![Column::new("X".into(), b), Column::new("X".into(), a)];
        let mut notes = Notes::new();
        notes.insert(
            "impl-x".into(),
            serde_json::json!({"official:two-fatal": "X does not check it."}),
        );
        let mut out = String::new();
        section(&mut out, &m, &notes);
        // Suites in name order, whatever the records' order.
        assert!(
            out.contains("| implementation | `official-1.1` | `official-draft` |"),
            "{out}"
        );
        // 1 of the 2 comparable agree; the not comparable one is not judged.
        assert!(
            out.contains("| X | **agree 1/2** · 1 not judged | agree 1/1 |"),
            "{out}"
        );
        assert!(
            out.contains("**X, `official-1.1`** (1 of 2 comparable):"),
            "{out}"
        );
        assert!(out.contains(
            "- `two-fatal` (`official/1.1/two-fatal`, FAIL): answered `completed`, the fixture pins `failed`\n"
        ), "{out}");
        assert!(out.contains("  - **Why:** X does not check it."), "{out}");
        assert!(
            out.contains("- `official-1.1`: `three` — needs a transport"),
            "{out}"
        );
        assert!(
            !out.contains("one-fatal"),
            "an agreeing fixture is not listed: {out}"
        );
    }

    #[test]
    fn no_official_record_no_section() {
        let mut out = String::new();
        section(&mut out, &Merged::new(Vec::new()), &Notes::new());
        assert!(out.is_empty());
        assert!(is_official_suite("official-draft"));
        assert!(!is_official_suite("default"));
    }
}
