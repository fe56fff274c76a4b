//! Several run records side by side: the data of the conformance report
//! (`agui-conform report`), shared by its Markdown and HTML forms.
//!
//! Records are matched by case id; nothing is assumed about which record
//! is the reference, so any number of implementations compare alike.

use crate::record::{Case, Record, Totals};
use crate::score::Score;
use agui_model::RuleId;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// One implementation's column.
#[derive(Debug, Clone)]
pub struct Column {
    /// The name shown (the implementation's own name unless relabelled).
    pub label: String,
    pub record: Record,
    by_id: HashMap<String, usize>,
}

impl Column {
    pub fn new(label: String, record: Record) -> Self {
        let by_id = record
            .cases
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id.clone(), i))
            .collect();
        Column {
            label,
            record,
            by_id,
        }
    }

    /// Its line for case `id`, when it ran it.
    pub fn case(&self, id: &str) -> Option<&Case> {
        self.by_id.get(id).map(|&i| &self.record.cases[i])
    }

    /// Its note under `key` ([`Notes`]), keyed by its label, else by its
    /// implementation's name.
    pub fn note<'a>(&self, notes: &'a Notes, key: &str) -> Option<&'a str> {
        [&self.label, &self.record.header.implementation.name]
            .iter()
            .find_map(|k| notes.get(k.as_str()).and_then(|n| n.get(key)))
            .and_then(Value::as_str)
    }
}

/// The merged records.
#[derive(Debug, Clone)]
pub struct Merged {
    pub columns: Vec<Column>,
    /// Every case id, in the order of the first record that has it.
    pub case_ids: Vec<String>,
    /// Per-rule rows (the cases' `group`), in catalogue order, `valid` last.
    pub groups: Vec<String>,
    /// Implementations that have no record, with why (`report --missing`).
    pub missing: Vec<(String, String)>,
    /// Fuzz campaigns' records (`fuzz --record`), each labelled as the
    /// implementation it fuzzed: a column of the same label is its suite run.
    pub fuzz: Vec<Column>,
    /// Producer run records (`run --producer --record`), in the order given.
    pub producers: Vec<Record>,
    /// Runs of the official corpus' suites (`run --suite official-…`), each
    /// labelled as the implementation it ran: the official corpus section
    /// ([`super::official`]), not columns.
    pub official: Vec<Column>,
    /// Runs of a variant of the columns' suite (`suites/uuid-ids.toml`:
    /// the same cases written another way), each labelled as the
    /// implementation it ran: a row beside that implementation's.
    pub variants: Vec<Column>,
}

impl Merged {
    pub fn new(columns: Vec<Column>) -> Self {
        let mut case_ids = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut groups = std::collections::BTreeSet::new();
        for col in &columns {
            for c in &col.record.cases {
                if seen.insert(c.id.clone()) {
                    case_ids.push(c.id.clone());
                }
                groups.insert(c.group.clone());
            }
        }
        let mut groups: Vec<String> = groups.into_iter().collect();
        groups.sort_by_key(|g| group_order(g));
        Merged {
            columns,
            case_ids,
            groups,
            missing: Vec::new(),
            fuzz: Vec::new(),
            producers: Vec::new(),
            official: Vec::new(),
            variants: Vec::new(),
        }
    }

    /// The fuzz campaign of the implementation labelled `label`.
    pub fn fuzz_of(&self, label: &str) -> Option<&Column> {
        self.fuzz.iter().find(|c| c.label == label)
    }

    /// Every consumer the report covers, for its title: the suite runs'
    /// labels, then those of campaigns with no suite run (an SDK fuzzed in
    /// process).
    pub fn consumer_labels(&self) -> Vec<&str> {
        let mut labels: Vec<&str> = self.columns.iter().map(|c| c.label.as_str()).collect();
        for f in &self.fuzz {
            if !labels.contains(&f.label.as_str()) {
                labels.push(&f.label);
            }
        }
        labels
    }

    /// The first line any record has for case `id` (for what all records
    /// share: description, expectation, group, stream).
    pub fn any(&self, id: &str) -> Option<&Case> {
        self.columns.iter().find_map(|c| c.case(id))
    }

    /// The stream of case `id` from whichever record kept it.
    pub fn stream(&self, id: &str) -> Option<&crate::record::Stream> {
        self.columns
            .iter()
            .find_map(|c| c.case(id).and_then(|x| x.stream.as_ref()))
    }

    /// The spec sentence of case `id` from whichever record kept it.
    pub fn spec(&self, id: &str) -> Option<&str> {
        self.columns.iter().find_map(|c| {
            c.case(id)
                .map(|x| x.spec.as_str())
                .filter(|s| !s.is_empty())
        })
    }

