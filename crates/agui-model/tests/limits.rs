//! Checker limits (docs/rules.md "Checker limits"): a limit is a notice, never a
//! violation; checking goes on where it can; the verdict is `reject` only
//! when an error came before the first notice, else `inconclusive`.

use agui_model::check::check_bytes;
use agui_model::{Checker, LimitKind, Limits, RuleId, Verdict};

const RUN: &str = r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#;
const FIN: &str = r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"#;

fn stream(lines: &[&str]) -> Vec<u8> {
    let mut s = String::new();
    for l in lines {
        s.push_str(l);
        s.push('\n');
    }
    s.into_bytes()
}

#[test]
fn a_chain_of_root_copies_hits_the_state_budget_and_state_tracking_stops() {
    // Each copy of the root doubles the state: 20 of them would be a
    // million copies of it.
    let ops: Vec<String> = (0..20)
        .map(|k| format!(r#"{{"op":"copy","from":"","path":"/k{k}"}}"#))
        .collect();
    let delta = format!(r#"{{"type":"STATE_DELTA","delta":[{}]}}"#, ops.join(","));
    let snapshot = format!(
        r#"{{"type":"STATE_SNAPSHOT","snapshot":{{"blob":"{}"}}}}"#,
        "x".repeat(1000)
    );
    let bad_patch = r#"{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/nope"}]}"#;
    let bytes = stream(&[RUN, &snapshot, &delta, bad_patch, FIN]);
    let limits = Limits {
        state_bytes: 64 * 1024,
        ..Limits::default()
    };
    let report = check_bytes(&bytes, Checker::new().with_limits(limits));
    assert_eq!(report.limits.len(), 1, "{:?}", report.limits);
    let n = &report.limits[0];
    assert_eq!(
        (n.kind, n.index, n.limit),
        (LimitKind::StateBytes, 2, 64 * 1024)
    );
    // Tracking stopped: the failing patch after it is not judged.
    assert!(report.violations.is_empty(), "{:?}", report.violations);
    assert_eq!(report.verdict(), Verdict::Inconclusive);
    // The state shown is the last one tracked, unchanged by the copies.
    let state = &report.projection.expect("projected").runs[0]["state"];
    assert_eq!(state.as_object().map(|o| o.len()), Some(1));
}

#[test]
fn a_snapshot_over_the_budget_is_a_notice_and_an_earlier_error_still_rejects() {
    let snapshot = format!(
        r#"{{"type":"STATE_SNAPSHOT","snapshot":{{"blob":"{}"}}}}"#,
        "x".repeat(5000)
    );
    let bytes = stream(&[
        RUN,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"nope","delta":"x"}"#,
        &snapshot,
        FIN,
    ]);
    let limits = Limits {
        state_bytes: 1000,
        ..Limits::default()
    };
    let report = check_bytes(&bytes, Checker::new().with_limits(limits));
    assert_eq!(report.violations[0].rule, RuleId::TextNotOpen);
    assert_eq!(report.limits[0].kind, LimitKind::StateBytes);
    assert_eq!(report.limits[0].index, 2);
    assert_eq!(report.verdict(), Verdict::Reject);
}

#[test]
fn a_move_onto_the_root_then_a_failing_operation_leaves_the_state_unchanged() {
    let bytes = stream(&[
        RUN,
        r#"{"type":"STATE_SNAPSHOT","snapshot":{"a":{"b":1},"c":2}}"#,
        r#"{"type":"STATE_DELTA","delta":[{"op":"move","from":"/a","path":""},{"op":"remove","path":"/zz"}]}"#,
        r#"{"type":"STATE_DELTA","delta":[{"op":"copy","from":"","path":"/x"},{"op":"test","path":"/c","value":3}]}"#,
        FIN,
    ]);
    let report = check_bytes(&bytes, Checker::new());
    let rules: Vec<(RuleId, usize)> = report
        .violations
        .iter()
        .map(|v| (v.rule, v.index))
        .collect();
    assert_eq!(
        rules,
        vec![(RuleId::StatePatchFails, 2), (RuleId::StatePatchFails, 3)]
    );
    assert_eq!(
        report.projection.expect("projected").runs[0]["state"],
        serde_json::json!({"a": {"b": 1}, "c": 2})
    );
}

#[test]
fn kept_violations_are_capped_but_all_counted() {
    let bytes = "{}\n".repeat(50).into_bytes();
    let limits = Limits {
        violations: 10,
        ..Limits::default()
    };
    let report = check_bytes(&bytes, Checker::without_projection().with_limits(limits));
    assert_eq!(report.violations.len(), 10);
    // 50 untyped items, the first of which is also not a RUN_STARTED.
    assert_eq!(report.counts.violations(), 51);
    assert_eq!(report.limits[0].kind, LimitKind::Violations);
    // The 11th violation: item 0 holds two.
    assert_eq!(report.limits[0].index, 9);
    // Nothing went unjudged: the verdict stands.
    assert_eq!(report.verdict(), Verdict::Reject);
}

/// A low nesting limit holds on every line, the fast path's included.
#[test]
fn a_low_nesting_limit_holds_on_the_fast_path_too() {
    let deep = r#"{"type":"CUSTOM","name":"c","value":[[[[[[[[1]]]]]]]]}"#;
    let bytes = stream(&[RUN, deep, FIN]);
    let limits = Limits {
        nesting: 3,
        ..Limits::default()
    };
    let report = check_bytes(&bytes, Checker::new().with_limits(limits));
    assert_eq!(report.limits.len(), 1, "{:?}", report.limits);
    assert_eq!(
        (report.limits[0].kind, report.limits[0].index),
        (LimitKind::Nesting, 1)
    );
    assert_eq!(report.verdict(), Verdict::Inconclusive);
}

/// An event's text without its closing brace, to add a field to.
fn open_object(event: &str) -> &str {
    event.strip_suffix('}').unwrap_or(event)
}

/// An event `depth` levels deep in an unknown field: over the default
/// nesting limit when `depth` passes it.
fn deep(event: &str, depth: usize) -> String {
    let inner = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    format!(r#"{},"x":{inner}}}"#, open_object(event))
}

/// Checks `lines` with the line `skip` made unreadable at a limit in both
/// ways the reader skips (nesting past the default depth; a line past a
/// length limit), through the fast path (JSON Lines) and the `Value` path
/// (one JSON array), and returns the four reports.
fn skipped(lines: &[&str], skip: usize) -> Vec<(String, agui_model::Report)> {
    let mut out = Vec::new();
    let long_len = lines.iter().map(|l| l.len()).max().unwrap_or(0) + 1;
    for how in ["nesting", "line-bytes"] {
        let mut ls: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        let limits = if how == "nesting" {
            ls[skip] = deep(&ls[skip], 20_000);
            Limits::default()
        } else {
            let pad = "y".repeat(2 * long_len);
            ls[skip] = format!(r#"{},"pad":"{pad}"}}"#, open_object(&ls[skip]));
            Limits {
                line_bytes: long_len,
                ..Limits::default()
            }
        };
        let jsonl: Vec<&str> = ls.iter().map(String::as_str).collect();
        let jsonl = stream(&jsonl);
        let array = format!("[{}]", ls.join(",\n"));
        for (form, bytes) in [("lines", jsonl), ("array", array.into_bytes())] {
            let report = check_bytes(&bytes, Checker::new().with_limits(limits));
            out.push((format!("{how} skip, {form}"), report));
        }
    }
    out
}

fn rules(r: &agui_model::Report) -> Vec<(RuleId, usize)> {
    r.violations.iter().map(|v| (v.rule, v.index)).collect()
}

#[test]
fn an_event_skipped_at_a_limit_is_unknown_not_absent() {
    // Each stream is valid; the skipped event is the one whose absence
    // would break a rule after it (the catalogue's "Checker limits": a
    // skipped event may have opened, continued or closed anything).
    let sa = r#"{"type":"SUBAGENT_STARTED","subagentRunId":"s1","name":"a"}"#;
    let sf = r#"{"type":"SUBAGENT_FINISHED","subagentRunId":"s1"}"#;
    let cases: [(&str, Vec<&str>, usize); 5] = [
        (
            "TEXT_MESSAGE_START",
            vec![
                RUN,
                r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}"#,
                r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"hi"}"#,
                r#"{"type":"TEXT_MESSAGE_END","messageId":"m1"}"#,
                FIN,
            ],
            1,
        ),
        (
            "SUBAGENT_STARTED",
            vec![
                RUN,
                sa,
                r#"{"type":"STEP_STARTED","stepName":"a","subagentRunId":"s1"}"#,
                r#"{"type":"STEP_FINISHED","stepName":"a","subagentRunId":"s1"}"#,
                sf,
                FIN,
            ],
            1,
        ),
        ("SUBAGENT_FINISHED", vec![RUN, sa, sf, FIN], 2),
        ("RUN_FINISHED", vec![RUN, sa, sf, FIN], 3),
        (
            "STATE_SNAPSHOT",
            vec![
                RUN,
                r#"{"type":"STATE_SNAPSHOT","snapshot":{"a":1}}"#,
                r#"{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/a","value":2}]}"#,
                FIN,
            ],
            1,
        ),
    ];
    for (what, lines, skip) in cases {
        for (how, report) in skipped(&lines, skip) {
            assert!(
                report.violations.is_empty(),
                "{what} ({how}): {:?}",
                report.violations
            );
            assert_eq!(report.limits.len(), 1, "{what} ({how})");
            assert_eq!(report.limits[0].index, skip, "{what} ({how})");
            assert_eq!(report.verdict(), Verdict::Inconclusive, "{what} ({how})");
        }
    }
}

#[test]
fn after_a_skip_schema_rules_are_judged_and_the_next_run_started_resumes_everything() {
    let lines = [
        RUN,
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m1"}"#,
        // Judged per event while blind: a null optional field.
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"x","subagentRunId":null}"#,
        // Not judged while blind: a continuation of an id never opened.
        r#"{"type":"TEXT_MESSAGE_END","messageId":"never"}"#,
        // A RUN_STARTED after a skip starts afresh: no run.already-active.
        RUN,
        r#"{"type":"TEXT_MESSAGE_END","messageId":"again"}"#,
        FIN,
    ];
    for (how, report) in skipped(&lines, 1) {
        assert_eq!(
            rules(&report),
            [(RuleId::AttributionNull, 2), (RuleId::TextNotOpen, 5)],
            "{how}"
        );
        // The schema violation came after the limit notice: inconclusive.
        assert_eq!(report.verdict(), Verdict::Inconclusive, "{how}");
        // The run with the skip is shown as incomplete, the next one not.
        let runs = &report.projection.as_ref().expect("projected").runs;
        assert_eq!(runs.len(), 2, "{how}");
        assert_eq!(runs[0]["incomplete"], serde_json::json!(true), "{how}");
        assert!(runs[1].get("incomplete").is_none(), "{how}");
    }
}

#[test]
fn after_a_skip_resumption_and_state_are_not_judged_for_the_rest_of_the_stream() {
    // s1 finished (not suspended) in run 1; run 2 announces it again: a
    // resumption the catalogue warns about — unless an event skipped in
    // between may have changed how s1 ended or the state.
    let lines = [
        RUN,
        r#"{"type":"SUBAGENT_STARTED","subagentRunId":"s1","name":"a"}"#,
        r#"{"type":"SUBAGENT_FINISHED","subagentRunId":"s1"}"#,
        r#"{"type":"STATE_SNAPSHOT","snapshot":{"a":1}}"#,
        FIN,
        RUN,
        r#"{"type":"SUBAGENT_STARTED","subagentRunId":"s1","name":"a"}"#,
        r#"{"type":"SUBAGENT_FINISHED","subagentRunId":"s1"}"#,
        r#"{"type":"STATE_DELTA","delta":[{"op":"remove","path":"/b"}]}"#,
        FIN,
    ];
    // Without a skip both are reported: the test would catch a checker
    // that never judges them.
    let plain = check_bytes(&stream(&lines), Checker::new());
    assert_eq!(
        rules(&plain),
        [
            (RuleId::LifecycleResumedNotSuspended, 6),
            (RuleId::StatePatchFails, 8)
        ]
    );
    for (how, report) in skipped(&lines, 3) {
        assert!(
            report.violations.is_empty(),
            "{how}: {:?}",
            report.violations
        );
    }
}

#[test]
fn a_run_left_open_by_a_run_started_is_shown_as_unterminated() {
    // One entry per RUN_STARTED (docs/projection.md): the run that a
    // second RUN_STARTED abandons is shown as it stood, not dropped.
    let lines = [
        RUN,
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}"#,
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"hi"}"#,
        r#"{"type":"RUN_STARTED","threadId":"t","runId":"r2"}"#,
        r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r2"}"#,
    ];
    let report = check_bytes(&stream(&lines), Checker::new());
    assert_eq!(rules(&report), [(RuleId::RunAlreadyActive, 3)]);
    let runs = &report.projection.expect("projected").runs;
    assert_eq!(runs.len(), 2);
    // Revision 4: a run nothing ended is never shown as finished.
    assert_eq!(runs[0]["status"], "unterminated");
    assert_eq!(runs[0]["messages"][0]["content"], "hi");
    assert_eq!(
        (&runs[1]["runId"], &runs[1]["status"]),
        (&serde_json::json!("r2"), &serde_json::json!("finished"))
    );
}

