//! One test per `accept.*` obligation of docs/rules.md: the stream is accepted
//! and the projection is the one docs/rules.md describes, written out by hand in
//! the canonical form of docs/projection.md.

mod support;

use serde_json::{Value, json};
use support::*;

fn run(invocations: Value, messages: Value, state: Value, interrupts: Value) -> Value {
    json!({"threadId": "t1", "runId": "r1", "status": "finished", "invocations": invocations,
           "messages": messages, "state": state, "interrupts": interrupts})
}

/// [`run`] ended by a `RUN_FINISHED` interrupt outcome: status
/// `interrupted` (docs/projection.md, revision 4).
fn interrupted_run(invocations: Value, messages: Value, state: Value, interrupts: Value) -> Value {
    let mut r = run(invocations, messages, state, interrupts);
    r["status"] = json!("interrupted");
    r
}

#[test]
fn attribution_only() {
    expect_projection(
        &[
            run_started(),
            text_start("m1", Some("s1")),
            text_content("m1", "hi", Some("s1")),
            text_end("m1", Some("s1")),
            custom(Some("s2")),
            run_finished(),
        ],
        json!({"runs": [run(
            json!([{"id": "s1", "status": "unannounced"}, {"id": "s2", "status": "unannounced"}]),
            json!([{"id": "m1", "role": "assistant", "owner": "s1", "content": "hi"}]),
            json!({}), json!([]))]}),
    );
}

#[test]
fn interleaved() {
    expect_projection(
        &[
            run_started(),
            started("a", None),
            started("b", None),
            text_start("ma", Some("a")),
            text_start("mb", Some("b")),
            text_content("mb", "B1", Some("b")),
            text_content("ma", "A1", Some("a")),
            text_content("mb", "B2", Some("b")),
            text_end("ma", Some("a")),
            text_content("ma", "", None),
            text_end("mb", Some("b")),
            finished("a"),
            finished("b"),
            run_finished(),
        ]
        .into_iter()
        .filter(|e| e["type"] != "TEXT_MESSAGE_CONTENT" || e["delta"] != "")
        .collect::<Vec<_>>(),
        json!({"runs": [run(
            json!([{"id": "a", "name": "agent-a", "status": "finished"}, {"id": "b", "name": "agent-b", "status": "finished"}]),
            json!([{"id": "ma", "role": "assistant", "owner": "a", "content": "A1"},
                   {"id": "mb", "role": "assistant", "owner": "b", "content": "B1B2"}]),
            json!({}), json!([]))]}),
    );
}

#[test]
fn finish_closes_only_own() {
    expect_projection(
        &[
            run_started(),
            started("a", None),
            started("b", None),
            text_start("mb", Some("b")),
            text_start("mp", None),
            finished("a"),
            text_content("mb", "still", Some("b")),
            text_content("mp", "going", None),
            text_end("mb", Some("b")),
            text_end("mp", None),
            finished("b"),
            run_finished(),
        ],
        json!({"runs": [run(
            json!([{"id": "a", "name": "agent-a", "status": "finished"}, {"id": "b", "name": "agent-b", "status": "finished"}]),
            json!([{"id": "mb", "role": "assistant", "owner": "b", "content": "still"},
                   {"id": "mp", "role": "assistant", "content": "going"}]),
            json!({}), json!([]))]}),
    );
}

#[test]
fn after_finish_attribution() {
    expect_projection(
        &[
            run_started(),
            started("s1", None),
            text_start("m1", Some("s1")),
            text_content("m1", "a", Some("s1")),
            finished("s1"),
            text_content("m1", "b", Some("s1")),
            text_end("m1", Some("s1")),
            run_finished(),
        ],
        json!({"runs": [run(
            json!([{"id": "s1", "name": "agent-s1", "status": "finished"}]),
            json!([{"id": "m1", "role": "assistant", "owner": "s1", "content": "ab"}]),
            json!({}), json!([]))]}),
    );
}

#[test]
fn parent_finished_first() {
    expect_projection(
        &[
            run_started(),
            started("p", None),
            finished("p"),
            started("c", Some("p")),
            finished("c"),
            run_finished(),
        ],
        json!({"runs": [run(
            json!([{"id": "p", "name": "agent-p", "status": "finished"},
                   {"id": "c", "name": "agent-c", "parent": "p", "status": "finished"}]),
            json!([]), json!({}), json!([]))]}),
    );
}

