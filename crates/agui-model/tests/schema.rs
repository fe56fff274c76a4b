//! The wire schema: every schema-area rule detected at its exact path, a
//! near miss accepted for each, and one valid event of each of the 31 types
//! validating clean and round-tripping through the typed `Event`.
//!
//! Expected values are written by hand from the AG-UI 1.0 wire schema and docs/rules.md.

use agui_model::RuleId as R;
use agui_model::events::{Event, EventType};
use agui_model::schema::validate;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// `(rule, path)` of each issue, in reported order.
fn issues(v: &Value) -> Vec<(R, String)> {
    validate(v).into_iter().map(|i| (i.rule, i.path)).collect()
}

fn one(rule: R, path: &str) -> Vec<(R, String)> {
    vec![(rule, path.to_owned())]
}

#[track_caller]
fn clean(v: Value) {
    assert_eq!(issues(&v), vec![], "expected no issue for {v}");
}

#[track_caller]
fn only(v: Value, rule: R, path: &str) {
    assert_eq!(issues(&v), one(rule, path), "for {v}");
}

// ---------------------------------------------------------------- not-json

#[test]
fn not_an_object_is_not_json_and_nothing_else() {
    for v in [
        json!([{"type": "RUN_STARTED"}]),
        json!("RUN_STARTED"),
        json!(null),
        json!(3),
        json!(true),
    ] {
        only(v, R::SchemaNotJson, "");
    }
    let msg = &validate(&json!([1, 2]))[0].message;
    assert!(msg.contains("object") && msg.contains("array"), "{msg}");
}

#[test]
fn near_miss_an_empty_object_is_json_but_has_no_type() {
    // Revision 4: an absent `type` is a missing required field.
    only(json!({}), R::SchemaMissingField, "type");
}

// ------------------------------------------------------------ unknown-type

#[test]
fn type_absent_non_string_or_unknown_is_each_its_rule_alone() {
    // Revision 4: absent is `schema.missing-field`, not a string
    // `schema.wrong-type`, a string naming no type `schema.unknown-type`.
    only(
        json!({"threadId": "t", "runId": "r"}),
        R::SchemaMissingField,
        "type",
    );
    only(json!({"type": 5}), R::SchemaWrongType, "type");
    only(json!({"type": null}), R::SchemaWrongType, "type");
    only(
        json!({"type": "THINKING_START"}),
        R::SchemaUnknownType,
        "type",
    );
    only(
        json!({"type": "THINKING_TEXT_MESSAGE_CONTENT", "delta": "x"}),
        R::SchemaUnknownType,
        "type",
    );
    only(
        json!({"type": "run_started", "threadId": "t", "runId": "r"}),
        R::SchemaUnknownType,
        "type",
    );
    // Other faults are not looked at once the type is unknown.
    only(
        json!({"type": "NOPE", "timestamp": null, "subagentRunId": null}),
        R::SchemaUnknownType,
        "type",
    );
    let msg = &validate(&json!({"type": "THINKING_START"}))[0].message;
    assert!(
        msg.contains("`type`") && msg.contains("THINKING_START"),
        "{msg}"
    );
}

#[test]
fn near_miss_every_1_0_type_name_is_known() {
    for t in EventType::ALL {
        let found = issues(&json!({"type": t.as_str()}));
        assert!(
            found.iter().all(|(r, _)| *r != R::SchemaUnknownType),
            "{t}: {found:?}"
        );
    }
}

// ----------------------------------------------------------- missing-field

#[test]
fn missing_required_fields_at_any_depth() {
    only(
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m"}),
        R::SchemaMissingField,
        "delta",
    );
    only(
        json!({"type": "RUN_STARTED", "threadId": "t"}),
        R::SchemaMissingField,
        "runId",
    );
    only(
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "a", "role": "user", "content": "hi"}, {"role": "assistant"}]}),
        R::SchemaMissingField,
        "messages[1].id",
    );
    only(
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "a"}]}),
        R::SchemaMissingField,
        "messages[0].role",
    );
    only(
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "a", "role": "tool", "content": "x"}]}),
        R::SchemaMissingField,
        "messages[0].toolCallId",
    );
    let call =
        json!({"id": "c0", "type": "function", "function": {"name": "f", "arguments": "{}"}});
    only(
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "a", "role": "assistant",
            "toolCalls": [call, {"id": "c1", "type": "function", "function": {"arguments": "{}"}}]}]}),
        R::SchemaMissingField,
        "messages[0].toolCalls[1].function.name",
    );
    only(
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "a", "role": "assistant",
            "toolCalls": [{"id": "c1", "type": "function"}]}]}),
        R::SchemaMissingField,
        "messages[0].toolCalls[0].function",
    );
    only(
        json!({"type": "STATE_DELTA", "delta": [
            {"op": "add", "path": "/a", "value": 1},
            {"op": "remove", "path": "/a"},
            {"op": "test", "path": "/b", "value": null},
            {"op": "replace", "value": 2}
        ]}),
        R::SchemaMissingField,
        "delta[3].path",
    );
    only(
        json!({"type": "STATE_DELTA", "delta": [{"path": "/a"}]}),
        R::SchemaMissingField,
        "delta[0].op",
    );
    only(
        json!({"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/a"}]}),
        R::SchemaMissingField,
        "delta[0].value",
    );
    only(
        json!({"type": "STATE_DELTA", "delta": [{"op": "copy", "path": "/a"}]}),
        R::SchemaMissingField,
        "delta[0].from",
    );
    only(
        json!({"type": "ACTIVITY_DELTA", "messageId": "m", "activityType": "plan", "patch": [{"op": "move", "path": "/a"}]}),
        R::SchemaMissingField,
        "patch[0].from",
    );
    only(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "outcome": {}}),
        R::SchemaMissingField,
        "outcome.type",
    );
    only(
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s", "outcome": {"interruptIds": []}}),
        R::SchemaMissingField,
        "outcome.type",
    );
    only(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r",
            "outcome": {"type": "interrupt", "interrupts": [{"id": "i1", "reason": "approve"}, {"id": "i2"}]}}),
        R::SchemaMissingField,
        "outcome.interrupts[1].reason",
    );
    only(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "outcome": {"type": "interrupt"}}),
        R::SchemaMissingField,
        "outcome.interrupts",
    );
    only(
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "input": {"threadId": "t", "runId": "r"}}),
        R::SchemaMissingField,
        "input.messages",
    );
    only(
        json!({"type": "TOOL_CALL_RESULT", "messageId": "m", "toolCallId": "c",
            "content": [{"type": "image", "source": {"type": "data", "value": "AAAA"}}]}),
        R::SchemaMissingField,
        "content[0].source.mimeType",
    );
    only(
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "input": {"threadId": "t", "runId": "r", "messages": [],
            "resume": [{"interruptId": "i1"}]}}),
        R::SchemaMissingField,
        "input.resume[0].status",
    );
    let msg = &validate(&json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m"}))[0].message;
    assert!(msg.contains("`delta`") && msg.contains("string"), "{msg}");
}