    /// Counts per score of one column in one group.
    pub fn tally(&self, col: usize, group: &str) -> Totals {
        let mut t = Totals::default();
        for c in &self.columns[col].record.cases {
            if c.group == group {
                t.add(c.score);
            }
        }
        t
    }

    /// The case ids of `group` on which some column scored `score`.
    pub fn scored(&self, group: &str, score: Score) -> Vec<&str> {
        self.case_ids
            .iter()
            .filter(|id| {
                self.columns
                    .iter()
                    .filter_map(|c| c.case(id))
                    .any(|c| c.group == group && c.score == score)
            })
            .map(String::as_str)
            .collect()
    }

    /// Whether every column scored case `id` PASS or SKIPPED.
    pub fn all_pass(&self, id: &str) -> bool {
        self.columns
            .iter()
            .filter_map(|c| c.case(id))
            .all(|c| matches!(c.score, Score::Pass | Score::Skipped))
    }

    /// Suites and catalogues the records disagree on (they should not).
    pub fn mismatches(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut suites: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        let mut cats: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for c in &self.columns {
            suites
                .entry(&c.record.header.suite)
                .or_default()
                .push(&c.label);
            cats.entry(&c.record.header.catalogue)
                .or_default()
                .push(&c.label);
        }
        for (what, map) in [("suite", suites), ("catalogue", cats)] {
            if map.len() > 1 {
                let parts: Vec<String> = map
                    .iter()
                    .map(|(k, v)| format!("`{k}` ({})", v.join(", ")))
                    .collect();
                out.push(format!(
                    "the records differ in {what}: {}",
                    parts.join("; ")
                ));
            }
        }
        out
    }
}

/// Catalogue position of a group; `valid` and unknown keys last.
pub fn group_order(g: &str) -> (usize, String) {
    let pos = RuleId::from_id(g)
        .and_then(|r| RuleId::ALL.iter().position(|x| *x == r))
        .unwrap_or(usize::MAX);
    (pos, g.to_owned())
}

/// The rule ids of the catalogue no record has a case for.
pub fn untested(m: &Merged) -> Vec<&'static str> {
    RuleId::ALL
        .iter()
        .map(|r| r.as_str())
        .filter(|id| !m.groups.iter().any(|g| g == id))
        .collect()
}

/// An answer in a few words: `accept`, `reject at 3 (rule)`, `skipped: …`.
pub fn answer_text(c: &Case) -> String {
    let a = &c.answer;
    match a.get("verdict").and_then(|v| v.as_str()) {
        Some("accept") => "accept".into(),
        Some(v) => {
            let mut t = v.to_owned();
            if let Some(i) = a.get("index").and_then(|i| i.as_u64()) {
                t.push_str(&format!(" at {i}"));
            }
            if let Some(r) = a.get("rule").and_then(|r| r.as_str()) {
                t.push_str(&format!(" (`{r}`)"));
            }
            t
        }
        None => {
            if let Some(s) = a.get("skipped") {
                format!("skipped: {}", s["reason"].as_str().unwrap_or(""))
            } else if let Some(e) = a.get("errored") {
                format!("errored: {}", e["reason"].as_str().unwrap_or(""))
            } else {
                a.to_string()
            }
        }
    }
}

/// The rejection index of an answer.
pub fn answered_index(c: &Case) -> Option<usize> {
    c.answer
        .get("index")
        .and_then(|i| i.as_u64())
        .and_then(|i| usize::try_from(i).ok())
}

/// The adapter's `explain` as (stage, warnings, note).
pub fn explain_parts(c: &Case) -> (Option<&str>, Vec<&str>, Option<&str>) {
    let Some(e) = &c.explain else {
        return (None, Vec::new(), None);
    };
    let stage = e.get("stage").and_then(|s| s.as_str());
    let warnings = e
        .get("warnings")
        .and_then(|w| w.as_array())
        .map(|w| w.iter().filter_map(|x| x.as_str()).collect())
        .unwrap_or_default();
    let note = e.get("note").and_then(|s| s.as_str());
    (stage, warnings, note)
}

/// Hand-written analysis shown beside the findings, keyed by implementation
/// (label or name), then by rule id or `case:<id>`; shown only where that
/// implementation does not PASS.
pub type Notes = serde_json::Map<String, Value>;

/// An event on one line with its `type` first, as producers write it
/// (the other keys in sorted order).
pub(crate) fn type_first(e: &Value) -> String {
    match e.as_object() {
        Some(map) if map.contains_key("type") => {
            let mut parts = vec![format!("\"type\":{}", map["type"])];
            for (k, v) in map.iter().filter(|(k, _)| k.as_str() != "type") {
                parts.push(format!("{}:{v}", Value::String(k.clone())));
            }
            format!("{{{}}}", parts.join(","))
        }
        _ => e.to_string(),
    }
}
