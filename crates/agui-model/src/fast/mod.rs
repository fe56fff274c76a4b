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

pub(crate) use scan::find_special;

use crate::body::{Body, Source, Typed, Val};
use crate::events::EventType;
use crate::schema;
use crate::wire::{self, COMMON, Field, Kind};
use json_patch::PatchOperation;
use keys::{COMMON_KEYS, KEYS, Key};
use serde_json::Value;
use std::borrow::Cow;
use std::sync::LazyLock;

/// Longest line the fast path takes: a longer one takes the `Value` path,
/// whose parse is held to the reader's budget. Even a line of nothing but
/// empty objects holds at most 235 times its length, so the raw fields of
/// a line this long hold less than the smallest budget (64 MiB).
pub(crate) const MAX_LINE: usize = 256 << 10;

/// Nesting (below the event object) beyond which a line takes the `Value`
/// path; far below serde_json's limit of 127.
pub(crate) const MAX_DEPTH: usize = 64;

/// The keys [`typed`] reads itself (checked against the wire table at
/// compile time); the type's own fields are read by [`Body::read`].
const TYPE: Key = Key::named(wire::TYPE);
const SUBAGENT_RUN_ID: Key = Key::named(wire::SUBAGENT_RUN_ID);

/// The known keys of one event object, as raw JSON text (a string with its
/// quotes); a string with escapes is decoded when it is read.
struct Fields<'a> {
    raw: [Option<&'a str>; KEYS],
    /// Bit `k`: key `k`'s value is a string holding escapes.
    escaped: u32,
}

/// Why the fast path declined: the caller takes the `Value` path.
#[derive(Debug)]
pub(crate) struct Decline;

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

    /// One of the [`COMMON`] fields, judged where a byte-level look is
    /// sure; any other kind declines when present.
    #[inline]
    fn check(&self, f: &Field, k: Key) -> Fast<()> {
        let Some(raw) = self.get(k) else {
            return if f.required { Err(Decline) } else { Ok(()) };
        };
        if raw == "null" && !(f.required && f.kind == Kind::Any) {
            return Err(Decline);
        }
        match f.kind {
            Kind::Any => Ok(()),
            Kind::Object if raw.starts_with('{') => Ok(()),
            Kind::Timestamp => safe_timestamp(raw),
            _ => Err(Decline),
        }
    }
}

/// The fast path's [`Source`] for [`Body::read`]: a type's fields, asked
/// for in the table's order, are the known keys `keys::of(ty)` in that
/// order. Each is judged where a byte-level look is sure (a string, one of
/// a list, a plain patch, an object's opening brace); anything else
/// declines.
struct FieldSource<'f, 'a> {
    fields: &'f Fields<'a>,
    keys: &'static [Key],
    next: usize,
}

impl<'a> FieldSource<'_, 'a> {
    /// The next field's key and raw value: absent (a decline if required),
    /// or present and not `null` (but where any value, `null` too, will do).
    #[inline(always)]
    fn present(&mut self, f: &Field) -> Fast<Option<(Key, &'a str)>> {
        let k = *self.keys.get(self.next).ok_or(Decline)?;
        self.next += 1;
        match self.fields.get(k) {
            None if f.required => Err(Decline),
            None => Ok(None),
            Some("null") if !(f.required && f.kind == Kind::Any) => Err(Decline),
            Some(raw) => Ok(Some((k, raw))),
        }
    }
}

impl<'a> Source<'a> for FieldSource<'_, 'a> {
    type Error = Decline;

    #[inline(always)]
    fn string(&mut self, f: Field) -> Fast<Option<Cow<'a, str>>> {
        let Some((k, raw)) = self.present(&f)? else {
            return Ok(None);
        };
        let s = self.fields.str_of(k, raw)?;
        match f.kind {
            Kind::OneOf(names) if !names.contains(&s.as_ref()) => Err(Decline),
            _ => Ok(Some(s)),
        }
    }

    #[inline(always)]
    fn flag(&mut self, f: Field) -> Fast<Option<bool>> {
        match self.present(&f)? {
            None => Ok(None),
            Some((_, "true")) => Ok(Some(true)),
            Some((_, "false")) => Ok(Some(false)),
            Some(_) => Err(Decline),
        }
    }

    #[inline(always)]
    fn patch(&mut self, f: Field) -> Fast<Option<Vec<PatchOperation>>> {
        self.present(&f)?
            .map(|(_, raw)| patch::read(raw))
            .transpose()
    }

    #[inline(always)]
    fn json(&mut self, f: Field) -> Fast<Option<Val<'a>>> {
        let Some((_, raw)) = self.present(&f)? else {
            return Ok(None);
        };
        match f.kind {
            Kind::Any => Ok(Some(Val::Raw(raw))),
            Kind::Object if raw.starts_with('{') => Ok(Some(Val::Raw(raw))),
            Kind::SubagentOutcome => outcome(raw).map(Some),
            Kind::Content => plain_content(raw).map(Some),
            _ => Err(Decline),
        }
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

/// Whether a line would take the fast path's parse (the schema included),
/// without checking any stream rule: the parse cost alone, for
/// `agui-bench`. Not part of the API.
#[doc(hidden)]
pub fn parses(line: &[u8]) -> bool {
    parse(line).is_some()
}