#[test]
fn missing_fields_are_reported_in_discovery_order() {
    assert_eq!(
        issues(&json!({"type": "REASONING_ENCRYPTED_VALUE"})),
        vec![
            (R::SchemaMissingField, "subtype".to_owned()),
            (R::SchemaMissingField, "entityId".to_owned()),
            (R::SchemaMissingField, "encryptedValue".to_owned()),
        ]
    );
}

#[test]
fn near_miss_optional_fields_may_be_absent() {
    clean(json!({"type": "TEXT_MESSAGE_CHUNK"}));
    clean(json!({"type": "TOOL_CALL_CHUNK"}));
    clean(json!({"type": "REASONING_MESSAGE_CHUNK"}));
    clean(json!({"type": "STATE_DELTA", "delta": [{"op": "remove", "path": "/a"}]}));
    clean(json!({"type": "STATE_DELTA", "delta": []}));
    clean(json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "a", "role": "assistant"}]}));
    clean(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "outcome": {"type": "cancelled"}}),
    );
    clean(json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s"}));
}

// -------------------------------------------------------------- wrong-type

#[test]
fn wrong_json_types() {
    only(
        json!({"type": "TEXT_MESSAGE_START", "messageId": 7}),
        R::SchemaWrongType,
        "messageId",
    );
    only(
        json!({"type": "STEP_STARTED", "stepName": ["a"]}),
        R::SchemaWrongType,
        "stepName",
    );
    only(
        json!({"type": "STEP_STARTED", "stepName": "s", "metadata": []}),
        R::SchemaWrongType,
        "metadata",
    );
    only(
        json!({"type": "STEP_STARTED", "stepName": "s", "metadata": "x"}),
        R::SchemaWrongType,
        "metadata",
    );
    only(
        json!({"type": "STEP_STARTED", "stepName": "s", "timestamp": "1700000000"}),
        R::SchemaWrongType,
        "timestamp",
    );
    only(
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "subagentRunId": 5}),
        R::SchemaWrongType,
        "subagentRunId",
    );
    only(
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": 5, "name": "n"}),
        R::SchemaWrongType,
        "subagentRunId",
    );
    only(
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "m", "activityType": "plan", "content": []}),
        R::SchemaWrongType,
        "content",
    );
    only(
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "m", "activityType": "plan", "content": {}, "replace": "yes"}),
        R::SchemaWrongType,
        "replace",
    );
    only(
        json!({"type": "STATE_DELTA", "delta": {"op": "add"}}),
        R::SchemaWrongType,
        "delta",
    );
    only(
        json!({"type": "STATE_DELTA", "delta": ["add"]}),
        R::SchemaWrongType,
        "delta[0]",
    );
    only(
        json!({"type": "TOOL_CALL_RESULT", "messageId": "m", "toolCallId": "c", "content": 5}),
        R::SchemaWrongType,
        "content",
    );
    only(
        json!({"type": "MESSAGES_SNAPSHOT", "messages": {}}),
        R::SchemaWrongType,
        "messages",
    );
    only(
        json!({"type": "MESSAGES_SNAPSHOT", "messages": ["hi"]}),
        R::SchemaWrongType,
        "messages[0]",
    );
    only(
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "a", "role": "system", "content": ["x"]}]}),
        R::SchemaWrongType,
        "messages[0].content",
    );
    only(
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "a", "role": "activity", "activityType": "plan", "content": "x"}]}),
        R::SchemaWrongType,
        "messages[0].content",
    );
    let msg = &validate(&json!({"type": "TEXT_MESSAGE_START", "messageId": 7}))[0].message;
    assert!(
        msg.contains("`messageId`") && msg.contains("string") && msg.contains('7'),
        "{msg}"
    );
}

#[test]
fn a_required_field_written_null_is_wrong_type() {
    only(
        json!({"type": "TEXT_MESSAGE_START", "messageId": null}),
        R::SchemaWrongType,
        "messageId",
    );
    only(
        json!({"type": "RUN_ERROR", "message": null}),
        R::SchemaWrongType,
        "message",
    );
    only(
        json!({"type": "STATE_DELTA", "delta": null}),
        R::SchemaWrongType,
        "delta",
    );
    only(
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": null, "role": "user", "content": "x"}]}),
        R::SchemaWrongType,
        "messages[0].id",
    );
    let msg = &validate(&json!({"type": "RUN_ERROR", "message": null}))[0].message;
    assert!(msg.contains("null"), "{msg}");
}

#[test]
fn near_miss_required_any_json_fields_accept_null() {
    clean(json!({"type": "STATE_SNAPSHOT", "snapshot": null}));
    clean(json!({"type": "RAW", "event": null}));
    clean(json!({"type": "CUSTOM", "name": "n", "value": null}));
    clean(json!({"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/a", "value": null}]}));
    clean(json!({"type": "STATE_SNAPSHOT", "snapshot": [1, "two"]}));
}

