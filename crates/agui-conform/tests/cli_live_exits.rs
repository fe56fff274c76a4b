//! `check --url` and `run --producer` end to end: every way an exchange
//! can end gives an exit status that agrees with what is printed (README
//! "Verdict and exit status": 0 accept, 1 reject, 3 inconclusive, 2 when
//! nothing could be checked), in every output format; a SIGTERM or SIGINT
//! prints the report of what was received; a producer that keeps the
//! connection open after its run is let go; events that came with a
//! transport fault are checked.

mod support;

use serde_json::{Value, json};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use support::events::{finish, not_open, start};
use support::raw::{RawEnd, RawReply, RawServer, head};
use support::server::{End, Reply, Server, corpus_events, sse_body};
use support::{BIN, run, text};

/// The exit status a verdict stands for.
fn exit_of(verdict: &str) -> i32 {
    match verdict {
        "accept" => 0,
        "reject" => 1,
        "inconclusive" => 3,
        other => panic!("verdict {other}"),
    }
}

/// Checks `url` in every format with `extra` flags; asserts that the exit
/// status agrees with what was printed and is `want`; returns the JSON.
fn check_all_formats(url: &str, extra: &[&str], want: i32) -> Value {
    let mut json_out = Value::Null;
    for format in ["json", "text", "sarif"] {
        let mut args = vec!["check", "--url", url, "--format", format];
        args.extend_from_slice(extra);
        let out = run(&args);
        let code = out.status.code().unwrap();
        let stdout = text(&out.stdout);
        let err = text(&out.stderr);
        assert_eq!(code, want, "{url} {format} {extra:?}: {stdout}\n{err}");
        match format {
            "json" => {
                let v: Value = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
                    panic!("{url}: not one JSON object ({e}): {stdout:?}\n{err}")
                });
                match v.get("verdict").and_then(Value::as_str) {
                    Some(verdict) => assert_eq!(exit_of(verdict), code, "{v}"),
                    None => {
                        assert_eq!(code, 2, "{v}");
                        assert_eq!(v["url"], url, "{v}");
                        assert!(v["error"].is_string(), "{v}");
                    }
                }
                json_out = v;
            }
            "sarif" => {
                let v: Value = serde_json::from_str(stdout.trim()).unwrap();
                let ok = v["runs"][0]["invocations"][0]["executionSuccessful"].as_bool();
                assert_eq!(ok, Some(code != 2), "{v}");
            }
            _ => {
                if code == 2 {
                    assert!(stdout.is_empty(), "{stdout}");
                    assert!(err.contains("agui-conform: error:"), "{err}");
                } else {
                    let verdict = ["accept", "reject", "inconclusive"]
                        .into_iter()
                        .find(|v| stdout.contains(&format!(": {v} — ")))
                        .unwrap_or_else(|| panic!("no verdict line: {stdout}"));
                    assert_eq!(exit_of(verdict), code, "{stdout}");
                }
            }
        }
    }
    json_out
}

