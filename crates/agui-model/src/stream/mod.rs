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
//! # One item reader, thin framings
//! A framing only cuts items out: JSON Lines (`stream/lines.rs`), a JSON array
//! (`stream/array.rs`) and Server-Sent Events ([`sse`], each event's data
//! made an item by [`sse_data_item`]). What an item is once cut out is decided once,
//! in `stream/item.rs`: the line-length rule ([`over_line_limit`]: N bytes read,
//! N + 1 skipped), the depth and memory limits, where a syntax error
//! stands and what the skip notice says. So a limit or a fault is the same
//! on every input.
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

mod array;
mod input;
mod item;
mod lines;
pub mod sse;
#[cfg(test)]
mod tests;

pub use item::over_line_limit;

use crate::json::{self, Note};
use crate::limits::LimitKind;
use input::{Pos, skip_blank, skip_bom};
use item::{Frame, item_of, parse};
use serde_json::Value;
use std::cell::Cell;
use std::io::{self, BufRead};
use std::ops::ControlFlow;

/// The default longest line: 64 MiB.
pub const DEFAULT_MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// The default deepest nesting of one item: [`json::DEFAULT_MAX_DEPTH`].
pub const DEFAULT_MAX_DEPTH: usize = json::DEFAULT_MAX_DEPTH;

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
    let start = Pos {
        line: at.line,
        col: at.col,
    };
    let frame = Frame::Line {
        terminated: at.terminated,
    };
    item_of(parse(text, start, frame, opts), at.line)
}

/// The item the data of one SSE event gives (its `data` lines joined with
/// `\n`), standing at `line`: made by the same core as a JSON Lines line or
/// an array element (the same depth and memory limits), its faults worded
/// with offsets in the data. Blank data is not JSON (`empty data`).
pub fn sse_data_item(data: &[u8], line: usize, opts: &ReadOptions) -> Item {
    let start = Pos { line, col: 0 };
    item_of(parse(data, start, Frame::SseData, opts), line)
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
            array::read_array_or_lines(&mut r, opts, pos, &mut take, &mut emit)?
        }
        Some(_) => {
            lines::read_lines(&mut r, opts, pos, &mut take, &mut emit)?;
        }
    }
    Ok(count + taken.get())
}
