//! The JSON Schemas of `suites/protocol/` accept what the harness sends and
//! what the example implementation answers, and refuse malformed answers.

mod common;

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
    let events = common::valid_events();
    let run = serde_json::to_value(RunRequest::new(7, "gen/valid/1", &events)).unwrap();
    valid(&schema("run"), &run);
}

/// Talks to the example implementation: start, two runs, stop.
#[test]
fn what_the_example_answers_is_valid() {
    let mut child = Command::new(common::EXAMPLE)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let events = common::valid_events();
    let broken = vec![
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
        json!(42),
    ];
    for m in [
        start_request(),
        serde_json::to_value(RunRequest::new(1, "a", &events)).unwrap(),
        serde_json::to_value(RunRequest::new(2, "b", &broken)).unwrap(),
        stop_request(),
    ] {
        writeln!(stdin, "{m}").unwrap();
    }
    drop(stdin);
    let lines: Vec<Value> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect();
    assert!(child.wait().unwrap().success());
    assert_eq!(lines.len(), 3);
    valid(&schema("start-answer"), &lines[0]);
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
