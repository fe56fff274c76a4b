//! `check` on saved SSE bodies (detected or forced with `--input-format`)
//! and the single-check outputs (`--format sarif`, `--junit`).
//!
//! Expected answers: RULES.md revision 2 "Transport rules" (a line a client
//! ignores is `transport.framing` where the lost event would be; an event
//! not closed by a blank line is `transport.unterminated-event`), SARIF
//! 2.1.0's required structure, and the streams as written here.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_agui-conform");

const START: &str = r#"{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}"#;
const FINISH: &str = r#"{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}"#;

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn scratch(name: &str, body: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_outputs");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    p
}

fn violations(out: &Output) -> Vec<(String, u64)> {
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["rule"].as_str().unwrap().to_owned(),
                x["index"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_saved_sse_body_is_detected_and_checked_as_events() {
    let body = format!(": ping\ndata: {START}\n\nevent: x\ndata: {FINISH}\n\n");
    let p = scratch("ok.sse", &body);
    let out = run(&["check", p.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(violations(&out), []);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["events"], 2);
}

#[test]
fn a_capture_gets_the_transport_rules_that_need_no_clock() {
    // A JSON line without `data:` (lost where event 1 would be), then the
    // finish left without its closing blank line (discarded: the run never
    // ends).
    let body = format!(
        "data: {START}\n\n{{\"type\":\"STEP_STARTED\",\"stepName\":\"s\"}}\n\ndata: {FINISH}\n"
    );
    let p = scratch("bad.sse", &body);
    let out = run(&["check", p.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(
        violations(&out),
        [
            ("transport.framing".to_owned(), 1),
            ("transport.unterminated-event".to_owned(), 1),
            ("run.unterminated".to_owned(), 1)
        ]
    );
}

#[test]
fn input_format_forces_the_reading() {
    let body = format!("data: {START}\n\ndata: {FINISH}\n\n");
    let p = scratch("forced.sse", &body);
    // Forced JSON Lines: every non-blank line is not JSON, with a hint.
    let out = run(&[
        "check",
        p.to_str().unwrap(),
        "--format",
        "json",
        "--input-format",
        "jsonl",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        violations(&out),
        [
            ("schema.not-json".to_owned(), 0),
            ("schema.not-json".to_owned(), 1)
        ]
    );
    assert!(text(&out.stderr).contains("--input-format sse"));
    // JSON Lines forced to SSE: no line is a field a client keeps.
    let p = scratch("lines.jsonl", &format!("{START}\n{FINISH}\n"));
    let out = run(&[
        "check",
        p.to_str().unwrap(),
        "--format",
        "json",
        "--input-format",
        "sse",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(violations(&out)[0], ("transport.framing".to_owned(), 0));
    // Plain JSON Lines are still read as JSON by default.
    let out = run(&["check", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}