#[test]
fn values_outside_their_enums() {
    // Revision 4: a string outside a closed set of several values is
    // `schema.unknown-member` (stripped); outside the one value its event
    // type fixes (`role: "reasoning"`, `"tool"`, `type: "function"`) it is
    // a malformed value, `schema.wrong-type`.
    only(
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "tool"}),
        R::SchemaUnknownMember,
        "role",
    );
    only(
        json!({"type": "TEXT_MESSAGE_CHUNK", "role": "reasoning"}),
        R::SchemaUnknownMember,
        "role",
    );
    only(
        json!({"type": "REASONING_MESSAGE_START", "messageId": "m", "role": "assistant"}),
        R::SchemaWrongType,
        "role",
    );
    only(
        json!({"type": "REASONING_MESSAGE_START", "messageId": "m"}),
        R::SchemaMissingField,
        "role",
    );
    only(
        json!({"type": "TOOL_CALL_RESULT", "messageId": "m", "toolCallId": "c", "content": "ok", "role": "assistant"}),
        R::SchemaWrongType,
        "role",
    );
    only(
        json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": "tool_call", "entityId": "e", "encryptedValue": "x"}),
        R::SchemaUnknownMember,
        "subtype",
    );
    only(
        json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": 1, "entityId": "e", "encryptedValue": "x"}),
        R::SchemaWrongType,
        "subtype",
    );
    only(
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "a", "role": "robot"}]}),
        R::SchemaUnknownMember,
        "messages[0].role",
    );
    only(
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "a", "role": "assistant",
            "toolCalls": [{"id": "c", "type": "fn", "function": {"name": "f", "arguments": ""}}]}]}),
        R::SchemaWrongType,
        "messages[0].toolCalls[0].type",
    );
    only(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "outcome": {"type": "suspended"}}),
        R::SchemaUnknownMember,
        "outcome.type",
    );
    only(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "outcome": {"type": 2}}),
        R::SchemaWrongType,
        "outcome.type",
    );
    only(
        json!({"type": "STATE_DELTA", "delta": [{"op": "append", "path": "/a"}]}),
        R::SchemaUnknownMember,
        "delta[0].op",
    );
    only(
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "input": {"threadId": "t", "runId": "r", "messages": [],
            "resume": [{"interruptId": "i1", "status": "done"}]}}),
        R::SchemaUnknownMember,
        "input.resume[0].status",
    );
    only(
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "a", "role": "user", "content": [{"type": "gif"}]}]}),
        R::SchemaUnknownMember,
        "messages[0].content[0].type",
    );
    only(
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "a", "role": "user",
            "content": [{"type": "text", "text": "see"}, {"type": "video", "source": {"type": "ftp", "value": "x"}}]}]}),
        R::SchemaUnknownMember,
        "messages[0].content[1].source.type",
    );
    let msg = &validate(&json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "tool"}))
        [0]
    .message;
    assert!(
        msg.contains("`role`") && msg.contains("\"assistant\"") && msg.contains("\"tool\""),
        "{msg}"
    );
}

#[test]
fn near_miss_every_enum_value_is_accepted() {
    for role in ["developer", "system", "assistant", "user"] {
        clean(json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": role}));
        clean(json!({"type": "TEXT_MESSAGE_CHUNK", "role": role}));
    }
    for subtype in ["tool-call", "message"] {
        clean(
            json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": subtype, "entityId": "e", "encryptedValue": "x"}),
        );
    }
    clean(
        json!({"type": "TOOL_CALL_RESULT", "messageId": "m", "toolCallId": "c", "content": "ok", "role": "tool"}),
    );
    for status in ["resolved", "cancelled"] {
        clean(
            json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "input": {"threadId": "t", "runId": "r", "messages": [],
            "resume": [{"interruptId": "i1", "status": status}]}}),
        );
    }
}

#[test]
fn timestamps_are_safe_integers() {
    let ev = |ts: Value| json!({"type": "STEP_STARTED", "stepName": "s", "timestamp": ts});
    only(ev(json!(1.5)), R::SchemaWrongType, "timestamp");
    only(
        ev(json!(9007199254740992u64)),
        R::SchemaWrongType,
        "timestamp",
    );
    only(
        ev(json!(-9007199254740992i64)),
        R::SchemaWrongType,
        "timestamp",
    );
    only(ev(json!(1e20)), R::SchemaWrongType, "timestamp");
    let msg = &validate(&ev(json!(1.5)))[0].message;
    assert!(
        msg.contains("`timestamp`") && msg.contains("integer") && msg.contains("1.5"),
        "{msg}"
    );
    // Near misses.
    clean(ev(json!(1.0)));
    clean(ev(json!(0)));
    clean(ev(json!(-5)));
    clean(ev(json!(9007199254740991u64)));
    clean(ev(json!(-9007199254740991i64)));
    clean(ev(json!(1700000000000u64)));
}

#[test]
fn token_counts_are_non_negative_integers() {
    let ev = |usage: Value| json!({"type": "RUN_ERROR", "message": "boom", "usage": usage});
    only(
        ev(json!([{"inputTokens": -1}])),
        R::SchemaWrongType,
        "usage[0].inputTokens",
    );
    only(
        ev(json!([{"model": "m"}, {"totalTokens": 2.5}])),
        R::SchemaWrongType,
        "usage[1].totalTokens",
    );
    only(
        ev(json!([{"cacheWriteInputTokens": "3"}])),
        R::SchemaWrongType,
        "usage[0].cacheWriteInputTokens",
    );
    only(
        ev(json!([{"provider": 1}])),
        R::SchemaWrongType,
        "usage[0].provider",
    );
    only(ev(json!({"inputTokens": 1})), R::SchemaWrongType, "usage");
    clean(ev(json!([])));
    clean(ev(json!([{}])));
    clean(ev(
        json!([{"provider": "p", "model": "m", "inputTokens": 0, "outputTokens": 3.0, "totalTokens": 3,
        "reasoningTokens": 1, "cachedInputTokens": 0, "cacheWriteInputTokens": 0}]),
    ));
}

#[test]
fn interrupts_must_not_be_empty() {
    only(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "outcome": {"type": "interrupt", "interrupts": []}}),
        R::SchemaWrongType,
        "outcome.interrupts",
    );
    only(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r",
            "outcome": {"type": "interrupt", "interrupts": [{"id": "i", "reason": "r", "responseSchema": "x"}]}}),
        R::SchemaWrongType,
        "outcome.interrupts[0].responseSchema",
    );
    clean(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r",
        "outcome": {"type": "interrupt", "interrupts": [{"id": "i", "reason": "r"}]}}),
    );
}

