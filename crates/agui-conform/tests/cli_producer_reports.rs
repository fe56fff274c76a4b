//! `run --producer` writes the reports `check` writes: `--json`, `--sarif`
//! and `--junit PATH`, and `--format json|sarif|junit` on stdout, each the
//! same document. The suite server (tests/support) answers every scenario
//! with a valid run but the state-carrying one, which breaks
//! `attribution.null` (error) at event 1: 3 PASS, 3 SKIPPED (the resume
//! and tool scenarios: never interrupted, no tool call), 1 FAIL.

mod support;

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};
use support::suite_server;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agui-conform"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn run_producer_writes_json_sarif_and_junit_files_and_prints_each_format() {
    let server = suite_server();
    let url = server.url();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("producer-reports");
    let _ = std::fs::remove_dir_all(&dir);
    let (json, sarif, junit) = (dir.join("r.json"), dir.join("r.sarif"), dir.join("r.xml"));
    let out = run(&[
        "run",
        "--producer",
        &url,
        "--no-progress",
        "--json",
        json.to_str().unwrap(),
        "--sarif",
        sarif.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("1 FAIL"), "text stays on stdout");

    // --json: a line per scenario, then the summary.
    let lines: Vec<Value> = std::fs::read_to_string(&json)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 8);
    assert_eq!(lines[7]["summary"]["scores"]["FAIL"], 1, "{}", lines[7]);

    // --sarif: one result, the FAIL's violation, with its scenario.
    let log: Value = serde_json::from_str(&std::fs::read_to_string(&sarif).unwrap()).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{log}");
    assert_eq!(results[0]["ruleId"], "attribution.null");
    assert_eq!(results[0]["properties"]["scenario"], "state-carrying");
    assert_eq!(results[0]["properties"]["score"], "FAIL");
    assert_eq!(results[0]["properties"]["eventIndex"], 1);
    assert_eq!(
        results[0]["locations"][0]["logicalLocations"][0]["fullyQualifiedName"],
        "state-carrying/events[1]"
    );
    let scenarios = &log["runs"][0]["invocations"][0]["properties"]["scenarios"];
    assert_eq!(scenarios.as_array().unwrap().len(), 7, "{scenarios}");
    let notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .unwrap();
    assert_eq!(notes.len(), 3, "a note per SKIPPED scenario: {notes:?}");
    assert!(notes.iter().all(|n| n["level"] == "note"));

    // --junit: the FAIL's message is its failure (counts and the first
    // error), never a skip reason; counts in singular where one.
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<testcase ").count(), 7, "{xml}");
    let failure = xml
        .split("<failure message=\"")
        .nth(1)
        .and_then(|f| f.split('"').next())
        .unwrap();
    assert!(
        failure.starts_with("1 error, 0 warnings in 3 events; first: #1 attribution.null: "),
        "{failure}"
    );

    // --format json|sarif|junit print the same documents on stdout.
    for (format, file) in [("json", &json), ("sarif", &sarif), ("junit", &junit)] {
        let out = run(&["run", "--producer", &url, "--format", format]);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{format}: {}",
            text(&out.stderr)
        );
        let printed = text(&out.stdout);
        let written = std::fs::read_to_string(file).unwrap();
        let same = |s: &str| {
            // Timings differ from run to run.
            s.lines()
                .map(|l| {
                    l.split(['"', '<', ' '])
                        .filter(|w| !w.contains("time") && !w.contains("elapsed"))
                        .count()
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(same(&printed), same(&written), "{format}");
        match format {
            "junit" => assert!(printed.starts_with("<?xml"), "{printed}"),
            _ => assert!(serde_json::from_str::<Value>(printed.lines().last().unwrap()).is_ok()),
        }
    }
}

#[test]
fn sarif_and_json_files_need_the_producer() {
    let out = run(&["run", "--sarif", "x.sarif"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--producer"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["run", "--format", "sarif", "--suite", "quick"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("needs --producer"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn suites_lists_a_producer_suites_scenarios_as_json() {
    let out = run(&["suites", "--scenarios", "producer"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    // `agui-conform suites` names these seven (suites/producer/).
    for id in [
        "continue-thread",
        "history-attributed",
        "plain",
        "resume-after-interrupt",
        "resume-cancelled",
        "state-carrying",
        "tool-results",
    ] {
        assert!(ids.contains(&id), "{id} in {ids:?}");
    }
    assert_eq!(ids.len(), 7);
    let out = run(&["suites", "--scenarios", "no-such-suite"]);
    assert_eq!(out.status.code(), Some(2));
}
