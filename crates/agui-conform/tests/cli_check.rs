//! `agui-conform check`, run as a user runs it: the built binary, files and
//! standard input, exit statuses and both output forms.
//!
//! Expected answers come from docs/rules.md: a first event without `type` is
//! `schema.unknown-type` at index 0, a stream item that is not a JSON object
//! (or not JSON at all) is `schema.not-json`, `subagentRunId` on
//! `RUN_STARTED` is the warning `attribution.not-attributable` (accepted).

use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_agui-conform");

/// A valid stream: one run with one whole assistant message.
const VALID: &str = r#"{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}
{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hello"}
{"type":"TEXT_MESSAGE_END","messageId":"m1"}
{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}
"#;

const RUN_STARTED: &str = r#"{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}"#;
const RUN_FINISHED: &str = r#"{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}"#;

/// Writes `bytes` to a file of its own under the test scratch directory.
fn file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_check");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Runs the binary with `args`, feeding `stdin` (empty when `None`).
fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.unwrap_or_default();
    std::thread::scope(|scope| {
        // Written from a thread of its own (borrowing, not copying, the
        // input) while this one collects the output.
        scope.spawn(move || {
            // The child may stop reading early; a broken pipe is not our failure.
            let _ = pipe.write_all(input);
        });
        child.wait_with_output().unwrap()
    })
}

fn check_file(name: &str, bytes: &[u8], extra: &[&str]) -> Output {
    let path = file(name, bytes);
    let mut args = vec!["check", path.to_str().unwrap()];
    args.extend_from_slice(extra);
    run(&args, None)
}

/// Stdout must be exactly one JSON object (one line).
fn one_json_object(out: &Output) -> Value {
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(text.lines().count(), 1, "one line of output: {text}");
    let value: Value = serde_json::from_str(&text).unwrap();
    assert!(value.is_object(), "{value}");
    value
}

fn json_report(name: &str, bytes: &[u8]) -> (i32, Value) {
    let out = check_file(name, bytes, &["--format", "json"]);
    (out.status.code().unwrap(), one_json_object(&out))
}

