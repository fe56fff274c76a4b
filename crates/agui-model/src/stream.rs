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
//! **JSON Lines**. A leading UTF-8 byte order mark is skipped. Input
//! stated to be JSON Lines ([`Framing::Lines`]: `--input-format jsonl`, a
//! corpus case's events) is never told apart: it is JSON Lines.
//!
//! # What is JSON
//! Exactly the RFC 8259 grammar ([`crate::json`]): lone surrogate escapes,
//! numbers outside a double's range and nesting of any depth are JSON. Two
//! checker limits are not grammar: a line longer than
//! [`ReadOptions::max_line_bytes`] and nesting deeper than
//! [`ReadOptions::max_depth`] become [`Item::OverLimit`] (a limit notice,
//! never `schema.not-json`).
//!
//! # JSON Lines
//! Each non-blank line is one item; lines holding only whitespace are
//! skipped and are not items; `\r\n` endings are accepted. A valid JSON value
//! that is not an object is an ordinary [`Item::Value`] (the checker reports
//! it). A line becomes [`Item::Unparseable`] when it holds invalid UTF-8, a
//! JSON syntax error or data after its value, or when the line or the input
//! ends inside its value. A line longer than the limit is skipped in chunks,
//! never buffered.
//!
//! # JSON array
//! Elements are cut out of the input one at a time (a byte scanner that
//! tracks strings and brackets) and parsed one by one; the array is never
//! built. A syntax error inside an element costs that element only (one
//! unparseable item naming its line and column); reading goes on with the
//! next element, as JSON Lines goes on with the next line. An element that
//! never ends (an unbalanced bracket or quote) is one unparseable item up
//! to the next `{` past its syntax error, where reading starts again (none:
//! the item says the array is not read further). Truncation ends reading with one unparseable item; data
//! after the closing `]` is one unparseable item too. An element longer than
//! [`ReadOptions::max_line_bytes`] is skipped (a limit notice) and reading
//! goes on with the next element.

use crate::json::{self, Note, ParseError, ParseOptions};
use crate::limits::LimitKind;
use serde_json::Value;
use std::cell::Cell;
use std::io::{self, BufRead, Cursor, Read};
use std::ops::ControlFlow;

/// The default longest line: 64 MiB.
pub const DEFAULT_MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// The default deepest nesting of one item: [`json::DEFAULT_MAX_DEPTH`].
pub const DEFAULT_MAX_DEPTH: usize = json::DEFAULT_MAX_DEPTH;

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
    /// `notes`: duplicate keys and lone surrogates met while parsing.
    Value {
        line: usize,
        value: Value,
        notes: Vec<Note>,
    },
    /// Something that is not JSON at all; `reason` says what and where
    /// within the line (it does not repeat the line number).
    Unparseable { line: usize, reason: String },
    /// An item the reader skipped at one of its limits (a line too long,
    /// nesting too deep): not the producer's fault, and not judged.
    OverLimit {
        line: usize,
        kind: LimitKind,
        limit: usize,
        reason: String,
    },
}

impl Item {
    /// The 1-based line number of the item.
    pub fn line(&self) -> usize {
        match self {
            Item::Value { line, .. }
            | Item::Unparseable { line, .. }
            | Item::OverLimit { line, .. } => *line,
        }
    }
}

/// How to read a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    /// Longest JSON Lines line (or array element) in bytes, without its
    /// line ending; a longer one is skipped ([`Item::OverLimit`]).
    pub max_line_bytes: usize,
    /// Deepest nesting of one item; a deeper one is skipped
    /// ([`Item::OverLimit`]).
    pub max_depth: usize,
    /// Most one item may hold in memory once parsed
    /// ([`crate::patch::mem_size`]); a line that would hold more is skipped
    /// at the `line-bytes` limit ([`value_bytes`]).
    pub max_value_bytes: usize,
    /// How items are framed: told apart from the input, or stated.
    pub framing: Framing,
}

/// How the reader frames items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Framing {
    /// JSON Lines, or one JSON array, told apart from the first line (see
    /// the module doc).
    #[default]
    Detect,
    /// JSON Lines, stated (`--input-format jsonl`, a case's stream): a
    /// first line that is an array is one item, never the whole input.
    Lines,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            max_depth: DEFAULT_MAX_DEPTH,
            max_value_bytes: value_bytes(DEFAULT_MAX_LINE_BYTES),
            framing: Framing::Detect,
        }
    }
}

/// What one parsed line may hold in memory under a line limit of
/// `line_bytes`: four times the line, and at least 64 MiB (an ordinary
/// event of a few small members holds twenty times its text).
pub fn value_bytes(line_bytes: usize) -> usize {
    line_bytes.saturating_mul(4).max(64 << 20)
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
    read_stream_with(r, opts, |_, _| false, on_item)
}

/// Where a non-blank JSON Lines line offered to `take` stands (see
/// [`read_stream_with`]): what its item needs ([`line_item_at`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineAt {
    /// The 1-based line number.
    pub line: usize,
    /// Bytes of the line consumed before it (leading whitespace of the
    /// first line), so columns stay true.
    pub col: usize,
    /// False for a last line with no newline.
    pub terminated: bool,
}