#[test]
fn json_pointers_follow_their_pattern() {
    only(
        json!({"type": "STATE_DELTA", "delta": [{"op": "remove", "path": "a/b"}]}),
        R::SchemaWrongType,
        "delta[0].path",
    );
    only(
        json!({"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/x", "value": 1}, {"op": "move", "from": "/~2", "path": "/y"}]}),
        R::SchemaWrongType,
        "delta[1].from",
    );
    only(
        json!({"type": "STATE_DELTA", "delta": [{"op": "test", "path": "/a~", "value": 1}]}),
        R::SchemaWrongType,
        "delta[0].path",
    );
    only(
        json!({"type": "STATE_DELTA", "delta": [{"op": "remove", "path": 3}]}),
        R::SchemaWrongType,
        "delta[0].path",
    );
    // Near misses: the root pointer, escapes, an empty segment.
    clean(json!({"type": "STATE_DELTA", "delta": [
        {"op": "replace", "path": "", "value": {}},
        {"op": "add", "path": "/a~0b~1c", "value": 1},
        {"op": "copy", "from": "/a~0b~1c", "path": "//"},
        {"op": "move", "from": "/", "path": "/-"}
    ]}));
}

#[test]
fn suspended_interrupt_ids_are_strings() {
    only(
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s", "outcome": {"type": "suspended", "interruptIds": ["a", "b", 3]}}),
        R::SchemaWrongType,
        "outcome.interruptIds[2]",
    );
    only(
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s", "outcome": {"type": "suspended", "interruptIds": "a"}}),
        R::SchemaWrongType,
        "outcome.interruptIds",
    );
    only(
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s", "outcome": "success"}),
        R::SchemaWrongType,
        "outcome",
    );
}

#[test]
fn run_agent_input_shapes() {
    let input = |extra: Value| {
        let mut i = json!({"threadId": "t", "runId": "r", "messages": []});
        for (k, v) in extra.as_object().unwrap() {
            i[k] = v.clone();
        }
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "input": i})
    };
    only(
        input(json!({"tools": [{"name": "f"}]})),
        R::SchemaMissingField,
        "input.tools[0].description",
    );
    only(
        input(json!({"tools": [{"name": "f", "description": 1}]})),
        R::SchemaWrongType,
        "input.tools[0].description",
    );
    only(
        input(json!({"context": [{"description": "d", "value": 1}]})),
        R::SchemaWrongType,
        "input.context[0].value",
    );
    only(
        input(json!({"tools": {}})),
        R::SchemaWrongType,
        "input.tools",
    );
    only(
        input(json!({"parentRunId": 3})),
        R::SchemaWrongType,
        "input.parentRunId",
    );
    only(
        input(json!({"forwardedProps": null})),
        R::SchemaNullOptional,
        "input.forwardedProps",
    );
    only(
        input(json!({"resume": [{"interruptId": "i", "status": "resolved", "payload": null}]})),
        R::SchemaNullOptional,
        "input.resume[0].payload",
    );
    only(
        input(
            json!({"messages": [{"id": "u", "role": "user", "content": [{"type": "text", "text": 4}]}]}),
        ),
        R::SchemaWrongType,
        "input.messages[0].content[0].text",
    );
    only(
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "input": []}),
        R::SchemaWrongType,
        "input",
    );
    // Near misses: loose tools (parameters of any shape), every option set.
    clean(input(json!({
        "protocolVersion": "1.0.0", "parentRunId": "p", "state": {"n": 1},
        "tools": [{"name": "f", "description": "d", "parameters": {"type": "object"}}, {"name": "g", "description": "", "parameters": null}],
        "context": [{"description": "d", "value": "v"}],
        "forwardedProps": {"x": [1]},
        "resume": [{"interruptId": "i", "status": "cancelled", "payload": {"ok": true}, "metadata": {}}]
    })));
}

// ----------------------------------------------------------- null-optional

#[test]
fn optional_fields_written_null() {
    only(
        json!({"type": "STEP_STARTED", "stepName": "s", "timestamp": null}),
        R::SchemaNullOptional,
        "timestamp",
    );
    only(
        json!({"type": "STEP_STARTED", "stepName": "s", "rawEvent": null}),
        R::SchemaNullOptional,
        "rawEvent",
    );
    only(
        json!({"type": "STEP_STARTED", "stepName": "s", "metadata": null}),
        R::SchemaNullOptional,
        "metadata",
    );
    only(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "outcome": null}),
        R::SchemaNullOptional,
        "outcome",
    );
    only(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "result": null}),
        R::SchemaNullOptional,
        "result",
    );
    only(
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s", "result": null}),
        R::SchemaNullOptional,
        "result",
    );
    only(
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s", "outcome": null}),
        R::SchemaNullOptional,
        "outcome",
    );
    only(
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "name": null}),
        R::SchemaNullOptional,
        "name",
    );
    only(
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": null}),
        R::SchemaNullOptional,
        "role",
    );
    only(
        json!({"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "f", "parentMessageId": null}),
        R::SchemaNullOptional,
        "parentMessageId",
    );
    only(
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s", "outcome": {"type": "suspended", "interruptIds": null}}),
        R::SchemaNullOptional,
        "outcome.interruptIds",
    );
    // parentSubagentRunId is not subagentRunId: null there is null-optional.
    only(
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s", "name": "n", "parentSubagentRunId": null}),
        R::SchemaNullOptional,
        "parentSubagentRunId",
    );
    only(
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "a", "role": "assistant", "content": null}]}),
        R::SchemaNullOptional,
        "messages[0].content",
    );
    only(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r",
            "outcome": {"type": "interrupt", "interrupts": [{"id": "i", "reason": "r", "expiresAt": null}]}}),
        R::SchemaNullOptional,
        "outcome.interrupts[0].expiresAt",
    );
    let msg =
        &validate(&json!({"type": "STEP_STARTED", "stepName": "s", "timestamp": null}))[0].message;
    assert!(msg.contains("`timestamp`") && msg.contains("null"), "{msg}");
}

