//! `Content-Encoding` decoded as the bytes come (gzip, deflate, br),
//! handing over every byte decoded before a fault, in pieces of bounded
//! size.
//!
//! The `Read` decoders of flate2 and brotli-decompressor return an error
//! for a read in which they decoded some bytes and then met corrupt data,
//! and those bytes are lost; their streaming interfaces (flate2's
//! `Decompress`, on zlib-rs for gzip headers, and `BrotliDecompressStream`)
//! say how much was written before the error, which is what is used here.
//! Output goes out [`PIECE_BYTES`] at a time, so a small body that
//! decodes to gigabytes (a decompression bomb) is never held.

use crate::transfer::Fault;
use brotli_decompressor::{BrotliDecompressStream, BrotliResult, BrotliState, StandardAlloc};
use flate2::{Decompress, FlushDecompress, Status};

/// The most decoded bytes handed over at once.
pub const PIECE_BYTES: usize = 64 * 1024;

/// A response's content coding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coding {
    Identity,
    Gzip,
    /// zlib (RFC 1950), as RFC 9110 defines `deflate`, or raw DEFLATE
    /// (RFC 1951), which servers send under that name too (browsers read
    /// both): told apart by the zlib header's check bits.
    Deflate,
    Brotli,
}

impl Coding {
    /// The coding a `Content-Encoding` value names; `identity` in a list
    /// is no coding (`identity, gzip` is gzip). Anything else (a coding
    /// not asked for, several codings) is read as it is, as ureq did.
    pub fn of(header: Option<&str>) -> Coding {
        let mut named = header
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .filter(|c| !c.is_empty() && !c.eq_ignore_ascii_case("identity"));
        let (Some(v), None) = (named.next(), named.next()) else {
            return Coding::Identity;
        };
        if v.eq_ignore_ascii_case("gzip") || v.eq_ignore_ascii_case("x-gzip") {
            Coding::Gzip
        } else if v.eq_ignore_ascii_case("deflate") {
            Coding::Deflate
        } else if v.eq_ignore_ascii_case("br") {
            Coding::Brotli
        } else {
            Coding::Identity
        }
    }

    fn name(self) -> &'static str {
        match self {
            Coding::Identity => "identity",
            Coding::Gzip => "gzip",
            Coding::Deflate => "deflate",
            Coding::Brotli => "br",
        }
    }
}

enum Engine {
    Identity,
    /// `deflate` before its first two bytes came: zlib or raw is told
    /// from them.
    Sniff(Vec<u8>),
    /// `ended`: the stream (for gzip, its member) reached its end.
    Flate {
        d: Box<Decompress>,
        ended: bool,
    },
    Brotli {
        state: Box<BrotliState<StandardAlloc, StandardAlloc, StandardAlloc>>,
        ended: bool,
    },
}

/// A decoder of one response body. See the module documentation.
pub struct Decoder {
    coding: Coding,
    engine: Engine,
    buf: Vec<u8>,
    /// Encoded bytes consumed so far.
    offset: u64,
}

impl std::fmt::Debug for Decoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decoder")
            .field("coding", &self.coding)
            .field("offset", &self.offset)
            .finish_non_exhaustive()
    }
}

fn flate(coding: Coding) -> Engine {
    match coding {
        Coding::Gzip => flate_with(Decompress::new_gzip(15)),
        _ => Engine::Sniff(Vec::with_capacity(2)),
    }
}

/// Whether two bytes start a zlib stream (RFC 1950 §2.2: method 8, a
/// window of at most 32 KiB, and the check bits).
fn is_zlib(head: [u8; 2]) -> bool {
    head[0] & 0x0F == 8 && head[0] >> 4 <= 7 && u16::from_be_bytes(head).is_multiple_of(31)
}

fn flate_with(d: Decompress) -> Engine {
    Engine::Flate {
        d: Box::new(d),
        ended: false,
    }
}

