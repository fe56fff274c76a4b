//! One detection test (exact rule and index) and one near miss (accepted)
//! per stream rule of docs/rules.md. Expectations are written from docs/rules.md and
//! the draft, by hand.

mod common;

use agui_model::RuleId as R;
use common::*;
use serde_json::json;

// ---- run rules ----

#[test]
fn run_first_event() {
    expect_first(
        &[text_start("m1", None), text_end("m1", None)],
        R::RunFirstEvent,
        0,
    );
}
#[test]
fn run_first_event_near_miss_run_error_first() {
    // RUN_ERROR is an allowed first event.
    expect_clean(&[run_error()]);
}
#[test]
fn run_already_active() {
    expect_first(
        &[run_started(), run_started(), run_finished()],
        R::RunAlreadyActive,
        1,
    );
}
#[test]
fn run_already_active_near_miss_sequential_runs() {
    expect_clean(&[
        run_started(),
        run_finished(),
        run_started_id("r2"),
        run_finished(),
    ]);
}
#[test]
fn run_after_finished() {
    expect_first(
        &[run_started(), run_finished(), custom(None)],
        R::RunAfterFinished,
        2,
    );
    // RUN_ERROR after RUN_FINISHED is still reported (docs/rules.md: only RUN_STARTED may follow).
    expect_first(
        &[run_started(), run_finished(), run_error()],
        R::RunAfterFinished,
        2,
    );
}
#[test]
fn run_after_error() {
    expect_first(
        &[run_started(), run_error(), text_start("m1", None)],
        R::RunAfterError,
        2,
    );
}
#[test]
fn run_after_error_near_miss_new_run() {
    expect_clean(&[
        run_started(),
        run_error(),
        run_started_id("r2"),
        run_finished(),
    ]);
}
#[test]
fn run_open_entities_at_finish() {
    expect_first(
        &[run_started(), text_start("m1", None), run_finished()],
        R::RunOpenEntitiesAtFinish,
        2,
    );
    expect_first(
        &[
            run_started(),
            step_started("plan", Some("s1")),
            run_finished(),
        ],
        R::RunOpenEntitiesAtFinish,
        2,
    );
}
#[test]
fn run_open_entities_near_miss_chunk_stream_closed_by_finish() {
    // RUN_FINISHED closes every lane, so a chunk stream is never open at it.
    expect_clean(&[
        run_started(),
        text_chunk(Some("m1"), Some("hi"), None),
        run_finished(),
    ]);
}
#[test]
fn run_unterminated() {
    expect_first(
        &[run_started(), text_start("m1", None), text_end("m1", None)],
        R::RunUnterminated,
        3,
    );
}
#[test]
fn run_unterminated_near_miss_run_error_ends_it() {
    expect_clean(&[run_started(), started("s1", None), run_error()]);
}

// ---- entity rules ----

