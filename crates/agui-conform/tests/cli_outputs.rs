//! `check` on saved SSE bodies (detected or forced with `--input-format`)
//! and the single-check outputs (`--format sarif`, `--junit`).
//!
//! Expected answers: docs/rules.md revision 2 "Transport rules" (a line a client
//! ignores is `transport.framing` where the lost event would be; an event
//! not closed by a blank line is `transport.unterminated-event`), SARIF
//! 2.1.0's required structure, and the streams as written here.

mod support;

use serde_json::Value;
use std::path::PathBuf;
use std::process::Output;
use support::server::{Reply, Server};
use support::{run, scratch_dir, text};

const START: &str = r#"{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}"#;
const FINISH: &str = r#"{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}"#;

fn scratch(name: &str, body: &str) -> PathBuf {
    let p = scratch_dir("cli_outputs").join(name);
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
            // Not an event, so not a RUN_STARTED either.
            ("run.first-event".to_owned(), 0),
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

fn sarif(out: &Output) -> Value {
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    // The structure SARIF 2.1.0 requires of every log.
    assert_eq!(v["version"], "2.1.0");
    let driver = &v["runs"][0]["tool"]["driver"];
    assert_eq!(driver["name"], "agui-conform");
    let rules = driver["rules"].as_array().unwrap();
    // Every rule a stream can violate: 81 in revision 2 minus the 17
    // `accept.*` obligations.
    assert_eq!(rules.len(), agui_count_violation_rules());
    for r in rules {
        assert!(r["id"].is_string() && r["shortDescription"]["text"].is_string());
        // Its help embedded, and no link without a docs base URL.
        assert!(
            r["help"]["text"]
                .as_str()
                .unwrap()
                .starts_with(r["shortDescription"]["text"].as_str().unwrap())
        );
        assert!(r.get("helpUri").is_none(), "{r}");
        let level = r["defaultConfiguration"]["level"].as_str().unwrap();
        assert!(level == "error" || level == "warning", "{level}");
    }
    // Each result points at its rule.
    for res in v["runs"][0]["results"].as_array().unwrap() {
        let i = res["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[i]["id"], res["ruleId"]);
    }
    v
}

/// Rules of the catalogue that are not `accept.*`, from `rules --format json`.
fn agui_count_violation_rules() -> usize {
    let out = run(&["rules", "--format", "json"]);
    let text = text(&out.stdout);
    let all: Vec<Value> = match serde_json::from_str::<Value>(&text) {
        Ok(Value::Array(a)) => a,
        _ => text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect(),
    };
    all.iter()
        .filter(|r| !r["id"].as_str().unwrap().starts_with("accept."))
        .count()
}

#[test]
fn sarif_for_a_file_gives_each_result_its_line() {
    // Line 3 (after a blank line) holds a misspelt type: index 1.
    let body = format!("{START}\n\n{{\"type\":\"text_message_start\"}}\n{FINISH}\n");
    let p = scratch("one.jsonl", &body);
    let out = run(&["check", p.to_str().unwrap(), "--format", "sarif"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let v = sarif(&out);
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    let r = &results[0];
    assert_eq!(r["ruleId"], "schema.unknown-type");
    assert_eq!(r["level"], "error");
    assert!(
        r["message"]["text"]
            .as_str()
            .unwrap()
            .contains("did you mean `TEXT_MESSAGE_START`?")
    );
    let loc = &r["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], p.to_str().unwrap());
    assert_eq!(loc["region"]["startLine"], 3);
    assert_eq!(r["properties"]["eventIndex"], 1);
}

#[test]
fn sarif_for_a_capture_uses_the_lines_of_the_body() {
    // Event 0 on line 2, the lost event's block on line 4, the finish
    // (event 1) on line 6.
    let body = format!(": hi\ndata: {START}\n\n{{\"type\":\"X\"}}\n\ndata: {FINISH}\n\n");
    let p = scratch("cap.sse", &body);
    let out = run(&["check", p.to_str().unwrap(), "--format", "sarif"]);
    assert_eq!(out.status.code(), Some(1));
    let v = sarif(&out);
    let r = &v["runs"][0]["results"][0];
    assert_eq!(r["ruleId"], "transport.framing");
    assert_eq!(r["properties"]["eventIndex"], 1);
    // Index 1: the lost event would have been event 1; the finish,
    // which is event 1, is on line 6.
    assert_eq!(
        r["locations"][0]["physicalLocation"]["region"]["startLine"],
        6
    );
}

#[test]
fn limit_notices_are_notifications_and_junit_errors() {
    // Line 2 is longer than the 80-byte limit: skipped, a notice.
    let long = format!(
        r#"{{"type":"CUSTOM","name":"n","value":"{}"}}"#,
        "x".repeat(100)
    );
    let p = scratch("deep.jsonl", &format!("{START}\n{long}\n{FINISH}\n"));
    let junit = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_outputs/deep.xml");
    let out = run(&[
        "check",
        p.to_str().unwrap(),
        "--format",
        "sarif",
        "--max-line-bytes",
        "80",
        "--junit",
        junit.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let v = sarif(&out);
    let n = &v["runs"][0]["invocations"][0]["toolExecutionNotifications"];
    assert_eq!(n.as_array().unwrap().len(), 1);
    assert_eq!(n[0]["descriptor"]["id"], "limit.line-bytes");
    assert_eq!(
        n[0]["locations"][0]["physicalLocation"]["region"]["startLine"],
        2
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("<error"), "{xml}");
    assert!(!xml.contains("<failure"), "{xml}");
}

#[test]
fn junit_is_written_beside_the_text_report() {
    let junit = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_outputs/reject.xml");
    let p = scratch("reject.jsonl", &format!("{START}\n"));
    let out = run(&[
        "check",
        p.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("run.unterminated"));
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("tests=\"1\""), "{xml}");
    assert!(xml.contains("<failure"), "{xml}");
    assert!(xml.contains("run.unterminated"), "{xml}");
    // A clean stream passes.
    let p = scratch("ok.jsonl", &format!("{START}\n{FINISH}\n"));
    let out = run(&[
        "check",
        p.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        !xml.contains("<failure") && !xml.contains("<error"),
        "{xml}"
    );
}

/// An input that holds no events is inconclusive in SARIF and JUnit too
/// (exit status 3): a notification and the verdict in the invocation, an
/// erroring test case. Before, a log with no result and a passing test
/// case: "clean".
#[test]
fn an_input_without_events_is_inconclusive_in_sarif_and_junit() {
    let junit = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_outputs/empty.xml");
    for (name, body) in [
        ("empty.jsonl", "\n"),
        ("comments.sse", ": ping\n\n: ping\n\n"),
    ] {
        let p = scratch(name, body);
        let out = run(&[
            "check",
            p.to_str().unwrap(),
            "--format",
            "sarif",
            "--junit",
            junit.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(3), "{name}: {}", text(&out.stderr));
        let v = sarif(&out);
        let invocation = &v["runs"][0]["invocations"][0];
        assert_eq!(invocation["properties"]["verdict"], "inconclusive");
        let n = &invocation["toolExecutionNotifications"];
        assert_eq!(n.as_array().map(Vec::len), Some(1), "{name}: {n}");
        assert_eq!(n[0]["descriptor"]["id"], "input.no-events");
        assert_eq!(n[0]["message"]["text"], "the input holds no events");
        assert_eq!(v["runs"][0]["results"], Value::Array(vec![]));
        let xml = std::fs::read_to_string(&junit).unwrap();
        assert!(xml.contains("<error"), "{xml}");
        assert!(
            xml.contains("inconclusive: the input holds no events"),
            "{xml}"
        );
    }
}

#[test]
fn sarif_for_a_live_check_names_the_url_and_event() {
    let server = Server::replying(Reply::sse("overloaded").status(503));
    let url = server.url();
    let out = run(&["check", "--url", &url, "--format", "sarif"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let v = sarif(&out);
    let r = &v["runs"][0]["results"][0];
    assert_eq!(r["ruleId"], "transport.status");
    assert_eq!(
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        url.as_str()
    );
    assert_eq!(
        r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"],
        "events[0]"
    );
}

/// Each finding names its related event (the opener on record), its JSON
/// Pointer and its rule's doc, in text, JSON and SARIF.
#[test]
fn findings_name_the_related_event_pointer_and_doc() {
    let body = [
        START,
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant","subagentRunId":"a"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","subagentRunId":"b"}"#,
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m","subagentRunId":"a"}"#,
        r#"{"type":"STATE_DELTA","delta":[{"op":"add","path":"x","value":1}]}"#,
        FINISH,
    ]
    .join("\n");
    let file = scratch("related.jsonl", &body);
    let path = file.to_str().unwrap();
    let out = run(&["check", path]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("ownership.continuation-disagrees: TEXT_MESSAGE_CONTENT for \"m\"")
            && stdout.contains("(see #1)"),
        "{stdout}"
    );
    let out = run(&["check", "--format", "json", path]);
    let report: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    let v = &report["violations"];
    assert_eq!(v[0]["rule"], "ownership.continuation-disagrees");
    assert_eq!(v[0]["related"], 1);
    assert_eq!(
        v[0]["doc"],
        "docs/rules.md#ownership.continuation-disagrees"
    );
    assert_eq!(v[1]["rule"], "schema.wrong-type");
    assert_eq!(v[1]["pointer"], "/delta/0/path");
    assert!(v[1].get("related").is_none());
    let out = run(&["check", "--format", "sarif", path]);
    let log: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    let result = &log["runs"][0]["results"][0];
    // Event 1 is on line 2 of the file.
    assert_eq!(
        result["relatedLocations"][0]["physicalLocation"]["region"]["startLine"],
        2
    );
    assert_eq!(result["relatedLocations"][0]["id"], 1);
    assert_eq!(result["properties"]["relatedIndex"], 1);
    assert_eq!(
        log["runs"][0]["results"][1]["properties"]["pointer"],
        "/delta/0/path"
    );
}
