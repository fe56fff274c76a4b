//! The checker's `STATE_DELTA` handling with the budgeted applier, on the
//! `Value` path and the fast path: the two inputs that broke
//! `json_patch::patch` (a panic in its undo, a copy chain that exhausts
//! memory) are judged like any other patch, the state left unchanged.

use agui_model::{Checker, RuleId};
use serde_json::{Value, json};

fn stream(delta: Value) -> Vec<Value> {
    vec![
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"a": {"b": 1}, "c": [2]}}),
        json!({"type": "STATE_DELTA", "delta": delta}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}),
    ]
}

/// The violations' rule ids and the final state, by the `Value` path and
/// by the line path (which takes the fast path where it can).
fn check_both(events: &[Value]) -> [(Vec<RuleId>, Value); 2] {
    let mut by_value = Checker::new();
    let mut by_line = Checker::new();
    for e in events {
        by_value.push(e);
        by_line.push_line(serde_json::to_string(e).unwrap().as_bytes());
    }
    [by_value, by_line].map(|c| {
        let state = c.state().clone();
        let ids = c.finish().violations.iter().map(|v| v.rule).collect();
        (ids, state)
    })
}

#[test]
fn root_move_then_failure_is_a_patch_failure_and_no_panic() {
    let delta = json!([
        {"op": "move", "from": "/a", "path": ""},
        {"op": "remove", "path": "/nope"}
    ]);
    for (ids, state) in check_both(&stream(delta)) {
        assert_eq!(ids, [RuleId::StatePatchFails]);
        assert_eq!(state, json!({"a": {"b": 1}, "c": [2]}));
    }
}

#[test]
fn root_move_applies() {
    let delta = json!([{"op": "move", "from": "/a", "path": ""}]);
    for (ids, state) in check_both(&stream(delta)) {
        assert!(ids.is_empty(), "{ids:?}");
        assert_eq!(state, json!({"b": 1}));
    }
}

#[test]
fn copy_chain_over_the_budget_leaves_the_state_unchanged() {
    let big = json!({"op": "add", "path": "/s", "value": "x".repeat(1000)});
    let mut ops = vec![big];
    ops.extend((0..20).map(|i| json!({"op": "copy", "from": "", "path": format!("/k{i}")})));
    for (ids, state) in check_both(&stream(Value::Array(ops))) {
        // Over the checker's budget: not the producer's fault.
        assert!(ids.is_empty(), "{ids:?}");
        assert_eq!(state, json!({"a": {"b": 1}, "c": [2]}));
    }
}
