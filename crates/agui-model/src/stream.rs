//! Reading a stream: JSON Lines (or one JSON array of events) from any
//! reader, one item at a time, never holding the whole input.
//!
//! [`read_stream`] hands each [`Item`] to a callback as soon as it is read,
//! so memory holds one line (JSON Lines) or one element (array) at a time.
//! Bad input never stops the reader: each broken line becomes an
//! [`Item::Unparseable`] with its line number and a reason, and reading goes
//! on with the next line. Only an I/O error from the reader itself ends
//! reading early (it is returned).
//!
//! # Which format
//! The input is read as **one JSON array of events** when its first
//! non-whitespace byte is `[`, unless that first line ends (with a newline,
//! more non-blank lines following) without leaving a value open — a
//! complete value, or one broken by a syntax error or deep nesting: then it
//! is JSON Lines whose first item is an array or unparseable (either way a
//! `schema.not-json` item), and reading goes on line by line. A first line
//! longer than 1 MiB that starts with `[` means an array. Everything else is
//! **JSON Lines**. A leading UTF-8 byte order mark is skipped.
//!
//! # JSON Lines
//! Each non-blank line is one item; lines holding only whitespace are
//! skipped and are not items; `\r\n` endings are accepted. A valid JSON value
//! that is not an object is an ordinary [`Item::Value`] (the checker reports
//! it). A line becomes [`Item::Unparseable`] when it holds invalid UTF-8, a
//! JSON syntax error, data after its value, or nesting deeper than
//! serde_json's recursion limit allows ([`MAX_NESTING`]; no stack overflow),
//! when the line or the input ends inside its value, or when it is longer
//! than [`ReadOptions::max_line_bytes`] — the rest of such a line is skipped
//! in chunks, never buffered.
//!
//! # JSON array
//! Elements are deserialized one at a time from the reader and handed over
//! one by one; the array is never built. A syntax error (or truncation)
//! inside the array ends reading with one unparseable item naming its line
//! and column; data after the closing `]` is one unparseable item too. An
//! element longer than [`ReadOptions::max_line_bytes`] ends reading the same
//! way (an array cannot be resumed after a skipped element).

use serde::de::{Error as _, SeqAccess, Visitor};
use serde_json::Value;
use std::cell::Cell;
use std::fmt;
use std::io::{self, BufRead, Cursor, Read};
use std::ops::ControlFlow;

/// The default longest line: 64 MiB.
pub const DEFAULT_MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// The deepest nesting serde_json's default recursion limit (kept, so deep
/// input cannot overflow the stack) lets through: 127 levels; 128 fail.
pub const MAX_NESTING: usize = 127;

/// How much of a first line starting with `[` is looked at to decide between
/// a JSON array file and JSON Lines (a longer first line means an array).
const ARRAY_PEEK_BYTES: usize = 1024 * 1024;

/// A line buffer larger than this is released after use, so one long line
/// does not pin its memory for the rest of the stream.
const KEEP_BUFFER_BYTES: usize = 1024 * 1024;

/// One stream item.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A JSON value (not necessarily an object). `line` is 1-based: the line
    /// of a JSON Lines item, or the line where an array element ends.
    Value { line: usize, value: Value },
    /// Something that is not JSON at all; `reason` says what and where
    /// within the line (it does not repeat the line number).
    Unparseable { line: usize, reason: String },
}

impl Item {
    /// The 1-based line number of the item.
    pub fn line(&self) -> usize {
        match self {
            Item::Value { line, .. } | Item::Unparseable { line, .. } => *line,
        }
    }
}

/// How to read a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    /// Longest JSON Lines line in bytes (without its line ending); a longer
    /// line is skipped and reported as unparseable.
    pub max_line_bytes: usize,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
        }
    }
}

/// Reads a stream from `r`, calling `on_item` for each item in order, and
/// returns the number of items handed over. `on_item` returns
/// [`ControlFlow::Break`] to stop reading early. Errors are I/O errors of
/// the reader only; bad input is reported as [`Item::Unparseable`].
pub fn read_stream<R: BufRead>(
    r: R,
    opts: &ReadOptions,
    on_item: impl FnMut(Item) -> ControlFlow<()>,
) -> io::Result<usize> {
    read_stream_with(r, opts, |_| false, on_item)
}

