//! Events that arrive before a transport fault are received (docs/rules.md
//! "Transport rules", revision 3): each is checked and counted before the
//! fault is reported, whether it came in the same read as the fault or
//! earlier. One body is cut at every byte offset and followed by each kind
//! of fault, written in one piece by a raw loopback server (so the fault
//! comes in the same read as the bytes before it): a malformed chunk-size
//! line, chunk data not followed by CRLF, a chunked body cut short, a
//! corrupt gzip / deflate / br stream, and a reset.
//!
//! Expected answers: the events whose blank line lies before the cut are
//! exactly those received, with the violations the checker finds in them
//! offline; then `transport.ended-early` at the number of events when the
//! run had not ended (instead of `run.unterminated`), and nothing when it
//! had.

mod support;

use agui_live::{Limits, Options, check_url};
use agui_model::{Checker, RuleId};
use flate2::Compression;
use flate2::write::{GzEncoder, ZlibEncoder};
use serde_json::{Value, json};
use std::io::Write;
use std::time::Duration;
use support::raw::{RawEnd, RawReply, RawServer, head};
use support::rules;
use support::server::sse_body;

fn events() -> Vec<Value> {
    vec![
        json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"}),
        // Not open: `text.not-open` at 1, the violation a lost read hid.
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m9", "delta": "x"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hello"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m1"}),
        json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"}),
    ]
}

/// The faults, by the name the server is asked for in the URL's path.
const FAULTS: [&str; 7] = [
    "chunk-size",
    "chunk-crlf",
    "chunk-cut",
    "gzip",
    "deflate",
    "br",
    "reset",
];

/// `data` compressed and flushed (byte-aligned), then a deflate block of
/// the reserved type 3: corrupt from there on.
fn corrupt_flate(gzip: bool, data: &[u8]) -> Vec<u8> {
    let mut out = if gzip {
        let mut e = GzEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).unwrap();
        e.flush().unwrap();
        e.get_ref().clone()
    } else {
        let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
        e.write_all(data).unwrap();
        e.flush().unwrap();
        e.get_ref().clone()
    };
    out.push(0x07);
    out
}

/// `data` as a brotli stream of one uncompressed meta-block (WBITS 16,
/// ISLAST 0, MNIBBLES 4, MLEN-1, ISUNCOMPRESSED), then a meta-block header
/// whose reserved bit is set: corrupt from there on.
fn corrupt_brotli(data: &[u8]) -> Vec<u8> {
    let mut out = if data.is_empty() {
        // WBITS 16 (bit 0), then ISLAST 0, MNIBBLES 0 (code 3), reserved 1.
        vec![0b0001_1100]
    } else {
        let header = (((data.len() - 1) as u32) << 4) | (1 << 20);
        let mut v = header.to_le_bytes()[..3].to_vec();
        v.extend_from_slice(data);
        // ISLAST 0, MNIBBLES 0 (code 3), reserved 1.
        v.push(0b0000_1110);
        v
    };
    out.shrink_to_fit();
    out
}

/// What the server sends for `fault` after the first `k` bytes of `body`.
fn reply(fault: &str, body: &[u8], k: usize) -> RawReply {
    let part = &body[..k];
    let chunk = |data: &[u8]| {
        let mut c = format!("{:x}\r\n", data.len()).into_bytes();
        c.extend_from_slice(data);
        c
    };
    let (headers, payload, end): (&[&str], Vec<u8>, RawEnd) = match fault {
        "chunk-size" => {
            let mut p = if k > 0 { chunk(part) } else { Vec::new() };
            if k > 0 {
                p.extend_from_slice(b"\r\n");
            }
            p.extend_from_slice(b"zz\r\nmore");
            (&["Transfer-Encoding: chunked"], p, RawEnd::Close)
        }
        "chunk-crlf" => {
            let mut p = chunk(part);
            p.extend_from_slice(b"XY0\r\n\r\n");
            (&["Transfer-Encoding: chunked"], p, RawEnd::Close)
        }
        "chunk-cut" => {
            // Announces more than it sends, then closes cleanly.
            let mut p = format!("{:x}\r\n", k + 10).into_bytes();
            p.extend_from_slice(part);
            (&["Transfer-Encoding: chunked"], p, RawEnd::Close)
        }
        "gzip" => (
            &["Content-Encoding: gzip"],
            corrupt_flate(true, part),
            RawEnd::Close,
        ),
        "deflate" => (
            &["Content-Encoding: deflate"],
            corrupt_flate(false, part),
            RawEnd::Close,
        ),
        "br" => (
            &["Content-Encoding: br"],
            corrupt_brotli(part),
            RawEnd::Close,
        ),
        "reset" => (&[], part.to_vec(), RawEnd::Reset),
        other => panic!("unknown fault {other}"),
    };
    let mut bytes = head(headers);
    bytes.extend_from_slice(&payload);
    RawReply { bytes, end }
}