fn rules(report: &Value) -> Vec<(String, u64)> {
    report["violations"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|v| {
                    (
                        v["rule"].as_str().unwrap_or_default().to_owned(),
                        v["index"].as_u64().unwrap_or_default(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn limit_kinds(report: &Value) -> Vec<(String, u64)> {
    report["limits"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|n| {
                    (
                        n["kind"].as_str().unwrap_or_default().to_owned(),
                        n["index"].as_u64().unwrap_or_default(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn every_ending_exits_as_its_verdict_says() {
    let quick = ["--idle-timeout", "0.4", "--timeout", "10"];
    // Accept, reject, a non-2xx status.
    let ok = Server::replying(Reply::sse(sse_body(&[start(), finish()])));
    check_all_formats(&ok.url(), &[], 0);
    let bad = Server::replying(Reply::sse(sse_body(&corpus_events(
        "ownership/continuation-disagrees.json",
    ))));
    check_all_formats(&bad.url(), &[], 1);
    let down = Server::replying(Reply::sse("busy").status(503));
    check_all_formats(&down.url(), &[], 1);

    // A JSON error page: no event, but it breaks rules (framing, an
    // unterminated event): a reject, exit 1 (it used to exit 2).
    let page = Server::replying(
        Reply::sse(r#"{"error":"use /stream"}"#).content_type(Some("application/json")),
    );
    let v = check_all_formats(&page.url(), &[], 1);
    assert_eq!(v["verdict"], "reject");
    assert_eq!(v["events"], 0);

    // An empty body: nothing to judge and no rule broken: cannot check.
    let empty = Server::replying(Reply::sse(""));
    let v = check_all_formats(&empty.url(), &[], 2);
    assert!(v["error"].as_str().unwrap().contains("no SSE event"), "{v}");

    // Nothing listens: cannot check.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let v = check_all_formats(&format!("http://127.0.0.1:{port}/"), &[], 2);
    assert!(
        v["error"].as_str().unwrap().contains("request failed"),
        "{v}"
    );

    // No head ever: our idle limit, a time notice at 0, inconclusive.
    let mute = RawServer::start(|_| RawReply {
        bytes: Vec::new(),
        end: RawEnd::Hang(Duration::from_secs(4)),
    });
    let v = check_all_formats(&mute.url("x"), &quick, 3);
    assert_eq!(limit_kinds(&v), [("time".to_owned(), 0)]);
    assert_eq!(rules(&v), []);

    // A head, then silence; a body stalled inside an event.
    let silent = Server::replying(Reply::sse("").end(End::Hang(Duration::from_secs(4))));
    let v = check_all_formats(&silent.url(), &quick, 3);
    assert_eq!(limit_kinds(&v), [("time".to_owned(), 0)]);
    let mut stalled = sse_body(&[start()]);
    stalled.extend_from_slice(b"data: {\"type\":\"TEXT_MESS");
    let stalled = Server::replying(Reply::sse(stalled).end(End::Hang(Duration::from_secs(4))));
    let v = check_all_formats(&stalled.url(), &quick, 3);
    assert_eq!(limit_kinds(&v), [("time".to_owned(), 1)]);
    assert_eq!(rules(&v), []);

    // An error before our time limit: reject.
    let erred = Server::replying(
        Reply::sse(sse_body(&[start(), not_open()])).end(End::Hang(Duration::from_secs(4))),
    );
    let v = check_all_formats(&erred.url(), &quick, 1);
    assert_eq!(rules(&v), [("text.not-open".to_owned(), 1)]);
}

#[test]
fn events_with_a_broken_chunk_are_checked() {
    // RUN_STARTED, a TEXT_MESSAGE_CONTENT of nothing open, then a
    // malformed chunk header, all in one write.
    let events = sse_body(&[start(), not_open()]);
    let server = RawServer::start(move |_| {
        let mut bytes = head(&["Transfer-Encoding: chunked"]);
        bytes.extend_from_slice(format!("{:x}\r\n", events.len()).as_bytes());
        bytes.extend_from_slice(&events);
        bytes.extend_from_slice(b"\r\nzz\r\n");
        RawReply {
            bytes,
            end: RawEnd::Close,
        }
    });
    let v = check_all_formats(&server.url("x"), &[], 1);
    assert_eq!(v["events"], 2);
    assert_eq!(
        rules(&v),
        [
            ("text.not-open".to_owned(), 1),
            ("transport.ended-early".to_owned(), 2)
        ]
    );
}

#[test]
fn a_connection_kept_open_after_the_run_is_let_go_with_a_time_notice() {
    let server = Server::replying(
        Reply::sse(sse_body(&[start(), finish()])).end(End::Hang(Duration::from_secs(8))),
    );
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("let-go");
    std::fs::create_dir_all(&dir).unwrap();
    let (sarif, junit) = (dir.join("log.sarif"), dir.join("junit.xml"));
    let t = Instant::now();
    let out = run(&[
        "check",
        "--url",
        &server.url(),
        "--format",
        "json",
        "--run-end-grace",
        "0.3",
        "--sarif",
        sarif.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ]);
    assert!(t.elapsed() < Duration::from_secs(4), "{:?}", t.elapsed());
    // Our stop after the run: a `time` notice, so inconclusive (exit 3):
    // anything sent later was not judged (docs/rules.md "Checker limits").
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "inconclusive");
    assert_eq!(v["violations"], json!([]));
    assert_eq!(v["limits"][0]["kind"], "time");
    assert_eq!(v["limits"][0]["index"], 2);
    let message = v["limits"][0]["message"].as_str().unwrap();
    assert!(message.contains("--run-end-grace 0.3"), "{message}");
    let gaps = v["coverage"]["notEvaluable"].to_string();
    assert!(gaps.contains("time limit"), "{gaps}");
    assert!(text(&out.stderr).contains("kept the connection open"));
    for file in [&sarif, &junit] {
        let written = std::fs::read_to_string(file).unwrap();
        assert!(written.contains("--run-end-grace 0.3"), "{written}");
    }
    // The text report names it too.
    let out = run(&["check", "--url", &server.url(), "--run-end-grace", "0.3"]);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("limit   time:"), "{report}");
    assert!(report.contains("--run-end-grace 0.3"), "{report}");
}

/// `check --url --format json` against `url`, stopped by `signal` once
/// its stderr shows `marker` (the events arrived; a moment more so they
/// are checked), or after a moment when there is none to wait for.
fn signalled(url: &str, signal: i32, marker: Option<&str>) -> (Output, Duration) {
    use std::io::{BufRead, BufReader, Read};
    let mut child = Command::new(BIN)
        .args(["check", "--url", url, "--format", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    if let Some(marker) = marker {
        while !seen.contains(marker) {
            if stderr.read_line(&mut seen).unwrap_or(0) == 0 {
                break;
            }
        }
        assert!(seen.contains(marker), "{seen}");
    }
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    // SAFETY: a signal to our own child.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
    let mut out = child.wait_with_output().unwrap();
    stderr.read_to_string(&mut seen).unwrap();
    out.stderr = seen.into_bytes();
    (out, t.elapsed())
}

#[test]
fn a_signal_prints_the_report_of_what_was_received() {
    for (signal, name) in [(libc::SIGTERM, "SIGTERM"), (libc::SIGINT, "SIGINT")] {
        // An error first: reject, exit 1.
        let server = Server::replying(
            Reply::sse(sse_body(&[start(), not_open()])).end(End::Hang(Duration::from_secs(20))),
        );
        let (out, took) = signalled(&server.url(), signal, Some("text.not-open"));
        assert!(took < Duration::from_secs(3), "{took:?}");
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {:?}", text(&out.stdout)));
        assert_eq!(v["verdict"], "reject");
        assert_eq!(v["events"], 2);
        // Not the producer's fault: no run.unterminated, no ended-early.
        assert_eq!(rules(&v), [("text.not-open".to_owned(), 1)]);
        assert_eq!(limit_kinds(&v), [("time".to_owned(), 2)]);
        let m = v["limits"][0]["message"].as_str().unwrap();
        assert!(m.contains(&format!("stopped by {name}")), "{m}");
        assert_eq!(v["runs"][0]["outcome"], "unterminated");

        // Nothing wrong before the stop: inconclusive, exit 3.
        let server = Server::replying(
            Reply::sse(sse_body(&[start()])).end(End::Hang(Duration::from_secs(20))),
        );
        let (out, _) = signalled(&server.url(), signal, Some("HTTP 200"));
        assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["verdict"], "inconclusive");
        assert_eq!(rules(&v), []);
    }
    // Before any response head.
    let mute = RawServer::start(|_| RawReply {
        bytes: Vec::new(),
        end: RawEnd::Hang(Duration::from_secs(20)),
    });
    let (out, took) = signalled(&mute.url("x"), libc::SIGTERM, None);
    assert!(took < Duration::from_secs(3), "{took:?}");
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(limit_kinds(&v), [("time".to_owned(), 0)]);
}

#[test]
fn run_producer_writes_its_reports_on_a_signal() {
    let server =
        Server::replying(Reply::sse(sse_body(&[start()])).end(End::Hang(Duration::from_secs(20))));
    let dir = support::Dir::new("producer-signal");
    let record = dir.path("record.jsonl");
    let child = Command::new(BIN)
        .args([
            "run",
            "--producer",
            &server.url(),
            "--format",
            "json",
            "--record",
            record.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Once the first scenario's request arrived, and a moment more.
    let deadline = Instant::now() + Duration::from_secs(15);
    while server.requests().is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: a signal to our own child.
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) },
        0
    );
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143), "{}", text(&out.stderr));
    let lines: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The scenario that was running, stopped (ERRORED), then the summary.
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0]["score"], "ERRORED");
    assert!(
        lines[0]["failure"]
            .as_str()
            .unwrap()
            .contains("stopped by SIGTERM"),
        "{}",
        lines[0]
    );
    let summary = &lines[1]["summary"];
    assert!(
        summary["incomplete"]
            .as_str()
            .unwrap()
            .starts_with("interrupted by SIGTERM: 1 of "),
        "{summary}"
    );
    let footer: Value = serde_json::from_str(
        std::fs::read_to_string(&record)
            .unwrap()
            .lines()
            .last()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(footer["status"], "incomplete", "{footer}");
    assert_eq!(footer["exit_status"], 143, "{footer}");
}

#[test]
fn run_producer_checks_the_events_before_a_broken_chunk() {
    // Every request: a run whose second event breaks text.not-open, then
    // a malformed chunk header in the same write.
    let server = RawServer::start(|_| {
        let events = sse_body(&[start(), not_open()]);
        let mut bytes = head(&["Transfer-Encoding: chunked"]);
        bytes.extend_from_slice(format!("{:x}\r\n", events.len()).as_bytes());
        bytes.extend_from_slice(&events);
        bytes.extend_from_slice(b"\r\nzz\r\n");
        RawReply {
            bytes,
            end: RawEnd::Close,
        }
    });
    let out = run(&[
        "run",
        "--producer",
        &server.url("agent"),
        "--format",
        "json",
        "--filter",
        "continue-thread",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let first: Value = serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(first["score"], "FAIL", "{first}");
    assert_eq!(first["steps"][0]["events"], 2, "{first}");
    assert_eq!(
        rules(&first),
        [
            ("text.not-open".to_owned(), 1),
            ("transport.ended-early".to_owned(), 2)
        ]
    );
    // The answer held a run: the next step is not sent because it did not
    // end, not because no run was seen.
    let skipped = first["skipped"].as_str().unwrap_or_default();
    assert!(!skipped.contains("held no run"), "{skipped}");
}

#[test]
fn outputs_say_so_when_nothing_was_checked_or_cannot_be_written() {
    let dir = support::Dir::new("live-outputs");
    // Nothing listens: `--junit` gets one erroring test case.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let junit = dir.path("junit.xml");
    let url = format!("http://127.0.0.1:{port}/");
    let out = run(&["check", "--url", &url, "--junit", junit.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("<error") && xml.contains("could not check"),
        "{xml}"
    );
    // A capture that cannot be written (a full device): the report keeps
    // the check's verdict, the exit status says the output failed (2).
    let Some(full) = support::full_device("the full-device part") else {
        return;
    };
    let ok = Server::replying(Reply::sse(sse_body(&[start(), finish()])));
    let out = run(&[
        "check",
        "--url",
        &ok.url(),
        "--format",
        "json",
        "--save",
        full.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "accept");
    assert!(text(&out.stderr).contains("saving the capture failed"));
}
