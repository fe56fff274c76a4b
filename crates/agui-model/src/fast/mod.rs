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

mod patch;
mod scan;

use crate::events::EventType;
use crate::schema;
use serde_json::Value;
use std::borrow::Cow;

/// `TEXT_MESSAGE_START.role` (the AG-UI 1.0 schema).
const TEXT_ROLES: &[&str] = &["developer", "system", "assistant", "user"];

/// Nesting (below the event object) beyond which a line takes the `Value`
/// path; far below serde_json's limit of 127.
pub(crate) const MAX_DEPTH: usize = 64;

/// The top-level keys the fast path knows; any other key is an unknown
/// field (ignored by the schema) and is only scanned.
#[derive(Clone, Copy)]
enum Key {
    Type,
    SubagentRunId,
    Timestamp,
    RawEvent,
    Metadata,
    MessageId,
    Delta,
    Role,
    Name,
    ToolCallId,
    ToolCallName,
    ParentMessageId,
    StepName,
    Value,
    Description,
    ParentSubagentRunId,
    ParentToolCallId,
    Result,
    Outcome,
    Message,
    Code,
    Event,
    Source,
}

const KEYS: usize = 23;

/// `Some((key, len))` if `rest` starts with `NAME"` for one of `names`.
macro_rules! key_prefix {
    ($rest:expr, $($name:literal => $key:ident),+ $(,)?) => {{
        $(
            if $rest.starts_with(concat!($name, "\"").as_bytes()) {
                return Some((Key::$key, $name.len() + 1));
            }
        )+
        None
    }};
}

impl Key {
    /// The known key spelled at the start of `rest` (the bytes after a
    /// key's opening quote) with its closing quote, and the length of both:
    /// without scanning the key as a string. `None` for any other key: an
    /// unescaped key naming a known one is always spelled so.
    #[inline]
    fn known(rest: &[u8]) -> Option<(Key, usize)> {
        match rest.first()? {
            b't' => key_prefix!(rest, "type" => Type, "toolCallId" => ToolCallId,
                "toolCallName" => ToolCallName, "timestamp" => Timestamp),
            b's' => key_prefix!(rest, "subagentRunId" => SubagentRunId, "stepName" => StepName,
                "source" => Source),
            b'm' => key_prefix!(rest, "messageId" => MessageId, "metadata" => Metadata,
                "message" => Message),
            b'd' => key_prefix!(rest, "delta" => Delta, "description" => Description),
            b'n' => key_prefix!(rest, "name" => Name),
            b'v' => key_prefix!(rest, "value" => Value),
            b'r' => key_prefix!(rest, "role" => Role, "rawEvent" => RawEvent, "result" => Result),
            b'p' => key_prefix!(rest, "parentSubagentRunId" => ParentSubagentRunId,
                "parentMessageId" => ParentMessageId, "parentToolCallId" => ParentToolCallId),
            b'o' => key_prefix!(rest, "outcome" => Outcome),
            b'c' => key_prefix!(rest, "code" => Code),
            b'e' => key_prefix!(rest, "event" => Event),
            _ => None,
        }
    }

