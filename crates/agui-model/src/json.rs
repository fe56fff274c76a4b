//! What counts as JSON (docs/rules.md "What is and is not `schema.not-json`"):
//! exactly the RFC 8259 grammar. This module reads one JSON text into a
//! `serde_json::Value` without serde_json's three departures from the
//! grammar — lone surrogate escapes, numbers outside the range of a double,
//! and nesting deeper than 128 levels all fail there — and notes the two
//! shapes the catalogue warns about (`schema.duplicate-key`,
//! `schema.lone-surrogate`).
//!
//! The parser is iterative (no recursion, so no stack overflow at any
//! depth); nesting is bounded by [`ParseOptions::max_depth`], a checker
//! limit, not a grammar rule.
//!
//! # Two spellings inside a `Value`
//! A `Value` has no room for a lone surrogate or for `1e400`, so both are
//! kept in strings, in forms that print back as the input meant them
//! ([`Out`]):
//! - a lone surrogate code unit `U+D800 + k` is the character
//!   `U+10F800 + k` (plane 16, private use; [`SURROGATE_BASE`]). Ids stay
//!   distinct as JavaScript keeps them, and text deltas join as UTF-16 code
//!   units ([`join_text`]). A literal plane-16 private-use character in the
//!   input reads the same way: a documented blind spot.
//! - a number outside the range of a double is the string
//!   `U+FDD0` (a noncharacter) followed by its text ([`big_number`]); the
//!   schema treats it as a number outside every range.

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde_json::{Map, Value};
use std::fmt;

/// `{}` or `[]`, whose own cost is counted as a scalar's is, when done.
fn is_empty_container(v: &Value) -> bool {
    match v {
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
        _ => false,
    }
}

/// Where lone surrogate code units `U+D800..=U+DFFF` are kept.
pub const SURROGATE_BASE: u32 = 0x10_F800;

/// The first character of a number outside the range of a double.
pub const BIG_NUMBER: char = '\u{FDD0}';

/// The default deepest nesting accepted: docs/rules.md asks at least 10,000.
pub const DEFAULT_MAX_DEPTH: usize = 10_000;

/// How to parse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseOptions {
    /// Deepest nesting of arrays and objects; deeper input is
    /// [`ParseError::TooDeep`].
    pub max_depth: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            max_depth: DEFAULT_MAX_DEPTH,
        }
    }
}

/// A shape the catalogue warns about, noted while parsing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// An object at `path` (JSON Pointer) has `key` twice or more; the
    /// last value was kept.
    DuplicateKey { path: String, key: String },
    /// The string at `path` (a key's path names the key) holds a `\u`
    /// escape in the surrogate range that is not half of a pair.
    LoneSurrogate { path: String, unit: u16 },
}

/// A parsed JSON text and its notes.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub value: Value,
    pub notes: Vec<Note>,
}

/// Why a text is not JSON (or is deeper than the limit).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// A grammar error at a byte offset.
    Syntax { offset: usize, what: String },
    /// The text ends inside a value.
    Eof,
    /// A complete value is followed by more than whitespace.
    Trailing { offset: usize },
    /// Nesting deeper than the limit, first reached at a byte offset.
    TooDeep { limit: usize, offset: usize },
    /// The value would hold more than `limit` bytes in memory (as
    /// [`crate::patch::mem_size`] counts them), first passed at a byte
    /// offset.
    TooBig { limit: usize, offset: usize },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Syntax { offset, what } => {
                write!(f, "JSON syntax error: {what} at column {}", offset + 1)
            }
            ParseError::Eof => f.write_str("the text ends inside a JSON value"),
            ParseError::Trailing { offset } => {
                write!(
                    f,
                    "trailing data after the JSON value at column {}",
                    offset + 1
                )
            }
            ParseError::TooDeep { limit, offset } => write!(
                f,
                "nesting deeper than the limit of {limit} levels at column {}",
                offset + 1
            ),
            ParseError::TooBig { limit, offset } => write!(
                f,
                "the value would hold more than {limit} bytes in memory (passed at column {})",
                offset + 1
            ),
        }
    }
}