#[test]
fn near_miss_input_state_null_is_tolerated() {
    clean(json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r",
        "input": {"threadId": "t", "runId": "r", "messages": [], "state": null}}));
}

// --------------------------------------------------------- attribution.null

#[test]
fn subagent_run_id_null_is_attribution_null_alone() {
    only(
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "x", "subagentRunId": null}),
        R::AttributionNull,
        "subagentRunId",
    );
    // Not lifecycle.missing-id on the SUBAGENT_* events ...
    only(
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": null, "name": "n"}),
        R::AttributionNull,
        "subagentRunId",
    );
    only(
        json!({"type": "SUBAGENT_ERROR", "subagentRunId": null, "message": "m"}),
        R::AttributionNull,
        "subagentRunId",
    );
    // ... and not attribution.not-attributable on the run-scoped ones.
    only(
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "subagentRunId": null}),
        R::AttributionNull,
        "subagentRunId",
    );
    only(
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [], "subagentRunId": null}),
        R::AttributionNull,
        "subagentRunId",
    );
    only(
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [
            {"id": "a", "role": "user", "content": "hi", "subagentRunId": "s"},
            {"id": "b", "role": "assistant", "content": "yo", "subagentRunId": null}
        ]}),
        R::AttributionNull,
        "messages[1].subagentRunId",
    );
    // Still reported when the message's role is unknown.
    assert_eq!(
        issues(
            &json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "a", "role": "robot", "subagentRunId": null}]})
        ),
        vec![
            (R::SchemaUnknownMember, "messages[0].role".to_owned()),
            (R::AttributionNull, "messages[0].subagentRunId".to_owned())
        ]
    );
    only(
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r",
            "input": {"threadId": "t", "runId": "r", "messages": [{"id": "a", "role": "reasoning", "content": "", "subagentRunId": null}]}}),
        R::AttributionNull,
        "input.messages[0].subagentRunId",
    );
    only(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r",
            "outcome": {"type": "interrupt", "interrupts": [{"id": "i", "reason": "r", "subagentRunId": null}]}}),
        R::AttributionNull,
        "outcome.interrupts[0].subagentRunId",
    );
    let msg = &validate(&json!({"type": "STEP_STARTED", "stepName": "s", "subagentRunId": null}))
        [0]
    .message;
    assert!(
        msg.contains("subagentRunId") && msg.contains("null"),
        "{msg}"
    );
}

#[test]
fn near_miss_empty_string_is_a_legal_subagent_id() {
    clean(json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "subagentRunId": ""}));
    clean(json!({"type": "SUBAGENT_STARTED", "subagentRunId": "", "name": "n"}));
    clean(
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "a", "role": "user", "content": "x", "subagentRunId": ""}]}),
    );
    clean(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r",
        "outcome": {"type": "interrupt", "interrupts": [{"id": "i", "reason": "r", "subagentRunId": ""}]}}),
    );
}

#[test]
fn a_tool_call_has_no_attribution_of_its_own() {
    // An unknown field on a loose object: accepted whatever it holds.
    clean(
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "a", "role": "assistant",
        "toolCalls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": ""}, "subagentRunId": null}]}]}),
    );
}

// ---------------------------------------------- attribution.not-attributable

#[test]
fn subagent_run_id_on_run_scoped_events_is_not_attributable() {
    only(
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "subagentRunId": "s"}),
        R::AttributionNotAttributable,
        "subagentRunId",
    );
    only(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "subagentRunId": ""}),
        R::AttributionNotAttributable,
        "subagentRunId",
    );
    // Any value: it passes through as an unknown field, so not wrong-type.
    only(
        json!({"type": "RUN_ERROR", "message": "m", "subagentRunId": 5}),
        R::AttributionNotAttributable,
        "subagentRunId",
    );
    only(
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [], "subagentRunId": {"id": "s"}}),
        R::AttributionNotAttributable,
        "subagentRunId",
    );
    let msg = &validate(
        &json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "subagentRunId": "s"}),
    )[0]
    .message;
    assert!(
        msg.contains("RUN_STARTED") && msg.contains("subagentRunId"),
        "{msg}"
    );
    // The typed event attributes nothing and keeps the field as unknown.
    let e = Event::from_value(&json!({"type": "RUN_ERROR", "message": "m", "subagentRunId": "s"}))
        .unwrap();
    assert_eq!(e.subagent_run_id(), None);
    assert_eq!(e.extra().get("subagentRunId"), Some(&json!("s")));
}

#[test]
fn near_miss_attribution_on_every_attributable_type() {
    clean(json!({"type": "STEP_STARTED", "stepName": "s", "subagentRunId": "s1"}));
    clean(json!({"type": "STATE_SNAPSHOT", "snapshot": {}, "subagentRunId": "s1"}));
    clean(json!({"type": "RAW", "event": {}, "subagentRunId": "s1"}));
    for t in EventType::ALL.iter().filter(|t| t.is_attributable()) {
        let found = issues(&json!({"type": t.as_str(), "subagentRunId": "s1"}));
        assert!(
            found
                .iter()
                .all(|(r, _)| *r != R::AttributionNotAttributable),
            "{t}: {found:?}"
        );
    }
}

// ---------------------------------------------------- lifecycle.missing-id

#[test]
fn lifecycle_events_without_subagent_run_id() {
    only(
        json!({"type": "SUBAGENT_STARTED", "name": "n"}),
        R::LifecycleMissingId,
        "subagentRunId",
    );
    only(
        json!({"type": "SUBAGENT_FINISHED"}),
        R::LifecycleMissingId,
        "subagentRunId",
    );
    only(
        json!({"type": "SUBAGENT_ERROR", "message": "m"}),
        R::LifecycleMissingId,
        "subagentRunId",
    );
    let msg = &validate(&json!({"type": "SUBAGENT_FINISHED"}))[0].message;
    assert!(
        msg.contains("SUBAGENT_FINISHED") && msg.contains("subagentRunId"),
        "{msg}"
    );
}

#[test]
fn near_miss_other_types_may_omit_subagent_run_id() {
    clean(json!({"type": "STEP_STARTED", "stepName": "s"}));
    clean(json!({"type": "SUBAGENT_ERROR", "subagentRunId": "s", "message": "m", "code": "E1"}));
}

