//! The official-fixture mapping (`agui_corpus::official`) on hand-written
//! fixtures: what a fixture's expectation becomes in our terms, and how a
//! projection is judged against it. Expected values come from
//! docs/decisions.md "The official corpus" and docs/projection.md.

use agui_corpus::official::{
    OfficialOutcome, admitted_gap, check_projection, client_messages, map_fixture,
};
use serde_json::{Value, json};

fn fixture(expect: Value) -> Value {
    json!({
        "name": "hand-written",
        "area": "streaming",
        "specPage": "/spec/1.1/events/text-messages",
        "stream": [
            {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
            {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}
        ],
        "expect": expect
    })
}

/// A run of our projection (docs/projection.md) holding `messages`.
fn run(status: &str, messages: Value, state: Value) -> Value {
    json!({"threadId": "t", "runId": "r", "status": status, "invocations": [],
           "messages": messages, "state": state, "interrupts": []})
}

#[test]
fn messages_map_onto_our_shape() {
    let m = map_fixture(&fixture(json!({
        "outcome": "completed",
        "warnings": ["dropped: SHOULD-level"],
        "eventTypes": ["RUN_STARTED"],
        "messageCount": 2,
        "messages": [
            {"id": "a", "role": "assistant", "subagentRunId": "s1", "metadata": {"k": 1},
             "toolCalls": [{"id": "c", "type": "function",
                            "function": {"name": "search", "arguments": "{}"}}]},
            {"id": "t", "role": "tool", "toolCallId": "c",
             "content": [{"type": "text", "text": "one "}, {"type": "image", "source": {}},
                         {"type": "text", "text": "two"}]}
        ]
    })))
    .unwrap();
    let o = m.official;
    assert_eq!(o.outcome, OfficialOutcome::Completed);
    assert_eq!(o.not_comparable, None);
    assert_eq!(o.message_count, Some(2));
    assert_eq!(
        o.messages.unwrap(),
        vec![
            json!({"id": "a", "role": "assistant", "owner": "s1",
                   "toolCalls": [{"id": "c", "name": "search", "args": "{}"}]}),
            json!({"id": "t", "role": "tool", "content": "one two"}),
        ]
    );
    assert_eq!(
        o.uncompared,
        vec![
            "messages[0].metadata: not part of our projection".to_owned(),
            "messages[1].content[1]: a `image` part; our projection shows only the text of text parts".to_owned(),
            "messages[1].toolCallId: not part of our projection".to_owned(),
        ]
    );
    assert_eq!(m.events.len(), 2);
}

#[test]
fn subset_match_compares_only_the_keys_named() {
    let o = map_fixture(&fixture(json!({
        "outcome": "completed",
        "messages": [{"role": "assistant", "content": "hi"}],
        "state": {"count": 5}
    })))
    .unwrap()
    .official;
    // Our message has an id and an owner the fixture does not name, and the
    // state a key it does not name: both still match.
    let p = json!({"runs": [run(
        "finished",
        json!([{"id": "m1", "role": "assistant", "owner": "s1", "content": "hi"}]),
        json!({"count": 5, "other": true})
    )]});
    assert_eq!(check_projection(&o, &p), Ok(()));
    let p = json!({"runs": [run(
        "finished",
        json!([{"id": "m1", "role": "assistant", "content": "hello"}]),
        json!({"count": 5})
    )]});
    assert_eq!(
        check_projection(&o, &p),
        Err("messages[0].content: expected \"hi\", shown \"hello\"".to_owned())
    );
    let p = json!({"runs": [run(
        "finished",
        json!([{"id": "m1", "role": "assistant", "content": "hi"}]),
        json!({"count": 1})
    )]});
    assert_eq!(
        check_projection(&o, &p),
        Err("state.count: expected 5, shown 1".to_owned())
    );
}

#[test]
fn a_list_of_another_length_differs() {
    let o = map_fixture(&fixture(json!({
        "outcome": "completed",
        "messages": [{"role": "assistant"}]
    })))
    .unwrap()
    .official;
    let p = json!({"runs": [run(
        "finished",
        json!([{"id": "a", "role": "assistant"}, {"id": "b", "role": "assistant"}]),
        json!({})
    )]});
    assert_eq!(
        check_projection(&o, &p),
        Err("messages: 1 item(s) expected, 2 shown".to_owned())
    );
    let o = map_fixture(&fixture(json!({"outcome": "completed", "messageCount": 1})))
        .unwrap()
        .official;
    assert_eq!(
        check_projection(&o, &p),
        Err("messageCount: 1 expected, the client holds 2".to_owned())
    );
}

#[test]
fn the_client_list_folds_runs_by_id() {
    // Two runs: the second repeats `a` (replaced in place) and adds `b`.
    let p = json!({"runs": [
        run("finished", json!([{"id": "a", "role": "assistant", "content": "1"}]), json!({})),
        run("finished", json!([{"id": "b", "role": "assistant", "content": "2"},
                               {"id": "a", "role": "assistant", "content": "1, corrected"}]), json!({}))
    ]});
    assert_eq!(
        client_messages(&p),
        vec![
            json!({"id": "a", "role": "assistant", "content": "1, corrected"}),
            json!({"id": "b", "role": "assistant", "content": "2"}),
        ]
    );
    let o = map_fixture(&fixture(json!({"outcome": "completed", "messageCount": 2})))
        .unwrap()
        .official;
    assert_eq!(check_projection(&o, &p), Ok(()));
}

#[test]
fn run_error_needs_an_errored_run() {
    let o = map_fixture(&fixture(
        json!({"outcome": "completed", "runError": "boom"}),
    ))
    .unwrap()
    .official;
    assert!(o.run_error);
    let finished = json!({"runs": [run("finished", json!([]), json!({}))]});
    assert_eq!(
        check_projection(&o, &finished),
        Err("runError: no run shows status `errored`".to_owned())
    );
    let errored = json!({"runs": [run("finished", json!([]), json!({})), run("errored", json!([]), json!({}))]});
    assert_eq!(check_projection(&o, &errored), Ok(()));
}

#[test]
fn null_state_is_a_value() {
    let o = map_fixture(&fixture(json!({"outcome": "completed", "state": null})))
        .unwrap()
        .official;
    assert_eq!(o.state, Some(Value::Null));
    // Our projection leaves a null state out ("absent means absent").
    let p = json!({"runs": [{"status": "finished", "messages": []}]});
    assert_eq!(check_projection(&o, &p), Ok(()));
    let p = json!({"runs": [run("finished", json!([]), json!({"k": 1}))]});
    assert!(check_projection(&o, &p).is_err());
}

#[test]
fn era_and_request_fixtures_are_not_comparable() {
    let mut f = fixture(json!({"outcome": "completed", "request": {"protocolVersion": "1.1"}}));
    let o = map_fixture(&f).unwrap().official;
    assert_eq!(
        o.not_comparable.as_deref(),
        Some(
            "it expects the request the client sends (`request`), not what the client shows of the stream"
        )
    );
    assert!(!o.expects_projection());
    assert_eq!(o.compared_outcome(), None);
    f["client"] = json!({"maxProtocolVersion": "0.0.45"});
    f["expect"] = json!({"outcome": "completed", "messages": []});
    let o = map_fixture(&f).unwrap().official;
    assert!(
        o.not_comparable
            .as_deref()
            .unwrap()
            .starts_with("the client is pinned to protocol version \"0.0.45\"")
    );
}

#[test]
fn the_two_admitted_gaps_are_judged_by_our_rule() {
    let mut f = fixture(json!({"outcome": "failed", "errorContains": "role"}));
    f["name"] = json!("unknown-enum-value-role-fatal");
    let o = map_fixture(&f).unwrap().official;
    assert_eq!(o.outcome, OfficialOutcome::Failed);
    assert!(o.gap.is_some());
    assert_eq!(o.compared_outcome(), None);
    assert_eq!(
        admitted_gap("unknown-enum-value-role-fatal").map(|g| g.0),
        Some(Some(OfficialOutcome::Completed))
    );
    assert_eq!(
        admitted_gap("truncated-run-reported-as-completed").map(|g| g.0),
        Some(None)
    );
    assert_eq!(admitted_gap("triad-assembles-message"), None);
}

#[test]
fn what_is_not_a_fixture_is_an_error() {
    assert!(map_fixture(&json!({"stream": [], "expect": {"outcome": "completed"}})).is_err());
    let e = map_fixture(&fixture(json!({"outcome": "maybe"}))).unwrap_err();
    assert!(e.contains("`maybe`"), "{e}");
}
