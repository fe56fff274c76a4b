//! Saving a capture as JSON Lines: one line per event, as received, so
//! that `agui-conform check FILE` re-checks it offline with the same items
//! at the same indexes.
//!
//! An event's data is written as it came when it is one non-blank line.
//! Data the standard joined from several `data:` lines holds `\n`s: when it
//! is JSON they can only be whitespace between tokens (JSON strings cannot
//! hold a raw newline), so each becomes a space — the same value, the same
//! key order. Data that cannot be one line as it is (not JSON and
//! multi-line, blank, or — JSON or not — starting with `[`, which could make
//! the file read as one JSON array; the checker reports an array as
//! `schema.not-json` either way) and an event over the size limit are written as a
//! line that is not JSON, starting with `!`, that says what was received
//! (the data as a JSON string when it was kept): re-checking reports it as
//! `schema.not-json`, as the live check did.

use std::io::{self, Write};

/// How one event is written.
pub fn line_for(data: &[u8], parses: bool) -> Vec<u8> {
    let one_line = !data.contains(&b'\n') && !data.contains(&b'\r');
    let blank = data.iter().all(u8::is_ascii_whitespace);
    let starts_array = data
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'[');
    if parses && !starts_array {
        return if one_line {
            data.to_vec()
        } else {
            data.iter()
                .map(|&b| if b == b'\n' || b == b'\r' { b' ' } else { b })
                .collect()
        };
    }
    if one_line && !blank && !starts_array {
        return data.to_vec();
    }
    let text = String::from_utf8_lossy(data);
    let quoted = serde_json::to_string(&text).unwrap_or_default();
    format!("!not-json event data: {quoted}").into_bytes()
}

/// The line for an event whose data was over the limit and not kept.
pub fn oversize_line(bytes: u64, limit: usize) -> Vec<u8> {
    format!("!not-json event data of {bytes} bytes, over the {limit}-byte limit; not kept")
        .into_bytes()
}

/// A capture being written; each line is flushed as it is written, so a
/// capture cut short by a failure keeps every event received before it.
pub struct CaptureWriter {
    out: Box<dyn Write>,
    lines: u64,
    failed: Option<String>,
}

impl CaptureWriter {
    pub fn new(out: impl Write + 'static) -> Self {
        CaptureWriter {
            out: Box::new(out),
            lines: 0,
            failed: None,
        }
    }

    /// Writes one line; after a write error nothing more is written and
    /// the error is kept for [`CaptureWriter::error`].
    pub fn line(&mut self, line: &[u8]) {
        if self.failed.is_some() {
            return;
        }
        let r: io::Result<()> = (|| {
            self.out.write_all(line)?;
            self.out.write_all(b"\n")?;
            self.out.flush()
        })();
        match r {
            Ok(()) => self.lines += 1,
            Err(e) => self.failed = Some(e.to_string()),
        }
    }

    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// The first write error, if any.
    pub fn error(&self) -> Option<&str> {
        self.failed.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_data_is_kept_as_is_or_with_newlines_as_spaces() {
        assert_eq!(line_for(br#"{"b":1,"a":2}"#, true), br#"{"b":1,"a":2}"#);
        assert_eq!(line_for(b"{\"b\":\n1}", true), b"{\"b\": 1}");
    }

    #[test]
    fn one_line_non_json_is_kept_as_is() {
        assert_eq!(line_for(b"hello", false), b"hello");
        assert_eq!(line_for(b"\xFF{", false), b"\xFF{");
    }

    #[test]
    fn lines_that_would_change_meaning_are_marked() {
        for data in [&b""[..], b"  ", b"a\nb", b"[1,", b"\"a\nb\""] {
            let line = line_for(data, false);
            assert!(line.starts_with(b"!not-json"), "{data:?}");
            assert!(!line.contains(&b'\n'));
        }
        assert_eq!(
            line_for(b"a\nb", false),
            br#"!not-json event data: "a\nb""#.to_vec()
        );
    }

    #[test]
    fn write_errors_stop_writing_and_are_kept() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::other("disk full"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut w = CaptureWriter::new(Full);
        w.line(b"{}");
        w.line(b"{}");
        assert_eq!(w.lines(), 0);
        assert_eq!(w.error(), Some("disk full"));
    }
}
