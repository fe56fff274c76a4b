//! Revision 4 of docs/rules.md (the official AG-UI specification): what a
//! consumer drops or strips, how a run shows how it ended, and the
//! projection's changes. Every expectation is written by hand from
//! docs/rules.md and docs/projection.md.

mod support;

use agui_model::{RuleId as R, check_values};
use serde_json::{Value, json};
use support::*;

/// The violations of a stream as (rule, index).
fn found(events: &[Value]) -> Vec<(R, usize)> {
    check_values(events)
        .violations
        .iter()
        .map(|v| (v.rule, v.index))
        .collect()
}

/// The stream's projection, one run.
fn run_of(events: &[Value]) -> Value {
    let p = check_values(events)
        .projection
        .expect("projected")
        .to_json();
    p["runs"][0].clone()
}

#[test]
fn an_unknown_event_type_is_dropped_and_changes_nothing() {
    // `schema.unknown-type` (must-accept): between a message's deltas it
    // neither closes nor continues anything.
    let events = [
        run_started(),
        text_start("m1", None),
        text_content("m1", "before", None),
        json!({"type": "FUTURE_EVENT", "somethingNew": true}),
        text_content("m1", " and after", None),
        text_end("m1", None),
        run_finished(),
    ];
    assert_eq!(found(&events), [(R::SchemaUnknownType, 3)]);
    assert_eq!(
        run_of(&events)["messages"][0]["content"],
        "before and after"
    );
    // As the first item it is no first event, and after RUN_FINISHED no
    // event after the run.
    let first = [json!({"type": "HELLO"}), run_started(), run_finished()];
    assert_eq!(found(&first), [(R::SchemaUnknownType, 0)]);
    let after = [run_started(), run_finished(), json!({"type": "BYE"})];
    assert_eq!(found(&after), [(R::SchemaUnknownType, 2)]);
}

#[test]
fn an_absent_or_non_string_type_is_still_fatal() {
    assert_eq!(
        found(&[run_started(), json!({"delta": "x"}), run_finished()]),
        [(R::SchemaMissingField, 1)]
    );
    assert_eq!(
        found(&[run_started(), json!({"type": 7}), run_finished()]),
        [(R::SchemaWrongType, 1)]
    );
}

#[test]
fn an_unknown_run_outcome_reads_as_success() {
    let events = [
        run_started(),
        json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1", "outcome": {"type": "paused"}}),
    ];
    assert_eq!(found(&events), [(R::SchemaUnknownMember, 1)]);
    assert_eq!(run_of(&events)["status"], "finished");
}

#[test]
fn an_unknown_subagent_outcome_reads_as_success() {
    let events = [
        run_started(),
        started("s1", None),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s1", "outcome": {"type": "failed"}}),
        run_finished(),
    ];
    assert_eq!(found(&events), [(R::LifecycleUnknownOutcome, 2)]);
    assert_eq!(run_of(&events)["invocations"][0]["status"], "finished");
}

#[test]
fn an_unknown_content_part_is_dropped_from_its_list() {
    let events = [
        run_started(),
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "u1", "role": "user", "content": [
            {"type": "text", "text": "before"},
            {"type": "hologram", "source": {"type": "data", "value": "AAAA", "mimeType": "x/y"}},
            {"type": "text", "text": " after"}]}]}),
        run_finished(),
    ];
    assert_eq!(found(&events), [(R::SchemaUnknownMember, 1)]);
    let run = run_of(&events);
    assert_eq!(
        run["messages"],
        json!([{"id": "u1", "role": "user", "content": "before after"}])
    );
}

#[test]
fn a_message_of_an_unknown_role_leaves_the_snapshot() {
    let events = [
        run_started(),
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [
            {"id": "n1", "role": "narrator", "content": "x"},
            {"id": "u1", "role": "user", "content": "hi"}]}),
        run_finished(),
    ];
    assert_eq!(found(&events), [(R::SchemaUnknownMember, 1)]);
    assert_eq!(
        run_of(&events)["messages"],
        json!([{"id": "u1", "role": "user", "content": "hi"}])
    );
}

#[test]
fn an_unknown_text_role_is_removed_and_reads_as_assistant() {
    let events = [
        run_started(),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "narrator"}),
        text_content("m1", "hi", None),
        text_end("m1", None),
        run_finished(),
    ];
    assert_eq!(found(&events), [(R::SchemaUnknownMember, 1)]);
    assert_eq!(run_of(&events)["messages"][0]["role"], "assistant");
}

#[test]
fn a_role_its_event_type_fixes_is_malformed_not_unknown() {
    let events = [
        run_started(),
        json!({"type": "REASONING_MESSAGE_START", "messageId": "r1", "role": "assistant"}),
    ];
    assert_eq!(found(&events)[0], (R::SchemaWrongType, 1));
}

