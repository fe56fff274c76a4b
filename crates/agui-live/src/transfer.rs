//! The body of an HTTP/1.1 response as sent (RFC 9112 §6): chunked, of a
//! stated length, or up to the connection's close; decoded byte for byte.
//!
//! ureq reads the connection, but its chunked decoder drops the data it
//! decoded in a read when a malformed chunk header follows in the same read
//! (and so would the events in it). This decoder hands over every byte of
//! chunk data before it reports the fault, whatever the reads were, which
//! is what docs/rules.md asks of events received before a fault.

use std::fmt;

/// The longest chunk-size line (with its extensions) or trailer section
/// kept while it is incomplete; a longer one is a fault.
const MAX_LINE_BYTES: usize = 4096;
/// The most trailer bytes read after the last chunk.
const MAX_TRAILER_BYTES: usize = 16 * 1024;

/// How the body is delimited, from the response head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// No body (a 1xx, 204 or 304 answer).
    None,
    /// `Transfer-Encoding: chunked`.
    Chunked,
    /// `Content-Length`.
    Length(u64),
    /// Neither: the body ends when the connection closes.
    Close,
}

impl Framing {
    /// The framing ureq (and RFC 9112 §6.3) gives a response: chunked when
    /// `Transfer-Encoding` names it (not in HTTP/1.0), else the
    /// `Content-Length`, else up to the close; none for 1xx, 204 and 304.
    pub fn of(
        status: u16,
        http10: bool,
        transfer_encoding: &[&str],
        length: Option<&str>,
    ) -> Framing {
        if (100..200).contains(&status) || status == 204 || status == 304 {
            return Framing::None;
        }
        let chunked = transfer_encoding.iter().any(|v| {
            v.split(',')
                .any(|c| c.trim().eq_ignore_ascii_case("chunked"))
        });
        if chunked && !http10 {
            return Framing::Chunked;
        }
        match length.and_then(|l| l.trim().parse::<u64>().ok()) {
            Some(n) => Framing::Length(n),
            None => Framing::Close,
        }
    }
}

/// Why the body cannot be read further: `what`, at byte `at` of `of`
/// (the body as sent, framing included, or a compressed stream).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub at: u64,
    pub what: String,
    pub of: &'static str,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {} of the {})", self.what, self.at, self.of)
    }
}

/// Where a framing fault is counted.
const BODY: &str = "body as sent";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Chunked {
    /// Reading a chunk-size line.
    Size,
    /// This many bytes of chunk data to go.
    Data(u64),
    /// The CRLF after a chunk's data (how many of its two bytes were seen).
    DataEnd(u8),
    /// After the last chunk: trailer lines up to an empty one.
    Trailer,
    Done,
}

/// A body decoder for one framing. See the module documentation.
#[derive(Debug)]
pub struct Transfer {
    framing: Framing,
    state: Chunked,
    /// Bytes of the body as sent, consumed so far.
    offset: u64,
    /// A chunk-size line or trailer section not yet complete.
    line: Vec<u8>,
    trailer_bytes: usize,
    /// Length and first byte of the trailer line being read.
    trailer_line: usize,
    trailer_first: u8,
    /// Bytes left of a `Content-Length` body.
    left: u64,
}

impl Transfer {
    pub fn new(framing: Framing) -> Transfer {
        Transfer {
            framing,
            state: Chunked::Size,
            offset: 0,
            line: Vec::new(),
            trailer_bytes: 0,
            trailer_line: 0,
            trailer_first: 0,
            left: match framing {
                Framing::Length(n) => n,
                _ => 0,
            },
        }
    }

    /// Whether the body is complete (bytes after its end are ignored).
    pub fn done(&self) -> bool {
        match self.framing {
            Framing::None => true,
            // The last chunk ends the data; a connection closed before the
            // trailer's end still delivered the whole body (as ureq says).
            Framing::Chunked => matches!(self.state, Chunked::Trailer | Chunked::Done),
            Framing::Length(_) => self.left == 0,
            Framing::Close => false,
        }
    }

    /// Decodes the next bytes as sent, handing each run of body data to
    /// `out` before any fault that follows it is reported.
    pub fn feed(&mut self, mut raw: &[u8], out: &mut dyn FnMut(&[u8])) -> Result<(), Fault> {
        match self.framing {
            Framing::None => Ok(()),
            Framing::Close => {
                self.offset += raw.len() as u64;
                if !raw.is_empty() {
                    out(raw);
                }
                Ok(())
            }
            Framing::Length(_) => {
                let n = raw
                    .len()
                    .min(usize::try_from(self.left).unwrap_or(usize::MAX));
                self.left -= n as u64;
                self.offset += n as u64;
                if n > 0 {
                    out(&raw[..n]);
                }
                Ok(())
            }
            Framing::Chunked => {
                while !raw.is_empty() {
                    let used = self.chunked(raw, out)?;
                    self.offset += used as u64;
                    raw = &raw[used..];
                    if self.state == Chunked::Done {
                        break;
                    }
                }
                Ok(())
            }
        }
    }

