//! The parse-ahead pipeline (`Reading::ParseAhead`: a reader thread parses
//! lines while this one checks them) against reading on one thread: the
//! same report — violations, limit notices, counts, events, projection —
//! and the same findings and projected runs handed to the sinks in the same
//! order, on every corpus case, on generated streams of both writers, on
//! byte-edited streams (every fallback: broken lines, events outside runs,
//! escapes, CRLF, a byte order mark, a JSON array), and under small limits.
//! Every stream is read ahead three ways: lines handed over raw when the
//! checking thread is idle (the default, timing-dependent), no line raw,
//! and every line raw, so both of the checking thread's paths are covered
//! whatever the timing.

mod support;

use agui_model::check::{Reading, Shed, check_reader_ahead, check_reader_with};
use agui_model::{Checker, Finding, Limits, Report};
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;
use support::{Rng, corpus_files, many_runs, read_case, synth_stream};

/// Everything a check gives: the report and, from a second check with
/// sinks, the findings and projected runs in the order they came.
#[derive(Debug, PartialEq)]
struct Seen {
    report: String,
    findings: Vec<String>,
    runs: Vec<Value>,
}

fn summary(r: &Report) -> String {
    format!(
        "events {} counts {:?} violations {} limits {:?} projection {:?}",
        r.events,
        r.counts,
        serde_json::to_string(&r.violations).expect("serializes"),
        r.limits,
        r.projection.as_ref().map(|p| p.to_json()),
    )
}

/// How a test reads a stream.
#[derive(Debug, Clone, Copy)]
enum How {
    OneThread,
    Ahead(Shed),
}

fn read(bytes: &[u8], checker: Checker, how: How) -> Report {
    match how {
        How::OneThread => check_reader_with(bytes, checker, Reading::OneThread),
        How::Ahead(shed) => check_reader_ahead(bytes, checker, shed),
    }
    .expect("reading memory")
}

fn check(bytes: &[u8], limits: Limits, how: How) -> Seen {
    let kept = read(bytes, Checker::new().with_limits(limits), how);
    let findings = Rc::new(RefCell::new(Vec::new()));
    let runs = Rc::new(RefCell::new(Vec::new()));
    let (f, r) = (Rc::clone(&findings), Rc::clone(&runs));
    let checker = Checker::with_projection_sink(move |run| r.borrow_mut().push(run))
        .with_limits(limits)
        .with_sink(move |x: Finding<'_>| f.borrow_mut().push(format!("{x:?}")));
    let sunk = read(bytes, checker, how);
    Seen {
        report: format!("{} / sunk: {}", summary(&kept), summary(&sunk)),
        findings: findings.take(),
        runs: runs.take(),
    }
}

fn assert_same(bytes: &[u8], limits: Limits, what: &str) {
    let one = check(bytes, limits, How::OneThread);
    for shed in [Shed::WhenIdle, Shed::Never, Shed::Always] {
        let ahead = check(bytes, limits, How::Ahead(shed));
        assert_eq!(one, ahead, "{what}, shedding {shed:?}");
    }
}

fn limit_cases() -> Vec<(Limits, &'static str)> {
    vec![
        (Limits::default(), "default limits"),
        (
            Limits {
                line_bytes: 90,
                ..Limits::default()
            },
            "90-byte lines",
        ),
        (
            Limits {
                nesting: 3,
                ..Limits::default()
            },
            "nesting 3",
        ),
        (
            Limits {
                state_bytes: 40,
                ..Limits::default()
            },
            "40-byte state",
        ),
        (
            Limits {
                violations: 2,
                ..Limits::default()
            },
            "2 violations kept",
        ),
    ]
}

/// A corpus case's stream as JSON Lines: its raw lines when it has them,
/// else its events written one a line.
fn case_bytes(case: &Value) -> Option<Vec<u8>> {
    if let Some(Value::Array(lines)) = case.get("lines") {
        let mut out = Vec::new();
        for l in lines {
            out.extend_from_slice(l.as_str()?.as_bytes());
            out.push(b'\n');
        }
        return Some(out);
    }
    let Some(Value::Array(events)) = case.get("events") else {
        return None;
    };
    let mut out = Vec::new();
    for e in events {
        out.extend_from_slice(&serde_json::to_vec(e).ok()?);
        out.push(b'\n');
    }
    Some(out)
}

#[test]
fn corpus_cases_report_the_same_parsed_ahead() {
    let mut cases = 0;
    for f in &corpus_files() {
        let case = read_case(f);
        let Some(bytes) = case_bytes(&case) else {
            continue;
        };
        assert_same(&bytes, Limits::default(), &f.display().to_string());
        cases += 1;
    }
    assert!(cases > 100, "corpus cases: {cases}");
}

#[test]
fn generated_streams_report_the_same_parsed_ahead_under_every_limit() {
    // Longer than a batch (2,048 lines), so batches are handed over and
    // recycled.
    let streams = [
        synth_stream(3, 5_000, 64, 2),
        synth_stream(4, 2_500, 0, 5),
        many_runs(5, 5, 600),
    ];
    for (k, bytes) in streams.iter().enumerate() {
        for (limits, what) in limit_cases() {
            assert_same(bytes, limits, &format!("stream {k}, {what}"));
        }
    }
}

/// Bytes an edit inserts: broken syntax, escapes, control bytes, invalid
/// UTF-8, whitespace, line breaks (which split a line in two).
const SNIPPETS: &[&[u8]] = &[
    b"\"",
    b"\\u00e9",
    b"\\ud800",
    b"\x01",
    b"\xff\xfe",
    b" ",
    b"\r",
    b"\n",
    b",",
    b"}",
    b"[[[[[[",
    b"\"x\":1,",
    b"1e400",
];

/// A fast-path event with nothing around it: outside a run it takes the
/// `Value` path on one thread, and the fallback when parsed ahead.
const STRAY: &[u8] = b"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"zz\",\"delta\":\"d\"}\n";

fn edited(seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut bytes = if seed.is_multiple_of(2) {
        many_runs(seed, 4, 300)
    } else {
        synth_stream(seed, 1_500, 8, 3)
    };
    for _ in 0..1 + rng.below(12) {
        let at = rng.below(bytes.len());
        match rng.below(4) {
            0 => {
                let s = SNIPPETS[rng.below(SNIPPETS.len())];
                bytes.splice(at..at, s.iter().copied());
            }
            1 => {
                // A stray fast event at a line start (maybe between runs).
                let start = bytes[..at]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |i| i + 1);
                bytes.splice(start..start, STRAY.iter().copied());
            }
            2 => {
                let end = (at + 1 + rng.below(300)).min(bytes.len());
                bytes.drain(at..end);
            }
            _ => {
                // CRLF endings from here on.
                let tail: Vec<u8> = bytes[at..]
                    .iter()
                    .flat_map(|&b| {
                        if b == b'\n' {
                            vec![b'\r', b'\n']
                        } else {
                            vec![b]
                        }
                    })
                    .collect();
                bytes.truncate(at);
                bytes.extend(tail);
            }
        }
    }
    if rng.below(8) == 0 {
        bytes.splice(0..0, *b"\xEF\xBB\xBF");
    }
    bytes
}

