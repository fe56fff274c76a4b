//! JSON Lines framing: each non-blank line is one item, cut out at its
//! newline (the line ending not counted) and made an item by the shared
//! core ([`super::item`]).

use super::input::{KEEP_BUFFER_BYTES, LineEnd, Pos, fill, fill_line, skip_line};
use super::item::{Frame, over_line_limit, too_long};
use super::{Item, LineAt, ReadOptions, line_item_at};
use std::io::{self, BufRead};
use std::ops::ControlFlow;

/// Reads JSON Lines from the current position (the start of a line, or
/// inside the first line after `pos.col` bytes of whitespace).
///
/// Line length is counted without the line ending (`\n` or `\r\n`): a
/// line of `max_line_bytes` is read, one byte more is skipped, whether or
/// not it ends the input, and the skip is reported as soon as that byte is
/// read (a line that never ends is reported all the same).
pub(super) fn read_lines<R: BufRead>(
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
            let item = if over_line_limit(text.len(), max) {
                Some(too_long(Frame::Line { terminated: true }, line, max))
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
        if end == LineEnd::Full || over_line_limit(text.len(), max) {
            // Reported now, before the rest of the line is read.
            if emit(too_long(Frame::Line { terminated: true }, line, max)).is_break() {
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