    /// The key a name is: the test oracle for [`Key::known`].
    #[cfg(test)]
    fn of(name: &str) -> Option<Key> {
        Some(match name {
            "type" => Key::Type,
            "subagentRunId" => Key::SubagentRunId,
            "timestamp" => Key::Timestamp,
            "rawEvent" => Key::RawEvent,
            "metadata" => Key::Metadata,
            "messageId" => Key::MessageId,
            "delta" => Key::Delta,
            "role" => Key::Role,
            "name" => Key::Name,
            "toolCallId" => Key::ToolCallId,
            "toolCallName" => Key::ToolCallName,
            "parentMessageId" => Key::ParentMessageId,
            "stepName" => Key::StepName,
            "value" => Key::Value,
            "description" => Key::Description,
            "parentSubagentRunId" => Key::ParentSubagentRunId,
            "parentToolCallId" => Key::ParentToolCallId,
            "result" => Key::Result,
            "outcome" => Key::Outcome,
            "message" => Key::Message,
            "code" => Key::Code,
            "event" => Key::Event,
            "source" => Key::Source,
            _ => return None,
        })
    }
}

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
        self.raw[k as usize]
    }

    #[inline]
    fn has(&self, k: Key) -> bool {
        self.raw[k as usize].is_some()
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
            [b'"', .., b'"'] if self.escaped & (1 << k as u32) == 0 => {
                Ok(Cow::Borrowed(&raw[1..raw.len() - 1]))
            }
            [b'"', ..] => unescaped(raw),
            _ => Err(Decline),
        }
    }

    /// An optional any-JSON field: absent, or anything but `null`.
    fn opt_any(&self, k: Key) -> Fast<()> {
        match self.get(k) {
            Some("null") => Err(Decline),
            _ => Ok(()),
        }
    }

    fn req_any(&self, k: Key) -> Fast<()> {
        self.get(k).map(|_| ()).ok_or(Decline)
    }

    /// The fields every event may carry: `timestamp`, `rawEvent`, `metadata`.
    fn common(&self) -> Fast<()> {
        if let Some(t) = self.get(Key::Timestamp) {
            safe_timestamp(t)?;
        }
        self.opt_any(Key::RawEvent)?;
        if let Some(m) = self.get(Key::Metadata)
            && !m.starts_with('{')
        {
            return Err(Decline);
        }
        Ok(())
    }

    /// A required string that must be one of `names`.
    fn one_of(&self, k: Key, names: &[&str]) -> Fast<Cow<'a, str>> {
        let s = self.req_str(k)?;
        if names.contains(&s.as_ref()) {
            Ok(s)
        } else {
            Err(Decline)
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
            fields.raw[k as usize] = Some(raw);
            fields.escaped |= u32::from(escaped) << k as u32;
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

/// The schema of the fast-path types (mirrors `schema::event_fields`), and
/// the typed body.
fn typed<'a>(f: &Fields<'a>) -> Fast<FastEvent<'a>> {
    use EventType as E;
    let ty = EventType::from_name(&f.req_str(Key::Type)?).ok_or(Decline)?;
    f.common()?;
    let tag = f.opt_str(Key::SubagentRunId)?;
    if !ty.is_attributable() || (ty.is_lifecycle() && tag.is_none()) {
        return Err(Decline);
    }
    let body = match ty {
        E::TextMessageStart => {
            let role = match f.has(Key::Role) {
                false => None,
                true => Some(f.one_of(Key::Role, TEXT_ROLES)?),
            };
            f.opt_str(Key::Name)?;
            Body::TextStart {
                id: f.req_str(Key::MessageId)?,
                role,
            }
        }
        E::TextMessageContent | E::ReasoningMessageContent => {
            Body::IdDelta(f.req_str(Key::MessageId)?, f.req_str(Key::Delta)?)
        }
        E::ToolCallArgs => Body::IdDelta(f.req_str(Key::ToolCallId)?, f.req_str(Key::Delta)?),
        E::TextMessageEnd | E::ReasoningStart | E::ReasoningMessageEnd | E::ReasoningEnd => {
            Body::Id(f.req_str(Key::MessageId)?)
        }
        E::ReasoningMessageStart => {
            f.one_of(Key::Role, &["reasoning"])?;
            Body::Id(f.req_str(Key::MessageId)?)
        }
        E::ToolCallStart => Body::ToolStart {
            id: f.req_str(Key::ToolCallId)?,
            name: f.req_str(Key::ToolCallName)?,
            parent: f.opt_str(Key::ParentMessageId)?,
        },
        E::ToolCallEnd => Body::Id(f.req_str(Key::ToolCallId)?),
        E::StepStarted | E::StepFinished => Body::Step(f.req_str(Key::StepName)?),
        E::Custom => {
            f.req_str(Key::Name)?;
            f.req_any(Key::Value)?;
            Body::Nothing
        }
        E::Raw => {
            f.req_any(Key::Event)?;
            f.opt_str(Key::Source)?;
            Body::Nothing
        }
        E::StateDelta => Body::Patch(patch::read(f.get(Key::Delta).ok_or(Decline)?)?),
        E::SubagentStarted => {
            f.opt_str(Key::Description)?;
            f.opt_str(Key::ParentToolCallId)?;
            f.opt_str(Key::ParentMessageId)?;
            Body::SubagentStarted {
                name: f.req_str(Key::Name)?,
                parent: f.opt_str(Key::ParentSubagentRunId)?,
            }
        }
        E::SubagentFinished => {
            f.opt_any(Key::Result)?;
            let outcome = match f.get(Key::Outcome) {
                None | Some(r#"{"type":"success"}"#) => None,
                Some(_) => match (f.value(Key::Outcome)?, tag.as_deref()) {
                    (Some(outcome), Some(id)) => Some(checked_outcome(id, outcome)?),
                    _ => return Err(Decline),
                },
            };
            Body::SubagentEnded { outcome }
        }
        E::SubagentError => {
            f.req_str(Key::Message)?;
            f.opt_str(Key::Code)?;
            Body::SubagentEnded { outcome: None }
        }
        _ => return Err(Decline),
    };
    Ok(FastEvent { ty, tag, body })
}

/// A `SUBAGENT_FINISHED` outcome other than the plain success, judged by
/// the schema validator on the event it stands in (which the fast path has
/// checked otherwise); declines on any issue.
fn checked_outcome(id: &str, outcome: Value) -> Fast<Value> {
    let event = serde_json::json!({
        "type": EventType::SubagentFinished.as_str(),
        "subagentRunId": id,
        "outcome": outcome,
    });
    if !schema::validate(&event).is_empty() {
        return Err(Decline);
    }
    match event {
        Value::Object(mut m) => m.remove("outcome").ok_or(Decline),
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
    fn known_keys_are_recognised_like_scanned_ones() {
        for name in [
            "type",
            "subagentRunId",
            "timestamp",
            "rawEvent",
            "metadata",
            "messageId",
            "delta",
            "role",
            "name",
            "toolCallId",
            "toolCallName",
            "parentMessageId",
            "stepName",
            "value",
            "description",
            "parentSubagentRunId",
            "parentToolCallId",
            "result",
            "outcome",
            "message",
            "code",
            "event",
            "source",
        ] {
            let rest = format!("{name}\":1}}");
            let (k, len) = Key::known(rest.as_bytes()).expect(name);
            assert_eq!(
                Some(k as usize),
                Key::of(name).map(|k| k as usize),
                "{name}"
            );
            assert_eq!(len, name.len() + 1, "{name}");
            for other in [
                format!("{name}x\":1"),
                format!("{name}\\\":1"),
                name.to_owned(),
            ] {
                assert!(Key::known(other.as_bytes()).is_none(), "{other}");
            }
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
