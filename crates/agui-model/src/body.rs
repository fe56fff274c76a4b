//! One typed body for all 31 event types: what both parse paths produce
//! and the checker's one dispatcher reads.
//!
//! [`Body`] has one variant per event type and one field per field of the
//! wire table ([`crate::wire`]), named like the typed structs' fields, and
//! borrows from the input: the borrowed fast path ([`crate::fast`]) fills it
//! from its scanner, the `Value` path from the parsed map. Both go through
//! the same table-driven [`Body::read`] over a [`Source`], so the two paths
//! cannot read a field differently, and a field added to the table is read
//! by both without touching this file.
//!
//! Every field is an `Option`: on the `Value` path an event with schema
//! faults is still checked, and a field absent or of another type reads as
//! `None` (the fast path only takes schema-valid lines).

use crate::events::EventType;
use crate::wire::{self, Field, for_each_event};
use json_patch::PatchOperation;
use serde::Deserialize;
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::convert::Infallible;

/// A field the rules read as JSON (an object, an array, any value).
#[derive(Debug)]
pub(crate) enum Val<'a> {
    /// Part of an item parsed on the `Value` path.
    Ref(&'a Value),
    /// JSON text of a fast-path line, checked by the scanner; parsed only
    /// when read (most such fields never are).
    Raw(&'a str),
    /// Already parsed (and schema-checked) by the fast path; boxed so the
    /// rare case does not widen every body (`Typed` is moved per event).
    Owned(Box<Value>),
}

impl Val<'_> {
    /// The value, parsed here if the fast path left it as text.
    pub(crate) fn value(&self) -> Option<Cow<'_, Value>> {
        match self {
            Val::Ref(v) => Some(Cow::Borrowed(v)),
            Val::Owned(v) => Some(Cow::Borrowed(v)),
            Val::Raw(raw) => serde_json::from_str(raw).ok().map(Cow::Owned),
        }
    }
}

/// Where [`Body::read`] takes the fields of one event from. Each method is
/// given the table's [`Field`] (wire name, kind, whether required); the
/// fields are asked for in the table's order (`EventType::fields`), once
/// each.
pub(crate) trait Source<'a> {
    /// Why a field could not be read (the fast path declines).
    type Error;
    /// A `Str` or `OneOf` field.
    fn string(&mut self, f: Field) -> Result<Option<Cow<'a, str>>, Self::Error>;
    /// A `Bool` field.
    fn flag(&mut self, f: Field) -> Result<Option<bool>, Self::Error>;
    /// A `Patch` field, as operations (`None` if it does not read as one).
    fn patch(&mut self, f: Field) -> Result<Option<Vec<PatchOperation>>, Self::Error>;
    /// Any other field.
    fn json(&mut self, f: Field) -> Result<Option<Val<'a>>, Self::Error>;
}

/// The Rust type of a body field, by the table's kind.
macro_rules! field_type {
    ($l:lifetime, Str) => { Option<Cow<$l, str>> };
    ($l:lifetime, OneOf) => { Option<Cow<$l, str>> };
    ($l:lifetime, Bool) => { Option<bool> };
    ($l:lifetime, Patch) => { Option<Vec<PatchOperation>> };
    ($l:lifetime, $other:ident) => { Option<Val<$l>> };
}

/// Reads one field from a [`Source`], by the table's kind.
macro_rules! read_field {
    ($src:ident, $f:expr, Str) => {
        $src.string($f)?
    };
    ($src:ident, $f:expr, OneOf) => {
        $src.string($f)?
    };
    ($src:ident, $f:expr, Bool) => {
        $src.flag($f)?
    };
    ($src:ident, $f:expr, Patch) => {
        $src.patch($f)?
    };
    ($src:ident, $f:expr, $other:ident) => {
        $src.json($f)?
    };
}

