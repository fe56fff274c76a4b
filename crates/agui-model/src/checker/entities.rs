//! The entity rules (docs/rules.md "Entity rules", but `state.patch-fails`,
//! in [`super::state`]): text messages, tool calls, reasoning spans and
//! messages, steps and activities opened, continued and closed, and the
//! owners of what they put on record (judged in [`super::ownership`]).

use super::book::{Kind, Owner, Part};
use super::names::Name;
use super::{Checker, s, said};
use crate::body::Val;
use crate::events::EventType;
use crate::projection::content_text;
use crate::rules::RuleId;
use crate::wire::{SUBAGENT_RUN_ID, nested};
use serde_json::{Map, Value};

/// The entity rules of a part: its `*.already-open` and `*.not-open`, and
/// how a message names it (reasoning spans and messages share ids).
pub(super) fn part_rules(part: Part) -> (RuleId, RuleId, &'static str) {
    use RuleId as R;
    match part {
        Part::Text => (R::TextAlreadyOpen, R::TextNotOpen, ""),
        Part::Tool => (R::ToolAlreadyOpen, R::ToolNotOpen, ""),
        Part::Span => (R::ReasoningAlreadyOpen, R::ReasoningNotOpen, "span "),
        Part::Message => (
            R::ReasoningAlreadyOpen,
            R::ReasoningNotOpen,
            "reasoning message ",
        ),
    }
}

impl Checker {
    /// `*.already-open`: the opener `ty` at `i` of a `part` `id` that is
    /// open; where it was opened. Inlined (every opener asks), the report
    /// kept out of line.
    #[inline]
    fn already_open(&mut self, i: usize, part: Part, id: &str, ty: EventType) -> Option<usize> {
        self.judged(super::area::ENTITIES);
        let at = self.book.opened_at(part, id)?;
        self.report_already_open(i, part, id, ty, at);
        Some(at)
    }

    #[cold]
    fn report_already_open(&mut self, i: usize, part: Part, id: &str, ty: EventType, at: usize) {
        let (rule, _, what) = part_rules(part);
        let msg = format!("{ty} for {what}{id:?}, which is already open");
        self.report_related(rule, i, msg, Some(at));
    }

    // ---- text messages ----

    pub(super) fn text_start(&mut self, i: usize, id: &str, tag: Option<&str>, role: &str) {
        let ty = EventType::TextMessageStart;
        if self.already_open(i, Part::Text, id, ty).is_some() {
            return;
        }
        let owner = self.book.owner_of(tag);
        self.reopen(i, Kind::Text, id, tag.map(|_| owner), ty);
        let name = self
            .book
            .record_first(Kind::Text, id, owner, tag.is_some(), i);
        self.book.open(Part::Text, id, i);
        self.book.said.text_started(name, i);
        if let Some(p) = self.projector.as_mut() {
            let owner = self.book.owner(Kind::Text, id).flatten();
            p.message_started(self.book.names_mut(), name, role, owner);
        }
    }

    pub(super) fn text_end(&mut self, i: usize, id: &str, tag: Option<&str>) {
        self.continue_open(i, Part::Text, id, tag, EventType::TextMessageEnd, true);
    }

    // ---- tool calls ----

    pub(super) fn tool_start(
        &mut self,
        i: usize,
        id: &str,
        tag: Option<&str>,
        name: &str,
        parent: Option<&str>,
    ) {
        let ty = EventType::ToolCallStart;
        if self.already_open(i, Part::Tool, id, ty).is_some() {
            return;
        }
        let parent_owner = parent.and_then(|m| self.book.owner(Kind::Text, m));
        let effective: Option<Owner> = match tag {
            Some(t) => Some(self.book.owner_of(Some(t))),
            None => parent_owner,
        };
        self.reopen(i, Kind::Tool, id, effective, ty);
        if let (Some(t), Some(m), Some(po)) = (tag, parent, parent_owner) {
            self.tool_call_vs_message(i, id, t, m, po);
        }
        let call_owner: Owner = effective
            .or_else(|| self.book.owner(Kind::Tool, id))
            .flatten();
        if let Some(m) = parent
            && parent_owner.is_none()
        {
            let own = tag.is_some() && self.book.is_tag(call_owner, tag);
            self.book.record(Kind::Text, m, call_owner, own, i);
        }
        let key =
            self.book
                .record_first(Kind::Tool, id, effective.unwrap_or(None), tag.is_some(), i);
        self.book.open(Part::Tool, id, i);
        let tool = self.book.intern_name(name);
        self.book.said.call_started(key, tool, i);
        if let Some(p) = self.projector.as_mut() {
            p.tool_call_started(self.book.names_mut(), key, name, parent, call_owner);
        }
    }