/// Parses one JSON text (surrounding whitespace allowed).
pub fn parse(text: &str, opts: &ParseOptions) -> Result<Parsed, ParseError> {
    parse_within(text, opts, usize::MAX)
}

/// [`parse`], stopping with [`ParseError::TooBig`] before the value holds
/// more than `max_bytes` in memory: a line of small objects holds a
/// hundred times its length, so the line's length alone does not bound
/// what parsing it takes.
pub fn parse_within(
    text: &str,
    opts: &ParseOptions,
    max_bytes: usize,
) -> Result<Parsed, ParseError> {
    let mut p = Parser {
        b: text.as_bytes(),
        s: text,
        i: 0,
        notes: Vec::new(),
        stack: Vec::new(),
        max_depth: opts.max_depth,
        held: 0,
        max_bytes,
    };
    let value = p.value()?;
    p.ws();
    if p.i < p.b.len() {
        return Err(ParseError::Trailing { offset: p.i });
    }
    Ok(Parsed {
        value,
        notes: p.notes,
    })
}

/// An open container while parsing.
enum Frame {
    Array(Vec<Value>),
    /// The object so far and the key whose value is being read.
    Object(Map<String, Value>, String),
}

struct Parser<'a> {
    b: &'a [u8],
    s: &'a str,
    i: usize,
    notes: Vec<Note>,
    stack: Vec<Frame>,
    max_depth: usize,
    /// What the values built so far hold, as [`crate::patch::mem_size`]
    /// counts it.
    held: usize,
    max_bytes: usize,
}

