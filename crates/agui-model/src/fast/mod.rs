//! The borrowed fast path: one JSON Lines line → a typed event that borrows
//! from the line, without building a `serde_json::Value`.
//!
//! [`parse`] succeeds only for the common, schema-valid events whose stream
//! rules the checker can apply from typed fields ([`Body`]); for anything
//! unusual it returns `None` and the caller takes the `Value` path
//! ([`crate::schema::validate`] and the same checker logic), so reports are
//! identical either way. The line is read in one pass by a strict scanner
//! ([`scan`]) that validates the JSON syntax itself and keeps raw slices of
//! the known keys. "Unusual" is decided conservatively: a duplicated known
//! key, a key with escapes, `null` in an optional field, a value of another
//! type than the schema wants, a `\u` escape in the surrogate range, a
//! number with an exponent or more than 15 digits in a row, or nesting
//! deeper than [`MAX_DEPTH`] (where serde_json's own limits and lone
//! surrogates make a byte-level screen unsure).

mod keys;
mod patch;
mod scan;

use crate::events::EventType;
use crate::schema;
use crate::wire::{self, COMMON, Field, Kind};
use keys::{COMMON_KEYS, KEYS, Key};
use serde_json::Value;
use std::borrow::Cow;

/// Nesting (below the event object) beyond which a line takes the `Value`
/// path; far below serde_json's limit of 127.
pub(crate) const MAX_DEPTH: usize = 64;

/// The keys [`typed`] reads by name (checked against the wire table at
/// compile time).
const TYPE: Key = Key::named("type");
const SUBAGENT_RUN_ID: Key = Key::named(wire::SUBAGENT_RUN_ID);
const MESSAGE_ID: Key = Key::named("messageId");
const DELTA: Key = Key::named("delta");
const ROLE: Key = Key::named("role");
const TOOL_CALL_ID: Key = Key::named("toolCallId");
const TOOL_CALL_NAME: Key = Key::named("toolCallName");
const PARENT_MESSAGE_ID: Key = Key::named("parentMessageId");
const STEP_NAME: Key = Key::named("stepName");
const NAME: Key = Key::named("name");
const PARENT_SUBAGENT_RUN_ID: Key = Key::named("parentSubagentRunId");
const OUTCOME: Key = Key::named("outcome");

/// The known keys of one event object, as raw JSON text (a string with its
/// quotes); a string with escapes is decoded when it is read.
struct Fields<'a> {
    raw: [Option<&'a str>; KEYS],
    /// Bit `k`: key `k`'s value is a string holding escapes.
    escaped: u32,
}

/// Why the fast path declined: the caller takes the `Value` path.
#[derive(Debug)]
struct Decline;

type Fast<T> = Result<T, Decline>;

impl<'a> Fields<'a> {
    #[inline]
    fn get(&self, k: Key) -> Option<&'a str> {
        self.raw[k.index()]
    }

    #[inline]
    fn has(&self, k: Key) -> bool {
        self.raw[k.index()].is_some()
    }

    /// An optional string field: absent, or a string (anything else —
    /// `null` included — is a schema fault: decline).
    #[inline]
    fn opt_str(&self, k: Key) -> Fast<Option<Cow<'a, str>>> {
        match self.get(k) {
            None => Ok(None),
            Some(raw) => self.str_of(k, raw).map(Some),
        }
    }

    #[inline]
    fn req_str(&self, k: Key) -> Fast<Cow<'a, str>> {
        self.str_of(k, self.get(k).ok_or(Decline)?)
    }

    /// The string `raw` (key `k`'s value), or a decline if not a string.
    #[inline]
    fn str_of(&self, k: Key, raw: &'a str) -> Fast<Cow<'a, str>> {
        match raw.as_bytes() {
            [b'"', .., b'"'] if self.escaped & (1 << k.index()) == 0 => {
                Ok(Cow::Borrowed(&raw[1..raw.len() - 1]))
            }
            [b'"', ..] => unescaped(raw),
            _ => Err(Decline),
        }
    }

    /// One field of the wire table, judged where a byte-level look is
    /// sure; the kinds read only by the typed body (a patch, an outcome)
    /// are left to it, and every other kind declines when present.
    #[inline]
    fn check(&self, f: &Field, k: Key) -> Fast<()> {
        let Some(raw) = self.get(k) else {
            return if f.required { Err(Decline) } else { Ok(()) };
        };
        if raw == "null" && !(f.required && f.kind == Kind::Any) {
            return Err(Decline);
        }
        match f.kind {
            Kind::Str => self.str_of(k, raw).map(drop),
            Kind::OneOf(names) => match names.contains(&self.str_of(k, raw)?.as_ref()) {
                true => Ok(()),
                false => Err(Decline),
            },
            Kind::Any | Kind::Patch | Kind::SubagentOutcome => Ok(()),
            Kind::Object if raw.starts_with('{') => Ok(()),
            Kind::Timestamp => safe_timestamp(raw),
            _ => Err(Decline),
        }
    }

    /// A nested value as a (small) `Value`.
    fn value(&self, k: Key) -> Fast<Option<Value>> {
        self.get(k)
            .map(|raw| serde_json::from_str(raw).map_err(|_| Decline))
            .transpose()
    }
}

