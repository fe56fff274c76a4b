//! The generator's event record and its builder into the typed events of
//! `agui_model::events`, which the wire table (`agui_model::wire`)
//! produces. Rendering fills [`Ev`] (cheap: shared strings, every field an
//! option); [`Ev::to_event`] builds the typed struct of its type, and only
//! that struct is serialized, so no wire name is spelled here.

use agui_model::EventType;
use agui_model::events::{self as ev, Content, Event, Object, RunAgentInput, RunOutcome};
use agui_model::events::{SubagentOutcome, TextMessageRole};
use serde::Deserialize;
use serde::de::IntoDeserializer;
use serde_json::{Number, Value};
use std::rc::Rc;

/// A shared string: ids and text pieces are cloned into many events, and a
/// clone of an `Rc` costs no allocation.
pub type Str = Rc<str>;

/// The unknown extra field some generated events carry
/// (`accept.unknown-fields`): by design it is in no table.
pub const VENDOR_NOTE: &str = "vendorNote";

/// `delta`: text for the streaming events, a JSON Patch for `STATE_DELTA`.
#[derive(Debug, Clone, PartialEq)]
pub enum Delta {
    /// A piece from the generator's fixed pools (no allocation).
    Static(&'static str),
    Text(Str),
    Patch(Box<Value>),
}

/// One event as the generator drafts it: every field any type uses, by its
/// Rust name in the typed structs. Fields the event's type does not have
/// are ignored by [`Ev::to_event`]; `None` fields are left out (absent is
/// the only spelling of "no value" on the wire).
#[derive(Debug, Clone, Default)]
pub struct Ev {
    pub ty: Option<EventType>,
    pub thread_id: Option<Str>,
    pub run_id: Option<Str>,
    pub parent_run_id: Option<Str>,
    pub input: Option<Box<RunAgentInput>>,
    /// `RUN_FINISHED.outcome`.
    pub run_outcome: Option<Box<RunOutcome>>,
    /// `SUBAGENT_FINISHED.outcome`.
    pub sub_outcome: Option<Box<SubagentOutcome>>,
    pub result: Option<Box<Value>>,
    pub message: Option<Str>,
    pub code: Option<Str>,
    pub step_name: Option<Str>,
    pub message_id: Option<Str>,
    pub role: Option<&'static str>,
    pub name: Option<Str>,
    pub tool_call_id: Option<Str>,
    pub tool_call_name: Option<Str>,
    pub parent_message_id: Option<Str>,
    /// A string for text deltas, a JSON Patch for `STATE_DELTA`.
    pub delta: Option<Delta>,
    /// `TOOL_CALL_RESULT.content` (Content) or `ACTIVITY_SNAPSHOT.content`
    /// (an object).
    pub content: Option<Box<Value>>,
    pub snapshot: Option<Box<Value>>,
    pub activity_type: Option<Str>,
    pub replace: Option<bool>,
    pub patch: Option<Box<Value>>,
    pub event: Option<Box<Value>>,
    pub source: Option<Str>,
    pub value: Option<Box<Value>>,
    pub subtype: Option<&'static str>,
    pub entity_id: Option<Str>,
    pub encrypted_value: Option<Str>,
    pub description: Option<Str>,
    pub parent_subagent_run_id: Option<Str>,
    pub subagent_run_id: Option<Str>,
    pub timestamp: Option<u64>,
    /// An unknown extra field ([`VENDOR_NOTE`]).
    pub vendor_note: Option<Str>,
}

impl Ev {
    pub fn new(ty: EventType) -> Self {
        Ev {
            ty: Some(ty),
            ..Ev::default()
        }
    }

    /// The event type (always set by the generator).
    pub fn kind(&self) -> EventType {
        self.ty.unwrap_or(EventType::Raw)
    }

    /// With `subagentRunId` set to `tag` (`None` leaves it out: the parent).
    pub fn tagged(mut self, tag: Option<&Str>) -> Self {
        self.subagent_run_id = tag.cloned();
        self
    }

    /// The typed event of the wire table.
    pub fn to_event(&self) -> Event {
        build(self)
    }

