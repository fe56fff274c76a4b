//! The item core every framing shares: the one line-length rule, and how
//! the text a framing cut out becomes an [`Item`] — parsed within the depth
//! and memory limits, a fault located in it and worded by its framing
//! (a JSON Lines line, an array element, an SSE event's data). A limit or
//! a fault is classified here once, so it is the same on every input.

use super::input::Pos;
use super::{Item, ReadOptions};
use crate::json::{self, ParseError, ParseOptions};
use crate::limits::LimitKind;

/// The line-length rule of every framing (docs/check.md, "Checker
/// limits"): an item of `len` bytes under a limit of `max` is read when
/// `len <= max`, skipped when it holds one byte more. A JSON Lines line is
/// counted without its line ending, an array element without the
/// whitespace around it, an SSE event as its data.
#[inline]
pub fn over_line_limit(len: usize, max: usize) -> bool {
    len > max
}

/// Which framing cut an item out: it says where a fault stands and words
/// it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Frame {
    /// A JSON Lines line; `terminated` is false for a last line with no
    /// newline.
    Line { terminated: bool },
    /// An element of a JSON array (it may span lines).
    Element,
    /// The data of one SSE event (its lines joined with `\n`): offsets are
    /// counted in the data.
    SseData,
}

/// Why a text gave no value.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Unparsed {
    /// Not JSON, at `line`; `open`: the text ended inside a value.
    NotJson {
        line: usize,
        reason: String,
        open: bool,
    },
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

/// Parses the text `bytes` a framing cut out, which starts at `start`.
pub(super) fn parse(
    bytes: &[u8],
    start: Pos,
    frame: Frame,
    opts: &ReadOptions,
) -> Result<json::Parsed, Unparsed> {
    // Line and 1-based column of a byte offset, as the framing counts it.
    let at = |offset: usize| match frame {
        Frame::SseData => (start.line, offset + 1),
        Frame::Line { .. } | Frame::Element => locate(bytes, start, offset),
    };
    let not_json = |offset: usize, reason: String, open: bool| {
        Err(Unparsed::NotJson {
            line: at(offset).0,
            reason,
            open,
        })
    };
    let text = match simdutf8::compat::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let offset = e.valid_up_to();
            let reason = match frame {
                Frame::Line { .. } => format!("invalid UTF-8 at byte offset {}", at(offset).1 - 1),
                Frame::Element => format!(
                    "JSON syntax error in the JSON array: invalid UTF-8 at column {}",
                    at(offset).1
                ),
                Frame::SseData => format!("invalid UTF-8 at byte {offset}"),
            };
            return not_json(offset, reason, false);
        }
    };
    if frame == Frame::SseData && bytes.iter().all(u8::is_ascii_whitespace) {
        return not_json(0, "empty data".to_owned(), false);
    }
    let popts = ParseOptions {
        max_depth: opts.max_depth,
    };
    let e = match json::parse_within(text, &popts, opts.max_value_bytes) {
        Ok(p) => return Ok(p),
        Err(e) => e,
    };
    match (e, frame) {
        (e, Frame::SseData)
            if !matches!(e, ParseError::TooDeep { .. } | ParseError::TooBig { .. }) =>
        {
            not_json(0, e.to_string(), matches!(e, ParseError::Eof))
        }
        (ParseError::Eof, Frame::Line { terminated: true }) => {
            not_json(bytes.len(), LINE_ENDS_INSIDE.to_owned(), true)
        }
        (ParseError::Eof, Frame::Line { terminated: false }) => not_json(
            bytes.len(),
            "truncated last line: the input ends inside a JSON value".to_owned(),
            true,
        ),
        (ParseError::Eof, _) => {
            let reason = format!(
                "JSON syntax error in the JSON array: the element ends inside a value at column {}",
                at(bytes.len()).1
            );
            not_json(bytes.len(), reason, true)
        }
        (ParseError::Syntax { offset, what }, Frame::Line { .. }) => {
            let reason = format!("JSON syntax error: {what} at column {}", at(offset).1);
            not_json(offset, reason, false)
        }
        (ParseError::Syntax { offset, what }, _) => {
            let reason = format!(
                "JSON syntax error in the JSON array: {what} at column {}",
                at(offset).1
            );
            not_json(offset, reason, false)
        }
        (ParseError::Trailing { offset }, Frame::Line { .. }) => {
            let reason = format!(
                "trailing data after the JSON value at column {}",
                at(offset).1
            );
            not_json(offset, reason, false)
        }
        (ParseError::Trailing { offset }, _) => {
            let reason = format!(
                "JSON syntax error in the JSON array: expected `,` or `]` at column {}",
                at(offset).1
            );
            not_json(offset, reason, false)
        }
        (e @ ParseError::TooDeep { limit, offset }, frame) => Err(Unparsed::TooDeep {
            limit,
            reason: match frame {
                Frame::SseData => e.to_string(),
                _ => format!(
                    "nesting deeper than the limit of {limit} levels at column {}; skipped",
                    at(offset).1
                ),
            },
        }),
        (e @ ParseError::TooBig { limit, offset }, frame) => Err(Unparsed::TooBig {
            limit: opts.max_line_bytes,
            reason: match frame {
                Frame::SseData => format!("{e}; skipped"),
                _ => format!(
                    "parsed, the line would hold more than {} in memory (passed at column {}); skipped",
                    human_bytes(limit),
                    at(offset).1
                ),
            },
        }),
    }
}

/// The item a parse gives; a value stands at `line`.
pub(super) fn item_of(parsed: Result<json::Parsed, Unparsed>, line: usize) -> Item {
    match parsed {
        Ok(p) => Item::Value {
            line,
            value: p.value,
            notes: p.notes,
        },
        Err(Unparsed::NotJson { line, reason, .. }) => Item::Unparseable { line, reason },
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

/// The item of a line, or an element, longer than the limit, skipped
/// (reported as soon as the byte past the limit is read).
pub(super) fn too_long(frame: Frame, line: usize, max: usize) -> Item {
    let max_text = human_bytes(max);
    let reason = match frame {
        Frame::Element => format!(
            "an array element longer than the limit of {max_text} (surrounding whitespace not counted); skipped"
        ),
        Frame::Line { .. } | Frame::SseData => {
            format!("line longer than the limit of {max_text} (line ending not counted); skipped")
        }
    };
    Item::OverLimit {
        line,
        kind: LimitKind::LineBytes,
        limit: max,
        reason,
    }
}

/// Line and column (1-based) of a byte offset of a text that starts at
/// `start`.
pub(super) fn locate(text: &[u8], start: Pos, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    match memchr::memrchr(b'\n', before) {
        None => (start.line, start.col + offset + 1),
        Some(nl) => (
            start.line + memchr::memchr_iter(b'\n', before).count(),
            offset - nl,
        ),
    }
}

/// `64 MiB`, `1 KiB`, `100 bytes`.
pub(super) fn human_bytes(n: usize) -> String {
    const UNITS: [(usize, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (size, unit) in UNITS {
        if n >= size && n / size * size == n {
            return format!("{} {unit}", n / size);
        }
    }
    format!("{n} bytes")
}
