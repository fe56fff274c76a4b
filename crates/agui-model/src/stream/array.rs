//! JSON array framing: elements cut out of the input one at a time by a
//! byte scanner that tracks strings and brackets, never building the
//! array, and made items by the shared core ([`super::item`]); recovery
//! at the next element after a syntax error (see [`read_array`]).

use super::input::{KEEP_BUFFER_BYTES, LineEnd, Pos, fill, fill_line, skip_blank};
use super::item::{Frame, Unparsed, item_of, locate, over_line_limit, parse, too_long};
use super::lines::read_lines;
use super::{Item, LineAt, ReadOptions};
use crate::json::{self, ParseError, ParseOptions};
use std::io::{self, BufRead, Cursor, Read};
use std::ops::ControlFlow;

/// How much of a first line starting with `[` is looked at to decide between
/// a JSON array file and JSON Lines (a longer first line means an array).
const ARRAY_PEEK_BYTES: usize = 1024 * 1024;

/// Decides between a JSON array file and JSON Lines whose first line is an
/// array (see the module doc), then reads accordingly. The reader stands on
/// the `[`.
pub(super) fn read_array_or_lines<R: BufRead>(
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
            let parsed = parse(text, pos, Frame::Line { terminated: true }, opts);
            // Only a value that goes on past the line's end makes this an
            // array file; a complete or broken line is a JSON Lines item
            // when more lines follow.
            let continues = match &parsed {
                Err(Unparsed::NotJson { open, .. }) => *open,
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
            if over_line_limit(span, opts.max_line_bytes) {
                // Reported now, before the rest of the element is read.
                over = true;
                elem = Vec::new();
                if emit(too_long(Frame::Element, line, opts.max_line_bytes)).is_break() {
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
            Some(item_of(
                parse(&elem, start, Frame::Element, opts),
                last_line,
            ))
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