impl Parser<'_> {
    /// Counts `bytes` more held; past the budget, stops.
    fn hold(&mut self, bytes: usize) -> Result<(), ParseError> {
        self.held = self.held.saturating_add(bytes);
        if self.held > self.max_bytes {
            return Err(ParseError::TooBig {
                limit: self.max_bytes,
                offset: self.i,
            });
        }
        Ok(())
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Result<u8, ParseError> {
        self.ws();
        self.b.get(self.i).copied().ok_or(ParseError::Eof)
    }

    fn syntax(&self, what: &str) -> ParseError {
        ParseError::Syntax {
            offset: self.i,
            what: what.to_owned(),
        }
    }

    /// The JSON Pointer through the first `frames` open containers (each at
    /// the member it is reading), then `extra` (a key being read).
    fn pointer(&self, frames: usize, extra: Option<&str>) -> String {
        let mut out = String::new();
        let mut push = |tok: &str| {
            out.push('/');
            out.push_str(&tok.replace('~', "~0").replace('/', "~1"));
        };
        for f in &self.stack[..frames.min(self.stack.len())] {
            match f {
                Frame::Array(items) => push(&items.len().to_string()),
                Frame::Object(_, key) => push(&printable(key)),
            }
        }
        if let Some(k) = extra {
            push(&printable(k));
        }
        out
    }

    /// One whole value, iteratively.
    fn value(&mut self) -> Result<Value, ParseError> {
        let base = self.stack.len();
        loop {
            // Read a scalar, or open a container and go round again.
            let c = self.peek()?;
            let mut done = match c {
                b'{' | b'[' => {
                    if self.stack.len() - base >= self.max_depth {
                        return Err(ParseError::TooDeep {
                            limit: self.max_depth,
                            offset: self.i,
                        });
                    }
                    self.i += 1;
                    let close = if c == b'{' { b'}' } else { b']' };
                    if self.peek()? == close {
                        self.i += 1;
                        if c == b'{' {
                            Value::Object(Map::new())
                        } else {
                            Value::Array(Vec::new())
                        }
                    } else if c == b'[' {
                        self.hold(crate::patch::own_cost(&Value::Array(Vec::new())))?;
                        self.stack.push(Frame::Array(Vec::new()));
                        continue;
                    } else {
                        self.hold(crate::patch::own_cost(&Value::Object(Map::new())))?;
                        let key = self.key(self.stack.len())?;
                        self.stack.push(Frame::Object(Map::new(), key));
                        continue;
                    }
                }
                b'"' => {
                    self.i += 1;
                    Value::String(self.string(None)?)
                }
                b't' => self.literal("true", Value::Bool(true))?,
                b'f' => self.literal("false", Value::Bool(false))?,
                b'n' => self.literal("null", Value::Null)?,
                b'-' | b'0'..=b'9' => self.number()?,
                _ => return Err(self.syntax("expected a value")),
            };
            // A container's own cost was counted when it opened.
            if !matches!(done, Value::Array(_) | Value::Object(_)) || is_empty_container(&done) {
                self.hold(crate::patch::own_cost(&done))?;
            }
            // Hand the finished value up; close containers as they end.
            loop {
                if self.stack.len() == base {
                    return Ok(done);
                }
                let sep = self.peek()?;
                if let Some(Frame::Array(_)) = self.stack.last() {
                    self.hold(crate::patch::ELEMENT_COST)?;
                }
                let Some(top) = self.stack.last_mut() else {
                    return Ok(done);
                };
                match top {
                    Frame::Array(items) => {
                        items.push(done);
                        match sep {
                            b',' => {
                                self.i += 1;
                                break;
                            }
                            b']' => {
                                self.i += 1;
                                let Some(Frame::Array(items)) = self.stack.pop() else {
                                    return Err(frame_mismatch());
                                };
                                done = Value::Array(items);
                            }
                            _ => return Err(self.syntax("expected `,` or `]`")),
                        }
                    }
                    Frame::Object(map, key) => {
                        if map.contains_key(key.as_str()) {
                            let key = printable(key);
                            // The object's own path: every frame but its own.
                            let path = self.pointer(self.stack.len() - 1, None);
                            self.notes.push(Note::DuplicateKey { path, key });
                        }
                        let Some(Frame::Object(map, slot)) = self.stack.last_mut() else {
                            return Err(frame_mismatch());
                        };
                        let key = std::mem::take(slot);
                        map.insert(key, done);
                        match sep {
                            b',' => {
                                self.i += 1;
                                let key = self.key(self.stack.len() - 1)?;
                                if let Some(Frame::Object(_, slot)) = self.stack.last_mut() {
                                    *slot = key;
                                }
                                break;
                            }
                            b'}' => {
                                self.i += 1;
                                let Some(Frame::Object(map, _)) = self.stack.pop() else {
                                    return Err(frame_mismatch());
                                };
                                done = Value::Object(map);
                            }
                            _ => return Err(self.syntax("expected `,` or `}`")),
                        }
                    }
                }
            }
        }
    }

    /// `"key" :` at the cursor, in the object whose path runs through the
    /// first `frames` open containers.
    fn key(&mut self, frames: usize) -> Result<String, ParseError> {
        if self.peek()? != b'"' {
            return Err(self.syntax("expected a string key"));
        }
        self.i += 1;
        let key = self.string(Some(frames))?;
        self.hold(crate::patch::member_cost(key.len()))?;
        if self.peek()? != b':' {
            return Err(self.syntax("expected `:`"));
        }
        self.i += 1;
        Ok(key)
    }

    fn literal(&mut self, word: &str, v: Value) -> Result<Value, ParseError> {
        let end = self.i + word.len();
        if self.b.get(self.i..end) == Some(word.as_bytes()) {
            self.i = end;
            Ok(v)
        } else if self.b.len() < end && word.as_bytes().starts_with(&self.b[self.i..]) {
            Err(ParseError::Eof)
        } else {
            Err(self.syntax("expected a value"))
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    fn number(&mut self) -> Result<Value, ParseError> {
        let start = self.i;
        let b = self.b;
        let mut i = self.i;
        let digits = |i: &mut usize| {
            let from = *i;
            while b.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
            *i - from
        };
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        let int_at = i;
        let n = digits(&mut i);
        if n == 0 {
            return Err(self.end_or(i, "expected digits"));
        }
        if n > 1 && b[int_at] == b'0' {
            self.i = int_at + 1;
            return Err(self.syntax("a number has a leading zero"));
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            if digits(&mut i) == 0 {
                return Err(self.end_or(i, "expected digits after `.`"));
            }
        }
        if let Some(b'e' | b'E') = b.get(i) {
            i += 1;
            if let Some(b'+' | b'-') = b.get(i) {
                i += 1;
            }
            if digits(&mut i) == 0 {
                return Err(self.end_or(i, "expected digits in the exponent"));
            }
        }
        self.i = i;
        let text = &self.s[start..i];
        // serde_json reads every number it can (the same value as any other
        // reading of this crate); only those outside a double's range fail.
        Ok(match serde_json::from_str::<Value>(text) {
            Ok(v @ Value::Number(_)) => v,
            _ => Value::String(big_number(text)),
        })
    }

    /// A syntax error at `i`, or end of input when `i` is the end.
    fn end_or(&mut self, i: usize, what: &str) -> ParseError {
        if i >= self.b.len() {
            ParseError::Eof
        } else {
            self.i = i;
            self.syntax(what)
        }
    }

    /// The rest of a string whose opening quote was consumed. `key` says
    /// the string is an object key, and through how many open containers
    /// its object's path runs (notes about a key point at the key).
    fn string(&mut self, key: Option<usize>) -> Result<String, ParseError> {
        let b = self.b;
        let mut out = String::new();
        let mut lone: Vec<u16> = Vec::new();
        let mut run = self.i;
        loop {
            let Some(&c) = b.get(self.i) else {
                return Err(ParseError::Eof);
            };
            match c {
                b'"' => {
                    out.push_str(&self.s[run..self.i]);
                    self.i += 1;
                    break;
                }
                b'\\' => {
                    out.push_str(&self.s[run..self.i]);
                    self.escape(&mut out, &mut lone)?;
                    run = self.i;
                }
                0..=0x1F => return Err(self.syntax("a control character in a string")),
                _ => self.i += 1,
            }
        }
        for unit in lone {
            let path = match key {
                Some(frames) => self.pointer(frames, Some(&out)),
                None => self.pointer(self.stack.len(), None),
            };
            self.notes.push(Note::LoneSurrogate { path, unit });
        }
        Ok(out)
    }

    /// One escape at the cursor (on the backslash), appended to `out`.
    fn escape(&mut self, out: &mut String, lone: &mut Vec<u16>) -> Result<(), ParseError> {
        let b = self.b;
        let Some(&e) = b.get(self.i + 1) else {
            return Err(ParseError::Eof);
        };
        let c = match e {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let unit = self.hex4(self.i + 2)?;
                self.i += 6;
                match unit {
                    0xD800..=0xDBFF => {
                        // A high half: paired only by an immediately
                        // following `\u` low half.
                        if b.get(self.i) == Some(&b'\\') && b.get(self.i + 1) == Some(&b'u') {
                            let low = self.hex4(self.i + 2)?;
                            if (0xDC00..=0xDFFF).contains(&low) {
                                self.i += 6;
                                let cp = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                                out.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
                                return Ok(());
                            }
                        }
                        out.push(surrogate_char(unit));
                        lone.push(unit as u16);
                    }
                    0xDC00..=0xDFFF => {
                        out.push(surrogate_char(unit));
                        lone.push(unit as u16);
                    }
                    _ => out.push(char::from_u32(unit).unwrap_or('\u{FFFD}')),
                }
                return Ok(());
            }
            _ => {
                self.i += 1;
                return Err(self.syntax("an invalid escape"));
            }
        };
        out.push(c);
        self.i += 2;
        Ok(())
    }

    fn hex4(&mut self, at: usize) -> Result<u32, ParseError> {
        let mut n = 0u32;
        for k in 0..4 {
            let Some(&c) = self.b.get(at + k) else {
                return Err(ParseError::Eof);
            };
            let Some(d) = (c as char).to_digit(16) else {
                self.i = at + k;
                return Err(self.syntax("an invalid `\\u` escape"));
            };
            n = n * 16 + d;
        }
        Ok(n)
    }
}

/// Never happens: the frame on top was matched just before.
fn frame_mismatch() -> ParseError {
    ParseError::Syntax {
        offset: 0,
        what: "internal: parser frame mismatch".to_owned(),
    }
}

/// The character a lone surrogate code unit is kept as.
fn surrogate_char(unit: u32) -> char {
    char::from_u32(SURROGATE_BASE + (unit - 0xD800)).unwrap_or('\u{FFFD}')
}

/// The surrogate code unit a kept character stands for, if it is one.
pub fn as_surrogate(c: char) -> Option<u16> {
    let n = c as u32;
    (SURROGATE_BASE..=SURROGATE_BASE + 0x7FF)
        .contains(&n)
        .then(|| (n - SURROGATE_BASE + 0xD800) as u16)
}

/// The kept form of a number outside the range of a double.
pub fn big_number(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 3);
    s.push(BIG_NUMBER);
    s.push_str(text);
    s
}