#[test]
fn text_already_open() {
    expect_first(
        &[
            run_started(),
            text_start("m1", None),
            text_start("m1", None),
        ],
        R::TextAlreadyOpen,
        2,
    );
}
#[test]
fn text_already_open_near_miss_same_id_other_kind() {
    // Entities are keyed per kind: a text message and a tool call may share an id.
    expect_clean(&[
        run_started(),
        text_start("x", None),
        tool_start("x", "search", None, None),
        tool_end("x", None),
        text_end("x", None),
        run_finished(),
    ]);
}
#[test]
fn text_not_open() {
    expect_first(
        &[run_started(), text_content("m1", "hi", None)],
        R::TextNotOpen,
        1,
    );
    expect_first(
        &[
            run_started(),
            text_start("m1", None),
            text_end("m1", None),
            text_end("m1", None),
        ],
        R::TextNotOpen,
        3,
    );
}
#[test]
fn tool_already_open() {
    expect_first(
        &[
            run_started(),
            tool_start("c1", "f", None, None),
            tool_start("c1", "f", None, None),
        ],
        R::ToolAlreadyOpen,
        2,
    );
}
#[test]
fn tool_not_open() {
    expect_first(
        &[run_started(), tool_args("c1", "{}", None)],
        R::ToolNotOpen,
        1,
    );
}
#[test]
fn tool_near_miss_reopen_after_close() {
    expect_clean(&[
        run_started(),
        tool_start("c1", "f", None, None),
        tool_end("c1", None),
        tool_start("c1", "f", None, None),
        tool_end("c1", None),
        run_finished(),
    ]);
}
#[test]
fn reasoning_already_open() {
    expect_first(
        &[
            run_started(),
            reasoning_start("r1", None),
            reasoning_start("r1", None),
        ],
        R::ReasoningAlreadyOpen,
        2,
    );
    expect_first(
        &[
            run_started(),
            reasoning_msg_start("r1", None),
            reasoning_msg_start("r1", None),
        ],
        R::ReasoningAlreadyOpen,
        2,
    );
}
#[test]
fn reasoning_near_miss_span_and_message_share_id() {
    expect_clean(&[
        run_started(),
        reasoning_start("r1", Some("s1")),
        reasoning_msg_start("r1", Some("s1")),
        reasoning_msg_content("r1", "think", None),
        reasoning_msg_end("r1", None),
        reasoning_end("r1", Some("s1")),
        run_finished(),
    ]);
}
#[test]
fn reasoning_not_open() {
    expect_first(
        &[run_started(), reasoning_msg_content("r1", "x", None)],
        R::ReasoningNotOpen,
        1,
    );
    // REASONING_END names a span; an open reasoning message of that id is not a span.
    expect_first(
        &[
            run_started(),
            reasoning_msg_start("r1", None),
            reasoning_end("r1", None),
        ],
        R::ReasoningNotOpen,
        2,
    );
}
#[test]
fn step_already_open() {
    expect_first(
        &[
            run_started(),
            step_started("plan", Some("s1")),
            step_started("plan", Some("s1")),
        ],
        R::StepAlreadyOpen,
        2,
    );
}
#[test]
fn step_not_open() {
    expect_first(
        &[run_started(), step_finished("plan", None)],
        R::StepNotOpen,
        1,
    );
}
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
        run_finished(),
    ]);
}
#[test]
fn state_patch_fails_leaves_state_unchanged() {
    // The failing delta's first op would apply; the whole patch must not.
    let r = agui_model::check_values(&[
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

// ---- lifecycle rules ----

#[test]
fn lifecycle_announce_after_attribution() {
    expect_first(
        &[
            run_started(),
            custom(Some("s1")),
            started("s1", None),
            finished("s1"),
            run_finished(),
        ],
        R::LifecycleAnnounceAfterAttribution,
        2,
    );
}
#[test]
fn lifecycle_announce_near_miss_snapshot_history_does_not_count() {
    expect_clean(&[
        run_started(),
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "m0", "role": "assistant", "content": "old", "subagentRunId": "s1"}]}),
        started("s1", None),
        finished("s1"),
        run_finished(),
    ]);
}
#[test]
fn lifecycle_already_active() {
    expect_first(
        &[run_started(), started("s1", None), started("s1", None)],
        R::LifecycleAlreadyActive,
        2,
    );
}
#[test]
fn lifecycle_reused_id() {
    expect_first(
        &[
            run_started(),
            started("s1", None),
            finished("s1"),
            started("s1", None),
            finished("s1"),
            run_finished(),
        ],
        R::LifecycleReusedId,
        3,
    );
    expect_first(
        &[
            run_started(),
            started("s1", None),
            sub_error("s1"),
            started("s1", None),
        ],
        R::LifecycleReusedId,
        3,
    );
}
#[test]
fn lifecycle_not_active() {
    expect_first(&[run_started(), finished("s1")], R::LifecycleNotActive, 1);
    expect_first(
        &[
            run_started(),
            started("s1", None),
            finished("s1"),
            sub_error("s1"),
        ],
        R::LifecycleNotActive,
        3,
    );
}
#[test]
fn lifecycle_unknown_parent() {
    expect_first(
        &[run_started(), started("s2", Some("s1"))],
        R::LifecycleUnknownParent,
        1,
    );
}
#[test]
fn lifecycle_unknown_parent_near_miss_parent_finished_first() {
    expect_clean(&[
        run_started(),
        started("s1", None),
        finished("s1"),
        started("s2", Some("s1")),
        finished("s2"),
        run_finished(),
    ]);
}
#[test]
fn lifecycle_open_at_run_finish() {
    expect_first(
        &[run_started(), started("s1", None), run_finished()],
        R::LifecycleOpenAtRunFinish,
        2,
    );
}
#[test]
fn lifecycle_resumed_not_suspended() {
    let events = [
        run_started(),
        started("s1", None),
        finished("s1"),
        run_finished(),
        run_started_id("r2"),
        started("s1", None),
        finished("s1"),
        run_finished(),
    ];
    expect_first(&events, R::LifecycleResumedNotSuspended, 5);
}
#[test]
fn lifecycle_resumed_near_miss_suspended_then_resumed() {
    expect_clean(&[
        run_started(),
        started("s1", None),
        suspended("s1", &["i1"]),
        run_interrupted(json!([{"id": "i1", "reason": "approval", "subagentRunId": "s1"}])),
        run_started_id("r2"),
        started("s1", None),
        finished("s1"),
        run_finished(),
    ]);
}

// ---- ownership rules ----

