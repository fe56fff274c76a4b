//! The binary away from the checkout: built-in suites, `suites`, `corpus
//! export`, and a local `suites/NAME.toml` overriding a built-in one. Each
//! test runs the binary in a fresh folder under the system temp dir.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_agui-conform");

/// A fresh folder, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let p = {
            // Unique per call: two tests of one binary may pick the same name.
            static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            std::env::temp_dir().join(format!("agui-anywhere-{name}-{}-{n}", std::process::id()))
        };
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        Scratch(p)
    }
    fn run(&self, args: &[&str]) -> Output {
        Command::new(BIN)
            .args(args)
            .current_dir(&self.0)
            .output()
            .unwrap()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

#[test]
fn suites_lists_the_built_in_ones() {
    let s = Scratch::new("suites");
    let out = s.run(&["suites"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    // The descriptions of suites/default.toml and suites/quick.toml.
    assert!(
        lines[0].starts_with("default  The golden corpus and generated"),
        "{stdout}"
    );
    assert_eq!(lines[1].trim(), "from built-in");
    assert!(
        lines[2].starts_with("quick    The golden corpus and a handful"),
        "{stdout}"
    );
}

#[test]
fn the_quick_suite_runs_from_the_built_in_corpus() {
    let s = Scratch::new("quick");
    let out = s.run(&[
        "run",
        "--suite",
        "quick",
        "--no-progress",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let corpus_lines = stdout
        .lines()
        // RFC 8259 lines: a projection may print 1e400.
        .filter_map(|l| agui_model::json::parse(l, &Default::default()).ok())
        .map(|p| p.value)
        .filter(|v| v["id"].as_str().is_some_and(|id| !id.starts_with("gen/")))
        .count();
    // Every corpus case of the repository, run from the embedded copy.
    let disk = agui_corpus::load_dir(&repo("corpus")).unwrap();
    assert_eq!(corpus_lines, disk.cases.len(), "{stdout}");
}

#[test]
fn a_local_suite_overrides_the_built_in_one() {
    let s = Scratch::new("override");
    std::fs::create_dir_all(s.0.join("suites")).unwrap();
    std::fs::create_dir_all(s.0.join("mine/run")).unwrap();
    std::fs::write(
        s.0.join("suites/quick.toml"),
        "description = \"Mine.\"\n[corpus]\ndirs = [\"../mine\"]\n",
    )
    .unwrap();
    std::fs::write(
        s.0.join("mine/run/ok.json"),
        r#"{"id": "run/ok", "description": "d", "spec": "s",
            "events": [{"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
                       {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}],
            "expect": {"verdict": "accept"}}"#,
    )
    .unwrap();
    let listed = text(&s.run(&["suites"]).stdout);
    assert!(listed.contains("quick    Mine."), "{listed}");
    assert!(listed.contains("(overrides the built-in one)"), "{listed}");
    let out = s.run(&["run", "--suite", "quick", "--no-progress"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("1 cases: 1 PASS"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn an_unknown_suite_names_the_built_in_ones() {
    let s = Scratch::new("unknown");
    let out = s.run(&["run", "--suite", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("built-in suites: default, quick"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn corpus_export_writes_the_corpus_folder_byte_for_byte() {
    let s = Scratch::new("export");
    let out = s.run(&["corpus", "export", "out"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for rel in [
        "case.schema.json",
        "spec-quotes.md",
        "ownership/tagged-continuation-of-parent-message.json",
    ] {
        let want = std::fs::read(repo("corpus").join(rel)).unwrap();
        let got = std::fs::read(s.0.join("out").join(rel)).unwrap();
        assert!(want == got, "{rel} differs");
    }
    // The export checks clean, quote gate included.
    let check = s.run(&["corpus", "check", "out"]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stdout));
    assert!(
        text(&check.stdout).contains("gates: 6 passed, 0 failed"),
        "{}",
        text(&check.stdout)
    );
    // A folder with files is not written into without --force.
    let again = s.run(&["corpus", "export", "out"]);
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again.stderr).contains("not empty"));
    assert_eq!(
        s.run(&["corpus", "export", "out", "--force"]).status.code(),
        Some(0)
    );
}