    /// A `TEXT_MESSAGE_CONTENT` or `TOOL_CALL_ARGS` (or the content a
    /// chunk stands for): once the message or call is open under its
    /// owner, the delta goes to what the run said (text or arguments) and to
    /// the projection.
    pub(super) fn delta(
        &mut self,
        part: Part,
        i: usize,
        id: &str,
        tag: Option<&str>,
        delta: &str,
        ty: EventType,
    ) {
        let Some(name) = self.continue_open(i, part, id, tag, ty, false) else {
            return;
        };
        if part == Part::Tool {
            self.book.said.call_args(name, delta);
            if let Some(p) = self.projector.as_mut() {
                p.tool_call_args(name, delta);
            }
        } else {
            let fold_at = (self.limits.bookkeeping_bytes / 8).min(said::FOLD_BYTES);
            self.book.said.text_delta(name, delta, fold_at);
            if let Some(p) = self.projector.as_mut() {
                p.message_content(name, delta);
            }
        }
    }

    /// An explicit `TOOL_CALL_END`, or the END a chunk lane's close stands
    /// for: `i` is the event that ends the call.
    pub(super) fn tool_end(&mut self, i: usize, id: &str, tag: Option<&str>) {
        let ty = EventType::ToolCallEnd;
        if let Some(name) = self.continue_open(i, Part::Tool, id, tag, ty, true) {
            self.call_ended(i, id, name);
        }
    }

    /// `TOOL_CALL_RESULT` at `i`: judged against the call it answers; its
    /// message is recorded under its own tag (not the call's owner).
    pub(super) fn tool_result(
        &mut self,
        i: usize,
        tag: Option<&str>,
        id: Option<&str>,
        call: Option<&str>,
        content: Option<&Val<'_>>,
    ) {
        if let Some(call) = call {
            self.result_for_call(i, call);
        }
        if let Some(id) = id {
            let owner = self.book.owner_of(tag);
            self.book.record(Kind::Text, id, owner, tag.is_some(), i);
            if let Some(p) = self.projector.as_mut() {
                let content = content.and_then(Val::value);
                let content = content_text(content.as_deref());
                p.tool_result(self.book.names_mut(), id, content, tag);
            }
        }
    }

    /// `MESSAGES_SNAPSHOT` at `i`: compared with what the run streamed,
    /// then its messages replace what is on record.
    pub(super) fn messages_snapshot(&mut self, i: usize, messages: Option<&Val<'_>>) {
        let messages = messages.and_then(Val::value);
        if let Some(Value::Array(messages)) = messages.as_deref() {
            self.snapshot_agrees(i, messages);
            self.record_messages(i, messages, true);
            if let Some(p) = self.projector.as_mut() {
                p.messages_snapshot(self.book.names_mut(), messages);
            }
        }
    }

    /// `ACTIVITY_SNAPSHOT` at `i` for `id`: a new activity, or one it
    /// replaces, is on record as its tag's.
    pub(super) fn activity_snapshot(
        &mut self,
        i: usize,
        id: &str,
        tag: Option<&str>,
        activity_type: Option<&str>,
        content: Option<&Val<'_>>,
        replace: bool,
    ) {
        let new = self.book.owner(Kind::Activity, id).is_none();
        if new || replace {
            let owner = self.book.owner_of(tag);
            self.book
                .record(Kind::Activity, id, owner, tag.is_some(), i);
        }
        if let Some(p) = self.projector.as_mut() {
            let empty = Value::Object(Map::new());
            let content = content.and_then(Val::value);
            p.activity_snapshot(
                self.book.names_mut(),
                id,
                activity_type.unwrap_or_default(),
                content.as_deref().unwrap_or(&empty),
                replace,
                tag,
            );
        }
    }

    /// `ACTIVITY_DELTA` at `i`: a continuation of the activity `id`.
    pub(super) fn activity_delta(
        &mut self,
        i: usize,
        id: &str,
        tag: Option<&str>,
        ty: EventType,
        patch: Option<&[json_patch::PatchOperation]>,
    ) {
        self.continuation(i, Kind::Activity, id, tag, ty);
        if let Some(p) = self.projector.as_mut()
            && let Some(patch) = patch
        {
            p.activity_delta(self.book.names_mut(), id, patch);
        }
    }

