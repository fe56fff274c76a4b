//! The continuation forms of `ownership.continuation-disagrees` (docs/rules.md:
//! "Continuations: `TEXT_MESSAGE_CONTENT`/`END`; `TOOL_CALL_ARGS`/`END`;
//! `REASONING_MESSAGE_CONTENT`/`END`, `REASONING_END`, and a
//! `REASONING_START` or `REASONING_MESSAGE_START` whose id names a
//! reasoning span or message that is open at that moment;
//! `ACTIVITY_DELTA`; `REASONING_ENCRYPTED_VALUE`; a chunk naming an id open
//! in another lane"), each as a fresh pair of events: an opener under one
//! owner, then the continuation under another. The continuation is the
//! pair's first violation by construction: its id is fresh, so nothing of
//! it was open or on record before the opener, and the opener breaks
//! nothing.

use crate::names::{
    ACTIVITY_TYPE, DELTA, ENCRYPTED_VALUE, ENTITY_ID, MESSAGE_ID, ROLE, SUBAGENT_RUN_ID,
    TOOL_CALL_ID, TOOL_CALL_NAME,
};
use agui_model::EventType as T;
use serde_json::{Map, Value, json};

/// One continuation form: what continues, and what opened it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    TextContent,
    TextEnd,
    ToolArgs,
    ToolEnd,
    ReasoningMessageContent,
    ReasoningMessageEnd,
    ReasoningEnd,
    /// `REASONING_START` naming an open reasoning message whose span is
    /// not open: not `reasoning.already-open` (that is for an open span),
    /// so the continuation is the first violation.
    ReasoningStartInOpenMessage,
    /// `REASONING_MESSAGE_START` naming an open span whose message is not
    /// open.
    ReasoningMessageStartInOpenSpan,
    ActivityDelta,
    /// `REASONING_ENCRYPTED_VALUE` on a text message, a tool call or a
    /// reasoning span.
    EncryptedValue(Entity),
    /// A chunk with the id of a chunk stream open in another lane.
    Chunk(T),
}

/// What a `REASONING_ENCRYPTED_VALUE` continues.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entity {
    Text,
    Tool,
    Reasoning,
}

impl Form {
    /// Every form, each encrypted-value entity and chunk kind apart.
    pub const ALL: [Form; 16] = [
        Form::TextContent,
        Form::TextEnd,
        Form::ToolArgs,
        Form::ToolEnd,
        Form::ReasoningMessageContent,
        Form::ReasoningMessageEnd,
        Form::ReasoningEnd,
        Form::ReasoningStartInOpenMessage,
        Form::ReasoningMessageStartInOpenSpan,
        Form::ActivityDelta,
        Form::EncryptedValue(Entity::Text),
        Form::EncryptedValue(Entity::Tool),
        Form::EncryptedValue(Entity::Reasoning),
        Form::Chunk(T::TextMessageChunk),
        Form::Chunk(T::ToolCallChunk),
        Form::Chunk(T::ReasoningMessageChunk),
    ];

