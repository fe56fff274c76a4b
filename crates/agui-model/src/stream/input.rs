//! Byte-level reading every framing shares: where reading stands, the
//! reader's buffer refilled, a byte order mark and blank space skipped,
//! a line filled up to a cap or skipped without being held.

use std::io::{self, BufRead};

/// A line buffer larger than this is released after use, so one long line
/// does not pin its memory for the rest of the stream.
pub(super) const KEEP_BUFFER_BYTES: usize = 1024 * 1024;

/// Where reading stands: the 1-based line, and how many bytes of it were
/// consumed already (so columns of the first item stay true).
#[derive(Debug, Clone, Copy)]
pub(super) struct Pos {
    pub line: usize,
    pub col: usize,
}

/// The reader's buffered bytes, refilled when empty (interrupted reads are
/// retried). Empty means end of input; the buffer is only refilled once, so
/// an interactive end of input is not waited for twice.
pub(super) fn fill<R: BufRead>(r: &mut R) -> io::Result<&[u8]> {
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

pub(super) fn skip_bom<R: BufRead>(r: &mut R, pos: &mut Pos) -> io::Result<()> {
    if fill(r)?.starts_with(b"\xEF\xBB\xBF") {
        r.consume(3);
        pos.col = 3;
    }
    Ok(())
}

/// Consumes whitespace and returns the next byte (not consumed), or `None`
/// at end of input.
pub(super) fn skip_blank<R: BufRead>(r: &mut R, pos: &mut Pos) -> io::Result<Option<u8>> {
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
pub(super) enum LineEnd {
    /// A newline ended the line (consumed, not appended).
    Newline,
    /// The input ended.
    Eof,
    /// `buf` reached its cap before the line ended.
    Full,
}

/// Appends bytes of the current line to `buf`, up to `cap` bytes in all.
pub(super) fn fill_line<R: BufRead>(
    r: &mut R,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<LineEnd> {
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
pub(super) fn skip_line<R: BufRead>(r: &mut R) -> io::Result<bool> {
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