// ----------------------------------------------- lifecycle.unknown-outcome

#[test]
fn subagent_outcome_type_outside_success_and_suspended() {
    let ev = |outcome: Value| json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s", "outcome": outcome});
    only(
        ev(json!({"type": "failed"})),
        R::LifecycleUnknownOutcome,
        "outcome.type",
    );
    only(
        ev(json!({"type": "interrupt", "interrupts": []})),
        R::LifecycleUnknownOutcome,
        "outcome.type",
    );
    only(
        ev(json!({"type": "Success"})),
        R::LifecycleUnknownOutcome,
        "outcome.type",
    );
    // Not a string: malformed, not unrecognised.
    only(ev(json!({"type": 1})), R::SchemaWrongType, "outcome.type");
    only(
        ev(json!({"type": null})),
        R::SchemaWrongType,
        "outcome.type",
    );
    let msg = &validate(&ev(json!({"type": "failed"})))[0].message;
    assert!(
        msg.contains("outcome.type") && msg.contains("failed") && msg.contains("suspended"),
        "{msg}"
    );
}

#[test]
fn near_miss_known_subagent_outcomes() {
    let ev = |outcome: Value| json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s", "outcome": outcome});
    clean(ev(json!({"type": "success"})));
    clean(ev(json!({"type": "suspended"})));
    clean(ev(json!({"type": "suspended", "interruptIds": []})));
    clean(ev(
        json!({"type": "suspended", "interruptIds": ["i1", "i2"]}),
    ));
}

// --------------------------------------- lifecycle.success-with-interrupts

#[test]
fn success_outcome_with_interrupt_ids() {
    only(
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s", "outcome": {"type": "success", "interruptIds": ["i1"]}}),
        R::LifecycleSuccessWithInterrupts,
        "outcome.interruptIds",
    );
    // The success object is loose: nothing else is checked on it.
    only(
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s", "outcome": {"type": "success", "interruptIds": [1, null]}}),
        R::LifecycleSuccessWithInterrupts,
        "outcome.interruptIds",
    );
}

#[test]
fn near_miss_success_with_no_or_empty_interrupt_ids() {
    let ev = |outcome: Value| json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s", "outcome": outcome});
    clean(ev(json!({"type": "success", "interruptIds": []})));
    clean(ev(json!({"type": "success", "interruptIds": null})));
    clean(ev(json!({"type": "success", "interruptIds": "i1"})));
}

// --------------------------------------------------------- order, loose

#[test]
fn issues_come_in_catalogue_order() {
    let ev = json!({
        "type": "SUBAGENT_FINISHED",
        "outcome": {"type": "done"},
        "rawEvent": null,
        "timestamp": "now",
        "metadata": null
    });
    assert_eq!(
        issues(&ev),
        vec![
            (R::SchemaWrongType, "timestamp".to_owned()),
            (R::SchemaNullOptional, "rawEvent".to_owned()),
            (R::SchemaNullOptional, "metadata".to_owned()),
            (R::LifecycleMissingId, "subagentRunId".to_owned()),
            (R::LifecycleUnknownOutcome, "outcome.type".to_owned()),
        ]
    );
    let ev = json!({"type": "RUN_FINISHED", "runId": 1, "subagentRunId": "s", "result": null});
    assert_eq!(
        issues(&ev),
        vec![
            (R::SchemaMissingField, "threadId".to_owned()),
            (R::SchemaWrongType, "runId".to_owned()),
            (R::SchemaNullOptional, "result".to_owned()),
            (R::AttributionNotAttributable, "subagentRunId".to_owned()),
        ]
    );
}

#[test]
fn unknown_fields_are_accepted_everywhere() {
    clean(json!({
        "type": "MESSAGES_SNAPSHOT", "x-trace": {"id": 1}, "nullish": null,
        "messages": [
            {"id": "a", "role": "assistant", "future": null,
             "toolCalls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}", "strict": true}, "index": 0}]},
            {"id": "u", "role": "user", "content": [{"type": "text", "text": "hi", "cache": "ephemeral"},
                {"type": "image", "source": {"type": "url", "value": "https://x.invalid/a.png", "detail": "low"}, "metadata": {"w": 1}}]}
        ]
    }));
    clean(
        json!({"type": "STATE_DELTA", "delta": [{"op": "remove", "path": "/a", "value": "leftover"}]}),
    );
    clean(
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "outcome": {"type": "cancelled", "reason": null}}),
    );
}

// ------------------------------------------- one valid event of each type

