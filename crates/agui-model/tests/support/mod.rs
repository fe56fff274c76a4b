//! Small builders for hand-written streams, and the corpus cases. Every
//! expectation in the tests that use them is written from docs/rules.md
//! and the draft.
#![allow(dead_code)]

pub mod corpus;

use agui_model::{RuleId, Verdict, check_values};
use serde_json::{Value, json};

pub fn tagged(mut v: Value, tag: Option<&str>) -> Value {
    if let Some(t) = tag {
        v["subagentRunId"] = json!(t);
    }
    v
}

pub fn run_started() -> Value {
    json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"})
}
pub fn run_started_id(run: &str) -> Value {
    json!({"type": "RUN_STARTED", "threadId": "t1", "runId": run})
}
pub fn run_finished() -> Value {
    json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"})
}
/// The `RUN_FINISHED` of the run [`run_started_id`] started.
pub fn run_finished_id(run: &str) -> Value {
    json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": run})
}
pub fn run_interrupted(interrupts: Value) -> Value {
    json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1",
           "outcome": {"type": "interrupt", "interrupts": interrupts}})
}
pub fn run_error() -> Value {
    json!({"type": "RUN_ERROR", "message": "boom"})
}
pub fn started(id: &str, parent: Option<&str>) -> Value {
    let mut v =
        json!({"type": "SUBAGENT_STARTED", "subagentRunId": id, "name": format!("agent-{id}")});
    if let Some(p) = parent {
        v["parentSubagentRunId"] = json!(p);
    }
    v
}
pub fn finished(id: &str) -> Value {
    json!({"type": "SUBAGENT_FINISHED", "subagentRunId": id})
}
pub fn suspended(id: &str, interrupts: &[&str]) -> Value {
    json!({"type": "SUBAGENT_FINISHED", "subagentRunId": id,
           "outcome": {"type": "suspended", "interruptIds": interrupts}})
}
pub fn sub_error(id: &str) -> Value {
    json!({"type": "SUBAGENT_ERROR", "subagentRunId": id, "message": "failed"})
}
pub fn text_start(id: &str, tag: Option<&str>) -> Value {
    tagged(
        json!({"type": "TEXT_MESSAGE_START", "messageId": id, "role": "assistant"}),
        tag,
    )
}
pub fn text_content(id: &str, delta: &str, tag: Option<&str>) -> Value {
    tagged(
        json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": id, "delta": delta}),
        tag,
    )
}
pub fn text_end(id: &str, tag: Option<&str>) -> Value {
    tagged(json!({"type": "TEXT_MESSAGE_END", "messageId": id}), tag)
}
pub fn tool_start(id: &str, name: &str, parent: Option<&str>, tag: Option<&str>) -> Value {
    let mut v = json!({"type": "TOOL_CALL_START", "toolCallId": id, "toolCallName": name});
    if let Some(p) = parent {
        v["parentMessageId"] = json!(p);
    }
    tagged(v, tag)
}
pub fn tool_args(id: &str, delta: &str, tag: Option<&str>) -> Value {
    tagged(
        json!({"type": "TOOL_CALL_ARGS", "toolCallId": id, "delta": delta}),
        tag,
    )
}
pub fn tool_end(id: &str, tag: Option<&str>) -> Value {
    tagged(json!({"type": "TOOL_CALL_END", "toolCallId": id}), tag)
}
pub fn tool_result(msg: &str, call: &str, content: &str, tag: Option<&str>) -> Value {
    tagged(
        json!({"type": "TOOL_CALL_RESULT", "messageId": msg, "toolCallId": call, "content": content}),
        tag,
    )
}
pub fn step_started(name: &str, tag: Option<&str>) -> Value {
    tagged(json!({"type": "STEP_STARTED", "stepName": name}), tag)
}
pub fn step_finished(name: &str, tag: Option<&str>) -> Value {
    tagged(json!({"type": "STEP_FINISHED", "stepName": name}), tag)
}
pub fn reasoning_start(id: &str, tag: Option<&str>) -> Value {
    tagged(json!({"type": "REASONING_START", "messageId": id}), tag)
}
pub fn reasoning_end(id: &str, tag: Option<&str>) -> Value {
    tagged(json!({"type": "REASONING_END", "messageId": id}), tag)
}
pub fn reasoning_msg_start(id: &str, tag: Option<&str>) -> Value {
    tagged(
        json!({"type": "REASONING_MESSAGE_START", "messageId": id, "role": "reasoning"}),
        tag,
    )
}
pub fn reasoning_msg_content(id: &str, delta: &str, tag: Option<&str>) -> Value {
    tagged(
        json!({"type": "REASONING_MESSAGE_CONTENT", "messageId": id, "delta": delta}),
        tag,
    )
}
pub fn reasoning_msg_end(id: &str, tag: Option<&str>) -> Value {
    tagged(
        json!({"type": "REASONING_MESSAGE_END", "messageId": id}),
        tag,
    )
}
pub fn encrypted(subtype: &str, entity: &str, tag: Option<&str>) -> Value {
    tagged(
        json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": subtype, "entityId": entity, "encryptedValue": "xyz"}),
        tag,
    )
}
pub fn text_chunk(id: Option<&str>, delta: Option<&str>, tag: Option<&str>) -> Value {
    let mut v = json!({"type": "TEXT_MESSAGE_CHUNK"});
    if let Some(id) = id {
        v["messageId"] = json!(id);
    }
    if let Some(d) = delta {
        v["delta"] = json!(d);
    }
    tagged(v, tag)
}
pub fn tool_chunk(
    id: Option<&str>,
    name: Option<&str>,
    delta: Option<&str>,
    tag: Option<&str>,
) -> Value {
    let mut v = json!({"type": "TOOL_CALL_CHUNK"});
    if let Some(id) = id {
        v["toolCallId"] = json!(id);
    }
    if let Some(n) = name {
        v["toolCallName"] = json!(n);
    }
    if let Some(d) = delta {
        v["delta"] = json!(d);
    }
    tagged(v, tag)
}
pub fn custom(tag: Option<&str>) -> Value {
    tagged(json!({"type": "CUSTOM", "name": "note", "value": 1}), tag)
}
pub fn state_snapshot(snapshot: Value, tag: Option<&str>) -> Value {
    tagged(json!({"type": "STATE_SNAPSHOT", "snapshot": snapshot}), tag)
}
pub fn state_delta(delta: Value, tag: Option<&str>) -> Value {
    tagged(json!({"type": "STATE_DELTA", "delta": delta}), tag)
}