    // ---- reasoning ----

    /// Shared by `REASONING_START` and `REASONING_MESSAGE_START`: an opener
    /// whose id names an open span or message is a continuation.
    fn reasoning_opener(&mut self, i: usize, id: &str, tag: Option<&str>, ty: EventType) -> Name {
        let owner = self.book.owner_of(tag);
        if self.book.reasoning_open(id) {
            self.continuation(i, Kind::Reasoning, id, tag, ty);
        } else {
            self.reopen(i, Kind::Reasoning, id, tag.map(|_| owner), ty);
        }
        self.book
            .record_first(Kind::Reasoning, id, owner, tag.is_some(), i)
    }

    pub(super) fn reasoning_start(&mut self, i: usize, id: &str, tag: Option<&str>) {
        let ty = EventType::ReasoningStart;
        self.already_open(i, Part::Span, id, ty);
        self.reasoning_opener(i, id, tag, ty);
        self.book.open(Part::Span, id, i);
    }

    pub(super) fn reasoning_end(&mut self, i: usize, id: &str, tag: Option<&str>) {
        self.continue_open(i, Part::Span, id, tag, EventType::ReasoningEnd, true);
    }

    pub(super) fn reasoning_message_start(&mut self, i: usize, id: &str, tag: Option<&str>) {
        let ty = EventType::ReasoningMessageStart;
        let was_open = self.already_open(i, Part::Message, id, ty).is_some();
        let name = self.reasoning_opener(i, id, tag, ty);
        self.book.open(Part::Message, id, i);
        if !was_open && let Some(p) = self.projector.as_mut() {
            let owner = self.book.owner(Kind::Reasoning, id).flatten();
            p.message_started(self.book.names_mut(), name, "reasoning", owner);
        }
    }

    pub(super) fn reasoning_message_content(
        &mut self,
        i: usize,
        id: &str,
        tag: Option<&str>,
        delta: &str,
        ty: EventType,
    ) {
        let Some(name) = self.continue_open(i, Part::Message, id, tag, ty, false) else {
            return;
        };
        if let Some(p) = self.projector.as_mut() {
            p.message_content(name, delta);
        }
    }

    pub(super) fn reasoning_message_end(&mut self, i: usize, id: &str, tag: Option<&str>) {
        let ty = EventType::ReasoningMessageEnd;
        self.continue_open(i, Part::Message, id, tag, ty, true);
    }

    // ---- steps ----

    pub(super) fn step_started(&mut self, i: usize, name: &str, tag: Option<&str>) {
        self.judged(super::area::ENTITIES);
        let owner = self.book.owner_of(tag);
        let holders = self.book.step_holders(name);
        if let Some(&(_, at)) = holders.iter().find(|(o, _)| *o == owner) {
            let who = self.book.who(owner);
            self.report_related(
                RuleId::StepAlreadyOpen,
                i,
                format!("STEP_STARTED {name:?} by {who}, who already has it open"),
                Some(at as usize),
            );
        } else {
            holders.push((owner, u32::try_from(i).unwrap_or(u32::MAX)));
        }
    }

    pub(super) fn step_finished(&mut self, i: usize, name: &str, tag: Option<&str>) {
        self.judged(super::area::ENTITIES);
        let owner = self.book.owner_of(tag);
        let Some(holders) = self.book.open_step(name) else {
            self.report(
                RuleId::StepNotOpen,
                i,
                format!("STEP_FINISHED {name:?}, which no one has open"),
            );
            return;
        };
        // `ownership.step-owner`: its owner against the step's holders.
        self.judging |= super::area::OWNERSHIP;
        if let Some(at) = holders.iter().position(|(o, _)| *o == owner) {
            holders.remove(at);
        } else {
            let others = holders.clone();
            // The step it closes: the first holder's, named by its
            // STEP_STARTED.
            let (_, closed_at) = holders.remove(0);
            self.step_owner(i, name, owner, &others, closed_at as usize);
        }
        self.book.drop_step_if_closed(name);
    }

    // ---- replayed messages ----

