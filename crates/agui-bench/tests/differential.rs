//! The borrowed fast path (`Checker::push_line`) against the `Value` path
//! (`Checker::push` on a parsed value): the same violations (rule, index,
//! message, path) and the same projection, on every corpus case, on many
//! generated streams, and on many mutations of them (which send lines down
//! every fallback). Also: the writer's streams are valid, and the fast path
//! really is taken on them.

mod support;

use agui_model::{Checker, Report};
use serde_json::{Map, Value};
use support::{Rng, corpus_files, read_case, synth_stream};

/// The report of the `Value` path on lines.
fn by_values(lines: &[Vec<u8>], projection: bool) -> Report {
    let mut c = if projection {
        Checker::new()
    } else {
        Checker::without_projection()
    };
    for l in lines {
        match serde_json::from_slice::<Value>(l) {
            Ok(v) => c.push(&v),
            Err(e) => c.push_unparseable(&e.to_string()),
        }
    }
    c.finish()
}

/// The report of the fast path on the same lines, and how many lines it took.
fn by_lines(lines: &[Vec<u8>], projection: bool) -> (Report, usize) {
    let mut c = if projection {
        Checker::new()
    } else {
        Checker::without_projection()
    };
    let mut taken = 0;
    for l in lines {
        if c.try_push_line(l) {
            taken += 1;
        } else {
            c.push_line(l);
        }
    }
    (c.finish(), taken)
}

fn assert_same(lines: &[Vec<u8>], what: &str) -> usize {
    let mut taken = 0;
    for projection in [false, true] {
        let a = by_values(lines, projection);
        let (b, t) = by_lines(lines, projection);
        taken = t;
        assert_eq!(a.events, b.events, "{what}: event count");
        assert_eq!(
            serde_json::to_value(&a.violations).expect("serializes"),
            serde_json::to_value(&b.violations).expect("serializes"),
            "{what}: violations (projection {projection})"
        );
        assert_eq!(
            a.projection.map(|p| p.to_json()),
            b.projection.map(|p| p.to_json()),
            "{what}: projection"
        );
    }
    taken
}

fn to_lines(events: &[Value]) -> Vec<Vec<u8>> {
    events
        .iter()
        .map(|e| serde_json::to_vec(e).expect("serializes"))
        .collect()
}

#[test]
fn corpus_cases_report_the_same_through_both_paths() {
    let files = corpus_files();
    assert!(files.len() > 100, "corpus found: {}", files.len());
    let (mut cases, mut taken) = (0, 0);
    for f in &files {
        let case = read_case(f);
        // Raw-line cases (duplicate keys, lone surrogates) hold shapes a
        // `Value` cannot write back; the check_bytes fuzz target compares
        // the two paths on such bytes.
        let Some(Value::Array(events)) = case.get("events") else {
            continue;
        };
        let stream = to_lines(events);
        taken += assert_same(&stream, &f.display().to_string());
        cases += 1;
    }
    assert!(cases > 100);
    assert!(taken > 0, "the fast path was never taken on the corpus");
}

/// The large-stream writer's stream, one line an entry.
fn generated(seed: u64, events: usize, invocations: usize, runs: usize) -> Vec<Vec<u8>> {
    synth_stream(seed, events, invocations, runs)
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(<[u8]>::to_vec)
        .collect()
}

#[test]
fn generated_streams_are_valid_and_take_the_fast_path() {
    for seed in 0..20 {
        let lines = generated(seed, 3_000, 64, 3);
        let (report, taken) = by_lines(&lines, true);
        assert!(
            report.violations.is_empty(),
            "seed {seed}: {:?}",
            report.violations.first()
        );
        assert_eq!(report.projection.expect("projected").runs.len(), 3);
        // Only RUN_STARTED and RUN_FINISHED take the Value path here.
        assert_eq!(taken, lines.len() - 6, "seed {seed}");
        assert_same(&lines, &format!("seed {seed}"));
    }
}

