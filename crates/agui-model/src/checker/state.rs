//! State tracking: `STATE_SNAPSHOT`, `STATE_DELTA` and a run's input state
//! replace or patch the stream's state document under the state budget;
//! `state.patch-fails` (docs/rules.md "Entity rules") is judged here. Once
//! the budget is hit (or an event was skipped) tracking stops for the
//! stream and the projection shows the state as it stood.

use super::Checker;
use crate::limits::{LimitKind, LimitNotice};
use crate::patch;
use crate::rules::RuleId;
use serde_json::Value;

impl Checker {
    /// A `STATE_DELTA` whose `delta` reads as a patch (one that does not is
    /// a schema fault, reported there).
    pub(super) fn state_delta(&mut self, i: usize, patch: &[json_patch::PatchOperation]) {
        if self.state_off {
            return;
        }
        self.judged(super::area::ENTITIES);
        let budget = patch::PatchBudget {
            state_bytes: self.limits.state_bytes,
            work: self.limits.state_bytes,
        };
        match patch::apply(&mut self.state, &mut self.state_size, patch, &budget) {
            Ok(()) => {}
            Err(e @ patch::PatchError::Fails { .. }) => self.report(
                RuleId::StatePatchFails,
                i,
                format!("STATE_DELTA does not apply to the state: {e}; state left unchanged"),
            ),
            Err(e @ patch::PatchError::OverBudget { .. }) => self.state_limit(
                i,
                format!("STATE_DELTA would pass the state budget: {e}; state tracking stops"),
            ),
        }
    }

    /// A `STATE_DELTA` whose `delta` is not a patch document: it does not
    /// apply, and the state stays as it is.
    pub(super) fn unreadable_patch(&mut self, i: usize) {
        if self.state_off {
            return;
        }
        self.judged(super::area::ENTITIES);
        self.report(
            RuleId::StatePatchFails,
            i,
            "STATE_DELTA does not apply to the state: its delta is not an RFC 6902 patch document; state left unchanged".to_owned(),
        );
    }

    /// A state document (snapshot or input state) replaces the state,
    /// unless it is over the state budget or tracking already stopped.
    pub(super) fn replace_state(&mut self, i: usize, state: &Value) {
        if self.state_off {
            return;
        }
        let size = patch::mem_size(state);
        if size > self.limits.state_bytes {
            let msg = format!(
                "a state document holding {size} bytes in memory is over the state budget of {}; state tracking stops",
                self.limits.state_bytes
            );
            self.state_limit(i, msg);
            return;
        }
        self.state = state.clone();
        self.state_size = size;
    }

    /// The state budget was hit: a `state-bytes` notice, and no more state
    /// tracking for this stream (so `state.patch-fails` is no longer judged;
    /// the projection shows the state as it stood).
    fn state_limit(&mut self, i: usize, message: String) {
        self.state_off = true;
        let n = LimitNotice::new(
            LimitKind::StateBytes,
            i,
            self.limits.state_bytes as u64,
            message,
        );
        self.notice(n);
    }
}

#[cfg(test)]
mod tests {
    //! The state rule by hand from docs/rules.md; then the two inputs that broke
    //! `json_patch::patch` (a panic in its undo, a copy chain that exhausts
    //! memory), judged like any other patch on the `Value` path and the fast
    //! path, the state left unchanged.

    use crate::Checker;
    use crate::RuleId as R;
    use crate::checker::streams::*;
    use serde_json::{Value, json};

    #[test]
    fn state_patch_fails() {
        expect_first(
            &[
                run_started(),
                state_delta(
                    json!([{"op": "replace", "path": "/missing", "value": 1}]),
                    None,
                ),
                run_finished(),
            ],
            R::StatePatchFails,
            1,
        );
    }
    #[test]
    fn state_patch_near_miss_applies_to_carried_state() {
        expect_clean(&[
            run_started(),
            state_snapshot(json!({"n": 1}), Some("s1")),
            run_finished(),
            run_started_id("r2"),
            state_delta(json!([{"op": "replace", "path": "/n", "value": 2}]), None),
            run_finished_id("r2"),
        ]);
    }
    #[test]
    fn state_patch_fails_leaves_state_unchanged() {
        // The failing delta's first op would apply; the whole patch must not.
        let r = crate::check_values(&[
            run_started(),
            state_snapshot(json!({"a": 1}), None),
            state_delta(
                json!([{"op": "add", "path": "/b", "value": 2}, {"op": "remove", "path": "/zzz"}]),
                None,
            ),
            run_finished(),
        ]);
        assert_eq!(r.violations.len(), 1);
        assert_eq!(
            r.projection.expect("projection").runs[0]["state"],
            json!({"a": 1})
        );
    }

    /// A run whose state is a snapshot, then `delta`.
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
    fn check_both(events: &[Value]) -> [(Vec<R>, Value); 2] {
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
            assert_eq!(ids, [R::StatePatchFails]);
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
}