#[test]
fn a_projection_over_its_budget_is_shown_incomplete_and_every_rule_still_judged() {
    // Not a power of two: the arena's capacity (64,000 then 128,000
    // bytes) passes it at the 65th delta, what it holds at the 101st.
    let budget = 100_000;
    let delta = "d".repeat(1000);
    let mut lines = vec![
        RUN.to_owned(),
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}"#.to_owned(),
    ];
    let deltas = 200; // 200 KB of text: twice the budget.
    for _ in 0..deltas {
        lines.push(format!(
            r#"{{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"{delta}"}}"#
        ));
    }
    lines.push(r#"{"type":"TEXT_MESSAGE_END","messageId":"m1"}"#.to_owned());
    // Judged after the budget is spent: a continuation of nothing open.
    lines.push(r#"{"type":"TEXT_MESSAGE_END","messageId":"nope"}"#.to_owned());
    lines.push(FIN.to_owned());
    // A second run, small: shown whole.
    lines.push(r#"{"type":"RUN_STARTED","threadId":"t","runId":"r2"}"#.to_owned());
    lines.push(r#"{"type":"TEXT_MESSAGE_START","messageId":"m2","role":"assistant"}"#.to_owned());
    lines.push(r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m2","delta":"ok"}"#.to_owned());
    lines.push(r#"{"type":"TEXT_MESSAGE_END","messageId":"m2"}"#.to_owned());
    lines.push(r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r2"}"#.to_owned());
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let limits = Limits {
        projection_bytes: budget,
        ..Limits::default()
    };
    // Each run handed on as it ends, as `check` prints them: the budget
    // holds the open run.
    let runs = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = runs.clone();
    let checker = Checker::with_projection_sink(move |run| sink.borrow_mut().push(run));
    let report = check_bytes(&stream(&refs), checker.with_limits(limits));
    let not_open = deltas + 3;
    assert_eq!(rules(&report), [(RuleId::TextNotOpen, not_open)]);
    // Every rule judged: the error rejects, the notice does not count.
    assert_eq!(report.verdict(), Verdict::Reject);
    assert_eq!(report.limits.len(), 1, "{:?}", report.limits);
    let n = &report.limits[0];
    assert_eq!(
        (n.kind, n.limit),
        (LimitKind::ProjectionBytes, budget as u64)
    );
    // The budget counts what the run holds, not its buffers' spare room:
    // passed at the delta whose text passed it (the 101st, at index 102),
    // or one before when the run's tables tip it (they hold less than 1 KB).
    let at_text = 1 + budget.div_ceil(1000);
    assert!(
        (at_text - 1..=at_text).contains(&n.index),
        "notice at {}",
        n.index
    );
    let runs = runs.borrow();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0]["incomplete"], serde_json::json!(true));
    assert_eq!(runs[0]["status"], "finished");
    let shown = runs[0]["messages"][0]["content"]
        .as_str()
        .map_or(0, str::len);
    // It stops growing after the event that passed the budget: the text
    // shown is every delta up to that one.
    assert_eq!(shown, 1000 * (n.index - 1), "{shown} bytes shown");
    assert!(runs[1].get("incomplete").is_none());
    assert_eq!(runs[1]["messages"][0]["content"], "ok");
}

#[test]
fn runs_kept_in_memory_count_against_the_projection_budget() {
    // Without a sink the checker keeps every run's projection: together
    // they stay within the budget, later runs shown incomplete.
    let delta = "d".repeat(1000);
    let mut lines = Vec::new();
    for r in 0..40 {
        lines.push(format!(
            r#"{{"type":"RUN_STARTED","threadId":"t","runId":"r{r}"}}"#
        ));
        lines
            .push(r#"{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}"#.to_owned());
        for _ in 0..8 {
            lines.push(format!(
                r#"{{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"{delta}"}}"#
            ));
        }
        lines.push(r#"{"type":"TEXT_MESSAGE_END","messageId":"m"}"#.to_owned());
        lines.push(format!(
            r#"{{"type":"RUN_FINISHED","threadId":"t","runId":"r{r}"}}"#
        ));
    }
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let limits = Limits {
        projection_bytes: 100 * 1024,
        ..Limits::default()
    };
    let report = check_bytes(&stream(&refs), Checker::new().with_limits(limits));
    assert_eq!(report.verdict(), Verdict::Accept);
    let projection = report.projection.expect("projected");
    let runs = &projection.runs;
    // About ten runs of 8 KB fit; the run that passes the budget is kept,
    // incomplete, and the rest are counted, not kept.
    assert!(runs.len() < 20, "{} runs kept", runs.len());
    assert_eq!(runs.len() + projection.omitted, 40);
    assert!(runs[0].get("incomplete").is_none());
    assert_eq!(
        runs.last().and_then(|r| r.get("incomplete")),
        Some(&serde_json::json!(true))
    );
    let kept: usize = runs.iter().map(agui_model::patch::mem_size).sum();
    assert!(kept < 2 * 100 * 1024, "{kept} bytes kept");
    assert_eq!(projection.to_json()["omittedRuns"], projection.omitted);
}

/// A run that opens `ids` text messages and leaves them open, then a
/// second run with one violation (a continuation of nothing open).
fn open_ids_then_a_fault(ids: usize) -> Vec<u8> {
    let mut lines = vec![RUN.to_owned()];
    for i in 0..ids {
        lines.push(format!(
            r#"{{"type":"TEXT_MESSAGE_START","messageId":"message-{i}","role":"assistant"}}"#
        ));
    }
    lines.push(FIN.to_owned());
    lines.push(RUN.to_owned());
    lines.push(r#"{"type":"TEXT_MESSAGE_END","messageId":"nope"}"#.to_owned());
    lines.push(FIN.to_owned());
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    stream(&refs)
}

#[test]
fn bookkeeping_over_its_budget_is_dropped_and_the_run_judged_as_after_a_skip() {
    let ids = 100_000;
    let limits = Limits {
        bookkeeping_bytes: 1 << 20,
        ..Limits::default()
    };
    let report = check_bytes(
        &open_ids_then_a_fault(ids),
        Checker::new().with_limits(limits),
    );
    // The open messages at RUN_FINISHED are not judged: what was on
    // record is gone. The next run is judged in full.
    assert_eq!(rules(&report), [(RuleId::TextNotOpen, ids + 3)]);
    assert_eq!(report.limits.len(), 1, "{:?}", report.limits);
    let n = &report.limits[0];
    assert_eq!((n.kind, n.limit), (LimitKind::BookkeepingBytes, 1 << 20));
    // A name costs at least its text and a 24-byte slot: a megabyte holds
    // fewer than 40,000 of them.
    assert!(n.index > 1 && n.index < 40_000, "notice at {}", n.index);
    assert_eq!(report.verdict(), Verdict::Inconclusive);
    let runs = &report.projection.expect("projected").runs;
    assert_eq!(runs[0]["incomplete"], serde_json::json!(true));
    assert_eq!(runs[0]["status"], "finished");
    assert!(runs[0]["messages"].as_array().map_or(0, Vec::len) < 40_000);
}

#[test]
fn a_message_names_at_most_twenty_open_entities() {
    let report = check_bytes(&open_ids_then_a_fault(30), Checker::new());
    let v = &report.violations[0];
    assert_eq!((v.rule, v.index), (RuleId::RunOpenEntitiesAtFinish, 31));
    assert_eq!(
        v.message.matches("text message").count(),
        20,
        "{}",
        v.message
    );
    assert!(v.message.ends_with("and 10 more"), "{}", v.message);
    // Under its budget the book judges everything.
    assert_eq!(rules(&report)[1], (RuleId::TextNotOpen, 33));
}