/// Asserts the stream's FIRST violation is `rule` at `index`, and the verdict
/// follows from the rule's severity.
#[track_caller]
pub fn expect_first(events: &[Value], rule: RuleId, index: usize) {
    let r = check_values(events);
    let first = r
        .violations
        .first()
        .unwrap_or_else(|| panic!("expected {rule} at {index}, got no violation"));
    assert_eq!(
        (first.rule, first.index),
        (rule, index),
        "first violation differs; all: {:#?}",
        r.violations
    );
    let verdict = if r
        .violations
        .iter()
        .any(|v| v.rule.severity() == agui_model::Severity::Error)
    {
        Verdict::Reject
    } else {
        Verdict::Accept
    };
    assert_eq!(r.verdict(), verdict);
}

/// Asserts the stream has no violation at all.
#[track_caller]
pub fn expect_clean(events: &[Value]) {
    let r = check_values(events);
    assert!(
        r.violations.is_empty(),
        "expected no violation, got {:#?}",
        r.violations
    );
    assert_eq!(r.verdict(), Verdict::Accept);
}

/// Asserts the stream has no violation and its projection is `expected`.
#[track_caller]
pub fn expect_projection(events: &[Value], expected: Value) {
    let r = check_values(events);
    assert!(
        r.violations.is_empty(),
        "expected no violation, got {:#?}",
        r.violations
    );
    let got = r.projection.expect("projection").to_json();
    assert!(
        agui_model::projection::same(&got, &expected),
        "projection differs:\n got: {}\nwant: {}",
        serde_json::to_string_pretty(&got).unwrap_or_default(),
        serde_json::to_string_pretty(&expected).unwrap_or_default()
    );
}

/// Every corpus case (`corpus/**/*.json`, the schema left out) and its
/// JSON, read as RFC 8259 (a projection may hold 1e400).
pub fn corpus_cases() -> Vec<(std::path::PathBuf, Value)> {
    let files = corpus::files(env!("CARGO_MANIFEST_DIR"));
    assert!(files.len() > 200, "corpus not found: {} cases", files.len());
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).expect("reads");
            let case = agui_model::json::parse(&text, &Default::default())
                .expect("JSON")
                .value;
            (f, case)
        })
        .collect()
}