/// Parses one line on the fast path; `None` means "take the `Value` path"
/// (a line that is not UTF-8 included: the scanner checks it when it meets
/// a non-ASCII byte). Inlined into its callers so the typed body is built
/// where it is used.
#[inline(always)]
pub(crate) fn parse(line: &[u8]) -> Option<Typed<'_>> {
    // A raw field parsed later (a snapshot, an outcome) is not under the
    // reader's budget for a parsed line; a line this short cannot pass it.
    if line.len() > MAX_LINE {
        return None;
    }
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
fn read_fields<'a>(line: &'a [u8], fields: &mut Fields<'a>) -> Option<()> {
    let mut sc = scan::Scanner::line(line);
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
/// table ([`wire::COMMON`], then the type's own fields as [`Body::read`]
/// reads them), and the typed body.
#[inline(always)]
fn typed<'a>(f: &Fields<'a>) -> Fast<Typed<'a>> {
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
    let mut src = FieldSource {
        fields: f,
        keys: keys::of(ty),
        next: 0,
    };
    let body = Body::read(ty, &mut src)?;
    Ok(Typed { tag, body })
}

/// The most common `SUBAGENT_FINISHED.outcome`, spelled plainly: read
/// without parsing.
const PLAIN_SUCCESS: &str = r#"{"type":"success"}"#;

/// [`PLAIN_SUCCESS`] as a value, made once.
static SUCCESS: LazyLock<Value> =
    LazyLock::new(|| serde_json::from_str(PLAIN_SUCCESS).unwrap_or_default());

/// A `content` that is a plain string (`TOOL_CALL_RESULT`): kept as text.
/// A string with an escape (a lone surrogate is judged by the `Value`
/// path's parser) or a `$` (the `Value` path's spelling of a big number)
/// declines, and so does an array of content parts.
fn plain_content(raw: &str) -> Fast<Val<'_>> {
    if raw.starts_with('"') && !raw.contains(['\\', '$']) {
        Ok(Val::Raw(raw))
    } else {
        Err(Decline)
    }
}

/// A `SUBAGENT_FINISHED` outcome: the plain success as it is, anything
/// else parsed and judged by the schema validator; declines on any issue.
fn outcome(raw: &str) -> Fast<Val<'_>> {
    if raw == PLAIN_SUCCESS {
        return Ok(Val::Ref(&SUCCESS));
    }
    let v: Value = serde_json::from_str(raw).map_err(|_| Decline)?;
    if schema::fits(&v, Kind::SubagentOutcome) {
        Ok(Val::Owned(Box::new(v)))
    } else {
        Err(Decline)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> bool {
        parse(line.as_bytes()).is_some()
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
        let e = parse(br#"{"type":"TEXT_MESSAGE_END","messageId":"m\u0021"}"#).expect("fast");
        match e.body {
            Body::TextMessageEnd { message_id } => assert_eq!(message_id.as_deref(), Some("m!")),
            other => panic!("{other:?}"),
        }
        assert!(!ok(r#"{"type":"TEXT_MESSAGE_END","messageId":"\udc00"}"#));
        assert!(!ok(r#"{"type":"TEXT_MESSAGE_END","messageId":7}"#));
        assert!(!ok(
            r#"{"type":"TEXT_MESSAGE_END","messageId":"m","messageId":"m"}"#
        ));
    }

    #[test]
    fn non_ascii_text_is_read_and_lines_not_utf8_decline() {
        let line = "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\u{e9}\",\"delta\":\"\u{65e5}\u{672c} \u{1f389}\"}";
        match parse(line.as_bytes()).expect("fast").body {
            Body::TextMessageContent {
                message_id, delta, ..
            } => {
                assert_eq!(message_id.as_deref(), Some("m\u{e9}"));
                assert_eq!(delta.as_deref(), Some("\u{65e5}\u{672c} \u{1f389}"));
            }
            other => panic!("{other:?}"),
        }
        let head = br#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","#;
        for tail in [
            &b"\"delta\":\"a\xffb\"}"[..],
            b"\"delta\":\"\xc0\xaf\"}",
            b"\"delta\":\"\xed\xa0\x80\"}",
            b"\"delta\":\"\xe6\x97\"}",
            b"\"delta\":\"\xc3\xa9\\n\xff\"}",
            b"\"delta\":\"a\",\"x\":[\"\xff\"]}",
            b"\"d\xffelta\":\"x\",\"delta\":\"a\"}",
            b"\"delta\":\"a\",\"x\":\xc3\xa9}",
            b"\"delta\":\"a\"}\xff",
        ] {
            let bytes = [&head[..], tail].concat();
            assert!(
                std::str::from_utf8(&bytes).is_err()
                    || serde_json::from_slice::<Value>(&bytes).is_err()
            );
            assert!(
                parse(&bytes).is_none(),
                "{}",
                String::from_utf8_lossy(&bytes)
            );
        }
    }

    #[test]
    fn escaped_strings_are_unescaped() {
        let e = parse(br#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a\nb\"c"}"#)
            .expect("fast");
        match e.body {
            Body::TextMessageContent { delta, .. } => {
                assert_eq!(delta.as_deref(), Some("a\nb\"c"))
            }
            other => panic!("{other:?}"),
        }
    }
}
