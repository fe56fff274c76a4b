//! The chunk shorthand (docs/rules.md "Chunk shorthand"): `TEXT_MESSAGE_CHUNK`,
//! `TOOL_CALL_CHUNK` and `REASONING_MESSAGE_CHUNK` stand for START / CONTENT /
//! END events, assembled per *lane* (an owner; absent = the parent). Each
//! lane holds at most one open chunk stream. The events a chunk stands for
//! are checked like explicit ones, at the chunk's own index.

use super::Checker;
use super::book::{Kind, Owner, Part};
use crate::events::EventType;
use crate::rules::RuleId;
use crate::wire::key;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ChunkKind {
    Text,
    Tool,
    Reasoning,
}

impl ChunkKind {
    /// The entity kind whose owner on record the chunk continues.
    fn entity(self) -> Kind {
        match self {
            ChunkKind::Text => Kind::Text,
            ChunkKind::Tool => Kind::Tool,
            ChunkKind::Reasoning => Kind::Reasoning,
        }
    }

    /// The wire name of the id, for messages.
    fn id_field(self) -> &'static str {
        match self {
            ChunkKind::Text => key::TextMessageChunk::message_id,
            ChunkKind::Tool => key::ToolCallChunk::tool_call_id,
            ChunkKind::Reasoning => key::ReasoningMessageChunk::message_id,
        }
    }
}

/// What one chunk event says (from its typed body).
#[derive(Debug)]
pub(super) struct Chunk<'b> {
    pub kind: ChunkKind,
    pub id: Option<&'b str>,
    pub delta: Option<&'b str>,
    /// Text: `role` and `name`.
    pub role: Option<&'b str>,
    pub name: Option<&'b str>,
    /// Tool call: `toolCallName` and `parentMessageId`.
    pub tool_name: Option<&'b str>,
    pub parent: Option<&'b str>,
}

impl<'b> Chunk<'b> {
    /// A chunk of `kind` that restates no opener field.
    #[inline]
    fn bare(kind: ChunkKind, id: Option<&'b str>, delta: Option<&'b str>) -> Self {
        Chunk {
            kind,
            id,
            delta,
            role: None,
            name: None,
            tool_name: None,
            parent: None,
        }
    }

    /// A `TEXT_MESSAGE_CHUNK`.
    #[inline]
    pub(super) fn text(
        id: Option<&'b str>,
        role: Option<&'b str>,
        delta: Option<&'b str>,
        name: Option<&'b str>,
    ) -> Self {
        let bare = Chunk::bare(ChunkKind::Text, id, delta);
        Chunk { role, name, ..bare }
    }

    /// A `TOOL_CALL_CHUNK`.
    #[inline]
    pub(super) fn tool(
        id: Option<&'b str>,
        tool_name: Option<&'b str>,
        parent: Option<&'b str>,
        delta: Option<&'b str>,
    ) -> Self {
        let bare = Chunk::bare(ChunkKind::Tool, id, delta);
        Chunk {
            tool_name,
            parent,
            ..bare
        }
    }

    /// A `REASONING_MESSAGE_CHUNK`.
    #[inline]
    pub(super) fn reasoning(id: Option<&'b str>, delta: Option<&'b str>) -> Self {
        Chunk::bare(ChunkKind::Reasoning, id, delta)
    }
}

/// One open chunk stream: what its opening chunk said.
#[derive(Debug, Clone)]
pub(super) struct ChunkStream {
    kind: ChunkKind,
    id: String,
    /// The opening chunk's own tag.
    tag: Owner,
    /// Text: `role` (default `assistant`) and `name`.
    role: String,
    name: Option<String>,
    /// Tool call: `toolCallName` and `parentMessageId`.
    tool_name: Option<String>,
    parent: Option<String>,
    /// Index of the opening chunk: the related event of
    /// `chunk.opener-disagrees`.
    at: u32,
}

/// The open lanes, in the order they were opened.
#[derive(Debug, Default)]
pub(super) struct Lanes {
    lanes: Vec<(Owner, ChunkStream)>,
}