/// Values a field may be replaced with: wrong types, nulls, other ids, odd
/// numbers and strings.
fn odd_value(rng: &mut Rng, lines: &[Vec<u8>]) -> Value {
    let borrowed = || -> Value {
        // An id or name from elsewhere in the stream.
        Value::from(format!("r0.s{}", lines.len() % 7))
    };
    match rng.below(14) {
        0 => Value::Null,
        1 => Value::from(7),
        2 => Value::from(1.5),
        3 => serde_json::json!([]),
        4 => serde_json::json!({}),
        5 => Value::from("tool"),
        6 => borrowed(),
        7 => Value::from("r0.m1"),
        8 => Value::from("\u{1F600} é \n \"q\""),
        9 => serde_json::json!({"type": "suspended", "interruptIds": ["i1"]}),
        10 => serde_json::json!([{"op": "remove", "path": "/nope"}]),
        11 => serde_json::json!([{"op": "add", "path": "/a~2", "value": 1}]),
        12 => Value::from(true),
        _ => Value::from("reasoning"),
    }
}

const KEYS: &[&str] = &[
    "type",
    "subagentRunId",
    "messageId",
    "toolCallId",
    "delta",
    "role",
    "name",
    "stepName",
    "outcome",
    "parentSubagentRunId",
    "toolCallName",
    "timestamp",
    "metadata",
    "rawEvent",
    "value",
    "result",
];

/// One random change to a stream.
fn mutate(rng: &mut Rng, lines: &mut Vec<Vec<u8>>) {
    let n = lines.len();
    let at = rng.below(n);
    match rng.below(10) {
        0 => {
            lines.remove(at);
        }
        1 => {
            let l = lines[at].clone();
            lines.insert(rng.below(n), l);
        }
        2 => lines.swap(at, rng.below(n)),
        3 => {
            // Raw text edits that JSON parsing sees.
            let l = &mut lines[at];
            match rng.below(6) {
                0 => l.truncate(l.len() / 2),
                1 => l.extend_from_slice(b" x"),
                2 => l
                    .splice(1..1, b"\"type\":\"CUSTOM\",".iter().copied())
                    .for_each(drop),
                3 => l
                    .splice(1..1, b"\"k\":1e999,".iter().copied())
                    .for_each(drop),
                4 => l
                    .splice(1..1, b"\"k\":\"\\ud800\",".iter().copied())
                    .for_each(drop),
                _ => l.insert(1, 0xff),
            }
        }
        _ => {
            let Ok(Value::Object(mut o)) = serde_json::from_slice::<Value>(&lines[at]) else {
                return;
            };
            let key = KEYS[rng.below(KEYS.len())];
            if rng.below(3) == 0 {
                o.remove(key);
            } else {
                o.insert(key.to_owned(), odd_value(rng, lines));
            }
            if rng.below(4) == 0 {
                // Move an event to another owner or to the parent.
                match o.get("subagentRunId") {
                    Some(_) => {
                        o.remove("subagentRunId");
                    }
                    None => {
                        o.insert("subagentRunId".to_owned(), Value::from("r0.s1"));
                    }
                }
            }
            lines[at] = serde_json::to_vec(&Value::Object(Map::from_iter(o))).expect("serializes");
        }
    }
}

#[test]
fn mutated_streams_report_the_same_through_both_paths() {
    let mut rng = Rng::new(42);
    let mut violations = 0usize;
    for seed in 0..150 {
        let base = generated(seed, 400 + seed as usize, 1 + seed as usize % 9, 2);
        let mut lines = base.clone();
        for _ in 0..1 + seed % 6 {
            mutate(&mut rng, &mut lines);
        }
        assert_same(&lines, &format!("mutated seed {seed}"));
        violations += by_values(&lines, false).violations.len();
    }
    assert!(
        violations > 100,
        "mutations produced {violations} violations"
    );
}