    /// The connection ended cleanly here: a body not complete is a fault.
    pub fn finish(&self) -> Result<(), Fault> {
        match self.framing {
            Framing::Close | Framing::None => Ok(()),
            _ if self.done() => Ok(()),
            Framing::Length(n) => Err(self.fault(format!(
                "the connection closed after {} of the {n} bytes its Content-Length announced",
                n - self.left
            ))),
            Framing::Chunked => {
                Err(self
                    .fault("the connection closed before the chunked body's last chunk".to_owned()))
            }
        }
    }

    fn fault(&self, what: String) -> Fault {
        Fault {
            at: self.offset,
            what,
            of: BODY,
        }
    }

    /// One step of the chunked decoder; returns the bytes it consumed.
    fn chunked(&mut self, raw: &[u8], out: &mut dyn FnMut(&[u8])) -> Result<usize, Fault> {
        match self.state {
            Chunked::Size => {
                let Some(end) = memchr::memchr(b'\n', raw) else {
                    self.keep_line(raw, "chunk-size line")?;
                    return Ok(raw.len());
                };
                let line_start = self.offset - self.line.len() as u64;
                self.keep_line(&raw[..=end], "chunk-size line")?;
                let line = std::mem::take(&mut self.line);
                let size = chunk_size(&line).ok_or_else(|| Fault {
                    at: line_start,
                    of: BODY,
                    what: format!(
                        "malformed chunked body: the chunk-size line `{}` is not a hexadecimal size",
                        printable(&line)
                    ),
                })?;
                self.state = if size == 0 {
                    Chunked::Trailer
                } else {
                    Chunked::Data(size)
                };
                Ok(end + 1)
            }
            Chunked::Data(left) => {
                let n = raw.len().min(usize::try_from(left).unwrap_or(usize::MAX));
                out(&raw[..n]);
                self.state = if left == n as u64 {
                    Chunked::DataEnd(0)
                } else {
                    Chunked::Data(left - n as u64)
                };
                Ok(n)
            }
            Chunked::DataEnd(seen) => {
                let want = b"\r\n"[usize::from(seen)];
                if raw[0] != want {
                    // The one byte that is wrong: what follows depends on
                    // how the body was cut into reads.
                    return Err(self.fault(format!(
                        "malformed chunked body: a chunk's data is followed by `{}`, not CRLF",
                        printable(&raw[..1])
                    )));
                }
                self.state = if seen == 0 {
                    Chunked::DataEnd(1)
                } else {
                    Chunked::Size
                };
                Ok(1)
            }
            Chunked::Trailer => {
                // Trailer fields are read and dropped, up to an empty line;
                // of a line only its length and first byte matter.
                let end = memchr::memchr(b'\n', raw);
                let part = &raw[..end.unwrap_or(raw.len())];
                self.trailer(part.len() + usize::from(end.is_some()))?;
                if self.trailer_line == 0
                    && let Some(&b) = part.first()
                {
                    self.trailer_first = b;
                }
                self.trailer_line += part.len();
                let Some(end) = end else {
                    return Ok(raw.len());
                };
                let blank = self.trailer_line == 0
                    || (self.trailer_line == 1 && self.trailer_first == b'\r');
                self.trailer_line = 0;
                if blank {
                    self.state = Chunked::Done;
                }
                Ok(end + 1)
            }
            Chunked::Done => Ok(raw.len()),
        }
    }

    /// Keeps part of an incomplete line, within [`MAX_LINE_BYTES`].
    fn keep_line(&mut self, part: &[u8], what: &str) -> Result<(), Fault> {
        if self.line.len() + part.len() > MAX_LINE_BYTES {
            return Err(self.fault(format!(
                "malformed chunked body: a {what} longer than {MAX_LINE_BYTES} bytes"
            )));
        }
        self.line.extend_from_slice(part);
        Ok(())
    }

    fn trailer(&mut self, n: usize) -> Result<(), Fault> {
        self.trailer_bytes += n;
        if self.trailer_bytes > MAX_TRAILER_BYTES {
            return Err(self.fault(format!(
                "malformed chunked body: a trailer longer than {MAX_TRAILER_BYTES} bytes"
            )));
        }
        Ok(())
    }
}