impl Lanes {
    /// No chunk stream is open (the fast path skips closing lanes then).
    pub(super) fn is_empty(&self) -> bool {
        self.lanes.is_empty()
    }

    /// How many lanes are open.
    pub(super) fn len(&self) -> usize {
        self.lanes.len()
    }

    /// The bytes the open lanes hold.
    pub(super) fn footprint(&self) -> usize {
        self.lanes.capacity() * std::mem::size_of::<(Owner, ChunkStream)>()
            + self
                .lanes
                .iter()
                .map(|(_, c)| {
                    c.id.capacity()
                        + c.role.capacity()
                        + [&c.name, &c.tool_name, &c.parent]
                            .iter()
                            .map(|x| x.as_ref().map_or(0, String::capacity))
                            .sum::<usize>()
                })
                .sum::<usize>()
    }

    fn position(&self, owner: Owner) -> Option<usize> {
        self.lanes.iter().position(|(o, _)| *o == owner)
    }
}

/// Which chunk lanes an event closes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Closes {
    Nothing,
    /// The lane of the event's owner (for a lifecycle event, of the
    /// invocation it names, when it names one).
    OwnLane,
    AllLanes,
}

/// The lane table of the chunk shorthand, read by the one dispatcher: every
/// explicit event of an owner ends that owner's chunk stream; the run's end
/// and `MESSAGES_SNAPSHOT` end them all; chunks, `RAW`, activities,
/// `REASONING_ENCRYPTED_VALUE` and `SUBAGENT_STARTED` end none.
fn closes(ty: EventType) -> Closes {
    use EventType::*;
    match ty {
        TextMessageStart
        | TextMessageContent
        | TextMessageEnd
        | ToolCallStart
        | ToolCallArgs
        | ToolCallEnd
        | ToolCallResult
        | StateSnapshot
        | StateDelta
        | Custom
        | StepStarted
        | StepFinished
        | ReasoningStart
        | ReasoningMessageStart
        | ReasoningMessageContent
        | ReasoningMessageEnd
        | ReasoningEnd
        | SubagentFinished
        | SubagentError => Closes::OwnLane,
        RunFinished | RunError | MessagesSnapshot => Closes::AllLanes,
        RunStarted
        | TextMessageChunk
        | ToolCallChunk
        | ReasoningMessageChunk
        | ActivitySnapshot
        | ActivityDelta
        | Raw
        | ReasoningEncryptedValue
        | SubagentStarted => Closes::Nothing,
    }
}

impl Checker {
    /// Closes the lanes event `i` of type `ty` closes; `tag` is its own
    /// `subagentRunId` (a string, on an attributable type).
    pub(super) fn close_lanes_for(&mut self, i: usize, ty: EventType, tag: Option<&str>) {
        match closes(ty) {
            Closes::OwnLane if ty.is_lifecycle() && tag.is_none() => {}
            Closes::OwnLane => {
                let owner = self.book.owner_of(tag);
                self.close_lane(i, owner);
            }
            Closes::AllLanes => self.close_all_lanes(i),
            Closes::Nothing => {}
        }
    }

    /// Closes the chunk stream open in `owner`'s lane, if any: an END
    /// carrying that stream's opener's tag.
    fn close_lane(&mut self, i: usize, owner: Owner) {
        if let Some(at) = self.lanes.position(owner) {
            let (_, stream) = self.lanes.lanes.remove(at);
            self.end_stream(i, &stream);
        }
    }

    /// Closes every lane (`RUN_*`, `MESSAGES_SNAPSHOT`).
    fn close_all_lanes(&mut self, i: usize) {
        for (_, stream) in std::mem::take(&mut self.lanes.lanes) {
            self.end_stream(i, &stream);
        }
    }