#[test]
fn byte_edited_streams_report_the_same_parsed_ahead() {
    for seed in 0..30 {
        let bytes = edited(seed);
        let limits = limit_cases();
        let (l, what) = limits[seed as usize % limits.len()];
        assert_same(&bytes, l, &format!("edited seed {seed}, {what}"));
        assert_same(&bytes, Limits::default(), &format!("edited seed {seed}"));
    }
}

#[test]
fn arrays_empty_inputs_and_unterminated_last_lines_report_the_same() {
    let one_line = many_runs(9, 1, 60);
    let text = String::from_utf8(one_line.clone()).expect("utf-8");
    let array = format!("[{}]", text.trim_end().replace('\n', ",\n"));
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (Vec::new(), "empty"),
        (b"\n\n  \n".to_vec(), "blank"),
        (array.into_bytes(), "array"),
        (one_line[..one_line.len() - 1].to_vec(), "no final newline"),
        (
            one_line[..one_line.len() - 20].to_vec(),
            "truncated last line",
        ),
        (STRAY.repeat(5000), "only stray events"),
    ];
    for (bytes, what) in cases {
        for (limits, l) in limit_cases() {
            assert_same(&bytes, limits, &format!("{what}, {l}"));
        }
    }
}

/// Lines longer than a batch's text (256 KiB) and lines that just miss the
/// room left in it: the batch is sent before such a line and the next one
/// is made large enough, so every parsed event still reads its own text.
#[test]
fn lines_larger_than_a_batch_report_the_same() {
    let line = |id: &str, delta: &str| {
        format!(r#"{{"type":"TEXT_MESSAGE_CONTENT","messageId":"{id}","delta":"{delta}"}}"#)
    };
    let mut text = String::from(
        r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}
"#,
    );
    let mut content = String::new();
    // Sizes around the batch's capacity, a few times over, then a bad
    // escape in a long line (a line the checker's fast path refuses).
    for (i, n) in [1000, 200_000, 60_000, 300_000, 1_000_000, 5, 262_000]
        .iter()
        .enumerate()
    {
        let delta: String = (0..*n)
            .map(|k| (b'a' + ((k + i) % 26) as u8) as char)
            .collect();
        content.push_str(&delta);
        text.push_str(&line("m", &delta));
        text.push('\n');
    }
    text.push_str(&line("m", &format!("{}\\u12", "x".repeat(300_000))));
    text.push('\n');
    text.push_str(
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m"}
{"type":"RUN_FINISHED","threadId":"t","runId":"r"}
"#,
    );
    // From construction: the message is every delta in order, and the
    // line with the broken escape is the one violation (event 9).
    let seen = check(text.as_bytes(), Limits::default(), How::Ahead(Shed::Never));
    assert_eq!(seen.runs.len(), 1);
    assert_eq!(
        seen.runs[0]["messages"][0]["content"].as_str(),
        Some(content.as_str())
    );
    assert!(
        seen.report
            .contains(r#""rule":"schema.not-json","index":9,"#)
    );
    assert_same(
        text.as_bytes(),
        Limits::default(),
        "lines larger than a batch",
    );
}
