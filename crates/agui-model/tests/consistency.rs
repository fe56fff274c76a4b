//! The consistency warnings of revision 3 (docs/rules.md "Consistency
//! warnings"): `tool.args-not-json`, `tool.result-before-end`,
//! `messages.snapshot-disagrees`. Each stream is checked four ways (the
//! `Value` path and the fast path, with and without the projection), which
//! must report the same; expectations are written from docs/rules.md.

mod support;

use agui_model::check::check_bytes;
use agui_model::{Checker, LimitKind, Limits, RuleId as R, Verdict};
use serde_json::{Value, json};
use support::*;

/// `(rule, index, related)` of every violation, the same four ways; the
/// verdict is `accept` whenever only warnings were found.
fn found(events: &[Value]) -> Vec<(R, usize, Option<usize>)> {
    let lines: String = events.iter().map(|e| format!("{e}\n")).collect();
    let mut answers = Vec::new();
    for projection in [true, false] {
        let make = || {
            if projection {
                Checker::new()
            } else {
                Checker::without_projection()
            }
        };
        let mut c = make();
        for e in events {
            c.push(e);
        }
        answers.push(c.finish());
        answers.push(check_bytes(lines.as_bytes(), make()));
    }
    let list = |r: &agui_model::Report| -> Vec<(R, usize, Option<usize>)> {
        r.violations
            .iter()
            .map(|v| (v.rule, v.index, v.related))
            .collect()
    };
    let first = list(&answers[0]);
    for a in &answers {
        assert_eq!(list(a), first, "the four ways differ");
        let errors = a
            .violations
            .iter()
            .any(|v| v.rule.severity() == agui_model::Severity::Error);
        if !errors {
            assert_eq!(a.verdict(), Verdict::Accept);
        }
    }
    first
}

fn rules(events: &[Value]) -> Vec<(R, usize)> {
    found(events).into_iter().map(|(r, i, _)| (r, i)).collect()
}

fn snapshot(messages: Value) -> Value {
    json!({"type": "MESSAGES_SNAPSHOT", "messages": messages})
}

fn assistant(id: &str, content: &str) -> Value {
    json!({"id": id, "role": "assistant", "content": content})
}

fn with_call(id: &str, call: &str, name: &str, args: &str) -> Value {
    json!({"id": id, "role": "assistant",
           "toolCalls": [{"id": call, "type": "function", "function": {"name": name, "arguments": args}}]})
}

// ---- tool.args-not-json ----

#[test]
fn args_are_judged_when_an_explicit_call_ends() {
    let call = |deltas: &[&str]| {
        let mut v = vec![run_started(), tool_start("c1", "search", None, Some("s1"))];
        v.extend(deltas.iter().map(|d| tool_args("c1", d, Some("s1"))));
        v.push(tool_end("c1", None));
        v.push(run_finished());
        v
    };
    // The framework that lost its first argument chunk.
    assert_eq!(
        found(&call(&["\"Lisbon\"", "}"])),
        [(R::ToolArgsNotJson, 4, Some(1))]
    );
    // Blank is not empty, and not JSON.
    assert_eq!(rules(&call(&[" "])), [(R::ToolArgsNotJson, 3)]);
    // No arguments at all, and JSON across deltas (surrounding whitespace
    // allowed), are fine.
    assert_eq!(rules(&call(&[])), []);
    assert_eq!(rules(&call(&[" {\"city\":", " \"Lisbon\"}\n"])), []);
    // A surrogate pair split across two deltas, inside a JSON string.
    assert_eq!(rules(&call(&["[\"\u{10F83D}", "\u{10FE00}\"]"])), []);
}

#[test]
fn a_reopened_call_is_judged_on_its_own_deltas() {
    let events = [
        run_started(),
        tool_start("c1", "search", None, None),
        tool_args("c1", "}", None),
        tool_end("c1", None),
        tool_start("c1", "search", None, None),
        tool_args("c1", "{}", None),
        tool_end("c1", None),
        run_finished(),
    ];
    assert_eq!(found(&events), [(R::ToolArgsNotJson, 3, Some(1))]);
}

