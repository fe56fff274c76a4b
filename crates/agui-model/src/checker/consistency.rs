//! The consistency warnings (docs/rules.md "Consistency warnings"): facts a
//! producer states twice must agree, and tool arguments are meant to be
//! read as JSON. `tool.args-not-json` is judged when a call ends (an
//! explicit `TOOL_CALL_END`, or the event that ends a chunked call: the
//! chunk lanes end calls through the same `tool_end`), `tool.result-before-end`
//! at a `TOOL_CALL_RESULT`, `messages.snapshot-disagrees` at a
//! `MESSAGES_SNAPSHOT`. They are warnings a consumer must accept: nothing
//! here changes what is on record or shown.
//!
//! What they need of the run is [`super::said::Said`], part of the run's
//! bookkeeping: a text delta costs an index and a copy; only tool calls,
//! results and snapshots pay more. Texts are compared by their prints
//! (fingerprints of the exact text, [`Print`]); a disagreement is shown
//! around its first difference from what was kept of the streamed text
//! (all of it, or its ends: [`super::said::Ends`]).

use super::Checker;
use super::book::Part;
use super::names::Name;
use super::said::Print;
use crate::difference::{Known, around_first_difference};
use crate::json;
use crate::json_text::is_one_value;
use crate::rules::RuleId;
use crate::wire::nested;
use serde_json::Value;

/// A text as a violation message quotes it: at most 40 characters, kept
/// surrogates shown as U+FFFD.
fn excerpt(s: &str) -> String {
    const MAX: usize = 40;
    let shown: String = json::printable(s).chars().take(MAX).collect();
    if s.chars().nth(MAX).is_some() {
        format!("{shown:?}…")
    } else {
        format!("{shown:?}")
    }
}

/// The print of what a snapshot message's `content` shows, read as the
/// projection reads it (`content_text`): a string, or the `text` parts of
/// content parts one after the other; absent shows `""`. `None` for any
/// other shape, a schema fault reported as one and not compared.
fn content_print(content: Option<&Value>) -> Option<Print> {
    match content {
        None => Some(Print::default()),
        Some(Value::Array(parts)) => {
            let mut print = Print::default();
            for p in parts {
                if p.get("type").and_then(json::text) == Some("text")
                    && let Some(t) = p.get("text").and_then(json::text)
                {
                    print.feed(t);
                }
            }
            Some(print)
        }
        Some(v) => json::text(v).map(Print::of),
    }
}

/// `text` read as one JSON value and written compact with every object's
/// members sorted: how two values that differ are shown side by side (a
/// rare path: only a disagreement pays for it).
fn compact_sorted(text: &str) -> Option<String> {
    fn sorted(v: Value) -> Value {
        match v {
            Value::Object(m) => {
                let mut members: Vec<(String, Value)> = m.into_iter().collect();
                members.sort_by(|a, b| a.0.cmp(&b.0));
                Value::Object(members.into_iter().map(|(k, v)| (k, sorted(v))).collect())
            }
            Value::Array(a) => Value::Array(a.into_iter().map(sorted).collect()),
            v => v,
        }
    }
    let v: Value = serde_json::from_str(text).ok()?;
    serde_json::to_string(&sorted(v)).ok()
}

impl Checker {
    /// `tool.args-not-json`: the call `id` (named `n`) ended at event `i`.
    pub(super) fn call_ended(&mut self, i: usize, id: &str, n: Name) {
        self.judged(super::area::CONSISTENCY);
        let judged = self.book.said.call_ended(n, |args, at, one_value| {
            (!args.is_empty() && !one_value && !is_one_value(args)).then(|| {
                let msg = format!(
                    "tool call {id:?} ends with arguments that are not one JSON value: {}",
                    excerpt(args)
                );
                (msg, at)
            })
        });
        if let Some(Some((msg, at))) = judged {
            self.report_related(RuleId::ToolArgsNotJson, i, msg, Some(at));
        }
    }

    /// `tool.result-before-end`: a `TOOL_CALL_RESULT` at `i` for `call`.
    pub(super) fn result_for_call(&mut self, i: usize, call: &str) {
        self.judged(super::area::CONSISTENCY);
        if let Some(at) = self.book.opened_at(Part::Tool, call) {
            self.report_related(
                RuleId::ToolResultBeforeEnd,
                i,
                format!("TOOL_CALL_RESULT for tool call {call:?}, which is still open (no TOOL_CALL_END yet)"),
                Some(at),
            );
        }
    }

    /// `messages.snapshot-disagrees`: the messages of a `MESSAGES_SNAPSHOT`
    /// at `i` against what this run streamed and ended before it. Roles
    /// that stream through the text kind are compared as text messages
    /// (`reasoning` and `activity` messages are other kinds); an
    /// assistant message's tool calls as calls.
    pub(super) fn snapshot_agrees(&mut self, i: usize, messages: &[Value]) {
        if self.book.said.is_empty() {
            // Nothing streamed in this run to compare with.
            return;
        }
        self.judged(super::area::CONSISTENCY);
        let rule = RuleId::MessagesSnapshotDisagrees;
        for m in messages {
            let Some(m) = m.as_object() else { continue };
            let Some(id) = m.get(nested::ID).and_then(json::text) else {
                continue;
            };
            let role = m.get(nested::ROLE).and_then(json::text);
            let content = m.get("content");
            if !matches!(role, Some("reasoning" | "activity"))
                && let Some((msg, at)) = self.text_disagrees(id, content)
            {
                self.report_related(rule, i, msg, Some(at));
            }
            if role != Some("assistant") {
                continue;
            }
            let calls = m.get(nested::TOOL_CALLS).and_then(Value::as_array);
            for call in calls.into_iter().flatten() {
                let Some(cid) = call.get(nested::ID).and_then(json::text) else {
                    continue;
                };
                let name = call.pointer("/function/name").and_then(json::text);
                let args = call.pointer("/function/arguments").and_then(json::text);
                if let Some((msg, at)) = self.call_disagrees(cid, name, args) {
                    self.report_related(rule, i, msg, Some(at));
                }
            }
        }
    }

