//! A flat, cheap event record: every field any of the 31 types uses, as
//! options, serialized in one pass (no intermediate `Value` tree). Valid
//! rendering builds these; mutators work on their `Value` form.

use agui_model::EventType;
use serde::Serialize;
use serde_json::Value;
use std::rc::Rc;

/// A shared string: ids and text pieces are cloned into many events, and a
/// clone of an `Rc` costs no allocation.
pub type Str = Rc<str>;

/// `delta`: text for the streaming events, a JSON Patch for `STATE_DELTA`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Delta {
    /// A piece from the generator's fixed pools (no allocation).
    Static(&'static str),
    Text(Str),
    Patch(Box<Value>),
}

/// One event as the generator writes it. `None` fields are left out (absent
/// is the only spelling of "no value" on the wire).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Ev {
    #[serde(rename = "type", serialize_with = "ser_type")]
    pub ty: Option<EventType>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread_id: Option<Str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_id: Option<Str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_run_id: Option<Str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<Box<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Box<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Box<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<Str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<Str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step_name: Option<Str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_id: Option<Str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<Str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<Str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_call_name: Option<Str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_message_id: Option<Str>,
    /// A string for text deltas, a JSON Patch for `STATE_DELTA`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delta: Option<Delta>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<Box<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<Box<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activity_type: Option<Str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replace: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch: Option<Box<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<Box<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<Str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Box<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subtype: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entity_id: Option<Str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encrypted_value: Option<Str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<Str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_subagent_run_id: Option<Str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subagent_run_id: Option<Str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<u64>,
    /// An unknown extra field (`accept.unknown-fields`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vendor_note: Option<Str>,
}

fn ser_type<S: serde::Serializer>(t: &Option<EventType>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(t.map(EventType::as_str).unwrap_or("UNKNOWN"))
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

    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// Writes events as JSON Lines.
pub fn write_jsonl(events: &[Ev], out: &mut Vec<u8>) {
    for e in events {
        // Serializing a struct of strings and values into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *out, e);
        out.push(b'\n');
    }
}
