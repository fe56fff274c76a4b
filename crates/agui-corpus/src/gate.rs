//! Gate checks over a whole loaded corpus: coverage of the catalogue, the
//! case schema, schema-valid events, ids. Each returns the problems it
//! found, empty when the gate passes.

use crate::case::{Case, read_lines};
use crate::case_schema;
use crate::load::{Corpus, LoadedCase, ProblemKind};
use agui_model::RuleId;
use agui_model::stream::Item;
use agui_model::wire::{SUBAGENT_RUN_ID, key};
use serde_json::Value;
use std::collections::BTreeSet;

/// Distinct subagent ids a case's events use, and whether any event names a
/// `parentSubagentRunId`: what makes a case "interleaved with nesting".
pub fn interleaving(case: &Case) -> (usize, bool) {
    let values = case.values();
    let mut ids = BTreeSet::new();
    let mut nested = false;
    for e in values.iter() {
        walk(e, &mut ids, &mut nested);
    }
    (ids.len(), nested)
}

/// `SUBAGENT_STARTED.parentSubagentRunId`, from the wire table.
const PARENT_SUBAGENT_RUN_ID: &str = key::SubagentStarted::parent_subagent_run_id;

fn walk<'a>(v: &'a Value, ids: &mut BTreeSet<&'a str>, nested: &mut bool) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match x {
                    Value::String(s) if k == SUBAGENT_RUN_ID => {
                        ids.insert(s);
                    }
                    Value::String(_) if k == PARENT_SUBAGENT_RUN_ID => *nested = true,
                    _ => walk(x, ids, nested),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| walk(x, ids, nested)),
        _ => {}
    }
}

/// True when a case's stream interleaves three or more invocations with nesting.
pub fn is_interleaved(case: &Case) -> bool {
    let (ids, nested) = interleaving(case);
    ids >= 3 && nested
}

/// Every catalogue violation rule has at least two cases expecting it, one
/// of them interleaved ([`is_interleaved`]); every `accept.*` obligation has
/// at least one case with a projection.
pub fn every_rule_has_cases(cases: &[LoadedCase]) -> Vec<String> {
    let mut out = Vec::new();
    for rule in RuleId::violations() {
        let mine: Vec<&Case> = cases
            .iter()
            .map(|c| &c.case)
            .filter(|c| c.expect.rule == Some(rule))
            .collect();
        if mine.len() < 2 {
            out.push(format!(
                "rule `{rule}` has {} case(s); at least 2 are needed",
                mine.len()
            ));
        }
        if !mine.iter().any(|c| is_interleaved(c)) {
            out.push(format!(
                "rule `{rule}` has no interleaved case (≥3 distinct subagentRunIds and a parentSubagentRunId)"
            ));
        }
    }
    for ob in RuleId::obligations() {
        let n = cases
            .iter()
            .filter(|c| c.case.obligation == Some(ob) && c.case.projection.is_some())
            .count();
        if n == 0 {
            out.push(format!("obligation `{ob}` has no case with a projection"));
        }
    }
    out
}

/// Every file that parsed as JSON validates against `case.schema.json`.
pub fn schema(corpus: &Corpus) -> Vec<String> {
    let mut out = Vec::new();
    for (path, raw) in &corpus.raw {
        match case_schema::validate(raw) {
            Ok(errors) => {
                for e in errors {
                    let at = if e.instance_path.is_empty() {
                        "/".to_string()
                    } else {
                        e.instance_path
                    };
                    out.push(format!("{}: at {at}: {}", path.display(), e.message));
                }
            }
            Err(broken) => return vec![broken],
        }
    }
    out
}

/// Whether a rule belongs to the schema area of the catalogue (the rules
/// checked per event on its shape).
pub fn is_schema_rule(rule: RuleId) -> bool {
    rule.rule().area == "schema"
}

