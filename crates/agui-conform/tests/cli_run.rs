//! `agui-conform run` as CI runs it: a run that ran nothing, lost cases or
//! aborted is never green (exit status 3, suites/README.md) and still
//! writes every report it was asked for; `--strict` fails on WARN; SIGINT
//! and SIGTERM kill the implementation and whatever it started, and the
//! reports say why the run stopped. The implementations are small shell
//! scripts speaking suites/PROTOCOL.md.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod support;
use support::{Dir, accept_all, agui_run, run_summary};

fn run(args: &[&str]) -> Output {
    agui_run().args(args).output().unwrap()
}

fn code(out: &Output) -> Option<i32> {
    out.status.code()
}

#[test]
fn a_filter_matching_nothing_is_not_green() {
    let d = Dir::new("run-filter");
    let junit = d.path("j.xml");
    let out = run(&[
        "--suite",
        "quick",
        "--filter",
        "no-case-has-this-id",
        "--junit",
        junit.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), Some(3), "{out:?}");
    let s = run_summary(&out);
    assert_eq!(s["ok"], false);
    assert_eq!(s["cases"], 0);
    assert_eq!(s["exit_status"], 3);
    assert!(
        s["problems"][0]
            .as_str()
            .unwrap()
            .contains("--filter `no-case-has-this-id` matches no case"),
        "{s}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("<error"), "{xml}");
}

#[test]
fn a_lost_corpus_file_or_folder_is_not_green() {
    let d = Dir::new("run-lost");
    d.file(
        "corpus/run/good.json",
        r#"{"id": "run/good", "description": "d", "spec": "s",
            "events": [{"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
                       {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}],
            "expect": {"verdict": "accept"}}"#,
    );
    d.file("corpus/run/broken.json", "{ not json");
    let suite = d.file("s.toml", "[corpus]\ndirs = [\"corpus\"]\n");
    let out = run(&["--suite", suite.to_str().unwrap()]);
    assert_eq!(code(&out), Some(3), "{out:?}");
    let s = run_summary(&out);
    assert_eq!(s["cases"], 1);
    assert_eq!(s["scores"]["PASS"], 1);
    assert!(s["problems"][0].as_str().unwrap().contains("broken.json"));

    let missing = d.file("m.toml", "[corpus]\ndirs = [\"no-such-folder\"]\n");
    let out = run(&["--suite", missing.to_str().unwrap()]);
    assert_eq!(code(&out), Some(3), "{out:?}");
    assert!(
        run_summary(&out)["problems"][0]
            .as_str()
            .unwrap()
            .ends_with("not found")
    );
}

/// Issue point 4: an implementation that never answers `start` aborts
/// the run, and the JSON summary, JUnit and Markdown still say why.
#[test]
fn a_silent_start_aborts_with_every_report_written() {
    let d = Dir::new("run-silent-start");
    let imp = d.script("silent.sh", "sleep 30\n");
    let (junit, md) = (d.path("j.xml"), d.path("r.md"));
    let t = Instant::now();
    let out = run(&[
        "--suite",
        "quick",
        "--impl",
        &imp,
        "--start-timeout-ms",
        "300",
        "--junit",
        junit.to_str().unwrap(),
        "--markdown",
        md.to_str().unwrap(),
    ]);
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    assert_eq!(code(&out), Some(3), "{out:?}");
    let s = run_summary(&out);
    let why = s["aborted"].as_str().unwrap();
    assert!(why.contains("no handshake answer"), "{why}");
    assert_eq!(s["ok"], false);
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("no handshake answer"), "{xml}");
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(md.contains("INCOMPLETE (exit status 3)"), "{md}");
}

#[test]
fn strict_fails_on_warn() {
    let d = Dir::new("run-strict");
    let imp = d.script("accept.sh", &accept_all("accept-all", ""));
    // `ownership.step-owner` is should-reject: accepting it is a WARN.
    let args = [
        "--suite",
        "quick",
        "--filter",
        "ownership/step-owner-interleaved",
        "--impl",
        &imp,
    ];
    let out = run(&args);
    assert_eq!(code(&out), Some(0), "{out:?}");
    assert_eq!(run_summary(&out)["scores"]["WARN"], 1);
    let mut strict = args.to_vec();
    strict.push("--strict");
    let out = run(&strict);
    assert_eq!(code(&out), Some(1), "{out:?}");
    assert_eq!(run_summary(&out)["strict"], true);
}

fn is_running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => false,
        Ok(s) => !s
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
    }
}

