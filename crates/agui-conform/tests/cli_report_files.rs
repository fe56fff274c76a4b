//! `check`'s report files beside stdout (`--json`, `--sarif`, `--junit`,
//! `--html`): each byte for byte what `--format X` prints for the same
//! run — one file, standard input, several files, a directory of corpus
//! cases (`-r`), JSON Lines of cases and a live producer — an unwritable
//! path an error before the check, with nothing left half-written.

mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use support::Dir;

fn inputs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/inputs")
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

fn check(args: &[&str]) -> Output {
    Command::new(support::BIN)
        .arg("check")
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Checks `args` once with every report file, then once per format on
/// stdout: each file must be that stdout, byte for byte, and the exit
/// status the same.
fn files_are_what_format_prints(dir: &Dir, args: &[&str], stdout_format: &str) {
    let (json, sarif) = (dir.path("r.json"), dir.path("r.sarif"));
    let (js, ss) = (json.display().to_string(), sarif.display().to_string());
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--format", stdout_format, "--json", &js, "--sarif", &ss]);
    let both = check(&all);
    let mut alone: Vec<&str> = args.to_vec();
    alone.extend(["--format", "json"]);
    let j = check(&alone);
    assert_eq!(both.status.code(), j.status.code(), "{args:?}");
    assert_eq!(
        String::from_utf8_lossy(&read(&json)),
        String::from_utf8_lossy(&j.stdout),
        "--json of {args:?} (stdout {stdout_format})"
    );
    let mut alone: Vec<&str> = args.to_vec();
    alone.extend(["--format", "sarif"]);
    let s = check(&alone);
    assert_eq!(
        String::from_utf8_lossy(&read(&sarif)),
        String::from_utf8_lossy(&s.stdout),
        "--sarif of {args:?} (stdout {stdout_format})"
    );
    // What stdout printed is what it prints without the files.
    let mut plain: Vec<&str> = args.to_vec();
    plain.extend(["--format", stdout_format]);
    assert_eq!(
        String::from_utf8_lossy(&both.stdout),
        String::from_utf8_lossy(&check(&plain).stdout),
        "stdout of {args:?} changed by the files"
    );
}

#[test]
fn one_input_files_match_each_format_whatever_stdout_prints() {
    let dir = Dir::new("files-one");
    for input in [
        "accept-interleaved.json",
        "after-finished.json",
        "gen-invalid.jsonl",
        "saved.sse",
        "many.jsonl",
        "empty.jsonl",
    ] {
        let p = inputs().join(input).display().to_string();
        for format in ["text", "json", "sarif"] {
            files_are_what_format_prints(&dir, &[&p], format);
        }
        // The JSON report's own flags hold for the file too.
        files_are_what_format_prints(
            &dir,
            &[&p, "--no-projection", "--max-violations", "3"],
            "text",
        );
        files_are_what_format_prints(&dir, &[&p, "--projection"], "text");
        files_are_what_format_prints(&dir, &[&p, "--group"], "text");
    }
    // A corpus case's stream, and limit notices.
    let case = corpus()
        .join("ownership/activity-delta-disagrees.json")
        .display()
        .to_string();
    files_are_what_format_prints(&dir, &[&case], "text");
    let limited = inputs().join("gen-valid.jsonl").display().to_string();
    files_are_what_format_prints(&dir, &[&limited, "--max-line-bytes", "100"], "json");
}

#[test]
fn standard_input_files_match_the_formats() {
    let dir = Dir::new("files-stdin");
    let json = dir.path("r.json");
    let run = |args: &[&str]| {
        Command::new(support::BIN)
            .arg("check")
            .args(args)
            .stdin(std::fs::File::open(inputs().join("gen-invalid.jsonl")).unwrap())
            .output()
            .unwrap()
    };
    run(&["-", "--json", &json.display().to_string()]);
    assert_eq!(read(&json), run(&["-", "--format", "json"]).stdout);
}

#[test]
fn batch_json_file_is_the_json_lines_format_json_prints() {
    let dir = Dir::new("files-batch");
    let json = dir.path("r.json").display().to_string();
    let cases = [
        vec![inputs().display().to_string()],
        vec![
            corpus().join("ownership").display().to_string(),
            "-r".to_owned(),
        ],
        vec![
            inputs().join("after-finished.json").display().to_string(),
            inputs().join("missing.jsonl").display().to_string(),
        ],
        vec![
            inputs()
                .join("gen-invalid-cases.jsonl")
                .display()
                .to_string(),
        ],
    ];
    for args in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut with = args.clone();
        with.extend(["-j", "2", "--json", &json]);
        let text = check(&with);
        let mut alone = args.clone();
        alone.extend(["-j", "1", "--format", "json"]);
        let j = check(&alone);
        assert_eq!(text.status.code(), j.status.code(), "{args:?}");
        let file = String::from_utf8(read(Path::new(&json))).unwrap();
        assert_eq!(file, String::from_utf8_lossy(&j.stdout), "{args:?}");
        // JSON Lines ending in the summary.
        let last: Value = serde_json::from_str(file.lines().last().unwrap()).unwrap();
        assert!(last["summary"]["files"].as_u64().unwrap() >= 1, "{last}");
        // Text stayed on stdout.
        assert!(
            String::from_utf8_lossy(&text.stdout).contains(" accept, "),
            "{args:?}"
        );
    }
}