/// `(rule, index)` of every violation.
fn rules_at(report: &Value) -> Vec<(String, u64)> {
    report["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["rule"].as_str().unwrap().to_string(),
                v["index"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn valid_stream_is_accepted_with_exit_0() {
    let (code, report) = json_report("valid.jsonl", VALID.as_bytes());
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["verdict"], "accept");
    assert_eq!(report["violations"], Value::Array(vec![]));
    assert!(report["projection"].is_object());
}

#[test]
fn unknown_first_event_is_rejected_with_exit_1() {
    let input = format!("{{\"foo\":1}}\n{RUN_STARTED}\n");
    let (code, report) = json_report("unknown-type.jsonl", input.as_bytes());
    assert_eq!(code, 1, "{report}");
    assert_eq!(report["verdict"], "reject");
    assert_eq!(rules_at(&report)[0], ("schema.unknown-type".to_string(), 0));
}

#[test]
fn json_output_has_the_documented_keys() {
    let (_, report) = json_report("keys.jsonl", b"{\"foo\":1}\n");
    let keys: Vec<&str> = report
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    for key in ["verdict", "violations", "projection"] {
        assert!(keys.contains(&key), "{key} missing: {report}");
    }
    let first = &report["violations"][0];
    assert_eq!(first["rule"], "schema.unknown-type");
    assert_eq!(first["index"], 0);
    assert_eq!(first["severity"], "error");
    assert_eq!(first["obligation"], "must-reject");
    assert!(first["message"].as_str().is_some_and(|m| !m.is_empty()));
}

#[test]
fn warnings_alone_leave_the_stream_accepted() {
    let input = format!(
        "{}\n{RUN_FINISHED}\n",
        r#"{"type":"RUN_STARTED","threadId":"t1","runId":"r1","subagentRunId":"s"}"#
    );
    let (code, report) = json_report("warning.jsonl", input.as_bytes());
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["verdict"], "accept");
    let first = &report["violations"][0];
    assert_eq!(first["rule"], "attribution.not-attributable");
    assert_eq!(first["index"], 0);
    assert_eq!(first["severity"], "warning");
}

#[test]
fn no_projection_leaves_it_out() {
    let out = check_file(
        "no-projection.jsonl",
        VALID.as_bytes(),
        &["--format", "json", "--no-projection"],
    );
    let report = one_json_object(&out);
    assert!(report.get("projection").is_none(), "{report}");
    assert_eq!(report["verdict"], "accept");
}

#[test]
fn missing_file_is_exit_2_with_a_message() {
    let out = run(&["check", "/nonexistent/stream.jsonl"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot open /nonexistent/stream.jsonl"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn a_directory_is_exit_2() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let out = run(&["check", dir.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("is a directory"), "{}", stderr(&out));
}

#[test]
fn usage_errors_are_exit_2() {
    assert_eq!(
        run(&["check", "--format", "yaml"], None).status.code(),
        Some(2)
    );
    assert_eq!(
        run(&["check", "--no-such-flag"], None).status.code(),
        Some(2)
    );
    let both = run(&["check", "--projection", "--no-projection"], Some(b""));
    assert_eq!(both.status.code(), Some(2));
}

#[test]
fn json_array_input_equals_json_lines_input() {
    let events: Vec<&str> = VALID.lines().collect();
    let pretty = format!("[\n  {}\n]\n", events.join(",\n  "));
    let lines = json_report("same.jsonl", VALID.as_bytes());
    let array = json_report("same-pretty.json", pretty.as_bytes());
    let one_line = json_report(
        "same-one-line.json",
        format!("[{}]", events.join(",")).as_bytes(),
    );
    assert_eq!(lines, array);
    assert_eq!(lines, one_line);

    let bad = format!("{{\"foo\":1}}\n{RUN_STARTED}\n42\n");
    let bad_array = format!("[{{\"foo\":1}}, {RUN_STARTED}, 42]");
    assert_eq!(
        json_report("bad.jsonl", bad.as_bytes()),
        json_report("bad.json", bad_array.as_bytes())
    );
}

#[test]
fn stdin_is_read_by_default_and_with_a_dash() {
    let from_file = json_report("stdin.jsonl", VALID.as_bytes());
    for args in [
        &["check", "--format", "json"][..],
        &["check", "-", "--format", "json"][..],
    ] {
        let out = run(args, Some(VALID.as_bytes()));
        assert_eq!(
            (out.status.code().unwrap(), one_json_object(&out)),
            from_file
        );
    }
    let rejected = run(&["check", "--format", "json"], Some(b"{\"foo\":1}\n"));
    assert_eq!(rejected.status.code(), Some(1));
    assert_eq!(
        rules_at(&one_json_object(&rejected))[0],
        ("schema.unknown-type".to_string(), 0)
    );
}

#[test]
fn empty_input_is_accepted_with_a_notice() {
    for input in [&b""[..], &b"\n  \n"[..]] {
        let out = run(&["check", "--format", "json"], Some(input));
        assert_eq!(out.status.code(), Some(0));
        let report = one_json_object(&out);
        assert_eq!(report["verdict"], "accept");
        assert_eq!(report["violations"], Value::Array(vec![]));
        assert!(
            stderr(&out).contains("input holds no events"),
            "{}",
            stderr(&out)
        );
    }
}

/// The `schema.not-json` violation at `index`, with its message.
fn not_json_at(report: &Value, index: u64) -> String {
    let v = report["violations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["index"] == index)
        .unwrap_or_else(|| panic!("no violation at {index}: {report}"));
    assert_eq!(v["rule"], "schema.not-json", "{report}");
    v["message"].as_str().unwrap().to_string()
}

#[test]
fn bad_lines_are_not_json_with_the_line_named_and_checking_goes_on() {
    // Line numbers: 1 RUN_STARTED, 2 blank (not an item), 3 invalid UTF-8,
    // 4 not JSON, 5 a number, 6 trailing data, 7 deep nesting, 8 no `type`,
    // 9 a truncated last line.
    let mut input = Vec::new();
    input.extend(format!("{RUN_STARTED}\n\n").as_bytes());
    input.extend(b"{\"type\":\"STEP_STARTED\",\"stepName\":\"a\xFF\"}\n");
    input.extend(b"this is not json\n");
    input.extend(b"42\n");
    input.extend(b"{\"a\":1} {\"b\":2}\n");
    input.extend("[".repeat(10_000).as_bytes());
    input.extend(b"\n{\"foo\":1}\n{\"type\":\"RUN_FIN");
    let (code, report) = json_report("bad-lines.jsonl", &input);
    assert_eq!(code, 1);
    let message = not_json_at(&report, 1);
    assert!(
        message.contains("line 3") && message.contains("invalid UTF-8"),
        "{message}"
    );
    let message = not_json_at(&report, 2);
    assert!(
        message.contains("line 4") && message.contains("JSON syntax error"),
        "{message}"
    );
    not_json_at(&report, 3);
    let message = not_json_at(&report, 4);
    assert!(
        message.contains("line 6") && message.contains("trailing data"),
        "{message}"
    );
    let message = not_json_at(&report, 5);
    assert!(
        message.contains("line 7") && message.contains("nesting deeper than"),
        "{message}"
    );
    // Checking goes on: the next line is checked as an event.
    assert!(
        rules_at(&report).contains(&("schema.unknown-type".to_string(), 6)),
        "{report}"
    );
    let message = not_json_at(&report, 7);
    assert!(
        message.contains("line 9") && message.contains("truncated"),
        "{message}"
    );
}

#[test]
fn a_line_over_the_limit_is_not_json_and_the_next_line_is_read() {
    let input = format!(
        "{RUN_STARTED}\n{{\"type\":\"CUSTOM\",\"name\":\"{}\"}}\n{{\"foo\":1}}\n",
        "x".repeat(5000)
    );
    let out = check_file(
        "long-line.jsonl",
        input.as_bytes(),
        &["--format", "json", "--max-line-bytes", "1000"],
    );
    assert_eq!(out.status.code(), Some(1));
    let report = one_json_object(&out);
    let message = not_json_at(&report, 1);
    assert!(
        message.contains("line 2") && message.contains("longer than the limit"),
        "{message}"
    );
    assert!(
        rules_at(&report).contains(&("schema.unknown-type".to_string(), 2)),
        "{report}"
    );
}

#[test]
fn a_100_mb_line_on_stdin_is_skipped() {
    // Streamed through a pipe; the reader never holds the line.
    let mut input = format!("{RUN_STARTED}\n{{\"type\":\"CUSTOM\",\"name\":\"").into_bytes();
    input.resize(input.len() + 100 * 1000 * 1000, b'x');
    input.extend(format!("\"}}\n{RUN_FINISHED}\n").as_bytes());
    let out = run(
        &["check", "--format", "json", "--no-projection"],
        Some(&input),
    );
    drop(input);
    assert_eq!(out.status.code(), Some(1));
    let report = one_json_object(&out);
    let message = not_json_at(&report, 1);
    assert!(
        message.contains("line 2") && message.contains("longer than the limit of 64 MiB"),
        "{message}"
    );
    assert_eq!(
        report["violations"].as_array().unwrap().len(),
        1,
        "the run goes on and finishes: {report}"
    );
}

#[test]
fn text_report_has_header_lines_and_hint() {
    let out = check_file("text.jsonl", b"{\"foo\":1}\n", &[]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let name = file("text.jsonl", b"{\"foo\":1}\n").display().to_string();
    assert!(
        lines[0].starts_with(&format!("{name}: reject — ")),
        "{text}"
    );
    assert!(lines[0].ends_with(" in 1 event"), "{text}");
    assert!(
        lines[1].contains("#0") && lines[1].contains("schema.unknown-type"),
        "{text}"
    );
    assert!(
        text.contains("hint: agui-conform explain schema.unknown-type"),
        "{text}"
    );
    assert!(
        !text.contains("\x1b["),
        "no colour when stdout is not a terminal"
    );
}

#[test]
fn text_report_of_a_valid_stream() {
    let out = run(&["check"], Some(VALID.as_bytes()));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        "<stdin>: accept — no violations in 5 events\n"
    );
}

#[test]
fn text_report_with_projection() {
    let out = run(&["check", "--projection"], Some(VALID.as_bytes()));
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    let (_, projection) = text
        .split_once("projection:\n")
        .expect("a projection section");
    let projection: Value = serde_json::from_str(projection).unwrap();
    assert!(projection.is_object());
}

/// The JSON report is printed run by run as the stream is read; the text is
/// still exactly the report of the whole stream: three runs (the last one
/// left open), violations in two of them, on a file and on stdin.
#[test]
fn json_printed_run_by_run_is_the_whole_report() {
    let input = [
        VALID,
        r#"{"type":"RUN_STARTED","threadId":"t1","runId":"r2"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"nope","delta":"x"}
{"type":"RUN_FINISHED","threadId":"t1","runId":"r2"}
{"type":"RUN_STARTED","threadId":"t1","runId":"r3"}
{"type":"TEXT_MESSAGE_START","messageId":"m9","role":"assistant"}
"#,
    ]
    .concat();
    let values: Vec<Value> = input
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let want = agui_model::check_values(&values).to_json().to_string() + "\n";
    let out = check_file("run-by-run.jsonl", input.as_bytes(), &["--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), want);
    let out = run(&["check", "--format", "json", "-"], Some(input.as_bytes()));
    assert_eq!(stdout(&out), want);
    let report: Value = serde_json::from_str(&want).unwrap();
    assert_eq!(
        report["projection"]["runs"].as_array().map(Vec::len),
        Some(3)
    );
}