#[test]
fn an_unknown_encrypted_value_subtype_drops_the_event() {
    // A required field of the event's own: the event goes, like an
    // unknown type, so nothing it names is judged.
    let events = [
        run_started(),
        json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": "image", "entityId": "zz", "encryptedValue": "x", "subagentRunId": "s9"}),
        run_finished(),
    ];
    assert_eq!(found(&events), [(R::SchemaUnknownMember, 1)]);
    assert_eq!(run_of(&events)["invocations"], json!([]));
}

#[test]
fn an_unknown_patch_op_is_dropped_and_the_rest_applies() {
    let events = [
        run_started(),
        state_snapshot(json!({"count": 1}), None),
        state_delta(
            json!([{"op": "increment", "path": "/count", "value": 1},
                   {"op": "replace", "path": "/count", "value": 5}]),
            None,
        ),
        run_finished(),
    ];
    assert_eq!(found(&events), [(R::SchemaUnknownMember, 2)]);
    assert_eq!(run_of(&events)["state"], json!({"count": 5}));
}

#[test]
fn a_run_shows_how_it_ended() {
    let cancelled = [
        run_started(),
        json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1", "outcome": {"type": "cancelled"}}),
    ];
    assert_eq!(found(&cancelled), []);
    assert_eq!(run_of(&cancelled)["status"], "cancelled");
    let interrupted = [
        run_started(),
        run_interrupted(json!([{"id": "i1", "reason": "approval"}])),
    ];
    assert_eq!(run_of(&interrupted)["status"], "interrupted");
    let truncated = [run_started(), text_start("m1", None)];
    assert_eq!(run_of(&truncated)["status"], "unterminated");
}

#[test]
fn a_late_run_error_marks_the_finished_run_failed() {
    let events = [
        run_started(),
        text_start("m1", None),
        text_content("m1", "delivered", None),
        text_end("m1", None),
        run_finished(),
        run_error(),
    ];
    assert_eq!(found(&events), []);
    let run = run_of(&events);
    assert_eq!(run["status"], "errored");
    assert_eq!(run["messages"][0]["content"], "delivered");
}

#[test]
fn a_run_error_first_is_a_failed_run() {
    let p = check_values(&[run_error()]).projection.expect("projected");
    assert_eq!(
        p.to_json()["runs"],
        json!([{"status": "errored", "invocations": [], "messages": [], "state": {}, "interrupts": []}])
    );
}

#[test]
fn a_tool_call_on_a_tool_message_goes_on_a_new_assistant_message() {
    // The named message is a tool result's: the call goes on a new
    // assistant message the consumer makes up (shown without an id), the
    // tool message stays as it was.
    let events = [
        run_started(),
        tool_start("c1", "search", None, None),
        tool_end("c1", None),
        tool_result("t1", "c1", "42", None),
        tool_start("c2", "lookup", Some("t1"), None),
        tool_end("c2", None),
        run_finished(),
    ];
    assert_eq!(found(&events), []);
    assert_eq!(
        run_of(&events)["messages"],
        json!([
            {"role": "assistant", "content": "", "toolCalls": [{"id": "c1", "name": "search", "args": ""}]},
            {"id": "t1", "role": "tool", "content": "42"},
            {"role": "assistant", "content": "", "toolCalls": [{"id": "c2", "name": "lookup", "args": ""}]}
        ])
    );
}

#[test]
fn a_tool_call_naming_an_unseen_message_keeps_that_id() {
    let events = [
        run_started(),
        tool_start("c1", "search", Some("m7"), None),
        tool_end("c1", None),
        run_finished(),
    ];
    assert_eq!(
        run_of(&events)["messages"],
        json!([{"id": "m7", "role": "assistant", "content": "", "toolCalls": [{"id": "c1", "name": "search", "args": ""}]}])
    );
}

#[test]
fn a_messages_snapshot_keeps_the_activities_it_omits() {
    let events = [
        run_started(),
        text_start("m1", None),
        text_content("m1", "draft", None),
        text_end("m1", None),
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "a1", "activityType": "progress", "content": {"pct": 10}}),
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [
            {"id": "m1", "role": "assistant", "content": "final"}]}),
        run_finished(),
    ];
    assert_eq!(
        run_of(&events)["messages"],
        json!([
            {"id": "m1", "role": "assistant", "content": "final"},
            {"id": "a1", "role": "activity", "activityType": "progress", "content": {"pct": 10}}
        ])
    );
    // A snapshot that carries activities itself replaces them all.
    let carried = [
        run_started(),
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "a1", "activityType": "progress", "content": {"pct": 10}}),
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [
            {"id": "a2", "role": "activity", "activityType": "plan", "content": {}}]}),
        run_finished(),
    ];
    assert_eq!(
        run_of(&carried)["messages"],
        json!([{"id": "a2", "role": "activity", "activityType": "plan", "content": {}}])
    );
}

#[test]
fn an_empty_delta_is_valid_and_adds_nothing() {
    let events = [
        run_started(),
        text_start("m1", None),
        text_content("m1", "", None),
        text_content("m1", "x", None),
        text_end("m1", None),
        run_finished(),
    ];
    assert_eq!(found(&events), []);
    assert_eq!(run_of(&events)["messages"][0]["content"], "x");
}