#[test]
fn a_chunked_call_is_judged_at_the_event_that_ends_it() {
    let open = tool_chunk(Some("c1"), Some("search"), Some("{\"q\":"), Some("s1"));
    // A new chunk stream in the same lane.
    let events = [
        run_started(),
        open.clone(),
        text_chunk(Some("m1"), Some("hi"), Some("s1")),
        run_finished(),
    ];
    assert_eq!(found(&events), [(R::ToolArgsNotJson, 2, Some(1))]);
    // An explicit event of the lane's owner.
    let events = [
        run_started(),
        open.clone(),
        custom(Some("s2")),
        custom(Some("s1")),
        run_finished(),
    ];
    assert_eq!(rules(&events), [(R::ToolArgsNotJson, 3)]);
    // The run's end, a RUN_ERROR, the invocation's end, a snapshot.
    for ender in [run_finished(), run_error(), snapshot(json!([]))] {
        let mut events = vec![run_started(), open.clone(), ender];
        if events[2]["type"] == "MESSAGES_SNAPSHOT" {
            events.push(run_finished());
        }
        assert_eq!(rules(&events), [(R::ToolArgsNotJson, 2)]);
    }
    let events = [
        run_started(),
        started("s1", None),
        open.clone(),
        finished("s1"),
        run_finished(),
    ];
    assert_eq!(rules(&events), [(R::ToolArgsNotJson, 3)]);
    // Events that close nothing leave it open: the end is RUN_FINISHED.
    let events = [
        run_started(),
        open,
        json!({"type": "RAW", "event": {}, "subagentRunId": "s1"}),
        tool_chunk(Some("c1"), None, Some("\"x\"}"), Some("s1")),
        run_finished(),
    ];
    assert_eq!(rules(&events), []);
}

// ---- tool.result-before-end ----

#[test]
fn a_result_for_an_open_call_is_a_warning() {
    let events = [
        run_started(),
        started("s1", None),
        tool_start("c1", "search", None, Some("s1")),
        tool_result("r1", "c1", "42", Some("s1")),
        tool_end("c1", Some("s1")),
        tool_result("r2", "c1", "43", None),
        finished("s1"),
        run_finished(),
    ];
    assert_eq!(found(&events), [(R::ToolResultBeforeEnd, 3, Some(2))]);
}

#[test]
fn a_result_ends_its_own_lane_first_but_not_another() {
    let open = tool_chunk(Some("c1"), Some("search"), Some("{}"), Some("s1"));
    // The result of s1 closes s1's lane, so the call has ended.
    let own = [
        run_started(),
        open.clone(),
        tool_result("r1", "c1", "42", Some("s1")),
        run_finished(),
    ];
    assert_eq!(rules(&own), []);
    // The parent's result leaves s1's lane open.
    let other = [
        run_started(),
        open,
        tool_result("r1", "c1", "42", None),
        run_finished(),
    ];
    assert_eq!(found(&other), [(R::ToolResultBeforeEnd, 2, Some(1))]);
}

#[test]
fn results_for_calls_never_opened_are_not_judged() {
    let events = [
        run_started(),
        tool_result("r1", "nowhere", "42", None),
        run_finished(),
    ];
    assert_eq!(rules(&events), []);
}

// ---- messages.snapshot-disagrees ----

fn streamed() -> Vec<Value> {
    vec![
        run_started(),
        text_start("m1", Some("s1")),
        text_content("m1", "Hello", Some("s1")),
        text_content("m1", " world", None),
        text_end("m1", Some("s1")),
        tool_start("c1", "weather", Some("m1"), Some("s1")),
        tool_args("c1", "\"Lisbon\"}", Some("s1")),
        tool_end("c1", Some("s1")),
    ]
}

