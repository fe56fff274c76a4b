//! The lanes page of a stream that is not held in memory: items are laid
//! out as they are read, within a byte budget, and the page says what it
//! left out (docs/rules.md "Checker limits": a picture of the stream keeps
//! its own bound).
//!
//! The budget counts each event drawn as the bytes of its JSON on the page
//! plus [`EVENT_OVERHEAD`] (its columns on the page and its place in the
//! layout). An event larger than [`EVENT_SHOWN_BYTES`] is still drawn, but
//! shown shortened to its small top-level fields. Once the next event
//! would pass the budget, drawing stops: the rest are counted, not kept.
//! Violations get a quarter of the budget on top, and only those of the
//! events drawn are placed. So what the page holds, and its size, stay
//! within a fixed multiple of the budget however long the stream.

use crate::layout::LayoutBuilder;
use crate::page::{self, Events, LeftOut, Options};
use agui_model::Violation;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::io::{self, Write};

/// The default budget of a page: 32 MiB (a 100,000-event page is about
/// 12 MB and draws in about a second).
pub const DEFAULT_PAGE_BYTES: usize = 32 << 20;
/// The most of one event's JSON shown whole.
pub const EVENT_SHOWN_BYTES: usize = 64 << 10;
/// What one event drawn costs beside its JSON.
pub const EVENT_OVERHEAD: usize = 64;
/// What one violation placed costs beside its message.
const FLAG_OVERHEAD: usize = 64;
/// The longest string field kept in a shortened event.
const SHORT_FIELD_BYTES: usize = 256;
/// The field a shortened event says so in.
pub const SHORTENED_KEY: &str = "(shortened)";

/// A page being drawn; see the module documentation.
pub struct Picture {
    budget: usize,
    used: usize,
    layout: LayoutBuilder,
    events: Vec<Box<RawValue>>,
    /// Items seen, drawn or not.
    total: usize,
    /// Drawing stopped at the budget.
    full: bool,
    left: LeftOut,
}

impl Picture {
    /// A page within `budget` bytes.
    pub fn new(budget: usize) -> Picture {
        Picture {
            budget,
            used: 0,
            layout: LayoutBuilder::new(),
            events: Vec::new(),
            total: 0,
            full: false,
            left: LeftOut {
                budget,
                ..LeftOut::default()
            },
        }
    }

    /// Items seen so far.
    pub fn total(&self) -> usize {
        self.total
    }

    /// Events drawn so far.
    pub fn drawn(&self) -> usize {
        self.events.len()
    }

    /// The next stream item (an item that is not JSON is a string saying
    /// why, drawn as an invalid mark).
    pub fn push(&mut self, item: &Value) {
        self.total += 1;
        if self.full {
            self.left.bytes += json_len(item);
            return;
        }
        let shown = shown(item)
            .map(|t| (t, false))
            .or_else(|| shortened(item).map(|t| (t, true)));
        let Some((text, shortened)) = shown else {
            // Not serialisable: never for a value read from JSON.
            self.full = true;
            return;
        };
        let cost = text.get().len() + EVENT_OVERHEAD;
        if self.used + cost > self.budget {
            self.full = true;
            self.left.bytes += json_len(item);
            return;
        }
        self.used += cost;
        self.left.shortened += usize::from(shortened);
        self.layout.push(item);
        self.events.push(text);
    }

    /// Writes the page with the check's `violations` (those of the events
    /// drawn, within the violations' share of the budget).
    pub fn write(
        self,
        out: impl Write,
        violations: &[Violation],
        options: &Options,
    ) -> io::Result<()> {
        let drawn = self.events.len();
        let mut left = self.left;
        left.drawn = drawn;
        left.total = self.total;
        let share = self.budget / 4;
        let mut used = 0;
        let mut placed = Vec::new();
        for v in violations {
            // End of input (index = events) only when every event is drawn.
            let on_page = v.index < drawn || (!self.full && v.index == drawn);
            let cost = v.message.len() + FLAG_OVERHEAD;
            if on_page && used + cost <= share {
                used += cost;
                placed.push(v.clone());
            } else {
                left.flags += 1;
            }
        }
        let mut layout = self.layout.finish();
        layout.flag(&placed);
        let said =
            (left.drawn < left.total || left.shortened > 0 || left.flags > 0).then_some(&left);
        page::write(out, &layout, Events::Raw(&self.events), options, said)
    }
}

/// The item's JSON when it is at most [`EVENT_SHOWN_BYTES`].
fn shown(item: &Value) -> Option<Box<RawValue>> {
    let mut text = Vec::new();
    serde_json::to_writer(Capped(&mut text, EVENT_SHOWN_BYTES), item).ok()?;
    let text = String::from_utf8(text).ok()?;
    RawValue::from_string(text).ok()
}

