//! `agui-conform corpus check`, run as a vendor runs it: on the project's
//! corpus (all good, exit 0), on a directory with a malformed and a wrong
//! case (each reported with its path, exit 1), on a missing directory
//! (exit 2).

use std::path::PathBuf;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_agui-conform");

fn corpus_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../corpus"))
}

/// `agui-conform corpus check DIR`: exit status and stdout.
fn corpus_check(dir: &std::path::Path) -> (Option<i32>, String) {
    let out = Command::new(BIN)
        .args(["corpus", "check"])
        .arg(dir)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn the_project_corpus_checks_clean() {
    let out = Command::new(BIN)
        .args(["corpus", "check"])
        .arg(corpus_dir())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    // Five gates, the official-outcomes gate, and the quote gate: the corpus
    // records its quotes.
    assert!(
        stdout.contains(" 0 failed, 0 malformed; gates: 7 passed, 0 failed"),
        "{stdout}"
    );
}

#[test]
fn problems_are_listed_with_their_paths_and_fail_the_run() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_corpus");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("run")).unwrap();
    // A stream that ends inside its run, expected (wrongly) to be accepted.
    std::fs::write(
        dir.join("run/wrong.json"),
        r#"{"id": "run/wrong", "description": "d", "spec": "s",
            "events": [{"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"}],
            "expect": {"verdict": "accept"}}"#,
    )
    .unwrap();
    std::fs::write(dir.join("run/broken.json"), "{").unwrap();
    let (code, stdout) = corpus_check(&dir);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(
        stdout.contains("MALFORMED") && stdout.contains("run/broken.json: not JSON"),
        "{stdout}"
    );
    assert!(
        stdout.contains("FAILED run/wrong") && stdout.contains("run.unterminated at index 1"),
        "{stdout}"
    );
    assert!(
        stdout.contains("GATE FAILED gate/every-rule-has-cases"),
        "{stdout}"
    );
    assert!(
        stdout.contains("1 cases, 0 passed, 1 failed, 1 malformed"),
        "{stdout}"
    );
}

#[test]
fn a_missing_directory_is_a_usage_error() {
    let out = Command::new(BIN)
        .args(["corpus", "check", "/nonexistent/corpus-dir"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/corpus-dir"));
}

#[test]
fn spec_quotes_are_checked_when_the_spec_is_given() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_corpus_spec");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("spec")).unwrap();
    std::fs::create_dir_all(dir.join("cases/run")).unwrap();
    std::fs::write(dir.join("spec/RULES.md"), "Rules.\nA run MUST\n  finish.").unwrap();
    std::fs::write(dir.join("spec/subagents-draft.txt"), "Draft.").unwrap();
    let case = |name: &str, spec: &str| {
        let text = format!(
            r#"{{"id": "run/{name}", "description": "d", "spec": "{spec}",
                "events": [{{"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"}},
                           {{"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"}}],
                "expect": {{"verdict": "accept"}}}}"#
        );
        std::fs::write(dir.join(format!("cases/run/{name}.json")), text).unwrap();
    };
    case("quoted", "A run MUST finish.");
    case("made-up", "A run SHOULD dance.");
    let out = Command::new(BIN)
        .args(["corpus", "check"])
        .arg(dir.join("cases"))
        .arg("--spec")
        .arg(dir.join("spec"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("GATE FAILED gate/spec-quotes (1 problem(s))"),
        "{stdout}"
    );
    assert!(
        stdout.contains("made-up.json") && !stdout.contains("quoted.json: `spec`"),
        "{stdout}"
    );
}

/// Generated cases are in the corpus format: `gen --out` writes cases that
/// pass the case schema and their own expectations; only the golden
/// corpus's coverage gate (every rule has hand-written cases) fails on a
/// directory of a few generated ones.
#[test]
fn generated_cases_are_valid_corpus_cases() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_corpus_gen");
    let _ = std::fs::remove_dir_all(&dir);
    for mode in [&["--valid"][..], &["--invalid", "all"][..]] {
        let out = Command::new(BIN)
            .args(["gen", "--seed", "3", "--count", "6", "--out"])
            .arg(&dir)
            .args(mode)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
    }
    let (_, stdout) = corpus_check(&dir);
    assert!(
        stdout.contains(": 12 cases, 12 passed, 0 failed, 0 malformed;"),
        "{stdout}"
    );
    assert!(!stdout.contains("gate/schema"), "{stdout}");
    assert!(!stdout.contains("gate/ids"), "{stdout}");
}

/// A vendor's folder: `--vendor` turns the golden gates off (coverage of
/// the catalogue, the golden areas); the id rule is the one `run` keeps.
#[test]
fn a_vendor_folder_checks_with_vendor() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_corpus_vendor");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("acme")).unwrap();
    let case = |id: &str| {
        format!(
            r#"{{"id": "{id}", "description": "d", "spec": "s",
                "events": [{{"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"}},
                           {{"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"}}],
                "expect": {{"verdict": "accept"}}}}"#
        )
    };
    std::fs::write(dir.join("acme/ok.json"), case("acme/ok")).unwrap();
    let (code, stdout) = corpus_check(&dir);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("GATE FAILED gate/areas"), "{stdout}");
    assert!(
        stdout.contains("GATE FAILED gate/every-rule-has-cases"),
        "{stdout}"
    );
    let out = Command::new(BIN)
        .args(["corpus", "check", "--vendor"])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("1 cases, 1 passed, 0 failed, 0 malformed; gates: 2 passed, 0 failed"),
        "{stdout}"
    );
    // An id that breaks the shared rule is refused by both.
    std::fs::create_dir_all(dir.join("acme/x y")).unwrap();
    std::fs::write(dir.join("acme/x y/z.json"), case("acme/x y/z")).unwrap();
    let out = Command::new(BIN)
        .args(["corpus", "check", "--vendor"])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("id `acme/x y/z` is not"), "{stdout}");
}
