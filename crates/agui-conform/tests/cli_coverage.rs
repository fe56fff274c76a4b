//! What a check could not judge, and why: the `coverage` object of the
//! JSON report (and of SARIF's invocation), the `coverage:` line of the
//! text report — by the kind of input, the limit notices the checker
//! emitted and an input with no events.

mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn input(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/inputs")
        .join(name)
}

fn check(args: &[&str]) -> Output {
    Command::new(support::BIN)
        .arg("check")
        .args(args)
        .arg("--no-config")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn report(args: &[&str]) -> Value {
    let mut a = args.to_vec();
    a.extend(["--format", "json"]);
    serde_json::from_slice(&check(&a).stdout).unwrap()
}

fn gaps(r: &Value) -> &Vec<Value> {
    r["coverage"]["notEvaluable"].as_array().unwrap()
}

fn coverage_line(args: &[&str]) -> String {
    let out = check(args);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find(|l| l.starts_with("coverage: "))
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn a_json_file_leaves_only_the_transport_rules() {
    let p = input("after-finished.json").display().to_string();
    let r = report(&[&p]);
    let g = gaps(&r);
    assert_eq!(g.len(), 1, "{g:?}");
    assert_eq!(g[0]["areas"], serde_json::json!(["transport"]));
    assert!(g[0].get("from").is_none());
    assert!(
        coverage_line(&[&p]).starts_with("coverage: not judged: transport.* (a stream of JSON")
    );
}

#[test]
fn a_saved_sse_body_is_judged_by_its_byte_rules() {
    let p = input("saved.sse").display().to_string();
    let r = report(&[&p]);
    let rules: Vec<&str> = gaps(&r)[0]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(rules.contains(&"transport.status") && rules.contains(&"transport.idle"));
    assert!(!rules.contains(&"transport.framing"));
    assert!(!rules.contains(&"transport.unterminated-event"));
}

#[test]
fn a_skipped_event_suspends_the_stream_rules_from_its_index() {
    let p = input("gen-valid.jsonl").display().to_string();
    let r = report(&[&p, "--max-line-bytes", "100"]);
    let first = r["limits"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["kind"] == "line-bytes")
        .expect("a line-bytes notice")["index"]
        .clone();
    let g = gaps(&r);
    let suspended = g
        .iter()
        .find(|e| {
            e.get("areas")
                .is_some_and(|a| a.as_array().unwrap().contains(&"run".into()))
        })
        .unwrap();
    assert_eq!(suspended["from"], first);
    let areas = suspended["areas"].as_array().unwrap();
    assert!(!areas.contains(&"schema".into()), "per-event rules go on");
    let stopped = g
        .iter()
        .find(|e| {
            e["rules"]
                .as_array()
                .is_some_and(|r| r.contains(&"state.patch-fails".into()))
        })
        .unwrap();
    assert_eq!(stopped["from"], first);
    assert!(
        stopped["rules"]
            .as_array()
            .unwrap()
            .contains(&"lifecycle.resumed-not-suspended".into())
    );
}

#[test]
fn a_state_limit_stops_state_patch_fails_from_its_index() {
    let p = input("gen-valid.jsonl").display().to_string();
    let r = report(&[&p, "--max-state-bytes", "8"]);
    let first = r["limits"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["kind"] == "state-bytes")
        .expect("a state-bytes notice")["index"]
        .clone();
    let g = gaps(&r);
    let e = g
        .iter()
        .find(|e| e["rules"] == serde_json::json!(["state.patch-fails"]))
        .unwrap();
    assert_eq!(e["from"], first);
    assert!(
        coverage_line(&[&p, "--max-state-bytes", "8"])
            .contains(&format!("state.patch-fails from #{first}"))
    );
}

#[test]
fn no_events_is_nothing_judged() {
    let p = input("empty.jsonl").display().to_string();
    let r = report(&[&p]);
    let areas = gaps(&r)[0]["areas"].as_array().unwrap().clone();
    for a in ["schema", "run", "transport", "ownership"] {
        assert!(areas.contains(&a.into()), "{a}");
    }
}

#[test]
fn a_live_check_judges_every_rule_and_sarif_says_the_same() {
    let server = support::serve_jsonl(&input("gen-valid.jsonl"));
    let url = server.url();
    let r = report(&["--url", &url]);
    assert!(gaps(&r).is_empty(), "{r}");
    // The same families as a check of the same events from a file.
    let file = report(&[&input("gen-valid.jsonl").display().to_string()]);
    assert_eq!(r["coverage"]["exercised"], file["coverage"]["exercised"]);
    assert_eq!(
        r["coverage"]["notExercised"],
        file["coverage"]["notExercised"]
    );
    assert!(
        coverage_line(&["--url", &url])
            .starts_with("coverage: every rule judged; exercised: schema, run,"),
        "{r}"
    );
    // SARIF carries the file's coverage in its invocation.
    let p = input("after-finished.json").display().to_string();
    let log: Value = serde_json::from_slice(&check(&[&p, "--format", "sarif"]).stdout).unwrap();
    let cov = &log["runs"][0]["invocations"][0]["properties"]["coverage"];
    assert_eq!(cov, &report(&[&p])["coverage"]);
}

/// Writes `lines` as a JSON Lines file of this test's own.
fn stream_file(name: &str, lines: &[String]) -> String {
    let p = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_coverage-{name}.jsonl"));
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    p.display().to_string()
}

fn areas(r: &Value, key: &str) -> Vec<String> {
    r["coverage"][key]
        .as_array()
        .unwrap_or_else(|| panic!("coverage.{key}: {r}"))
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

fn ev(v: Value) -> String {
    v.to_string()
}

fn run_started() -> String {
    ev(serde_json::json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"}))
}

fn run_finished() -> String {
    ev(serde_json::json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"}))
}

fn text(ty: &str, extra: Value) -> String {
    let mut v = serde_json::json!({"type": ty, "messageId": "m1"});
    v.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    ev(v)
}

#[test]
fn a_plain_text_run_exercises_schema_run_and_entities_only() {
    // docs/rules.md: every event is schema-checked and judged by its place
    // in the run (run.*); a message's START by text.already-open, its
    // CONTENT and END by text.not-open (entities). Nothing here is tagged
    // (no ownership rule compares an owner), no tool call ends and no
    // snapshot comes (consistency), no invocation is announced (lifecycle,
    // and nothing for the interrupt rules at RUN_FINISHED), no chunk.
    let p = stream_file(
        "plain",
        &[
            run_started(),
            text(
                "TEXT_MESSAGE_START",
                serde_json::json!({"role": "assistant"}),
            ),
            text("TEXT_MESSAGE_CONTENT", serde_json::json!({"delta": "hi"})),
            text("TEXT_MESSAGE_END", serde_json::json!({})),
            run_finished(),
        ],
    );
    let r = report(&[&p]);
    assert_eq!(areas(&r, "exercised"), ["schema", "run", "entities"]);
    assert_eq!(
        areas(&r, "notExercised"),
        [
            "consistency",
            "lifecycle",
            "ownership",
            "interrupts",
            "chunks"
        ]
    );
    let l = coverage_line(&[&p]);
    assert!(
        l.ends_with(
            "; exercised: schema, run, entities; no event judged by: consistency, lifecycle, ownership, interrupts, chunks"
        ),
        "{l}"
    );
    // SARIF carries the same object.
    let out = check(&[&p, "--format", "sarif"]);
    let sarif: Value = serde_json::from_slice(&out.stdout).unwrap();
    let cov = &sarif["runs"][0]["invocations"][0]["properties"]["coverage"];
    assert_eq!(cov, &r["coverage"]);
}

#[test]
fn an_announced_invocation_exercises_lifecycle() {
    // SUBAGENT_STARTED and SUBAGENT_FINISHED are judged by lifecycle.*;
    // the text message tagged with its id by ownership.* (its owner on
    // record against the tag).
    let tag = serde_json::json!({"subagentRunId": "s1"});
    let p = stream_file(
        "lifecycle",
        &[
            run_started(),
            ev(serde_json::json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "name": "a"})),
            text(
                "TEXT_MESSAGE_START",
                serde_json::json!({"role": "assistant", "subagentRunId": "s1"}),
            ),
            text("TEXT_MESSAGE_END", tag),
            ev(serde_json::json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s1"})),
            run_finished(),
        ],
    );
    let r = report(&[&p]);
    assert_eq!(r["verdict"], "accept", "{r}");
    assert_eq!(
        areas(&r, "exercised"),
        ["schema", "run", "entities", "lifecycle", "ownership"]
    );
    assert_eq!(
        areas(&r, "notExercised"),
        ["consistency", "interrupts", "chunks"]
    );
}

#[test]
fn events_after_a_skipped_one_exercise_only_the_schema() {
    // The first line is over --max-line-bytes: skipped, and until the next
    // RUN_STARTED only the per-event (schema) rules judge (docs/rules.md
    // "Checker limits"), so its invocation does not count for lifecycle.
    // The second run is judged in full, by run and schema only.
    let long = ev(serde_json::json!({
        "type": "RUN_STARTED", "threadId": "t".repeat(300), "runId": "r0"
    }));
    let p = stream_file(
        "blind",
        &[
            long,
            ev(serde_json::json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "name": "a"})),
            text(
                "TEXT_MESSAGE_START",
                serde_json::json!({"role": "assistant", "subagentRunId": "s1"}),
            ),
            ev(serde_json::json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s1"})),
            run_finished(),
            run_started(),
            run_finished(),
        ],
    );
    let r = report(&[&p, "--max-line-bytes", "200"]);
    assert_eq!(r["counts"]["limits"], 1, "{r}");
    assert_eq!(areas(&r, "exercised"), ["schema", "run"]);
    assert!(areas(&r, "notExercised").contains(&"lifecycle".to_owned()));
}