fn wait_until(limit: Duration, mut f: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + limit;
    while Instant::now() < until {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// Issue point 2: a signal to the harness mid-run kills the hanging
/// implementation and the child it started (both in their own process
/// group, out of the terminal's reach), and the reports are written.
#[test]
fn a_signal_mid_run_kills_the_implementation_and_writes_reports() {
    for (signal, status) in [("TERM", 143), ("INT", 130)] {
        let d = Dir::new(&format!("run-signal-{signal}"));
        let pids = d.path("pids");
        // Handshake, start a child, then hang on the first case.
        let imp = d.script(
            "hang.sh",
            &format!(
                "read -r line\nsleep 1000 &\necho \"$$ $!\" > {}\n\
                 echo '{{\"protocol\":1,\"implementation\":{{\"name\":\"hang\"}},\"capabilities\":[\"verdict\"]}}'\n\
                 read -r line\nsleep 1000\n",
                pids.display()
            ),
        );
        let junit = d.path("j.xml");
        let mut child = agui_run()
            .args(["--suite", "quick"])
            .args(["--timeout-ms", "60000", "--junit", junit.to_str().unwrap()])
            .args(["--impl", &imp])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = wait_until(Duration::from_secs(20), || {
            std::fs::read_to_string(&pids).is_ok_and(|s| s.ends_with('\n'))
        });
        assert!(started, "the implementation never started");
        // Let the first case reach the implementation.
        std::thread::sleep(Duration::from_millis(300));
        let killed = Command::new("kill")
            .args([format!("-{signal}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let mut exit = None;
        wait_until(Duration::from_secs(20), || {
            exit = child.try_wait().unwrap();
            exit.is_some()
        });
        let Some(exit) = exit else {
            let _ = child.kill();
            panic!("the harness did not end after SIG{signal}");
        };
        assert_eq!(exit.code(), Some(status), "SIG{signal}");
        let text = std::fs::read_to_string(&pids).unwrap();
        let ours: Vec<u32> = text
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .collect();
        assert_eq!(ours.len(), 2, "{text}");
        assert!(
            wait_until(Duration::from_secs(5), || ours
                .iter()
                .all(|p| !is_running(*p))),
            "SIG{signal}: still running: {ours:?}"
        );
        let xml = std::fs::read_to_string(&junit).unwrap();
        let sig = if signal == "TERM" { 15 } else { 2 };
        assert!(
            xml.contains(&format!("interrupted by signal {sig}")),
            "{xml}"
        );
        let mut stdout = String::new();
        use std::io::Read;
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut stdout)
            .unwrap();
        let last: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
        assert_eq!(last["summary"]["ok"], false);
        assert!(Path::new(&junit).exists());
    }
}

/// One answer per case: an implementation that answers a case twice (the
/// second answer 200 ms later, while the next case runs; for the last
/// case, after `stop`) gets that case ERRORED for it, and the case lines
/// of `--format json`, the record's case lines, the summary and the
/// record's footer all say the same.
#[test]
fn a_case_answered_twice_is_errored_alike_in_every_output() {
    let d = Dir::new("run-twice");
    let twice = "    *'after-error-interleaved'*|*'after-error-run-finished'*) \
        seq=$(printf '%s' \"$line\" | sed 's/^[^0-9]*\"seq\":\\([0-9]*\\).*/\\1/')\n       \
        echo \"{\\\"seq\\\":$seq,\\\"result\\\":{\\\"verdict\\\":\\\"reject\\\",\\\"index\\\":2}}\"; sleep 0.2\n       \
        echo \"{\\\"seq\\\":$seq,\\\"result\\\":{\\\"verdict\\\":\\\"reject\\\",\\\"index\\\":2}}\" ;;\n";
    let imp = d.script("imp.sh", &accept_all("twice", twice));
    let record = d.path("run.jsonl");
    let out = run(&[
        "--suite",
        "quick",
        "--filter",
        "run/after-error",
        "--impl",
        &imp,
        "--record",
        record.to_str().unwrap(),
    ]);
    assert_eq!(code(&out), Some(1), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (cases, summary) = lines.split_at(lines.len() - 1);
    let scores = |cases: &[Value]| -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = cases
            .iter()
            .map(|c| {
                (
                    c["id"].as_str().unwrap().to_owned(),
                    c["score"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let printed = scores(cases);
    assert_eq!(
        printed,
        [
            // Accepted: `run.after-error` is must-reject (revision 4).
            ("run/after-error".to_owned(), "FAIL".to_owned()),
            (
                "run/after-error-interleaved".to_owned(),
                "ERRORED".to_owned()
            ),
            (
                "run/after-error-late-run-error".to_owned(),
                "FAIL".to_owned()
            ),
            (
                "run/after-error-run-finished".to_owned(),
                "ERRORED".to_owned()
            ),
        ]
    );
    for c in cases.iter().filter(|c| c["score"] == "ERRORED") {
        let reason = c["got"]["errored"]["reason"].as_str().unwrap_or("");
        assert!(reason.starts_with("answered twice"), "{c}");
    }
    assert_eq!(
        summary[0]["summary"]["scores"]["ERRORED"], 2,
        "{}",
        summary[0]
    );
    // The two accepted cases break must-reject rules (revision 4).
    assert_eq!(summary[0]["summary"]["scores"]["FAIL"], 2, "{}", summary[0]);
    let kept: Vec<Value> = std::fs::read_to_string(&record)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let case_lines: Vec<Value> = kept
        .iter()
        .filter(|l| l["kind"] == "case")
        .cloned()
        .collect();
    assert_eq!(scores(&case_lines), printed);
    let footer = kept.last().unwrap();
    assert_eq!(footer["kind"], "footer");
    assert_eq!(footer["totals"]["ERRORED"], 2, "{footer}");
    assert_eq!(footer["totals"]["FAIL"], 2, "{footer}");
}
