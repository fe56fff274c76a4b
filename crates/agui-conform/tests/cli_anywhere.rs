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
    // Name, kind, description; then where it comes from. The descriptions
    // of suites/default.toml, suites/official-*.toml and suites/quick.toml;
    // the producer suite's scenarios are suites/producer/*.json.
    // The name column is as wide as the longest name (`input-tools-context`)
    // and two spaces.
    let row = |name: &str, kind: &str, what: &str| format!("{name:<21}{kind}  {what}");
    let expected = [
        row(
            "default",
            "consumer",
            "The golden corpus and generated valid and per-rule invalid streams.",
        ),
        row(
            "input-tools-context",
            "consumer",
            "The default suite, every RUN_STARTED.input carrying tools and context.",
        ),
        row(
            "official-1.0",
            "consumer",
            "The official AG-UI conformance fixtures of version 1.0 (the 1.1 file standing in where the 1.0 one is not stored, marked in each case).",
        ),
        row(
            "official-1.1",
            "consumer",
            "The official AG-UI conformance fixtures of version 1.1.",
        ),
        row(
            "official-draft",
            "consumer",
            "The official AG-UI conformance fixtures of version draft.",
        ),
        row(
            "producer",
            "producer",
            "7 scenarios sent to a producer: continue-thread, \
         history-attributed, plain, resume-after-interrupt, resume-cancelled, \
         state-carrying, tool-results",
        ),
        row(
            "quick",
            "consumer",
            "The golden corpus and a handful of generated cases.",
        ),
        row(
            "uuid-ids",
            "consumer",
            "The default suite's generated streams, thread, run, message and tool call ids drawn as UUIDs.",
        ),
    ];
    for (k, want) in expected.iter().enumerate() {
        assert_eq!(lines[2 * k], want, "{stdout}");
        assert_eq!(lines[2 * k + 1].trim(), "from built-in", "{stdout}");
    }
    assert!(stdout.contains("`agui-conform run --producer URL [--suite NAME]`"));
}

#[test]
fn local_producer_suites_are_listed_and_override_the_built_in_one() {
    let s = Scratch::new("producers");
    let input = r#"{"messages": [{"id": "u1", "role": "user", "content": "Hi."}]}"#;
    for (file, text) in [
        ("suites/producer/only.json", input),
        ("suites/mine/a.json", input),
        ("suites/mine/b.json", input),
        ("suites/mine/README.md", "# Mine"),
        // A folder of JSON Schemas is no producer suite.
        ("suites/protocol/start.schema.json", "{}"),
        ("suites/empty/notes.txt", "nothing"),
    ] {
        let p = s.0.join(file);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let out = s.run(&["suites"]);
    assert_eq!(out.status.code(), Some(0));
    let listed = text(&out.stdout);
    let lines: Vec<&str> = listed.lines().collect();
    let row = |name: &str| {
        let k = lines
            .iter()
            .position(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("{name} not listed:\n{listed}"));
        (lines[k], lines[k + 1].trim())
    };
    let (mine, from) = row("mine");
    assert_eq!(
        mine, "mine                 producer  2 scenarios sent to a producer: a, b",
        "{listed}"
    );
    assert!(from.ends_with("suites/mine"), "{from}");
    let (producer, from) = row("producer");
    assert!(
        producer.ends_with("producer  1 scenario sent to a producer: only"),
        "{producer}"
    );
    assert!(
        from.ends_with("suites/producer (overrides the built-in one)"),
        "{from}"
    );
    assert!(
        !listed.contains("protocol") && !listed.contains("empty"),
        "{listed}"
    );
    // The consumer suites are still there.
    assert!(row("default").0.contains("consumer"));

    // A producer suite's name given to a consumer run says how to run it.
    let out = s.run(&["run", "--suite", "mine"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("`mine` is a producer suite"),
        "{}",
        text(&out.stderr)
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
    assert!(
        listed.contains("quick                consumer  Mine."),
        "{listed}"
    );
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
        text(&out.stderr).contains(
            "built-in suites: default, input-tools-context, official-1.0, official-1.1, \
             official-draft, quick, uuid-ids"
        ),
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
        text(&check.stdout).contains("gates: 7 passed, 0 failed"),
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