#[test]
fn untagged_continuation() {
    expect_projection(
        &[
            run_started(),
            started("s1", None),
            text_start("m1", Some("s1")),
            text_content("m1", "x", None),
            text_end("m1", None),
            finished("s1"),
            run_finished(),
        ],
        json!({"runs": [run(
            json!([{"id": "s1", "name": "agent-s1", "status": "finished"}]),
            json!([{"id": "m1", "role": "assistant", "owner": "s1", "content": "x"}]),
            json!({}), json!([]))]}),
    );
}

#[test]
fn tool_call_inherits() {
    expect_projection(
        &[
            run_started(),
            started("s1", None),
            text_start("m1", Some("s1")),
            tool_start("c1", "search", Some("m1"), None),
            tool_args("c1", "{\"q\":1}", None),
            tool_end("c1", None),
            text_end("m1", Some("s1")),
            finished("s1"),
            run_finished(),
        ],
        json!({"runs": [run(
            json!([{"id": "s1", "name": "agent-s1", "status": "finished"}]),
            json!([{"id": "m1", "role": "assistant", "owner": "s1", "content": "",
                    "toolCalls": [{"id": "c1", "name": "search", "args": "{\"q\":1}"}]}]),
            json!({}), json!([]))]}),
    );
}

#[test]
fn tool_result_own_owner() {
    expect_projection(
        &[
            run_started(),
            started("s1", None),
            tool_start("c1", "search", Some("m1"), Some("s1")),
            tool_end("c1", Some("s1")),
            tool_result("t1", "c1", "42", None),
            finished("s1"),
            run_finished(),
        ],
        json!({"runs": [run(
            json!([{"id": "s1", "name": "agent-s1", "status": "finished"}]),
            json!([{"id": "m1", "role": "assistant", "owner": "s1", "content": "",
                    "toolCalls": [{"id": "c1", "name": "search", "args": ""}]},
                   {"id": "t1", "role": "tool", "content": "42"}]),
            json!({}), json!([]))]}),
    );
}

#[test]
fn step_per_owner() {
    expect_clean(&[
        run_started(),
        started("s1", None),
        step_started("plan", None),
        step_started("plan", Some("s1")),
        step_finished("plan", Some("s1")),
        step_finished("plan", None),
        finished("s1"),
        run_finished(),
    ]);
}

#[test]
fn state_run_scoped() {
    expect_projection(
        &[
            run_started(),
            started("s1", None),
            state_snapshot(json!({"items": []}), Some("s1")),
            state_delta(
                json!([{"op": "add", "path": "/items/-", "value": "a"}]),
                None,
            ),
            state_delta(
                json!([{"op": "add", "path": "/items/-", "value": "b"}]),
                Some("s1"),
            ),
            finished("s1"),
            run_finished(),
        ],
        json!({"runs": [run(
            json!([{"id": "s1", "name": "agent-s1", "status": "finished"}]),
            json!([]), json!({"items": ["a", "b"]}), json!([]))]}),
    );
}

#[test]
fn subagent_error_continues() {
    expect_projection(
        &[
            run_started(),
            started("s1", None),
            sub_error("s1"),
            text_start("m1", None),
            text_content("m1", "recovered", None),
            text_end("m1", None),
            run_finished(),
        ],
        json!({"runs": [run(
            json!([{"id": "s1", "name": "agent-s1", "status": "errored"}]),
            json!([{"id": "m1", "role": "assistant", "content": "recovered"}]),
            json!({}), json!([]))]}),
    );
}

#[test]
fn run_error_abandons() {
    expect_projection(
        &[
            run_started(),
            started("s1", None),
            started("s2", Some("s1")),
            text_start("m1", Some("s2")),
            run_error(),
        ],
        json!({"runs": [{"threadId": "t1", "runId": "r1", "status": "errored",
            "invocations": [{"id": "s1", "name": "agent-s1", "status": "abandoned"},
                            {"id": "s2", "name": "agent-s2", "parent": "s1", "status": "abandoned"}],
            "messages": [{"id": "m1", "role": "assistant", "owner": "s2", "content": ""}],
            "state": {}, "interrupts": []}]}),
    );
}