#[test]
fn a_snapshot_agreeing_with_the_stream_is_clean() {
    let mut events = streamed();
    // The call's arguments are not JSON: that is the only finding.
    events.push(snapshot(json!([
        {"id": "m1", "role": "assistant", "content": "Hello world", "subagentRunId": "s1",
         "toolCalls": [{"id": "c1", "type": "function", "function": {"name": "weather", "arguments": "\"Lisbon\"}"}}]},
        {"id": "u0", "role": "user", "content": "never streamed"}
    ])));
    events.push(run_finished());
    assert_eq!(rules(&events), [(R::ToolArgsNotJson, 7)]);
}

#[test]
fn a_snapshot_disagreeing_with_an_ended_message_or_call_is_a_warning() {
    let mut events = streamed();
    events.push(snapshot(json!([
        assistant("m1", "Hello, world"),
        with_call("m2", "c1", "weather", "{\"city\": \"Lisbon\"}"),
    ])));
    events.push(run_finished());
    assert_eq!(
        found(&events),
        [
            (R::ToolArgsNotJson, 7, Some(5)),
            (R::MessagesSnapshotDisagrees, 8, Some(1)),
            (R::MessagesSnapshotDisagrees, 8, Some(5)),
        ]
    );
    // The tool's name alone.
    let mut events = streamed();
    events.push(snapshot(json!([with_call(
        "m1",
        "c1",
        "forecast",
        "\"Lisbon\"}"
    )])));
    events.push(run_finished());
    // m1's content is absent: it shows "" against "Hello world".
    assert_eq!(
        rules(&events),
        [
            (R::ToolArgsNotJson, 7),
            (R::MessagesSnapshotDisagrees, 8),
            (R::MessagesSnapshotDisagrees, 8),
        ]
    );
}

#[test]
fn open_messages_and_earlier_runs_are_not_compared() {
    // m1 is open at the snapshot; m0 was streamed in the run before.
    let events = [
        run_started(),
        text_start("m0", None),
        text_content("m0", "old", None),
        text_end("m0", None),
        run_finished(),
        run_started_id("r2"),
        text_start("m1", None),
        text_content("m1", "partial", None),
        snapshot(json!([
            assistant("m0", "changed"),
            assistant("m1", "partial and more")
        ])),
        text_end("m1", None),
        run_finished_id("r2"),
    ];
    assert_eq!(rules(&events), []);
    // Nothing of an earlier run leaks into a message of a later one (the
    // first id of each run gets the same name).
    let events = [
        run_started(),
        text_start("m0", None),
        text_content("m0", "old", None),
        text_end("m0", None),
        run_finished(),
        run_started_id("r2"),
        text_start("m1", None),
        text_content("m1", "new", None),
        text_end("m1", None),
        snapshot(json!([assistant("m1", "new")])),
        run_finished_id("r2"),
    ];
    assert_eq!(rules(&events), []);
    // Once m1 has ended, the same snapshot disagrees about it.
    let events = [
        run_started(),
        text_start("m1", None),
        text_content("m1", "partial", None),
        text_end("m1", None),
        snapshot(json!([assistant("m1", "partial and more")])),
        run_finished(),
    ];
    assert_eq!(rules(&events), [(R::MessagesSnapshotDisagrees, 4)]);
}

#[test]
fn a_chunk_stream_the_snapshot_closes_has_ended_before_it_is_compared() {
    // MESSAGES_SNAPSHOT closes every lane first (the chunk shorthand).
    let events = [
        run_started(),
        text_chunk(Some("m1"), Some("Hel"), None),
        text_chunk(None, Some("lo"), None),
        snapshot(json!([assistant("m1", "Help")])),
        run_finished(),
    ];
    assert_eq!(found(&events), [(R::MessagesSnapshotDisagrees, 3, Some(1))]);
}