    fn end_stream(&mut self, i: usize, stream: &ChunkStream) {
        // Owned: the checker is borrowed mutably below.
        let tag = self.book.owner_str(stream.tag).map(str::to_owned);
        let tag = tag.as_deref();
        match stream.kind {
            ChunkKind::Text => self.text_end(i, &stream.id, tag),
            ChunkKind::Tool => self.tool_end(i, &stream.id, tag),
            ChunkKind::Reasoning => self.reasoning_message_end(i, &stream.id, tag),
        }
    }

    fn content(&mut self, i: usize, kind: ChunkKind, id: &str, tag: Option<&str>, delta: &str) {
        match kind {
            ChunkKind::Text => {
                self.delta(Part::Text, i, id, tag, delta, EventType::TextMessageContent)
            }
            ChunkKind::Tool => self.delta(Part::Tool, i, id, tag, delta, EventType::ToolCallArgs),
            ChunkKind::Reasoning => self.reasoning_message_content(
                i,
                id,
                tag,
                delta,
                EventType::ReasoningMessageContent,
            ),
        }
    }

    /// A chunk may open an entity and continue it in one event, so the
    /// record it continues was made by this very event, whose attribution
    /// is not recorded yet: never skip recording it.
    pub(super) fn chunk_event(
        &mut self,
        i: usize,
        ty: EventType,
        tag: Option<&str>,
        c: &Chunk<'_>,
    ) {
        self.judged(super::area::CHUNKS);
        self.chunk(i, ty, tag, c);
        self.tag_attributed = false;
    }

    /// One chunk event of type `ty`; `tag` is its own `subagentRunId`.
    fn chunk(&mut self, i: usize, ty: EventType, tag: Option<&str>, c: &Chunk<'_>) {
        let (kind, id, delta) = (c.kind, c.id, c.delta);
        // Which lane.
        let lane: Owner = match id {
            Some(id) => match self
                .lanes
                .lanes
                .iter()
                .find(|(_, st)| st.kind == kind && st.id == id)
            {
                Some((owner, stream)) => {
                    let (owner, opener) = (*owner, stream.at as usize);
                    if let (Some(t), None) = (tag, delta) {
                        self.judged(super::area::OWNERSHIP);
                        // With a delta, the CONTENT it stands for carries the
                        // tag and is judged as a continuation; without one,
                        // the chunk itself is, against the same owner on
                        // record (the lane's owner when nothing is on
                        // record), so both spellings get one answer.
                        let (rec, at) = match self.book.owner(kind.entity(), id) {
                            Some(rec) => (rec, self.book.recorded_at(kind.entity(), id)),
                            None => (owner, Some(opener)),
                        };
                        if !self.book.is_tag(rec, Some(t)) {
                            let rec = self.book.who(rec);
                            self.report_related(
                                RuleId::OwnershipContinuationDisagrees,
                                i,
                                format!("{ty} for {id:?} carries subagentRunId {t:?}, but {id:?} was opened by {rec}"),
                                at,
                            );
                        }
                    }
                    owner
                }
                None => self.book.owner_of(tag),
            },
            None if tag.is_some() => self.book.owner_of(tag),
            None => {
                let open_here = |o: Owner| {
                    self.lanes
                        .lanes
                        .iter()
                        .any(|(lo, st)| *lo == o && st.kind == kind)
                };
                if open_here(None) {
                    None
                } else {
                    let candidates: Vec<Owner> = self
                        .lanes
                        .lanes
                        .iter()
                        .filter(|(_, st)| st.kind == kind)
                        .map(|&(o, _)| o)
                        .collect();
                    match candidates.as_slice() {
                        [] => None,
                        [one] => *one,
                        many => {
                            let names: Vec<String> =
                                many.iter().map(|&o| self.book.who(o)).collect();
                            self.report(
                                RuleId::ChunkAmbiguous,
                                i,
                                format!(
                                    "{ty} without id or subagentRunId, while the parent has no open stream and {} do",
                                    names.join(" and ")
                                ),
                            );
                            return;
                        }
                    }
                }
            }
        };
        // Open or continue.
        let at = self.lanes.position(lane);
        if let Some(at) = at {
            let stream = &self.lanes.lanes[at].1;
            if stream.kind == kind && id.is_none_or(|id| id == stream.id) {
                let stream = stream.clone();
                self.check_opener_fields(i, ty, c, &stream);
                if let Some(delta) = delta {
                    let stream_tag = self.book.owner_str(stream.tag).map(str::to_owned);
                    let content_tag = tag.or(stream_tag.as_deref());
                    self.content(i, kind, &stream.id, content_tag, delta);
                }
                return;
            }
            let (_, old) = self.lanes.lanes.remove(at);
            self.end_stream(i, &old);
        }
        let Some(id) = id else {
            let field = kind.id_field();
            self.report(
                RuleId::ChunkNoStream,
                i,
                format!("{ty} would open a new stream but has no {field}"),
            );
            return;
        };
        let stream = ChunkStream {
            kind,
            id: id.to_owned(),
            tag: self.book.owner_of(tag),
            role: c.role.unwrap_or("assistant").to_owned(),
            name: c.name.map(str::to_owned),
            tool_name: c.tool_name.map(str::to_owned),
            parent: c.parent.map(str::to_owned),
            at: u32::try_from(i).unwrap_or(u32::MAX),
        };
        match kind {
            ChunkKind::Text => self.text_start(i, id, tag, &stream.role),
            ChunkKind::Tool => {
                let Some(name) = stream.tool_name.clone() else {
                    self.report(
                        RuleId::ChunkMissingName,
                        i,
                        format!(
                            "TOOL_CALL_CHUNK would open tool call {id:?} but has no toolCallName"
                        ),
                    );
                    return;
                };
                self.tool_start(i, id, tag, &name, stream.parent.as_deref());
            }
            ChunkKind::Reasoning => self.reasoning_message_start(i, id, tag),
        }
        self.lanes.lanes.push((lane, stream));
        if let Some(delta) = delta {
            self.content(i, kind, id, tag, delta);
        }
    }

