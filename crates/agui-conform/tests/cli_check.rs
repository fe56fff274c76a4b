//! `agui-conform check`, run as a user runs it: the built binary, files and
//! standard input, exit statuses and both output forms.
//!
//! Expected answers come from docs/rules.md: a first event without `type` is
//! `schema.missing-field` at index 0, a stream item that is not a JSON object
//! (or not JSON at all) is `schema.not-json`, `subagentRunId` on
//! `RUN_STARTED` is the warning `attribution.not-attributable` (accepted).

mod support;

use serde_json::Value;
use std::path::PathBuf;
use std::process::Output;
use support::{VALID, run_stdin, scratch_dir};

const RUN_STARTED: &str = r#"{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}"#;
const RUN_FINISHED: &str = r#"{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}"#;

/// Writes `bytes` to a file of its own under the test scratch directory.
fn file(name: &str, bytes: &[u8]) -> PathBuf {
    let path = scratch_dir("cli_check").join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Runs the binary with `args`, feeding `stdin` (empty when `None`).
fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    run_stdin(args, stdin.unwrap_or_default())
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
    // RFC 8259 JSON: a report may hold what serde_json refuses (1e400).
    let value = agui_model::json::parse(&text, &Default::default())
        .unwrap_or_else(|e| panic!("{e}: {text}"))
        .value;
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
    assert_eq!(
        rules_at(&report)[0],
        ("schema.missing-field".to_string(), 0)
    );
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
    assert_eq!(first["rule"], "schema.missing-field");
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
fn a_directory_without_streams_is_exit_2() {
    // A directory is checked file by file (cli_check_files.rs); one with
    // no stream file in it is a usage error.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_check_no_streams");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a stream").unwrap();
    let out = run(&["check", dir.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no stream files"), "{}", stderr(&out));
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
        ("schema.missing-field".to_string(), 0)
    );
}

/// An input that holds no events is inconclusive, never a silent accept:
/// every output form says so, and the exit status is 3 (docs/decisions.md
/// "An input that holds no events"). It was `accept`, exit 0.
#[test]
fn an_input_without_events_is_inconclusive() {
    for input in [&b""[..], &b"\n  \n"[..], &b"[]"[..], &b" [ ] \n"[..]] {
        let out = run(&["check", "--format", "json"], Some(input));
        assert_eq!(out.status.code(), Some(3), "{input:?}");
        let report = one_json_object(&out);
        assert_eq!(report["verdict"], "inconclusive");
        assert_eq!(report["reason"], "the input holds no events");
        assert_eq!(report["events"], 0);
        assert_eq!(report["violations"], Value::Array(vec![]));
        assert!(
            stderr(&out).contains("the input holds no events"),
            "{}",
            stderr(&out)
        );
        let out = run(&["check"], Some(input));
        assert_eq!(out.status.code(), Some(3));
        assert!(
            String::from_utf8_lossy(&out.stdout)
                .starts_with("<stdin>: inconclusive — the input holds no events\n"),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    // `--fail-on warning` changes nothing: there is nothing to judge.
    let out = run(&["check", "--fail-on", "warning"], Some(b""));
    assert_eq!(out.status.code(), Some(3));
    // One event is judged: accepted or not as the rules say.
    let one = format!("{RUN_STARTED}\n{RUN_FINISHED}\n");
    let out = run(&["check"], Some(one.as_bytes()));
    assert_eq!(out.status.code(), Some(0));
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
    // 4 not JSON, 5 a number, 6 trailing data, 7 an open bracket that never
    // closes, 8 no `type`, 9 a truncated last line.
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
        message.contains("line 7") && message.contains("ends inside a JSON value"),
        "{message}"
    );
    // Checking goes on: the next line is checked as an event.
    assert!(
        rules_at(&report).contains(&("schema.missing-field".to_string(), 6)),
        "{report}"
    );
    let message = not_json_at(&report, 7);
    assert!(
        message.contains("line 9") && message.contains("truncated"),
        "{message}"
    );
}

/// The limit notice of kind `kind` at `index`, with its message.
fn notice_at(report: &Value, kind: &str, index: u64) -> String {
    let n = report["limits"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["kind"] == kind && n["index"] == index)
        .unwrap_or_else(|| panic!("no {kind} notice at {index}: {report}"));
    n["message"].as_str().unwrap().to_string()
}

#[test]
fn a_line_over_the_limit_is_a_limit_notice_and_the_next_line_is_read() {
    let input = format!(
        "{RUN_STARTED}\n{{\"type\":\"CUSTOM\",\"name\":\"{}\"}}\n{{\"foo\":1}}\n",
        "x".repeat(5000)
    );
    let out = check_file(
        "long-line.jsonl",
        input.as_bytes(),
        &["--format", "json", "--max-line-bytes", "1000"],
    );
    // The first finding is the limit: nothing after it decides a verdict.
    assert_eq!(out.status.code(), Some(3));
    let report = one_json_object(&out);
    assert_eq!(report["verdict"], "inconclusive");
    let message = notice_at(&report, "line-bytes", 1);
    assert!(
        message.contains("line 2") && message.contains("longer than the limit"),
        "{message}"
    );
    assert!(
        !rules_at(&report)
            .iter()
            .any(|(r, _)| r == "schema.not-json"),
        "a limit is not the producer's fault: {report}"
    );
    assert!(
        rules_at(&report).contains(&("schema.missing-field".to_string(), 2)),
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
    assert_eq!(out.status.code(), Some(3));
    let report = one_json_object(&out);
    let message = notice_at(&report, "line-bytes", 1);
    assert!(
        message.contains("line 2") && message.contains("longer than the limit of 64 MiB"),
        "{message}"
    );
    assert_eq!(
        report["violations"].as_array().unwrap().len(),
        0,
        "the run goes on and finishes: {report}"
    );
}

#[test]
fn deep_nesting_lone_surrogates_and_huge_numbers_are_json() {
    let stream = |depth: usize| {
        let deep = "[".repeat(depth) + &"]".repeat(depth);
        format!(
            "{RUN_STARTED}\n{{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{{\"d\":{deep},\"n\":1e400,\"z\":-0}}}}\n\
         {{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}}\n\
         {{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"a\\ud83d\"}}\n\
         {{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"\\ude00b\"}}\n\
         {{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}}\n{RUN_FINISHED}\n"
        )
    };
    // serde_json (this test's reader) takes 100 levels.
    let input = stream(100);
    let (code, report) = json_report("json-edges.jsonl", input.as_bytes());
    assert_eq!(code, 0, "{report}");
    assert_eq!(
        rules_at(&report),
        vec![
            ("schema.lone-surrogate".to_string(), 3),
            ("schema.lone-surrogate".to_string(), 4)
        ]
    );
    let run = &report["projection"]["runs"][0];
    assert_eq!(run["messages"][0]["content"], "a😀b", "{run}");
    // 5,000 levels are checked, projected and printed; 1e400 as written.
    let input = stream(5_000);
    let out = check_file("json-deep.jsonl", input.as_bytes(), &["--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(
        text.contains(r#""n":1e400"#),
        "{}",
        &text[..200.min(text.len())]
    );
    // Deeper than the limit: a notice, not a violation, and exit 3.
    let out = check_file(
        "too-deep.jsonl",
        input.as_bytes(),
        &["--format", "json", "--max-depth", "1000"],
    );
    assert_eq!(out.status.code(), Some(3));
    let report = one_json_object(&out);
    notice_at(&report, "nesting", 1);
}

#[test]
fn duplicate_keys_warn_and_the_last_one_counts() {
    let stream = |first: &str, last: &str| {
        format!(
            "{RUN_STARTED}\n{{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"subagentRunId\":\"s1\"}}\n\
             {{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"x\",\"subagentRunId\":\"{first}\",\"subagentRunId\":\"{last}\"}}\n"
        )
    };
    let (_, report) = json_report("dup-ok.jsonl", stream("s2", "s1").as_bytes());
    let rules = rules_at(&report);
    assert_eq!(
        rules[0],
        ("schema.duplicate-key".to_string(), 2),
        "{report}"
    );
    assert!(
        !rules
            .iter()
            .any(|(r, _)| r == "ownership.continuation-disagrees")
    );
    let (_, report) = json_report("dup-bad.jsonl", stream("s1", "s2").as_bytes());
    assert!(
        rules_at(&report).contains(&("ownership.continuation-disagrees".to_string(), 2)),
        "{report}"
    );
}

#[test]
fn text_report_has_header_lines_and_hint() {
    let out = check_file("text.jsonl", b"{\"foo\":1}\n", &[]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let name = file("text.jsonl", b"{\"foo\":1}\n").display().to_string();
    // Findings first, as found; the summary when the input ends.
    assert!(
        lines[0].contains("#0") && lines[0].contains("schema.missing-field"),
        "{text}"
    );
    // The untyped first item is also not a RUN_STARTED.
    assert!(
        lines[1].contains("#0") && lines[1].contains("run.first-event"),
        "{text}"
    );
    assert!(
        lines[2].starts_with(&format!("{name}: reject — ")),
        "{text}"
    );
    assert!(lines[2].ends_with(" in 1 event"), "{text}");
    assert!(
        text.contains("hint: agui-conform explain schema.missing-field"),
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
        "<stdin>: accept — no violations in 5 events\nruns: 1 finished\n\
         coverage: not judged: transport.* (a stream of JSON holds no HTTP response: \
         the transport rules judge one's bytes, status, headers and timing); \
         exercised: schema, run, entities; no event judged by: consistency, lifecycle, \
         ownership, interrupts, chunks\n"
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
    let mut report = agui_model::check_values(&values).to_json();
    // How each run ended (beside the checker's report): the lines of each
    // run as written above, the last one open at the end of input (10).
    report["runs"] = serde_json::json!([
        {"outcome": "finished", "start": 0, "end": 4, "threadId": "t1", "runId": "r1"},
        {"outcome": "finished", "start": 5, "end": 7, "threadId": "t1", "runId": "r2"},
        {"outcome": "unterminated", "start": 8, "end": 10, "threadId": "t1", "runId": "r3"},
    ]);
    // What a stream of JSON cannot be judged by: the transport rules. Its
    // text messages are judged by the entity rules, and every event by the
    // schema and run rules; nothing is tagged, announced, chunked, nor a
    // tool call or snapshot.
    report["coverage"] = serde_json::json!({
        "exercised": ["schema", "run", "entities"],
        "notExercised": ["consistency", "lifecycle", "ownership", "interrupts", "chunks"],
        "notEvaluable": [{
            "areas": ["transport"],
            "reason": "a stream of JSON holds no HTTP response: the transport rules judge one's bytes, status, headers and timing",
        }],
    });
    let out = check_file("run-by-run.jsonl", input.as_bytes(), &["--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(one_json_object(&out), report);
    let out = run(&["check", "--format", "json", "-"], Some(input.as_bytes()));
    assert_eq!(one_json_object(&out), report);
    assert_eq!(
        report["projection"]["runs"].as_array().map(Vec::len),
        Some(3)
    );
}

/// Every JSON report matches `docs/check-report.schema.json`: accepted,
/// rejected, inconclusive, capped, with and without the projection.
#[test]
fn json_reports_match_their_published_schema() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/check-report.schema.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let long = format!("{RUN_STARTED}\n{{\"x\":\"{}\"}}\n", "y".repeat(2000));
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        ("valid", VALID.to_string(), vec![]),
        (
            "valid-no-projection",
            VALID.to_string(),
            vec!["--no-projection"],
        ),
        ("bad", "{}\n{}\n{}\n".to_string(), vec![]),
        ("empty", "\n\n".to_string(), vec![]),
        (
            "capped",
            "{}\n{}\n{}\n".to_string(),
            vec!["--max-violations", "1"],
        ),
        ("limit", long, vec!["--max-line-bytes", "100"]),
        (
            "grouped",
            "{}\n{}\n{}\n".to_string(),
            vec!["--group", "--docs-url", "https://d.test/docs"],
        ),
        (
            "warning",
            format!(
                "{RUN_STARTED}\n{{\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\",\"subagentRunId\":\"s\"}}\n"
            ),
            vec![],
        ),
    ];
    for (name, stream, extra) in cases {
        let mut args = vec!["--format", "json"];
        args.extend(extra);
        let out = check_file(&format!("schema-{name}.jsonl"), stream.as_bytes(), &args);
        let report = one_json_object(&out);
        let errors: Vec<String> = validator
            .iter_errors(&report)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}\n{report}");
        if name == "capped" {
            assert_eq!(report["violations"].as_array().unwrap().len(), 1);
            // Three untyped items, the first also not a RUN_STARTED.
            assert_eq!(report["counts"]["violations"], 4);
            assert_eq!(report["limits"][0]["kind"], "violations");
            // Printing less changes no verdict.
            assert_eq!(report["verdict"], "reject");
        }
    }
}

/// The report's runs do not depend on how the tool read an event: a stray
/// event before the first run or after a run ended opens a run there (an
/// unterminated one when nothing ends it), whatever its type. Events the
/// fast parse reads (`TOOL_CALL_END`, `TEXT_MESSAGE_CONTENT`) were once
/// missed outside a run, while `TOOL_CALL_RESULT` opened one.
#[test]
fn stray_events_open_a_run_whatever_their_type() {
    let strays = [
        r#"{"type":"TOOL_CALL_END","toolCallId":"c"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c","content":"x"}"#,
        r#"{"type":"STEP_STARTED","stepName":"s"}"#,
    ];
    for (n, stray) in strays.iter().enumerate() {
        for parse_ahead in ["off", "on"] {
            let before = format!("{stray}\n");
            let out = check_file(
                &format!("stray-first-{n}-{parse_ahead}.jsonl"),
                before.as_bytes(),
                &["--format", "json", "--parse-ahead", parse_ahead],
            );
            assert_eq!(
                one_json_object(&out)["runs"],
                serde_json::json!([{"outcome": "unterminated", "start": 0, "end": 1}]),
                "{stray} first ({parse_ahead})"
            );
            let after = format!("{RUN_STARTED}\n{RUN_FINISHED}\n{stray}\n");
            let out = check_file(
                &format!("stray-after-{n}-{parse_ahead}.jsonl"),
                after.as_bytes(),
                &["--format", "json", "--parse-ahead", parse_ahead],
            );
            let runs = &one_json_object(&out)["runs"];
            assert_eq!(
                runs.as_array().map(Vec::len),
                Some(2),
                "{stray} after a run: {runs}"
            );
            assert_eq!(runs[1]["start"], 2, "{stray} after a run: {runs}");
            assert_eq!(
                runs[1]["outcome"], "unterminated",
                "{stray} after a run: {runs}"
            );
        }
    }
}

#[test]
fn a_number_outside_a_doubles_range_never_shows_as_its_kept_form() {
    // Where a string is expected (ids, tags, outcome and interrupt ids,
    // text), a number out of range is a wrong type: never an id, a tag or
    // a text, so the reader's private spelling of it (U+FDD0 and its text)
    // must not reach any output.
    let stream = [
        r#"{"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":1e400}"#,
        r#"{"type":"TEXT_MESSAGE_START","messageId":1e400}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":2e400}"#,
        r#"{"type":"STEP_STARTED","stepName":3e400,"subagentRunId":4e400}"#,
        r#"{"type":"SUBAGENT_STARTED","subagentRunId":5e400,"name":"x"}"#,
        r#"{"type":"STATE_SNAPSHOT","snapshot":{"a":1e400}}"#,
        r#"{"type":"MESSAGES_SNAPSHOT","messages":[{"id":6e400,"role":"assistant","subagentRunId":7e400}]}"#,
        r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","interrupts":[{"id":8e400,"reason":"r","subagentRunId":9e400}]}}"#,
    ]
    .join("\n");
    for format in ["text", "json", "sarif"] {
        let out = check_file(
            "big-numbers.jsonl",
            stream.as_bytes(),
            &["--format", format],
        );
        let all = format!("{}{}", stdout(&out), stderr(&out));
        assert!(!all.contains('\u{fdd0}'), "{format}: {all}");
        assert!(!all.contains("fdd0"), "{format}: {all}");
    }
    // The state and the interrupt's id keep the number as written; the
    // interrupt's owner is not a string, so there is none.
    let out = check_file(
        "big-number-json.jsonl",
        stream.as_bytes(),
        &["--format", "json"],
    );
    let text = stdout(&out);
    assert!(text.contains(r#""state":{"a":1e400}"#), "{text}");
    assert!(text.contains(r#""interrupts":[{"id":8e400}]"#), "{text}");
}

#[test]
fn an_sse_event_whose_parsed_form_passes_the_budget_is_skipped_at_the_line_limit() {
    // 1.2 MB of small objects hold over 64 MiB parsed: a `line-bytes`
    // notice, as the same line in a JSON Lines file gets, never not-json.
    let items = vec![r#"{"a":1}"#; 150_000].join(",");
    let body = format!(
        "data: {{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}}\n\n\
         data: {{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":[{items}]}}\n\n\
         data: {{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}}\n\n"
    );
    for (name, text) in [
        ("wide.sse", body.clone()),
        (
            "wide.jsonl",
            body.replace("data: ", "").replace("\n\n", "\n"),
        ),
    ] {
        let out = check_file(
            name,
            text.as_bytes(),
            &["--format", "json", "--max-line-bytes", "2000000"],
        );
        assert_eq!(out.status.code(), Some(3), "{name}: {}", stderr(&out));
        let report = one_json_object(&out);
        assert_eq!(report["violations"], serde_json::json!([]), "{name}");
        assert_eq!(report["limits"][0]["kind"], "line-bytes", "{name}");
        assert_eq!(report["limits"][0]["index"], 1, "{name}");
    }
}

#[test]
fn a_disagreement_shows_both_sides_around_the_first_difference_in_text_and_json() {
    // Streamed: "Hello wor" + "d", and get_weather with `{"city": ` +
    // `"Lisbon"}`; the snapshot says "Hello world", get_weathers and
    // `{"city":"Porto"}`.
    let stream = [
        RUN_STARTED,
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hello wor"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"d"}"#,
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m1"}"#,
        r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"get_weather","parentMessageId":"m1"}"#,
        r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"city\": "}"#,
        r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"\"Lisbon\"}"}"#,
        r#"{"type":"TOOL_CALL_END","toolCallId":"c1"}"#,
        r#"{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"m1","role":"assistant","content":"Hello world","toolCalls":[{"id":"c1","type":"function","function":{"name":"get_weathers","arguments":"{\"city\":\"Porto\"}"}}]}]}"#,
        RUN_FINISHED,
    ]
    .join("\n");
    let text_message = r#"MESSAGES_SNAPSHOT gives message "m1" a content other than the text this run streamed for it, at byte 9: snapshot "Hello wor|ld" (11 bytes), streamed "Hello wor|d" (10 bytes)"#;
    let call_message = concat!(
        r#"MESSAGES_SNAPSHOT gives tool call "c1" a name other than the one this run streamed, at byte 11: "#,
        r#"snapshot "get_weather|s" (12 bytes), streamed "get_weather|" (ends there, 11 bytes); "#,
        r#"and arguments other than those this run streamed (compared as JSON values; shown compact, members sorted), at byte 9: "#,
        r#"snapshot "{\"city\":\"|Porto\"}" (16 bytes), streamed "{\"city\":\"|Lisbon\"}" (17 bytes)"#
    );
    let out = check_file("disagrees.jsonl", stream.as_bytes(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    for line in [
        format!("  #9     warning messages.snapshot-disagrees: {text_message} (see #1)"),
        format!("  #9     warning messages.snapshot-disagrees: {call_message} (see #5)"),
    ] {
        assert!(text.lines().any(|l| l == line), "{line}\nnot in\n{text}");
    }
    let (code, report) = json_report("disagrees.jsonl", stream.as_bytes());
    assert_eq!(code, 0);
    let found: Vec<(&str, u64, u64, &str)> = report["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["rule"].as_str().unwrap(),
                v["index"].as_u64().unwrap(),
                v["related"].as_u64().unwrap(),
                v["message"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("messages.snapshot-disagrees", 9, 1, text_message),
            ("messages.snapshot-disagrees", 9, 5, call_message),
        ]
    );
}