/// A string with escapes, decoded: the rare case, kept out of line so that
/// reading a plain string stays small enough to inline.
#[cold]
#[inline(never)]
fn unescaped(raw: &str) -> Fast<Cow<'_, str>> {
    scan::unescape(raw).map(Cow::Owned).ok_or(Decline)
}

/// `timestamp`: an integer of at most 15 digits is always within ±(2^53−1);
/// anything else declines (the `Value` path judges it).
fn safe_timestamp(raw: &str) -> Fast<()> {
    let digits = raw.strip_prefix('-').unwrap_or(raw);
    if !digits.is_empty() && digits.len() <= 15 && digits.bytes().all(|b| b.is_ascii_digit()) {
        Ok(())
    } else {
        Err(Decline)
    }
}

/// What the checker needs of one fast event, per type.
#[derive(Debug)]
pub(crate) enum Body<'a> {
    /// `*_END`, `REASONING_START`, `REASONING_MESSAGE_START`: the id.
    Id(Cow<'a, str>),
    /// `*_CONTENT`, `TOOL_CALL_ARGS`: the id and the delta.
    IdDelta(Cow<'a, str>, Cow<'a, str>),
    TextStart {
        id: Cow<'a, str>,
        role: Option<Cow<'a, str>>,
    },
    ToolStart {
        id: Cow<'a, str>,
        name: Cow<'a, str>,
        parent: Option<Cow<'a, str>>,
    },
    /// `STEP_*`: the step name.
    Step(Cow<'a, str>),
    /// `CUSTOM`, `RAW`: nothing the stream rules read.
    Nothing,
    /// `STATE_DELTA`: the patch.
    Patch(Vec<json_patch::PatchOperation>),
    /// `SUBAGENT_STARTED` (its id is the tag).
    SubagentStarted {
        name: Cow<'a, str>,
        parent: Option<Cow<'a, str>>,
    },
    /// `SUBAGENT_FINISHED` / `SUBAGENT_ERROR`: the outcome, unless absent
    /// or the plain `{"type":"success"}` (which the rules read as absent).
    SubagentEnded { outcome: Option<Value> },
}

/// One event parsed on the fast path, schema-valid by construction.
#[derive(Debug)]
pub(crate) struct FastEvent<'a> {
    pub ty: EventType,
    /// The event's own `subagentRunId` (only on attributable types).
    pub tag: Option<Cow<'a, str>>,
    pub body: Body<'a>,
}

/// Whether a line would take the fast path's parse (the schema included),
/// without checking any stream rule: the parse cost alone, for
/// `agui-bench`. Not part of the API.
#[doc(hidden)]
pub fn parses(line: &[u8]) -> bool {
    simdutf8::basic::from_utf8(line).is_ok_and(|text| parse(text).is_some())
}