    /// `chunk.opener-disagrees`: a continuing chunk restating an opener
    /// field with another value (a field the opener left out counts as
    /// different, except a text `role`, which defaulted to `assistant`).
    fn check_opener_fields(&mut self, i: usize, ty: EventType, c: &Chunk<'_>, st: &ChunkStream) {
        use key::{TextMessageChunk as T, ToolCallChunk as C};
        // (wire name, what this chunk says, what the opener said)
        let fields: [(&str, Option<&str>, Option<&str>); 2] = match st.kind {
            ChunkKind::Text => [
                (T::role, c.role, Some(st.role.as_str())),
                (T::name, c.name, st.name.as_deref()),
            ],
            ChunkKind::Tool => [
                (C::tool_call_name, c.tool_name, st.tool_name.as_deref()),
                (C::parent_message_id, c.parent, st.parent.as_deref()),
            ],
            ChunkKind::Reasoning => return,
        };
        for (field, said, opener) in fields {
            if let Some(said) = said
                && Some(said) != opener
            {
                let id = &st.id;
                let was = opener.map_or("nothing".to_owned(), |v| format!("{v:?}"));
                self.report_related(
                    RuleId::ChunkOpenerDisagrees,
                    i,
                    format!(
                        "{ty} continuing {id:?} states {field} {said:?}, but its opener said {was}"
                    ),
                    Some(st.at as usize),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! One detection test (exact rule and index) and one near miss per chunk
    //! rule, and how lanes open, close and are judged, written by hand from
    //! docs/rules.md and the draft.

    use crate::RuleId as R;
    use crate::checker::streams::*;
    use serde_json::json;

    #[test]
    fn chunk_ambiguous() {
        let events = [
            run_started(),
            text_chunk(Some("a"), Some("x"), Some("s1")),
            text_chunk(Some("b"), Some("y"), Some("s2")),
            text_chunk(None, Some("z"), None),
        ];
        expect_first(&events, R::ChunkAmbiguous, 3);
    }
    #[test]
    fn chunk_near_miss_sole_lane() {
        expect_projection(
            &[
                run_started(),
                text_chunk(Some("a"), Some("x"), Some("s1")),
                text_chunk(None, Some("y"), None),
                run_finished(),
            ],
            json!({"runs": [{"threadId": "t1", "runId": "r1", "status": "finished",
            "invocations": [{"id": "s1", "status": "unannounced"}],
            "messages": [{"id": "a", "role": "assistant", "owner": "s1", "content": "xy"}],
            "state": {}, "interrupts": []}]}),
        );
    }
    #[test]
    fn chunk_no_stream() {
        expect_first(
            &[run_started(), text_chunk(None, Some("x"), None)],
            R::ChunkNoStream,
            1,
        );
    }
    #[test]
    fn chunk_missing_name() {
        expect_first(
            &[
                run_started(),
                tool_chunk(Some("c1"), None, Some("{}"), None),
            ],
            R::ChunkMissingName,
            1,
        );
    }
    #[test]
    fn chunk_opener_disagrees() {
        let events = [
            run_started(),
            tool_chunk(Some("c1"), Some("search"), Some("{"), None),
            tool_chunk(Some("c1"), Some("fetch"), Some("}"), None),
        ];
        expect_first(&events, R::ChunkOpenerDisagrees, 2);
        // A name the opener left out counts as different.
        let events = [
            run_started(),
            text_chunk(Some("m1"), Some("a"), None),
            json!({"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "name": "bob", "delta": "b"}),
        ];
        expect_first(&events, R::ChunkOpenerDisagrees, 2);
    }
    #[test]
    fn chunk_opener_near_miss_restated_assistant_role() {
        expect_clean(&[
            run_started(),
            text_chunk(Some("m1"), Some("a"), None),
            json!({"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "role": "assistant", "delta": "b"}),
            run_finished(),
        ]);
    }
    #[test]
    fn chunk_with_id_continues_other_lane_with_disagreeing_tag() {
        let events = [
            run_started(),
            text_chunk(Some("m1"), Some("a"), Some("s1")),
            text_chunk(Some("m1"), Some("b"), Some("s2")),
        ];
        expect_first(&events, R::OwnershipContinuationDisagrees, 2);
    }
    #[test]
    fn chunk_closed_by_explicit_event_of_own_owner_then_explicit_end_is_not_open() {
        // The explicit END closes the parent's lane first (synthesised END m1),
        // so the explicit END finds m1 no longer open.
        let events = [
            run_started(),
            text_chunk(Some("m1"), Some("a"), None),
            text_end("m1", None),
        ];
        expect_first(&events, R::TextNotOpen, 2);
    }
    #[test]
    fn chunk_lane_survives_other_owners_events() {
        expect_clean(&[
            run_started(),
            text_chunk(Some("m1"), Some("a"), Some("s1")),
            text_start("m2", None),
            text_end("m2", None),
            text_chunk(None, Some("b"), Some("s1")),
            run_finished(),
        ]);
    }

    #[test]
    fn chunk_continuation_is_judged_against_the_owner_on_record_with_or_without_delta() {
        // An untagged tool chunk on s1's message opens (in the parent's lane) a
        // call owned by s1. A continuing chunk tagged s1 agrees with that owner,
        // whether or not it carries a delta; one tagged s2 disagrees either way.
        let base = || {
            vec![
                run_started(),
                text_start("m1", Some("s1")),
                text_end("m1", Some("s1")),
                // Arguments that are JSON with or without the continuation's
                // delta (else `tool.args-not-json` at the run's end).
                json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "c1", "toolCallName": "f", "parentMessageId": "m1", "delta": "{}"}),
            ]
        };
        for delta in [Some(" "), None] {
            let mut agree = base();
            agree.push(tool_chunk(Some("c1"), None, delta, Some("s1")));
            agree.push(run_finished());
            expect_clean(&agree);
            let mut disagree = base();
            disagree.push(tool_chunk(Some("c1"), None, delta, Some("s2")));
            expect_first(&disagree, R::OwnershipContinuationDisagrees, 4);
        }
    }
}
