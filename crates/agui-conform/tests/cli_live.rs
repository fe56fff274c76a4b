//! `agui-conform check --url` and `run --producer`, end to end: the built
//! binary against the test server of agui-live (127.0.0.1 only).
//!
//! Expected answers: exit statuses as documented (0 accept, 1 reject, 2
//! usage/IO/connection error); the corpus case `ownership/continuation-disagrees`
//! states its first violation (`ownership.continuation-disagrees` at 2).

mod support;

use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};
use support::server::{End, Framing, Reply, Server, corpus_events, sse_body};
use support::{BIN, run, scratch_dir, suite_server, text};

fn scratch(name: &str) -> PathBuf {
    scratch_dir("cli_live").join(name)
}

fn valid_events() -> Vec<Value> {
    vec![
        json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hi"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m1"}),
        json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"}),
    ]
}

#[test]
fn a_valid_stream_is_accepted() {
    let server = Server::replying(
        Reply::sse(sse_body(&valid_events())).pieces(&[3, 11], Duration::from_micros(200)),
    );
    let url = server.url();
    let out = run(&["check", "--url", &url]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        format!(
            "{url}: accept — no violations in 5 events\nruns: 1 finished\ncoverage: every rule judged; exercised: schema, run, entities; no event judged by: consistency, lifecycle, ownership, interrupts, chunks\n"
        )
    );
    assert!(text(&out.stderr).contains("HTTP 200, text/event-stream"));
    // The default input: POSTed JSON with fresh ids, one user message
    // (real producers refuse an empty conversation), empty collections.
    let sent = server.requests()[0].json();
    assert!(sent["threadId"].is_string() && sent["runId"].is_string());
    assert_eq!(sent["messages"].as_array().map(Vec::len), Some(1));
    assert_eq!(sent["messages"][0]["role"], "user");
    assert_eq!(
        sent["messages"][0]["content"],
        "Say hello in one short sentence."
    );
    assert_eq!(sent["tools"], json!([]));
    assert_eq!(sent["context"], json!([]));
    assert_eq!(sent["state"], json!({}));
    assert_eq!(sent["forwardedProps"], json!({}));
}