#[test]
fn other_kinds_and_content_parts_are_read_as_the_projection_reads_them() {
    let events = [
        run_started(),
        json!({"type": "TEXT_MESSAGE_START", "messageId": "u1", "role": "user"}),
        text_content("u1", "Look", None),
        text_end("u1", None),
        reasoning_msg_start("r1", None),
        reasoning_msg_content("r1", "thinking", None),
        reasoning_msg_end("r1", None),
        text_start("x1", None),
        text_content("x1", "text", None),
        text_end("x1", None),
        // Reasoning and activity messages are other kinds (even under a
        // text message's id); the user message's text parts concatenate
        // to what was streamed.
        snapshot(json!([
            {"id": "u1", "role": "user", "content": [
                {"type": "text", "text": "Lo"},
                {"type": "image", "text": "not text", "source": {"type": "url", "value": "https://example.invalid/i.png"}},
                {"type": "text", "text": "ok"}]},
            {"id": "r1", "role": "reasoning", "content": "something else"},
            {"id": "x1", "role": "reasoning", "content": "something else"},
            {"id": "x1", "role": "activity", "activityType": "a", "content": {}}
        ])),
        run_finished(),
    ];
    assert_eq!(rules(&events), []);
}

#[test]
fn streamed_text_joins_as_utf16_before_it_is_compared() {
    // A pair split across deltas (as a JavaScript producer splits it)
    // equals the character written whole in the snapshot.
    let events = [
        run_started(),
        text_start("m1", None),
        text_content("m1", "a\u{10F83D}", None),
        text_content("m1", "\u{10FE00}", None),
        text_end("m1", None),
        snapshot(json!([assistant("m1", "a😀")])),
        run_finished(),
    ];
    assert_eq!(rules(&events), []);
}

// ---- limits ----

