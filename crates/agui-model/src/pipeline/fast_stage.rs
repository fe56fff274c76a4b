//! The pipeline stage of the checker's borrowed fast path: the reader
//! thread runs [`fast::parse`] and keeps the event with its strings as
//! spans into the batch's text ([`Detached`]); the checking thread puts
//! the borrows back ([`Detached::attach`]) and hands the event to
//! [`Checker::try_push_event`]. A string the parse decoded (escapes) is
//! carried as it is, owned.
//!
//! This mirrors [`fast::Body`] variant for variant: when the fast path's
//! typed events change, this file changes with them, and nothing else in
//! the pipeline does.

use super::Stage;
use crate::checker::Checker;
use crate::events::EventType;
use crate::fast::{self, Body, FastEvent};
use serde_json::Value;
use std::borrow::Cow;

/// The stage of the borrowed fast path.
pub(crate) struct FastStage;

impl Stage for FastStage {
    type Parsed = Detached;

    fn parse(&self, line: &str, base: usize) -> Option<Detached> {
        fast::parse(line).map(|ev| Detached::of(ev, line, base))
    }

    fn push(&self, checker: &mut Checker, text: &str, parsed: Detached) -> bool {
        checker.try_push_event(parsed.attach(text))
    }
}

/// A string of a parsed line: a span of the batch's text, or decoded.
#[derive(Debug)]
pub(crate) enum Str {
    Span(usize, usize),
    Owned(String),
}

impl Str {
    /// `s`, borrowed from `line` (which starts at `base` in the batch's
    /// text), as a span; decoded strings stay owned.
    fn of(s: Cow<'_, str>, line: &str, base: usize) -> Str {
        match s {
            Cow::Borrowed(b) => {
                // A borrowed string is a slice of `line`: its offset is the
                // distance between the two starts.
                let at = (b.as_ptr() as usize).wrapping_sub(line.as_ptr() as usize);
                if at <= line.len() && b.len() <= line.len() - at {
                    Str::Span(base + at, base + at + b.len())
                } else {
                    Str::Owned(b.to_owned())
                }
            }
            Cow::Owned(o) => Str::Owned(o),
        }
    }

    fn attach(self, text: &str) -> Cow<'_, str> {
        match self {
            Str::Span(a, b) => Cow::Borrowed(text.get(a..b).unwrap_or_default()),
            Str::Owned(o) => Cow::Owned(o),
        }
    }
}

fn opt(s: Option<Cow<'_, str>>, line: &str, base: usize) -> Option<Str> {
    s.map(|s| Str::of(s, line, base))
}

fn attach_opt(s: Option<Str>, text: &str) -> Option<Cow<'_, str>> {
    s.map(|s| s.attach(text))
}

/// [`Body`], detached from its line.
#[derive(Debug)]
pub(crate) enum DBody {
    Id(Str),
    IdDelta(Str, Str),
    TextStart {
        id: Str,
        role: Option<Str>,
    },
    ToolStart {
        id: Str,
        name: Str,
        parent: Option<Str>,
    },
    Step(Str),
    Nothing,
    Patch(Vec<json_patch::PatchOperation>),
    SubagentStarted {
        name: Str,
        parent: Option<Str>,
    },
    SubagentEnded {
        outcome: Option<Value>,
    },
}

/// [`FastEvent`], detached from its line.
#[derive(Debug)]
pub(crate) struct Detached {
    ty: EventType,
    tag: Option<Str>,
    body: DBody,
}

impl Detached {
    fn of(ev: FastEvent<'_>, line: &str, base: usize) -> Detached {
        let s = |x: Cow<'_, str>| Str::of(x, line, base);
        let body = match ev.body {
            Body::Id(id) => DBody::Id(s(id)),
            Body::IdDelta(id, d) => DBody::IdDelta(s(id), s(d)),
            Body::TextStart { id, role } => DBody::TextStart {
                id: s(id),
                role: opt(role, line, base),
            },
            Body::ToolStart { id, name, parent } => DBody::ToolStart {
                id: s(id),
                name: s(name),
                parent: opt(parent, line, base),
            },
            Body::Step(n) => DBody::Step(s(n)),
            Body::Nothing => DBody::Nothing,
            Body::Patch(p) => DBody::Patch(p),
            Body::SubagentStarted { name, parent } => DBody::SubagentStarted {
                name: s(name),
                parent: opt(parent, line, base),
            },
            Body::SubagentEnded { outcome } => DBody::SubagentEnded { outcome },
        };
        Detached {
            ty: ev.ty,
            tag: opt(ev.tag, line, base),
            body,
        }
    }

    /// The event again, borrowing from the batch's `text`.
    fn attach(self, text: &str) -> FastEvent<'_> {
        let body = match self.body {
            DBody::Id(id) => Body::Id(id.attach(text)),
            DBody::IdDelta(id, d) => Body::IdDelta(id.attach(text), d.attach(text)),
            DBody::TextStart { id, role } => Body::TextStart {
                id: id.attach(text),
                role: attach_opt(role, text),
            },
            DBody::ToolStart { id, name, parent } => Body::ToolStart {
                id: id.attach(text),
                name: name.attach(text),
                parent: attach_opt(parent, text),
            },
            DBody::Step(n) => Body::Step(n.attach(text)),
            DBody::Nothing => Body::Nothing,
            DBody::Patch(p) => Body::Patch(p),
            DBody::SubagentStarted { name, parent } => Body::SubagentStarted {
                name: name.attach(text),
                parent: attach_opt(parent, text),
            },
            DBody::SubagentEnded { outcome } => Body::SubagentEnded { outcome },
        };
        FastEvent {
            ty: self.ty,
            tag: attach_opt(self.tag, text),
            body,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_point_at_the_same_strings_in_the_batch() {
        let line = r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"a\nb","subagentRunId":"s1"}"#;
        let prefix = "earlier line text";
        let text = format!("{prefix}{line}");
        let ev = fast::parse(line).expect("a fast line");
        let back = Detached::of(ev, line, prefix.len()).attach(&text);
        assert_eq!(back.ty, EventType::TextMessageContent);
        assert_eq!(back.tag.as_deref(), Some("s1"));
        match back.body {
            Body::IdDelta(id, delta) => {
                assert_eq!(id, "m1");
                assert!(matches!(id, Cow::Borrowed(_)));
                // Decoded from its escape: carried owned.
                assert_eq!(delta, "a\nb");
            }
            other => panic!("unexpected body {other:?}"),
        }
    }
}
