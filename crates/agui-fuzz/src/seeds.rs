//! Seed corpora and the dictionary, made from the golden corpus
//! (`corpus/`): what `seed-corpus` writes to `fuzz/seeds/<target>/` and
//! `fuzz/dictionaries/agui.dict`. (`fuzz/corpus/` is libFuzzer's working
//! corpus, git-ignored.)
//!
//! - `check_bytes`: each case's stream as JSON Lines (the cases' own bytes
//!   are pretty-printed case files; the stream is what the target reads);
//! - `roundtrip`: one event per distinct (type, field set) seen in the
//!   corpus, as `0x00` + the event's JSON (see [`crate::roundtrip`]);
//! - `valid_streams`, `invalid_streams`, `differential`, `patch`: their
//!   input drives a generator, not a stream, so their seeds are a few fixed
//!   pseudo-random byte strings of growing length;
//! - the dictionary: every event type name, every object key and every
//!   short string value seen in the corpus, plus the JSON Lines grammar.

use crate::seeded::{Rng, STRUCTURAL};
use agui_gen::names::{MESSAGE_ID, RUN_ID, STEP_NAME, SUBAGENT_RUN_ID, THREAD_ID};
use agui_model::EventType;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// One corpus case, as much of it as seeding needs.
#[derive(Debug, Clone)]
pub struct Case {
    pub id: String,
    /// The items as values (a `lines` case: each line as the checker's
    /// reader reads it).
    pub events: Vec<Value>,
    /// The raw stream of a `lines` case (duplicate keys, lone surrogates,
    /// huge numbers: the shapes a value cannot write back).
    pub lines: Option<Vec<String>>,
}

impl Case {
    /// The stream as the check_bytes target reads it.
    pub fn bytes(&self) -> Vec<u8> {
        match &self.lines {
            Some(lines) => agui_corpus::case::join_lines(lines).into_bytes(),
            None => jsonl(&self.events),
        }
    }
}

/// Every case file under `dir` (any `*.json` with an `id` and an `events`
/// array), sorted by id.
pub fn load_cases(dir: &Path) -> io::Result<Vec<Case>> {
    let mut files = Vec::new();
    walk(dir, &mut files)?;
    let mut cases = Vec::new();
    for f in files {
        let text = fs::read_to_string(&f)?;
        let Ok(v) = agui_corpus::load::parse_file(&text) else {
            continue;
        };
        let Some(id) = v["id"].as_str() else { continue };
        if let Some(events) = v["events"].as_array() {
            cases.push(Case {
                id: id.to_owned(),
                events: events.clone(),
                lines: None,
            });
        } else if let Some(lines) = v["lines"].as_array() {
            let lines: Vec<String> = lines
                .iter()
                .filter_map(|l| l.as_str().map(str::to_owned))
                .collect();
            let events = agui_corpus::case::read_lines(&lines)
                .into_iter()
                .filter_map(|item| match item {
                    agui_model::stream::Item::Value { value, .. } => Some(value),
                    _ => None,
                })
                .collect();
            cases.push(Case {
                id: id.to_owned(),
                events,
                lines: Some(lines),
            });
        }
    }
    cases.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(cases)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let p = entry?.path();
        if p.is_dir() {
            walk(&p, out)?;
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
    Ok(())
}

/// JSON Lines bytes of a stream.
pub fn jsonl(events: &[Value]) -> Vec<u8> {
    let mut out = Vec::new();
    for e in events {
        out.extend(e.to_string().into_bytes());
        out.push(b'\n');
    }
    out
}

/// File name of a case's seed: its id with `/` as `--`.
fn seed_name(id: &str, ext: &str) -> String {
    format!("{}.{ext}", id.replace('/', "--"))
}

/// The seeds of every target: target → (file name, bytes).
pub fn seeds(
    cases: &[Case],
    max_stream_bytes: usize,
) -> BTreeMap<&'static str, Vec<(String, Vec<u8>)>> {
    let mut out: BTreeMap<&'static str, Vec<(String, Vec<u8>)>> = BTreeMap::new();

    let streams = out.entry("check_bytes").or_default();
    for c in cases {
        let bytes = c.bytes();
        if bytes.len() <= max_stream_bytes {
            streams.push((seed_name(&c.id, "jsonl"), bytes));
        }
    }
    for (name, bytes) in hostile_seeds() {
        streams.push((format!("hostile-{name}.jsonl"), bytes));
    }

    // One event per (type, field set): the shapes the corpus uses.
    let mut shapes = BTreeSet::new();
    let events = out.entry("roundtrip").or_default();
    for c in cases {
        for e in &c.events {
            let Some(obj) = e.as_object() else { continue };
            let key = (
                obj.get("type").map(Value::to_string).unwrap_or_default(),
                obj.keys().cloned().collect::<Vec<_>>(),
            );
            if shapes.insert(key) {
                let mut bytes = vec![0u8];
                bytes.extend(e.to_string().into_bytes());
                events.push((format!("{:03}.json", events.len()), bytes));
            }
        }
    }

    for target in [
        "valid_streams",
        "invalid_streams",
        "differential",
        "patch",
        "body_decode",
    ] {
        let list = out.entry(target).or_default();
        let mut rng = Rng::new(0x5EED ^ target.len() as u64);
        for (i, len) in [16usize, 64, 256, 1024, 4096].into_iter().enumerate() {
            list.push((format!("seed-{i}-{len}.bin"), rng.bytes(len)));
        }
    }
    out
}

