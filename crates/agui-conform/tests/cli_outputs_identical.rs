//! Byte identity of every output the command line renders: `check` in
//! every `--format` and with every file it writes (`--junit`, `--html`),
//! on one file, on several and on JSON Lines of cases, from a file and from
//! a live producer; `run --suite quick` against the reference (text, JSON,
//! `--junit`, `--markdown`, `--record`, `--html`); `run --producer`;
//! `fuzz` (text, JSON, `--junit`, `--record`); `report` over the fixture
//! records (tests/fixtures/records). Each
//! invocation's exit status, stdout, stderr and files are compared with
//! its golden file under tests/golden/, recorded before the report
//! pipeline was untangled (issue 37): a refactor changes no byte.
//!
//! The inputs (tests/golden/inputs/) are small and fixed: copies of
//! corpus cases (accept and with violations), streams `agui-conform gen`
//! made (`--seed 7`; `--seed 11 --count 3 --invalid all`), a saved SSE
//! body, a stream over the default violation cap, one of no events, and
//! limit notices asked for with small limits. Only what legitimately
//! varies is masked: the scratch folder's path, the version, dates,
//! durations and a server's port.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use support::Dir;

/// Set `AGUI_CONFORM_BLESS=1` to rewrite the golden files from this
/// build's output. Only for a deliberate output change (a defect fixed,
/// named in the commit that re-blesses the affected goldens alone): a
/// refactor must pass with the goldens untouched.
const BLESS: &str = "AGUI_CONFORM_BLESS";

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// A scratch folder holding a copy of the inputs as `in/`, the working
/// directory of every invocation (so the outputs name `in/…`).
fn scratch(name: &str) -> Dir {
    let dir = Dir::new(&format!("identical-{name}"));
    std::fs::create_dir_all(dir.path("out")).unwrap();
    for e in std::fs::read_dir(golden_dir().join("inputs")).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        dir.file(
            &format!("in/{}", p.file_name().unwrap().to_string_lossy()),
            &text,
        );
    }
    dir
}

/// Each run of `chars` right after `prefix` replaced by what `mask` says
/// of it (given the run and the text after it; `None` keeps it).
fn mask(
    text: &str,
    prefix: &str,
    chars: impl Fn(char) -> bool,
    mask: impl Fn(&str, &str) -> Option<&'static str>,
) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(prefix) {
        let (head, tail) = rest.split_at(at + prefix.len());
        out.push_str(head);
        let end = tail.find(|c: char| !chars(c)).unwrap_or(tail.len());
        let (run, after) = tail.split_at(end);
        out.push_str(mask(run, after).unwrap_or(run));
        rest = after;
    }
    out.push_str(rest);
    out
}

/// What may differ between two runs of the same build, or between builds
/// that render alike: paths, version, dates, durations, ports.
fn normalise(text: &str, dir: &Path) -> String {
    let mut t = text.replace(&dir.display().to_string(), "<DIR>");
    t = t.replace(env!("CARGO_PKG_VERSION"), "<VERSION>");
    let number = |c: char| c.is_ascii_digit() || c == '.';
    let stamp = |c: char| c.is_ascii_alphanumeric() || "-:.+".contains(c);
    let some = |m: &'static str| move |run: &str, _: &str| (!run.is_empty()).then_some(m);
    for prefix in [
        "time=\"",
        "\"elapsed_ms\":",
        "\"elapsedMs\":",
        "\"elapsed_us\":",
        "\"elapsed\":",
        "\"ms\":",
        "\"elapsed_s\":",
        "\"seconds\":",
        "\"cases_per_s\":",
        "127.0.0.1:",
    ] {
        t = mask(&t, prefix, number, some("<N>"));
    }
    // The fresh ids of a request (`run-18ee7a4a3bc4e943-5156-1`).
    let fresh = |c: char| c.is_ascii_hexdigit() || c == '-';
    let long = |run: &str, _: &str| (run.len() >= 16).then_some("<ID>");
    for prefix in ["run-", "thread-", "msg-"] {
        t = mask(&t, prefix, fresh, long);
    }
    for prefix in ["timestamp=\"", "\"date\":\"", "\"date\": \""] {
        t = mask(&t, prefix, stamp, some("<DATE>"));
    }
    // `… in 0.27 s (1611 cases/s)`, `in 12 ms`: a number before a unit.
    let timed = |run: &str, after: &str| {
        let units = [" s)", " s ", " s\n", " ms", " cases/s", "s)", "ms)", " s,"];
        let unit = units.iter().any(|u| after.starts_with(u)) || after == " s";
        (!run.is_empty() && unit).then_some("<T>")
    };
    for prefix in [" in ", "(", " · "] {
        t = mask(&t, prefix, number, timed);
    }
    t
}