/// A fault at encoded byte `at`.
fn fault_at(coding: Coding, at: u64, what: &str) -> Fault {
    Fault {
        at,
        what: what.to_owned(),
        of: match coding {
            Coding::Identity => "body",
            Coding::Gzip => "gzip stream",
            Coding::Deflate => "deflate stream",
            Coding::Brotli => "br stream",
        },
    }
}

impl Decoder {
    pub fn new(coding: Coding) -> Decoder {
        let engine = match coding {
            Coding::Identity => Engine::Identity,
            Coding::Gzip | Coding::Deflate => flate(coding),
            // The standard window (at most 16 MiB), not the large one.
            Coding::Brotli => Engine::Brotli {
                state: Box::new(BrotliState::new_strict(
                    StandardAlloc::default(),
                    StandardAlloc::default(),
                    StandardAlloc::default(),
                )),
                ended: false,
            },
        };
        let buf = match coding {
            Coding::Identity => Vec::new(),
            _ => vec![0; PIECE_BYTES],
        };
        Decoder {
            coding,
            engine,
            buf,
            offset: 0,
        }
    }

    fn fault(&self, what: String) -> Fault {
        fault_at(self.coding, self.offset, &what)
    }

    /// Decodes the next encoded bytes; `out` gets the decoded ones, every
    /// one of them before a fault is returned.
    pub fn feed(&mut self, mut input: &[u8], out: &mut dyn FnMut(&[u8])) -> Result<(), Fault> {
        match &mut self.engine {
            Engine::Identity => {
                self.offset += input.len() as u64;
                if !input.is_empty() {
                    for piece in input.chunks(PIECE_BYTES) {
                        out(piece);
                    }
                }
                Ok(())
            }
            Engine::Sniff(held) => {
                let take = (2 - held.len()).min(input.len());
                held.extend_from_slice(&input[..take]);
                let head = [held.first().copied(), held.get(1).copied()];
                let [Some(a), Some(b)] = head else {
                    return Ok(());
                };
                let zlib = is_zlib([a, b]);
                self.engine = flate_with(Decompress::new(zlib));
                self.feed(&[a, b], out)?;
                self.feed(&input[take..], out)
            }
            Engine::Flate { .. } => loop {
                let Engine::Flate { d, ended } = &mut self.engine else {
                    return Ok(());
                };
                if *ended {
                    if input.is_empty() || self.coding == Coding::Deflate {
                        // A zlib stream's end ends the body (flate2 and
                        // ureq ignore what follows).
                        return Ok(());
                    }
                    // Another gzip member (RFC 1952 §2.2), as ureq reads.
                    self.engine = flate(Coding::Gzip);
                    continue;
                }
                let (before_in, before_out) = (d.total_in(), d.total_out());
                let r = d.decompress(input, &mut self.buf, FlushDecompress::None);
                let used = (d.total_in() - before_in) as usize;
                let made = (d.total_out() - before_out) as usize;
                if made > 0 {
                    out(&self.buf[..made]);
                }
                input = &input[used..];
                self.offset += used as u64;
                match r {
                    Ok(Status::StreamEnd) => *ended = true,
                    Ok(_) if used == 0 && made < self.buf.len() => return Ok(()),
                    Ok(_) => {}
                    Err(e) => {
                        return Err(self.fault(format!(
                            "the {} body does not decode: {e}",
                            self.coding.name()
                        )));
                    }
                }
            },
            Engine::Brotli { state, ended } => {
                // One byte per call: the decoder writes its output out
                // when it runs out of input, not when it meets corrupt
                // data, so a byte at a time loses none of it.
                for &byte in input {
                    if *ended {
                        return Err(fault_at(
                            self.coding,
                            self.offset,
                            "bytes follow the end of the br stream",
                        ));
                    }
                    let one = [byte];
                    let mut at = 0;
                    loop {
                        let mut avail_in = 1 - at;
                        let mut avail_out = self.buf.len();
                        let mut made = 0;
                        let mut total = 0;
                        let r = BrotliDecompressStream(
                            &mut avail_in,
                            &mut at,
                            &one,
                            &mut avail_out,
                            &mut made,
                            &mut self.buf,
                            &mut total,
                            state,
                        );
                        if made > 0 {
                            out(&self.buf[..made]);
                        }
                        match r {
                            BrotliResult::NeedsMoreInput => break,
                            BrotliResult::NeedsMoreOutput => {}
                            BrotliResult::ResultSuccess => {
                                *ended = true;
                                break;
                            }
                            BrotliResult::ResultFailure => {
                                return Err(fault_at(
                                    self.coding,
                                    self.offset,
                                    "the br body does not decode",
                                ));
                            }
                        }
                    }
                    self.offset += 1;
                }
                Ok(())
            }
        }
    }