/// Shapes RFC 8259 allows and serde_json refuses, or that the checker
/// must survive: deep nesting (within and past a small limit the target
/// also checks under), lone surrogates split across deltas, numbers
/// outside a double, duplicate keys at the top and inside, `-0`.
pub fn hostile_seeds() -> Vec<(&'static str, Vec<u8>)> {
    let run = format!(r#"{{"type":"RUN_STARTED","{THREAD_ID}":"t","{RUN_ID}":"r"}}"#);
    let fin = format!(r#"{{"type":"RUN_FINISHED","{THREAD_ID}":"t","{RUN_ID}":"r"}}"#);
    let deep = |n: usize| "[".repeat(n) + &"]".repeat(n);
    let lines = |body: &[String]| {
        let mut text = format!("{run}\n");
        for l in body {
            text.push_str(l);
            text.push('\n');
        }
        text.push_str(&fin);
        text.push('\n');
        text.into_bytes()
    };
    vec![
        (
            "deep-state",
            lines(&[format!(
                r#"{{"type":"STATE_SNAPSHOT","snapshot":{{"d":{}}}}}"#,
                deep(40)
            )]),
        ),
        ("deep-line", format!("{}\n{}\n", deep(300), deep(20)).into_bytes()),
        (
            "split-surrogates",
            lines(&[
                format!(r#"{{"type":"TEXT_MESSAGE_START","{MESSAGE_ID}":"m","role":"assistant"}}"#),
                format!(r#"{{"type":"TEXT_MESSAGE_CONTENT","{MESSAGE_ID}":"m","delta":"a\ud83d"}}"#),
                format!(r#"{{"type":"TEXT_MESSAGE_CONTENT","{MESSAGE_ID}":"m","delta":"\ude00b"}}"#),
                format!(r#"{{"type":"TEXT_MESSAGE_CONTENT","{MESSAGE_ID}":"m","delta":"\udc00"}}"#),
                format!(r#"{{"type":"TEXT_MESSAGE_END","{MESSAGE_ID}":"m"}}"#),
            ]),
        ),
        (
            "lone-surrogate-ids",
            lines(&[
                format!(r#"{{"type":"TEXT_MESSAGE_START","{MESSAGE_ID}":"\ud800","{SUBAGENT_RUN_ID}":"\udbff"}}"#),
                format!(r#"{{"type":"TEXT_MESSAGE_END","{MESSAGE_ID}":"\ud800","{SUBAGENT_RUN_ID}":"\udbfe"}}"#),
            ]),
        ),
        (
            "huge-numbers",
            lines(&[
                r#"{"type":"STATE_SNAPSHOT","snapshot":{"n":1e400,"m":-1E-400,"z":-0,"i":123456789012345678901234567890}}"#.into(),
                r#"{"type":"STATE_DELTA","delta":[{"op":"test","path":"/n","value":1e400},{"op":"copy","from":"/n","path":"/k"}]}"#.into(),
                format!(r#"{{"type":"STEP_STARTED","{STEP_NAME}":"s","timestamp":1e400}}"#),
                format!(r#"{{"type":"STEP_FINISHED","{STEP_NAME}":"s"}}"#),
            ]),
        ),
        (
            "duplicate-keys",
            lines(&[
                format!(r#"{{"type":"TEXT_MESSAGE_START","{MESSAGE_ID}":"m","{SUBAGENT_RUN_ID}":"s1"}}"#),
                format!(r#"{{"type":"TEXT_MESSAGE_CONTENT","{MESSAGE_ID}":"m","delta":"x","{SUBAGENT_RUN_ID}":"s2","{SUBAGENT_RUN_ID}":"s1"}}"#),
                format!(r#"{{"type":"TEXT_MESSAGE_END","{MESSAGE_ID}":"m","x":{{"a":1,"a":2}},"x":3}}"#),
                r#"{"type":"STATE_SNAPSHOT","snapshot":{"k":1,"\u006b":2}}"#.into(),
            ]),
        ),
        (
            "root-patches",
            lines(&[
                r#"{"type":"STATE_DELTA","delta":[{"op":"copy","from":"","path":"/a"},{"op":"move","from":"/a","path":""},{"op":"remove","path":"/nope"}]}"#.into(),
                r#"{"type":"STATE_DELTA","delta":[{"op":"copy","from":"","path":"/a"},{"op":"copy","from":"","path":"/b"},{"op":"copy","from":"","path":"/c"},{"op":"copy","from":"","path":"/d"}]}"#.into(),
            ]),
        ),
    ]
}

/// Writes `seeds` under `dir/<target>/`, replacing files of the same name
/// (other files, such as libFuzzer's own finds, are left alone).
pub fn write_seeds(
    dir: &Path,
    seeds: &BTreeMap<&'static str, Vec<(String, Vec<u8>)>>,
) -> io::Result<usize> {
    let mut n = 0;
    for (target, files) in seeds {
        let d = dir.join(target);
        fs::create_dir_all(&d)?;
        for (name, bytes) in files {
            fs::write(d.join(name), bytes)?;
            n += 1;
        }
    }
    Ok(n)
}

/// A libFuzzer dictionary entry: `"..."` with `\\`, `\"` and non-printable
/// bytes as `\xNN`.
fn dict_entry(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for &b in bytes {
        match b {
            b'\\' => s.push_str("\\\\"),
            b'"' => s.push_str("\\\""),
            0x20..=0x7e => s.push(b as char),
            _ => s.push_str(&format!("\\x{b:02X}")),
        }
    }
    s.push('"');
    s
}

fn collect(v: &Value, keys: &mut BTreeSet<String>, strings: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                keys.insert(k.clone());
                collect(x, keys, strings);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| collect(x, keys, strings)),
        Value::String(s) if s.len() <= 24 => {
            strings.insert(s.clone());
        }
        _ => {}
    }
}

/// The dictionary text (libFuzzer / AFL format).
pub fn dictionary(cases: &[Case]) -> String {
    let mut keys = BTreeSet::new();
    let mut strings = BTreeSet::new();
    for c in cases {
        c.events
            .iter()
            .for_each(|e| collect(e, &mut keys, &mut strings));
    }
    let mut out = String::from(
        "# agui-conform fuzz dictionary: written by `cargo run -p agui-fuzz --bin seed-corpus`\n\
         # from corpus/; do not edit by hand.\n\n# The JSON Lines grammar.\n",
    );
    let grammar: [&[u8]; 8] = [
        b"\n",
        b"\r\n",
        b"null",
        b"true",
        b"false",
        b"\xEF\xBB\xBF",
        b"{\"type\":\"",
        b"\":\"",
    ];
    for t in STRUCTURAL.iter().chain(&grammar) {
        out.push_str(&dict_entry(t));
        out.push('\n');
    }
    out.push_str("\n# RFC 8259 shapes serde_json refuses, and repeated keys.\n");
    let shapes: [&[u8]; 12] = [
        b"\\ud83d",
        b"\\ude00",
        b"\\udbff",
        b"\\u0061",
        b"1e400",
        b"-1E+999",
        b"-0",
        b"123456789012345678901234567890",
        b"[[[[[[[[[[[[[[[[",
        b"]]]]]]]]]]]]]]]]",
        b"\"subagentRunId\":\"s1\",\"subagentRunId\":",
        b"{\"op\":\"copy\",\"from\":\"\",\"path\":\"",
    ];
    for t in shapes {
        out.push_str(&dict_entry(t));
        out.push('\n');
    }
    out.push_str("\n# Event types.\n");
    for t in EventType::ALL {
        out.push_str(&dict_entry(format!("\"{}\"", t.as_str()).as_bytes()));
        out.push('\n');
    }
    out.push_str("\n# Field names seen in corpus/.\n");
    for k in &keys {
        out.push_str(&dict_entry(format!("\"{k}\":").as_bytes()));
        out.push('\n');
    }
    out.push_str("\n# Short string values seen in corpus/ (ids, roles, enum values).\n");
    let types: BTreeSet<&str> = EventType::ALL.iter().map(|t| t.as_str()).collect();
    for s in strings
        .iter()
        .filter(|s| !types.contains(s.as_str()) && !keys.contains(*s))
    {
        out.push_str(&dict_entry(format!("\"{s}\"").as_bytes()));
        out.push('\n');
    }
    out
}