#[test]
fn ownership_continuation_disagrees() {
    expect_first(
        &[
            run_started(),
            text_start("m1", Some("s1")),
            text_content("m1", "x", Some("s2")),
        ],
        R::OwnershipContinuationDisagrees,
        2,
    );
    // An untagged opener recorded the parent.
    expect_first(
        &[
            run_started(),
            tool_start("c1", "f", None, None),
            tool_end("c1", Some("s1")),
        ],
        R::OwnershipContinuationDisagrees,
        2,
    );
}
#[test]
fn ownership_continuation_near_miss_untagged() {
    expect_clean(&[
        run_started(),
        text_start("m1", Some("s1")),
        text_content("m1", "x", None),
        text_end("m1", None),
        run_finished(),
    ]);
}
#[test]
fn ownership_encrypted_value_continues_closed_entity() {
    expect_first(
        &[
            run_started(),
            tool_start("c1", "f", None, Some("s1")),
            tool_end("c1", None),
            encrypted("tool-call", "c1", Some("s2")),
        ],
        R::OwnershipContinuationDisagrees,
        3,
    );
    expect_clean(&[
        run_started(),
        reasoning_msg_start("r1", Some("s1")),
        reasoning_msg_end("r1", None),
        encrypted("message", "r1", Some("s1")),
        run_finished(),
    ]);
}
#[test]
fn ownership_reopen_disagrees() {
    expect_first(
        &[
            run_started(),
            text_start("m1", Some("s1")),
            text_end("m1", None),
            text_start("m1", Some("s2")),
        ],
        R::OwnershipReopenDisagrees,
        3,
    );
}
#[test]
fn ownership_reopen_near_miss_untagged_reopen_agrees() {
    expect_clean(&[
        run_started(),
        text_start("m1", Some("s1")),
        text_end("m1", None),
        text_start("m1", None),
        text_end("m1", None),
        run_finished(),
    ]);
}
#[test]
fn ownership_tool_call_vs_message() {
    expect_first(
        &[
            run_started(),
            text_start("m1", Some("s1")),
            tool_start("c1", "f", Some("m1"), Some("s2")),
        ],
        R::OwnershipToolCallVsMessage,
        2,
    );
}
#[test]
fn ownership_tool_call_near_miss_inherits() {
    expect_clean(&[
        run_started(),
        text_start("m1", Some("s1")),
        tool_start("c1", "f", Some("m1"), None),
        tool_args("c1", "{}", Some("s1")),
        tool_end("c1", None),
        text_end("m1", None),
        run_finished(),
    ]);
}
#[test]
fn ownership_step_owner() {
    expect_first(
        &[
            run_started(),
            step_started("plan", Some("s1")),
            step_finished("plan", None),
        ],
        R::OwnershipStepOwner,
        2,
    );
}
#[test]
fn ownership_step_near_miss_per_owner() {
    expect_clean(&[
        run_started(),
        step_started("plan", None),
        step_started("plan", Some("s1")),
        step_finished("plan", None),
        step_finished("plan", Some("s1")),
        run_finished(),
    ]);
}

// ---- interrupts ----

#[test]
fn interrupt_run_not_interrupted() {
    let events = [
        run_started(),
        started("s1", None),
        suspended("s1", &[]),
        run_finished(),
    ];
    expect_first(&events, R::InterruptRunNotInterrupted, 3);
}
#[test]
fn interrupt_unknown_id() {
    let events = [
        run_started(),
        started("s1", None),
        suspended("s1", &["i9"]),
        run_interrupted(json!([{"id": "i1", "reason": "x", "subagentRunId": "s1"}])),
    ];
    expect_first(&events, R::InterruptUnknownId, 3);
}
#[test]
fn interrupt_owner_mismatch() {
    let events = [
        run_started(),
        started("s1", None),
        suspended("s1", &["i1"]),
        run_interrupted(json!([{"id": "i1", "reason": "x"}])),
    ];
    expect_first(&events, R::InterruptOwnerMismatch, 3);
}
#[test]
fn interrupt_near_miss_descendant_interrupted() {
    // s1 is suspended because its child s2 interrupted: s1 owns no interrupt.
    expect_clean(&[
        run_started(),
        started("s1", None),
        started("s2", Some("s1")),
        suspended("s2", &["i1"]),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s1", "outcome": {"type": "suspended"}}),
        run_interrupted(json!([{"id": "i1", "reason": "x", "subagentRunId": "s2"}])),
    ]);
}

// ---- chunks ----