/// A large item shown by its small top-level fields (its type, ids and
/// tags), with a field saying how large it was.
fn shortened(item: &Value) -> Option<Box<RawValue>> {
    let bytes = json_len(item);
    let note = Value::String(format!(
        "this event is {bytes} bytes of JSON, over the {EVENT_SHOWN_BYTES} shown whole; \
         its small top-level fields are kept"
    ));
    let short = match item {
        Value::Object(o) => {
            let mut m: Map<String, Value> = o
                .iter()
                .filter(|(k, v)| {
                    k.len() <= SHORT_FIELD_BYTES
                        && match v {
                            Value::String(s) => s.len() <= SHORT_FIELD_BYTES,
                            Value::Number(_) | Value::Bool(_) | Value::Null => true,
                            _ => false,
                        }
                })
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            m.insert(SHORTENED_KEY.to_owned(), note);
            Value::Object(m)
        }
        _ => note,
    };
    serde_json::value::to_raw_value(&short).ok()
}

/// The length of an item's JSON, counted, not written.
fn json_len(item: &Value) -> u64 {
    let mut n = Count(0);
    let _ = serde_json::to_writer(&mut n, item);
    n.0
}

struct Count(u64);

impl Write for Count {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A writer that fails past its cap (a JSON text too long to show whole).
struct Capped<'a>(&'a mut Vec<u8>, usize);

impl Write for Capped<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.0.len() + buf.len() > self.1 {
            return Err(io::Error::other("over the size shown"));
        }
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agui_model::RuleId;
    use serde_json::json;

    /// The data block of a written page.
    fn data(p: Picture, violations: &[Violation]) -> (Value, usize) {
        let mut out = Vec::new();
        p.write(&mut out, violations, &Options::default()).unwrap();
        let page = String::from_utf8(out).unwrap();
        let start = page.find(r#"type="application/json">"#).unwrap() + 24;
        let end = start + page[start..].find("</script>").unwrap();
        (serde_json::from_str(&page[start..end]).unwrap(), page.len())
    }

    fn content(i: usize) -> Value {
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": format!("{i:0>90}")})
    }

    #[test]
    fn a_page_within_budget_holds_everything_and_says_nothing() {
        let mut p = Picture::new(1 << 20);
        let events = [
            json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
            content(1),
        ];
        for e in &events {
            p.push(e);
        }
        let (d, _) = data(p, &[Violation::new(RuleId::RunUnterminated, 2, "ends")]);
        assert_eq!(d["events"], json!(events));
        assert_eq!(d["flags"][0][0], 2);
        assert!(d.get("leftOut").is_none());
    }

    #[test]
    fn past_the_budget_events_are_counted_and_the_page_says_so() {
        let budget = 20_000;
        let mut p = Picture::new(budget);
        let n = 10_000;
        for i in 0..n {
            p.push(&content(i));
        }
        let drawn = p.drawn();
        assert!(drawn > 50 && drawn < n, "{drawn}");
        let violations = [
            Violation::new(RuleId::TextNotOpen, 0, "first"),
            Violation::new(RuleId::TextNotOpen, n - 1, "late"),
        ];
        let (d, size) = data(p, &violations);
        assert_eq!(d["events"].as_array().unwrap().len(), drawn);
        assert_eq!(d["lane"].as_array().unwrap().len(), drawn);
        let left = &d["leftOut"];
        assert_eq!(left["drawn"], drawn);
        assert_eq!(left["total"], n);
        assert_eq!(left["flags"], 1);
        assert_eq!(left["budget"], budget);
        assert!(left["bytes"].as_u64().unwrap() > 100 * (n - drawn) as u64);
        // The page: its shell (stylesheet and script) and about the budget.
        let (head, tail) = crate::page::shell("AG-UI stream");
        assert!(size < head.len() + tail.len() + budget * 2, "{size}");
        assert_eq!(d["flags"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn a_huge_event_is_drawn_shortened() {
        let mut p = Picture::new(1 << 20);
        let big = json!({"type": "STATE_SNAPSHOT", "snapshot": {"blob": "x".repeat(EVENT_SHOWN_BYTES)}, "subagentRunId": "s1"});
        p.push(&big);
        p.push(&content(1));
        let (d, _) = data(p, &[]);
        let shown = &d["events"][0];
        assert_eq!(shown["type"], "STATE_SNAPSHOT");
        assert_eq!(shown["subagentRunId"], "s1");
        assert!(shown.get("snapshot").is_none());
        assert!(
            shown[SHORTENED_KEY]
                .as_str()
                .unwrap()
                .contains("bytes of JSON")
        );
        assert_eq!(d["leftOut"]["shortened"], 1);
        assert_eq!(d["leftOut"]["drawn"], 2);
        // Drawn in its owner's lane all the same.
        assert_eq!(d["lanes"].as_array().unwrap().len(), 2);
    }
}
