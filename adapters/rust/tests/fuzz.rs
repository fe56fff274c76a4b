//! `agui-rust-sdks fuzz`: a short campaign with a fixed seed writes the
//! record `agui-conform fuzz --record` writes — every line valid against
//! docs/run-record.schema.json, read back as a campaign's record, and
//! rendered by the report's fuzz section with each finding — and exits as
//! `agui-conform fuzz` does.

use agui_harness::record::Record;
use agui_harness::report::conformance::{Notes, Page, render};
use agui_harness::report::merged::{Column, Merged};
use agui_rust_sdks::Sdk;
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_agui-rust-sdks");

fn validator() -> jsonschema::Validator {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/run-record.schema.json"
    );
    let text = std::fs::read_to_string(path).expect("docs/run-record.schema.json");
    let schema: Value = serde_json::from_str(&text).expect("the schema is JSON");
    jsonschema::validator_for(&schema).expect("the schema compiles")
}

/// A fresh file path in the target's temporary folder.
fn temp(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fuzz");
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

/// The first SDK of this build.
fn first() -> Sdk {
    *Sdk::ALL.first().expect("a build with at least one SDK")
}

fn fuzz(args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("fuzz")
        .args(args)
        .output()
        .expect("agui-rust-sdks runs")
}

/// Runs a 40-case campaign with seed 7 against `sdk` and checks its
/// record; returns the record.
fn campaign(sdk: Sdk) -> Record {
    let path = temp(&format!("{}.jsonl", sdk.key()));
    let p = path.display().to_string();
    let out = fuzz(&[
        "--sdk",
        sdk.key(),
        "--seed",
        "7",
        "--cases",
        "40",
        "--shrink-budget",
        "40",
        "--record",
        &p,
    ]);
    let text = std::fs::read_to_string(&path).expect("the record is written");
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    let v = validator();
    for l in &lines {
        let errors: Vec<String> = v.iter_errors(l).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{l}: {errors:?}");
    }
    let (first, last) = (&lines[0], &lines[lines.len() - 1]);
    assert_eq!(first["kind"], "header");
    assert_eq!(first["suite"], "fuzz");
    assert_eq!(first["cases"], 40);
    assert_eq!(first["fuzz"]["seed"], 7);
    assert_eq!(first["fuzz"]["mode"], "mixed");
    assert_eq!(first["fuzz"]["max_cases"], 40);
    assert_eq!(first["implementation"]["name"], sdk.name());
    assert_eq!(first["implementation"]["version"], sdk.version());
    assert!(
        lines[1..lines.len() - 1]
            .iter()
            .all(|l| l["kind"] == "finding"),
        "only findings between header and footer"
    );
    assert_eq!(last["kind"], "footer");
    // The exit status is the footer's: 0 passed, 1 failed.
    assert_eq!(
        out.status.code(),
        last["exit_status"].as_u64().map(|c| c as i32),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(summary.contains("seed 7 · 40 cases"), "{summary}");

    let record = Record::parse(&text).expect("the report reads it");
    assert!(record.is_fuzz() && !record.is_producer());
    let footer = record.footer.as_ref().expect("a footer");
    assert_eq!(footer.totals.total(), 40);
    let z = footer.fuzz.as_ref().expect("the campaign's summary");
    assert_eq!(
        z.failures.len(),
        record.findings.len(),
        "one finding per failing signature"
    );
    for f in &record.findings {
        assert!(f.events_after() <= f.events_before, "{}", f.rule);
        assert!(f.cases >= 1);
    }
    // The report's fuzz section lists the campaign and each finding.
    let label = format!("{} fuzzed", sdk.key());
    let mut m = Merged::new(Vec::new());
    m.fuzz = vec![Column::new(label.clone(), record.clone())];
    let md = render(&m, &Notes::new(), &Page::default()).page;
    assert!(md.contains("## Fuzz campaigns"), "{md}");
    assert!(md.contains(&format!("### {label}")), "{md}");
    assert!(md.contains("40 cases, seed 7, mode mixed"), "{md}");
    for f in &record.findings {
        assert!(
            md.contains(&format!("#### {label}: {} `{}`", f.score.as_str(), f.rule)),
            "{}: {md}",
            f.rule
        );
    }
    record
}

#[cfg(feature = "ag-ui")]
#[test]
fn an_ag_ui_campaign_writes_the_record_the_report_reads() {
    campaign(Sdk::AgUi);
}

/// ag-ui-client types every id as a UUID, so it rejects valid streams
/// (whose ids are plain strings): the campaign finds it, and shrinks it.
#[cfg(feature = "ag-ui-client")]
#[test]
fn an_ag_ui_client_campaign_finds_its_rejection_of_valid_streams() {
    let r = campaign(Sdk::AgUiClient);
    let valid = r
        .findings
        .iter()
        .find(|f| f.rule == "valid")
        .expect("a finding on valid streams");
    assert_eq!(valid.expected.verdict, "accept");
    assert_eq!(valid.shrunk_answer["verdict"], "reject");
    assert!(valid.events_after() < valid.events_before);
}

#[test]
fn the_same_seed_runs_the_same_campaign() {
    let sdk = first();
    let findings = |name: &str| {
        let path = temp(name);
        let p = path.display().to_string();
        fuzz(&[
            "--sdk",
            sdk.key(),
            "--seed",
            "3",
            "--cases",
            "25",
            "--shrink-budget",
            "20",
            "--record",
            &p,
        ]);
        let text = std::fs::read_to_string(&path).expect("the record is written");
        let r = Record::parse(&text).expect("the report reads it");
        let footer = r.footer.expect("a footer");
        (
            r.findings
                .iter()
                .map(|f| (f.rule.clone(), f.number, f.stream.clone()))
                .collect::<Vec<_>>(),
            footer.totals,
        )
    };
    assert_eq!(findings("again-1.jsonl"), findings("again-2.jsonl"));
}

#[test]
fn bad_flags_are_refused_with_a_reason() {
    for (args, says) in [
        (&["--seed", "7"][..], "--sdk is needed"),
        (&["--sdk", "nope"], "no SDK `nope`"),
        (
            &["--sdk", first().key(), "--cases", "many"],
            "--cases takes a whole number",
        ),
        (&["--sdk", first().key(), "--time", "5x"], "--time:"),
        (&["--sdk", first().key(), "--seed"], "--seed needs a value"),
        (
            &["--sdk", first().key(), "--jobs", "2"],
            "unknown flag --jobs",
        ),
    ] {
        let out = fuzz(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn an_unwritable_record_is_an_error_not_a_silent_success() {
    let out = fuzz(&[
        "--sdk",
        first().key(),
        "--seed",
        "1",
        "--cases",
        "2",
        "--record",
        "/nonexistent-dir/x.jsonl",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("writing /nonexistent-dir/x.jsonl"));
}