/// Every event is schema-valid, except, in a case whose expected rule is a
/// schema rule, the event at the expected index, and any schema fault the
/// case states in its `violations` at that event (revision 4: an unknown
/// event type or member is a fault a consumer must accept, so valid streams
/// with several of them are cases too). A `lines` case is read with the
/// checker's reader: a line that is not JSON is a fault; the parse warnings
/// (`schema.duplicate-key`, `schema.lone-surrogate`) are not judged here
/// but by the case's own expectation.
pub fn events_schema_valid(cases: &[LoadedCase]) -> Vec<String> {
    let mut out = Vec::new();
    // An official fixture's stream is a fact: its schema faults are stated
    // in its `violations`, wherever they are.
    for c in cases.iter().filter(|c| c.case.official.is_none()) {
        let exempt = match c.case.expect.rule {
            Some(r) if is_schema_rule(r) => c.case.expect.index,
            _ => None,
        };
        let stated: Vec<(usize, RuleId)> = c
            .case
            .violations
            .iter()
            .flatten()
            .filter(|s| is_schema_rule(s.rule))
            .map(|s| (s.index, s.rule))
            .collect();
        let items: Vec<Result<Value, String>> = match &c.case.lines {
            None => c.case.events.iter().cloned().map(Ok).collect(),
            Some(lines) => read_lines(lines)
                .into_iter()
                .map(|item| match item {
                    Item::Value { value, .. } => Ok(value),
                    Item::Unparseable { reason, .. } => Err(reason),
                    Item::OverLimit { reason, .. } => Err(reason),
                })
                .collect(),
        };
        for (i, e) in items.iter().enumerate() {
            if Some(i) == exempt {
                continue;
            }
            let e = match e {
                Ok(e) => e,
                Err(reason) => {
                    out.push(format!(
                        "{}: event {i}: not JSON: {reason} (schema.not-json)",
                        c.path.display()
                    ));
                    continue;
                }
            };
            for issue in agui_model::schema::validate(e) {
                if stated.contains(&(i, issue.rule)) {
                    continue;
                }
                let at = if issue.path.is_empty() {
                    String::new()
                } else {
                    format!(" at `{}`", issue.path)
                };
                out.push(format!(
                    "{}: event {i}{at}: {} ({})",
                    c.path.display(),
                    issue.message,
                    issue.rule
                ));
            }
        }
    }
    out
}

/// Case ids are unique and match their paths (the loader's `Id` problems).
pub fn ids(corpus: &Corpus) -> Vec<String> {
    corpus
        .malformed
        .iter()
        .filter(|p| p.kind == ProblemKind::Id)
        .map(|p| p.to_string())
        .collect()
}

/// The folders of the golden corpus beside the catalogue's areas: `gen`,
/// the generated cases, and `official`, the cases converted from the
/// official AG-UI fixtures (`corpus/official/`).
const OTHER_FOLDERS: [&str; 2] = ["gen", "official"];

/// The areas a golden case's id may start with: the catalogue's areas
/// (docs/rules.md sections, read from the catalogue so a new area needs no
/// edit here), then [`OTHER_FOLDERS`].
pub fn corpus_areas() -> Vec<&'static str> {
    let mut out = agui_model::rules::areas(|_| true);
    out.extend(OTHER_FOLDERS);
    out
}

/// Golden corpus only: every id starts with one of [`corpus_areas`].
pub fn areas(cases: &[LoadedCase]) -> Vec<String> {
    let known = corpus_areas();
    cases
        .iter()
        .filter(|c| {
            let area = c.case.id.split('/').next().unwrap_or("");
            !known.contains(&area)
        })
        .map(|c| {
            format!(
                "{}: id `{}` is in no area of the golden corpus ({})",
                c.path.display(),
                c.case.id,
                known.join(", ")
            )
        })
        .collect()
}

/// Collapses runs of whitespace to one space (the draft wraps its lines).
fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every case's `spec` occurs verbatim (up to line wrapping) in one of the
/// given texts: the recorded quotes ([`QUOTES_FILE`]), or the spec texts
/// themselves (the catalogue and the draft).
pub fn spec_quotes(cases: &[LoadedCase], spec_texts: &[String]) -> Vec<String> {
    let haystack: Vec<String> = spec_texts.iter().map(|t| squash(t)).collect();
    cases
        .iter()
        // An official case cites its fixture, not a sentence of ours.
        .filter(|c| c.case.official.is_none())
        .filter(|c| {
            let q = squash(&c.case.spec);
            !haystack.iter().any(|h| h.contains(&q))
        })
        .map(|c| {
            format!(
                "{}: `spec` is not quoted verbatim from the spec: {:?}",
                c.path.display(),
                c.case.spec
            )
        })
        .collect()
}

/// The spec texts a case may quote, read from a directory holding
/// the catalogue's source file `RULES.md` and `subagents-draft.txt` (the
/// spec directory `corpus check --spec DIR` is given).
pub fn read_spec_texts(dir: &std::path::Path) -> std::io::Result<Vec<String>> {
    SOURCE_FILES
        .iter()
        .map(|(_, f)| std::fs::read_to_string(dir.join(f)))
        .collect()
}

/// The file, beside the cases, that records every sentence the corpus
/// quotes, so that the quote gate runs on any clone (the spec texts are not
/// part of the repository).
pub const QUOTES_FILE: &str = "spec-quotes.md";

/// The sources a recorded quote names (its `## ` heading) and the file of
/// the spec directory holding each, in [`read_spec_texts`] order.
pub const SOURCE_FILES: [(&str, &str); 2] =
    [("catalogue", "RULES.md"), ("draft", "subagents-draft.txt")];