    /// The body ended here: a compressed stream not at its end is cut
    /// short (an empty body is an empty one, whatever its coding).
    pub fn finish(&self) -> Result<(), Fault> {
        let ended = match &self.engine {
            Engine::Identity => true,
            Engine::Sniff(held) => held.is_empty(),
            Engine::Flate { ended, .. } | Engine::Brotli { ended, .. } => *ended,
        };
        if ended || (self.offset == 0 && !matches!(self.engine, Engine::Sniff(_))) {
            Ok(())
        } else {
            Err(self.fault(format!("the {} stream is cut short", self.coding.name())))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::{GzEncoder, ZlibEncoder};
    use std::io::Write;

    /// `data` compressed and flushed (byte-aligned), not finished.
    fn flushed(coding: Coding, data: &[u8]) -> Vec<u8> {
        match coding {
            Coding::Gzip => {
                let mut e = GzEncoder::new(Vec::new(), Compression::default());
                e.write_all(data).unwrap();
                e.flush().unwrap();
                e.get_ref().clone()
            }
            _ => {
                let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
                e.write_all(data).unwrap();
                e.flush().unwrap();
                e.get_ref().clone()
            }
        }
    }

    fn decode(coding: Coding, input: &[u8], size: usize) -> (Vec<u8>, Option<Fault>) {
        let mut d = Decoder::new(coding);
        let mut data = Vec::new();
        for piece in input.chunks(size.max(1)) {
            if let Err(f) = d.feed(piece, &mut |p| data.extend_from_slice(p)) {
                return (data, Some(f));
            }
        }
        (data, d.finish().err())
    }

    #[test]
    fn bytes_decoded_before_corrupt_data_are_handed_over() {
        let text = b"data: {\"type\":\"RUN_STARTED\"}\n\n".repeat(40);
        for coding in [Coding::Gzip, Coding::Deflate] {
            let mut body = flushed(coding, &text);
            // A deflate block of the reserved type 3: corrupt.
            body.push(0x07);
            for size in [1, 7, body.len()] {
                let (data, fault) = decode(coding, &body, size);
                assert_eq!(data, text, "{coding:?} {size}");
                let f = fault.unwrap();
                assert!(f.what.contains("does not decode"), "{f:?}");
            }
        }
    }

    /// `data` as a brotli stream of one uncompressed meta-block (RFC 7932:
    /// WBITS 16, ISLAST 0, MNIBBLES 4, MLEN-1, ISUNCOMPRESSED), not ended.
    fn brotli_stored(data: &[u8]) -> Vec<u8> {
        let header = (((data.len() - 1) as u32) << 4) | (1 << 20);
        let mut out = header.to_le_bytes()[..3].to_vec();
        out.extend_from_slice(data);
        out
    }

    #[test]
    fn brotli_output_before_corrupt_data_is_handed_over() {
        let text = b"data: {\"type\":\"RUN_STARTED\"}\n\n".repeat(20);
        let mut body = brotli_stored(&text);
        // A meta-block header with its reserved bit set: corrupt.
        body.push(0b0000_1110);
        for size in [1, 5, body.len()] {
            let (data, fault) = decode(Coding::Brotli, &body, size);
            assert_eq!(data, text, "{size}");
            assert_eq!(
                fault.unwrap().to_string(),
                format!(
                    "the br body does not decode (at byte {} of the br stream)",
                    body.len() - 1
                )
            );
        }
        // Ended (an empty last meta-block), then more bytes: a fault.
        let mut ended = brotli_stored(b"ok");
        ended.push(0b11);
        assert_eq!(decode(Coding::Brotli, &ended, 64), (b"ok".to_vec(), None));
        ended.push(0);
        assert!(
            decode(Coding::Brotli, &ended, 64)
                .1
                .unwrap()
                .what
                .contains("follow the end")
        );
    }

    #[test]
    fn a_stream_cut_short_is_a_fault_and_an_empty_body_is_not() {
        let body = flushed(Coding::Gzip, b"hello");
        let (data, fault) = decode(Coding::Gzip, &body, 3);
        assert_eq!(data, b"hello");
        assert!(fault.unwrap().what.contains("cut short"));
        assert_eq!(decode(Coding::Gzip, b"", 3), (Vec::new(), None));
    }

    #[test]
    fn raw_deflate_under_deflate_is_read_too() {
        let text = b"data: {\"type\":\"RUN_STARTED\"}\n\n".repeat(30);
        let mut e = flate2::write::DeflateEncoder::new(Vec::new(), Compression::default());
        e.write_all(&text).unwrap();
        let raw = e.finish().unwrap();
        let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
        z.write_all(&text).unwrap();
        let zlib = z.finish().unwrap();
        for body in [&raw, &zlib] {
            for size in [1, 2, 3, body.len()] {
                assert_eq!(
                    decode(Coding::Deflate, body, size),
                    (text.clone(), None),
                    "{size}"
                );
            }
        }
        // One byte, then the end: cut short.
        assert!(decode(Coding::Deflate, &raw[..1], 1).1.is_some());
        assert_eq!(decode(Coding::Deflate, b"", 1), (Vec::new(), None));
    }

    #[test]
    fn gzip_members_follow_each_other() {
        let mut body = Vec::new();
        for part in [&b"one "[..], b"two"] {
            let mut e = GzEncoder::new(Vec::new(), Compression::default());
            e.write_all(part).unwrap();
            body.extend(e.finish().unwrap());
        }
        assert_eq!(decode(Coding::Gzip, &body, 5), (b"one two".to_vec(), None));
    }

    #[test]
    fn output_comes_in_bounded_pieces() {
        let mut e = ZlibEncoder::new(Vec::new(), Compression::best());
        e.write_all(&vec![b'x'; 10 * PIECE_BYTES]).unwrap();
        let body = e.finish().unwrap();
        let mut d = Decoder::new(Coding::Deflate);
        let mut pieces = Vec::new();
        d.feed(&body, &mut |p| pieces.push(p.len())).unwrap();
        assert!(pieces.iter().all(|&n| n <= PIECE_BYTES));
        assert_eq!(pieces.iter().sum::<usize>(), 10 * PIECE_BYTES);
        assert!(d.finish().is_ok());
    }

    #[test]
    fn codings_are_named_case_blind() {
        assert_eq!(Coding::of(Some("GZip")), Coding::Gzip);
        assert_eq!(Coding::of(Some(" br ")), Coding::Brotli);
        assert_eq!(Coding::of(Some("gzip, br")), Coding::Identity);
        assert_eq!(Coding::of(Some("identity, gzip")), Coding::Gzip);
        assert_eq!(Coding::of(Some("br,identity")), Coding::Brotli);
        assert_eq!(Coding::of(Some("identity")), Coding::Identity);
        assert_eq!(Coding::of(None), Coding::Identity);
    }
}