    /// The message and related event of a snapshot message `id`, shown
    /// with `content`, that disagrees with the text this run streamed and
    /// ended for it; `None` when it agrees or is not compared.
    fn text_disagrees(&self, id: &str, content: Option<&Value>) -> Option<(String, usize)> {
        let n = self.book.name(id)?;
        if self.book.opened_at(Part::Text, id).is_some() {
            return None;
        }
        let (streamed, at) = self.book.said.text(n)?;
        let (streamed, len) = streamed.finish();
        if content_print(content)?.finish() == (streamed, len) {
            return None;
        }
        let shown = crate::projection::content_text(content);
        let streamed = self.book.said.text_known(n)?;
        let diff = around_first_difference("snapshot", &shown, "streamed", &streamed)
            .unwrap_or_else(|| {
                format!(
                    "snapshot {} ({} bytes), streamed {len} bytes",
                    excerpt(&shown),
                    shown.len()
                )
            });
        let msg = format!(
            "MESSAGES_SNAPSHOT gives message {id:?} a content other than the text this run streamed for it, {diff}"
        );
        Some((msg, at))
    }

    /// The same for a snapshot's tool call `id` with this `function.name`
    /// and `function.arguments` (either not compared when absent).
    fn call_disagrees(
        &self,
        id: &str,
        name: Option<&str>,
        args: Option<&str>,
    ) -> Option<(String, usize)> {
        let n = self.book.name(id)?;
        if self.book.opened_at(Part::Tool, id).is_some() {
            return None;
        }
        let (tool, streamed, canon, at) = self.book.said.call(n)?;
        let tool = self.book.name_str(tool);
        let mut differs = Vec::new();
        if let Some(name) = name.filter(|name| *name != tool)
            && let Some(diff) =
                around_first_difference("snapshot", name, "streamed", &Known::whole(tool))
        {
            differs.push(format!(
                "a name other than the one this run streamed, {diff}"
            ));
        }
        let (streamed, len) = streamed.finish();
        // Both one JSON value: compared as values (revision 4); else as
        // strings, exactly.
        let same = |a: &str| match (canon, super::json_value_print::value_print(a)) {
            (Some(s), Some(g)) => s == g,
            _ => Print::of(a).finish() == (streamed, len),
        };
        if let Some(a) = args.filter(|a| !same(a)) {
            let known = self.book.said.call_known(n);
            let values = canon.is_some() && super::json_value_print::value_print(a).is_some();
            // As values: their compact forms, members sorted, when the
            // streamed arguments were kept whole and the forms differ.
            let compact = known
                .as_ref()
                .filter(|k| values && k.tail.is_empty() && k.head.len() == k.len)
                .and_then(|k| Some((compact_sorted(a)?, compact_sorted(&k.head)?)))
                .and_then(|(a, b)| {
                    around_first_difference("snapshot", &a, "streamed", &Known::whole(&b))
                });
            let how = match (values, &compact) {
                (true, Some(_)) => " (compared as JSON values; shown compact, members sorted)",
                (true, None) => " (compared as JSON values; shown as written)",
                (false, _) => "",
            };
            let diff = compact
                .or_else(|| {
                    known.and_then(|k| around_first_difference("snapshot", a, "streamed", &k))
                })
                .unwrap_or_else(|| {
                    format!(
                        "snapshot {} ({} bytes), streamed {len} bytes",
                        excerpt(a),
                        a.len()
                    )
                });
            differs.push(format!(
                "arguments other than those this run streamed{how}, {diff}"
            ));
        }
        (!differs.is_empty()).then(|| {
            let msg = format!(
                "MESSAGES_SNAPSHOT gives tool call {id:?} {}",
                differs.join("; and ")
            );
            (msg, at)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn content_is_read_as_the_projection_reads_it() {
        let print = |t: &str| Some(Print::of(t).finish());
        let read = |v: Option<&Value>| content_print(v).map(Print::finish);
        assert_eq!(read(None), print(""));
        assert_eq!(read(Some(&json!("Hi"))), print("Hi"));
        let parts = json!([{"type": "text", "text": "Hel"}, {"type": "image", "text": "no", "source": {}}, {"type": "text", "text": "lo"}]);
        assert_eq!(read(Some(&parts)), print("Hello"));
        assert_eq!(read(Some(&json!(7))), None);
        assert_eq!(read(Some(&Value::Null)), None);
    }

    #[test]
    fn excerpts_are_short_and_printable() {
        assert_eq!(excerpt(&"x".repeat(41)), format!("\"{}\"…", "x".repeat(40)));
        assert_eq!(excerpt("\u{10F83D}"), "\"\u{FFFD}\"");
    }
}