/// Parses one line on the fast path; `None` means "take the `Value` path".
pub(crate) fn parse(line: &str) -> Option<FastEvent<'_>> {
    let mut fields = Fields {
        raw: [None; KEYS],
        escaped: 0,
    };
    // Filled in place: the field table is never copied.
    read_fields(line, &mut fields)?;
    typed(&fields).ok()
}

/// The known keys' raw values; `None` if the line is not one clean JSON
/// object (or holds anything [`scan`] declines), or repeats a known key.
#[inline]
fn read_fields<'a>(line: &'a str, fields: &mut Fields<'a>) -> Option<()> {
    let mut sc = scan::Scanner::new(line);
    sc.eat(b'{')?;
    if sc.peek()? == b'}' {
        return None;
    }
    let mut unknown = scan::Keys::default();
    loop {
        sc.eat(b'"')?;
        let k = match Key::known(sc.rest()) {
            Some((k, len)) => {
                sc.skip(len);
                Some(k)
            }
            // An unknown field, only scanned; a key with escapes, or one
            // seen before (`schema.duplicate-key`), declines.
            None => {
                let (raw, escaped) = sc.string_rest()?;
                if escaped || !unknown.insert(raw) {
                    return None;
                }
                None
            }
        };
        sc.eat(b':')?;
        let (raw, escaped) = if sc.peek()? == b'"' {
            sc.string()?
        } else {
            (sc.value(0)?, false)
        };
        if let Some(k) = k {
            if fields.has(k) {
                return None;
            }
            fields.raw[k.index()] = Some(raw);
            fields.escaped |= u32::from(escaped) << k.index();
        }
        match sc.peek()? {
            b',' => sc.eat(b',')?,
            b'}' => break,
            _ => return None,
        }
    }
    sc.eat(b'}')?;
    sc.at_end().then_some(())
}

/// The schema of the fast-path types, judged field by field from the wire
/// table ([`wire::COMMON`], `EventType::fields`), and the typed body.
fn typed<'a>(f: &Fields<'a>) -> Fast<FastEvent<'a>> {
    use EventType as E;
    let ty = EventType::from_name(&f.req_str(TYPE)?).ok_or(Decline)?;
    if !keys::is_fast(ty) {
        return Err(Decline);
    }
    for (field, &k) in COMMON.iter().zip(&COMMON_KEYS) {
        f.check(field, k)?;
    }
    let tag = f.opt_str(SUBAGENT_RUN_ID)?;
    if !ty.is_attributable() || (ty.is_lifecycle() && tag.is_none()) {
        return Err(Decline);
    }
    for (field, &k) in ty.fields().iter().zip(keys::of(ty)) {
        f.check(field, k)?;
    }
    let body = match ty {
        E::TextMessageStart => Body::TextStart {
            id: f.req_str(MESSAGE_ID)?,
            role: f.opt_str(ROLE)?,
        },
        E::TextMessageContent | E::ReasoningMessageContent => {
            Body::IdDelta(f.req_str(MESSAGE_ID)?, f.req_str(DELTA)?)
        }
        E::ToolCallArgs => Body::IdDelta(f.req_str(TOOL_CALL_ID)?, f.req_str(DELTA)?),
        E::TextMessageEnd
        | E::ReasoningStart
        | E::ReasoningMessageStart
        | E::ReasoningMessageEnd
        | E::ReasoningEnd => Body::Id(f.req_str(MESSAGE_ID)?),
        E::ToolCallStart => Body::ToolStart {
            id: f.req_str(TOOL_CALL_ID)?,
            name: f.req_str(TOOL_CALL_NAME)?,
            parent: f.opt_str(PARENT_MESSAGE_ID)?,
        },
        E::ToolCallEnd => Body::Id(f.req_str(TOOL_CALL_ID)?),
        E::StepStarted | E::StepFinished => Body::Step(f.req_str(STEP_NAME)?),
        E::Custom | E::Raw => Body::Nothing,
        E::StateDelta => Body::Patch(patch::read(f.get(DELTA).ok_or(Decline)?)?),
        E::SubagentStarted => Body::SubagentStarted {
            name: f.req_str(NAME)?,
            parent: f.opt_str(PARENT_SUBAGENT_RUN_ID)?,
        },
        E::SubagentFinished => {
            let outcome = match f.get(OUTCOME) {
                None | Some(r#"{"type":"success"}"#) => None,
                Some(_) => match (f.value(OUTCOME)?, tag.as_deref()) {
                    (Some(outcome), Some(id)) => Some(checked_outcome(id, outcome)?),
                    _ => return Err(Decline),
                },
            };
            Body::SubagentEnded { outcome }
        }
        E::SubagentError => Body::SubagentEnded { outcome: None },
        _ => return Err(Decline),
    };
    Ok(FastEvent { ty, tag, body })
}

