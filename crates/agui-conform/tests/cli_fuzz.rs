//! `agui-conform fuzz` end to end: a crashing or hanging implementation is
//! ERRORED and the campaign goes on after a restart; `--seed` reproduces a
//! campaign; each distinct failure is saved as a corpus case that
//! `corpus check --vendor` and `run --suite` load; exit statuses as `run`.
//! The implementations are small shell scripts speaking suites/PROTOCOL.md.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

mod support;
use support::{BIN, Dir, accept_all, agui_run, run_summary};

/// Accepts every case, except that a case whose line contains `$1` gets
/// behaviour `$2`: `crash` (the process dies) or `hang` (no answer, ever).
fn script() -> String {
    accept_all(
        "sh",
        "    *\"$1\"*) if [ \"$2\" = crash ]; then kill -9 $$; else sleep 100; fi ;;\n",
    )
}

fn fuzz(args: &[&str]) -> (Output, Value) {
    let out = Command::new(BIN)
        .arg("fuzz")
        .args(["--no-progress", "--format", "json"])
        .args(args)
        .output()
        .unwrap();
    let summary = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out, summary)
}

#[test]
fn crashes_and_hangs_are_errored_and_the_campaign_goes_on() {
    let d = Dir::new("fuzz-crash");
    for (behaviour, extra) in [("crash", vec![]), ("hang", vec!["--timeout-ms", "300"])] {
        let imp = format!("{} fuzz/valid/1 {behaviour}", d.script("imp.sh", &script()));
        let mut args = vec![
            "--impl", &imp, "--cases", "25", "--seed", "4", "--mode", "valid",
        ];
        args.extend(extra);
        let (out, s) = fuzz(&args);
        assert_eq!(out.status.code(), Some(1), "{s}");
        // Every case ran: valid/1 and valid/10..19 errored, the others passed.
        assert_eq!(s["cases"], 25, "{s}");
        assert_eq!(s["scores"]["ERRORED"], 11, "{behaviour}: {s}");
        assert_eq!(s["scores"]["PASS"], 14, "{behaviour}: {s}");
        let f = &s["findings"][0];
        assert_eq!(
            (&f["rule"], &f["score"]),
            (&Value::from("valid"), &Value::from("ERRORED"))
        );
        assert_eq!(f["number"], 1, "{s}");
        let incidents = s["incidents"].to_string();
        assert!(incidents.contains("restarted"), "{behaviour}: {incidents}");
    }
}

#[test]
fn a_seed_reproduces_a_campaign_and_failures_are_saved_as_corpus_cases() {
    let d = Dir::new("fuzz-seed");
    let imp = format!("{} no-such-text crash", d.script("imp.sh", &script()));
    let save = d.path("found");
    let save_s = save.display().to_string();
    let strip = |mut v: Value| {
        v["elapsed_s"] = Value::Null;
        v["cases_per_s"] = Value::Null;
        if let Some(fs) = v["findings"].as_array_mut() {
            for f in fs {
                f["saved"] = Value::Null;
            }
        }
        v
    };
    let (out, a) = fuzz(&[
        "--impl", &imp, "--cases", "60", "--seed", "11", "--save", &save_s,
    ]);
    assert_eq!(out.status.code(), Some(1));
    let (_, b) = fuzz(&["--impl", &imp, "--cases", "60", "--seed", "11", "-j", "2"]);
    assert_eq!(strip(a.clone()), strip(b));
    let (_, c) = fuzz(&["--impl", &imp, "--cases", "60", "--seed", "12"]);
    assert_ne!(strip(a.clone()), strip(c));

    // Accepting everything fails the must-reject rules: one saved case per
    // rule and score, loadable as a vendor corpus and as a suite.
    let findings = a["findings"].as_array().unwrap();
    assert!(!findings.is_empty());
    for f in findings {
        let p = PathBuf::from(f["saved"].as_str().unwrap());
        assert!(p.starts_with(&save), "{p:?}");
        assert_eq!(f["score"], "FAIL");
    }
    let check = Command::new(BIN)
        .args(["corpus", "check", "--vendor", &save_s])
        .output()
        .unwrap();
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    let suite = save.join("fuzz.toml").display().to_string();
    let run = agui_run()
        .args(["--suite", &suite, "--impl", &imp])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let summary = run_summary(&run);
    assert_eq!(summary["scores"]["FAIL"], findings.len(), "{summary}");
}