#[test]
fn chunk_ambiguous() {
    let events = [
        run_started(),
        text_chunk(Some("a"), Some("x"), Some("s1")),
        text_chunk(Some("b"), Some("y"), Some("s2")),
        text_chunk(None, Some("z"), None),
    ];
    expect_first(&events, R::ChunkAmbiguous, 3);
}
#[test]
fn chunk_near_miss_sole_lane() {
    expect_projection(
        &[
            run_started(),
            text_chunk(Some("a"), Some("x"), Some("s1")),
            text_chunk(None, Some("y"), None),
            run_finished(),
        ],
        json!({"runs": [{"threadId": "t1", "runId": "r1", "status": "finished",
            "invocations": [{"id": "s1", "status": "unannounced"}],
            "messages": [{"id": "a", "role": "assistant", "owner": "s1", "content": "xy"}],
            "state": {}, "interrupts": []}]}),
    );
}
#[test]
fn chunk_no_stream() {
    expect_first(
        &[run_started(), text_chunk(None, Some("x"), None)],
        R::ChunkNoStream,
        1,
    );
}
#[test]
fn chunk_missing_name() {
    expect_first(
        &[
            run_started(),
            tool_chunk(Some("c1"), None, Some("{}"), None),
        ],
        R::ChunkMissingName,
        1,
    );
}
#[test]
fn chunk_opener_disagrees() {
    let events = [
        run_started(),
        tool_chunk(Some("c1"), Some("search"), Some("{"), None),
        tool_chunk(Some("c1"), Some("fetch"), Some("}"), None),
    ];
    expect_first(&events, R::ChunkOpenerDisagrees, 2);
    // A name the opener left out counts as different.
    let events = [
        run_started(),
        text_chunk(Some("m1"), Some("a"), None),
        json!({"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "name": "bob", "delta": "b"}),
    ];
    expect_first(&events, R::ChunkOpenerDisagrees, 2);
}
#[test]
fn chunk_opener_near_miss_restated_assistant_role() {
    expect_clean(&[
        run_started(),
        text_chunk(Some("m1"), Some("a"), None),
        json!({"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "role": "assistant", "delta": "b"}),
        run_finished(),
    ]);
}
#[test]
fn chunk_with_id_continues_other_lane_with_disagreeing_tag() {
    let events = [
        run_started(),
        text_chunk(Some("m1"), Some("a"), Some("s1")),
        text_chunk(Some("m1"), Some("b"), Some("s2")),
    ];
    expect_first(&events, R::OwnershipContinuationDisagrees, 2);
}
#[test]
fn chunk_closed_by_explicit_event_of_own_owner_then_explicit_end_is_not_open() {
    // The explicit END closes the parent's lane first (synthesised END m1),
    // so the explicit END finds m1 no longer open.
    let events = [
        run_started(),
        text_chunk(Some("m1"), Some("a"), None),
        text_end("m1", None),
    ];
    expect_first(&events, R::TextNotOpen, 2);
}
#[test]
fn chunk_lane_survives_other_owners_events() {
    expect_clean(&[
        run_started(),
        text_chunk(Some("m1"), Some("a"), Some("s1")),
        text_start("m2", None),
        text_end("m2", None),
        text_chunk(None, Some("b"), Some("s1")),
        run_finished(),
    ]);
}

// ---- ordering ----

#[test]
fn several_rules_on_one_event_come_in_catalogue_order() {
    // RUN_FINISHED with an open text message and an active invocation:
    // run.open-entities-at-finish precedes lifecycle.open-at-run-finish.
    let r = agui_model::check_values(&[
        run_started(),
        started("s1", None),
        text_start("m1", Some("s1")),
        run_finished(),
    ]);
    let rules: Vec<_> = r.violations.iter().map(|v| (v.rule, v.index)).collect();
    assert_eq!(
        rules,
        vec![
            (R::RunOpenEntitiesAtFinish, 3),
            (R::LifecycleOpenAtRunFinish, 3)
        ]
    );
}

#[test]
fn chunk_continuation_is_judged_against_the_owner_on_record_with_or_without_delta() {
    // An untagged tool chunk on s1's message opens (in the parent's lane) a
    // call owned by s1. A continuing chunk tagged s1 agrees with that owner,
    // whether or not it carries a delta; one tagged s2 disagrees either way.
    let base = || {
        vec![
            run_started(),
            text_start("m1", Some("s1")),
            text_end("m1", Some("s1")),
            // Arguments that are JSON with or without the continuation's
            // delta (else `tool.args-not-json` at the run's end).
            json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "c1", "toolCallName": "f", "parentMessageId": "m1", "delta": "{}"}),
        ]
    };
    for delta in [Some(" "), None] {
        let mut agree = base();
        agree.push(tool_chunk(Some("c1"), None, delta, Some("s1")));
        agree.push(run_finished());
        expect_clean(&agree);
        let mut disagree = base();
        disagree.push(tool_chunk(Some("c1"), None, delta, Some("s2")));
        expect_first(&disagree, R::OwnershipContinuationDisagrees, 4);
    }
}
