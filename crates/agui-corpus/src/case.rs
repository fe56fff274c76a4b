//! One corpus case: a stream and the answer the spec gives for it.

use agui_model::checker::{Checker, Report};
use agui_model::stream::{self, Item, ReadOptions};
use agui_model::{RuleId, Verdict};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::borrow::Cow;
use std::ops::ControlFlow;

/// A case file, exactly as on disk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// `<area>/<name>`, matching the file's path under `corpus/`.
    pub id: String,
    pub description: String,
    /// The sentence of the draft or docs/rules.md the case tests.
    pub spec: String,
    /// The stream items (usually objects; a non-object is itself a fault).
    /// Empty when the case gives [`Case::lines`] instead (on disk, exactly
    /// one of the two is present; see [`Case::to_json`]).
    #[serde(default)]
    pub events: Vec<Value>,
    /// The stream as raw JSON Lines text, one line each, exactly as the
    /// producer wrote it: for what a JSON value cannot hold (a duplicate
    /// key, a lone surrogate escape, `1e400`). Read with the checker's own
    /// reader ([`agui_model::check`]), joined with `\n`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<String>>,
    pub expect: Expect,
    /// The `accept.*` obligation the case tests, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub obligation: Option<RuleId>,
    /// The expected projection (canonical form, `docs/projection.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub projection: Option<Value>,
    /// Every violation the spec says the stream has, in stream order
    /// (catalogue order at one index; a rule broken several times at one index
    /// is listed once), written from the spec. Required whenever `expect`
    /// names a rule, warnings included (docs/rules.md "Scoring a consumer",
    /// revision 3: "every case whose stream has a violation states all of
    /// them"): see [`crate::load::unstated`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub violations: Option<Vec<Stated>>,
    /// A case converted from an official AG-UI fixture: its provenance and
    /// the fixture's own expectation (`corpus/official/`,
    /// [`crate::official`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub official: Option<Box<crate::official::Official>>,
}

/// One stated violation: a rule and the index where it becomes detectable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stated {
    pub rule: RuleId,
    pub index: usize,
}

/// The expected answer: the verdict, and the stream's first violation when
/// it has one (`rule`/`index` absent means no violation at all). A stream
/// whose only violations are warnings has verdict `accept` and still names
/// its first violation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    pub verdict: Verdict,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<RuleId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
}

impl Case {
    /// Number of stream items.
    pub fn len(&self) -> usize {
        match &self.lines {
            Some(lines) => lines.len(),
            None => self.events.len(),
        }
    }

    /// True when the stream has no item.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The raw stream bytes of a `lines` case: the lines joined with `\n`.
    pub fn lines_bytes(&self) -> Option<String> {
        self.lines.as_ref().map(|l| join_lines(l))
    }

    /// The stream items as values: `events`, or each line as the checker's
    /// reader reads it (duplicate keys keep the last value; a line that is
    /// not JSON is shown as its text, a string). For gates and display;
    /// checking goes through [`Case::check`].
    pub fn values(&self) -> Cow<'_, [Value]> {
        match &self.lines {
            None => Cow::Borrowed(&self.events),
            Some(lines) => Cow::Owned(
                read_lines(lines)
                    .into_iter()
                    .zip(lines)
                    .map(|(item, text)| match item {
                        Item::Value { value, .. } => value,
                        _ => Value::String(text.clone()),
                    })
                    .collect(),
            ),
        }
    }

    /// Each item one line, for people: a `lines` case's own text, else the
    /// event's compact JSON.
    pub fn shown(&self) -> Vec<String> {
        match &self.lines {
            Some(lines) => lines.clone(),
            None => self.events.iter().map(Value::to_string).collect(),
        }
    }

    /// Checks the stream with `checker`: `lines` through the checker's
    /// reader ([`agui_model::check::check_bytes`]), `events` value by value.
    pub fn check(&self, mut checker: Checker) -> Report {
        match self.lines_bytes() {
            Some(bytes) => agui_model::check::check_bytes(bytes.as_bytes(), checker),
            None => {
                for e in &self.events {
                    checker.push(e);
                }
                checker.finish()
            }
        }
    }

    /// The case as its file holds it: `lines` replaces `events`. Big
    /// numbers in the projection stay numbers (print with
    /// [`agui_model::json::Out`]).
    pub fn to_json(&self) -> Value {
        let mut v = serde_json::to_value(self).unwrap_or(Value::Null);
        if self.lines.is_some()
            && let Value::Object(m) = &mut v
        {
            m.remove("events");
        }
        v
    }

    /// [`Case::to_json`] as pretty text, numbers outside a double's range
    /// written as numbers.
    pub fn to_pretty(&self) -> String {
        serde_json::to_string_pretty(&agui_model::json::Out(&self.to_json())).unwrap_or_default()
    }
}

/// Lines joined as a JSON Lines text.
pub fn join_lines(lines: &[String]) -> String {
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

/// Every item the checker's reader makes of `lines`, in order.
pub fn read_lines(lines: &[String]) -> Vec<Item> {
    let mut items = Vec::with_capacity(lines.len());
    let text = join_lines(lines);
    // Reading from memory cannot fail.
    let _ = stream::read_stream(text.as_bytes(), &ReadOptions::default(), |item| {
        items.push(item);
        ControlFlow::Continue(())
    });
    items
}
