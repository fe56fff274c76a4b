//! The official AG-UI corpus as suites (`official-1.0`, `official-1.1`,
//! `official-draft`) and read natively (`run --official-dir`): listed,
//! runnable, agreement reported. The native fixtures are our own, written
//! by hand under tests/fixtures/official in the official format.

use serde_json::Value;
use std::process::Command;

mod support;
use support::{BIN, Dir, accept_all, agui_run, run_summary};

fn fixtures() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/official").to_owned()
}

fn case_lines(out: &std::process::Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v.get("id").is_some())
        .collect()
}

#[test]
fn the_official_suites_are_listed() {
    let out = Command::new(BIN).arg("suites").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    for name in ["official-1.0", "official-1.1", "official-draft"] {
        assert!(
            text.lines().any(|l| l.starts_with(name)),
            "`{name}` not listed:\n{text}"
        );
    }
}

#[test]
fn official_1_1_runs_its_cases_and_reports_agreement() {
    let out = agui_run()
        .args(["--suite", "official-1.1"])
        .output()
        .unwrap();
    let lines = case_lines(&out);
    assert!(!lines.is_empty(), "{out:?}");
    assert!(
        lines
            .iter()
            .all(|l| l["id"].as_str().unwrap().starts_with("official/1.1/")),
        "a case of another suite ran"
    );
    // The fixture that expects the deltas joined: the reference agrees.
    let triad = lines
        .iter()
        .find(|l| l["id"] == "official/1.1/triad-assembles-message")
        .expect("the triad case ran");
    assert_eq!(triad["score"], "PASS", "{triad}");
    assert_eq!(triad["official"]["agrees"], true, "{triad}");
    assert_eq!(triad["official"]["outcome"], "completed");
    let s = run_summary(&out);
    let t = &s["official"];
    assert_eq!(
        t["agree"].as_u64().unwrap()
            + t["differ"].as_u64().unwrap()
            + t["unjudged"].as_u64().unwrap(),
        s["cases"].as_u64().unwrap(),
        "{s}"
    );
}

#[test]
fn the_stand_ins_of_1_0_are_marked() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../corpus/official/1.0/triad-assembles-message.json"
    );
    let case: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(
        case["official"]["standsInFor"],
        "spec/1.0/conformance/streams/triad-assembles-message.json"
    );
    assert_eq!(
        case["official"]["path"],
        "spec/1.1/conformance/streams/triad-assembles-message.json"
    );
}

#[test]
fn official_dir_scores_at_the_outcome_level() {
    let out = agui_run()
        .args(["--official-dir", &fixtures()])
        .output()
        .unwrap();
    let lines = case_lines(&out);
    let by = |id: &str| {
        lines
            .iter()
            .find(|l| l["id"] == id)
            .unwrap_or_else(|| panic!("{id} not run: {out:?}"))
            .clone()
    };
    let ok = by("official-dir/1.1/text-assembles");
    assert_eq!(ok["score"], "PASS", "{ok}");
    assert_eq!(ok["official"]["agrees"], true);
    // A rejection anywhere passes a `failed` fixture (no rule is known).
    let failed = by("official-dir/1.1/content-without-start");
    assert_eq!(failed["score"], "PASS", "{failed}");
    assert_eq!(failed["official"]["answered"], "failed");
    // The projection is compared by subset: this fixture's text is wrong.
    let wrong = by("official-dir/1.1/wrong-text-expected");
    assert_eq!(wrong["score"], "FAIL", "{wrong}");
    assert_eq!(wrong["official"]["agrees"], false);
    // Not comparable: run, listed with its reason, agreeing with nothing.
    let era = by("official-dir/1.1/pinned-era");
    assert_eq!(era["official"]["agrees"], Value::Null, "{era}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("not comparable: official-dir/1.1/pinned-era: the client is pinned to protocol version \"0.0.40\""),
        "{stderr}"
    );
    // A file that is not a fixture is a problem of the run, never dropped.
    let s = run_summary(&out);
    assert!(
        s["problems"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p.as_str().unwrap().contains("stray.json")),
        "{s}"
    );
    assert_eq!(s["exit_status"], 3, "{s}");
    assert_eq!(s["official"]["agree"], 2, "{s}");
    assert_eq!(s["official"]["differ"], 1, "{s}");
    assert_eq!(s["official"]["unjudged"], 1, "{s}");
}

#[test]
fn official_dir_scores_a_command() {
    // An implementation that accepts everything: the `failed` fixture is
    // a FAIL that disagrees.
    let d = Dir::new("official-accept-all");
    let cmd = d.script("accept.sh", &accept_all("accept-all", ""));
    let out = agui_run()
        .args(["--official-dir", &fixtures(), "--impl", &cmd])
        .output()
        .unwrap();
    let lines = case_lines(&out);
    let failed = lines
        .iter()
        .find(|l| l["id"] == "official-dir/1.1/content-without-start")
        .unwrap_or_else(|| panic!("{out:?}"));
    assert_eq!(failed["score"], "FAIL", "{failed}");
    assert_eq!(failed["official"]["agrees"], false, "{failed}");
}