#[test]
fn suspended_resume() {
    let interrupts = json!([{"id": "i1", "reason": "approve", "subagentRunId": "s1"}]);
    let mut second = run(
        json!([{"id": "s1", "name": "agent-s1", "status": "finished"}]),
        json!([]),
        json!({}),
        json!([]),
    );
    second["runId"] = json!("r2");
    expect_projection(
        &[
            run_started(),
            started("s1", None),
            suspended("s1", &["i1"]),
            run_interrupted(interrupts),
            run_started_id("r2"),
            started("s1", None),
            finished("s1"),
            json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r2"}),
        ],
        json!({"runs": [
            interrupted_run(json!([{"id": "s1", "name": "agent-s1", "status": "suspended", "interruptIds": ["i1"]}]),
                json!([]), json!({}), json!([{"id": "i1", "owner": "s1"}])),
            second
        ]}),
    );
}

#[test]
fn suspended_no_interrupts() {
    expect_projection(
        &[
            run_started(),
            started("s1", None),
            json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s1", "outcome": {"type": "suspended"}}),
            started("s2", None),
            json!({"type": "SUBAGENT_FINISHED", "subagentRunId": "s2", "outcome": {"type": "suspended", "interruptIds": []}}),
            run_interrupted(json!([{"id": "i1", "reason": "x"}])),
        ],
        json!({"runs": [interrupted_run(
            json!([{"id": "s1", "name": "agent-s1", "status": "suspended", "interruptIds": []},
                   {"id": "s2", "name": "agent-s2", "status": "suspended", "interruptIds": []}]),
            json!([]), json!({}), json!([{"id": "i1"}]))]}),
    );
}

#[test]
fn interrupt_attribution() {
    expect_projection(
        &[
            run_started(),
            started("s1", None),
            suspended("s1", &["i1"]),
            run_interrupted(
                json!([{"id": "i1", "reason": "a", "subagentRunId": "s1"}, {"id": "i2", "reason": "b"}]),
            ),
        ],
        json!({"runs": [interrupted_run(
            json!([{"id": "s1", "name": "agent-s1", "status": "suspended", "interruptIds": ["i1"]}]),
            json!([]), json!({}), json!([{"id": "i1", "owner": "s1"}, {"id": "i2"}]))]}),
    );
}

#[test]
fn empty_id() {
    expect_projection(
        &[
            run_started(),
            started("", None),
            text_start("m1", Some("")),
            text_content("m1", "e", Some("")),
            text_end("m1", Some("")),
            text_start("m2", None),
            text_end("m2", None),
            finished(""),
            run_finished(),
        ],
        json!({"runs": [run(
            json!([{"id": "", "name": "agent-", "status": "finished"}]),
            json!([{"id": "m1", "role": "assistant", "owner": "", "content": "e"},
                   {"id": "m2", "role": "assistant", "content": ""}]),
            json!({}), json!([]))]}),
    );
}

#[test]
fn unknown_fields() {
    expect_projection(
        &[
            json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r1", "vendorExtra": {"x": 1}}),
            json!({"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant", "futureField": true}),
            json!({"type": "TEXT_MESSAGE_END", "messageId": "m1", "trace": [1, 2]}),
            json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1", "extra": null}),
        ],
        json!({"runs": [run(json!([]), json!([{"id": "m1", "role": "assistant", "content": ""}]), json!({}), json!([]))]}),
    );
}

#[test]
fn not_attributable_tag_attributes_nothing() {
    // attribution.not-attributable is a warning whose consumer side is
    // must-accept: the tag on RUN_STARTED attributes nothing.
    let r = agui_model::check_values(&[
        json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r1", "subagentRunId": "s1"}),
        run_finished(),
    ]);
    assert_eq!(r.verdict(), agui_model::Verdict::Accept);
    assert_eq!(r.violations.len(), 1);
    let p = r.projection.expect("projection").to_json();
    assert_eq!(p["runs"][0]["invocations"], json!([]));
}