    /// The opener of `id` tagged `opener` (absent: the parent), then the
    /// continuation tagged `tag`, which must differ from it. `delta`: a
    /// continuation chunk carries one (judged as the CONTENT it stands
    /// for) or not (judged as the chunk).
    pub fn pair(self, id: &str, opener: Option<&str>, tag: &str, delta: bool) -> [Value; 2] {
        let e = |t: T, fields: Value| event(t, fields);
        let (first, second) = match self {
            Form::TextContent => (
                e(T::TextMessageStart, json!({ MESSAGE_ID: id })),
                e(T::TextMessageContent, json!({ MESSAGE_ID: id, DELTA: "x" })),
            ),
            Form::TextEnd => (
                e(T::TextMessageStart, json!({ MESSAGE_ID: id })),
                e(T::TextMessageEnd, json!({ MESSAGE_ID: id })),
            ),
            Form::ToolArgs => (
                tool_start(id),
                e(T::ToolCallArgs, json!({ TOOL_CALL_ID: id, DELTA: "{}" })),
            ),
            Form::ToolEnd => (
                tool_start(id),
                e(T::ToolCallEnd, json!({ TOOL_CALL_ID: id })),
            ),
            Form::ReasoningMessageContent => (
                reasoning_message_start(id),
                e(
                    T::ReasoningMessageContent,
                    json!({ MESSAGE_ID: id, DELTA: "x" }),
                ),
            ),
            Form::ReasoningMessageEnd => (
                reasoning_message_start(id),
                e(T::ReasoningMessageEnd, json!({ MESSAGE_ID: id })),
            ),
            Form::ReasoningEnd => (
                e(T::ReasoningStart, json!({ MESSAGE_ID: id })),
                e(T::ReasoningEnd, json!({ MESSAGE_ID: id })),
            ),
            Form::ReasoningStartInOpenMessage => (
                reasoning_message_start(id),
                e(T::ReasoningStart, json!({ MESSAGE_ID: id })),
            ),
            Form::ReasoningMessageStartInOpenSpan => (
                e(T::ReasoningStart, json!({ MESSAGE_ID: id })),
                reasoning_message_start(id),
            ),
            Form::ActivityDelta => (
                e(
                    T::ActivitySnapshot,
                    json!({ MESSAGE_ID: id, ACTIVITY_TYPE: "progress", "content": {"pct": 0} }),
                ),
                e(
                    T::ActivityDelta,
                    json!({ MESSAGE_ID: id, ACTIVITY_TYPE: "progress",
                            "patch": [{"op": "replace", "path": "/pct", "value": 50}] }),
                ),
            ),
            Form::EncryptedValue(entity) => {
                let (opener, subtype) = match entity {
                    Entity::Text => (e(T::TextMessageStart, json!({ MESSAGE_ID: id })), "message"),
                    Entity::Tool => (tool_start(id), "tool-call"),
                    Entity::Reasoning => {
                        (e(T::ReasoningStart, json!({ MESSAGE_ID: id })), "message")
                    }
                };
                (
                    opener,
                    e(
                        T::ReasoningEncryptedValue,
                        json!({ "subtype": subtype, ENTITY_ID: id, ENCRYPTED_VALUE: "enc:zz" }),
                    ),
                )
            }
            Form::Chunk(t) => {
                let key = if t == T::ToolCallChunk {
                    TOOL_CALL_ID
                } else {
                    MESSAGE_ID
                };
                let mut open = e(t, json!({ key: id }));
                let mut next = e(t, json!({ key: id }));
                if t == T::ToolCallChunk {
                    open[TOOL_CALL_NAME] = json!("search");
                    open[DELTA] = json!("{}");
                    if delta {
                        next[DELTA] = json!(" ");
                    }
                } else {
                    open[DELTA] = json!("x");
                    if delta {
                        next[DELTA] = json!("y");
                    }
                }
                (open, next)
            }
        };
        [tagged(first, opener), tagged(second, Some(tag))]
    }
}

/// An event of type `t` with these fields.
fn event(t: T, fields: Value) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), Value::from(t.as_str()));
    if let Value::Object(f) = fields {
        m.extend(f);
    }
    Value::Object(m)
}

fn tagged(mut e: Value, tag: Option<&str>) -> Value {
    if let Some(t) = tag {
        e[SUBAGENT_RUN_ID] = json!(t);
    }
    e
}

fn tool_start(id: &str) -> Value {
    event(
        T::ToolCallStart,
        json!({ TOOL_CALL_ID: id, TOOL_CALL_NAME: "search" }),
    )
}

fn reasoning_message_start(id: &str) -> Value {
    event(
        T::ReasoningMessageStart,
        json!({ MESSAGE_ID: id, ROLE: "reasoning" }),
    )
}