/// [`read_stream`], but each JSON Lines line is first offered raw (without
/// its line ending, not yet parsed) to `take`; a line `take` handles (it
/// returns `true`) is counted but not parsed nor handed to `on_item`. This
/// is how the checker's borrowed fast path reads lines.
pub fn read_stream_with<R: BufRead>(
    mut r: R,
    opts: &ReadOptions,
    mut take: impl FnMut(&[u8]) -> bool,
    mut on_item: impl FnMut(Item) -> ControlFlow<()>,
) -> io::Result<usize> {
    let taken = Cell::new(0usize);
    let mut take = |line: &[u8]| {
        let t = take(line);
        taken.set(taken.get() + usize::from(t));
        t
    };
    let mut count = 0usize;
    let mut emit = |item: Item| {
        count += 1;
        on_item(item)
    };
    let mut pos = Pos { line: 1, col: 0 };
    skip_bom(&mut r, &mut pos)?;
    match skip_blank(&mut r, &mut pos)? {
        None => {}
        Some(b'[') => read_array_or_lines(&mut r, opts, pos, &mut take, &mut emit)?,
        Some(_) => {
            read_lines(&mut r, opts, pos, &mut take, &mut emit)?;
        }
    }
    Ok(count + taken.get())
}

/// Where reading stands: the 1-based line, and how many bytes of it were
/// consumed already (so columns of the first item stay true).
#[derive(Debug, Clone, Copy)]
struct Pos {
    line: usize,
    col: usize,
}

/// The reader's buffered bytes, refilled when empty (interrupted reads are
/// retried). Empty means end of input; the buffer is only refilled once, so
/// an interactive end of input is not waited for twice.
fn fill<R: BufRead>(r: &mut R) -> io::Result<&[u8]> {
    loop {
        match r.fill_buf() {
            Ok([]) => return Ok(&[]),
            Ok(_) => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    // Non-empty: this returns the same buffered bytes without reading.
    r.fill_buf()
}

fn skip_bom<R: BufRead>(r: &mut R, pos: &mut Pos) -> io::Result<()> {
    if fill(r)?.starts_with(b"\xEF\xBB\xBF") {
        r.consume(3);
        pos.col = 3;
    }
    Ok(())
}

/// Consumes whitespace and returns the next byte (not consumed), or `None`
/// at end of input.
fn skip_blank<R: BufRead>(r: &mut R, pos: &mut Pos) -> io::Result<Option<u8>> {
    loop {
        let avail = fill(r)?;
        if avail.is_empty() {
            return Ok(None);
        }
        let blank = avail
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(avail.len());
        for &b in &avail[..blank] {
            if b == b'\n' {
                pos.line += 1;
                pos.col = 0;
            } else {
                pos.col += 1;
            }
        }
        let next = avail.get(blank).copied();
        r.consume(blank);
        if next.is_some() {
            return Ok(next);
        }
    }
}

/// How [`fill_line`] stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineEnd {
    /// A newline ended the line (consumed, not appended).
    Newline,
    /// The input ended.
    Eof,
    /// `buf` reached its cap before the line ended.
    Full,
}

/// Appends bytes of the current line to `buf`, up to `cap` bytes in all.
fn fill_line<R: BufRead>(r: &mut R, buf: &mut Vec<u8>, cap: usize) -> io::Result<LineEnd> {
    loop {
        let avail = fill(r)?;
        if avail.is_empty() {
            return Ok(LineEnd::Eof);
        }
        let room = cap.saturating_sub(buf.len());
        match memchr::memchr(b'\n', avail) {
            Some(i) if i <= room => {
                buf.extend_from_slice(&avail[..i]);
                r.consume(i + 1);
                return Ok(LineEnd::Newline);
            }
            _ => {
                let n = avail.len().min(room);
                buf.extend_from_slice(&avail[..n]);
                r.consume(n);
                if buf.len() >= cap {
                    return Ok(LineEnd::Full);
                }
            }
        }
    }
}

/// Skips the rest of the current line chunk by chunk; returns the bytes
/// skipped and whether a newline (rather than end of input) ended it.
fn skip_line<R: BufRead>(r: &mut R) -> io::Result<(u64, bool)> {
    let mut skipped = 0u64;
    loop {
        let avail = fill(r)?;
        if avail.is_empty() {
            return Ok((skipped, false));
        }
        if let Some(i) = memchr::memchr(b'\n', avail) {
            r.consume(i + 1);
            return Ok((skipped + i as u64, true));
        }
        let n = avail.len();
        r.consume(n);
        skipped += n as u64;
    }
}

/// Reads JSON Lines from the current position (the start of a line, or
/// inside the first line after `pos.col` bytes of whitespace).
fn read_lines<R: BufRead>(
    r: &mut R,
    opts: &ReadOptions,
    mut pos: Pos,
    take: &mut impl FnMut(&[u8]) -> bool,
    emit: &mut impl FnMut(Item) -> ControlFlow<()>,
) -> io::Result<()> {
    let cap = opts.max_line_bytes.saturating_add(1);
    let mut buf = Vec::new();
    loop {
        // The common case: the whole line is in the reader's buffer, and is
        // handed out in place instead of copied.
        let avail = fill(r)?;
        if let Some(n) = memchr::memchr(b'\n', avail).filter(|&n| n <= cap) {
            let line = pos.line;
            let text = avail[..n].strip_suffix(b"\r").unwrap_or(&avail[..n]);
            let item = line_item(text, true, line, pos.col, take);
            r.consume(n + 1);
            if item.map(&mut *emit).is_some_and(|flow| flow.is_break()) {
                return Ok(());
            }
            pos = Pos {
                line: line + 1,
                col: 0,
            };
            continue;
        }
        buf.clear();
        let end = fill_line(r, &mut buf, cap)?;
        let line = pos.line;
        let item = match end {
            LineEnd::Eof if buf.is_empty() => return Ok(()),
            LineEnd::Full => {
                let (skipped, newline) = skip_line(r)?;
                let total = buf.len() as u64 + skipped;
                buf = Vec::new();
                let reason = format!(
                    "line of {total} bytes is longer than the limit of {}; skipped",
                    human_bytes(opts.max_line_bytes)
                );
                let flow = emit(Item::Unparseable { line, reason });
                if !newline || flow.is_break() {
                    return Ok(());
                }
                pos = Pos {
                    line: line + 1,
                    col: 0,
                };
                continue;
            }
            LineEnd::Newline | LineEnd::Eof => {
                let text = buf.strip_suffix(b"\r").unwrap_or(&buf);
                line_item(text, end == LineEnd::Newline, line, pos.col, take)
            }
        };
        if item.map(&mut *emit).is_some_and(|flow| flow.is_break()) {
            return Ok(());
        }
        if end == LineEnd::Eof {
            return Ok(());
        }
        if buf.capacity() > KEEP_BUFFER_BYTES {
            buf = Vec::new();
        }
        pos = Pos {
            line: line + 1,
            col: 0,
        };
    }
}

/// The item of one line (without its line ending): none for a blank line
/// or one `take` handled.
fn line_item(
    text: &[u8],
    terminated: bool,
    line: usize,
    col: usize,
    take: &mut impl FnMut(&[u8]) -> bool,
) -> Option<Item> {
    if text.iter().all(u8::is_ascii_whitespace) || take(text) {
        return None;
    }
    Some(match parse_line(text, terminated, col) {
        Ok(value) => Item::Value { line, value },
        Err(reason) => Item::Unparseable { line, reason },
    })
}

/// The reason for a line whose value goes on past its end.
const LINE_ENDS_INSIDE: &str = "the line ends inside a JSON value";

/// Parses one JSON Lines line. `terminated` is false for a last line with
/// no newline; `col` is the number of bytes of the line already consumed.
fn parse_line(bytes: &[u8], terminated: bool, col: usize) -> Result<Value, String> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| format!("invalid UTF-8 at byte offset {}", col + e.valid_up_to()))?;
    let mut de = serde_json::Deserializer::from_str(text);
    let value = serde::Deserialize::deserialize(&mut de).map_err(|e: serde_json::Error| {
        if e.is_eof() {
            if terminated {
                LINE_ENDS_INSIDE.to_string()
            } else {
                "truncated last line: the input ends inside a JSON value".to_string()
            }
        } else {
            describe(&e, "", col + e.column())
        }
    })?;
    de.end().map_err(|e| {
        format!(
            "trailing data after the JSON value at column {}",
            col + e.column()
        )
    })?;
    Ok(value)
}

