//! The JSON Schemas of `suites/protocol/` accept what the harness sends and
//! what the example implementation answers, and refuse malformed answers.

mod support;

use agui_harness::protocol::{RunRequest, start_request, stop_request};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

fn schema(name: &str) -> jsonschema::Validator {
    let path = format!(
        "{}/../../suites/protocol/{name}.schema.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    jsonschema::validator_for(&v).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn valid(s: &jsonschema::Validator, v: &Value) {
    let errors: Vec<String> = s.iter_errors(v).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{v}: {errors:?}");
}

#[test]
fn what_the_harness_sends_is_valid() {
    valid(&schema("start"), &start_request());
    valid(&schema("stop"), &stop_request());
    let events = support::valid_events();
    let run = serde_json::to_value(RunRequest::new(7, "gen/valid/1", &events)).unwrap();
    valid(&schema("run"), &run);
    let lines =
        vec![r#"{"type":"RUN_STARTED","threadId":"t","runId":"t","runId":"r"}"#.to_string()];
    let run = serde_json::to_value(RunRequest::lines(8, "schema/duplicate-key", &lines)).unwrap();
    valid(&schema("run"), &run);
    assert_eq!(run["case"]["lines"][0], lines[0]);
    assert!(run["case"].get("events").is_none());
    let mut both = run.clone();
    both["case"]["events"] = json!([]);
    assert!(!schema("run").is_valid(&both));
}

/// Talks to the example implementation: start, two runs, stop.
#[test]
fn what_the_example_answers_is_valid() {
    let mut child = Command::new(support::EXAMPLE)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let events = support::valid_events();
    let broken = vec![
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
        json!(42),
    ];
    // Raw lines: a duplicate key and a number past a double, shown as written.
    let huge = vec![
        r#"{"type":"RUN_STARTED","threadId":"t","runId":"r","runId":"r"}"#.to_string(),
        r#"{"type":"STATE_SNAPSHOT","snapshot":{"n":1e400}}"#.to_string(),
        r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"#.to_string(),
    ];
    for m in [
        start_request(),
        serde_json::to_value(RunRequest::new(1, "a", &events)).unwrap(),
        serde_json::to_value(RunRequest::new(2, "b", &broken)).unwrap(),
        serde_json::to_value(RunRequest::lines(3, "c", &huge)).unwrap(),
        stop_request(),
    ] {
        writeln!(stdin, "{m}").unwrap();
    }
    drop(stdin);
    let raw: Vec<String> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(Result::unwrap)
        .collect();
    assert!(child.wait().unwrap().success());
    assert_eq!(raw.len(), 4);
    assert!(raw[3].contains(r#""state":{"n":1e400}"#), "{}", raw[3]);
    let lines: Vec<Value> = raw[..3]
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The harness reads the number as written (a kept big number).
    match agui_harness::protocol::parse_run_answer(raw[3].as_bytes(), 3) {
        Ok(agui_harness::Outcome::Accept {
            projection: Some(p),
        }) => assert_eq!(
            p["runs"][0]["state"]["n"],
            json!(agui_model::json::big_number("1e400"))
        ),
        other => panic!("{other:?}"),
    }
    valid(&schema("start-answer"), &lines[0]);
    assert!(
        lines[0]["capabilities"]
            .as_array()
            .unwrap()
            .contains(&json!("raw-lines"))
    );
    let answers = schema("run-answer");
    valid(&answers, &lines[1]);
    valid(&answers, &lines[2]);
    assert_eq!(lines[2]["result"]["verdict"], "reject");
    assert_eq!(lines[2]["result"]["index"], 1);
    valid(&schema("result"), &lines[2]["result"]);
}

#[test]
fn malformed_answers_are_refused() {
    let answers = schema("run-answer");
    for bad in [
        json!({"seq": 1}),
        json!({"seq": 1, "result": {"verdict": "maybe"}}),
        json!({"seq": 1, "result": {"verdict": "reject", "index": -1}}),
        json!({"seq": 1, "result": {"verdict": "accept"}, "skipped": {"reason": "x"}}),
        json!({"result": {"verdict": "accept"}}),
    ] {
        assert!(!answers.is_valid(&bad), "{bad}");
    }
    valid(
        &answers,
        &json!({"seq": 3, "skipped": {"reason": "no chunks"}}),
    );
    valid(
        &answers,
        &json!({"seq": 3, "errored": {"message": "boom", "context": {"line": 2}}}),
    );
    let start = schema("start-answer");
    assert!(!start.is_valid(
        &json!({"protocol": 1, "implementation": {"name": "x"}, "capabilities": ["index"]})
    ));
    valid(&start, &json!({"protocol": 2, "error": "speaks 2"}));
}