#[test]
fn batch_sarif_file_is_the_one_log_format_sarif_prints() {
    let dir = Dir::new("files-batch-sarif");
    let (sarif, junit) = (dir.path("r.sarif"), dir.path("r.xml"));
    let s = |p: &PathBuf| p.display().to_string();
    for args in [
        vec![inputs().display().to_string()],
        vec![
            corpus().join("ownership").display().to_string(),
            "-r".to_owned(),
        ],
        vec![
            inputs()
                .join("gen-invalid-cases.jsonl")
                .display()
                .to_string(),
        ],
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut with = args.clone();
        let (ss, js) = (s(&sarif), s(&junit));
        with.extend(["-j", "2", "--sarif", &ss, "--junit", &js]);
        let text = check(&with);
        let mut alone = args.clone();
        alone.extend(["-j", "1", "--format", "sarif"]);
        let log = check(&alone);
        assert_eq!(text.status.code(), log.status.code(), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&read(&sarif)),
            String::from_utf8_lossy(&log.stdout),
            "{args:?}"
        );
        // One test case per input.
        let v: Value = serde_json::from_slice(&log.stdout).unwrap();
        let inputs = v["runs"][0]["invocations"][0]["properties"]["files"]
            .as_array()
            .unwrap()
            .len();
        let xml = String::from_utf8(read(&junit)).unwrap();
        assert_eq!(xml.matches("<testcase ").count(), inputs, "{args:?}");
    }
    // The page draws one stream: refused with several, by name, and no
    // file is left.
    let html = dir.path("p.html");
    let out = check(&[
        &inputs().display().to_string(),
        "--sarif",
        &s(&sarif),
        "--html",
        &s(&html),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--html takes one input"));
    assert!(!html.exists());
}

#[test]
fn live_check_files_match_each_format() {
    let dir = Dir::new("files-url");
    let server = support::serve_jsonl(&inputs().join("gen-invalid.jsonl"));
    let url = server.url();
    let (json, sarif, junit) = (dir.path("r.json"), dir.path("r.sarif"), dir.path("r.xml"));
    let s = |p: &PathBuf| p.display().to_string();
    let both = check(&[
        "--url",
        &url,
        "--json",
        &s(&json),
        "--sarif",
        &s(&sarif),
        "--junit",
        &s(&junit),
    ]);
    assert_eq!(
        both.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&both.stderr)
    );
    let j = check(&["--url", &url, "--format", "json"]);
    assert_eq!(
        String::from_utf8_lossy(&read(&json)),
        String::from_utf8_lossy(&j.stdout)
    );
    let sf = check(&["--url", &url, "--format", "sarif"]);
    assert_eq!(
        String::from_utf8_lossy(&read(&sarif)),
        String::from_utf8_lossy(&sf.stdout)
    );
    assert!(read(&junit).starts_with(b"<?xml"));
    // A producer that cannot be reached: each file says so as its format
    // would, and the exit status is 2.
    let refused = "http://127.0.0.1:1/";
    let out = check(&["--url", refused, "--json", &s(&json), "--sarif", &s(&sarif)]);
    assert_eq!(out.status.code(), Some(2));
    let j = check(&["--url", refused, "--format", "json"]);
    assert_eq!(read(&json), j.stdout);
    let sf = check(&["--url", refused, "--format", "sarif"]);
    assert_eq!(read(&sarif), sf.stdout);
}

#[test]
fn an_unwritable_path_is_an_error_before_the_check_and_leaves_nothing() {
    let dir = Dir::new("files-unwritable");
    let input = inputs().join("after-finished.json").display().to_string();
    let good = dir.path("r.out").display().to_string();
    for flag in ["--sarif", "--json", "--junit", "--html"] {
        let bad = dir.path("no-such-dir/out.file");
        // Beside a good path for another file, which is not left behind.
        let other = if flag == "--json" {
            "--sarif"
        } else {
            "--json"
        };
        let out = check(&[&input, other, &good, flag, &bad.display().to_string()]);
        assert_eq!(out.status.code(), Some(2), "{flag}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&bad.display().to_string()), "{flag}: {err}");
        assert!(err.contains("No such file or directory"), "{flag}: {err}");
        // Nothing was checked, and no file claims a result.
        assert!(out.stdout.is_empty(), "{flag}");
        let left: Vec<_> = std::fs::read_dir(&dir.0)
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert!(left.is_empty(), "{flag}: {left:?}");
    }
    // A directory given as the path.
    let out = check(&[&input, "--sarif", &dir.0.display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a directory"));
}