#[test]
fn the_reference_runs_clean_and_exits_zero() {
    let (out, s) = fuzz(&["--impl", "reference", "--cases", "200", "--seed", "1"]);
    assert_eq!(out.status.code(), Some(0), "{s}");
    assert_eq!(s["cases"], 200);
    assert_eq!(s["status"], "passed");
    assert_eq!(s["findings"], Value::Array(vec![]));
}

#[test]
fn an_implementation_that_does_not_start_is_incomplete() {
    let (out, s) = fuzz(&["--impl", "/no/such/program", "--cases", "5", "--seed", "1"]);
    assert_eq!(out.status.code(), Some(3), "{s}");
    assert_eq!(s["status"], "incomplete");
}

/// `--time` is a bound: with an implementation that hangs on every case
/// and a case limit of half the time, the campaign (its shrinking and the
/// question in flight included) ends within the time plus 3 s (the stop
/// grace, 1 s, and the process's start and end), and says what it cut.
#[test]
fn time_bounds_the_campaign_with_a_hanging_implementation() {
    let d = Dir::new("fuzz-time");
    let imp = format!("{} '\"cmd\":\"run\"' hang", d.script("imp.sh", &script()));
    let t = std::time::Instant::now();
    let (out, s) = fuzz(&[
        "--impl",
        &imp,
        "--time",
        "4s",
        "--timeout-ms",
        "2000",
        "--seed",
        "3",
    ]);
    let took = t.elapsed();
    assert!(
        took < std::time::Duration::from_secs(4 + 3),
        "took {took:?}: {s}"
    );
    assert_eq!(out.status.code(), Some(1), "{s}");
    // The first case hung (ERRORED after 2 s); shrinking it met the time.
    assert_eq!(s["scores"]["ERRORED"], 1, "{s}");
    let cut = s["cut"].to_string();
    assert!(
        cut.contains("shrinking stopped when the time ran out"),
        "{s}"
    );
}