#[test]
fn a_rejected_stream_is_reported_live_and_saved() {
    let events = corpus_events("ownership/continuation-disagrees.json");
    let server = Server::replying(Reply::sse(sse_body(&events)).pieces(&[7], Duration::ZERO));
    let save = scratch("reject.jsonl");
    let out = run(&[
        "check",
        "--url",
        &server.url(),
        "--save",
        save.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    let live = err
        .lines()
        .find(|l| l.contains("ownership.continuation-disagrees"))
        .unwrap();
    assert!(live.trim_start().starts_with("live #2 "), "{live}");
    assert!(err.contains(&format!("saved {} events to", events.len())));
    let stdout = text(&out.stdout);
    assert!(stdout.contains(": reject — "), "{stdout}");
    assert!(stdout.contains("#2") && stdout.contains("ownership.continuation-disagrees"));
    // The capture holds the events served, one per line, as served.
    let served: String = events.iter().map(|e| format!("{e}\n")).collect();
    assert_eq!(std::fs::read_to_string(&save).unwrap(), served);
    // Re-checked offline, it gives the same verdict.
    let again = run(&["check", save.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(1));
}

#[test]
fn json_format_prints_one_object() {
    let server = Server::replying(Reply::sse(sse_body(&valid_events())));
    let out = run(&["check", "--url", &server.url(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(v["verdict"], "accept");
    assert_eq!(v["violations"], json!([]));
}

#[test]
fn input_file_and_headers_are_sent() {
    let server = Server::replying(Reply::sse(sse_body(&valid_events())));
    let input = scratch("input.json");
    std::fs::write(
        &input,
        r#"{"threadId":"t-mine","messages":[],"state":{"n":1}}"#,
    )
    .unwrap();
    let out = run(&[
        "check",
        "--url",
        &server.url(),
        "--input",
        input.to_str().unwrap(),
        "--header",
        "Authorization: Bearer s3cret",
        "--header",
        "X-Trace: 1",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let req = &server.requests()[0];
    assert_eq!(req.header("authorization"), Some("Bearer s3cret"));
    assert_eq!(req.header("x-trace"), Some("1"));
    let sent = req.json();
    assert_eq!(sent["threadId"], "t-mine");
    assert!(sent["runId"].as_str().unwrap().starts_with("run-"));
    assert_eq!(sent["state"], json!({"n": 1}));
}

#[test]
fn a_non_2xx_status_is_transport_status_and_exits_1() {
    let server = Server::replying(Reply::sse("model overloaded").status(503));
    let out = run(&["check", "--url", &server.url()]);
    // docs/rules.md: transport.status is an error at index 0: reject, exit 1.
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("transport.status"), "{report}");
    assert!(
        report.contains("HTTP 503") && report.contains("model overloaded"),
        "{report}"
    );
}

#[test]
fn a_body_ending_mid_event_is_reported_and_saved() {
    let events = valid_events();
    let mut body = sse_body(&events[..3]);
    body.extend_from_slice(b"data: {\"type\":\"TEXT_MESSAGE_E");
    let server = Server::replying(Reply::sse(body).framing(Framing::Close));
    let save = scratch("cut.jsonl");
    let out = run(&[
        "check",
        "--url",
        &server.url(),
        "--save",
        save.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    // The event lost at the end, and the run that never ended, both at 3.
    let report = text(&out.stdout);
    assert!(report.contains("transport.unterminated-event"), "{report}");
    assert!(report.contains("run.unterminated"), "{report}");
    let served: String = events[..3].iter().map(|e| format!("{e}\n")).collect();
    assert_eq!(std::fs::read_to_string(&save).unwrap(), served);

    // A chunked body cut inside the run ended early: no run.unterminated.
    let mut body = sse_body(&events[..3]);
    body.extend_from_slice(b"data: {\"type\":\"TEXT_MESSAGE_E");
    let server = Server::replying(Reply::sse(body).end(End::Cut));
    let out = run(&["check", "--url", &server.url(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rules: Vec<(&str, u64)> = v["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (x["rule"].as_str().unwrap(), x["index"].as_u64().unwrap()))
        .collect();
    assert_eq!(rules, [("transport.ended-early", 3)]);
}

#[test]
fn a_never_ending_stream_times_out() {
    let server = Server::replying(
        Reply::sse(sse_body(&valid_events()[..1])).end(End::Trickle {
            every: Duration::from_millis(50),
            total: Duration::from_secs(5),
        }),
    );
    let t = Instant::now();
    let out = run(&["check", "--url", &server.url(), "--timeout", "0.5"]);
    assert!(t.elapsed() < Duration::from_secs(4), "{:?}", t.elapsed());
    // Our time limit, not the producer's fault: a `time` limit notice, no
    // `run.unterminated`, verdict inconclusive (exit 3).
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("limit   time:"), "{report}");
    assert!(report.contains("inconclusive"), "{report}");
    assert!(
        !report
            .lines()
            .any(|l| l.starts_with("  #") && l.contains("run.unterminated")),
        "{report}"
    );
    // The coverage says the unfinished run went unjudged, from the cut.
    let coverage = report
        .lines()
        .find(|l| l.starts_with("coverage: "))
        .unwrap_or_default();
    assert!(
        coverage.contains("run.unterminated from #1 (the exchange was cut"),
        "{report}"
    );
}

#[test]
fn usage_errors_exit_2() {
    let out = run(&[
        "check",
        "--url",
        "http://127.0.0.1:9/",
        "--header",
        "nocolon",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("Name: value"));
    let out = run(&["check", "--input", "x.json"]);
    assert_eq!(out.status.code(), Some(2), "--input needs --url");
    let out = run(&["check", "--url", "http://127.0.0.1:9/", "--timeout", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn run_producer_scores_each_input() {
    let server = suite_server();
    let junit = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("producer-suite.xml");
    let out = run(&[
        "run",
        "--producer",
        &server.url(),
        "--suite",
        "producer",
        "--junit",
        junit.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("FAIL    state-carrying")),
        "{stdout}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("PASS    plain")),
        "{stdout}"
    );
    assert_eq!(
        *lines.last().unwrap(),
        "summary: 7 inputs — 3 PASS, 0 WARN, 3 SKIPPED, 1 FAIL, 0 ERRORED"
    );
    // One request per step sent: continue-thread has two; the resume and
    // tool scenarios stop after the first (never interrupted, no call).
    assert_eq!(server.requests().len(), 8);
    // JUnit: one case per scenario; the skipped ones skipped, the FAIL a
    // failure.
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<testcase ").count(), 7, "{xml}");
    assert_eq!(xml.matches("<skipped").count(), 3, "{xml}");
    assert_eq!(xml.matches("<failure").count(), 1, "{xml}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("SKIPPED resume-after-interrupt")),
        "{stdout}"
    );

    let out = run(&[
        "run",
        "--producer",
        &server.url(),
        "--format",
        "json",
        "--filter",
        "plain",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let lines: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["id"], "plain");
    assert_eq!(lines[0]["score"], "PASS");
    assert_eq!(lines[0]["steps"][0]["kind"], "input");
    assert_eq!(lines[0]["runs"][0]["outcome"], "finished");
    assert_eq!(lines[1]["summary"]["inputs"], 1);
    assert_eq!(lines[1]["summary"]["scores"]["PASS"], 1);
}

#[test]
fn input_flags_shape_the_request() {
    let server = Server::replying(Reply::sse(sse_body(&valid_events())));
    let url = server.url();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("input-flags");
    std::fs::create_dir_all(&dir).unwrap();
    let tool_file = dir.join("clock.json");
    std::fs::write(&tool_file, r#"{"name":"clock","description":"The time."}"#).unwrap();
    let tool_arg = format!("@{}", tool_file.display());
    let out = run(&[
        "check",
        "--url",
        &url,
        "--message",
        "Book a table.",
        "--state",
        r#"{"guests":2}"#,
        "--forwarded-props",
        r#"{"model":"m"}"#,
        "--tool",
        r#"{"name":"search"}"#,
        "--tool",
        &tool_arg,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let sent = server.requests()[0].json();
    // The message stands for the default greeting: the only message.
    assert_eq!(sent["messages"].as_array().map(Vec::len), Some(1));
    assert_eq!(sent["messages"][0]["role"], "user");
    assert_eq!(sent["messages"][0]["content"], "Book a table.");
    assert_eq!(sent["state"], json!({"guests": 2}));
    assert_eq!(sent["forwardedProps"], json!({"model": "m"}));
    assert_eq!(
        sent["tools"],
        json!([{"name": "search"}, {"name": "clock", "description": "The time."}])
    );
    // Without flags the default input carries one user message.
    run(&["check", "--url", &url]);
    let sent = server.requests()[1].json();
    assert_eq!(sent["messages"][0]["role"], "user");

    // run --producer: the base input and the flags go into every scenario,
    // the scenario winning.
    let base = dir.join("base.json");
    std::fs::write(
        &base,
        r#"{"forwardedProps":{"model":"base","temperature":0},"state":{"plan":"free"}}"#,
    )
    .unwrap();
    let out = run(&[
        "run",
        "--producer",
        &url,
        "--filter",
        "state-carrying",
        "--base-input",
        base.to_str().unwrap(),
        "--forwarded-props",
        r#"{"model":"flag"}"#,
    ]);
    assert!(out.status.code().is_some(), "{}", text(&out.stderr));
    let sent = server.requests()[2].json();
    // --forwarded-props replaces the base file's; the scenario's state is
    // merged over the base's.
    assert_eq!(sent["forwardedProps"], json!({"model": "flag"}));
    assert_eq!(sent["state"]["plan"], "free");
    assert_eq!(sent["state"]["revision"], 7);

    for (args, needs) in [
        (vec!["check", "--message", "hi", "-"], "--url"),
        (vec!["run", "--state", "{}"], "--producer"),
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2));
        assert!(text(&out.stderr).contains(needs), "{}", text(&out.stderr));
    }
    let out = run(&["check", "--url", &url, "--state", "{"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--state"));
}

#[test]
fn a_run_error_is_shown_in_every_report() {
    let server = Server::replying(Reply::sse(sse_body(&[
        json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"}),
        json!({"type": "RUN_ERROR", "message": "no user message", "code": "BAD_INPUT"}),
    ])));
    let url = server.url();
    // A RUN_ERROR breaks no rule: accepted, but the report says so.
    let out = run(&["check", "--url", &url]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("runs: 1 errored\n"), "{stdout}");
    assert!(
        stdout.contains("run r1 (#0–#1): errored: no user message [code BAD_INPUT]"),
        "{stdout}"
    );
    let out = run(&["check", "--url", &url, "--format", "json"]);
    let report: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert_eq!(
        report["runs"],
        json!([{"outcome": "errored", "start": 0, "end": 1, "threadId": "t1", "runId": "r1",
                "message": "no user message", "code": "BAD_INPUT"}])
    );
    let out = run(&["check", "--url", &url, "--format", "sarif"]);
    let log: Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    let invocation = &log["runs"][0]["invocations"][0];
    assert_eq!(
        invocation["properties"]["runOutcomes"][0]["outcome"],
        "errored"
    );
    assert_eq!(
        invocation["toolExecutionNotifications"][0]["descriptor"]["id"],
        "run.errored"
    );
}

/// `run --producer --tool-name`: a producer with a backend `get_weather`
/// refuses the tool scenario as shipped (FAIL) and passes it with the
/// client tool renamed; the producer is offered, told about and answered
/// for the new name.
#[test]
fn the_client_tool_name_is_a_flag() {
    let server = Server::start(|req| {
        let input = req.json();
        let (t, r) = (input["threadId"].clone(), input["runId"].clone());
        let start = json!({"type": "RUN_STARTED", "threadId": t, "runId": r});
        let finish = json!({"type": "RUN_FINISHED", "threadId": t, "runId": r});
        let tool = input["tools"][0]["name"].as_str().unwrap_or("").to_owned();
        let answered = input["messages"]
            .as_array()
            .is_some_and(|ms| ms.iter().any(|m| m["role"] == "tool"));
        let events = if tool == "get_weather" {
            vec![
                start,
                json!({"type": "RUN_ERROR", "message": "tool get_weather defined twice"}),
            ]
        } else if answered {
            vec![start, finish]
        } else {
            vec![
                start,
                json!({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": tool}),
                json!({"type": "TOOL_CALL_END", "toolCallId": "c1"}),
                finish,
            ]
        };
        Reply::sse(sse_body(&events))
    });
    let url = server.url();
    let args = ["run", "--producer", &url, "--filter", "tool-results"];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("FAIL    tool-results"));

    let before = server.requests().len();
    let out = run(&[&args[..], &["--tool-name", "client_weather"]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("PASS    tool-results"));
    let sent: Vec<Value> = server.requests()[before..]
        .iter()
        .map(|r| r.json())
        .collect();
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[0]["tools"][0]["name"], "client_weather");
    assert!(
        sent[0]["messages"][0]["content"]
            .as_str()
            .unwrap()
            .ends_with("Use the client_weather tool.")
    );
    let tool_message = &sent[1]["messages"][2];
    assert_eq!(tool_message["role"], "tool");
    assert_eq!(
        tool_message["content"], "{\"city\":\"Lisbon\",\"sky\":\"sunny\",\"celsius\":24}",
        "the scripted result for the renamed tool"
    );

    // A name no model API takes is refused before anything is sent.
    let out = run(&[&args[..], &["--tool-name", "two words"]].concat());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--tool-name `two words`"));
    assert_eq!(server.requests().len(), before + 2);
}

/// With stdout and stderr going to one place (here one file; a terminal
/// alike), each violation is shown once: in the report, not also as it
/// arrives. Apart, the live lines go to stderr and the report to stdout
/// (a_rejected_stream_is_reported_live_and_saved).
#[test]
fn findings_are_shown_once_when_stdout_and_stderr_are_one() {
    let events = corpus_events("ownership/continuation-disagrees.json");
    let server = Server::replying(Reply::sse(sse_body(&events)));
    let path = scratch("one-output.txt");
    let file = std::fs::File::create(&path).unwrap();
    let out = Command::new(BIN)
        .args(["check", "--url", &server.url()])
        .env("NO_COLOR", "1")
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .status()
        .unwrap();
    assert_eq!(out.code(), Some(1));
    let all = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        all.matches("ownership.continuation-disagrees:").count(),
        1,
        "{all}"
    );
    assert!(!all.contains("live #"), "{all}");
    // The report's line, and what only the live part says.
    assert!(
        all.contains("  #2     error   ownership.continuation-disagrees: "),
        "{all}"
    );
    assert!(all.contains("HTTP 200, text/event-stream"), "{all}");
    assert!(all.contains(": reject — "), "{all}");

    // Apart: the live line on stderr, the report's on stdout, one each.
    let out = run(&["check", "--url", &server.url()]);
    let (err, stdout) = (text(&out.stderr), text(&out.stdout));
    assert_eq!(
        err.matches("ownership.continuation-disagrees:").count(),
        1,
        "{err}"
    );
    assert_eq!(
        stdout.matches("ownership.continuation-disagrees:").count(),
        1,
        "{stdout}"
    );
}