#[test]
fn consistency_is_not_judged_while_blind_after_a_skip() {
    let run = r#"{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}"#;
    let deep = format!(
        r#"{{"type":"CUSTOM","name":"n","value":{}{}}}"#,
        "[".repeat(20_000),
        "]".repeat(20_000)
    );
    let lines = [
        run,
        r#"{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"f"}"#,
        r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{"}"#,
        deep.as_str(),
        r#"{"type":"TOOL_CALL_RESULT","messageId":"r1","toolCallId":"c1","content":"x"}"#,
        r#"{"type":"TOOL_CALL_END","toolCallId":"c1"}"#,
        r#"{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"c1","role":"assistant","toolCalls":[{"id":"c1","type":"function","function":{"name":"g","arguments":"{}"}}]}]}"#,
        r#"{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}"#,
        run,
        r#"{"type":"TOOL_CALL_START","toolCallId":"c2","toolCallName":"f"}"#,
        r#"{"type":"TOOL_CALL_END","toolCallId":"c2"}"#,
        r#"{"type":"TOOL_CALL_START","toolCallId":"c3","toolCallName":"f"}"#,
        r#"{"type":"TOOL_CALL_RESULT","messageId":"r3","toolCallId":"c3","content":"x"}"#,
        r#"{"type":"TOOL_CALL_ARGS","toolCallId":"c3","delta":"{"}"#,
        r#"{"type":"TOOL_CALL_END","toolCallId":"c3"}"#,
        r#"{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}"#,
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    for checker in [Checker::new(), Checker::without_projection()] {
        let r = check_bytes(text.as_bytes(), checker);
        assert_eq!(r.limits.len(), 1);
        assert_eq!(
            (r.limits[0].kind, r.limits[0].index),
            (LimitKind::Nesting, 3)
        );
        // Nothing of the first run after the skip; the second run in full.
        let got: Vec<(R, usize)> = r.violations.iter().map(|v| (v.rule, v.index)).collect();
        assert_eq!(
            got,
            [(R::ToolResultBeforeEnd, 12), (R::ToolArgsNotJson, 14)]
        );
    }
}

/// One message of `kib` KiB in 1 KiB deltas, then a snapshot giving it
/// `content` (the streamed text when `None`).
fn long_message(kib: usize, content: Option<&str>) -> String {
    let delta = "x".repeat(1024);
    let mut text = String::from(
        "{\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"}\n\
         {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"}\n",
    );
    for _ in 0..kib {
        text.push_str(&format!(
            "{{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"{delta}\"}}\n"
        ));
    }
    let whole = delta.repeat(kib);
    let content = content.unwrap_or(&whole);
    text.push_str(&format!(
        "{{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"}}\n\
         {{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{{\"id\":\"m1\",\"role\":\"assistant\",\"content\":\"{content}\"}}]}}\n\
         {{\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}}\n"
    ));
    text
}

#[test]
fn a_long_message_is_compared_without_being_kept() {
    // 2 MiB of text under a 1 MiB budget: the bookkeeping keeps a print of
    // it, not the text, and the snapshot is still compared.
    let limits = Limits {
        bookkeeping_bytes: 1 << 20,
        ..Limits::default()
    };
    let last = format!("{}y", "x".repeat(2048 * 1024 - 1));
    for (content, want) in [
        (None, vec![]),
        (Some(last.as_str()), vec![R::MessagesSnapshotDisagrees]),
    ] {
        let stream = long_message(2048, content);
        let r = check_bytes(
            stream.as_bytes(),
            Checker::without_projection().with_limits(limits),
        );
        assert!(r.limits.is_empty(), "{:?}", r.limits);
        let got: Vec<R> = r.violations.iter().map(|v| v.rule).collect();
        assert_eq!(got, want);
        assert_eq!(r.verdict(), Verdict::Accept);
    }
}

/// `runs` runs, each with a call left open with `kib` KiB of arguments and
/// ended by RUN_ERROR (it never ends, and its arguments are never read).
fn open_calls(runs: usize, kib: usize) -> String {
    let delta = "1,".repeat(512);
    let mut text = String::new();
    for r in 0..runs {
        text.push_str(&format!(
            "{{\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r{r}\"}}\n\
             {{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c{r}\",\"toolCallName\":\"f\"}}\n"
        ));
        for _ in 0..kib {
            text.push_str(&format!(
                "{{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c{r}\",\"delta\":\"{delta}\"}}\n"
            ));
        }
        text.push_str("{\"type\":\"RUN_ERROR\",\"message\":\"stop\"}\n");
    }
    text
}

#[test]
fn an_open_calls_arguments_count_against_the_bookkeeping_budget() {
    let limits = Limits {
        bookkeeping_bytes: 1 << 20,
        ..Limits::default()
    };
    for checker in [Checker::new(), Checker::without_projection()] {
        let r = check_bytes(open_calls(1, 2048).as_bytes(), checker.with_limits(limits));
        assert_eq!(r.limits.len(), 1, "{:?}", r.limits);
        let n = &r.limits[0];
        assert_eq!(n.kind, LimitKind::BookkeepingBytes);
        // Past 1 MiB of arguments, within a doubling of their string.
        assert!(n.index > 512 && n.index < 2048, "notice at {}", n.index);
        assert_eq!(r.verdict(), Verdict::Inconclusive);
    }
}

#[test]
fn what_a_run_streamed_is_forgotten_at_the_next_run() {
    // 40 runs, each leaving 64 KiB of arguments open, under a 1 MiB
    // budget: each run's are dropped at the next RUN_STARTED.
    let limits = Limits {
        bookkeeping_bytes: 1 << 20,
        ..Limits::default()
    };
    let r = check_bytes(
        open_calls(40, 64).as_bytes(),
        Checker::without_projection().with_limits(limits),
    );
    assert!(r.limits.is_empty(), "{:?}", r.limits);
    assert_eq!(r.verdict(), Verdict::Accept);
}

#[test]
fn snapshot_arguments_are_compared_as_json_values_when_both_are_one() {
    // Revision 4: ag-ui-strands streams `{"city": "Lisbon"}` and its
    // snapshot re-serialises it `{"city":"Lisbon"}`: the same value.
    let streamed = |args: &str| {
        vec![
            run_started(),
            tool_start("c1", "weather", Some("m1"), None),
            tool_args("c1", args, None),
            tool_end("c1", None),
        ]
    };
    let mut same = streamed(r#"{"city": "Lisbon", "days": [1, 2]}"#);
    same.push(snapshot(json!([with_call(
        "m1",
        "c1",
        "weather",
        r#"{"days":[1,2],"city":"Lisbon"}"#
    )])));
    same.push(run_finished());
    assert_eq!(rules(&same), []);
    // A different value is still a disagreement.
    let mut other = streamed(r#"{"city": "Lisbon"}"#);
    other.push(snapshot(json!([with_call(
        "m1",
        "c1",
        "weather",
        r#"{"city":"Porto"}"#
    )])));
    other.push(run_finished());
    assert_eq!(rules(&other), [(R::MessagesSnapshotDisagrees, 4)]);
    // Not both JSON: compared as strings, exactly.
    let mut text = streamed("Lisbon ");
    text.push(snapshot(json!([with_call(
        "m1", "c1", "weather", "Lisbon"
    )])));
    text.push(run_finished());
    assert_eq!(
        rules(&text),
        [(R::ToolArgsNotJson, 3), (R::MessagesSnapshotDisagrees, 4)]
    );
}

// ---- what a disagreement shows ----

/// `(rule, index, message)` of every `messages.snapshot-disagrees`, the
/// same four ways.
fn disagreements(events: &[Value]) -> Vec<(usize, String)> {
    let lines: String = events.iter().map(|e| format!("{e}\n")).collect();
    let mut answers = Vec::new();
    for projection in [true, false] {
        let make = || {
            if projection {
                Checker::new()
            } else {
                Checker::without_projection()
            }
        };
        let mut c = make();
        for e in events {
            c.push(e);
        }
        answers.push(c.finish());
        answers.push(check_bytes(lines.as_bytes(), make()));
    }
    let list = |r: &agui_model::Report| -> Vec<(usize, String)> {
        r.violations
            .iter()
            .filter(|v| v.rule == R::MessagesSnapshotDisagrees)
            .map(|v| (v.index, v.message.clone()))
            .collect()
    };
    let first = list(&answers[0]);
    for a in &answers {
        assert_eq!(list(a), first, "the four ways differ");
    }
    first
}

#[test]
fn a_disagreement_shows_both_sides_around_the_first_difference() {
    // m1 streamed "Hello" + " world"; c1 streamed `"Lisbon"}`.
    let mut events = streamed();
    events.push(snapshot(json!([
        assistant("m1", "Hello, world"),
        with_call("m2", "c1", "weather", "{\"city\": \"Lisbon\"}"),
    ])));
    events.push(run_finished());
    assert_eq!(
        disagreements(&events),
        [
            (
                8,
                "MESSAGES_SNAPSHOT gives message \"m1\" a content other than the text this run \
                 streamed for it, at byte 5: snapshot \"Hello|, world\" (12 bytes), streamed \
                 \"Hello| world\" (11 bytes)"
                    .to_owned()
            ),
            (
                8,
                "MESSAGES_SNAPSHOT gives tool call \"c1\" arguments other than those this run \
                 streamed, at byte 0: snapshot \"|{\\\"city\\\": \\\"Lisbon\\\"}\" (18 bytes), \
                 streamed \"|\\\"Lisbon\\\"}\" (9 bytes)"
                    .to_owned()
            ),
        ]
    );
    // The tool's name, and m1's content absent (it shows "").
    let mut events = streamed();
    events.push(snapshot(json!([with_call(
        "m1",
        "c1",
        "weathers",
        "\"Lisbon\"}"
    )])));
    events.push(run_finished());
    assert_eq!(
        disagreements(&events),
        [
            (
                8,
                "MESSAGES_SNAPSHOT gives message \"m1\" a content other than the text this run \
                 streamed for it, at byte 0: snapshot \"|\" (ends there, 0 bytes), streamed \
                 \"|Hello world\" (11 bytes)"
                    .to_owned()
            ),
            (
                8,
                "MESSAGES_SNAPSHOT gives tool call \"c1\" a name other than the one this run \
                 streamed, at byte 7: snapshot \"weather|s\" (8 bytes), streamed \"weather|\" \
                 (ends there, 7 bytes)"
                    .to_owned()
            ),
        ]
    );
}

#[test]
fn arguments_that_are_json_values_are_shown_compact_with_members_sorted() {
    let events = [
        run_started(),
        tool_start("c1", "weather", None, None),
        tool_args("c1", "{\"units\": \"C\", ", None),
        tool_args("c1", "\"city\": \"Lisbon\"}", None),
        tool_end("c1", None),
        snapshot(json!([with_call(
            "m1",
            "c1",
            "weather",
            "{\"city\":\"Lisboa\",\"units\":\"C\"}"
        )])),
        run_finished(),
    ];
    assert_eq!(
        disagreements(&events),
        [(
            5,
            "MESSAGES_SNAPSHOT gives tool call \"c1\" arguments other than those this run \
             streamed (compared as JSON values; shown compact, members sorted), at byte 14: \
             snapshot \"{\\\"city\\\":\\\"Lisbo|a\\\",\\\"units\\\":\\\"C\\\"}\" (29 bytes), \
             streamed \"{\\\"city\\\":\\\"Lisbo|n\\\",\\\"units\\\":\\\"C\\\"}\" (29 bytes)"
                .to_owned()
        )]
    );
}

#[test]
fn a_difference_in_a_long_text_is_placed_in_what_was_kept() {
    // 2 MiB of "x" folded 128 KiB at a time (an eighth of a 1 MiB budget):
    // its first and last 64 bytes are kept, and nothing is in the buffer
    // at the snapshot (2048 deltas of 1 KiB fold 16 times exactly).
    let limits = Limits {
        bookkeeping_bytes: 1 << 20,
        ..Limits::default()
    };
    let message = |content: &str| {
        let r = check_bytes(
            long_message(2048, Some(content)).as_bytes(),
            Checker::without_projection().with_limits(limits),
        );
        assert!(r.limits.is_empty(), "{:?}", r.limits);
        r.violations
            .iter()
            .map(|v| v.message.clone())
            .collect::<Vec<_>>()
    };
    let head = "MESSAGES_SNAPSHOT gives message \"m1\" a content other than the text this run \
                streamed for it, at byte 64 or later: the two agree on the first 64 bytes, and \
                streamed bytes 64..2097088 were not kept; ";
    let x20 = "x".repeat(20);
    // The last byte differs: in the kept tail, the same length.
    let last = format!("{}y", "x".repeat(2048 * 1024 - 1));
    assert_eq!(
        message(&last),
        [format!(
            "{head}they differ at byte 2097151 at the latest: snapshot …\"{x20}|y\" (2097152 bytes), \
             streamed …\"{x20}|x\" (2097152 bytes)"
        )]
    );
    // A byte in the middle: everything kept agrees.
    let middle = format!("{}y{}", "x".repeat(1000), "x".repeat(2048 * 1024 - 1001));
    let x40 = "x".repeat(40);
    assert_eq!(
        message(&middle),
        [format!(
            "{head}snapshot …\"|{x40}\"… (2097152 bytes) agrees with the last 64 bytes of streamed (2097152 bytes)"
        )]
    );
    // Near the start: exact.
    let early = format!("{}y{}", "x".repeat(30), "x".repeat(2048 * 1024 - 31));
    assert_eq!(
        message(&early),
        [format!(
            "MESSAGES_SNAPSHOT gives message \"m1\" a content other than the text this run \
             streamed for it, at byte 30: snapshot …\"{x20}|y{}\"… (2097152 bytes), streamed …\"{x20}|{}\"… (2097152 bytes)",
            "x".repeat(39),
            // What is kept of its head after the offset.
            "x".repeat(64 - 30)
        )]
    );
}
