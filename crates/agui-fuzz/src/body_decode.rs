//! Target `body_decode`: an HTTP response body as a live check reads it —
//! its framing (chunked, a `Content-Length`, up to the close), then its
//! content coding (identity, gzip, deflate, br) — cut into reads at
//! arbitrary offsets, with a fault anywhere.
//!
//! Invariants (a broken one panics):
//! - decoding never panics, whatever the bytes;
//! - **the reads do not matter**: every byte decoded before a fault, and
//!   the fault itself, are the same however the body was cut into reads
//!   (one read, one byte at a time, or the cuts the input names), so the
//!   events that arrive with a fault are checked before it whatever the
//!   network did (docs/rules.md "Transport rules");
//! - a body made whole (chunked framing of a compressed payload) decodes
//!   to exactly its payload, and a body cut short or corrupted decodes to a
//!   prefix of it.

use agui_live::encoding::{Coding, Decoder};
use agui_live::transfer::{Fault, Framing, Transfer};
use arbitrary::{Arbitrary, Unstructured};
use std::io::Write;

/// One fuzz case.
#[derive(Debug)]
pub struct Case {
    pub framing: Framing,
    pub coding: Coding,
    /// The body as sent.
    pub body: Vec<u8>,
    /// What the body decodes to when it is whole (built here), if known.
    pub payload: Option<Vec<u8>>,
    /// Read sizes, used in turn.
    pub cuts: Vec<usize>,
}

/// What a whole decode gave: the bytes before the fault, and the fault.
#[derive(Debug, PartialEq, Eq)]
pub struct Decoded {
    pub bytes: Vec<u8>,
    pub fault: Option<Fault>,
}

/// Decodes `body` in reads of the sizes `cuts` gives (cycling; a zero
/// means one byte), then ends the connection cleanly.
pub fn decode(framing: Framing, coding: Coding, body: &[u8], cuts: &[usize]) -> Decoded {
    let mut transfer = Transfer::new(framing);
    let mut decoder = Decoder::new(coding);
    let mut bytes = Vec::new();
    let mut fault = None;
    let mut rest = body;
    let mut k = 0;
    while !rest.is_empty() && fault.is_none() && !transfer.done() {
        let n = cuts
            .get(k % cuts.len().max(1))
            .copied()
            .unwrap_or(usize::MAX);
        k += 1;
        let (read, after) = rest.split_at(n.max(1).min(rest.len()));
        rest = after;
        let mut inner = None;
        let framed = transfer.feed(read, &mut |data| {
            if inner.is_none()
                && let Err(e) = decoder.feed(data, &mut |out| bytes.extend_from_slice(out))
            {
                inner = Some(e);
            }
        });
        fault = inner.or(framed.err());
    }
    if fault.is_none() {
        fault = transfer.finish().err().or_else(|| decoder.finish().err());
    }
    Decoded { bytes, fault }
}

/// Builds a case from fuzzer bytes: a payload, compressed and framed as
/// the input says, then perhaps cut short or with a byte changed; or, one
/// time in four, raw bytes as the body.
pub fn case(u: &mut Unstructured<'_>) -> arbitrary::Result<Case> {
    let coding = *u.choose(&[
        Coding::Identity,
        Coding::Gzip,
        Coding::Deflate,
        Coding::Brotli,
    ])?;
    let chunked = u.ratio(2, 3)?;
    let cuts: Vec<usize> = (0..u.int_in_range(1..=8)?)
        .map(|_| u.int_in_range(0..=64))
        .collect::<arbitrary::Result<_>>()?;
    if u.ratio(1, 4)? {
        let body = Vec::<u8>::arbitrary(u)?;
        let framing = if chunked {
            Framing::Chunked
        } else {
            Framing::Length(u.int_in_range(0..=body.len() as u64 + 4)?)
        };
        return Ok(Case {
            framing,
            coding,
            body,
            payload: None,
            cuts,
        });
    }
    let payload = Vec::<u8>::arbitrary(u)?;
    let encoded = encode(coding, &payload);
    let mut body = Vec::new();
    let framing = if chunked {
        let mut at = 0;
        while at < encoded.len() {
            let n = usize::from(u.int_in_range(1u8..=40)?).min(encoded.len() - at);
            let ext = if u.ratio(1, 8)? { ";x=y" } else { "" };
            body.extend_from_slice(format!("{n:X}{ext}\r\n").as_bytes());
            body.extend_from_slice(&encoded[at..at + n]);
            body.extend_from_slice(b"\r\n");
            at += n;
        }
        body.extend_from_slice(b"0\r\n\r\n");
        Framing::Chunked
    } else {
        body.extend_from_slice(&encoded);
        Framing::Length(encoded.len() as u64)
    };
    // A fault: cut short, or one byte changed.
    let whole = match u.int_in_range(0u8..=3)? {
        0 if !body.is_empty() => {
            let at = u.choose_index(body.len())?;
            body.truncate(at);
            false
        }
        1 if !body.is_empty() => {
            let at = u.choose_index(body.len())?;
            body[at] ^= u.int_in_range(1u8..=255)?;
            false
        }
        _ => true,
    };
    Ok(Case {
        framing,
        coding,
        body,
        payload: Some(payload).filter(|_| whole),
        cuts,
    })
}

/// `payload` in `coding`, as a server would send it.
fn encode(coding: Coding, payload: &[u8]) -> Vec<u8> {
    use flate2::Compression;
    match coding {
        Coding::Identity | Coding::Brotli => payload.to_vec(),
        Coding::Gzip => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), Compression::fast());
            let _ = e.write_all(payload);
            e.finish().unwrap_or_default()
        }
        Coding::Deflate => {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), Compression::fast());
            let _ = e.write_all(payload);
            e.finish().unwrap_or_default()
        }
    }
}

/// The target.
pub fn run(bytes: &[u8]) {
    let mut u = Unstructured::new(bytes);
    let Ok(mut c) = case(&mut u) else {
        return;
    };
    if c.coding == Coding::Brotli && c.payload.is_some() {
        // No brotli encoder here: a made-up body is raw bytes to decode.
        c.payload = None;
    }
    let one = decode(c.framing, c.coding, &c.body, &[usize::MAX]);
    let bytewise = decode(c.framing, c.coding, &c.body, &[1]);
    let cut = decode(c.framing, c.coding, &c.body, &c.cuts);
    assert_eq!(
        one, bytewise,
        "one read and byte-by-byte reads disagree: {c:?}"
    );
    assert_eq!(one, cut, "one read and the input's reads disagree: {c:?}");
    if let Some(payload) = &c.payload {
        assert_eq!(one.fault, None, "a whole body is a fault: {c:?}");
        assert_eq!(
            &one.bytes, payload,
            "a whole body decodes to another payload"
        );
    }
}