/// A reason for a serde_json error: nesting, or the syntax error with its
/// column in the line.
fn describe(e: &serde_json::Error, context: &str, column: usize) -> String {
    let full = e.to_string();
    let message = full
        .strip_suffix(&format!(" at line {} column {}", e.line(), e.column()))
        .unwrap_or(&full);
    if message.starts_with("recursion limit exceeded") {
        return format!("nesting deeper than {MAX_NESTING} levels{context}");
    }
    format!("JSON syntax error{context}: {message} at column {column}")
}

/// Decides between a JSON array file and JSON Lines whose first line is an
/// array (see the module doc), then reads accordingly. The reader stands on
/// the `[`.
fn read_array_or_lines<R: BufRead>(
    r: &mut R,
    opts: &ReadOptions,
    pos: Pos,
    take: &mut impl FnMut(&[u8]) -> bool,
    emit: &mut impl FnMut(Item) -> ControlFlow<()>,
) -> io::Result<()> {
    let mut first = Vec::new();
    let cap = ARRAY_PEEK_BYTES.min(opts.max_line_bytes);
    match fill_line(r, &mut first, cap)? {
        LineEnd::Newline => {
            let text = first.strip_suffix(b"\r").unwrap_or(&first);
            let parsed = parse_line(text, true, pos.col);
            // Only a value that goes on past the line's end makes this an
            // array file; a complete or broken line is a JSON Lines item
            // when more lines follow.
            let continues = matches!(&parsed, Err(reason) if reason == LINE_ENDS_INSIDE);
            if !continues {
                let mut rest = Pos {
                    line: pos.line + 1,
                    col: 0,
                };
                if skip_blank(r, &mut rest)?.is_some() {
                    let item = match parsed {
                        Ok(value) => Item::Value {
                            line: pos.line,
                            value,
                        },
                        Err(reason) => Item::Unparseable {
                            line: pos.line,
                            reason,
                        },
                    };
                    if emit(item).is_break() {
                        return Ok(());
                    }
                    return read_lines(r, opts, rest, take, emit);
                }
            }
            first.push(b'\n');
            read_array(Cursor::new(first).chain(r), opts, pos, emit)
        }
        LineEnd::Eof | LineEnd::Full => read_array(Cursor::new(first).chain(r), opts, pos, emit),
    }
}

