//! `check - --ack` (hidden; the Python wrapper's `Checker` uses it): before
//! each read of standard input, `agui-conform-ack N` on stderr, N the bytes
//! read so far. The checking loop reads more only once every whole line (or
//! SSE event) it holds has been judged and its findings written, so the
//! line says that all the input up to N is judged: a feeder that waits for
//! it sees each event's violations before it feeds the next.

use std::io::{self, BufReader, Read, Write};

/// The line's prefix.
pub const PREFIX: &str = "agui-conform-ack";

/// Standard input, acknowledging on stderr before each read.
pub struct AckReader<R> {
    inner: R,
    read: u64,
}

impl<R: Read> Read for AckReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // Findings are flushed as written (a live input); say so after them.
        let _ = io::stdout().flush();
        let mut err = io::stderr().lock();
        let _ = writeln!(err, "{PREFIX} {}", self.read);
        let _ = err.flush();
        drop(err);
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        Ok(n)
    }
}

/// Standard input read through an [`AckReader`].
pub fn stdin() -> BufReader<AckReader<io::Stdin>> {
    BufReader::with_capacity(
        1 << 16,
        AckReader {
            inner: io::stdin(),
            read: 0,
        },
    )
}