/// The size of a complete chunk-size line (`1a;ext=v\r\n`), by httparse;
/// a line must start with a hexadecimal digit.
fn chunk_size(line: &[u8]) -> Option<u64> {
    if !line.first().is_some_and(u8::is_ascii_hexdigit) {
        return None;
    }
    match httparse::parse_chunk_size(line) {
        Ok(httparse::Status::Complete((used, size))) if used == line.len() => Some(size),
        _ => None,
    }
}

/// Bytes shown in a message: printable ASCII as is, the rest escaped.
fn printable(bytes: &[u8]) -> String {
    bytes.escape_ascii().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The data decoded from `raw` fed in pieces of `size`, and the fault.
    fn decode(framing: Framing, raw: &[u8], size: usize) -> (Vec<u8>, Option<Fault>) {
        let mut t = Transfer::new(framing);
        let mut data = Vec::new();
        for piece in raw.chunks(size.max(1)) {
            if let Err(f) = t.feed(piece, &mut |d| data.extend_from_slice(d)) {
                return (data, Some(f));
            }
        }
        (data, t.finish().err())
    }

    #[test]
    fn chunked_bodies_decode_in_any_split() {
        let raw = b"4\r\nRust\r\n6;name=v\r\n in 20\r\n0\r\nX-Trailer: 1\r\n\r\n";
        for size in 1..raw.len() {
            assert_eq!(
                decode(Framing::Chunked, raw, size),
                (b"Rust in 20".to_vec(), None),
                "{size}"
            );
        }
    }

    #[test]
    fn data_before_a_malformed_chunk_header_is_handed_over() {
        // The fault comes in the same piece as the data, or later.
        let raw = b"5\r\nhello\r\nzz\r\nmore";
        for size in 1..=raw.len() {
            let (data, fault) = decode(Framing::Chunked, raw, size);
            assert_eq!(data, b"hello", "{size}");
            let f = fault.unwrap();
            assert!(f.what.contains("`zz\\r\\n`"), "{f}");
            assert_eq!(f.at, 10);
        }
        let (data, fault) = decode(Framing::Chunked, b"3\r\nabcXY", 64);
        assert_eq!(data, b"abc");
        assert!(fault.unwrap().what.contains("not CRLF"));
        // An empty size line is not the last chunk.
        let (_, fault) = decode(Framing::Chunked, b"\r\n", 64);
        assert!(fault.is_some());
    }

    #[test]
    fn a_body_cut_short_is_a_fault_at_its_end() {
        let (data, fault) = decode(Framing::Chunked, b"5\r\nhel", 2);
        assert_eq!(data, b"hel");
        assert!(
            fault
                .unwrap()
                .what
                .contains("before the chunked body's last chunk")
        );
        let (data, fault) = decode(Framing::Length(10), b"hello", 3);
        assert_eq!(data, b"hello");
        assert_eq!(
            fault.unwrap().to_string(),
            "the connection closed after 5 of the 10 bytes its Content-Length announced (at byte 5 of the body as sent)"
        );
        // The last chunk without the trailer's end is a whole body.
        assert_eq!(
            decode(Framing::Chunked, b"1\r\na\r\n0\r\n", 4),
            (b"a".to_vec(), None)
        );
        assert_eq!(decode(Framing::Close, b"abc", 1), (b"abc".to_vec(), None));
    }

    #[test]
    fn bytes_after_the_end_are_ignored() {
        assert_eq!(
            decode(Framing::Length(3), b"abcdef", 2),
            (b"abc".to_vec(), None)
        );
        assert_eq!(
            decode(Framing::Chunked, b"1\r\na\r\n0\r\n\r\ngarbage", 5),
            (b"a".to_vec(), None)
        );
        assert_eq!(decode(Framing::None, b"abc", 5), (Vec::new(), None));
    }

    #[test]
    fn framing_follows_the_head() {
        assert_eq!(
            Framing::of(200, false, &["gzip, chunked"], Some("5")),
            Framing::Chunked
        );
        assert_eq!(
            Framing::of(200, true, &["chunked"], Some("5")),
            Framing::Length(5)
        );
        assert_eq!(Framing::of(200, false, &[], None), Framing::Close);
        assert_eq!(Framing::of(204, false, &[], None), Framing::None);
    }

    #[test]
    fn long_lines_are_faults_not_memory() {
        let mut raw = b"1".repeat(MAX_LINE_BYTES + 1);
        raw.extend_from_slice(b"\r\n");
        assert!(
            decode(Framing::Chunked, &raw, 100)
                .1
                .unwrap()
                .what
                .contains("longer than")
        );
    }
}