/// (rule, index) expected for the first `n` events followed by a fault.
fn expected(events: &[Value], n: usize) -> Vec<(RuleId, usize)> {
    let mut c = Checker::without_projection();
    for e in &events[..n] {
        c.push(e);
    }
    let ended = c.run_ended();
    let mut want: Vec<(RuleId, usize)> = c
        .finish()
        .violations
        .iter()
        .filter(|v| v.rule != RuleId::RunUnterminated)
        .map(|v| (v.rule, v.index))
        .collect();
    if !ended {
        want.push((RuleId::TransportEndedEarly, n));
    }
    want
}

#[test]
fn events_before_a_fault_are_received_at_every_cut() {
    let events = events();
    let body = sse_body(&events);
    // Where each event's blank line ends: it is received from there on.
    let mut ends = Vec::new();
    let mut at = 0;
    for e in &events {
        at += sse_body(std::slice::from_ref(e)).len();
        ends.push(at);
    }
    let served = body.clone();
    let server = RawServer::start(move |path| {
        let (fault, k) = path.split_once('/').unwrap();
        reply(fault, &served, k.parse().unwrap())
    });
    let opts = Options {
        limits: Limits {
            total: Duration::from_secs(20),
            idle: Duration::from_secs(10),
        },
        ..Options::default()
    };
    let input = agui_live::input::default_input();
    let mut checked = 0;
    for fault in FAULTS {
        // A chunk needs data before its CRLF can be wrong.
        let from = usize::from(fault == "chunk-crlf");
        for k in from..=body.len() {
            let n = ends.iter().filter(|&&e| e <= k).count();
            let url = server.url(&format!("{fault}/{k}"));
            let run = check_url(&url, &input, &opts, None, &mut |_| {}).unwrap();
            let want = expected(&events, n);
            assert_eq!(run.report.events, n, "{fault} cut at {k}");
            assert_eq!(rules(&run), want, "{fault} cut at {k}");
            assert_eq!(run.failure, None, "{fault} cut at {k}");
            checked += 1;
        }
    }
    assert_eq!(checked, FAULTS.len() * (body.len() + 1) - 1);
}

#[test]
fn the_fault_says_what_broke() {
    let body = sse_body(&events()[..2]);
    let served = body.clone();
    let server = RawServer::start(move |fault| reply(fault, &served, served.len()));
    let input = agui_live::input::default_input();
    for (fault, says) in [
        (
            "chunk-size",
            "chunk-size line `zz\\r\\n` is not a hexadecimal size",
        ),
        ("chunk-crlf", "followed by `X`, not CRLF"),
        ("chunk-cut", "closed before the chunked body's last chunk"),
        ("gzip", "the gzip body does not decode"),
        ("deflate", "the deflate body does not decode"),
        ("br", "the br body does not decode"),
        ("reset", "reset"),
    ] {
        let run = check_url(
            &server.url(fault),
            &input,
            &Options::default(),
            None,
            &mut |_| {},
        )
        .unwrap();
        let last = run.report.violations.last().unwrap();
        assert_eq!(
            (last.rule, last.index),
            (RuleId::TransportEndedEarly, 2),
            "{fault}"
        );
        assert!(last.message.contains(says), "{fault}: {}", last.message);
    }
}