/// A `SUBAGENT_FINISHED` outcome other than the plain success, judged by
/// the schema validator on the event it stands in (which the fast path has
/// checked otherwise); declines on any issue.
fn checked_outcome(id: &str, outcome: Value) -> Fast<Value> {
    let mut event = serde_json::Map::new();
    event.insert(
        TYPE.name().into(),
        EventType::SubagentFinished.as_str().into(),
    );
    event.insert(SUBAGENT_RUN_ID.name().into(), id.into());
    event.insert(OUTCOME.name().into(), outcome);
    let event = Value::Object(event);
    if !schema::validate(&event).is_empty() {
        return Err(Decline);
    }
    match event {
        Value::Object(mut m) => m.remove(OUTCOME.name()).ok_or(Decline),
        _ => Err(Decline),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> bool {
        parse(line).is_some()
    }

    #[test]
    fn common_events_take_the_fast_path() {
        assert!(ok(
            r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hi"}"#
        ));
        assert!(ok(
            r#"{"type":"TOOL_CALL_START","toolCallId":"t","toolCallName":"n","subagentRunId":"s","x":[1,{"y":null}]}"#
        ));
        assert!(ok(
            r#"{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":1}]}"#
        ));
        assert!(ok(
            r#"{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n"}"#
        ));
    }

    #[test]
    fn unusual_lines_decline() {
        for line in [
            r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hi","delta":"x"}"#,
            r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":null}"#,
            r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"\ud800"}"#,
            r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a","x":1e400}"#,
            r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a","timestamp":1.5}"#,
            r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a","subagentRunId":null}"#,
            r#"{"type":"TEXT_MESSAGE_START","messageId":"m","role":"tool"}"#,
            r#"{"type":"STATE_DELTA","delta":[{"op":"nope","path":"/a"}]}"#,
            r#"{"type":"SUBAGENT_STARTED","name":"n"}"#,
            r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#,
            r#"{"t\u0079pe":"TEXT_MESSAGE_END","messageId":"m"}"#,
            r#"{"type":"TEXT_MESSAGE_END","messageId":"m"} x"#,
            r#"[1]"#,
        ] {
            assert!(!ok(line), "{line} should decline");
        }
    }

    #[test]
    fn string_keys_are_parsed_for_real() {
        let e = parse(r#"{"type":"TEXT_MESSAGE_END","messageId":"m\u0021"}"#).expect("fast");
        match e.body {
            Body::Id(id) => assert_eq!(id, "m!"),
            other => panic!("{other:?}"),
        }
        assert!(!ok(r#"{"type":"TEXT_MESSAGE_END","messageId":"\udc00"}"#));
        assert!(!ok(r#"{"type":"TEXT_MESSAGE_END","messageId":7}"#));
        assert!(!ok(
            r#"{"type":"TEXT_MESSAGE_END","messageId":"m","messageId":"m"}"#
        ));
    }

    #[test]
    fn escaped_strings_are_unescaped() {
        let e = parse(r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a\nb\"c"}"#)
            .expect("fast");
        match e.body {
            Body::IdDelta(_, d) => assert_eq!(d, "a\nb\"c"),
            other => panic!("{other:?}"),
        }
    }
}