/// Raw text the scanner must judge exactly as serde_json does: whitespace,
/// escapes of every kind, numbers of every shape, broken syntax.
const SNIPPETS: &[&str] = &[
    " ",
    "\t",
    "\r",
    ",",
    ":",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "\\",
    "\\u00e9",
    "\\u0000",
    "\\uD83D\\uDE00",
    "\\ud800",
    "\\x",
    "\\/",
    "\u{1}",
    "\u{7f}",
    "é",
    "0",
    "-0",
    "01",
    "1.",
    ".5",
    "1e3",
    "-",
    "12345678901234567",
    "true",
    "nul",
    "null",
    "[[[[",
    "]]",
    ",\"k\":[1,{\"a\":null}]",
    ",\"k\":\"v\"",
    ",\"delta\":\"\\n\"",
    ",\"type\":\"RAW\"",
];

/// Bytes that are not UTF-8 (a stray continuation byte, an overlong, an
/// encoded surrogate, a cut sequence), and non-ASCII that is: the fast
/// scanner checks a line's UTF-8 only when it meets a non-ASCII byte.
const RAW_SNIPPETS: &[&[u8]] = &[
    b"\xff",
    b"\x80",
    b"\xc0\xaf",
    b"\xed\xa0\x80",
    b"\xe6\x97",
    b"\xf0\x9f\x8e\x89",
    b"\xe6\x97\xa5",
];

/// One random byte-level edit of one line.
fn edit_bytes(rng: &mut Rng, line: &mut Vec<u8>) {
    let at = rng.below(line.len() + 1);
    let n = rng.below(SNIPPETS.len() + RAW_SNIPPETS.len());
    let snippet = match SNIPPETS.get(n) {
        Some(s) => s.as_bytes(),
        None => RAW_SNIPPETS[n - SNIPPETS.len()],
    };
    match rng.below(3) {
        0 => line.splice(at..at, snippet.iter().copied()).for_each(drop),
        1 if at < line.len() => {
            let end = (at + 1 + rng.below(3)).min(line.len());
            line.splice(at..end, snippet.iter().copied()).for_each(drop);
        }
        _ if at < line.len() => {
            line.remove(at);
        }
        _ => line.extend_from_slice(snippet),
    }
}

#[test]
fn byte_edited_lines_report_the_same_through_both_paths() {
    let mut rng = Rng::new(7);
    let (mut taken, mut lines_seen) = (0usize, 0usize);
    for seed in 0..300 {
        let mut lines = generated(seed, 60, 1 + seed as usize % 5, 1);
        for _ in 0..1 + seed % 4 {
            let at = rng.below(lines.len());
            edit_bytes(&mut rng, &mut lines[at]);
        }
        taken += assert_same(&lines, &format!("byte-edited seed {seed}"));
        lines_seen += lines.len();
    }
    assert!(taken * 2 > lines_seen, "the fast path was rarely taken");
}

/// Every line the fast path takes is one serde_json parses, and a line
/// spelled with whitespace and escapes takes it as the compact one does.
#[test]
fn the_fast_path_reads_only_json_and_all_its_spellings() {
    let mut rng = Rng::new(11);
    for seed in 0..200 {
        for mut line in generated(seed, 40, 3, 1) {
            for _ in 0..3 {
                edit_bytes(&mut rng, &mut line);
                if agui_model::fast::parses(&line) {
                    assert!(
                        serde_json::from_slice::<Value>(&line).is_ok(),
                        "taken but not JSON: {}",
                        String::from_utf8_lossy(&line)
                    );
                }
            }
        }
    }
    for line in [
        r#" { "type" : "TEXT_MESSAGE_CONTENT" ,	"messageId":"m" , "delta" : "\u00e9\n" } "#,
        r#"{"type":"TEXT_MESSAGE_END","messageId":"\u006d","x":[1,-0.5,{"y":[true,false,null]}]}"#,
        r#"{"type":"SUBAGENT_FINISHED","subagentRunId":"s","outcome":{ "type" : "success" }}"#,
    ] {
        assert!(agui_model::fast::parses(line.as_bytes()), "{line}");
    }
}