/// What [`Counted`] saw of an array file so far.
#[derive(Default)]
struct Tally {
    /// Newlines read: gives each element its line.
    newlines: Cell<usize>,
    /// Bytes read since the last element was handed over.
    element_bytes: Cell<usize>,
    /// An element grew past the limit; reading was cut off.
    over: Cell<bool>,
    /// The callback asked to stop.
    stopped: Cell<bool>,
}

/// A reader that keeps a [`Tally`] and fails once an element grows past
/// `limit` bytes, so an array element is bounded like a line.
struct Counted<'a, Rd> {
    inner: Rd,
    tally: &'a Tally,
    limit: usize,
}

impl<Rd: Read> Read for Counted<'_, Rd> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let t = self.tally;
        t.newlines
            .set(t.newlines.get() + memchr::memchr_iter(b'\n', &buf[..n]).count());
        t.element_bytes.set(t.element_bytes.get() + n);
        if t.element_bytes.get() > self.limit {
            t.over.set(true);
            return Err(io::Error::other("array element over the limit"));
        }
        Ok(n)
    }
}

/// The message a visitor fails with when the callback asked to stop.
const STOP: &str = "reading stopped by the caller";

/// Hands each array element to the callback as it is deserialized.
struct Elements<'a, F> {
    emit: &'a mut F,
    first_line: usize,
    tally: &'a Tally,
}

impl<'de, F: FnMut(Item) -> ControlFlow<()>> Visitor<'de> for Elements<'_, F> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON array of events")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(value) = seq.next_element::<Value>()? {
            self.tally.element_bytes.set(0);
            let line = self.first_line + self.tally.newlines.get();
            if (self.emit)(Item::Value { line, value }).is_break() {
                self.tally.stopped.set(true);
                return Err(A::Error::custom(STOP));
            }
        }
        Ok(())
    }
}

/// Reads one JSON array of events, element by element. `rd` starts at the
/// `[`, which stands at `pos`.
fn read_array<Rd: Read>(
    rd: Rd,
    opts: &ReadOptions,
    pos: Pos,
    emit: &mut impl FnMut(Item) -> ControlFlow<()>,
) -> io::Result<()> {
    let tally = Tally::default();
    let limit = opts.max_line_bytes;
    let mut de = serde_json::Deserializer::from_reader(Counted {
        inner: rd,
        tally: &tally,
        limit,
    });
    let visitor = Elements {
        emit: &mut *emit,
        first_line: pos.line,
        tally: &tally,
    };
    let (e, trailing) = match serde::Deserializer::deserialize_seq(&mut de, visitor) {
        Ok(()) => match de.end() {
            Ok(()) => return Ok(()),
            Err(e) => (e, true),
        },
        Err(_) if tally.stopped.get() => return Ok(()),
        Err(e) => (e, false),
    };
    let at = Position::of(&e, pos);
    let reason = if tally.over.get() {
        format!(
            "an array element is longer than the limit of {}; reading stops",
            human_bytes(limit)
        )
    } else if e.is_io() {
        return Err(e.into());
    } else if trailing {
        format!("trailing data after the JSON array at column {}", at.column)
    } else if e.is_eof() {
        "truncated input: it ends inside the JSON array".to_string()
    } else {
        describe(&e, " in the JSON array", at.column)
    };
    let _ = emit(Item::Unparseable {
        line: at.line,
        reason,
    });
    Ok(())
}

/// An error's line and column in the whole input.
struct Position {
    line: usize,
    column: usize,
}

impl Position {
    fn of(e: &serde_json::Error, start: Pos) -> Position {
        let line = start.line + e.line().saturating_sub(1);
        let column = if e.line() <= 1 {
            e.column() + start.col
        } else {
            e.column()
        };
        Position { line, column }
    }
}