/// The text of a kept big number, if `s` is one.
pub fn as_big_number(s: &str) -> Option<&str> {
    let rest = s.strip_prefix(BIG_NUMBER)?;
    let b = rest.as_bytes();
    let ok = !b.is_empty()
        && b.iter()
            .all(|c| c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E'));
    ok.then_some(rest)
}

/// `v` as a string of the input: `None` for a number outside a double's
/// range kept as a string ([`big_number`]). Every string read from an
/// event goes through here, so such a number never becomes an id or a
/// text (it showed as `"\u{fdd0}1e400"` in a message).
pub fn text(v: &Value) -> Option<&str> {
    v.as_str().filter(|s| as_big_number(s).is_none())
}

/// Whether a value is a string in the JSON sense (not a kept big number).
pub fn is_string(v: &Value) -> bool {
    matches!(v, Value::String(s) if as_big_number(s).is_none())
}

/// Appends `delta` to `text` as UTF-16 code units join: a kept high
/// surrogate at the end of `text` and a kept low one at the start of
/// `delta` become one character.
pub fn join_text(text: &mut String, delta: &str) {
    let mut rest = delta;
    if let Some(last) = text.chars().next_back()
        && let Some(high @ 0xD800..=0xDBFF) = as_surrogate(last)
        && let Some(first) = delta.chars().next()
        && let Some(low @ 0xDC00..=0xDFFF) = as_surrogate(first)
    {
        text.pop();
        let cp = 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
        text.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
        rest = &delta[first.len_utf8()..];
    }
    text.push_str(rest);
}

/// A key or string as shown to people: kept surrogates as U+FFFD.
pub fn printable(s: &str) -> String {
    if s.chars().any(|c| as_surrogate(c).is_some()) {
        s.chars()
            .map(|c| {
                if as_surrogate(c).is_some() {
                    '\u{FFFD}'
                } else {
                    c
                }
            })
            .collect()
    } else {
        s.to_owned()
    }
}

/// Replaces kept lone surrogates by U+FFFD in every string and key of `v`
/// (what a consumer shows once text is final), without recursion.
pub fn settle_surrogates(v: &mut Value) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) if s.chars().any(|c| as_surrogate(c).is_some()) => {
                *s = printable(s);
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(map) => {
                if map
                    .keys()
                    .any(|k| k.chars().any(|c| as_surrogate(c).is_some()))
                {
                    let old = std::mem::take(map);
                    *map = old.into_iter().map(|(k, v)| (printable(&k), v)).collect();
                }
                stack.extend(map.values_mut());
            }
            _ => {}
        }
    }
}