    /// The wire form as a value.
    pub fn to_value(&self) -> Value {
        self.to_event().to_value()
    }
}

/// Writes events as JSON Lines.
pub fn write_jsonl(events: &[Ev], out: &mut Vec<u8>) {
    for e in events {
        // Serializing the typed events (strings and values) into a Vec
        // cannot fail.
        let _ = serde_json::to_writer(&mut *out, &e.to_event());
        out.push(b'\n');
    }
}

fn s(x: &Option<Str>) -> String {
    x.as_deref().unwrap_or_default().to_owned()
}

fn o(x: &Option<Str>) -> Option<String> {
    x.as_deref().map(str::to_owned)
}

fn val(x: &Option<Box<Value>>) -> Value {
    x.as_deref().cloned().unwrap_or(Value::Null)
}

fn oval(x: &Option<Box<Value>>) -> Option<Value> {
    x.as_deref().cloned()
}

/// A JSON Patch value as the typed structs hold it (its operations).
fn ops(x: Option<&Value>) -> Vec<Value> {
    match x {
        Some(Value::Array(a)) => a.clone(),
        _ => Vec::new(),
    }
}

fn text_delta(d: &Option<Delta>) -> Option<String> {
    match d {
        Some(Delta::Static(t)) => Some((*t).to_owned()),
        Some(Delta::Text(t)) => Some(t.to_string()),
        Some(Delta::Patch(_)) | None => None,
    }
}

fn patch_delta(d: &Option<Delta>) -> Vec<Value> {
    match d {
        Some(Delta::Patch(p)) => ops(Some(p)),
        _ => Vec::new(),
    }
}

/// A wire enumeration (a role, a subtype) from its wire string, through
/// the type's own serde names; `None` when the string is none of them.
fn wire_enum<T: for<'de> Deserialize<'de>>(x: Option<&'static str>) -> Option<T> {
    let d: serde::de::value::StrDeserializer<'_, serde::de::value::Error> = x?.into_deserializer();
    T::deserialize(d).ok()
}

fn role(x: Option<&'static str>) -> Option<TextMessageRole> {
    wire_enum(x)
}

fn object(x: &Option<Box<Value>>) -> Object {
    match x.as_deref() {
        Some(Value::Object(m)) => m.clone(),
        _ => Object::new(),
    }
}

fn content(x: &Option<Box<Value>>) -> Content {
    x.as_deref()
        .and_then(|v| Content::deserialize(v).ok())
        .unwrap_or_default()
}

/// Builds `Event::$variant` from a struct literal of its own fields, adding
/// what every event carries (`timestamp`, the unknown extra field) and, by
/// the type's attribution, `subagentRunId`.
macro_rules! typed {
    ($e:ident, $variant:ident, none { $($f:ident: $v:expr),* $(,)? }) => {
        Event::$variant(ev::$variant {
            $($f: $v,)*
            timestamp: $e.timestamp.map(Number::from),
            extra: extra($e),
            ..Default::default()
        })
    };
    ($e:ident, $variant:ident, opt { $($f:ident: $v:expr),* $(,)? }) => {
        Event::$variant(ev::$variant {
            $($f: $v,)*
            subagent_run_id: o(&$e.subagent_run_id),
            timestamp: $e.timestamp.map(Number::from),
            extra: extra($e),
            ..Default::default()
        })
    };
    ($e:ident, $variant:ident, req { $($f:ident: $v:expr),* $(,)? }) => {
        Event::$variant(ev::$variant {
            $($f: $v,)*
            subagent_run_id: s(&$e.subagent_run_id),
            timestamp: $e.timestamp.map(Number::from),
            extra: extra($e),
            ..Default::default()
        })
    };
}

fn extra(e: &Ev) -> Object {
    let mut m = Object::new();
    if let Some(n) = &e.vendor_note {
        m.insert(VENDOR_NOTE.into(), Value::String(n.to_string()));
    }
    m
}

fn build(e: &Ev) -> Event {
    use EventType as T;
    match e.kind() {
        T::RunStarted => typed!(
            e,
            RunStarted,
            none {
                thread_id: s(&e.thread_id),
                run_id: s(&e.run_id),
                parent_run_id: o(&e.parent_run_id),
                input: e.input.clone(),
            }
        ),
        T::RunFinished => typed!(
            e,
            RunFinished,
            none {
                thread_id: s(&e.thread_id),
                run_id: s(&e.run_id),
                result: oval(&e.result),
                outcome: e.run_outcome.as_deref().cloned(),
            }
        ),
        T::RunError => typed!(
            e,
            RunError,
            none {
                message: s(&e.message),
                code: o(&e.code)
            }
        ),
        T::StepStarted => typed!(
            e,
            StepStarted,
            opt {
                step_name: s(&e.step_name)
            }
        ),
        T::StepFinished => typed!(
            e,
            StepFinished,
            opt {
                step_name: s(&e.step_name)
            }
        ),
        T::TextMessageStart => typed!(
            e,
            TextMessageStart,
            opt {
                message_id: s(&e.message_id),
                role: role(e.role),
                name: o(&e.name),
            }
        ),
        T::TextMessageContent => typed!(
            e,
            TextMessageContent,
            opt {
                message_id: s(&e.message_id),
                delta: text_delta(&e.delta).unwrap_or_default(),
            }
        ),
        T::TextMessageEnd => typed!(
            e,
            TextMessageEnd,
            opt {
                message_id: s(&e.message_id)
            }
        ),
        T::TextMessageChunk => typed!(
            e,
            TextMessageChunk,
            opt {
                message_id: o(&e.message_id),
                role: role(e.role),
                delta: text_delta(&e.delta),
                name: o(&e.name),
            }
        ),
        T::ToolCallStart => typed!(
            e,
            ToolCallStart,
            opt {
                tool_call_id: s(&e.tool_call_id),
                tool_call_name: s(&e.tool_call_name),
                parent_message_id: o(&e.parent_message_id),
            }
        ),
        T::ToolCallArgs => typed!(
            e,
            ToolCallArgs,
            opt {
                tool_call_id: s(&e.tool_call_id),
                delta: text_delta(&e.delta).unwrap_or_default(),
            }
        ),
        T::ToolCallEnd => typed!(
            e,
            ToolCallEnd,
            opt {
                tool_call_id: s(&e.tool_call_id)
            }
        ),
        T::ToolCallChunk => typed!(
            e,
            ToolCallChunk,
            opt {
                tool_call_id: o(&e.tool_call_id),
                tool_call_name: o(&e.tool_call_name),
                parent_message_id: o(&e.parent_message_id),
                delta: text_delta(&e.delta),
            }
        ),
        T::ToolCallResult => typed!(
            e,
            ToolCallResult,
            opt {
                message_id: s(&e.message_id),
                tool_call_id: s(&e.tool_call_id),
                content: content(&e.content),
                role: wire_enum(e.role),
            }
        ),
        T::StateSnapshot => typed!(
            e,
            StateSnapshot,
            opt {
                snapshot: val(&e.snapshot)
            }
        ),
        T::StateDelta => typed!(
            e,
            StateDelta,
            opt {
                delta: patch_delta(&e.delta)
            }
        ),
        T::MessagesSnapshot => typed!(e, MessagesSnapshot, none {}),
        T::ActivitySnapshot => typed!(
            e,
            ActivitySnapshot,
            opt {
                message_id: s(&e.message_id),
                activity_type: s(&e.activity_type),
                content: object(&e.content),
                replace: e.replace,
            }
        ),
        T::ActivityDelta => typed!(
            e,
            ActivityDelta,
            opt {
                message_id: s(&e.message_id),
                activity_type: s(&e.activity_type),
                patch: ops(e.patch.as_deref()),
            }
        ),
        T::Raw => typed!(
            e,
            Raw,
            opt {
                event: val(&e.event),
                source: o(&e.source)
            }
        ),
        T::Custom => typed!(
            e,
            Custom,
            opt {
                name: s(&e.name),
                value: val(&e.value)
            }
        ),
        T::ReasoningStart => typed!(
            e,
            ReasoningStart,
            opt {
                message_id: s(&e.message_id)
            }
        ),
        T::ReasoningMessageStart => typed!(
            e,
            ReasoningMessageStart,
            opt {
                message_id: s(&e.message_id),
                role: wire_enum(e.role).unwrap_or_default(),
            }
        ),
        T::ReasoningMessageContent => typed!(
            e,
            ReasoningMessageContent,
            opt {
                message_id: s(&e.message_id),
                delta: text_delta(&e.delta).unwrap_or_default(),
            }
        ),
        T::ReasoningMessageEnd => {
            typed!(
                e,
                ReasoningMessageEnd,
                opt {
                    message_id: s(&e.message_id)
                }
            )
        }
        T::ReasoningMessageChunk => typed!(
            e,
            ReasoningMessageChunk,
            opt {
                message_id: o(&e.message_id),
                delta: text_delta(&e.delta),
            }
        ),
        T::ReasoningEnd => typed!(
            e,
            ReasoningEnd,
            opt {
                message_id: s(&e.message_id)
            }
        ),
        T::ReasoningEncryptedValue => typed!(
            e,
            ReasoningEncryptedValue,
            opt {
                subtype: wire_enum(e.subtype).unwrap_or_default(),
                entity_id: s(&e.entity_id),
                encrypted_value: s(&e.encrypted_value),
            }
        ),
        T::SubagentStarted => typed!(
            e,
            SubagentStarted,
            req {
                name: s(&e.name),
                description: o(&e.description),
                parent_subagent_run_id: o(&e.parent_subagent_run_id),
            }
        ),
        T::SubagentFinished => typed!(
            e,
            SubagentFinished,
            req {
                result: oval(&e.result),
                outcome: e.sub_outcome.as_deref().cloned(),
            }
        ),
        T::SubagentError => typed!(
            e,
            SubagentError,
            req {
                message: s(&e.message),
                code: o(&e.code)
            }
        ),
    }
}
