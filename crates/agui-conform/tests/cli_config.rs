//! Rule configuration of `check`: `--rule`, `--fail-on`, `--max-warnings`
//! and `agui-conform.toml` (found from the working directory upwards,
//! `--config`, `--no-config`).
//!
//! The stream used: `RUN_STARTED` alone, whose only violation is
//! `run.unterminated` (an error, docs/rules.md) at index 1.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_agui-conform");
const START: &str = r#"{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}"#;

/// A fresh directory holding the stream as `s.jsonl`.
fn dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("cli_config")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("sub")).unwrap();
    std::fs::write(d.join("s.jsonl"), format!("{START}\n")).unwrap();
    d
}

fn check_in(cwd: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(cwd)
        .arg("check")
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_rule_turned_off_is_not_reported_nor_counted() {
    let d = dir("off");
    let out = check_in(
        &d,
        &[
            "s.jsonl",
            "--rule",
            "run.unterminated=off",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["violations"], serde_json::json!([]));
    assert_eq!(v["verdict"], "accept");
}

#[test]
fn a_severity_change_changes_the_verdict_and_thresholds_apply() {
    let d = dir("sev");
    let warn = [
        "s.jsonl",
        "--rule",
        "run.unterminated=warning",
        "--format",
        "json",
    ];
    let out = check_in(&d, &warn);
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(v["violations"][0]["severity"], "warning");
    assert_eq!(v["verdict"], "accept");
    let with = |extra: &[&str]| {
        let mut a = warn.to_vec();
        a.extend_from_slice(extra);
        check_in(&d, &a).status.code()
    };
    assert_eq!(with(&["--fail-on", "warning"]), Some(1));
    assert_eq!(with(&["--max-warnings", "0"]), Some(1));
    assert_eq!(with(&["--max-warnings", "1"]), Some(0));
    // A warning raised to an error rejects: a tag on RUN_STARTED is the
    // warning attribution.not-attributable.
    std::fs::write(
        d.join("w.jsonl"),
        concat!(
            r#"{"type":"RUN_STARTED","threadId":"t1","runId":"r1","subagentRunId":"s"}"#,
            "\n",
            r#"{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}"#,
            "\n"
        ),
    )
    .unwrap();
    assert_eq!(check_in(&d, &["w.jsonl"]).status.code(), Some(0));
    let raise = ["w.jsonl", "--rule", "attribution.not-attributable=error"];
    assert_eq!(check_in(&d, &raise).status.code(), Some(1));
}

#[test]
fn the_config_file_is_found_upwards_and_flags_win() {
    let d = dir("file");
    std::fs::write(
        d.join("agui-conform.toml"),
        "[rules]\n\"run.unterminated\" = \"off\"\n",
    )
    .unwrap();
    let sub = d.join("sub");
    let s = d.join("s.jsonl");
    let s = s.to_str().unwrap();
    // Found from a subdirectory.
    assert_eq!(check_in(&sub, &[s]).status.code(), Some(0));
    // Ignored on request; a flag wins over the file.
    assert_eq!(check_in(&sub, &[s, "--no-config"]).status.code(), Some(1));
    assert_eq!(
        check_in(&sub, &[s, "--rule", "run.unterminated=error"])
            .status
            .code(),
        Some(1)
    );
    // Named explicitly from elsewhere.
    let other = d.join("sub/strict.toml");
    std::fs::write(
        &other,
        "fail-on = \"warning\"\n[rules]\n\"run.unterminated\" = \"warning\"\n",
    )
    .unwrap();
    let out = check_in(&d, &[s, "--config", other.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn mistakes_in_the_configuration_are_usage_errors() {
    let d = dir("bad");
    let out = check_in(&d, &["s.jsonl", "--rule", "run.unterminatd=off"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown rule"));
    std::fs::write(d.join("agui-conform.toml"), "[rules]\n\"x\" = 1\n").unwrap();
    let out = check_in(&d, &["s.jsonl"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("agui-conform.toml"));
}

#[test]
fn run_producer_takes_the_same_configuration() {
    // A producer whose every answer is RUN_STARTED alone: run.unterminated.
    #[path = "../../agui-live/tests/support/server.rs"]
    mod server;
    let s = server::Server::replying(server::Reply::sse(format!("data: {START}\n\n")));
    let d = dir("suite");
    let run = |extra: &[&str]| {
        let mut c = Command::new(BIN);
        c.current_dir(&d)
            .args(["run", "--producer", &s.url(), "--no-progress"])
            .args(extra);
        c.output().unwrap()
    };
    assert_eq!(run(&[]).status.code(), Some(1));
    let out = run(&["--rule", "run.unterminated=off"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let warn = ["--rule", "run.unterminated=warning"];
    assert_eq!(run(&warn).status.code(), Some(0));
    assert_eq!(
        run(&[&warn[..], &["--fail-on", "warning"]].concat())
            .status
            .code(),
        Some(1)
    );
}

#[test]
fn an_endless_configuration_file_is_refused_not_read_forever() {
    let d = dir("endless-config");
    let file = d.join("s.jsonl");
    std::fs::write(&file, START).unwrap();
    let out = check_in(&d, &["--config", "/dev/zero", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/dev/zero") && err.contains("larger than"),
        "{err}"
    );
}