/// `64 MiB`, `1 KiB`, `100 bytes`.
fn human_bytes(n: usize) -> String {
    const UNITS: [(usize, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (size, unit) in UNITS {
        if n >= size && n / size * size == n {
            return format!("{} {unit}", n / size);
        }
    }
    format!("{n} bytes")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Reads everything from bytes with the given options.
    fn read_from(input: impl BufRead, opts: &ReadOptions) -> Vec<Item> {
        let mut items = Vec::new();
        let n = read_stream(input, opts, |item| {
            items.push(item);
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(n, items.len());
        items
    }

    fn read_with(input: &[u8], opts: &ReadOptions) -> Vec<Item> {
        read_from(input, opts)
    }

    fn read(input: &[u8]) -> Vec<Item> {
        read_from(input, &ReadOptions::default())
    }

    fn value(line: usize, value: Value) -> Item {
        Item::Value { line, value }
    }

    /// The line and reason of an unparseable item.
    fn bad(item: &Item) -> (usize, &str) {
        match item {
            Item::Unparseable { line, reason } => (*line, reason),
            other => panic!("expected an unparseable item, got {other:?}"),
        }
    }

    #[test]
    fn json_lines_one_item_per_non_blank_line() {
        let items = read(b"{\"a\":1}\n\n   \n{\"b\":2}\r\n\t\r\n42\n");
        assert_eq!(
            items,
            vec![
                value(1, json!({"a": 1})),
                value(4, json!({"b": 2})),
                value(6, json!(42))
            ]
        );
    }

    #[test]
    fn last_line_without_newline_is_an_item() {
        assert_eq!(
            read(b"{\"a\":1}\n{\"b\":2}"),
            vec![value(1, json!({"a": 1})), value(2, json!({"b": 2}))]
        );
    }

    #[test]
    fn empty_and_blank_inputs_hold_no_items() {
        assert!(read(b"").is_empty());
        assert!(read(b"\n\n  \r\n\t").is_empty());
        assert!(read(b"\xEF\xBB\xBF\n").is_empty());
    }

    #[test]
    fn byte_order_mark_is_skipped() {
        assert_eq!(
            read(b"\xEF\xBB\xBF{\"a\":1}\n"),
            vec![value(1, json!({"a": 1}))]
        );
    }

    #[test]
    fn non_objects_are_ordinary_items() {
        let items = read(b"42\n\"text\"\nnull\n[1,2]\n");
        assert_eq!(
            items,
            vec![
                value(1, json!(42)),
                value(2, json!("text")),
                value(3, json!(null)),
                value(4, json!([1, 2]))
            ]
        );
    }

    #[test]
    fn invalid_utf8_names_the_byte_offset_and_reading_goes_on() {
        let items = read(b"{\"a\":1}\n{\"s\":\"ab\xFFc\"}\n{\"b\":2}\n");
        assert_eq!(items.len(), 3);
        // `{"s":"ab` is 8 bytes: the bad byte is at offset 8.
        assert_eq!(bad(&items[1]), (2, "invalid UTF-8 at byte offset 8"));
        assert_eq!(items[2], value(3, json!({"b": 2})));
    }

    #[test]
    fn syntax_error_names_the_column() {
        let items = read(b"{\"a\" 1}\n{}\n");
        let (line, reason) = bad(&items[0]);
        assert_eq!(line, 1);
        assert!(
            reason.starts_with("JSON syntax error: expected `:`"),
            "{reason}"
        );
        assert!(reason.ends_with("at column 6"), "{reason}");
        assert_eq!(items[1], value(2, json!({})));
    }

    #[test]
    fn columns_count_leading_whitespace_of_the_first_line() {
        let items = read(b"\n  {\"a\" 1}\n");
        let (line, reason) = bad(&items[0]);
        assert_eq!(line, 2);
        assert!(reason.ends_with("at column 8"), "{reason}");
    }

    #[test]
    fn plain_text_is_a_syntax_error() {
        let items = read(b"hello world\n");
        let (line, reason) = bad(&items[0]);
        assert_eq!(line, 1);
        assert!(
            reason.starts_with("JSON syntax error: expected value"),
            "{reason}"
        );
    }

    #[test]
    fn trailing_data_after_the_value() {
        let items = read(b"{\"a\":1} {\"b\":2}\n");
        assert_eq!(
            bad(&items[0]),
            (1, "trailing data after the JSON value at column 9")
        );
    }

    #[test]
    fn truncated_last_line() {
        let items = read(b"{\"a\":1}\n{\"type\":\"RUN_ST");
        assert_eq!(items.len(), 2);
        assert_eq!(
            bad(&items[1]),
            (2, "truncated last line: the input ends inside a JSON value")
        );
    }

    #[test]
    fn a_line_ending_inside_a_value() {
        let items = read(b"{\"a\":\n1}\n");
        assert_eq!(bad(&items[0]), (1, "the line ends inside a JSON value"));
        assert_eq!(
            bad(&items[1]),
            (2, "trailing data after the JSON value at column 2")
        );
    }

    #[test]
    fn deep_nesting_is_reported_without_overflow() {
        let mut input = Vec::new();
        input.extend(std::iter::repeat_n(b'[', 10_000));
        input.extend(std::iter::repeat_n(b']', 10_000));
        input.extend(b"\n{\"a\":1}\n");
        let items = read(&input);
        assert_eq!(bad(&items[0]), (1, "nesting deeper than 127 levels"));
        assert_eq!(items[1], value(2, json!({"a": 1})));
    }

    #[test]
    fn nesting_at_the_limit_is_fine() {
        let nested = |depth: usize| "[".repeat(depth) + &"]".repeat(depth);
        let lines = format!(
            "{{}}\n{}\n{}\n",
            nested(MAX_NESTING),
            nested(MAX_NESTING + 1)
        );
        let items = read(lines.as_bytes());
        assert!(
            matches!(items[1], Item::Value { line: 2, .. }),
            "{:?}",
            items[1]
        );
        assert_eq!(bad(&items[2]), (3, "nesting deeper than 127 levels"));
        // In an array file the array itself is the first level.
        let array = format!("[{}]", nested(MAX_NESTING - 1));
        assert!(matches!(
            read(array.as_bytes())[..],
            [Item::Value { line: 1, .. }]
        ));
    }

    #[test]
    fn a_line_over_the_limit_is_skipped_and_reading_goes_on() {
        let opts = ReadOptions { max_line_bytes: 16 };
        let input = b"{\"a\":\"0123456789abcdef\"}\n{\"b\":2}\n{\"c\":\"0123456\"}\n";
        let items = read_with(input, &opts);
        assert_eq!(
            bad(&items[0]),
            (
                1,
                "line of 24 bytes is longer than the limit of 16 bytes; skipped"
            )
        );
        assert_eq!(items[1], value(2, json!({"b": 2})));
        // Exactly 16 bytes is within the limit.
        assert_eq!(items[2], value(3, json!({"c": "0123456"})));
    }

    #[test]
    fn a_last_line_over_the_limit_without_newline() {
        let opts = ReadOptions { max_line_bytes: 4 };
        let items = read_with(b"{}\n\"abcdef\"", &opts);
        assert_eq!(items.len(), 2);
        assert_eq!(
            bad(&items[1]),
            (
                2,
                "line of 8 bytes is longer than the limit of 4 bytes; skipped"
            )
        );
    }

    /// A reader that makes up `{"x":"aaa…a"}\n{"b":2}\n` with `len` bytes of
    /// `a`, without holding them.
    struct LongLine {
        prefix: &'static [u8],
        filler: usize,
        suffix: &'static [u8],
        at: usize,
    }

    impl Read for LongLine {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let total = self.prefix.len() + self.filler + self.suffix.len();
            let mut n = 0;
            while n < buf.len() && self.at < total {
                let at = self.at;
                if at < self.prefix.len() {
                    buf[n] = self.prefix[at];
                    n += 1;
                    self.at += 1;
                } else if at < self.prefix.len() + self.filler {
                    let run = (self.prefix.len() + self.filler - at).min(buf.len() - n);
                    buf[n..n + run].fill(b'a');
                    n += run;
                    self.at += run;
                } else {
                    buf[n] = self.suffix[at - self.prefix.len() - self.filler];
                    n += 1;
                    self.at += 1;
                }
            }
            Ok(n)
        }
    }

    #[test]
    fn a_100_mb_line_is_skipped_in_chunks() {
        let filler = 100 * 1000 * 1000;
        let reader = LongLine {
            prefix: b"{\"x\":\"",
            filler,
            suffix: b"\"}\n{\"b\":2}\n",
            at: 0,
        };
        let items = read_from(
            io::BufReader::with_capacity(1 << 16, reader),
            &ReadOptions::default(),
        );
        assert_eq!(items.len(), 2);
        let expected = format!(
            "line of {} bytes is longer than the limit of 64 MiB; skipped",
            filler + 8
        );
        assert_eq!(bad(&items[0]), (1, expected.as_str()));
        assert_eq!(items[1], value(2, json!({"b": 2})));
    }

    #[test]
    fn a_long_line_within_a_raised_limit_is_read() {
        let filler = 3 * 1000 * 1000;
        let reader = LongLine {
            prefix: b"{\"x\":\"",
            filler,
            suffix: b"\"}\n",
            at: 0,
        };
        let opts = ReadOptions {
            max_line_bytes: 4 * 1000 * 1000,
        };
        let items = read_from(io::BufReader::new(reader), &opts);
        let Item::Value { value, .. } = &items[0] else {
            panic!("{items:?}")
        };
        assert_eq!(value["x"].as_str().map(str::len), Some(filler));
    }

    #[test]
    fn break_stops_reading() {
        let mut seen = 0;
        let n = read_stream(&b"{}\n{}\n{}\n"[..], &ReadOptions::default(), |_| {
            seen += 1;
            ControlFlow::Break(())
        })
        .unwrap();
        assert_eq!((n, seen), (1, 1));
    }

    /// Yields `head`, then fails: shows an item was handed over before the
    /// rest of the input was read.
    struct FailsAfter(Cursor<Vec<u8>>);

    impl Read for FailsAfter {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match self.0.read(buf)? {
                0 => Err(io::Error::other("the rest of the input is not there yet")),
                n => Ok(n),
            }
        }
    }

    impl BufRead for FailsAfter {
        fn fill_buf(&mut self) -> io::Result<&[u8]> {
            if self.0.position() as usize >= self.0.get_ref().len() {
                return Err(io::Error::other("the rest of the input is not there yet"));
            }
            self.0.fill_buf()
        }
        fn consume(&mut self, n: usize) {
            self.0.consume(n)
        }
    }

    #[test]
    fn items_are_handed_over_before_the_input_ends() {
        for head in [&b"{\"a\":1}\n{\"b\""[..], &b"[{\"a\":1},\n{\"b\""[..]] {
            let mut items = Vec::new();
            let result = read_stream(
                FailsAfter(Cursor::new(head.to_vec())),
                &ReadOptions::default(),
                |item| {
                    items.push(item);
                    ControlFlow::Continue(())
                },
            );
            assert!(result.is_err(), "the I/O error is returned");
            assert_eq!(items, vec![value(1, json!({"a": 1}))]);
        }
    }

    #[test]
    fn array_elements_are_items() {
        let input = b"[\n  {\"a\":1},\n  42,\n  {\"b\":[2]}\n]\n";
        let items = read(input);
        assert_eq!(
            items,
            vec![
                value(2, json!({"a": 1})),
                value(3, json!(42)),
                value(4, json!({"b": [2]}))
            ]
        );
    }

    #[test]
    fn array_and_json_lines_give_the_same_values() {
        let lines =
            b"{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n{\"foo\":1}\n[]\n";
        let array =
            b"  [{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}, {\"foo\":1}, []]";
        let values = |items: Vec<Item>| -> Vec<Value> {
            items
                .into_iter()
                .map(|i| match i {
                    Item::Value { value, .. } => value,
                    other => panic!("{other:?}"),
                })
                .collect()
        };
        assert_eq!(values(read(lines)), values(read(array)));
    }

    #[test]
    fn one_line_array_at_end_of_input_is_an_array_file() {
        assert_eq!(
            read(b"[{\"a\":1},{\"b\":2}]\n\n"),
            vec![value(1, json!({"a": 1})), value(1, json!({"b": 2}))]
        );
        assert!(read(b"[]").is_empty());
        assert!(read(b" [ ] \n").is_empty());
    }

    #[test]
    fn first_line_array_followed_by_lines_is_json_lines() {
        let items = read(b"[{\"a\":1}]\n{\"b\":2}\n\n  {\"c\" 3}\n");
        assert_eq!(items[0], value(1, json!([{"a": 1}])));
        assert_eq!(items[1], value(2, json!({"b": 2})));
        let (line, reason) = bad(&items[2]);
        assert_eq!(line, 4);
        assert!(reason.ends_with("at column 8"), "{reason}");
    }

    #[test]
    fn syntax_error_mid_array_ends_reading_with_its_position() {
        let items = read(b"[\n{\"a\":1},\n{\"b\" 2},\n{\"c\":3}\n]\n");
        assert_eq!(items.len(), 2);
        assert_eq!(items[0], value(2, json!({"a": 1})));
        let (line, reason) = bad(&items[1]);
        assert_eq!(line, 3);
        assert!(
            reason.starts_with("JSON syntax error in the JSON array: expected `:`"),
            "{reason}"
        );
        assert!(reason.ends_with("at column 6"), "{reason}");
    }

    #[test]
    fn truncated_array() {
        let items = read(b"[{\"a\":1},\n{\"b\":");
        assert_eq!(items.len(), 2);
        assert_eq!(
            bad(&items[1]),
            (2, "truncated input: it ends inside the JSON array")
        );
    }

    #[test]
    fn data_after_the_array() {
        let items = read(b"[{\"a\":1}\n]\nxyz\n");
        assert_eq!(items.len(), 2);
        assert_eq!(
            bad(&items[1]),
            (3, "trailing data after the JSON array at column 1")
        );
    }

    #[test]
    fn deep_nesting_in_an_array() {
        let mut input = b"[{\"a\":1},".to_vec();
        input.extend(std::iter::repeat_n(b'[', 10_000));
        let items = read(&input);
        assert_eq!(items.len(), 2);
        assert_eq!(
            bad(&items[1]),
            (1, "nesting deeper than 127 levels in the JSON array")
        );
    }

    #[test]
    fn an_array_element_over_the_limit_ends_reading() {
        let opts = ReadOptions { max_line_bytes: 32 };
        let input = b"[\n{\"a\":1},\n{\"long\":\"0123456789012345678901234567890123456789\"},\n{\"b\":2}\n]\n";
        let items = read_with(input, &opts);
        assert_eq!(items.len(), 2, "{items:?}");
        assert_eq!(items[0], value(2, json!({"a": 1})));
        let (line, reason) = bad(&items[1]);
        assert_eq!(line, 3);
        assert_eq!(
            reason,
            "an array element is longer than the limit of 32 bytes; reading stops"
        );
        // Elements within the limit are read whatever the array's length.
        let many = format!("[{}]", vec!["{\"a\":1}"; 100].join(",\n"));
        assert_eq!(read_with(many.as_bytes(), &opts).len(), 100);
    }

    #[test]
    fn invalid_utf8_in_an_array_is_a_syntax_error_with_its_position() {
        let items = read(b"[{\"a\":1},\n{\"s\":\"\xFF\"}]");
        assert_eq!(items.len(), 2);
        let (line, reason) = bad(&items[1]);
        assert_eq!(line, 2);
        assert!(
            reason.starts_with("JSON syntax error in the JSON array"),
            "{reason}"
        );
    }

    #[test]
    fn break_stops_an_array() {
        let mut seen = 0;
        let n = read_stream(&b"[1,2,3]"[..], &ReadOptions::default(), |_| {
            seen += 1;
            if seen == 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .unwrap();
        assert_eq!((n, seen), (2, 2));
    }

    /// A small deterministic generator (xorshift), so the test needs no crate.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    #[test]
    fn random_json_like_bytes_never_panic_and_every_non_blank_line_is_one_item() {
        const ALPHABET: &[u8] = b"{}[]\":,\n\n\r \t0123456789aeflnrstu-.\\\xFF\xC3\xA9";
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let opts = ReadOptions { max_line_bytes: 24 };
        for _ in 0..3000 {
            let len = (rng.next() % 80) as usize;
            let mut input: Vec<u8> = (0..len)
                .map(|_| ALPHABET[(rng.next() % ALPHABET.len() as u64) as usize])
                .collect();
            if input.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
                input.insert(0, b'0'); // keep to JSON Lines: arrays have their own tests
            }
            let items = read_with(&input, &opts);
            let lines: Vec<usize> = input
                .split(|&b| b == b'\n')
                .enumerate()
                .filter(|(_, l)| !l.iter().all(u8::is_ascii_whitespace))
                .map(|(i, _)| i + 1)
                .collect();
            let got: Vec<usize> = items.iter().map(Item::line).collect();
            assert_eq!(got, lines, "input {:?}", String::from_utf8_lossy(&input));
        }
    }

    #[test]
    fn random_arrays_read_like_their_json_lines() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        for _ in 0..300 {
            let values: Vec<Value> = (0..rng.next() % 6)
                .map(|_| match rng.next() % 4 {
                    0 => json!({"type": "RUN_STARTED", "n": rng.next() % 100}),
                    1 => json!([rng.next() % 10, {"a": null}]),
                    2 => json!("text\nwith a newline"),
                    _ => json!({"nested": {"deep": [1, 2, {"x": true}]}}),
                })
                .collect();
            let texts: Vec<String> = values.iter().map(Value::to_string).collect();
            let lines = texts.join("\n") + "\n";
            let array = format!("[{}]", texts.join(",\n"));
            let strip = |items: Vec<Item>| -> Vec<Value> {
                items
                    .into_iter()
                    .map(|i| match i {
                        Item::Value { value, .. } => value,
                        other => panic!("{other:?}"),
                    })
                    .collect()
            };
            assert_eq!(strip(read(array.as_bytes())), values);
            if values.first().is_some_and(Value::is_object) {
                assert_eq!(strip(read(lines.as_bytes())), values);
            }
        }
    }

    #[test]
    fn human_byte_sizes() {
        assert_eq!(human_bytes(DEFAULT_MAX_LINE_BYTES), "64 MiB");
        assert_eq!(human_bytes(2048), "2 KiB");
        assert_eq!(human_bytes(1000), "1000 bytes");
    }
}