fn valid_examples() -> Vec<Value> {
    let all_roles = json!([
        {"id": "d", "role": "developer", "content": "be brief", "name": "dev"},
        {"id": "sy", "role": "system", "content": "you are", "encryptedValue": "enc"},
        {"id": "a", "role": "assistant", "content": "calling", "name": "bot", "subagentRunId": "s1",
         "toolCalls": [{"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{\"q\":1}"},
                        "encryptedValue": "e", "metadata": {"k": null}}]},
        {"id": "u", "role": "user", "content": [
            {"type": "text", "text": "look"},
            {"type": "image", "source": {"type": "data", "value": "AAAA", "mimeType": "image/png"}},
            {"type": "audio", "source": {"type": "url", "value": "https://x.invalid/a.mp3"}},
            {"type": "video", "source": {"type": "url", "value": "https://x.invalid/v", "mimeType": "video/mp4"}},
            {"type": "document", "source": {"type": "file", "value": "file-1", "provider": "openai", "mimeType": "application/pdf"}}
        ]},
        {"id": "t", "role": "tool", "content": "42", "toolCallId": "c1", "error": "none", "metadata": {}, "subagentRunId": ""},
        {"id": "ac", "role": "activity", "activityType": "plan", "content": {"steps": []}, "metadata": {"v": 2}},
        {"id": "re", "role": "reasoning", "content": "hmm", "encryptedValue": "x", "metadata": {}}
    ]);
    vec![
        json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "protocolVersion": "1.0.0", "parentRunId": "r0",
            "timestamp": 1.0, "rawEvent": {"src": "x"}, "metadata": {"trace": "abc"}, "extension": [1, 2],
            "input": {"threadId": "t", "runId": "r", "messages": all_roles, "state": null, "protocolVersion": "1.0.0",
                "parentRunId": "r0",
                "tools": [{"name": "search", "description": "find", "parameters": {"type": "object"}}, {"name": "n", "description": "d", "parameters": null}],
                "context": [{"description": "tz", "value": "UTC"}], "forwardedProps": {"a": 1},
                "resume": [{"interruptId": "i0", "status": "resolved", "payload": {"ok": true}, "metadata": {}}]}}),
        json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "result": {"answer": 42}, "timestamp": 1700000000000u64,
            "outcome": {"type": "interrupt", "interrupts": [
                {"id": "i1", "reason": "approval", "message": "ok?", "toolCallId": "c1", "responseSchema": {"type": "boolean"},
                 "expiresAt": "2026-01-01T00:00:00Z", "metadata": {}, "subagentRunId": "s1"},
                {"id": "i2", "reason": "input"}
            ]},
            "usage": [{"provider": "p", "model": "m", "inputTokens": 10, "outputTokens": 5.0, "totalTokens": 15,
                       "reasoningTokens": 0, "cachedInputTokens": 1, "cacheWriteInputTokens": 2}]}),
        json!({"type": "RUN_ERROR", "message": "boom", "code": "E_INTERNAL", "usage": [{}]}),
        json!({"type": "STEP_STARTED", "stepName": "plan", "subagentRunId": "s1"}),
        json!({"type": "STEP_FINISHED", "stepName": "plan", "timestamp": -3}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant", "name": "bot", "subagentRunId": "s1"}),
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hello"}),
        json!({"type": "TEXT_MESSAGE_END", "messageId": "m1", "subagentRunId": "s1"}),
        json!({"type": "TEXT_MESSAGE_CHUNK", "messageId": "m2", "role": "user", "delta": "hi", "name": "me"}),
        json!({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "search", "parentMessageId": "m1"}),
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": "{\"q\":"}),
        json!({"type": "TOOL_CALL_END", "toolCallId": "c1"}),
        json!({"type": "TOOL_CALL_CHUNK", "toolCallId": "c2", "toolCallName": "f", "parentMessageId": "m1", "delta": "{}"}),
        json!({"type": "TOOL_CALL_RESULT", "messageId": "tm", "toolCallId": "c1", "content": [{"type": "text", "text": "42"}], "role": "tool"}),
        json!({"type": "STATE_SNAPSHOT", "snapshot": {"count": 1, "items": [null]}}),
        json!({"type": "STATE_DELTA", "delta": [
            {"op": "add", "path": "/a", "value": 1}, {"op": "remove", "path": "/b"}, {"op": "replace", "path": "", "value": {}},
            {"op": "move", "from": "/a", "path": "/c"}, {"op": "copy", "from": "/c", "path": "/d~1e"}, {"op": "test", "path": "/d~1e", "value": 1}
        ], "subagentRunId": "s2"}),
        json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "u1", "role": "user", "content": "hi"}, {"id": "a1", "role": "assistant"}]}),
        json!({"type": "ACTIVITY_SNAPSHOT", "messageId": "act", "activityType": "plan", "content": {"step": 1}, "replace": false}),
        json!({"type": "ACTIVITY_DELTA", "messageId": "act", "activityType": "plan", "patch": [{"op": "replace", "path": "/step", "value": 2}]}),
        json!({"type": "RAW", "event": "anything", "source": "openai"}),
        json!({"type": "CUSTOM", "name": "ping", "value": [1, {"x": null}]}),
        json!({"type": "REASONING_START", "messageId": "r1"}),
        json!({"type": "REASONING_MESSAGE_START", "messageId": "r1", "role": "reasoning"}),
        json!({"type": "REASONING_MESSAGE_CONTENT", "messageId": "r1", "delta": "think"}),
        json!({"type": "REASONING_MESSAGE_END", "messageId": "r1"}),
        json!({"type": "REASONING_MESSAGE_CHUNK", "messageId": "r2", "delta": "more"}),
        json!({"type": "REASONING_END", "messageId": "r1"}),
        json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": "tool-call", "entityId": "c1", "encryptedValue": "opaque"}),
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "name": "researcher", "description": "finds things",
            "parentSubagentRunId": "s0", "parentToolCallId": "c0", "parentMessageId": "m0"}),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s1", "result": "done", "outcome": {"type": "suspended", "interruptIds": ["i1"]}}),
        json!({"type": "SUBAGENT_ERROR", "subagentRunId": "s2", "message": "failed", "code": "E1"}),
    ]
}

#[test]
fn one_valid_event_of_each_type_validates_clean_and_round_trips() {
    let examples = valid_examples();
    let mut seen = BTreeSet::new();
    for v in &examples {
        assert_eq!(issues(v), vec![], "{v}");
        let e = Event::from_value(v).unwrap_or_else(|err| panic!("{v}: {err}"));
        let t = EventType::from_name(v["type"].as_str().unwrap()).unwrap();
        assert_eq!(e.event_type(), t);
        assert_eq!(&e.to_value(), v, "round trip of {t}");
        seen.insert(t);
    }
    assert_eq!(seen.len(), 31);
}

/// Adds an unknown field to every object inside `v` (all 1.0 objects are
/// loose, and any-JSON values take anything, so the event stays valid).
fn with_extra_everywhere(v: &mut Value) {
    match v {
        Value::Object(o) => {
            for child in o.values_mut() {
                with_extra_everywhere(child);
            }
            o.insert(
                "x-extra".to_owned(),
                json!({"n": 1.5, "big": 18446744073709551615u64, "neg": -2}),
            );
        }
        Value::Array(a) => a.iter_mut().for_each(with_extra_everywhere),
        _ => {}
    }
}

#[test]
fn unknown_fields_at_every_depth_validate_clean_and_round_trip() {
    for mut v in valid_examples() {
        with_extra_everywhere(&mut v);
        assert_eq!(issues(&v), vec![], "{v}");
        let e = Event::from_value(&v).unwrap_or_else(|err| panic!("{v}: {err}"));
        assert_eq!(e.to_value(), v);
        assert!(e.extra().contains_key("x-extra"));
    }
}