/// The item the reader makes of a non-blank line it offered to `take`
/// (where [`LineAt`] says it was), had `take` not handled it: a line
/// handed elsewhere raw gets exactly the reader's item.
pub fn line_item_at(text: &[u8], at: LineAt, opts: &ReadOptions) -> Item {
    item_of(parse_line(text, at.terminated, at.col, opts), at.line)
}

/// [`read_stream`], but each non-blank JSON Lines line is first offered
/// raw (without its line ending, not yet parsed) to `take`, with where it
/// stands; a line `take` handles (it returns `true`) is counted but not
/// parsed nor handed to `on_item`. This is how the checker's borrowed fast
/// path reads lines.
pub fn read_stream_with<R: BufRead>(
    mut r: R,
    opts: &ReadOptions,
    mut take: impl FnMut(&[u8], LineAt) -> bool,
    mut on_item: impl FnMut(Item) -> ControlFlow<()>,
) -> io::Result<usize> {
    let taken = Cell::new(0usize);
    let mut take = |line: &[u8], at: LineAt| {
        let t = take(line, at);
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
        Some(b'[') if opts.framing == Framing::Detect => {
            read_array_or_lines(&mut r, opts, pos, &mut take, &mut emit)?
        }
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

/// Skips the rest of the current line chunk by chunk; whether a newline
/// (rather than the end of input) ended it.
fn skip_line<R: BufRead>(r: &mut R) -> io::Result<bool> {
    loop {
        let avail = fill(r)?;
        if avail.is_empty() {
            return Ok(false);
        }
        if let Some(i) = memchr::memchr(b'\n', avail) {
            r.consume(i + 1);
            return Ok(true);
        }
        let n = avail.len();
        r.consume(n);
    }
}

/// Reads JSON Lines from the current position (the start of a line, or
/// inside the first line after `pos.col` bytes of whitespace).
///
/// Line length is counted without the line ending (`\n` or `\r\n`): a
/// line of `max_line_bytes` is read, one byte more is skipped, whether or
/// not it ends the input, and the skip is reported as soon as that byte is
/// read (a line that never ends is reported all the same).
fn read_lines<R: BufRead>(
    r: &mut R,
    opts: &ReadOptions,
    mut pos: Pos,
    take: &mut impl FnMut(&[u8], LineAt) -> bool,
    emit: &mut impl FnMut(Item) -> ControlFlow<()>,
) -> io::Result<()> {
    let max = opts.max_line_bytes;
    // One byte past the limit, which may be the `\r` of a `\r\n`.
    let cap = max.saturating_add(1);
    let mut buf = Vec::new();
    loop {
        let line = pos.line;
        let next = Pos {
            line: line + 1,
            col: 0,
        };
        // The common case: the whole line is in the reader's buffer, and is
        // handed out in place instead of copied.
        let avail = fill(r)?;
        if let Some(n) = memchr::memchr(b'\n', avail).filter(|&n| n <= cap) {
            let text = avail[..n].strip_suffix(b"\r").unwrap_or(&avail[..n]);
            let item = if text.len() > max {
                Some(too_long(line, max))
            } else {
                line_item(text, true, line, pos.col, opts, take)
            };
            r.consume(n + 1);
            if item.map(&mut *emit).is_some_and(|flow| flow.is_break()) {
                return Ok(());
            }
            pos = next;
            continue;
        }
        buf.clear();
        let mut end = fill_line(r, &mut buf, cap)?;
        if end == LineEnd::Full && buf.last() == Some(&b'\r') {
            // A line of exactly the limit, if a `\n` (or the end of
            // input) follows its `\r`.
            match fill(r)?.first() {
                Some(b'\n') => {
                    r.consume(1);
                    end = LineEnd::Newline;
                }
                None => end = LineEnd::Eof,
                Some(_) => {}
            }
        }
        if end == LineEnd::Eof && buf.is_empty() {
            return Ok(());
        }
        let text = buf.strip_suffix(b"\r").unwrap_or(&buf);
        if end == LineEnd::Full || text.len() > max {
            // Reported now, before the rest of the line is read.
            if emit(too_long(line, max)).is_break() {
                return Ok(());
            }
            buf = Vec::new();
            let newline = end == LineEnd::Newline || (end == LineEnd::Full && skip_line(r)?);
            if !newline {
                return Ok(());
            }
            pos = next;
            continue;
        }
        let item = line_item(text, end == LineEnd::Newline, line, pos.col, opts, take);
        if item.map(&mut *emit).is_some_and(|flow| flow.is_break()) {
            return Ok(());
        }
        if end == LineEnd::Eof {
            return Ok(());
        }
        if buf.capacity() > KEEP_BUFFER_BYTES {
            buf = Vec::new();
        }
        pos = next;
    }
}

/// The item of a line longer than the limit, skipped.
fn too_long(line: usize, max: usize) -> Item {
    Item::OverLimit {
        line,
        kind: LimitKind::LineBytes,
        limit: max,
        reason: format!(
            "line longer than the limit of {} (line ending not counted); skipped",
            human_bytes(max)
        ),
    }
}

/// The item of one line (without its line ending): none for a blank line
/// or one `take` handled.
fn line_item(
    text: &[u8],
    terminated: bool,
    line: usize,
    col: usize,
    opts: &ReadOptions,
    take: &mut impl FnMut(&[u8], LineAt) -> bool,
) -> Option<Item> {
    let at = LineAt {
        line,
        col,
        terminated,
    };
    if text.iter().all(u8::is_ascii_whitespace) || take(text, at) {
        return None;
    }
    Some(line_item_at(text, at, opts))
}

/// The item a parse gives.
fn item_of(parsed: Result<json::Parsed, Unparsed>, line: usize) -> Item {
    match parsed {
        Ok(p) => Item::Value {
            line,
            value: p.value,
            notes: p.notes,
        },
        Err(Unparsed::NotJson(reason)) => Item::Unparseable { line, reason },
        Err(Unparsed::TooDeep { limit, reason }) => Item::OverLimit {
            line,
            kind: LimitKind::Nesting,
            limit,
            reason,
        },
        Err(Unparsed::TooBig { limit, reason }) => Item::OverLimit {
            line,
            kind: LimitKind::LineBytes,
            limit,
            reason,
        },
    }
}

/// Why a text gave no value.
#[derive(Debug, Clone, PartialEq)]
enum Unparsed {
    NotJson(String),
    TooDeep {
        limit: usize,
        reason: String,
    },
    /// Its parsed form would hold more than the reader's budget: skipped
    /// at the line limit (`limit` is the line limit in force).
    TooBig {
        limit: usize,
        reason: String,
    },
}

/// The reason for a line whose value goes on past its end.
const LINE_ENDS_INSIDE: &str = "the line ends inside a JSON value";

/// Parses one JSON Lines line. `terminated` is false for a last line with
/// no newline; `col` is the number of bytes of the line already consumed.
fn parse_line(
    bytes: &[u8],
    terminated: bool,
    col: usize,
    opts: &ReadOptions,
) -> Result<json::Parsed, Unparsed> {
    let text = simdutf8::compat::from_utf8(bytes).map_err(|e| {
        Unparsed::NotJson(format!(
            "invalid UTF-8 at byte offset {}",
            col + e.valid_up_to()
        ))
    })?;
    let popts = ParseOptions {
        max_depth: opts.max_depth,
    };
    json::parse_within(text, &popts, opts.max_value_bytes).map_err(|e| match e {
        ParseError::Eof if terminated => Unparsed::NotJson(LINE_ENDS_INSIDE.to_string()),
        ParseError::Eof => {
            Unparsed::NotJson("truncated last line: the input ends inside a JSON value".to_string())
        }
        ParseError::Syntax { offset, what } => Unparsed::NotJson(format!(
            "JSON syntax error: {what} at column {}",
            col + offset + 1
        )),
        ParseError::Trailing { offset } => Unparsed::NotJson(format!(
            "trailing data after the JSON value at column {}",
            col + offset + 1
        )),
        ParseError::TooDeep { limit, offset } => Unparsed::TooDeep {
            limit,
            reason: format!(
                "nesting deeper than the limit of {limit} levels at column {}; skipped",
                col + offset + 1
            ),
        },
        ParseError::TooBig { limit, offset } => Unparsed::TooBig {
            limit: opts.max_line_bytes,
            reason: too_big(limit, col + offset + 1),
        },
    })
}

/// The reason of a line whose parsed form would pass its budget.
fn too_big(limit: usize, col: usize) -> String {
    format!(
        "parsed, the line would hold more than {} in memory (passed at column {col}); skipped",
        human_bytes(limit)
    )
}

/// Decides between a JSON array file and JSON Lines whose first line is an
/// array (see the module doc), then reads accordingly. The reader stands on
/// the `[`.
fn read_array_or_lines<R: BufRead>(
    r: &mut R,
    opts: &ReadOptions,
    pos: Pos,
    take: &mut impl FnMut(&[u8], LineAt) -> bool,
    emit: &mut impl FnMut(Item) -> ControlFlow<()>,
) -> io::Result<()> {
    let mut first = Vec::new();
    let cap = ARRAY_PEEK_BYTES.min(opts.max_line_bytes);
    match fill_line(r, &mut first, cap)? {
        LineEnd::Newline => {
            let text = first.strip_suffix(b"\r").unwrap_or(&first);
            let parsed = parse_line(text, true, pos.col, opts);
            // Only a value that goes on past the line's end makes this an
            // array file; a complete or broken line is a JSON Lines item
            // when more lines follow.
            let continues = match &parsed {
                Err(Unparsed::NotJson(reason)) => reason == LINE_ENDS_INSIDE,
                // Not parsed to its end: whether it does is in its brackets.
                Err(Unparsed::TooBig { .. }) => {
                    let mut scan = Scan::default();
                    text.iter().for_each(|&c| {
                        scan.ends_element(c);
                    });
                    scan.depth > 0 || scan.in_string
                }
                _ => false,
            };
            if !continues {
                let mut rest = Pos {
                    line: pos.line + 1,
                    col: 0,
                };
                if skip_blank(r, &mut rest)?.is_some() {
                    if emit(item_of(parsed, pos.line)).is_break() {
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

/// Where the array scanner stands inside the current element.
#[derive(Debug, Clone, Copy, Default)]
struct Scan {
    depth: usize,
    in_string: bool,
    escaped: bool,
}

impl Scan {
    /// Feeds one byte of an element; true when, outside any string and
    /// bracket, it ends the element (`,` or `]`, not consumed into it).
    #[inline]
    fn ends_element(&mut self, c: u8) -> bool {
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if c == b'\\' {
                self.escaped = true;
            } else if c == b'"' {
                self.in_string = false;
            }
            return false;
        }
        match c {
            b'"' => self.in_string = true,
            b'[' | b'{' => self.depth += 1,
            b']' | b'}' if self.depth > 0 => self.depth -= 1,
            b',' | b']' if self.depth == 0 => return true,
            _ => {}
        }
        false
    }
}

/// Reads one JSON array of events, element by element. `rd` starts at the
/// `[`, which stands at `pos`.
///
/// A syntax error inside an element that the scanner could cut out (its
/// brackets and strings balance) costs that element only: it is one
/// unparseable item and reading goes on with the next element. An element
/// that never ends (an unbalanced bracket or quote swallows the rest of the
/// input) is parsed as far as it goes: from it to the next `{` past the
/// syntax error found in it is one unparseable item, and reading starts
/// again at that `{` (events are objects), so the events after it are
/// still read; with no `{` left, the item says the array is not read
/// further.
fn read_array<Rd: Read>(
    rd: Rd,
    opts: &ReadOptions,
    pos: Pos,
    emit: &mut impl FnMut(Item) -> ControlFlow<()>,
) -> io::Result<()> {
    let mut r = io::BufReader::with_capacity(1 << 16, rd);
    let mut next = read_elements(&mut r, opts, pos, true, emit)?;
    // Each restart reads a strictly shorter rest of the input.
    while let Some((rest, at)) = next {
        next = read_elements(&mut Cursor::new(rest), opts, at, false, emit)?;
    }
    Ok(())
}

/// Reads array elements from `r` (on the `[` when `open`, else just
/// inside the array) to the closing `]`; returns the rest of the input
/// and where it starts when reading must start again after an element
/// that never ended (see [`read_array`]).
fn read_elements<R: BufRead>(
    r: &mut R,
    opts: &ReadOptions,
    pos: Pos,
    open: bool,
    emit: &mut impl FnMut(Item) -> ControlFlow<()>,
) -> io::Result<Option<(Vec<u8>, Pos)>> {
    let mut line = pos.line;
    let mut col = pos.col;
    if open {
        // Consume the `[`.
        match fill(r)?.first() {
            Some(b'[') => {
                r.consume(1);
                col += 1;
            }
            _ => return Ok(None),
        }
    }
    let mut elem: Vec<u8> = Vec::new();
    // Where the element's text starts, and the line of its last byte
    // that is not whitespace (the element's line).
    let mut start = Pos { line, col };
    let mut last_line = line;
    let mut over = false;
    // The element's length as the limit counts it: from its first byte
    // that is not whitespace to its last one so far (`span`), and the
    // bytes since its first (`seen`, trailing whitespace included).
    let (mut span, mut seen) = (0usize, 0usize);
    let mut scan = Scan::default();
    let mut first = open;
    loop {
        let avail = fill(r)?;
        if avail.is_empty() {
            if !over && let Some((offset, reason)) = broken_at(&elem, opts) {
                let (at, c) = locate(&elem, start, offset);
                // Events are objects: reading starts again at the next
                // `{` past the error (past at least one byte, so each
                // restart is shorter).
                let past = offset.max(1).min(elem.len());
                let from = memchr::memchr(b'{', &elem[past..]).map(|i| past + i);
                let then = match from {
                    Some(from) => {
                        let (l, c) = locate(&elem, start, from);
                        format!("reading goes on at line {l}, column {c}")
                    }
                    None => "no event follows it: the array is not read further".to_string(),
                };
                let _ = emit(Item::Unparseable {
                    line: at,
                    reason: format!(
                        "JSON syntax error in the JSON array: {reason} at column {c}; \
                         the element never ends, {then}"
                    ),
                });
                let Some(from) = from else {
                    return Ok(None);
                };
                let (line, c) = locate(&elem, start, from);
                elem.drain(..from);
                return Ok(Some((elem, Pos { line, col: c - 1 })));
            }
            let _ = emit(Item::Unparseable {
                line,
                reason: "truncated input: it ends inside the JSON array".to_string(),
            });
            return Ok(None);
        }
        let mut used = 0;
        let mut ended = None;
        let mut stop = false;
        for &c in avail {
            used += 1;
            if c == b'\n' {
                line += 1;
                col = 0;
            } else {
                col += 1;
            }
            if scan.ends_element(c) {
                ended = Some(c);
                break;
            }
            if !c.is_ascii_whitespace() {
                last_line = line;
            }
            if seen > 0 || !c.is_ascii_whitespace() {
                seen += 1;
                if !c.is_ascii_whitespace() {
                    span = seen;
                }
            }
            if over {
                continue;
            }
            if span > opts.max_line_bytes {
                // Reported now, before the rest of the element is read.
                over = true;
                elem = Vec::new();
                if emit(too_long_element(line, opts.max_line_bytes)).is_break() {
                    stop = true;
                    break;
                }
            } else {
                elem.push(c);
            }
        }
        r.consume(used);
        if stop {
            return Ok(None);
        }
        let Some(end) = ended else { continue };
        let blank = elem.iter().all(u8::is_ascii_whitespace);
        // An element over the limit was reported when it passed it; `[]`
        // holds none.
        let item = if over || (blank && end == b']' && first) {
            None
        } else if blank {
            Some(Item::Unparseable {
                line,
                reason: format!(
                    "JSON syntax error in the JSON array: expected a value at column {col}"
                ),
            })
        } else {
            Some(match parse_element(&elem, start, opts) {
                Err((at, reason)) => Item::Unparseable { line: at, reason },
                Ok(parsed) => item_of(parsed, last_line),
            })
        };
        if let Some(item) = item
            && emit(item).is_break()
        {
            return Ok(None);
        }
        first = false;
        elem.clear();
        if elem.capacity() > KEEP_BUFFER_BYTES {
            elem = Vec::new();
        }
        (span, seen) = (0, 0);
        over = false;
        scan = Scan::default();
        start = Pos { line, col };
        if end == b']' {
            break;
        }
    }
    // Only whitespace may follow the array.
    let mut after = Pos { line, col };
    if skip_blank(r, &mut after)?.is_some() {
        let _ = emit(Item::Unparseable {
            line: after.line,
            reason: format!(
                "trailing data after the JSON array at column {}",
                after.col + 1
            ),
        });
    }
    Ok(None)
}

/// Where an element the input ended inside breaks the grammar before its
/// end (its byte offset and what was expected); `None` when it is only
/// cut short (truncation).
fn broken_at(elem: &[u8], opts: &ReadOptions) -> Option<(usize, String)> {
    let text = match simdutf8::compat::from_utf8(elem) {
        Ok(text) => text,
        Err(e) => return Some((e.valid_up_to(), "invalid UTF-8".to_string())),
    };
    let popts = ParseOptions {
        max_depth: opts.max_depth,
    };
    match json::parse_within(text, &popts, opts.max_value_bytes) {
        Err(ParseError::Syntax { offset, what }) => Some((offset, what)),
        Err(ParseError::Trailing { offset }) => Some((offset, "expected `,` or `]`".to_string())),
        _ => None,
    }
}

/// Line and column (1-based) of a byte offset of an element whose text
/// starts at `start`.
fn locate(elem: &[u8], start: Pos, offset: usize) -> (usize, usize) {
    let before = &elem[..offset.min(elem.len())];
    match memchr::memrchr(b'\n', before) {
        None => (start.line, start.col + offset + 1),
        Some(nl) => (
            start.line + memchr::memchr_iter(b'\n', before).count(),
            offset - nl,
        ),
    }
}

/// Parses one array element whose text starts at `start` (cut out by the
/// scanner at a `,` or `]`); an error that is not JSON comes with its line
/// and a reason naming its column.
fn parse_element(
    elem: &[u8],
    start: Pos,
    opts: &ReadOptions,
) -> Result<Result<json::Parsed, Unparsed>, (usize, String)> {
    let locate = |offset: usize| locate(elem, start, offset);
    let text = match simdutf8::compat::from_utf8(elem) {
        Ok(text) => text,
        Err(e) => {
            let (line, col) = locate(e.valid_up_to());
            return Err((
                line,
                format!("JSON syntax error in the JSON array: invalid UTF-8 at column {col}"),
            ));
        }
    };
    let popts = ParseOptions {
        max_depth: opts.max_depth,
    };
    match json::parse_within(text, &popts, opts.max_value_bytes) {
        Ok(p) => Ok(Ok(p)),
        Err(ParseError::TooBig { limit, offset }) => {
            let (_, col) = locate(offset);
            Ok(Err(Unparsed::TooBig {
                limit: opts.max_line_bytes,
                reason: too_big(limit, col),
            }))
        }
        Err(ParseError::Eof) => {
            let (line, col) = locate(elem.len());
            Err((
                line,
                format!(
                    "JSON syntax error in the JSON array: the element ends inside a value at column {col}"
                ),
            ))
        }
        Err(ParseError::Syntax { offset, what }) => {
            let (line, col) = locate(offset);
            Err((
                line,
                format!("JSON syntax error in the JSON array: {what} at column {col}"),
            ))
        }
        Err(ParseError::Trailing { offset }) => {
            let (line, col) = locate(offset);
            Err((
                line,
                format!("JSON syntax error in the JSON array: expected `,` or `]` at column {col}"),
            ))
        }
        Err(ParseError::TooDeep { limit, offset }) => {
            let (_, col) = locate(offset);
            Ok(Err(Unparsed::TooDeep {
                limit,
                reason: format!(
                    "nesting deeper than the limit of {limit} levels at column {col}; skipped"
                ),
            }))
        }
    }
}

/// The item of an array element longer than the limit, skipped.
fn too_long_element(line: usize, max: usize) -> Item {
    Item::OverLimit {
        line,
        kind: LimitKind::LineBytes,
        limit: max,
        reason: format!(
            "an array element longer than the limit of {} (surrounding whitespace not counted); skipped",
            human_bytes(max)
        ),
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
        Item::Value {
            line,
            value,
            notes: Vec::new(),
        }
    }

    /// The line and reason of an unparseable item.
    /// The line and reason of an item skipped at a limit.
    fn over(item: &Item) -> (usize, &str) {
        match item {
            Item::OverLimit { line, reason, .. } => (*line, reason),
            other => panic!("expected an item over a limit, got {other:?}"),
        }
    }

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
            reason.starts_with("JSON syntax error: expected a value"),
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

    /// The depth of an item's value, dropped without recursion.
    fn depth_of(item: Item) -> usize {
        match item {
            Item::Value { value, .. } => {
                let d = json::depth(&value);
                crate::patch::drop_value(value);
                d
            }
            other => panic!("expected a value, got {other:?}"),
        }
    }

    #[test]
    fn deep_nesting_is_json_up_to_the_limit() {
        let nested = |depth: usize| "[".repeat(depth) + &"]".repeat(depth);
        let opts = ReadOptions {
            max_depth: 300,
            ..ReadOptions::default()
        };
        let lines = format!("{{}}\n{}\n{}\n{{\"a\":1}}\n", nested(300), nested(301));
        let mut items = read_with(lines.as_bytes(), &opts).into_iter();
        assert_eq!(items.next(), Some(value(1, json!({}))));
        assert_eq!(items.next().map(depth_of), Some(300));
        match items.next() {
            Some(Item::OverLimit {
                line: 3,
                kind: LimitKind::Nesting,
                limit: 300,
                reason,
            }) => assert!(reason.starts_with("nesting deeper than the limit of 300 levels")),
            other => panic!("{other:?}"),
        }
        assert_eq!(items.next(), Some(value(4, json!({"a": 1}))));
        // In an array file the array itself is not an item's level.
        let array = format!("[{}]", nested(300));
        let mut items = read_with(array.as_bytes(), &opts).into_iter();
        assert_eq!(items.next().map(depth_of), Some(300));
    }

    #[test]
    fn default_nesting_admits_ten_thousand_levels_and_any_depth_is_safe() {
        let deep = |d: usize| {
            let mut v = Vec::new();
            v.extend(std::iter::repeat_n(b'[', d));
            v.extend(std::iter::repeat_n(b']', d));
            v.push(b'\n');
            v
        };
        let mut input = deep(10_000);
        input.extend(deep(1_000_000));
        let mut items = read(&input).into_iter();
        assert_eq!(items.next().map(depth_of), Some(10_000));
        assert!(matches!(
            items.next(),
            Some(Item::OverLimit {
                kind: LimitKind::Nesting,
                limit: DEFAULT_MAX_DEPTH,
                ..
            })
        ));
    }

    #[test]
    fn lone_surrogates_huge_numbers_and_duplicate_keys_are_json() {
        let items = read(b"{\"d\":\"\\ud83d\",\"n\":1e400,\"n\":2}\n");
        match &items[..] {
            [Item::Value { line: 1, notes, .. }] => assert_eq!(notes.len(), 2, "{notes:?}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_line_over_the_limit_is_skipped_and_reading_goes_on() {
        let opts = ReadOptions {
            max_line_bytes: 16,
            ..ReadOptions::default()
        };
        let input = b"{\"a\":\"0123456789abcdef\"}\n{\"b\":2}\n{\"c\":\"0123456\"}\n";
        let items = read_with(input, &opts);
        assert_eq!(
            over(&items[0]),
            (
                1,
                "line longer than the limit of 16 bytes (line ending not counted); skipped"
            )
        );
        assert_eq!(items[1], value(2, json!({"b": 2})));
        // Exactly 16 bytes is within the limit.
        assert_eq!(items[2], value(3, json!({"c": "0123456"})));
    }

    #[test]
    fn a_last_line_over_the_limit_without_newline() {
        let opts = ReadOptions {
            max_line_bytes: 4,
            ..ReadOptions::default()
        };
        let items = read_with(b"{}\n\"abcdef\"", &opts);
        assert_eq!(items.len(), 2);
        assert_eq!(
            over(&items[1]),
            (
                2,
                "line longer than the limit of 4 bytes (line ending not counted); skipped"
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
        let expected = "line longer than the limit of 64 MiB (line ending not counted); skipped";
        assert_eq!(over(&items[0]), (1, expected));
        assert_eq!(items[1], value(2, json!({"b": 2})));
    }

    /// A line of `n` bytes: `{"x":"…"}` padded to length.
    fn line_of(n: usize) -> Vec<u8> {
        let mut l = b"{\"x\":\"".to_vec();
        l.resize(n - 2, b'a');
        l.extend_from_slice(b"\"}");
        l
    }

    #[test]
    fn line_length_is_counted_without_the_line_ending() {
        let opts = ReadOptions {
            max_line_bytes: 100,
            ..ReadOptions::default()
        };
        let read = |parts: &[&[u8]]| {
            let items = read_with(&parts.concat(), &opts);
            items
                .iter()
                .map(|i| matches!(i, Item::OverLimit { .. }))
                .collect::<Vec<_>>()
        };
        let (at, over) = (line_of(100), line_of(101));
        for end in [&b"\n"[..], b"\r\n", b""] {
            // N bytes are read, N + 1 are skipped, the line ending aside,
            // whether or not the line ends the input.
            assert_eq!(read(&[&at, end]), [false], "{end:?}");
            assert_eq!(read(&[&over, end]), [true], "{end:?}");
            // The same in the middle of a stream, and on the reader's
            // slow path (the line split across buffer refills).
            let next = b"{\"b\":2}";
            assert_eq!(read(&[&at, end, b"\n", next]), [false, false], "{end:?}");
            assert_eq!(read(&[&over, end, b"\n", next]), [true, false], "{end:?}");
            let split = |parts: &[&[u8]]| {
                let bytes = parts.concat();
                let items = read_from(io::BufReader::with_capacity(7, &bytes[..]), &opts);
                items
                    .iter()
                    .map(|i| matches!(i, Item::OverLimit { .. }))
                    .collect::<Vec<_>>()
            };
            assert_eq!(split(&[&at, end, b"\n", next]), [false, false], "{end:?}");
            assert_eq!(split(&[&over, end, b"\n", next]), [true, false], "{end:?}");
        }
        // A `\r` inside the line counts.
        let mut cr = line_of(100);
        cr.insert(10, b'\r');
        assert_eq!(read(&[&cr, b"\n"]), [true]);
    }

    #[test]
    fn a_line_whose_parsed_form_passes_the_budget_is_skipped_at_the_line_limit() {
        // Small objects hold many times their text: within the line limit,
        // over what a parsed line may hold.
        let items = vec![r#"{"a":1}"#; 2000].join(",");
        let line = format!(r#"{{"type":"STATE_SNAPSHOT","snapshot":[{items}]}}"#);
        let opts = ReadOptions {
            max_line_bytes: 1 << 20,
            max_value_bytes: 1 << 20,
            ..ReadOptions::default()
        };
        for input in [format!("{line}\n{{}}\n"), format!("[{line},\n{{}}]")] {
            let items = read_with(input.as_bytes(), &opts);
            assert_eq!(items.len(), 2, "{input:.40}");
            match &items[0] {
                Item::OverLimit {
                    kind: LimitKind::LineBytes,
                    limit,
                    reason,
                    ..
                } => {
                    assert_eq!(*limit, 1 << 20);
                    assert!(reason.contains("would hold more than 1 MiB"), "{reason}");
                }
                other => panic!("{other:?}"),
            }
            assert_eq!(items[1], value(2, json!({})));
        }
        // The budget follows the line limit, 64 MiB at least.
        assert_eq!(value_bytes(1 << 20), 64 << 20);
        assert_eq!(value_bytes(64 << 20), 256 << 20);
    }

    /// A megabyte with no newline (a line that, for the test, never
    /// ends), counting what was read.
    struct Endless<'a>(&'a Cell<u64>);

    impl Read for Endless<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min((1 << 20) - self.0.get() as usize);
            buf[..n].fill(b'a');
            self.0.set(self.0.get() + n as u64);
            Ok(n)
        }
    }

    #[test]
    fn a_line_that_never_ends_is_reported_once_the_limit_is_passed() {
        let opts = ReadOptions {
            max_line_bytes: 1000,
            ..ReadOptions::default()
        };
        let read = Cell::new(0u64);
        let mut seen = None;
        let input = io::BufReader::with_capacity(256, Endless(&read));
        let n = read_stream(input, &opts, |item| {
            seen = Some((item, read.get()));
            ControlFlow::Break(())
        })
        .unwrap();
        assert_eq!(n, 1);
        let (item, at) = seen.expect("an item");
        assert!(matches!(
            item,
            Item::OverLimit {
                kind: LimitKind::LineBytes,
                ..
            }
        ));
        // Reported within one buffer of the limit, not at the line's end.
        assert!(at <= 1001 + 256, "reported after {at} bytes");
    }

    #[test]
    fn an_array_element_is_counted_without_the_whitespace_around_it() {
        let opts = ReadOptions {
            max_line_bytes: 100,
            ..ReadOptions::default()
        };
        let kinds = |input: Vec<u8>| {
            read_with(&input, &opts)
                .iter()
                .map(|i| matches!(i, Item::OverLimit { .. }))
                .collect::<Vec<_>>()
        };
        let pad = b"\n      \t  ";
        let at = [
            &b"["[..],
            pad,
            &line_of(100),
            pad,
            b",",
            pad,
            b"{}",
            pad,
            b"]",
        ]
        .concat();
        let over = [&b"["[..], pad, &line_of(101), pad, b",{}]"].concat();
        assert_eq!(kinds(at), [false, false]);
        assert_eq!(kinds(over), [true, false]);
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
            ..ReadOptions::default()
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
    fn syntax_error_mid_array_costs_that_element_only() {
        let items = read(b"[\n{\"a\":1},\n{\"b\" 2},\n{\"c\":3}\n]\n");
        assert_eq!(items.len(), 3, "{items:?}");
        assert_eq!(items[0], value(2, json!({"a": 1})));
        let (line, reason) = bad(&items[1]);
        assert_eq!(line, 3);
        assert!(
            reason.starts_with("JSON syntax error in the JSON array: expected `:`"),
            "{reason}"
        );
        assert!(reason.ends_with("at column 6"), "{reason}");
        assert_eq!(items[2], value(4, json!({"c": 3})));
    }

    #[test]
    fn an_empty_or_cut_short_element_costs_that_element_only() {
        let items = read(b"[1,,2,tru,3,]");
        assert_eq!(items.len(), 6, "{items:?}");
        assert_eq!(items[0], value(1, json!(1)));
        assert_eq!(
            bad(&items[1]),
            (
                1,
                "JSON syntax error in the JSON array: expected a value at column 4"
            )
        );
        assert_eq!(items[2], value(1, json!(2)));
        assert!(
            bad(&items[3])
                .1
                .contains("ends inside a value at column 10")
        );
        assert_eq!(items[4], value(1, json!(3)));
        assert!(bad(&items[5]).1.contains("expected a value at column 13"));
    }

    #[test]
    fn an_element_that_never_ends_is_read_again_from_its_syntax_error() {
        // The `{` of line 2 is never closed: the scanner takes the rest of
        // the array for one element; reading starts again where the
        // grammar broke (line 3, column 1).
        let items = read(b"[{\"a\":1},\n{\"b\":1,\n{\"c\":2},\n{\"d\":3}]\n");
        assert_eq!(items.len(), 4, "{items:?}");
        assert_eq!(items[0], value(1, json!({"a": 1})));
        let (line, reason) = bad(&items[1]);
        assert_eq!(line, 3);
        assert!(reason.contains("at column 1;"), "{reason}");
        assert_eq!(items[2], value(3, json!({"c": 2})));
        assert_eq!(items[3], value(4, json!({"d": 3})));
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
        let opts = ReadOptions {
            max_depth: 50,
            ..ReadOptions::default()
        };
        let deep = "[".repeat(51) + &"]".repeat(51);
        let input = format!("[{{\"a\":1}},{deep},{{\"b\":2}}]");
        let items = read_with(input.as_bytes(), &opts);
        assert_eq!(items.len(), 3, "{items:?}");
        assert!(matches!(
            items[1],
            Item::OverLimit {
                kind: LimitKind::Nesting,
                limit: 50,
                ..
            }
        ));
        assert_eq!(items[2], value(1, json!({"b": 2})));
        // Truncated inside deep nesting is truncation.
        let mut input = b"[{\"a\":1},".to_vec();
        input.extend(std::iter::repeat_n(b'[', 10_000));
        let items = read(&input);
        assert_eq!(
            bad(&items[1]),
            (1, "truncated input: it ends inside the JSON array")
        );
    }

    #[test]
    fn an_array_element_over_the_limit_is_skipped() {
        let opts = ReadOptions {
            max_line_bytes: 32,
            ..ReadOptions::default()
        };
        let input = b"[\n{\"a\":1},\n{\"long\":\"0123456789012345678901234567890123456789\"},\n{\"b\":2}\n]\n";
        let items = read_with(input, &opts);
        assert_eq!(items.len(), 3, "{items:?}");
        assert_eq!(items[0], value(2, json!({"a": 1})));
        match &items[1] {
            Item::OverLimit {
                line: 3,
                kind: LimitKind::LineBytes,
                limit: 32,
                reason,
            } => assert!(reason.contains(
                "longer than the limit of 32 bytes (surrounding whitespace not counted); skipped"
            )),
            other => panic!("{other:?}"),
        }
        assert_eq!(items[2], value(4, json!({"b": 2})));
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

    /// Seeded, so the test is reproducible (rand's `StdRng`).
    struct Rng(rand::rngs::StdRng);

    impl Rng {
        fn new(seed: u64) -> Self {
            Rng(rand::SeedableRng::seed_from_u64(seed))
        }
        fn next(&mut self) -> u64 {
            rand::RngCore::next_u64(&mut self.0)
        }
    }

    #[test]
    fn random_json_like_bytes_never_panic_and_every_non_blank_line_is_one_item() {
        const ALPHABET: &[u8] = b"{}[]\":,\n\n\r \t0123456789aeflnrstu-.\\\xFF\xC3\xA9";
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        let opts = ReadOptions {
            max_line_bytes: 24,
            ..ReadOptions::default()
        };
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
    fn random_broken_arrays_never_panic_and_lose_no_later_element() {
        const ALPHABET: &[u8] = b"{}[]\":,\n 0123456789aeflnrstu\\";
        let mut rng = Rng::new(0x5851_F42D_4C95_7F2D);
        for _ in 0..3000 {
            let len = (rng.next() % 40) as usize;
            let junk: Vec<u8> = (0..len)
                .map(|_| ALPHABET[(rng.next() % ALPHABET.len() as u64) as usize])
                .collect();
            // A broken element mid-array, then a good one on its own line.
            let mut input = b"[{\"a\":1},\n".to_vec();
            input.extend_from_slice(&junk);
            input.extend_from_slice(b",\n{\"z\":9}]\n");
            let items = read(&input);
            assert_eq!(items[0], value(1, json!({"a": 1})));
            // Unless the junk holds a quote (a string swallows what
            // follows) or a bracket (a `]` may close the array, a `[` may
            // hold the rest as one valid element), the last element is
            // read.
            if !junk.iter().any(|&b| b == b'"' || b == b']' || b == b'[') {
                assert!(
                    items.contains(&value(
                        3 + junk.iter().filter(|&&b| b == b'\n').count(),
                        json!({"z": 9})
                    )),
                    "{:?}: {items:?}",
                    String::from_utf8_lossy(&input)
                );
            }
        }
    }

    #[test]
    fn random_arrays_read_like_their_json_lines() {
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
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
