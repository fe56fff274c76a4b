//! The consistency warnings (docs/rules.md "Consistency warnings"): facts a
//! producer states twice must agree, and tool arguments are meant to be
//! read as JSON. `tool.args-not-json` is judged when a call ends (an
//! explicit `TOOL_CALL_END`, or the event that ends a chunked call: the
//! chunk lanes end calls through the same `tool_end`), `tool.result-before-end`
//! at a `TOOL_CALL_RESULT`, `messages.snapshot-disagrees` at a
//! `MESSAGES_SNAPSHOT`. They are warnings a consumer must accept: nothing
//! here changes what is on record or shown.
//!
//! What they need of the run, [`Said`], is part of the run's bookkeeping
//! (reset at `RUN_STARTED`, counted by the `bookkeeping-bytes` budget,
//! dropped with it): each text message's streamed text and each tool
//! call's name and arguments. A text delta costs one lookup and an append;
//! only tool calls, results and snapshots pay more.

use super::Checker;
use super::book::Part;
use super::names::Name;
use crate::json::{self, join_text};
use crate::json_text::is_one_value;
use crate::rules::RuleId;
use crate::wire::nested;
use foldhash::HashMap;
use serde_json::Value;

/// A text message this run streamed (a `TEXT_MESSAGE_START`, explicit or
/// a chunk's): every delta of its id, in order, joined as UTF-16 code
/// units, as the projection shows it.
#[derive(Debug)]
struct Text {
    text: String,
    /// Index of its first `TEXT_MESSAGE_START`: the related event.
    at: u32,
}

/// A tool call this run streamed, as its last opening stated it.
#[derive(Debug)]
struct Call {
    /// `toolCallName`, interned with the run's names.
    tool: Name,
    /// The argument deltas since that opening, joined.
    args: String,
    /// Index of that opening: the related event.
    at: u32,
}

/// What this run streamed, by the id's name: what the consistency
/// warnings compare.
#[derive(Debug, Default)]
pub(crate) struct Said {
    texts: HashMap<Name, Text>,
    calls: HashMap<Name, Call>,
    /// Bytes the texts and arguments hold (by capacity).
    held: usize,
}

/// Saturates, as the book's indexes do.
fn index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// Appends a delta as the projection does ([`join_text`]: a kept high
/// surrogate and a kept low one across deltas pair up; both start with
/// the byte 0xF4), counting what the string grew by.
fn append(text: &mut String, delta: &str, held: &mut usize) {
    let before = text.capacity();
    if delta.as_bytes().first() == Some(&0xF4) {
        join_text(text, delta);
    } else {
        text.push_str(delta);
    }
    *held += text.capacity() - before;
}

impl Said {
    /// Forgets the run (keeping the maps' capacity).
    pub(crate) fn clear(&mut self) {
        self.texts.clear();
        self.calls.clear();
        self.held = 0;
    }

    /// Changes whenever what is held may have grown (a new entry, or a
    /// string that took more room): the budget measures only then.
    pub(crate) fn growth(&self) -> usize {
        self.texts.len() + self.calls.len() + self.held
    }

    /// The bytes held: the strings by capacity, a map slot and its control
    /// byte per capacity.
    pub(crate) fn footprint(&self) -> usize {
        use std::mem::size_of;
        self.held
            + self.texts.capacity() * (size_of::<(Name, Text)>() + 1)
            + self.calls.capacity() * (size_of::<(Name, Call)>() + 1)
    }

    /// A `TEXT_MESSAGE_START` of the id named `n` at `at` (a reopened id
    /// keeps its text: the projection shows one entry per id).
    pub(crate) fn text_started(&mut self, n: Name, at: usize) {
        self.texts.entry(n).or_insert_with(|| Text {
            text: String::new(),
            at: index(at),
        });
    }

    /// A content delta of the open text message named `n`.
    pub(crate) fn text_delta(&mut self, n: Name, delta: &str) {
        if let Some(t) = self.texts.get_mut(&n) {
            append(&mut t.text, delta, &mut self.held);
        }
    }

    /// A `TOOL_CALL_START` of the call named `n`, for the tool named
    /// `tool`, at `at`: the arguments start empty.
    pub(crate) fn call_started(&mut self, n: Name, tool: Name, at: usize) {
        let at = index(at);
        self.calls
            .entry(n)
            .and_modify(|c| {
                c.tool = tool;
                c.args.clear();
                c.at = at;
            })
            .or_insert_with(|| Call {
                tool,
                args: String::new(),
                at,
            });
    }

    /// An argument delta of the open call named `n`.
    pub(crate) fn call_args(&mut self, n: Name, delta: &str) {
        if let Some(c) = self.calls.get_mut(&n) {
            append(&mut c.args, delta, &mut self.held);
        }
    }
}

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

/// Whether a snapshot message's `content` shows `text`, read as the
/// projection reads it (`content_text`): a string, or the `text` parts of
/// content parts concatenated; absent shows `""`. `None` for any other
/// shape, a schema fault reported as one and not compared.
fn content_shows(content: Option<&Value>, text: &str) -> Option<bool> {
    match content {
        None => Some(text.is_empty()),
        Some(Value::Array(parts)) => {
            let mut rest = text;
            for p in parts {
                if p.get("type").and_then(json::text) != Some("text") {
                    continue;
                }
                let Some(t) = p.get("text").and_then(json::text) else {
                    continue;
                };
                match rest.strip_prefix(t) {
                    Some(r) => rest = r,
                    None => return Some(false),
                }
            }
            Some(rest.is_empty())
        }
        Some(v) => json::text(v).map(|s| s == text),
    }
}

