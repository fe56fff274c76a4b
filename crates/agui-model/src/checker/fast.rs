//! [`Checker::push_line`]: the borrowed fast path into the same checker.
//!
//! A line the fast parser ([`crate::fast`]) accepts is schema-valid, so it
//! only needs the stream rules; it gets them from the very methods the
//! `Value` path uses, called with the typed fields. Only events inside an
//! active run take this path; run boundaries, snapshots, chunks and anything
//! unusual go through [`Checker::push`], so reports are identical.

use super::{Checker, Phase};
use crate::events::EventType;
use crate::fast::{self, Body, FastEvent};
use serde_json::Value;

impl Checker {
    /// Feeds one JSON Lines line (without its line ending): the fast path
    /// when it applies, else the line is parsed into a `Value` and
    /// [`Checker::push`]ed, or reported with [`Checker::push_unparseable`]
    /// (the reason here is serde_json's; the stream reader words its own).
    pub fn push_line(&mut self, line: &[u8]) {
        if self.try_push_line(line) {
            return;
        }
        match serde_json::from_slice::<Value>(line) {
            Ok(v) => self.push(&v),
            Err(e) => self.push_unparseable(&e.to_string()),
        }
    }

    /// Checks one line on the fast path and returns `true`, or returns
    /// `false` having changed nothing (the caller takes the `Value` path).
    pub fn try_push_line(&mut self, line: &[u8]) -> bool {
        if !self.takes_fast() {
            return false;
        }
        // simdutf8: the same answer as `std::str::from_utf8`, in about half
        // the time on lines of this length (docs/performance.md).
        let Ok(text) = simdutf8::basic::from_utf8(line) else {
            return false;
        };
        let Some(ev) = fast::parse(text) else {
            return false;
        };
        self.push_event(ev);
        true
    }

    /// Whether the fast path applies now. It takes nesting up to its own
    /// depth below the event: under a lower limit, every line goes where
    /// the limit is judged.
    fn takes_fast(&self) -> bool {
        self.phase == Phase::Active && self.limits.nesting > crate::fast::MAX_DEPTH
    }

    /// An event parsed ahead on another thread (`crate::pipeline`): checked
    /// as [`Checker::try_push_line`] would check its line, or `false`
    /// having changed nothing.
    pub(crate) fn try_push_event(&mut self, ev: FastEvent<'_>) -> bool {
        if !self.takes_fast() {
            return false;
        }
        self.push_event(ev);
        true
    }

    fn push_event(&mut self, ev: FastEvent<'_>) {
        let i = self.index;
        self.index += 1;
        self.fast_in_run(i, ev);
        self.flush();
    }

    /// `in_run` for the fast-path types, field for field.
    fn fast_in_run(&mut self, i: usize, ev: FastEvent<'_>) {
        use EventType::*;
        let ty = ev.ty;
        let tag = ev.tag.as_deref();
        // The attribution is recorded after the rules ran (none of this
        // event's rules reads it), so a continuation whose tag is already
        // on record as attributed skips the lookup.
        let own_tag = tag.filter(|_| !ty.is_lifecycle());
        if let Some(id) = own_tag
            && let Some(p) = self.projector.as_mut()
        {
            p.attributed(id);
        }
        // With no chunk stream open there is no lane to close.
        if !self.lanes.is_empty() {
            self.close_lanes_for(i, ty, tag);
        }
        // After closing lanes: their ends judge other tags.
        self.tag_attributed = false;
        match (ty, ev.body) {
            (TextMessageStart, Body::TextStart { id, role }) => {
                self.text_start(i, &id, tag, role.as_deref().unwrap_or("assistant"));
            }
            (TextMessageContent, Body::IdDelta(id, delta)) => {
                self.text_content(i, &id, tag, &delta, ty);
            }
            (TextMessageEnd, Body::Id(id)) => self.text_end(i, &id, tag),
            (ToolCallStart, Body::ToolStart { id, name, parent }) => {
                self.tool_start(i, &id, tag, &name, parent.as_deref());
            }
            (ToolCallArgs, Body::IdDelta(id, delta)) => self.tool_args(i, &id, tag, &delta, ty),
            (ToolCallEnd, Body::Id(id)) => self.tool_end(i, &id, tag),
            (ReasoningStart, Body::Id(id)) => self.reasoning_start(i, &id, tag),
            (ReasoningEnd, Body::Id(id)) => self.reasoning_end(i, &id, tag),
            (ReasoningMessageStart, Body::Id(id)) => self.reasoning_message_start(i, &id, tag),
            (ReasoningMessageContent, Body::IdDelta(id, delta)) => {
                self.reasoning_message_content(i, &id, tag, &delta, ty);
            }
            (ReasoningMessageEnd, Body::Id(id)) => self.reasoning_message_end(i, &id, tag),
            (StepStarted, Body::Step(name)) => self.step_started(i, &name, tag),
            (StepFinished, Body::Step(name)) => self.step_finished(i, &name, tag),
            (StateDelta, Body::Patch(patch)) => self.state_delta(i, &patch),
            (SubagentStarted, Body::SubagentStarted { name, parent }) => {
                if let Some(id) = tag {
                    self.subagent_started(i, id, Some(&name), parent.as_deref());
                }
            }
            (SubagentFinished | SubagentError, Body::SubagentEnded { outcome }) => {
                if let Some(id) = tag {
                    let outcome = outcome.as_ref().and_then(Value::as_object);
                    self.subagent_ended(i, ty, id, outcome);
                }
            }
            _ => {}
        }
        if let Some(id) = own_tag
            && !self.tag_attributed
        {
            self.book.attribute(id);
        }
    }
}