macro_rules! bodies {
    ($(
        $variant:ident = $name:literal, $attr:ident {
            req { $( $(#[$rm:meta])* $rf:ident : $rt:ty = $rw:literal $rk:ident $(($($ra:tt)*))? ),* $(,)? }
            opt { $( $(#[$om:meta])* $of:ident : $ot:ty = $ow:literal $ok:ident $(($($oa:tt)*))? ),* $(,)? }
        }
    )*) => {
        /// The fields of one event, by type (see the module doc).
        #[derive(Debug)]
        // The whole wire shape is read; the rules use part of it.
        #[allow(dead_code)]
        pub(crate) enum Body<'a> {
            $( $variant { $( $rf: field_type!('a, $rk), )* $( $of: field_type!('a, $ok), )* }, )*
        }

        impl<'a> Body<'a> {
            /// The event type.
            pub(crate) fn event_type(&self) -> EventType {
                match self { $( Body::$variant { .. } => EventType::$variant, )* }
            }

            /// The body of a `ty` event, read field by field from `src` in
            /// the table's order. Always inlined: one caller per path, and
            /// a call here cost 4.6% of `check` (docs/performance-log.md).
            #[inline(always)]
            pub(crate) fn read<S: Source<'a>>(ty: EventType, src: &mut S) -> Result<Body<'a>, S::Error> {
                #[allow(unused_imports)]
                use wire::{*, Kind::*};
                Ok(match ty {
                    $( EventType::$variant => Body::$variant {
                        $( $rf: read_field!(src, req($rw, $rk $(($($ra)*))?), $rk), )*
                        $( $of: read_field!(src, opt($ow, $ok $(($($oa)*))?), $ok), )*
                    }, )*
                })
            }
        }
    };
}

for_each_event!(bodies);

/// One event as the dispatcher takes it.
#[derive(Debug)]
pub(crate) struct Typed<'a> {
    /// The event's own `subagentRunId`, a string on an attributable type.
    pub tag: Option<Cow<'a, str>>,
    pub body: Body<'a>,
}

impl<'a> Typed<'a> {
    /// The `Value` path: an object whose `type` is `ty`, whatever its schema
    /// faults (already reported).
    pub(crate) fn from_map(ty: EventType, o: &'a Map<String, Value>) -> Typed<'a> {
        let tag = ty
            .is_attributable()
            .then(|| o.get(wire::SUBAGENT_RUN_ID).and_then(crate::json::text))
            .flatten()
            .map(Cow::Borrowed);
        let body = match Body::read(ty, &mut MapSource(o)) {
            Ok(b) => b,
            Err(never) => match never {},
        };
        Typed { tag, body }
    }
}

/// The `Value` path's [`Source`]: a field of another type than its kind
/// reads as absent.
struct MapSource<'a>(&'a Map<String, Value>);

impl<'a> Source<'a> for MapSource<'a> {
    type Error = Infallible;

    fn string(&mut self, f: Field) -> Result<Option<Cow<'a, str>>, Infallible> {
        Ok(self
            .0
            .get(f.key)
            .and_then(crate::json::text)
            .map(Cow::Borrowed))
    }

    fn flag(&mut self, f: Field) -> Result<Option<bool>, Infallible> {
        Ok(self.0.get(f.key).and_then(Value::as_bool))
    }

    fn patch(&mut self, f: Field) -> Result<Option<Vec<PatchOperation>>, Infallible> {
        Ok(self
            .0
            .get(f.key)
            .and_then(|v| Vec::<PatchOperation>::deserialize(v).ok()))
    }

    fn json(&mut self, f: Field) -> Result<Option<Val<'a>>, Infallible> {
        Ok(self.0.get(f.key).map(Val::Ref))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Records the keys asked for.
    struct Keys(Vec<&'static str>);

    impl<'a> Source<'a> for Keys {
        type Error = Infallible;
        fn string(&mut self, f: Field) -> Result<Option<Cow<'a, str>>, Infallible> {
            self.0.push(f.key);
            Ok(None)
        }
        fn flag(&mut self, f: Field) -> Result<Option<bool>, Infallible> {
            self.0.push(f.key);
            Ok(None)
        }
        fn patch(&mut self, f: Field) -> Result<Option<Vec<PatchOperation>>, Infallible> {
            self.0.push(f.key);
            Ok(None)
        }
        fn json(&mut self, f: Field) -> Result<Option<Val<'a>>, Infallible> {
            self.0.push(f.key);
            Ok(None)
        }
    }

    /// The fast path's source relies on it: fields are asked for once
    /// each, in the order of `EventType::fields`.
    #[test]
    fn fields_are_read_in_table_order() {
        for &t in EventType::ALL {
            let mut keys = Keys(Vec::new());
            let body = match Body::read(t, &mut keys) {
                Ok(b) => b,
                Err(never) => match never {},
            };
            assert_eq!(body.event_type(), t);
            let table: Vec<&str> = t.fields().iter().map(|f| f.key).collect();
            assert_eq!(keys.0, table, "{t}");
        }
    }

    #[test]
    fn the_value_path_reads_fields_of_their_kind_and_drops_the_rest() {
        let v = json!({
            "type": "TOOL_CALL_CHUNK", "toolCallId": "t", "delta": 7,
            "parentMessageId": "m", "subagentRunId": "s"
        });
        let o = v.as_object().expect("object");
        let ev = Typed::from_map(EventType::ToolCallChunk, o);
        assert_eq!(ev.tag.as_deref(), Some("s"));
        // A number is not a delta; the subagentRunId is the tag, not a field.
        let want = r#"ToolCallChunk { tool_call_id: Some("t"), tool_call_name: None, parent_message_id: Some("m"), delta: None }"#;
        assert_eq!(format!("{:?}", ev.body), want);
        // Not attributable: a subagentRunId there is no tag.
        let v = json!({"type": "RUN_ERROR", "message": "x", "subagentRunId": "s"});
        let ev = Typed::from_map(EventType::RunError, v.as_object().expect("object"));
        assert_eq!(ev.tag, None);
        let v = json!({"type": "STATE_DELTA", "delta": [{"op": "remove", "path": "/a"}]});
        let ev = Typed::from_map(EventType::StateDelta, v.as_object().expect("object"));
        match ev.body {
            Body::StateDelta { delta: Some(ops) } => assert_eq!(ops.len(), 1),
            other => panic!("{other:?}"),
        }
    }
}
