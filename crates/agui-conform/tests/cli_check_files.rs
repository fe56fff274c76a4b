//! `agui-conform check A B …` / `check DIR`: many files checked
//! in parallel, one report per file in argument order, each the same bytes
//! as checking that file alone, then a summary; the exit status over all;
//! and `--parse-ahead on` printing what one thread prints.
//!
//! Expected verdicts come from docs/rules.md: a first event without `type`
//! is `schema.unknown-type` (reject), a run that never finishes is
//! `run.unterminated` (reject), a well-formed run accepts.

mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use support::VALID;

const BIN: &str = env!("CARGO_BIN_EXE_agui-conform");

/// A first event without `type`: reject.
const UNTYPED: &str = "{\"threadId\":\"t1\"}\n";

/// A run that never finishes: reject (`run.unterminated`).
const OPEN: &str = r#"{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}
{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}
"#;

fn dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("cli_check_files")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_owned()
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// Many files of each kind, so that with two workers they finish out of
/// order: a large valid file first, small ones after it.
fn mixed(d: &Path) -> Vec<(String, &'static str)> {
    let mut big = String::new();
    for r in 0..300 {
        big.push_str(
            &VALID
                .replace("r1", &format!("r{r}"))
                .replace("m1", &format!("m{r}")),
        );
    }
    let big: &'static str = Box::leak(big.into_boxed_str());
    let kinds = [big, UNTYPED, VALID, OPEN, VALID, UNTYPED];
    kinds
        .iter()
        .enumerate()
        .map(|(k, text)| (write(d, &format!("{k}.jsonl"), text), *text))
        .collect()
}

#[test]
fn reports_come_in_argument_order_each_as_checked_alone() {
    let d = dir("order");
    let files = mixed(&d);
    // The totals the summary must add up: from each file checked alone.
    let (mut violations, mut rejected) = (0, 0);
    for format in ["json", "text"] {
        let mut args = vec!["check", "--format", format, "-j", "2"];
        args.extend(files.iter().map(|(p, _)| p.as_str()));
        let all = run(&args);
        let mut expected = Vec::new();
        for (p, _) in &files {
            let alone = run(&["check", "--format", format, p]);
            if format == "json" {
                let v: Value = serde_json::from_slice(&alone.stdout).unwrap();
                violations += v["counts"]["violations"].as_u64().unwrap();
                rejected += u64::from(v["verdict"] == "reject");
            }
            expected.extend_from_slice(&alone.stdout);
        }
        let out = all.stdout;
        assert!(
            out.starts_with(&expected),
            "{format}: the reports are not those of each file alone, in order:\n{}",
            String::from_utf8_lossy(&out)
        );
        let summary = String::from_utf8(out[expected.len()..].to_vec()).unwrap();
        let events = 300 * 5 + 1 + 5 + 2 + 5 + 1;
        if format == "json" {
            let v: Value = serde_json::from_str(summary.trim()).unwrap();
            let s = &v["summary"];
            assert_eq!(s["files"], 6);
            // The two untyped files and the open run reject; the rest accept.
            assert_eq!(rejected, 3);
            assert_eq!(
                (s["accept"].clone(), s["reject"].clone()),
                (3.into(), 3.into())
            );
            assert_eq!(s["events"], events);
            assert_eq!(s["violations"], violations);
            let names: Vec<&str> = s["perFile"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f["file"].as_str().unwrap())
                .collect();
            let given: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
            assert_eq!(names, given);
            assert_eq!(s["perFile"][1]["verdict"], "reject");
            assert_eq!(s["perFile"][2]["verdict"], "accept");
        } else {
            assert_eq!(
                summary.trim_end(),
                format!(
                    "6 files: 3 accept, 3 reject, 0 inconclusive, 0 unreadable — {events} events, {violations} violations"
                )
            );
        }
    }
}

#[test]
fn exit_status_is_over_all_files() {
    let d = dir("exit");
    let ok = write(&d, "ok.jsonl", VALID);
    let ok2 = write(&d, "ok2.jsonl", VALID);
    let bad = write(&d, "bad.jsonl", UNTYPED);
    assert_eq!(run(&["check", &ok, &ok2]).status.code(), Some(0));
    assert_eq!(run(&["check", &ok, &bad, &ok2]).status.code(), Some(1));
    // A file that cannot be read: 2, and JSON keeps one line per file.
    let missing = d.join("missing.jsonl");
    let missing = missing.to_str().unwrap();
    let o = run(&["check", "--format", "json", &ok, missing, &bad]);
    assert_eq!(o.status.code(), Some(2));
    let lines: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["verdict"], "accept");
    assert_eq!(lines[1]["file"], missing);
    assert!(lines[1]["error"].is_string());
    assert_eq!(lines[2]["verdict"], "reject");
    assert_eq!(lines[3]["summary"]["unreadable"], 1);
}