#[test]
fn duplicate_keys_and_escapes_agree() {
    let lines: Vec<Vec<u8>> = [
        r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#,
        r#"{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"n"}"#,
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"s","subagentRunId":"x"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a\"b","subagentRunId":"s"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a","delta":5,"subagentRunId":"s"}"#,
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m\u0021","subagentRunId":"s"}"#,
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m","subagentRunId":"s","timestamp":9007199254740992}"#,
        r#"{"type":"STATE_DELTA","delta":[{"op":"test","path":"/x","value":1}]}"#,
        r#"{"type":"SUBAGENT_FINISHED","subagentRunId":"s","outcome":{"type":"success","interruptIds":["i"]}}"#,
        r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"#,
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    assert_same(&lines, "hand-written");
}

/// Reads `bytes` the way `agui-conform check` did before the fast path
/// (every item parsed by the reader) and the way it does now (lines offered
/// to `try_push_line` first), and returns both reports.
fn through_reader(bytes: &[u8], projection: bool) -> (Report, Report) {
    use agui_model::stream::{self, Item, ReadOptions};
    use std::cell::RefCell;
    use std::ops::ControlFlow;
    let new = || {
        if projection {
            Checker::new()
        } else {
            Checker::without_projection()
        }
    };
    let feed = |c: &mut Checker, item: Item| agui_model::check::push_item(c, item);
    let opts = ReadOptions::default();
    let mut slow = new();
    stream::read_stream(bytes, &opts, |item| {
        feed(&mut slow, item);
        ControlFlow::Continue(())
    })
    .expect("in memory");
    let fast = RefCell::new(new());
    stream::read_stream_with(
        bytes,
        &opts,
        |line, _| fast.borrow_mut().try_push_line(line),
        |item| {
            feed(&mut fast.borrow_mut(), item);
            ControlFlow::Continue(())
        },
    )
    .expect("in memory");
    (slow.finish(), fast.into_inner().finish())
}

#[test]
fn the_reader_hook_reports_the_same() {
    let lines = generated(3, 600, 5, 2);
    let mut rng = Rng::new(7);
    let mut variants: Vec<Vec<u8>> = Vec::new();
    for v in 0..40 {
        let mut body = lines.clone();
        for _ in 0..v % 4 {
            mutate(&mut rng, &mut body);
        }
        let mut bytes = Vec::new();
        if v % 5 == 0 {
            bytes.extend_from_slice(b"\xEF\xBB\xBF");
        }
        if v % 7 == 0 {
            bytes.extend_from_slice(b"[1, 2]\n");
        }
        for (i, l) in body.iter().enumerate() {
            bytes.extend_from_slice(l);
            bytes.extend_from_slice(if (i + v) % 3 == 0 { b"\r\n" } else { b"\n" });
            if (i + v) % 11 == 0 {
                bytes.extend_from_slice(b"   \n");
            }
        }
        if v % 2 == 0 {
            // No newline after the last line.
            bytes.truncate(bytes.len() - 1);
        }
        variants.push(bytes);
    }
    for (v, bytes) in variants.iter().enumerate() {
        for projection in [false, true] {
            let (a, b) = through_reader(bytes, projection);
            assert_eq!(a.events, b.events, "variant {v}");
            assert_eq!(
                serde_json::to_value(&a.violations).expect("serializes"),
                serde_json::to_value(&b.violations).expect("serializes"),
                "variant {v}"
            );
            assert_eq!(
                a.projection.map(|p| p.to_json()),
                b.projection.map(|p| p.to_json()),
                "variant {v}"
            );
        }
    }
}