#[test]
fn every_schema_area_rule_is_reported_by_validate() {
    let faulty = [
        json!(1),
        json!({"type": "NOPE"}),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "narrator"}),
        json!({"type": "STEP_STARTED"}),
        json!({"type": "STEP_STARTED", "stepName": 1}),
        json!({"type": "STEP_STARTED", "stepName": "s", "timestamp": null}),
        json!({"type": "STEP_STARTED", "stepName": "s", "subagentRunId": null}),
        json!({"type": "RUN_ERROR", "message": "m", "subagentRunId": "s"}),
        json!({"type": "SUBAGENT_ERROR", "message": "m"}),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s", "outcome": {"type": "x"}}),
        json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s", "outcome": {"type": "success", "interruptIds": ["i"]}}),
    ];
    let reported: BTreeSet<R> = faulty.iter().flat_map(validate).map(|i| i.rule).collect();
    let schema_area: BTreeSet<R> = R::ALL
        .iter()
        .copied()
        .filter(|r| r.rule().area == "schema")
        // Judged on the text, not on a `Value` (test below).
        .filter(|r| !matches!(r, R::SchemaDuplicateKey | R::SchemaLoneSurrogate))
        .collect();
    assert_eq!(schema_area.len(), 11);
    assert_eq!(reported, schema_area);
}

/// `schema.duplicate-key` and `schema.lone-surrogate` are shapes of the
/// text (a `Value` cannot hold them): reported when a stream is read, at
/// the event's index, with the JSON Pointer of the object or string, as
/// warnings that leave the verdict `accept`; the last duplicate wins.
#[test]
fn text_level_schema_rules_are_reported_from_the_bytes() {
    use agui_model::Verdict;
    use agui_model::check::check_bytes;
    let stream = concat!(
        r#"{"type":"RUN_STARTED","threadId":"t","runId":"r"}"#,
        "\n",
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":"s2","subagentRunId":"s1"}"#,
        "\n",
        r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a\ud83d","subagentRunId":"s1"}"#,
        "\n",
        r#"{"type":"TEXT_MESSAGE_END","messageId":"m"}"#,
        "\n",
        r#"{"type":"RUN_FINISHED","threadId":"t","runId":"r"}"#,
        "\n",
    );
    let report = check_bytes(stream.as_bytes(), agui_model::Checker::new());
    let got: Vec<(R, usize, Option<&str>)> = report
        .violations
        .iter()
        .map(|v| (v.rule, v.index, v.path.as_deref()))
        .collect();
    assert_eq!(
        got,
        vec![
            (R::SchemaDuplicateKey, 1, Some("")),
            (R::SchemaLoneSurrogate, 2, Some("/delta")),
        ]
    );
    assert_eq!(report.verdict(), Verdict::Accept);
    // The last value counted: s1 owns m, so its continuation agrees.
    let runs = &report.projection.expect("projected").runs;
    assert_eq!(runs[0]["messages"][0]["owner"], json!("s1"));
    assert_eq!(runs[0]["messages"][0]["content"], json!("a\u{FFFD}"));
}

#[test]
fn typed_events_expose_their_attribution() {
    let owner = |v: Value| {
        Event::from_value(&v)
            .unwrap()
            .subagent_run_id()
            .map(str::to_owned)
    };
    assert_eq!(
        owner(json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "subagentRunId": "s1"})),
        Some("s1".into())
    );
    assert_eq!(
        owner(json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "subagentRunId": ""})),
        Some(String::new())
    );
    assert_eq!(
        owner(json!({"type": "TEXT_MESSAGE_START", "messageId": "m"})),
        None
    );
    assert_eq!(
        owner(json!({"type": "SUBAGENT_ERROR", "subagentRunId": "s9", "message": "x"})),
        Some("s9".into())
    );
    assert_eq!(
        owner(json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r", "subagentRunId": "s1"})),
        None
    );
}

#[test]
fn typed_nested_shapes_read_as_the_schema_says() {
    use agui_model::events::{Content, ContentPart, Message, RunOutcome, SubagentOutcome};
    let e = Event::from_value(&valid_examples()[0]).unwrap();
    let Event::RunStarted(rs) = e else {
        panic!("not RUN_STARTED")
    };
    let input = rs.input.unwrap();
    assert_eq!(input.state, Some(Value::Null));
    assert_eq!(input.state_value(), None);
    let roles: Vec<&str> = input.messages.iter().map(Message::role).collect();
    assert_eq!(
        roles,
        [
            "developer",
            "system",
            "assistant",
            "user",
            "tool",
            "activity",
            "reasoning"
        ]
    );
    assert_eq!(input.messages[2].subagent_run_id(), Some("s1"));
    assert_eq!(input.messages[4].subagent_run_id(), Some(""));
    assert_eq!(input.messages[0].subagent_run_id(), None);
    let Message::User(u) = &input.messages[3] else {
        panic!()
    };
    let Content::Parts(parts) = &u.content else {
        panic!()
    };
    assert!(matches!(parts[0], ContentPart::Text(_)));
    assert!(matches!(parts[4], ContentPart::Document(_)));

    let Event::RunFinished(rf) = Event::from_value(&valid_examples()[1]).unwrap() else {
        panic!()
    };
    let Some(RunOutcome::Interrupt(i)) = rf.outcome else {
        panic!()
    };
    assert_eq!(i.interrupts.len(), 2);
    assert_eq!(i.interrupts[0].subagent_run_id.as_deref(), Some("s1"));

    let Event::SubagentFinished(sf) = Event::from_value(&valid_examples()[29]).unwrap() else {
        panic!()
    };
    let Some(SubagentOutcome::Suspended(s)) = sf.outcome else {
        panic!()
    };
    assert_eq!(s.interrupt_ids, Some(vec!["i1".to_owned()]));

    // A success outcome's stray interruptIds is kept as an unknown field.
    let v = json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s", "outcome": {"type": "success", "interruptIds": ["i"]}});
    let e = Event::from_value(&v).unwrap();
    assert_eq!(e.to_value(), v);
}
