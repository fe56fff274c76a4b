//! Issue 42, soundness: no event lost or invented at a syntax error, and a
//! case's events read as it states them. Expected findings are written
//! from docs/rules.md: a JSON syntax error is `schema.not-json` at its
//! item's index and checking goes on (docs/check.md); a non-object item is
//! `schema.not-json`; `subagentRunId: null` is `attribution.null`; content
//! for a message never started is `text.not-open`; under a line limit of N
//! bytes a line (an array element, an SSE event's data) of N bytes is read
//! and one of N + 1 skipped ("Checker limits"); a stop of ours after the
//! run is a `time` notice.

mod support;

use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Output;
use std::time::Duration;
use support::server::{End, Reply, Server, sse_body};
use support::{Dir, agui_run, run_summary};

const RS: &str = r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#;
const RF: &str = r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"#;
const NULL_CONTENT: &str =
    r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","subagentRunId":null}"#;
const TS: &str = r#"{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}"#;
const TE: &str = r#"{"type":"TEXT_MESSAGE_END","messageId":"m"}"#;

fn dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("cli_soundness")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The CLI with `args` and `stdin` (the suite's shared helper).
fn run(args: &[&str], stdin: &[u8]) -> Output {
    support::run_stdin(args, stdin)
}

/// `check --format json ARGS FILE`: the JSON report.
fn report(args: &[&str], text: &str, name: &str) -> Value {
    let d = dir(name);
    let path = d.join(name);
    std::fs::write(&path, text).unwrap();
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    all.push(path.to_str().unwrap());
    let out = run(&all, b"");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// `(rule, index)` of each violation, in order.
fn found(report: &Value) -> Vec<(String, u64)> {
    report["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["rule"].as_str().unwrap().to_owned(),
                v["index"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn pairs(expected: &[(&str, u64)]) -> Vec<(String, u64)> {
    expected.iter().map(|(r, i)| (r.to_string(), *i)).collect()
}

/// How each run ended.
fn outcomes(report: &Value) -> Vec<String> {
    report["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["outcome"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_syntax_error_mid_array_costs_that_element_only_as_in_json_lines() {
    let items = [RS, r#"{"type": TEXT}"#, NULL_CONTENT, RF];
    let array = format!("[{}]\n", items.join(",\n"));
    let lines = items.join("\n") + "\n";
    let expected = pairs(&[
        ("schema.not-json", 1),
        ("attribution.null", 2),
        ("text.not-open", 2),
    ]);
    for (text, name) in [(array, "array.json"), (lines, "lines.jsonl")] {
        let r = report(&[], &text, name);
        assert_eq!(found(&r), expected, "{name}");
        assert_eq!(r["events"], 4, "{name}");
        assert_eq!(outcomes(&r), ["finished"], "{name}");
    }
    // The same array on one line.
    let r = report(&[], &format!("[{}]", items.join(",")), "one-line.json");
    assert_eq!(found(&r), expected);
    assert_eq!(r["events"], 4);
}

#[test]
fn an_empty_element_is_one_item_and_reading_goes_on() {
    let text = format!("[{RS},,{TS},{TE},{RF}]");
    let r = report(&[], &text, "empty.json");
    assert_eq!(found(&r), pairs(&[("schema.not-json", 1)]));
    assert_eq!(r["events"], 5);
    assert_eq!(outcomes(&r), ["finished"]);
}

#[test]
fn a_bad_element_mid_array_costs_that_element_only() {
    // Missing `:`, a bare word, and data after a value: each one item.
    let text = format!("[{RS},\n{{\"type\" 1}},\n{TS},\nnope,\n{TE},\n{{}} 2,\n{RF}\n]\n");
    let r = report(&[], &text, "bad.json");
    assert_eq!(
        found(&r),
        pairs(&[
            ("schema.not-json", 1),
            ("schema.not-json", 3),
            ("schema.not-json", 5),
        ])
    );
    assert_eq!(r["events"], 7);
    assert_eq!(outcomes(&r), ["finished"]);
}

#[test]
fn an_element_that_never_ends_is_read_again_from_where_it_broke() {
    // The `{` of line 2 never closes: the elements after it are read
    // all the same, and the run finishes.
    let text = format!("[{RS},\n{{\"type\":\"TEXT_MESSAGE_START\",\n{RF}]\n");
    let r = report(&[], &text, "open.json");
    assert_eq!(found(&r), pairs(&[("schema.not-json", 1)]));
    let message = r["violations"][0]["message"].as_str().unwrap();
    assert!(message.contains("line 3"), "{message}");
    assert_eq!(r["events"], 3);
    assert_eq!(outcomes(&r), ["finished"]);
}

/// A corpus case file holding `events`, or `lines`.
fn case(field: &str, value: Value) -> String {
    serde_json::json!({
        "id": "fuzz/array-event",
        "description": "an event that is not an object",
        "spec": "schema.not-json",
        field: value,
        "expect": {"verdict": "reject", "rule": "schema.not-json", "index": 0}
    })
    .to_string()
}

#[test]
fn a_case_is_read_as_the_events_it_states() {
    let one: Value = serde_json::json!([[{"type": "RUN_STARTED"}]]);
    for (text, name) in [
        (case("events", one), "events.json"),
        (
            case("lines", serde_json::json!([r#"[{"type":"RUN_STARTED"}]"#])),
            "lines.json",
        ),
    ] {
        let r = report(&[], &text, name);
        let f = found(&r);
        assert_eq!(
            f.first(),
            Some(&("schema.not-json".to_owned(), 0)),
            "{name}"
        );
        assert!(
            f.iter()
                .all(|(rule, _)| rule != "schema.missing-field" && rule != "run.unterminated"),
            "{name}: {f:?}"
        );
        assert_eq!(r["events"], 1, "{name}");
    }
    // A case line that looks like SSE is a JSON Lines line all the same.
    let r = report(
        &[],
        &case("lines", serde_json::json!([format!("data: {RS}")])),
        "sse-like.json",
    );
    assert_eq!(found(&r).first(), Some(&("schema.not-json".to_owned(), 0)));
    assert_eq!(r["events"], 1);
}

#[test]
fn input_stated_as_json_lines_is_never_read_as_an_array() {
    let r = report(
        &["--input-format", "jsonl"],
        "[{\"type\":\"RUN_STARTED\"}]\n",
        "a.jsonl",
    );
    assert_eq!(found(&r).first(), Some(&("schema.not-json".to_owned(), 0)));
    assert_eq!(r["events"], 1);
    // Told apart, it is one array of one event.
    let r = report(&[], "[{\"type\":\"RUN_STARTED\"}]\n", "b.jsonl");
    assert_ne!(found(&r).first(), Some(&("schema.not-json".to_owned(), 0)));
}

/// A `CUSTOM` event of exactly `len` bytes of JSON text.
fn custom_of(len: usize) -> Value {
    let bare = json!({"type": "CUSTOM", "name": "n", "value": ""}).to_string();
    let v = json!({"type": "CUSTOM", "name": "n", "value": "x".repeat(len - bare.len())});
    assert_eq!(v.to_string().len(), len);
    v
}

/// `(kind, index)` of each limit notice.
fn notices(report: &Value) -> Vec<(String, u64)> {
    report["limits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["kind"].as_str().unwrap().to_owned(),
                n["index"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn one_line_length_rule_on_every_reader() {
    let limit = ["--max-line-bytes", "100"];
    for (len, expected) in [(100, vec![]), (101, vec![("line-bytes".to_owned(), 1)])] {
        let parse = |t: &str| serde_json::from_str::<Value>(t).unwrap();
        let events = [parse(RS), custom_of(len), parse(RF)];
        let texts: Vec<String> = events.iter().map(Value::to_string).collect();
        let sse = String::from_utf8(sse_body(&events)).unwrap();
        let crlf = texts.join("\r\n") + "\r\n";
        for (text, name) in [
            (texts.join("\n") + "\n", "lines.jsonl"),
            (crlf, "crlf.jsonl"),
            (format!("[\n{}\n]\n", texts.join(",\n")), "array.json"),
            (sse, "body.sse"),
        ] {
            let r = report(&limit, &text, name);
            assert_eq!(notices(&r), expected, "{name}, {len} bytes");
            assert_eq!(r["events"], 3, "{name}, {len} bytes");
        }
        // Live SSE.
        let server = Server::replying(Reply::sse(sse_body(&events)));
        let out = run(
            &[
                "check",
                "--url",
                &server.url(),
                "--format",
                "json",
                limit[0],
                limit[1],
            ],
            b"",
        );
        let r: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(notices(&r), expected, "live, {len} bytes");
    }
}

#[test]
fn run_producer_reports_a_stop_after_the_run() {
    let server = Server::replying(
        Reply::sse(sse_body(&[
            serde_json::from_str(RS).unwrap(),
            serde_json::from_str(RF).unwrap(),
        ]))
        .end(End::Hang(Duration::from_secs(8))),
    );
    let out = run(
        &[
            "run",
            "--producer",
            &server.url(),
            "--suite",
            "producer",
            "--filter",
            "plain",
            "--run-end-grace",
            "0.3",
            "--format",
            "json",
        ],
        b"",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let first: Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    // Not a PASS: what came after the cut was not judged.
    assert_eq!(first["score"], "ERRORED", "{stdout}");
    let failure = first["failure"].as_str().unwrap();
    assert!(failure.contains("--run-end-grace 0.3"), "{failure}");
}

/// A persistent implementation accepting every case: `before` runs first
/// (a byte order mark), each answer's `seq` is written `SEQ{suffix}`, and
/// `after` runs after each answer.
fn implementation(before: &str, suffix: &str, after: &str) -> String {
    format!(
        r#"{before}
while read -r line; do
  case "$line" in
    *'"cmd":"start"'*) echo '{{"protocol":1,"implementation":{{"name":"x"}},"capabilities":["verdict","index","rule"]}}' ;;
    *'"cmd":"stop"'*) exit 0 ;;
    *) seq=$(printf '%s' "$line" | sed 's/^[^0-9]*"seq":\([0-9]*\).*/\1/')
       echo "{{\"seq\":${{seq}}{suffix},\"result\":{{\"verdict\":\"accept\"}}}}"
       {after} ;;
  esac
done
"#
    )
}

/// `run --suite quick --filter valid` of `script`: (summary, case lines).
fn run_valid(d: &Dir, script: &str) -> (Value, Vec<Value>) {
    let imp = d.script("imp.sh", script);
    let out = agui_run()
        .args(["--suite", "quick", "--filter", "valid", "--impl", &imp])
        .output()
        .unwrap();
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v.get("id").is_some())
        .collect();
    (run_summary(&out), lines)
}

#[test]
fn a_byte_order_mark_before_the_handshake_and_a_seq_of_1_0_are_tolerated() {
    let d = Dir::new("soundness-bom");
    // The valid cases all accept: every one a PASS, none ERRORED.
    for (before, suffix) in [
        (r"printf '\357\273\277'", ""),
        ("", ".0"),
        (r"printf '\357\273\277'", "e0"),
    ] {
        let (summary, lines) = run_valid(&d, &implementation(before, suffix, ""));
        assert!(!lines.is_empty());
        assert_eq!(
            summary["scores"]["ERRORED"], 0,
            "{before} {suffix}: {lines:?}"
        );
        assert_eq!(summary["scores"]["PASS"], lines.len(), "{before} {suffix}");
    }
}

#[test]
fn an_implementation_gone_between_cases_charges_the_case_after_which_it_exited() {
    let d = Dir::new("soundness-exit");
    let marker = d.path("exited");
    // The first process exits right after its first answer; the next
    // case goes to a fresh process.
    let after = format!(
        "if [ ! -e '{0}' ]; then touch '{0}'; exit 0; fi",
        marker.display()
    );
    let (summary, lines) = run_valid(&d, &implementation("", "", &after));
    assert!(lines.len() > 2);
    assert_eq!(summary["scores"]["ERRORED"], 1, "{lines:?}");
    assert_eq!(lines[0]["score"], "ERRORED", "{lines:?}");
    let reason = lines[0]["reason"].as_str().unwrap();
    assert!(
        reason.contains("exited after answering this case"),
        "{reason}"
    );
    assert!(reason.contains("exit status 0"), "{reason}");
    assert!(lines[1..].iter().all(|l| l["score"] == "PASS"), "{lines:?}");
}

/// The framings one list of items is written in: JSON Lines (`\n` and
/// `\r\n`), one JSON array (an element a line, and all on one line), a
/// saved SSE body (also served live), a corpus case's `lines`.
fn framings(items: &[Vec<u8>]) -> Vec<(&'static str, Vec<u8>)> {
    let join = |sep: &[u8], end: &[u8]| {
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                out.extend_from_slice(sep);
            }
            out.extend_from_slice(item);
        }
        out.extend_from_slice(end);
        out
    };
    let mut sse = Vec::new();
    for item in items {
        sse.extend_from_slice(b"data: ");
        sse.extend_from_slice(item);
        sse.extend_from_slice(b"\n\n");
    }
    let mut all = vec![
        ("lines.jsonl", join(b"\n", b"\n")),
        ("crlf.jsonl", join(b"\r\n", b"\r\n")),
        (
            "array.json",
            [b"[\n".to_vec(), join(b",\n", b"\n]\n")].concat(),
        ),
        ("one-line.json", [b"[".to_vec(), join(b",", b"]")].concat()),
        ("body.sse", sse),
    ];
    // A corpus case stating its items as lines (JSON strings: UTF-8 only).
    let texts: Result<Vec<&str>, _> = items.iter().map(|i| std::str::from_utf8(i)).collect();
    if let Ok(texts) = texts {
        all.push(("case.json", case("lines", json!(texts)).into_bytes()));
    }
    all
}

/// `check --format json ARGS` of `bytes`, saved as `name` or (`live`)
/// served as an SSE body to `check --url`.
fn report_of(args: &[&str], bytes: &[u8], name: &str, live: bool) -> Value {
    let server;
    let path;
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    if live {
        server = Server::replying(Reply::sse(bytes.to_vec()));
        path = server.url();
        all.extend(["--url", path.as_str()]);
    } else {
        // A folder of its own: other tests write files of these names.
        path = dir(&format!("framings-{name}"))
            .join(name)
            .to_str()
            .unwrap()
            .to_owned();
        std::fs::write(&path, bytes).unwrap();
        all.push(path.as_str());
    }
    let out = run(&all, b"");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{name}: {e}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// A `CUSTOM` event nesting `depth` levels (the event itself is one).
fn nested(depth: usize) -> String {
    let inner = "[".repeat(depth - 1) + "1" + &"]".repeat(depth - 1);
    format!(r#"{{"type":"CUSTOM","name":"n","value":{inner}}}"#)
}

/// One table of recovery and limit cases through every framing (issue 42:
/// each reader had its own copy of these rules, and they differed). The
/// expected findings are docs/check.md's: input that is not JSON (a syntax
/// error, invalid UTF-8) or not an object is `schema.not-json` at its
/// item's index "and checking goes on" (the events after it are judged:
/// content with `subagentRunId: null` is `attribution.null`, for a
/// message never started `text.not-open`, and the run finishes); under
/// `--max-depth N` an item nesting N levels is read, one nesting N + 1 is
/// skipped with a `nesting` notice at its index and counted as an event.
#[test]
fn every_framing_recovers_and_limits_alike() {
    let broken = [
        r#"{"type": TEXT}"#.as_bytes().to_vec(),
        b"{\"type\":\"\xff\"}".to_vec(),
        b"[1]".to_vec(),
        b"42".to_vec(),
    ];
    for bad in broken {
        let items = [RS.into(), bad.clone(), NULL_CONTENT.into(), RF.into()];
        let what = String::from_utf8_lossy(&bad).into_owned();
        for (name, bytes) in framings(&items) {
            for live in [false, true] {
                if live && name != "body.sse" {
                    continue;
                }
                let r = report_of(&[], &bytes, name, live);
                let at = format!("{what} in {name}{}", if live { " (live)" } else { "" });
                assert_eq!(
                    found(&r),
                    pairs(&[
                        ("schema.not-json", 1),
                        ("attribution.null", 2),
                        ("text.not-open", 2),
                    ]),
                    "{at}"
                );
                assert_eq!(r["events"], 4, "{at}");
                assert_eq!(outcomes(&r), ["finished"], "{at}");
                assert_eq!(notices(&r), [], "{at}");
            }
        }
    }
    let limit = ["--max-depth", "5"];
    for (depth, expected) in [(5, vec![]), (6, vec![("nesting".to_owned(), 1)])] {
        let items = [RS.into(), nested(depth).into_bytes(), RF.into()];
        for (name, bytes) in framings(&items) {
            for live in [false, true] {
                if live && name != "body.sse" {
                    continue;
                }
                let r = report_of(&limit, &bytes, name, live);
                let at = format!("depth {depth} in {name}, live: {live}");
                assert_eq!(notices(&r), expected, "{at}");
                assert_eq!(found(&r), [], "{at}");
                assert_eq!(r["events"], 3, "{at}");
            }
        }
    }
}