/// An empty file among others is inconclusive, not accepted: the summary
/// counts it so and the exit status is 3 when nothing is worse.
#[test]
fn an_empty_file_among_others_is_inconclusive() {
    let d = dir("empty");
    let ok = write(&d, "ok.jsonl", VALID);
    let empty = write(&d, "empty.jsonl", "\n");
    let o = run(&["check", "--format", "json", &ok, &empty]);
    assert_eq!(o.status.code(), Some(3));
    let lines: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[1]["verdict"], "inconclusive");
    assert_eq!(lines[1]["reason"], "the input holds no events");
    assert_eq!(lines[2]["summary"]["inconclusive"], 1);
    assert_eq!(lines[2]["summary"]["perFile"][1]["exit"], 3);
    let bad = write(&d, "bad.jsonl", UNTYPED);
    assert_eq!(run(&["check", &empty, &bad]).status.code(), Some(1));
}

#[test]
fn a_directory_is_its_stream_files_by_name() {
    let d = dir("dir");
    write(&d, "b.jsonl", UNTYPED);
    write(&d, "a.jsonl", VALID);
    write(&d, "notes.txt", "not a stream");
    let o = run(&["check", "--format", "json", d.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let lines: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "a.jsonl, b.jsonl, summary");
    assert_eq!(lines[0]["verdict"], "accept");
    assert_eq!(lines[1]["verdict"], "reject");
    assert_eq!(lines[2]["summary"]["files"], 2);
}

#[test]
fn several_files_make_one_sarif_log_and_one_junit_case_each_but_no_page() {
    let d = dir("several-outputs");
    let a = write(&d, "a.jsonl", VALID);
    let b = write(&d, "b.jsonl", "{}\n");
    // A lane page draws one stream.
    let o = run(&["check", &a, &b, "--html", "p.html"]);
    assert_eq!(o.status.code(), Some(2));
    // One SARIF log: b's violation at b, both files in the invocation.
    let o = run(&["check", &a, &b, "--format", "sarif"]);
    assert_eq!(o.status.code(), Some(1));
    let log: Value = serde_json::from_slice(&o.stdout).unwrap();
    let run0 = &log["runs"][0];
    let files = run0["invocations"][0]["properties"]["files"]
        .as_array()
        .unwrap();
    assert_eq!(files.len(), 2);
    assert_eq!(files[0]["file"], a.as_str());
    assert_eq!(files[1]["file"], b.as_str());
    let results = run0["results"].as_array().unwrap();
    assert!(!results.is_empty());
    for r in results {
        assert_eq!(
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            b.as_str()
        );
    }
    // One JUnit test case per file: a passes, b fails.
    let junit = Path::new(&d).join("j.xml");
    let o = run(&["check", &a, &b, "--junit", junit.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<testcase ").count(), 2, "{xml}");
    assert_eq!(xml.matches("<failure").count(), 1, "{xml}");
}

#[test]
fn parse_ahead_prints_what_one_thread_prints() {
    let d = dir("ahead");
    // Runs, a fast-path event outside any run, a broken line, a line too
    // deep for the limit below: every kind of item.
    let mut text = String::from(
        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"x\",\"delta\":\"early\"}\n",
    );
    for r in 0..50 {
        text.push_str(
            &VALID
                .replace("r1", &format!("r{r}"))
                .replace("m1", &format!("m{r}")),
        );
        if r == 20 {
            text.push_str("{\"type\":\n");
            text.push_str("{\"type\":\"CUSTOM\",\"name\":\"n\",\"value\":[[[[[[[[[[1]]]]]]]]]]}\n");
        }
    }
    let p = write(&d, "s.jsonl", &text);
    for extra in [
        &[][..],
        &["--max-depth", "5"][..],
        &["--max-line-bytes", "60"][..],
    ] {
        for format in ["text", "json"] {
            let mut one = vec![
                "check",
                "--format",
                format,
                "--all",
                "--parse-ahead",
                "off",
                &p,
            ];
            one.extend_from_slice(extra);
            let mut ahead = one.clone();
            ahead[5] = "on";
            let (a, b) = (run(&one), run(&ahead));
            assert!(!a.stdout.is_empty(), "{format} {extra:?}");
            assert_eq!(stdout(&a), stdout(&b), "{format} {extra:?}");
            assert_eq!(a.status.code(), b.status.code());
        }
    }
}

#[test]
fn a_broken_or_looping_link_in_a_directory_is_unreadable_not_skipped() {
    let d = dir("links");
    write(&d, "a.jsonl", VALID);
    std::os::unix::fs::symlink(d.join("nowhere.jsonl"), d.join("broken.jsonl")).unwrap();
    std::os::unix::fs::symlink(d.join("loop.jsonl"), d.join("loop.jsonl")).unwrap();
    let out = run(&["check", d.to_str().unwrap()]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("3 files: 1 accept, 0 reject, 0 inconclusive, 2 unreadable"),
        "{text}"
    );
}
