//! `check` of corpus cases (docs/decisions.md "Checking a corpus case"):
//! a case file, `gen`'s JSON Lines of cases on stdin, and a directory of
//! case files are checked as the streams they hold — each report the same
//! as checking that stream written as JSON Lines — and stderr says so.
//! Before, the case's own JSON was read as a stream: dozens of
//! `schema.*` violations.

mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;
use support::{jsonl, run_stdin, scratch_dir, text};

fn dir(name: &str) -> PathBuf {
    let d = scratch_dir("cli_check_cases").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `gen`'s JSON Lines of cases.
fn generate(args: &[&str]) -> Vec<u8> {
    let mut all = vec!["gen"];
    all.extend_from_slice(args);
    let out = run_stdin(&all, b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    out.stdout
}

/// A case's stream as JSON Lines, written here from the case's JSON (its
/// `lines` joined, or each event on a line).
fn stream_of(case: &Value) -> String {
    match case["lines"].as_array() {
        Some(lines) => {
            let mut s: Vec<&str> = lines.iter().map(|l| l.as_str().unwrap()).collect();
            s.push("");
            s.join("\n")
        }
        None => jsonl(case["events"].as_array().unwrap()),
    }
}

/// What `check ARGS -` prints for `stream` (the label is `<stdin>` either way).
fn checked_alone(stream: &str, args: &[&str]) -> Output {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    all.push("-");
    run_stdin(&all, stream.as_bytes())
}

#[test]
fn one_generated_case_on_stdin_is_its_stream() {
    for mode in [
        &["--valid"][..],
        &["--invalid", "ownership.continuation-disagrees"],
    ] {
        let mut args = vec!["--seed", "3", "--count", "1"];
        args.extend_from_slice(mode);
        let case_line = generate(&args);
        let case: Value = serde_json::from_slice(&case_line).unwrap();
        for format in ["text", "json"] {
            let got = run_stdin(&["check", "--format", format, "-"], &case_line);
            let want = checked_alone(&stream_of(&case), &["--format", format]);
            assert_eq!(text(&got.stdout), text(&want.stdout), "{mode:?} {format}");
            assert_eq!(got.status.code(), want.status.code());
            let note = text(&got.stderr);
            assert!(
                note.contains(&format!(
                    "<stdin> is a corpus case (`{}`",
                    case["id"].as_str().unwrap()
                )) && note.contains("not the case file"),
                "{note}"
            );
        }
    }
}

/// `gen --count N | check -`: one report per case (each that of its
/// stream alone), then the summary; the exit status over all.
#[test]
fn generated_json_lines_of_cases_are_checked_case_by_case() {
    let cases = generate(&["--seed", "11", "--count", "4", "--invalid", "all"]);
    let parsed: Vec<Value> = text(&cases)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let out = run_stdin(&["check", "--format", "json", "-"], &cases);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let lines: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5);
    for (case, report) in parsed.iter().zip(&lines) {
        let alone = checked_alone(&stream_of(case), &["--format", "json"]);
        let alone: Value = serde_json::from_slice(&alone.stdout).unwrap();
        assert_eq!(report, &alone, "{}", case["id"]);
        // What the case expects is what its stream gives (the reference
        // agrees with the generator).
        assert_eq!(report["verdict"], case["expect"]["verdict"]);
        assert_eq!(report["violations"][0]["rule"], case["expect"]["rule"]);
    }
    let s = &lines[4]["summary"];
    assert_eq!(s["files"], 4);
    assert_eq!(
        s["perFile"][1]["file"],
        "<stdin>:2 (gen/schema.unknown-type/12)"
    );
    assert!(text(&out.stderr).contains("holds JSON Lines of corpus cases"));
    let out = run_stdin(&["check", "-"], &cases);
    assert!(
        text(&out.stdout).contains("\n4 cases: 0 accept, 4 reject, 0 inconclusive, 0 unreadable"),
        "{}",
        text(&out.stdout)
    );
    // One SARIF log over the cases, each case its entry.
    let out = run_stdin(&["check", "--format", "sarif", "-"], &cases);
    assert_eq!(out.status.code(), Some(1));
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    let files = &log["runs"][0]["invocations"][0]["properties"]["files"];
    assert_eq!(files.as_array().map(Vec::len), Some(4));
    assert_eq!(files[1]["file"], "<stdin>:2 (gen/schema.unknown-type/12)");
    // A lane page draws one stream.
    let out = run_stdin(&["check", "--html", "p.html", "-"], &cases);
    assert_eq!(out.status.code(), Some(2));
}

/// A case file as the corpus writes it (pretty, over many lines), a raw
/// `lines` case, from a path and from stdin; SARIF points at no line of the
/// case file (the stream's lines are not the file's).
#[test]
fn a_case_file_is_its_stream() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    for (id, first) in [
        (
            "ownership/continuation-disagrees",
            "ownership.continuation-disagrees",
        ),
        ("schema/duplicate-key", "schema.duplicate-key"),
    ] {
        let path = root.join(format!("{id}.json"));
        let bytes = std::fs::read(&path).unwrap();
        let case: Value = serde_json::from_slice(&bytes).unwrap();
        let want = checked_alone(&stream_of(&case), &["--format", "json"]);
        let from_path = run_stdin(&["check", "--format", "json", path.to_str().unwrap()], b"");
        let from_stdin = run_stdin(&["check", "--format", "json", "-"], &bytes);
        for got in [&from_path, &from_stdin] {
            assert_eq!(text(&got.stdout), text(&want.stdout), "{id}");
            assert_eq!(got.status.code(), want.status.code(), "{id}");
            assert!(text(&got.stderr).contains(&format!("is a corpus case (`{id}`")));
        }
        let report: Value = serde_json::from_slice(&from_path.stdout).unwrap();
        assert_eq!(report["violations"][0]["rule"], first);
        let sarif = run_stdin(&["check", "--format", "sarif", path.to_str().unwrap()], b"");
        let log: Value = serde_json::from_slice(&sarif.stdout).unwrap();
        let r = &log["runs"][0]["results"][0];
        assert_eq!(r["ruleId"], first);
        assert!(
            r["locations"][0]["physicalLocation"]["region"].is_null(),
            "{r}"
        );
    }
}