    /// Records the owners of replayed messages (`MESSAGES_SNAPSHOT`
    /// replaces, the `RUN_STARTED` input only fills gaps).
    pub(super) fn record_messages(&mut self, i: usize, messages: &[Value], replace: bool) {
        for m in messages {
            let Some(m) = m.as_object() else { continue };
            let Some(id) = s(m, nested::ID) else { continue };
            let owner = self.book.owner_of(s(m, SUBAGENT_RUN_ID));
            let role = s(m, nested::ROLE);
            let kind = match role {
                Some("reasoning") => Kind::Reasoning,
                Some("activity") => Kind::Activity,
                _ => Kind::Text,
            };
            if replace {
                self.book.record(kind, id, owner, false, i);
            } else {
                self.book.record_first(kind, id, owner, false, i);
            }
            if role == Some("assistant") {
                for call in m
                    .get(nested::TOOL_CALLS)
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    if let Some(cid) = call.get(nested::ID).and_then(crate::json::text) {
                        if replace {
                            self.book.record(Kind::Tool, cid, owner, false, i);
                        } else {
                            self.book.record_first(Kind::Tool, cid, owner, false, i);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! One detection test (exact rule and index) and one near miss per entity
    //! rule, written by hand from docs/rules.md and the draft.

    use crate::RuleId as R;
    use crate::checker::streams::*;

    #[test]
    fn text_already_open() {
        expect_first(
            &[
                run_started(),
                text_start("m1", None),
                text_start("m1", None),
            ],
            R::TextAlreadyOpen,
            2,
        );
    }
    #[test]
    fn text_already_open_near_miss_same_id_other_kind() {
        // Entities are keyed per kind: a text message and a tool call may share an id.
        expect_clean(&[
            run_started(),
            text_start("x", None),
            tool_start("x", "search", None, None),
            tool_end("x", None),
            text_end("x", None),
            run_finished(),
        ]);
    }
    #[test]
    fn text_not_open() {
        expect_first(
            &[run_started(), text_content("m1", "hi", None)],
            R::TextNotOpen,
            1,
        );
        expect_first(
            &[
                run_started(),
                text_start("m1", None),
                text_end("m1", None),
                text_end("m1", None),
            ],
            R::TextNotOpen,
            3,
        );
    }
    #[test]
    fn tool_already_open() {
        expect_first(
            &[
                run_started(),
                tool_start("c1", "f", None, None),
                tool_start("c1", "f", None, None),
            ],
            R::ToolAlreadyOpen,
            2,
        );
    }
    #[test]
    fn tool_not_open() {
        expect_first(
            &[run_started(), tool_args("c1", "{}", None)],
            R::ToolNotOpen,
            1,
        );
    }
    #[test]
    fn tool_near_miss_reopen_after_close() {
        expect_clean(&[
            run_started(),
            tool_start("c1", "f", None, None),
            tool_end("c1", None),
            tool_start("c1", "f", None, None),
            tool_end("c1", None),
            run_finished(),
        ]);
    }
    #[test]
    fn reasoning_already_open() {
        expect_first(
            &[
                run_started(),
                reasoning_start("r1", None),
                reasoning_start("r1", None),
            ],
            R::ReasoningAlreadyOpen,
            2,
        );
        expect_first(
            &[
                run_started(),
                reasoning_msg_start("r1", None),
                reasoning_msg_start("r1", None),
            ],
            R::ReasoningAlreadyOpen,
            2,
        );
    }
    #[test]
    fn reasoning_near_miss_span_and_message_share_id() {
        expect_clean(&[
            run_started(),
            reasoning_start("r1", Some("s1")),
            reasoning_msg_start("r1", Some("s1")),
            reasoning_msg_content("r1", "think", None),
            reasoning_msg_end("r1", None),
            reasoning_end("r1", Some("s1")),
            run_finished(),
        ]);
    }
    #[test]
    fn reasoning_not_open() {
        expect_first(
            &[run_started(), reasoning_msg_content("r1", "x", None)],
            R::ReasoningNotOpen,
            1,
        );
        // REASONING_END names a span; an open reasoning message of that id is not a span.
        expect_first(
            &[
                run_started(),
                reasoning_msg_start("r1", None),
                reasoning_end("r1", None),
            ],
            R::ReasoningNotOpen,
            2,
        );
    }
    #[test]
    fn step_already_open() {
        expect_first(
            &[
                run_started(),
                step_started("plan", Some("s1")),
                step_started("plan", Some("s1")),
            ],
            R::StepAlreadyOpen,
            2,
        );
    }
    #[test]
    fn step_not_open() {
        expect_first(
            &[run_started(), step_finished("plan", None)],
            R::StepNotOpen,
            1,
        );
    }
}