/// One recorded quote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quote {
    /// `catalogue` or `draft`.
    pub source: String,
    /// The sentence, its lines joined with spaces.
    pub text: String,
    /// 1-based line of the file where it starts.
    pub line: usize,
}

/// Reads [`QUOTES_FILE`]: under a `## catalogue` or `## draft` heading,
/// each blockquote (lines starting with `>`) is one quote; other lines are
/// commentary.
pub fn parse_quotes(text: &str) -> Result<Vec<Quote>, String> {
    let mut quotes: Vec<Quote> = Vec::new();
    let mut source: Option<&str> = None;
    let mut open = false;
    for (i, line) in text.lines().enumerate() {
        if let Some(h) = line.strip_prefix("## ") {
            let h = h.trim();
            source = Some(
                SOURCE_FILES
                    .iter()
                    .map(|(s, _)| *s)
                    .find(|s| *s == h)
                    .ok_or_else(|| {
                        format!("line {}: unknown source `{h}` (catalogue or draft)", i + 1)
                    })?,
            );
            open = false;
        } else if let Some(rest) = line.strip_prefix('>') {
            let Some(src) = source else {
                return Err(format!("line {}: a quote before any `## ` source", i + 1));
            };
            let rest = rest.strip_prefix(' ').unwrap_or(rest);
            match quotes.last_mut() {
                Some(q) if open => {
                    q.text.push(' ');
                    q.text.push_str(rest);
                }
                _ => quotes.push(Quote {
                    source: src.to_string(),
                    text: rest.to_string(),
                    line: i + 1,
                }),
            }
            open = true;
        } else {
            open = false;
        }
    }
    Ok(quotes)
}

/// Every recorded quote occurs verbatim (up to line wrapping) in the spec
/// text of its source (`texts` in [`SOURCE_FILES`] order), and some case
/// quotes it (the record holds what the corpus cites, nothing else).
pub fn quotes_verbatim(quotes: &[Quote], texts: &[String], cases: &[LoadedCase]) -> Vec<String> {
    let sources: Vec<String> = texts.iter().map(|t| squash(t)).collect();
    let cited: Vec<String> = cases.iter().map(|c| squash(&c.case.spec)).collect();
    let mut out = Vec::new();
    for q in quotes {
        let text = squash(&q.text);
        let i = SOURCE_FILES
            .iter()
            .position(|(s, _)| *s == q.source)
            .unwrap_or(0);
        if !sources.get(i).is_some_and(|t| t.contains(&text)) {
            out.push(format!(
                "{QUOTES_FILE} line {}: not in {} verbatim: {:?}",
                q.line, SOURCE_FILES[i].1, q.text
            ));
        }
        if !cited.iter().any(|c| text.contains(c.as_str())) {
            out.push(format!(
                "{QUOTES_FILE} line {}: no case quotes it: {:?}",
                q.line, q.text
            ));
        }
    }
    out
}

/// Every case converted from an official fixture gives a consumer the
/// answer the fixture pins (docs/rules.md revision 4, "The official corpus
/// is a suite"): its stated violations hold a must-reject one exactly when
/// the fixture's outcome is `failed` (admitted gaps and not-comparable
/// fixtures excepted). A difference is resolved by the official text, in
/// the catalogue, never by editing the case to fit.
pub fn official_outcomes(cases: &[LoadedCase]) -> Vec<String> {
    cases
        .iter()
        .filter_map(|c| {
            crate::official::outcome_disagreement(&c.case)
                .map(|why| format!("{}: {why}", c.path.display()))
        })
        .collect()
}

#[cfg(test)]
mod area_tests {
    use super::*;

    fn case(id: &str) -> LoadedCase {
        let case: Case = serde_json::from_value(serde_json::json!({
            "id": id, "description": "d", "spec": "s", "events": [],
            "expect": {"verdict": "accept"}
        }))
        .expect("a case");
        LoadedCase {
            rel: format!("{id}.json").into(),
            path: format!("corpus/{id}.json").into(),
            case,
        }
    }

    #[test]
    fn a_golden_case_id_starts_with_a_catalogue_area_or_gen_or_official() {
        let ok = [
            "run/x",
            "accept/x",
            "chunks/y",
            "gen/z",
            "official/1.1/w",
            "schema/v",
        ];
        assert!(areas(&ok.map(case)).is_empty());
        let bad = areas(&[case("nowhere/x"), case("runs/x")]);
        assert_eq!(bad.len(), 2, "{bad:?}");
        assert!(
            bad[0].contains("id `nowhere/x` is in no area"),
            "{}",
            bad[0]
        );
        assert!(bad[0].contains("schema, run, entities"), "{}", bad[0]);
    }
}