/// A `Value` as JSON text should print it: kept big numbers as the number
/// written, kept lone surrogates as U+FFFD (the projection's form).
pub struct Out<'a>(pub &'a Value);

impl Serialize for Out<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::String(text) => {
                if let Some(num) = as_big_number(text)
                    && let Ok(raw) = serde_json::value::RawValue::from_string(num.to_owned())
                {
                    return raw.serialize(s);
                }
                if text.chars().any(|c| as_surrogate(c).is_some()) {
                    s.serialize_str(&printable(text))
                } else {
                    s.serialize_str(text)
                }
            }
            Value::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for v in items {
                    seq.serialize_element(&Out(v))?;
                }
                seq.end()
            }
            Value::Object(map) => {
                let mut m = s.serialize_map(Some(map.len()))?;
                for (k, v) in map {
                    if k.chars().any(|c| as_surrogate(c).is_some()) {
                        m.serialize_entry(&printable(k), &Out(v))?;
                    } else {
                        m.serialize_entry(k, &Out(v))?;
                    }
                }
                m.end()
            }
            other => other.serialize(s),
        }
    }
}

/// How deep `v` nests (a scalar is 0).
pub fn depth(v: &Value) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(v, 0usize)];
    while let Some((v, d)) = stack.pop() {
        match v {
            Value::Array(items) => {
                deepest = deepest.max(d + 1);
                stack.extend(items.iter().map(|x| (x, d + 1)));
            }
            Value::Object(map) => {
                deepest = deepest.max(d + 1);
                stack.extend(map.values().map(|x| (x, d + 1)));
            }
            _ => {}
        }
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn p(text: &str) -> Result<Parsed, ParseError> {
        parse(text, &ParseOptions::default())
    }

    fn v(text: &str) -> Value {
        p(text)
            .map(|x| x.value)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn reads_what_serde_json_reads() {
        for text in [
            r#"{"a":[1,-2,3.5,0,-0,1e5,1.5E-3,true,false,null,"x\n\u00e9\ud83d\ude00"],"b":{}}"#,
            " [ ] ",
            "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
            "12345678901234567890",
            "-9223372036854775808",
            "0.1",
        ] {
            let want: Value = serde_json::from_str(text).unwrap();
            assert_eq!(v(text), want, "{text}");
        }
    }

    #[test]
    fn rejects_what_the_grammar_rejects() {
        for (text, eof) in [
            ("", true),
            ("{", true),
            ("[1,", true),
            ("\"abc", true),
            ("tru", true),
            ("01", false),
            ("1.", true),
            ("1.x", false),
            ("-", true),
            ("+1", false),
            ("[1,]", false),
            ("{\"a\"}", false),
            ("{\"a\":1,}", false),
            ("{1:2}", false),
            ("\"a\u{1}b\"", false),
            ("\"\\x\"", false),
            ("\"\\u12g4\"", false),
            ("nul", true),
            ("truex", false),
        ] {
            let r = p(text);
            match r {
                Err(ParseError::Eof) => assert!(eof, "{text:?}: Eof"),
                Err(ParseError::Syntax { .. } | ParseError::Trailing { .. }) => {
                    assert!(!eof, "{text:?}: {r:?}")
                }
                other => panic!("{text:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn huge_numbers_are_json_and_print_as_written() {
        let got = p(r#"{"n":1e400,"m":-1E+999,"k":1}"#).unwrap();
        assert!(got.notes.is_empty());
        let n = &got.value["n"];
        assert!(!is_string(n), "a big number is not a string");
        assert_eq!(
            serde_json::to_string(&Out(&got.value)).unwrap(),
            r#"{"k":1,"m":-1E+999,"n":1e400}"#
        );
    }

    #[test]
    fn lone_surrogates_are_json_and_noted() {
        let got = p(r#"{"delta":"a\ud83d","x":["\udc00b"]}"#).unwrap();
        assert_eq!(
            got.notes,
            vec![
                Note::LoneSurrogate {
                    path: "/delta".into(),
                    unit: 0xD83D
                },
                Note::LoneSurrogate {
                    path: "/x/0".into(),
                    unit: 0xDC00
                },
            ]
        );
        assert_eq!(
            serde_json::to_string(&Out(&got.value)).unwrap(),
            "{\"delta\":\"a\u{FFFD}\",\"x\":[\"\u{FFFD}b\"]}"
        );
        // Two different lone halves are different strings.
        assert_ne!(v(r#""\ud83d""#), v(r#""\ud83e""#));
        // A high half followed by a non-low escape is lone, and so noted.
        assert_eq!(p(r#""\ud83d\u0041""#).unwrap().notes.len(), 1);
    }

    #[test]
    fn split_pairs_join_as_utf16_code_units() {
        let a = v(r#""hi \ud83d""#);
        let b = v(r#""\ude00!""#);
        let mut text = a.as_str().unwrap().to_owned();
        join_text(&mut text, b.as_str().unwrap());
        assert_eq!(text, "hi 😀!");
        // A half left alone prints as U+FFFD.
        let mut lone = v(r#""x\ud83d""#).as_str().unwrap().to_owned();
        join_text(&mut lone, "y");
        assert_eq!(printable(&lone), "x\u{FFFD}y");
    }

    #[test]
    fn duplicate_keys_keep_the_last_value_and_are_noted() {
        let got = p(r#"{"s":"s2","s":"s1","o":{"a":1,"b":2,"a":3}}"#).unwrap();
        assert_eq!(got.value, json!({"s": "s1", "o": {"a": 3, "b": 2}}));
        assert_eq!(
            got.notes,
            vec![
                Note::DuplicateKey {
                    path: "".into(),
                    key: "s".into()
                },
                Note::DuplicateKey {
                    path: "/o".into(),
                    key: "a".into()
                },
            ]
        );
        // Keys that differ only in spelling are the same name.
        assert_eq!(p(r#"{"a":1,"\u0061":2}"#).unwrap().notes.len(), 1);
    }

    #[test]
    fn the_memory_budget_is_what_the_value_holds() {
        // Parsing within exactly what the value holds succeeds; one byte
        // less stops, before the value is built.
        for text in [
            "1",
            "\"abc\"",
            "[]",
            "{}",
            "[1,[2,[3]],{}]",
            r#"{"a":{"b":[1,"two",null]},"c":"d\u00e9"}"#,
            r#"[{"a":1},{"a":1},{"a":1}]"#,
        ] {
            let full = crate::patch::mem_size(&v(text));
            let opts = ParseOptions::default();
            assert!(parse_within(text, &opts, full).is_ok(), "{text}");
            assert!(
                matches!(
                    parse_within(text, &opts, full - 1),
                    Err(ParseError::TooBig { limit, .. }) if limit == full - 1
                ),
                "{text}"
            );
        }
    }

    #[test]
    fn nesting_is_bounded_by_the_limit_not_the_stack() {
        let deep = 200_000;
        let text = format!("{}{}", "[".repeat(deep), "]".repeat(deep));
        let opts = ParseOptions { max_depth: deep };
        let got = parse(&text, &opts).unwrap();
        assert_eq!(depth(&got.value), deep);
        crate::patch::drop_value(got.value);
        let over = ParseOptions {
            max_depth: deep - 1,
        };
        assert!(matches!(
            parse(&text, &over),
            Err(ParseError::TooDeep { limit, .. }) if limit == deep - 1
        ));
        // The default admits 10,000 levels.
        let ten = format!("{}1{}", "[".repeat(10_000), "]".repeat(10_000));
        let got = p(&ten).unwrap();
        crate::patch::drop_value(got.value);
    }

    #[test]
    fn trailing_data_is_not_json() {
        assert!(matches!(p("{} x"), Err(ParseError::Trailing { offset: 3 })));
        assert!(p("{}  \n").is_ok());
    }
}