/// A folder `gen --out` wrote (nested: DIR/gen/RULE/SEED.json) with
/// `--recursive`, and a flat folder of case files beside a stream file.
#[test]
fn a_directory_of_cases_is_checked_case_by_case() {
    let d = dir("gen-out");
    let out = run_stdin(
        &[
            "gen",
            "--seed",
            "5",
            "--count",
            "3",
            "--invalid",
            "all",
            "--out",
            d.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0));
    let flat = run_stdin(&["check", d.to_str().unwrap()], b"");
    assert_eq!(flat.status.code(), Some(2));
    assert!(
        text(&flat.stderr).contains("--recursive"),
        "{}",
        text(&flat.stderr)
    );
    let all = run_stdin(
        &["check", "-r", "--format", "json", d.to_str().unwrap()],
        b"",
    );
    assert_eq!(all.status.code(), Some(1), "{}", text(&all.stderr));
    let lines: Vec<Value> = text(&all.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[3]["summary"]["reject"], 3);
    assert!(
        text(&all.stderr).contains("3 of the 3 files are corpus cases"),
        "{}",
        text(&all.stderr)
    );
    // Each report is its stream's.
    for (k, file) in [
        "schema.missing-field/7.json",
        "schema.not-json/5.json",
        "schema.unknown-type/6.json",
    ]
    .iter()
    .enumerate()
    {
        let case: Value =
            serde_json::from_slice(&std::fs::read(d.join("gen").join(file)).unwrap()).unwrap();
        let alone = checked_alone(&stream_of(&case), &["--format", "json"]);
        let alone: Value = serde_json::from_slice(&alone.stdout).unwrap();
        assert_eq!(lines[k], alone, "{file}");
    }
    // A stream file and a case file side by side.
    let mixed = dir("mixed");
    let case = std::fs::read(d.join("gen/schema.not-json/5.json")).unwrap();
    std::fs::write(mixed.join("a-case.json"), &case).unwrap();
    std::fs::write(
        mixed.join("b-stream.jsonl"),
        "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n",
    )
    .unwrap();
    std::fs::write(mixed.join("case.schema.json"), "{\"$schema\": \"x\"}").unwrap();
    let out = run_stdin(&["check", "--format", "json", mixed.to_str().unwrap()], b"");
    let lines: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "a-case, b-stream, summary (no schema file)");
    assert_eq!(lines[0]["verdict"], "reject");
    assert_eq!(lines[1]["verdict"], "accept");
    assert!(text(&out.stderr).contains("1 of the 2 files are corpus cases"));
}