#[test]
fn a_campaign_record_holds_each_finding_and_its_report_lists_them() {
    let d = Dir::new("fuzz-record");
    let imp = format!("{} no-such-text crash", d.script("imp.sh", &script()));
    let record = d.path("fuzz.jsonl");
    let record_s = record.display().to_string();
    let (out, s) = fuzz(&[
        "--impl",
        &imp,
        "--cases",
        "60",
        "--seed",
        "11",
        "--shrink-budget",
        "3",
        "--record",
        &record_s,
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = std::fs::read_to_string(&record).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/run-record.schema.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    for l in &lines {
        let errors: Vec<String> = v.iter_errors(l).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{l}: {errors:?}");
    }
    assert_eq!(lines[0]["kind"], "header");
    assert_eq!(lines[0]["fuzz"]["seed"], 11);
    assert_eq!(lines[0]["cases"], 60);
    // One finding line per finding of the summary, with the same stream.
    let found: Vec<&Value> = lines.iter().filter(|l| l["kind"] == "finding").collect();
    let summary = s["findings"].as_array().unwrap();
    assert!(!summary.is_empty());
    assert_eq!(found.len(), summary.len());
    for (f, g) in found.iter().zip(summary) {
        assert_eq!(
            (&f["rule"], &f["score"], &f["number"]),
            (&g["rule"], &g["score"], &g["number"])
        );
        assert_eq!(f["stream"]["events"], g["case"]["events"], "{}", g["rule"]);
        assert_eq!(f["events_before"], g["events_before"]);
    }
    // Shrinking was cut short (`--shrink-budget 3`): streams of more than
    // one event are kept whole.
    assert!(
        found
            .iter()
            .any(|f| f["stream"]["events"].as_array().unwrap().len() > 1)
    );
    let footer = lines.last().unwrap();
    assert_eq!(footer["kind"], "footer");
    assert_eq!(footer["totals"]["FAIL"], s["scores"]["FAIL"]);
    // `report` reads it and lists every finding with its minimal stream.
    let md = d.path("report.md");
    let report = Command::new(BIN)
        .args(["report", &record_s, "--markdown"])
        .arg(&md)
        .output()
        .unwrap();
    assert_eq!(report.status.code(), Some(0), "{report:?}");
    let page = std::fs::read_to_string(md).unwrap();
    for g in summary {
        let heading = format!(": FAIL `{}`\n", g["rule"].as_str().unwrap());
        assert!(page.contains(&heading), "{heading}");
    }
}

/// What a crashing or failing implementation wrote to stderr is shown with
/// its finding, as `run` shows it with a case: the tail, line by line.
#[test]
fn a_finding_shows_the_stderr_tail_of_the_implementation() {
    let d = Dir::new("fuzz-stderr");
    // Case valid/1: writes two lines to stderr and dies. Case valid/2:
    // says why on stderr and rejects the valid stream (FAIL).
    let special = r#"    *'"fuzz/valid/1"'*) echo 'loading the parser' >&2; echo 'panic: boom at event 0' >&2; exit 101 ;;
    *'"fuzz/valid/2"'*) echo 'I do not like this stream' >&2; seq=$(printf '%s' "$line" | sed 's/^[^0-9]*"seq":\([0-9]*\).*/\1/'); echo "{\"seq\":$seq,\"result\":{\"verdict\":\"reject\",\"index\":0}}" ;;
"#;
    let imp = d.script("imp.sh", &accept_all("sh", special));
    let args = [
        "--impl",
        &imp,
        "--cases",
        "3",
        "--seed",
        "4",
        "--mode",
        "valid",
        "--shrink-budget",
        "0",
    ];
    let (out, s) = fuzz(&args);
    assert_eq!(out.status.code(), Some(1), "{s}");
    let findings = s["findings"].as_array().unwrap();
    let by_score = |score: &str| {
        findings
            .iter()
            .find(|f| f["score"] == score)
            .unwrap_or_else(|| panic!("no {score} finding: {s}"))
    };
    assert_eq!(
        by_score("ERRORED")["stderr"],
        "loading the parser\npanic: boom at event 0\n",
        "{s}"
    );
    assert!(
        by_score("FAIL")["stderr"]
            .as_str()
            .is_some_and(|t| t.contains("I do not like this stream")),
        "{s}"
    );

    let out = Command::new(BIN)
        .args(["fuzz", "--no-progress"])
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "  stderr tail (case 1 as found):\n  | loading the parser\n  | panic: boom at event 0\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("  stderr tail (case 2 as found):\n  | I do not like this stream\n"),
        "{text}"
    );
}

/// `--one-shot`: the command runs once per case (events on stdin, one
/// result line out) under the name given; a consumer that rejects every
/// stream at its first event fails every valid case, one finding.
#[test]
fn a_one_shot_implementation_is_fuzzed_under_its_name() {
    let d = Dir::new("fuzz-one-shot");
    let imp = d.script(
        "reject.sh",
        "cat >/dev/null\necho '{\"verdict\":\"reject\",\"index\":0}'\n",
    );
    let record = d.path("fuzz.jsonl");
    let record_s = record.display().to_string();
    let (out, s) = fuzz(&[
        "--impl",
        &imp,
        "--one-shot",
        "--capabilities",
        "verdict,index",
        "--name",
        "rejector",
        "--language",
        "sh",
        "--cases",
        "20",
        "--seed",
        "3",
        "--mode",
        "valid",
        "--shrink-budget",
        "3",
        "--record",
        &record_s,
    ]);
    assert_eq!(out.status.code(), Some(1), "{s}");
    assert_eq!(s["cases"], 20, "{s}");
    assert_eq!(s["scores"]["FAIL"], 20, "{s}");
    assert_eq!(s["findings"].as_array().map(Vec::len), Some(1), "{s}");
    let text = std::fs::read_to_string(&record).unwrap();
    let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(header["implementation"]["name"], "rejector");
    assert_eq!(header["implementation"]["language"], "sh");
    assert_eq!(
        header["implementation"]["capabilities"],
        serde_json::json!(["verdict", "index"])
    );
    // Without --one-shot, --name is refused (a persistent adapter names itself).
    let out = Command::new(BIN)
        .args(["fuzz", "--impl", &imp, "--name", "x", "--cases", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