impl Checker {
    /// `tool.args-not-json`: the call `id` (named `n`) ended at event `i`.
    pub(super) fn call_ended(&mut self, i: usize, id: &str, n: Name) {
        let Some(call) = self.book.said.calls.get(&n) else {
            return;
        };
        if call.args.is_empty() || is_one_value(&call.args) {
            return;
        }
        let msg = format!(
            "tool call {id:?} ends with arguments that are not one JSON value: {}",
            excerpt(&call.args)
        );
        let at = Some(call.at as usize);
        self.report_related(RuleId::ToolArgsNotJson, i, msg, at);
    }

    /// `tool.result-before-end`: a `TOOL_CALL_RESULT` at `i` for `call`.
    pub(super) fn result_for_call(&mut self, i: usize, call: &str) {
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
        let said = &self.book.said;
        if said.texts.is_empty() && said.calls.is_empty() {
            return;
        }
        // (message, related event), reported once the book is not borrowed.
        let mut found: Vec<(String, usize)> = Vec::new();
        for m in messages {
            let Some(m) = m.as_object() else { continue };
            let Some(id) = m.get(nested::ID).and_then(json::text) else {
                continue;
            };
            let role = m.get(nested::ROLE).and_then(json::text);
            let content = m.get("content");
            if !matches!(role, Some("reasoning" | "activity"))
                && let Some((text, at)) = self.streamed_text(id)
                && content_shows(content, text) == Some(false)
            {
                let shown = crate::projection::content_text(content);
                found.push((
                    format!(
                        "MESSAGES_SNAPSHOT gives message {id:?} the content {}, but this run streamed {}",
                        excerpt(&shown),
                        excerpt(text)
                    ),
                    at,
                ));
            }
            if role != Some("assistant") {
                continue;
            }
            let calls = m.get(nested::TOOL_CALLS).and_then(Value::as_array);
            for call in calls.into_iter().flatten() {
                let Some(cid) = call.get(nested::ID).and_then(json::text) else {
                    continue;
                };
                let Some((tool, args, at)) = self.streamed_call(cid) else {
                    continue;
                };
                let field = |k: &str| call.pointer(k).and_then(json::text);
                let mut differs = Vec::new();
                if let Some(name) = field("/function/name")
                    && name != tool
                {
                    differs.push(format!(
                        "the name {} where this run streamed {}",
                        excerpt(name),
                        excerpt(tool)
                    ));
                }
                if let Some(a) = field("/function/arguments")
                    && a != args
                {
                    differs.push(format!(
                        "the arguments {} where this run streamed {}",
                        excerpt(a),
                        excerpt(args)
                    ));
                }
                if !differs.is_empty() {
                    found.push((
                        format!(
                            "MESSAGES_SNAPSHOT gives tool call {cid:?} {}",
                            differs.join(" and ")
                        ),
                        at,
                    ));
                }
            }
        }
        for (msg, at) in found {
            self.report_related(RuleId::MessagesSnapshotDisagrees, i, msg, Some(at));
        }
    }

    /// The text this run streamed for message `id`, if it was streamed and
    /// is not open, with the index of its first opener.
    fn streamed_text(&self, id: &str) -> Option<(&str, usize)> {
        let n = self.book.name(id)?;
        let t = self.book.said.texts.get(&n)?;
        self.book
            .opened_at(Part::Text, id)
            .is_none()
            .then_some((t.text.as_str(), t.at as usize))
    }

    /// The tool name and arguments this run streamed for call `id`, if it
    /// was streamed and is not open, with the index of its opener.
    fn streamed_call(&self, id: &str) -> Option<(&str, &str, usize)> {
        let n = self.book.name(id)?;
        let c = self.book.said.calls.get(&n)?;
        self.book.opened_at(Part::Tool, id).is_none().then_some((
            self.book.name_str(c.tool),
            c.args.as_str(),
            c.at as usize,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn content_is_read_as_the_projection_reads_it() {
        assert_eq!(content_shows(None, ""), Some(true));
        assert_eq!(content_shows(None, "Hi"), Some(false));
        assert_eq!(content_shows(Some(&json!("Hi")), "Hi"), Some(true));
        assert_eq!(content_shows(Some(&json!("Hi ")), "Hi"), Some(false));
        let parts = json!([{"type": "text", "text": "Hel"}, {"type": "image", "source": {}}, {"type": "text", "text": "lo"}]);
        assert_eq!(content_shows(Some(&parts), "Hello"), Some(true));
        assert_eq!(content_shows(Some(&parts), "Hell"), Some(false));
        assert_eq!(content_shows(Some(&parts), "Hello!"), Some(false));
        assert_eq!(content_shows(Some(&json!(7)), "7"), None);
        assert_eq!(content_shows(Some(&Value::Null), ""), None);
    }

    #[test]
    fn deltas_join_as_utf16_code_units_and_count_their_bytes() {
        // A kept high surrogate (U+D83D) and a kept low one (U+DE00) in
        // two deltas are one character, as in the projection.
        let mut s = String::new();
        let mut held = 0;
        append(&mut s, "a\u{10F83D}", &mut held);
        append(&mut s, "\u{10FE00}b", &mut held);
        assert_eq!(s, "a😀b");
        assert_eq!(held, s.capacity());
        assert_eq!(excerpt(&"x".repeat(41)), format!("\"{}\"…", "x".repeat(40)));
        assert_eq!(excerpt("\u{10F83D}"), "\"\u{FFFD}\"");
    }
}
