//! The one dispatcher (ARCHITECTURE.md): the table from each event type to
//! the rules of its area, for either parse path.

use super::book::Part;
use super::chunks::Chunk;
use super::{Checker, Phase, run};
use crate::body::{Body, Typed, Val};
use crate::events::EventType;
use crate::limits::{LimitKind, LimitNotice};
use serde_json::Value;

impl Checker {
    /// The one dispatcher: every event, from either parse path (the
    /// borrowed fast path or the `Value` path), as a typed body. Taken by
    /// reference: the body is built in the caller's frame and never moved
    /// (moving it cost 5.7% of `check`, docs/performance-log.md).
    pub(super) fn dispatch(&mut self, i: usize, ev: &Typed<'_>) {
        let ty = ev.body.event_type();
        if self.blind && ty == EventType::RunStarted {
            // Full checking resumes here, as at the stream's start: the
            // skipped event may have ended the run before it.
            self.blind = false;
            self.frozen = false;
            self.phase = Phase::Start;
        }
        if self.frozen {
            // Nothing is recorded; a run's end still ends what is shown.
            let status = match &ev.body {
                Body::RunFinished { outcome, .. } => run::status_of(outcome.as_ref()),
                Body::RunError { .. } => "errored",
                _ => return,
            };
            if let Some(p) = self.projector.as_mut() {
                p.run_ended(status);
            }
            return;
        }
        if !self.enter(i, ty) {
            return;
        }
        let Typed { tag, body } = ev;
        let tag = tag.as_deref();
        // The attribution is recorded after the rules ran (none of this
        // event's rules reads it: only SUBAGENT_STARTED asks, and it
        // attributes nothing), so a continuation whose tag is already on
        // record as attributed skips the lookup.
        let own_tag = tag.filter(|_| !ty.is_lifecycle());
        // The projector learns of an attribution with the book, after the
        // rules (a continuation of an entity its tag put on record needs
        // no lookup); a run boundary's before, in the run it ends.
        let boundary = matches!(
            ty,
            EventType::RunStarted | EventType::RunFinished | EventType::RunError
        );
        if boundary
            && let Some(id) = own_tag
            && let Some(p) = self.projector.as_mut()
        {
            p.attributed(self.book.names_mut(), id);
        }
        // The chunk shorthand: which events close which lanes (with no
        // chunk stream open there is none to close).
        if !self.lanes.is_empty() {
            self.close_lanes_for(i, ty, tag);
        }
        // After closing lanes: their ends judge other tags.
        self.tag_attributed = false;
        // The table: each event type to the rules of its area. One event's
        // violations are sorted into catalogue order when flushed, so the
        // order of the arms changes no report.
        match body {
            // Run (run.rs).
            Body::RunStarted {
                thread_id,
                run_id,
                input,
                ..
            } => self.run_started(i, thread_id.as_deref(), run_id.as_deref(), input.as_ref()),
            Body::RunFinished {
                thread_id,
                run_id,
                outcome,
                ..
            } => self.run_finished(i, thread_id.as_deref(), run_id.as_deref(), outcome.as_ref()),
            Body::RunError { .. } => self.run_error(i),
            // Chunks (chunks.rs): the events a chunk stands for.
            Body::TextMessageChunk {
                message_id,
                role,
                delta,
                name,
            } => {
                let c = Chunk::text(
                    message_id.as_deref(),
                    role.as_deref(),
                    delta.as_deref(),
                    name.as_deref(),
                );
                self.chunk_event(i, ty, tag, &c);
            }
            Body::ToolCallChunk {
                tool_call_id,
                tool_call_name,
                parent_message_id,
                delta,
            } => {
                let c = Chunk::tool(
                    tool_call_id.as_deref(),
                    tool_call_name.as_deref(),
                    parent_message_id.as_deref(),
                    delta.as_deref(),
                );
                self.chunk_event(i, ty, tag, &c);
            }
            Body::ReasoningMessageChunk { message_id, delta } => {
                let c = Chunk::reasoning(message_id.as_deref(), delta.as_deref());
                self.chunk_event(i, ty, tag, &c);
            }
            // Entities (entities.rs): an event without its id is skipped.
            Body::TextMessageStart {
                message_id, role, ..
            } => {
                if let Some(id) = message_id {
                    self.text_start(i, id, tag, role.as_deref().unwrap_or("assistant"));
                }
            }
            Body::TextMessageContent { message_id, delta } => {
                if let Some(id) = message_id {
                    let delta = delta.as_deref().unwrap_or_default();
                    self.delta(Part::Text, i, id, tag, delta, ty);
                }
            }
            Body::TextMessageEnd { message_id } => {
                if let Some(id) = message_id {
                    self.text_end(i, id, tag);
                }
            }
            Body::ToolCallStart {
                tool_call_id,
                tool_call_name,
                parent_message_id,
            } => {
                if let Some(id) = tool_call_id {
                    let name = tool_call_name.as_deref().unwrap_or_default();
                    self.tool_start(i, id, tag, name, parent_message_id.as_deref());
                }
            }
            Body::ToolCallArgs {
                tool_call_id,
                delta,
            } => {
                if let Some(id) = tool_call_id {
                    let delta = delta.as_deref().unwrap_or_default();
                    self.delta(Part::Tool, i, id, tag, delta, ty);
                }
            }
            Body::ToolCallEnd { tool_call_id } => {
                if let Some(id) = tool_call_id {
                    self.tool_end(i, id, tag);
                }
            }
            Body::ToolCallResult {
                message_id,
                tool_call_id,
                content,
                ..
            } => self.tool_result(
                i,
                tag,
                message_id.as_deref(),
                tool_call_id.as_deref(),
                content.as_ref(),
            ),
            Body::ReasoningStart { message_id } => {
                if let Some(id) = message_id {
                    self.reasoning_start(i, id, tag);
                }
            }
            Body::ReasoningEnd { message_id } => {
                if let Some(id) = message_id {
                    self.reasoning_end(i, id, tag);
                }
            }
            Body::ReasoningMessageStart { message_id, .. } => {
                if let Some(id) = message_id {
                    self.reasoning_message_start(i, id, tag);
                }
            }
            Body::ReasoningMessageContent { message_id, delta } => {
                if let Some(id) = message_id {
                    let delta = delta.as_deref().unwrap_or_default();
                    self.reasoning_message_content(i, id, tag, delta, ty);
                }
            }
            Body::ReasoningMessageEnd { message_id } => {
                if let Some(id) = message_id {
                    self.reasoning_message_end(i, id, tag);
                }
            }
            Body::StepStarted { step_name } => {
                if let Some(name) = step_name {
                    self.step_started(i, name, tag);
                }
            }
            Body::StepFinished { step_name } => {
                if let Some(name) = step_name {
                    self.step_finished(i, name, tag);
                }
            }
            Body::MessagesSnapshot { messages } => self.messages_snapshot(i, messages.as_ref()),
            Body::ActivitySnapshot {
                message_id,
                activity_type,
                content,
                replace,
            } => {
                if let Some(id) = message_id {
                    let replace = replace.unwrap_or(true);
                    let kind = activity_type.as_deref();
                    self.activity_snapshot(i, id, tag, kind, content.as_ref(), replace);
                }
            }
            Body::ActivityDelta {
                message_id, patch, ..
            } => {
                if let Some(id) = message_id {
                    self.activity_delta(i, id, tag, ty, patch.as_deref());
                }
            }
            // Ownership (ownership.rs): a continuation of what it names.
            Body::ReasoningEncryptedValue {
                subtype, entity_id, ..
            } => {
                if let Some(id) = entity_id {
                    self.encrypted_value(i, subtype.as_deref(), id, tag, ty);
                }
            }
            // State (state.rs).
            Body::StateSnapshot { snapshot } => {
                if let Some(snapshot) = snapshot.as_ref().and_then(Val::value) {
                    self.replace_state(i, &snapshot);
                }
            }
            Body::StateDelta { delta } => match delta {
                Some(patch) => self.state_delta(i, patch),
                None if self.unreadable_delta => self.unreadable_patch(i),
                None => {}
            },
            // Lifecycle (lifecycle.rs): the id is the event's own tag.
            Body::SubagentStarted {
                name,
                parent_subagent_run_id,
                ..
            } => {
                if let Some(id) = tag {
                    let parent = parent_subagent_run_id.as_deref();
                    self.subagent_started(i, id, name.as_deref(), parent);
                }
            }
            Body::SubagentFinished { outcome, .. } => {
                if let Some(id) = tag {
                    let outcome = outcome.as_ref().and_then(Val::value);
                    let outcome = outcome.as_deref().and_then(Value::as_object);
                    self.subagent_ended(i, ty, id, outcome);
                }
            }
            Body::SubagentError { .. } => {
                if let Some(id) = tag {
                    self.subagent_ended(i, ty, id, None);
                }
            }
            Body::Raw { .. } | Body::Custom { .. } => {}
        }
        if let Some(id) = own_tag
            && !self.tag_attributed
        {
            self.book.attribute(id);
            if !boundary && let Some(p) = self.projector.as_mut() {
                p.attributed(self.book.names_mut(), id);
            }
        }
        self.bookkeeping_budget(i);
        if let Some(p) = self.projector.as_mut()
            && p.passed_budget()
        {
            let limit = self.limits.projection_bytes;
            self.notice(LimitNotice::new(
                LimitKind::ProjectionBytes,
                i,
                limit as u64,
                format!(
                    "the projection passed its budget of {limit} bytes: this run is shown incomplete from here; every rule is still judged"
                ),
            ));
        }
    }
}