/// One invocation: its arguments (`{url}` stands for a server's), and the
/// files it writes (under `out/`).
struct Case<'a> {
    name: &'a str,
    args: Vec<String>,
    files: Vec<&'a str>,
    stdin: Option<&'a str>,
}

fn case<'a>(name: &'a str, args: &str, files: &[&'a str]) -> Case<'a> {
    Case {
        name,
        args: args.split_whitespace().map(str::to_owned).collect(),
        files: files.to_vec(),
        stdin: None,
    }
}

/// Runs `c` in `dir` and renders everything it produced as one text.
fn capture(c: &Case<'_>, dir: &Path, url: Option<&str>) -> String {
    let args: Vec<String> = c
        .args
        .iter()
        .map(|a| a.replace("{url}", url.unwrap_or("")))
        .collect();
    // What an earlier case wrote is not taken for this one's (a file
    // outside `out/` is an input the case changes, set up beforehand).
    for f in c.files.iter().filter(|f| f.starts_with("out/")) {
        let _ = std::fs::remove_file(dir.join(f));
    }
    let mut cmd = Command::new(support::BIN);
    cmd.args(&args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE");
    let out = match c.stdin {
        Some(input) => {
            cmd.stdin(std::fs::File::open(dir.join(input)).unwrap());
            cmd.output().unwrap()
        }
        None => cmd.stdin(std::process::Stdio::null()).output().unwrap(),
    };
    let utf8 = |b: &[u8], what: &str| {
        String::from_utf8(b.to_vec()).unwrap_or_else(|_| panic!("{}: {what} not UTF-8", c.name))
    };
    let mut text = format!(
        "$ agui-conform {}\nexit: {:?}\n--- stdout\n{}--- stderr\n{}",
        c.args.join(" "),
        out.status.code(),
        utf8(&out.stdout, "stdout"),
        utf8(&out.stderr, "stderr"),
    );
    for f in &c.files {
        let body = std::fs::read(dir.join(f)).unwrap_or_else(|_| b"(not written)\n".to_vec());
        text.push_str(&format!("--- file {f}\n{}", utf8(&body, f)));
    }
    normalise(&text, dir)
}

/// Compares (or, blessing, writes) the golden of each case; every
/// difference is reported, not only the first.
fn compare(group: &str, cases: &[Case<'_>], dir: &Path, url: Option<&str>) {
    let bless = std::env::var_os(BLESS).is_some_and(|v| v == "1");
    let mut differ = Vec::new();
    for c in cases {
        let got = capture(c, dir, url);
        let path = golden_dir().join(group).join(format!("{}.txt", c.name));
        if bless {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if want != got {
            let line = want
                .lines()
                .zip(got.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(want.lines().count().min(got.lines().count()));
            differ.push(format!(
                "{}: differs from line {}:\n  golden: {:?}\n  now:    {:?}",
                path.display(),
                line + 1,
                want.lines().nth(line).unwrap_or("(end)"),
                got.lines().nth(line).unwrap_or("(end)"),
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "output changed ({BLESS}=1 rewrites the goldens, only for a deliberate change):\n{}",
        differ.join("\n")
    );
}

/// The single-input check inputs.
const ONE: [&str; 10] = [
    "accept-interleaved.json",
    "after-finished.json",
    "attribution-null.json",
    "unterminated.json",
    "gen-valid.jsonl",
    "gen-valid-array.json",
    "gen-invalid.jsonl",
    "saved.sse",
    "many.jsonl",
    "empty.jsonl",
];

/// The inputs also checked into SARIF, JUnit and a page.
const FULL: [&str; 5] = [
    "accept-interleaved.json",
    "after-finished.json",
    "gen-invalid.jsonl",
    "saved.sse",
    "empty.jsonl",
];

#[test]
fn check_outputs_are_unchanged() {
    let dir = scratch("check");
    let mut names = Vec::new();
    for input in ONE {
        let stem = input.split('.').next().unwrap_or(input);
        names.push((stem.to_owned(), input));
    }
    let mut cases = Vec::new();
    let owned: Vec<(String, String, Vec<&str>)> = names
        .iter()
        .flat_map(|(stem, input)| {
            let full = FULL.contains(input);
            [
                (format!("{stem}.text"), format!("check in/{input}"), vec![]),
                (
                    format!("{stem}.text-projection"),
                    format!("check in/{input} --projection --all"),
                    vec![],
                ),
                (
                    format!("{stem}.json"),
                    format!("check in/{input} --format json"),
                    vec![],
                ),
                (
                    format!("{stem}.json-no-projection"),
                    format!("check in/{input} --format json --no-projection --max-violations 3"),
                    vec![],
                ),
                (
                    format!("{stem}.sarif"),
                    format!("check in/{input} --format sarif --junit out/j.xml"),
                    vec!["out/j.xml"],
                ),
                (
                    format!("{stem}.junit-html"),
                    format!("check in/{input} --junit out/j.xml --html out/p.html"),
                    vec!["out/j.xml", "out/p.html"],
                ),
            ]
            .into_iter()
            // SARIF lists the whole catalogue and a page holds the viewer:
            // those outputs for a few inputs.
            .filter(move |(name, _, _)| full || !name.ends_with("sarif") && !name.ends_with("html"))
        })
        .collect();
    for (name, args, files) in &owned {
        cases.push(Case {
            name,
            args: args.split_whitespace().map(str::to_owned).collect(),
            files: files.clone(),
            stdin: None,
        });
    }
    // Limit notices, from small limits.
    cases.push(case(
        "limits.text",
        "check in/gen-valid.jsonl --max-line-bytes 100 --max-depth 3",
        &[],
    ));
    cases.push(case(
        "limits.json",
        "check in/gen-valid.jsonl --format json --max-line-bytes 100 --max-state-bytes 8",
        &[],
    ));
    cases.push(case(
        "limits.sarif",
        "check in/gen-valid.jsonl --format sarif --max-line-bytes 100 --max-projection-bytes 64 --junit out/j.xml --html out/p.html --html-max-bytes 4000",
        &["out/j.xml", "out/p.html"],
    ));
    cases.push(case(
        "limits.sse-text",
        "check in/saved.sse --max-line-bytes 100 --max-bookkeeping-bytes 200",
        &[],
    ));
    // Rule configuration.
    cases.push(case(
        "rules.text",
        "check in/after-finished.json --rule run.after-finished=warning --fail-on warning",
        &[],
    ));
    // Many files, JSON Lines of cases, stdin.
    cases.push(case("dir.text", "check in -j 2", &[]));
    cases.push(case("dir.json", "check in --format json -j 1", &[]));
    cases.push(case(
        "files.json-no-projection",
        "check in/after-finished.json in/empty.jsonl in/missing.jsonl --format json --no-projection",
        &[],
    ));
    cases.push(case("cases.text", "check in/gen-invalid-cases.jsonl", &[]));
    cases.push(case(
        "cases.json",
        "check in/gen-invalid-cases.jsonl --format json",
        &[],
    ));
    let mut stdin = case("stdin.text", "check -", &[]);
    stdin.stdin = Some("in/gen-invalid.jsonl");
    cases.push(stdin);
    let mut stdin = case("stdin.sarif", "check --format sarif", &[]);
    stdin.stdin = Some("in/saved.sse");
    cases.push(stdin);
    compare("check", &cases, &dir.0, None);
}

/// A live producer answering with the generated valid stream plus one
/// `attribution.null`.
#[test]
fn check_url_outputs_are_unchanged() {
    let dir = scratch("check-url");
    let server = support::serve_jsonl(&dir.path("in/gen-invalid.jsonl"));
    let url = server.url();
    let cases = [
        case("url.text", "check --url {url} --all", &[]),
        case("url.json", "check --url {url} --format json", &[]),
        case(
            "url.sarif",
            "check --url {url} --format sarif --junit out/j.xml --html out/p.html --save out/s.jsonl",
            &["out/j.xml", "out/p.html", "out/s.jsonl"],
        ),
        case(
            "url.refused-json",
            "check --url http://127.0.0.1:1/ --format json --junit out/j.xml",
            &["out/j.xml"],
        ),
        case(
            "url.refused-sarif",
            "check --url http://127.0.0.1:1/ --format sarif",
            &[],
        ),
    ];
    compare("check-url", &cases, &dir.0, Some(&url));
}

#[test]
fn run_outputs_are_unchanged() {
    let dir = scratch("run");
    let cases = [
        case("quick.text", "run --suite quick --no-progress", &[]),
        case(
            "quick.json",
            "run --suite quick --no-progress --filter schema.unknown --format json --junit out/j.xml --markdown out/m.md --record out/r.jsonl --html out/p.html",
            &["out/j.xml", "out/m.md", "out/r.jsonl", "out/p.html"],
        ),
        case(
            "quick.verbose",
            "run --suite quick --no-progress --verbose --filter schema --strict",
            &[],
        ),
    ];
    compare("run", &cases, &dir.0, None);
}

#[test]
fn run_producer_outputs_are_unchanged() {
    let dir = scratch("producer");
    let server = support::suite_server();
    let url = server.url();
    let cases = [
        case("producer.text", "run --producer {url}", &[]),
        case(
            "producer.json",
            "run --producer {url} --format json --junit out/j.xml --record out/r.jsonl --name alpha --language rust",
            &["out/j.xml", "out/r.jsonl"],
        ),
    ];
    compare("producer", &cases, &dir.0, Some(&url));
}

#[test]
fn report_outputs_are_unchanged() {
    let dir = scratch("report");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/records");
    for e in std::fs::read_dir(&fixtures).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        dir.file(
            &format!("records/{}", p.file_name().unwrap().to_string_lossy()),
            &text,
        );
    }
    dir.file(
        "readme/README.md",
        "x\n<!-- conformance-summary:start -->\n<!-- conformance-summary:end -->\ny\n",
    );
    let cases = [
        case(
            "consumers",
            "report records/impl-a.jsonl records/impl-b.jsonl records/fuzz-impl-a.jsonl --label A --label B --missing C=crashed --notes records/notes.json --markdown out/r.md --html out/r.html --rules-href ../rules.md",
            &["out/r.md", "out/r.html"],
        ),
        case(
            "consumers-readme",
            "report records/impl-a.jsonl --markdown out/docs/r.md --readme readme/README.md",
            &["out/docs/r.md", "readme/README.md"],
        ),
        case(
            "producers",
            "report records/producer-alpha-suite.jsonl records/producer-alpha-interrupt.jsonl records/producer-alpha-legacy.jsonl --notes records/producer-notes.json --markdown out/p.md",
            &["out/p.md"],
        ),
    ];
    compare("report", &cases, &dir.0, None);
}

/// A campaign against an implementation that accepts every stream: each
/// invalid stream is a FAIL, shrunk and kept as a finding.
#[test]
fn fuzz_outputs_are_unchanged() {
    let dir = scratch("fuzz");
    let imp = dir.script("accept.sh", &support::accept_all("accept-all", ""));
    let mut cases = Vec::new();
    for (name, rest, files) in [
        (
            "accept-all.text",
            "--cases 12 --seed 3 --mode invalid --shrink-budget 30",
            vec![],
        ),
        (
            "accept-all.json",
            "--cases 12 --seed 3 --shrink-budget 30 --format json --junit out/j.xml --record out/r.jsonl",
            vec!["out/j.xml", "out/r.jsonl"],
        ),
        (
            "reference.json",
            "--cases 30 --seed 5 --format json --junit out/j.xml",
            vec!["out/j.xml"],
        ),
    ] {
        let mut c = case(name, rest, &files);
        let target = if name.starts_with("reference") {
            vec!["reference".to_owned()]
        } else {
            vec![imp.clone()]
        };
        c.args = ["fuzz", "--no-progress", "--impl"]
            .into_iter()
            .map(str::to_owned)
            .chain(target)
            .chain(c.args)
            .collect();
        cases.push(c);
    }
    compare("fuzz", &cases, &dir.0, None);
}
