//! Checker limits (RULES.md "Checker limits"): a limit is a notice, never a
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
    assert_eq!(report.counts.violations(), 50);
    assert_eq!(report.limits[0].kind, LimitKind::Violations);
    assert_eq!(report.limits[0].index, 10);
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
