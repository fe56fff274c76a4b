//! The lines of a producer run record (`run --producer URL --record
//! FILE`): the header says which producer was run (its URL, the versions
//! it reported), then one `scenario` line per scenario of the producer
//! suite — its score and why, every request sent and how its runs ended,
//! the violations of the whole conversation, the conversation itself —
//! and the usual footer. `agui-conform report` renders the producers page
//! from such records.

use crate::score::Score;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The header's `producer`: present exactly in a producer run record.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Producer {
    /// Where the requests went.
    pub url: String,
    /// The packages it runs and their versions, as the producer (or
    /// whoever ran it) reported them, in that order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub versions: Vec<Version>,
    /// The other validator given each stream too (`--peer`), by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peer: Option<String>,
}

/// One package a producer runs.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Version {
    pub name: String,
    pub version: String,
}

impl Version {
    /// The entries of a JSON object of package → version, in the order
    /// written (a `serde_json::Map` would sort them); a version that is
    /// not a string is kept as its JSON text.
    pub fn list(json: &str) -> Result<Vec<Version>, String> {
        let Ordered(pairs) = serde_json::from_str(json)
            .map_err(|e| format!("not a JSON object of versions: {e}"))?;
        Ok(pairs
            .into_iter()
            .map(|(name, v)| Version {
                name,
                version: match v {
                    Value::String(s) => s,
                    other => other.to_string(),
                },
            })
            .collect())
    }
}

/// A JSON object's entries in the order written.
struct Ordered(Vec<(String, Value)>);

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = Ordered;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<Ordered, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = m.next_entry::<String, Value>()? {
                    out.push(entry);
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(Entries)
    }
}

/// One scenario's line (`kind: scenario`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Scenario {
    pub id: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// PASS, WARN, SKIPPED, FAIL or ERRORED (suites/producer/README.md).
    pub score: Score,
    /// Events of the whole conversation.
    pub events: usize,
    /// The status of the last response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// Why the exchange failed, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// The producer answered a valid input with `RUN_ERROR`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    /// Why a step was not sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
    /// Every request sent, in order.
    pub steps: Vec<Step>,
    /// How each run of the conversation ended (`check --format json`'s
    /// `runs`: outcome, start, end, ids, the error or the interrupts).
    pub runs: Vec<Value>,
    /// Violations of the whole conversation, indexed in it.
    pub violations: Vec<Found>,
    /// The conversation: every step's events, one after the other.
    pub stream: Vec<Value>,
    /// The peer's answer on the whole conversation (scenarios of more
    /// than one step).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peer: Option<Value>,
    pub elapsed_us: u64,
}

/// One request of a scenario and what came back.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Step {
    /// `input`, `resume`, `continue` or `toolResults`.
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// Index of its first event in the conversation.
    pub start: usize,
    pub events: usize,
    /// How each run of its answer ended.
    pub outcomes: Vec<String>,
    /// The RunAgentInput sent.
    pub request: Value,
    /// The peer's answer on this step's events alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peer: Option<Value>,
    /// Each 307/308 hop its request followed (`{status, url, location,
    /// to}`, as `check --url`'s JSON lists them); absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub redirects: Vec<Value>,
}

impl Step {
    /// The index range of its events in the conversation.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start..self.start + self.events
    }
}

/// One violation, as `check --format json` writes it (the fields a report
/// needs).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Found {
    pub rule: String,
    pub index: usize,
    pub severity: String,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub related: Option<usize>,
}

impl Scenario {
    /// Violations found in the events of step `k` (a status or transport
    /// finding at its end included), as `check --url` of that request
    /// alone would report them, cross-run rules aside.
    pub fn found_in(&self, k: usize) -> impl Iterator<Item = &Found> {
        let range = self.steps.get(k).map_or(0..0, Step::range);
        let last = k + 1 == self.steps.len();
        self.violations
            .iter()
            .filter(move |v| range.contains(&v.index) || (last && v.index >= range.end))
    }
}

/// Per-rule totals of scenarios, for the footer: each scenario counted
/// once under every rule it broke.
pub fn per_rule(scenarios: &[Scenario]) -> BTreeMap<String, super::Totals> {
    let mut out: BTreeMap<String, super::Totals> = BTreeMap::new();
    for s in scenarios {
        let mut rules: Vec<&str> = s.violations.iter().map(|v| v.rule.as_str()).collect();
        rules.sort_unstable();
        rules.dedup();
        for r in rules {
            out.entry(r.to_owned()).or_default().add(s.score);
        }
    }
    out
}
